/* Part of _speedups.c, with serd.h (built only with libserd: URNLD_HAVE_SERD). Twin of
 * urnld.stream._serd and urnld.stream._passes for one statement's terms: serd's nodes as the
 * N-Triples tokens pyoxigraph would write, IRI references checked and resolved as
 * pyoxigraph does, blank-node labels renamed as urnld._kernel._blanks does, and each URN
 * term through the line pass's term rule. See serd.h for the pass. */
#ifndef URNLD_SPEEDUPS_SERD_TERMS_H
#define URNLD_SPEEDUPS_SERD_TERMS_H

#include "serd_scan.h"

/* ---- terms ----------------------------------------------------------------------------- */

/* Characters IRIREF excludes (after \u escapes are decoded): controls, space, <>"{}|^`\ */
static int
hex_digit(unsigned char b)
{
    return DIGIT(b) || ((b | 0x20) >= 'a' && (b | 0x20) <= 'f');
}

static int
bad_iri_byte(unsigned char b)
{
    if (b > '`')
        return b == '{' || b == '|' || b == '}';
    return b <= 0x20 || b == '<' || b == '>' || b == '"' || b == '^' || b == '`' || b == '\\';
}

/* The length of the valid UTF-8 prefix of s[0..n) (n: all of it). serd writes a \u escape
 * of a surrogate (\uD800) as its three bytes, which are no UTF-8 (RFC 3629); pyoxigraph
 * refuses them, and so does this path. */
static size_t
utf8_valid_prefix(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned char c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t len;
        uint32_t min, cp;
        if (c >= 0xC2 && c <= 0xDF)
            len = 2, min = 0x80, cp = c & 0x1F;
        else if (c >= 0xE0 && c <= 0xEF)
            len = 3, min = 0x800, cp = c & 0x0F;
        else if (c >= 0xF0 && c <= 0xF4)
            len = 4, min = 0x10000, cp = c & 0x07;
        else
            return i;
        if (i + len > n)
            return i;
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xC0) != 0x80)
                return i;
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return i;
        i += len;
    }
    return n;
}

/* Whether a node's text is UTF-8 (else sp_fail). */
static int
check_utf8(SP *c, const char *s, size_t n, const char *what)
{
    size_t ok = utf8_valid_prefix((const unsigned char *)s, n);
    if (ok == n)
        return 0;
    sp_fail(c, "syntax", "%s holds a byte sequence that is not UTF-8 (byte %zu: 0x%02X; a "
            "\\u escape of a surrogate, \\uD800 to \\uDFFF, is not a character)", what, ok,
            (unsigned)(unsigned char)s[ok]);
    return -1;
}

static int
has_scheme(const uint8_t *s, size_t n)
{
    if (n == 0 || !iri_scheme_char(s[0], 1))
        return 0;
    for (size_t i = 1; i < n; i++) {
        if (s[i] == ':')
            return 1;
        if (!iri_scheme_char(s[i], 0))
            return 0;
    }
    return 0;
}

/* Whether a reference without a scheme has a ":" before its first "/", "?" or "#" (which
 * no relative reference may: RFC 3986 §4.2). */
static int
colon_in_first_segment(const uint8_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '/' || s[i] == '?' || s[i] == '#')
            return 0;
        if (s[i] == ':')
            return 1;
    }
    return 0;
}

/* The absolute IRI of a URI or CURIE node into out. Returns 0, or -1 (error set, or
 * sp_fail). */
