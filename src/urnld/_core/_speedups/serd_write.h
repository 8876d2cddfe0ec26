/* Part of _speedups.c (one translation unit), built with libserd only. Twin of pyoxigraph's
 * writer as urnld.stream._stage_c calls it. The writer of the serd path (serd.h): statements out as N-Triples, N-Quads, Turtle or TriG, in the layout
 * pyoxigraph's serializer uses (subjects grouped with ";", objects with ",", "a" for
 * rdf:type, prefixed names where the local part is a plain name, numbers and booleans bare
 * when their lexical form is the Turtle one), so that both paths write alike.
 *
 * serd's own writer is not used: it writes "abc"^^xsd:integer bare (invalid Turtle), writes
 * rdf:nil as "()" in any position (a predicate or graph name too), and its abbreviated
 * collections do not read back on some W3C tests. Terms reach this writer as absolute IRIs,
 * blank-node labels and literals (lexical form unescaped, datatype IRI, language tag). */
#ifndef URNLD_SPEEDUPS_SERD_WRITE_H
#define URNLD_SPEEDUPS_SERD_WRITE_H

#define NS_XSD_IRI "http://www.w3.org/2001/XMLSchema#"
#define NS_XSD_LEN (sizeof(NS_XSD_IRI) - 1)
#define RDF_TYPE_IRI "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
#define RDF_TYPE_LEN (sizeof(RDF_TYPE_IRI) - 1)

enum { T_NONE = 0, T_IRI, T_BLANK, T_LITERAL };

/* memcmp() of n bytes, where an empty buffer may be NULL (which memcmp must not be given) */
#define MEMEQ(a, b, n) ((n) == 0 || memcmp((a), (b), (n)) == 0)

typedef struct {
    int kind;
    const char *s; /* IRI, blank-node label (without "_:") or lexical form */
    size_t n;
    const char *dt; /* a literal's datatype IRI, or NULL (xsd:string, or a language tag) */
    size_t dtn;
    const char *lang; /* a literal's language tag, or NULL */
    size_t langn;
} Term;

/* A term written before: kind and bytes (a copy). */
typedef struct {
    int kind;
    SBuf text;
} Held;

typedef struct {
    SBuf name, ns;
} OutPrefix;

typedef struct {
    SBuf *out;
    int syntax; /* SERD_NTRIPLES, SERD_NQUADS, SERD_TURTLE, SERD_TRIG */
    OutPrefix *prefixes;
    Py_ssize_t n_prefixes, cap_prefixes;
    Held s, p, g; /* the open subject, predicate and graph (Turtle, TriG) */
    int have_s, in_graph;
} Writer;

static int
held_is(const Held *h, const Term *t)
{
    return h->kind == t->kind && h->text.n == t->n && MEMEQ(h->text.p, t->s, t->n);
}

static int
held_set(Held *h, const Term *t)
{
    h->kind = t->kind;
    h->text.n = 0;
    return sbuf_put(&h->text, t->s, t->n);
}

static void
writer_free(Writer *w)
{
    for (Py_ssize_t k = 0; k < w->n_prefixes; k++) {
        sbuf_free(&w->prefixes[k].name);
        sbuf_free(&w->prefixes[k].ns);
    }
    PyMem_RawFree(w->prefixes);
    w->prefixes = NULL;
    w->n_prefixes = w->cap_prefixes = 0;
    sbuf_free(&w->s.text);
    sbuf_free(&w->p.text);
    sbuf_free(&w->g.text);
}

/* A literal's lexical form, quoted and escaped as pyoxigraph writes it (N-Triples and Turtle
 * alike): \\ \" \n \r \t \b \f, other control characters as \uXXXX, the rest as it is. */
static int
put_quoted(SBuf *b, const char *s, size_t n)
{
    if (sbuf_reserve(b, n + 2) < 0)
        return -1;
    b->p[b->n++] = '"';
    size_t i = 0;
    while (i < n) {
        size_t j = i;
        while (j < n) {
            unsigned char c = (unsigned char)s[j];
            if (c < 0x20 || c == '"' || c == '\\' || c == 0x7F)
                break;
            j++;
        }
        if (sbuf_put(b, s + i, j - i) < 0)
            return -1;
        if (j == n)
            break;
        unsigned char c = (unsigned char)s[j];
        char esc[8];
        const char *e = NULL;
        switch (c) {
        case '"': e = "\\\""; break;
        case '\\': e = "\\\\"; break;
        case '\n': e = "\\n"; break;
        case '\r': e = "\\r"; break;
        case '\t': e = "\\t"; break;
        case '\b': e = "\\b"; break;
        case '\f': e = "\\f"; break;
        default:
            snprintf(esc, sizeof(esc), "\\u%04X", (unsigned)c);
            e = esc;
        }
        if (sbuf_put(b, e, strlen(e)) < 0)
            return -1;
        i = j + 1;
    }
    return sbuf_putc(b, '"');
}