static int
node_iri(SP *c, const SerdNode *n, SBuf *out)
{
    out->n = 0;
    if (n->type == SERD_URI) {
        if (has_scheme(n->buf, n->n_bytes)) {
            if (sbuf_put(out, n->buf, n->n_bytes) < 0) {
                c->failed = 1;
                return -1;
            }
        }
        else if (colon_in_first_segment(n->buf, n->n_bytes)) {
            /* RFC 3986 §4.2: no relative reference (and no scheme: "://x", "1a:b") */
            sp_fail(c, "syntax", "invalid IRI <%.200s>: no scheme, and a colon in its first "
                    "segment", (const char *)n->buf);
            return -1;
        }
        else if (!c->have_base) {
            sp_fail(c, "syntax", "relative IRI <%.200s> and no base IRI to resolve it against",
                    (const char *)n->buf);
            return -1;
        }
        else if (iri_resolve(c->base.p, (Py_ssize_t)c->base.n, (const char *)n->buf,
                             (Py_ssize_t)n->n_bytes, out) < 0) {
            c->failed = 1;
            return -1;
        }
    }
    else if (n->type == SERD_CURIE) {
        SerdChunk pre, suf;
        if (serd_env_expand(c->env, n, &pre, &suf) != SERD_SUCCESS) {
            sp_fail(c, "syntax", "undefined prefix in %.200s", (const char *)n->buf);
            return -1;
        }
        if (sbuf_put(out, pre.buf, pre.len) < 0 || sbuf_put(out, suf.buf, suf.len) < 0) {
            c->failed = 1;
            return -1;
        }
    }
    else {
        sp_fail(c, "syntax", "unexpected node");
        return -1;
    }
    /* A prefixed name's local part holds no character IRIs exclude (PN_LOCAL and its
     * escapes), and its namespace was checked when declared; an IRIREF's \u escapes may. */
    if (n->type == SERD_CURIE)
        return 0;
    int high = 0;
    const unsigned char *q = (const unsigned char *)out->p;
    for (size_t i = 0; i < out->n; i++) {
        high |= q[i] & 0x80;
        if (bad_iri_byte(q[i])) {
            sp_fail(c, "syntax", "invalid IRI character U+%04X in <%.200s>", (unsigned)q[i],
                    (const char *)n->buf);
            return -1;
        }
        /* RFC 3987 pct-encoded: "%" and two hexadecimal digits (pyoxigraph checks it too) */
        if (q[i] == '%' && (i + 2 >= out->n || !hex_digit(q[i + 1]) || !hex_digit(q[i + 2]))) {
            sp_fail(c, "syntax", "invalid percent-encoding in <%.200s>", (const char *)n->buf);
            return -1;
        }
    }
    if (memchr(q, '[', out->n) != NULL || memchr(q, ']', out->n) != NULL) {
        /* RFC 3987: brackets only around an IP literal, the host of an authority */
        size_t i = 0, end;
        while (i < out->n && q[i] != ':')
            i++;
        int ok = i + 2 < out->n && q[i + 1] == '/' && q[i + 2] == '/';
        if (ok) {
            size_t a = i + 3;
            for (end = a; end < out->n && q[end] != '/' && q[end] != '?' && q[end] != '#'; end++)
                ;
            size_t host = a;
            for (size_t k = a; k < end; k++)
                if (q[k] == '@')
                    host = k + 1;
            const unsigned char *close = memchr(q + host, ']', end - host);
            ok = host < end && q[host] == '[' && close != NULL &&
                 memchr(q + host + 1, '[', end - host - 1) == NULL &&
                 memchr(close + 1, ']', (size_t)(q + end - (close + 1))) == NULL &&
                 memchr(q + end, '[', out->n - end) == NULL &&
                 memchr(q + end, ']', out->n - end) == NULL &&
                 memchr(q, '[', host) == NULL && memchr(q, ']', host) == NULL;
        }
        if (!ok) {
            sp_fail(c, "syntax", "invalid IRI <%.200s>: \"[\" or \"]\" outside an IP literal",
                    (const char *)n->buf);
            return -1;
        }
    }
    return high ? check_utf8(c, out->p, out->n, "an IRI") : 0;
}

static int
hex_lower(unsigned char b)
{
    return DIGIT(b) || (b >= 'a' && b <= 'f');
}

/* Can BlankLabels rename this label: one a parser invents ([a-f][0-9a-f]{23,31}, "N" and 32
 * hexadecimal digits: urnld._kernel._blanks._INVENTED) or one of its own ("b" and a number
 * without leading zero: _FRESH)? Every other label is kept as written. */
static int
relabel_shape(const char *p, size_t n)
{
    const unsigned char *s = (const unsigned char *)p;
    if (n >= 2 && s[0] == 'b' && all_digits(p + 1, n - 1))
        return s[1] != '0' || n == 2;
    size_t from = 1;
    if (n == 33 && s[0] == 'N')
        from = 1;
    else if (n >= 24 && n <= 32 && s[0] >= 'a' && s[0] <= 'f')
        from = 1;
    else
        return 0;
    for (size_t i = from; i < n; i++)
        if (!hex_lower(s[i]))
            return 0;
    return 1;
}

/* out, a label relabel_shape() took, replaced by what relabel() makes of it (cached). */
static int
relabel_label(SP *c, SBuf *out)
{
    PyObject *key = PyBytes_FromStringAndSize(out->p, (Py_ssize_t)out->n);
    if (key == NULL) {
        c->failed = 1;
        return -1;
    }
    PyObject *v = PyDict_GetItemWithError(c->labels, key);
    if (v == NULL) {
        if (PyErr_Occurred()) {
            Py_DECREF(key);
            c->failed = 1;
            return -1;
        }
        v = PyObject_CallOneArg(c->relabel, key);
        if (v == NULL || !PyBytes_CheckExact(v) || PyDict_SetItem(c->labels, key, v) < 0) {
            if (v != NULL && !PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "relabel() must return bytes");
            Py_XDECREF(v);
            Py_DECREF(key);
            c->failed = 1;
            return -1;
        }
        Py_DECREF(v); /* the dict holds it */
    }
    Py_DECREF(key);
    out->n = 0;
    if (sbuf_put(out, PyBytes_AS_STRING(v), (size_t)PyBytes_GET_SIZE(v)) < 0) {
        c->failed = 1;
        return -1;
    }
    return 0;
}

/* A blank node's output label into out (Turtle, TriG: serd's renaming undone, its labels of
 * anonymous nodes in urnld's own family, and with relabel the labels BlankLabels gives). */
static int
node_label(SP *c, const SerdNode *n, SBuf *out, Term *t)
{
    const char *s = (const char *)n->buf;
    size_t len = n->n_bytes;
    t->kind = T_BLANK;
    t->dt = t->lang = NULL;
    if (check_utf8(c, s, len, "a blank-node label") < 0)
        return -1;
    if (!c->fancy || c->out == 0) {
        t->s = s;
        t->n = len;
        return 0;
    }
    out->n = 0;
    if (len >= 2 && s[0] == 'b' && all_digits(s + 1, len - 1)) {
        /* an anonymous node: serd numbers them b1, b2… (and renames labels like that) */
        if (sbuf_put(out, c->seed, c->seed_len) < 0 || sbuf_put(out, s + 1, len - 1) < 0) {
            c->failed = 1;
            return -1;
        }
    }
    else {
        if (len >= c->seed_len && memcmp(s, c->seed, c->seed_len) == 0) {
            sp_fail(c, "labels", "blank-node label _:%.100s is in the family urnld gives "
                    "anonymous blank nodes (_:%s…)", s, c->seed);
            return -1;
        }
        if (len >= 2 && s[0] == 'B' && DIGIT((unsigned char)s[1]) && !c->scan.seen_upper) {
            /* serd wrote "b1" as "B1"; no label of that style is in the document */
            if (sbuf_putc(out, 'b') < 0 || sbuf_put(out, s + 1, len - 1) < 0) {
                c->failed = 1;
                return -1;
            }
        }
        else if (sbuf_put(out, s, len) < 0) {
            c->failed = 1;
            return -1;
        }
        if (c->relabel != NULL && relabel_shape(out->p, out->n) && relabel_label(c, out) < 0)
            return -1;
    }
    t->s = out->p;
    t->n = out->n;
    return 0;
}