static int
put_iriref(SBuf *b, const char *s, size_t n)
{
    if (sbuf_reserve(b, n + 2) < 0)
        return -1;
    b->p[b->n++] = '<';
    if (n > 0)
        memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n++] = '>';
    return 0;
}

/* The N-Triples form of a term (the form of the line pass's tokens, too). */
static int
put_nt_term(SBuf *b, const Term *t)
{
    switch (t->kind) {
    case T_IRI:
        return put_iriref(b, t->s, t->n);
    case T_BLANK:
        return sbuf_put(b, "_:", 2) | sbuf_put(b, t->s, t->n);
    default:
        if (put_quoted(b, t->s, t->n) < 0)
            return -1;
        if (t->lang != NULL)
            return sbuf_putc(b, '@') | sbuf_put(b, t->lang, t->langn);
        if (t->dt != NULL)
            return sbuf_put(b, "^^", 2) | put_iriref(b, t->dt, t->dtn);
        return 0;
    }
}

/* PN_CHARS_BASE, PN_CHARS_U and PN_CHARS of the Turtle grammar (code points). */
static int
pn_chars_base(uint32_t c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= 0xC0 && c <= 0xD6) ||
           (c >= 0xD8 && c <= 0xF6) || (c >= 0xF8 && c <= 0x2FF) || (c >= 0x370 && c <= 0x37D) ||
           (c >= 0x37F && c <= 0x1FFF) || (c >= 0x200C && c <= 0x200D) ||
           (c >= 0x2070 && c <= 0x218F) || (c >= 0x2C00 && c <= 0x2FEF) ||
           (c >= 0x3001 && c <= 0xD7FF) || (c >= 0xF900 && c <= 0xFDCF) ||
           (c >= 0xFDF0 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0xEFFFF);
}

static int
pn_chars(uint32_t c)
{
    return pn_chars_base(c) || c == '_' || c == '-' || (c >= '0' && c <= '9') || c == 0xB7 ||
           (c >= 0x300 && c <= 0x36F) || (c >= 0x203F && c <= 0x2040);
}

/* The characters a local name may hold escaped (PN_LOCAL_ESC). */
static int
local_escapable(uint32_t c)
{
    return c < 0x80 && c != 0 && strchr("_~.-!$&'()*+,;=/?#@%", (int)c) != NULL;
}

/* The code point at s[*i] (valid UTF-8: checked when read), *i moved past it. */
static uint32_t
utf8_next(const unsigned char *s, size_t n, size_t *i)
{
    uint32_t c = s[*i];
    size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    if (*i + len > n)
        len = n - *i;
    if (len > 1) {
        c &= len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07;
        for (size_t k = 1; k < len; k++)
            c = (c << 6) | (s[*i + k] & 0x3F);
    }
    *i += len;
    return c;
}

/* The local part s[0..n) (not empty) as pyoxigraph's writer escapes it into b (its
 * escape_local_name: PN_LOCAL with PN_LOCAL_ESC, no %-escapes); 1: written, 0: it cannot be
 * one (b as it was), -1: out of memory. */
static int
put_local(SBuf *b, const char *p, size_t n)
{
    const unsigned char *s = (const unsigned char *)p;
    size_t at = b->n, i = 0;
    int first = 1;
    while (i < n) {
        size_t from = i;
        uint32_t c = utf8_next(s, n, &i);
        int plain = first ? (pn_chars_base(c) || c == '_' || c == ':' || (c >= '0' && c <= '9'))
                          : (pn_chars(c) || c == ':' || (c == '.' && i < n));
        first = 0;
        if (plain) {
            if (sbuf_put(b, p + from, i - from) < 0)
                return -1;
        }
        else if (local_escapable(c)) {
            if (sbuf_putc(b, '\\') < 0 || sbuf_putc(b, (char)c) < 0)
                return -1;
        }
        else {
            b->n = at;
            return 0;
        }
    }
    return 1;
}

/* An IRI in Turtle as pyoxigraph writes it: under the first prefix (longest namespace first,
 * the order they were declared in) whose namespace starts it and whose local part can be
 * written (escaped), else <iri>. */