/* The term of a resource node (URI, CURIE, blank). */
static int
node_term(SP *c, const SerdNode *n, int slot, Term *t)
{
    if (n->type == SERD_BLANK)
        return node_label(c, n, &c->label[slot], t);
    if (node_iri(c, n, &c->iri[slot]) < 0)
        return -1;
    t->kind = T_IRI;
    t->s = c->iri[slot].p;
    t->n = c->iri[slot].n;
    t->dt = t->lang = NULL;
    return 0;
}

/* ---- the term rule --------------------------------------------------------------------- */


/* The term rule's answer for the token in c->tok (the line pass's lookup(): its caches, then
 * *miss* or *fast_miss*): *out* the replacement, or NULL where the term stays as written. */
static int
rule_lookup(SP *c, PyObject *miss, FastMiss fast_miss, PyObject **out, PyObject **tok)
{
    PyObject *v = lookup((const unsigned char *)c->tok.p, 0, (Py_ssize_t)c->tok.n, c->tokens,
                         miss, c->use_fast ? &c->fast : NULL, fast_miss, tok);
    if (v == NULL) {
        c->failed = 1;
        return -1;
    }
    if (PyBytes_GET_SIZE(v) == 0) {
        Py_DECREF(v);
        Py_CLEAR(*tok);
        return 0;
    }
    *out = v;
    return 0;
}
/* The output for the IRI t through the line pass's cache (lookup: its token is "<iri>", as
 * pyoxigraph writes it). *out: a new reference (b"" for "as it is"), *tok: the token or NULL
 * (no URN). Returns 0 or -1. */
static int
rule_iri(SP *c, const Term *t, PyObject **out, PyObject **tok)
{
    *out = *tok = NULL;
    unsigned char first = t->n ? (unsigned char)t->s[0] : 0;
    if (first != 'u' && first != 'U') {
        if (c->fast.divert == NULL)
            return 0;
    }
    c->tok.n = 0;
    if (put_iriref(&c->tok, t->s, t->n) < 0) {
        c->failed = 1;
        return -1;
    }
    return rule_lookup(c, c->iri_fn, fast_iri, out, tok);
}

/* The same for a literal object (its token: the N-Triples form, xsd:string plain). */
static int
rule_literal(SP *c, const Term *t, PyObject **out, PyObject **tok)
{
    *out = *tok = NULL;
    unsigned char first = t->n ? (unsigned char)t->s[0] : 0;
    if (first != 'u' && first != 'U')
        return 0;
    c->tok.n = 0;
    if (put_nt_term(&c->tok, t) < 0) {
        c->failed = 1;
        return -1;
    }
    return rule_lookup(c, c->literal_fn, fast_literal, out, tok);
}

static int
same_token(PyObject *a, PyObject *b)
{
    return a != NULL && b != NULL &&
           (a == b || (PyBytes_GET_SIZE(a) == PyBytes_GET_SIZE(b) &&
                       memcmp(PyBytes_AS_STRING(a), PyBytes_AS_STRING(b),
                              (size_t)PyBytes_GET_SIZE(a)) == 0));
}

/* Point t at the rewritten form of its output token out (when it differs from tok): an IRI
 * "<…>" or a literal "\"…\"…" whose canonical lexical form is ASCII without escapes. */
static void
apply_output(Term *t, PyObject *out, PyObject *tok)
{
    if (out == NULL || out == tok || same_token(out, tok))
        return;
    const char *s = PyBytes_AS_STRING(out);
    Py_ssize_t n = PyBytes_GET_SIZE(out);
    if (t->kind == T_IRI && n >= 2 && s[0] == '<') {
        t->s = s + 1;
        t->n = (size_t)(n - 2);
    }
    else if (t->kind == T_LITERAL && n >= 2 && s[0] == '"') {
        const char *end = memchr(s + 1, '"', (size_t)(n - 1));
        if (end != NULL) {
            t->s = s + 1;
            t->n = (size_t)(end - s - 1);
        }
    }
}

#endif /* URNLD_SPEEDUPS_SERD_TERMS_H */