static int
put_ttl_iri(Writer *w, const char *s, size_t n)
{
    for (Py_ssize_t k = 0; k < w->n_prefixes; k++) {
        const SBuf *ns = &w->prefixes[k].ns;
        if (ns->n > n || !MEMEQ(ns->p, s, ns->n))
            continue;
        const SBuf *name = &w->prefixes[k].name;
        size_t at = w->out->n;
        if (sbuf_put(w->out, name->p, name->n) < 0 || sbuf_putc(w->out, ':') < 0)
            return -1;
        if (ns->n == n)
            return 0;
        int r = put_local(w->out, s + ns->n, n - ns->n);
        if (r < 0)
            return -1;
        if (r > 0)
            return 0;
        w->out->n = at;
    }
    return put_iriref(w->out, s, n);
}

static int
all_digits(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!DIGIT((unsigned char)s[i]))
            return 0;
    return 1;
}

/* Whether the lexical form s[0..n) of a literal of the XSD type named kind[0..kn) is written
 * bare in Turtle: it must be the Turtle token of that type (INTEGER, DECIMAL, DOUBLE, true or
 * false), or it would read back as something else. */
static int
bare_literal(const char *kind, size_t kn, const char *s, size_t n)
{
#define KIND(name) (kn == sizeof(name) - 1 && memcmp(kind, name, kn) == 0)
    if (KIND("boolean"))
        return (n == 4 && memcmp(s, "true", 4) == 0) || (n == 5 && memcmp(s, "false", 5) == 0);
    size_t i = (n > 0 && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
    if (KIND("integer"))
        return all_digits(s + i, n - i);
    if (KIND("decimal")) {
        const char *dot = memchr(s + i, '.', n - i);
        if (dot == NULL)
            return 0;
        size_t before = (size_t)(dot - s) - i, after = n - (size_t)(dot - s) - 1;
        return (before == 0 || all_digits(s + i, before)) && all_digits(dot + 1, after);
    }
    if (KIND("double")) {
        size_t e = i;
        while (e < n && s[e] != 'e' && s[e] != 'E')
            e++;
        if (e == n)
            return 0;
        /* mantissa: [0-9]+ '.' [0-9]* | '.' [0-9]+ | [0-9]+ */
        const char *m = s + i;
        size_t mn = e - i;
        const char *dot = memchr(m, '.', mn);
        int ok;
        if (dot == NULL)
            ok = all_digits(m, mn);
        else {
            size_t before = (size_t)(dot - m), after = mn - before - 1;
            ok = (before > 0 && all_digits(m, before) && (after == 0 || all_digits(dot + 1, after))) ||
                 (before == 0 && all_digits(dot + 1, after));
        }
        size_t x = e + 1;
        if (x < n && (s[x] == '+' || s[x] == '-'))
            x++;
        return ok && all_digits(s + x, n - x);
    }
    return 0;
#undef KIND
}

static int
put_ttl_term(Writer *w, const Term *t, int predicate)
{
    SBuf *b = w->out;
    switch (t->kind) {
    case T_IRI:
        if (predicate && t->n == RDF_TYPE_LEN && memcmp(t->s, RDF_TYPE_IRI, RDF_TYPE_LEN) == 0)
            return sbuf_putc(b, 'a');
        return put_ttl_iri(w, t->s, t->n);
    case T_BLANK:
        return sbuf_put(b, "_:", 2) | sbuf_put(b, t->s, t->n);
    default:
        if (t->lang == NULL && t->dt != NULL && t->dtn > NS_XSD_LEN &&
            memcmp(t->dt, NS_XSD_IRI, NS_XSD_LEN) == 0 &&
            bare_literal(t->dt + NS_XSD_LEN, t->dtn - NS_XSD_LEN, t->s, t->n))
            return sbuf_put(b, t->s, t->n);
        if (put_quoted(b, t->s, t->n) < 0)
            return -1;
        if (t->lang != NULL)
            return sbuf_putc(b, '@') | sbuf_put(b, t->lang, t->langn);
        if (t->dt != NULL)
            return sbuf_put(b, "^^", 2) | put_ttl_iri(w, t->dt, t->dtn);
        return 0;
    }
}

/* Close what is open (the subject's statement, the graph) before a directive or the end. */
static int
writer_close(Writer *w)
{
    int rc = 0;
    if (w->have_s)
        rc |= sbuf_put(w->out, " .\n", 3);
    if (w->in_graph)
        rc |= sbuf_put(w->out, "}\n", 2);
    w->have_s = w->in_graph = 0;
    w->g.kind = T_NONE;
    return rc;
}

/* One statement (g NULL or kind T_NONE: the default graph). Returns 0, -1 with an error set,
 * or 1 when the output syntax cannot hold the statement (a named graph in Turtle or
 * N-Triples). */
static int
writer_statement(Writer *w, const Term *g, const Term *s, const Term *p, const Term *o)
{
    SBuf *b = w->out;
    int named = g != NULL && g->kind != T_NONE;
    if (named && (w->syntax == SERD_TURTLE || w->syntax == SERD_NTRIPLES))
        return 1;
    if (w->syntax == SERD_NTRIPLES || w->syntax == SERD_NQUADS) {
        if (put_nt_term(b, s) < 0 || sbuf_putc(b, ' ') < 0 || put_nt_term(b, p) < 0 ||
            sbuf_putc(b, ' ') < 0 || put_nt_term(b, o) < 0)
            return -1;
        if (named && (sbuf_putc(b, ' ') < 0 || put_nt_term(b, g) < 0))
            return -1;
        return sbuf_put(b, " .\n", 3);
    }
    /* Turtle, TriG: the graph first */
    if (named ? !(w->in_graph && held_is(&w->g, g)) : w->in_graph) {
        if (writer_close(w) < 0)
            return -1;
        if (named) {
            if (put_ttl_term(w, g, 0) < 0 || sbuf_put(b, " {\n", 3) < 0 || held_set(&w->g, g) < 0)
                return -1;
            w->in_graph = 1;
        }
    }
    const char *indent = w->in_graph ? "\t" : "";
    size_t indent_len = w->in_graph ? 1 : 0;
    if (w->have_s && held_is(&w->s, s)) {
        if (held_is(&w->p, p))
            return sbuf_put(b, " , ", 3) | put_ttl_term(w, o, 0);
        if (sbuf_put(b, " ;\n", 3) < 0 || sbuf_put(b, indent, indent_len) < 0 ||
            sbuf_putc(b, '\t') < 0 || put_ttl_term(w, p, 1) < 0 || sbuf_putc(b, ' ') < 0 ||
            put_ttl_term(w, o, 0) < 0)
            return -1;
        return held_set(&w->p, p);
    }
    if (w->have_s && sbuf_put(b, " .\n", 3) < 0)
        return -1;
    if (sbuf_put(b, indent, indent_len) < 0 || put_ttl_term(w, s, 0) < 0 ||
        sbuf_putc(b, ' ') < 0 || put_ttl_term(w, p, 1) < 0 || sbuf_putc(b, ' ') < 0 ||
        put_ttl_term(w, o, 0) < 0)
        return -1;
    w->have_s = 1;
    return held_set(&w->s, s) | held_set(&w->p, p);
}

/* An @prefix directive (Turtle, TriG), written where the input had it; the namespace then
 * shortens the IRIs written after it (a name given again takes its new namespace). */
static int
writer_prefix(Writer *w, const char *name, size_t nn, const char *ns, size_t nsn)
{
    if (w->syntax != SERD_TURTLE && w->syntax != SERD_TRIG)
        return 0;
    if (writer_close(w) < 0)
        return -1;
    SBuf *b = w->out;
    if (sbuf_put(b, "@prefix ", 8) < 0 || sbuf_put(b, name, nn) < 0 ||
        sbuf_put(b, ": ", 2) < 0 || put_iriref(b, ns, nsn) < 0 || sbuf_put(b, " .\n", 3) < 0)
        return -1;
    for (Py_ssize_t k = 0; k < w->n_prefixes; k++) {
        OutPrefix *op = &w->prefixes[k];
        if (op->name.n == nn && MEMEQ(op->name.p, name, nn)) {
            op->ns.n = 0;
            return sbuf_put(&op->ns, ns, nsn);
        }
    }
    if (w->n_prefixes == w->cap_prefixes) {
        Py_ssize_t cap = w->cap_prefixes ? w->cap_prefixes * 2 : 16;
        if (cap > 100000) { /* a document of millions of prefixes: stop shortening */
            return 0;
        }
        OutPrefix *np = PyMem_RawRealloc(w->prefixes, sizeof(OutPrefix) * (size_t)cap);
        if (np == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        w->prefixes = np;
        w->cap_prefixes = cap;
    }
    OutPrefix *op = &w->prefixes[w->n_prefixes++];
    memset(op, 0, sizeof(*op));
    return sbuf_put(&op->name, name, nn) | sbuf_put(&op->ns, ns, nsn);
}

/* An @base directive (Turtle, TriG), kept where the input had it (the IRIs written are all
 * absolute: it changes none of them). */
static int
writer_base(Writer *w, const char *iri, size_t n)
{
    if (w->syntax != SERD_TURTLE && w->syntax != SERD_TRIG)
        return 0;
    if (writer_close(w) < 0)
        return -1;
    return sbuf_put(w->out, "@base ", 6) | put_iriref(w->out, iri, n) |
           sbuf_put(w->out, " .\n", 3);
}

#endif /* URNLD_SPEEDUPS_SERD_WRITE_H */
