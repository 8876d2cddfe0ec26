/* Part of _speedups.c (one translation unit), built only where libserd (pkg-config serd-0) was
 * found at build time (URNLD_HAVE_SERD). Twin of urnld.stream._serd: Turtle, TriG, N-Triples
 * and N-Quads read by serd's reader, each statement through the term rule of the line pass
 * (stream_miss.h: the same caches, verdicts and per-statement counts, each URN term looked up
 * as the N-Triples token pyoxigraph would have written for it, so the report is the report of
 * the statements as N-Triples by construction) and written by serd_write.h.
 *
 *   serd_pass(read, emit, directive, config, ctx) -> (statements, error or None)
 *
 * read(n) gives the input's next bytes (b"" at the end); emit(output, statements) takes each
 * chunk of output (None for a check) and the statements in it; directive(kind, name, iri)
 * says what an @prefix or @base of the input becomes in Turtle or TriG output (the namespace
 * to write, or None: leave it out). config is (syntax, out_syntax, base, skip, chunk):
 * serd's syntax numbers (out_syntax 0: a check, nothing written), the base IRI (None: none),
 * the predicate whose literals are no URN terms (bytes, N-Triples form, or None), statements
 * per chunk. ctx is the 12 arguments of rewrite() after the chunk (tokens, occ, iri, literal,
 * literals, info, prefixes, policy_ok, ignore_components, verdict_type, divert, check).
 * A document serd cannot read, or that breaks a bound, ends the pass with error =
 * (kind, message, line, column): kind "syntax" (serd's message), "depth" (brackets nested past
 * SERD_MAX_DEPTH), "token" (one token past SERD_MAX_TOKEN bytes), "labels" (blank-node labels
 * both "b1" and "B1" style: serd renames one into the other) or "graph" (a named graph in an
 * output syntax without graphs).
 *
 * Bounds on untrusted input: serd recurses once per nested "[" or "(", and holds the token
 * being read whole; the bytes are scanned before serd reads them (scan_block) for the bracket
 * depth, the bytes of tokens since the last statement, and the blank-node labels serd would
 * rename, so neither the C stack nor memory depends on the input. */
#ifndef URNLD_SPEEDUPS_SERD_H
#define URNLD_SPEEDUPS_SERD_H

#include <serd/serd.h>

#include "iri.h"
#include "serd_write.h"

/* The deepest nesting of "[" and "(" read (urnld.read's MAX_TURTLE_DEPTH). */
#define SERD_MAX_DEPTH 1000
/* The longest token read (pyoxigraph's buffer bound): bytes of tokens between statements. */
#define SERD_MAX_TOKEN (16u << 20)
/* Bytes asked of read() per call, and handed to serd per page. */
#define SERD_BLOCK (1 << 20)
#define SERD_PAGE 16384
/* Output bytes that end a chunk early. */
#define SERD_CHUNK_BYTES (1 << 20)
/* Bytes of the first block hashed into the labels of anonymous blank nodes. */
#define SERD_SEED_BYTES 65536

enum { SC_NORMAL, SC_IRI, SC_COMMENT, SC_STR, SC_QUOTE, SC_LSTR, SC_LQ1, SC_LQ2, SC_NUM, SC_NUMDOT };

/* The scanner: serd's lexical states, as far as brackets, labels and token sizes need them
 * (its string rules are serd's own, read_String and read_STRING_LITERAL_LONG: the states must
 * agree with serd's, or a bracket in what serd reads as a string would count, or worse, one
 * serd reads as syntax would not). */
typedef struct {
    int state;
    int esc;            /* the previous byte was a backslash that escapes this one */
    int quotes;         /* SC_QUOTE: quotes seen (1 or 2) */
    unsigned char q;    /* the quote of the string being read */
    unsigned char prev; /* NORMAL: the previous byte */
    int label;          /* 0; 1: after "_:"; 2: after "_:b" or "_:B" (label_upper says which) */
    int label_upper;
    long depth;
    size_t token_bytes; /* bytes of tokens since the last statement or directive */
    int seen_lower, seen_upper; /* labels "b<digit>…" and "B<digit>…" met */
    int anon;           /* a "[" or "(" met: anonymous blank nodes or a collection */
    int digits;         /* SC_NUM: digits of the number read */
    size_t dot_at;      /* SC_NUMDOT: where its "." is in the block */
    int pending_dot;    /* the block ended with a number and its ".": held back */
} Scan;

typedef struct {
    /* Python side (borrowed: the caller's arguments) */
    PyObject *read, *emit, *directive;
    PyObject *tokens, *occ, *iri_fn, *literal_fn, *skip;
    int literals;
    Fast fast;
    int rule;     /* ctx given */
    int use_fast; /* the compiled verdicts of a miss (else every miss in Python) */
    /* input */
    SerdSyntax syntax;
    int fancy; /* Turtle or TriG */
    int out;   /* 0: no output (check) */
    SBuf feed; /* what serd reads next (see scan_block) */
    size_t feed_at;
    int eof;
    Scan scan;
    /* the document */
    SerdEnv *env;
    SBuf base;
    int have_base;
    /* scratch */
    SBuf iri[5]; /* s, p, o, g, datatype */
    SBuf tok, lex, label[4], lang;
    /* relabel(label) -> label: urnld._kernel.BlankLabels.label for the labels it may rename
     * (those a parser invents, and "b<n>"), cached in labels; NULL: labels as serd gives them */
    PyObject *relabel, *labels;
    char seed[24];
    size_t seed_len;
    int seeded;
    /* output */
    SBuf obuf;
    Writer w;
    Py_ssize_t statements, chunk_statements, chunk_limit, emitted;
    /* the end: a Python exception is set (failed), or error_kind names a document error */
    int failed;
    const char *error_kind;
    char error[400];
    unsigned line, col;
} SP;

/* ---- errors ---------------------------------------------------------------------------- */

static void
sp_fail(SP *c, const char *kind, const char *fmt, ...)
{
    if (c->error_kind != NULL || c->failed)
        return;
    c->error_kind = kind;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->error, sizeof(c->error), fmt, ap);
    va_end(ap);
}

/* serd's errors: the first one ends the pass (serd goes on after some, which urnld refuses
 * as pyoxigraph does). */
static SerdStatus
sp_error_sink(void *handle, const SerdError *e)
{
    SP *c = handle;
    if (c->error_kind == NULL && !c->failed) {
        c->error_kind = "syntax";
        va_list args;
        va_copy(args, *e->args);
        vsnprintf(c->error, sizeof(c->error), e->fmt, args);
        va_end(args);
        size_t n = strlen(c->error);
        while (n > 0 && (c->error[n - 1] == '\n' || c->error[n - 1] == ' '))
            c->error[--n] = '\0';
        c->line = e->line;
        c->col = e->col;
    }
    return SERD_SUCCESS;
}

static int
sp_stopped(const SP *c)
{
    return c->failed || c->error_kind != NULL;
}

/* ---- the scanner ----------------------------------------------------------------------- */

static int
name_byte(unsigned char c)
{
    return ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || DIGIT(c) || c == '_' || c == '-' ||
           c == '.' || c == ':' || c >= 0x80;
}

/* A byte after which a number token can start (what serd reads as a number there). */
static int
number_boundary(unsigned char c)
{
    return c == 0 || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '(' || c == '[' ||
           c == ',' || c == ';' || c == '{';
}

/* Scan p[0..n) (Turtle, TriG) and append it to feed, what serd reads: the same bytes, but for
 * a space before the "." that ends a statement right after an integer ("<s> <p> 123."), which
 * serd reads as the plain literal "123" (its read_number drops the datatype when it takes
 * the dot for the end of the statement; pyoxigraph and the W3C test turtle-syntax-number-08
 * read an xsd:integer). Returns 0, or -1 after sp_fail (depth) or with an error set. */
static int
scan_block(SP *c, const unsigned char *p, size_t n, SBuf *feed)
{
    Scan *s = &c->scan;
    size_t i = 0, copied = 0;
    if (s->pending_dot && n > 0) {
        /* the "." held back from the block before: a space first unless a digit or an
         * exponent follows (a decimal or a double: serd reads those whole) */
        s->pending_dot = 0;
        unsigned char ch = p[0];
        int part = DIGIT(ch) || ch == 'e' || ch == 'E';
        if (sbuf_put(feed, part ? "." : " .", part ? 1 : 2) < 0)
            return -1;
        s->state = SC_NORMAL;
        s->prev = '.';
        s->token_bytes++;
    }
    while (i < n) {
        unsigned char ch = p[i];
        switch (s->state) {
        case SC_NUM:
            if (DIGIT(ch)) {
                s->digits++;
                s->token_bytes++;
                i++;
            }
            else if (ch == '.' && s->digits > 0) {
                s->state = SC_NUMDOT;
                s->dot_at = i;
                s->token_bytes++;
                i++;
            }
            else {
                s->state = SC_NORMAL; /* read again as syntax */
                s->prev = '0';
            }
            break;
        case SC_NUMDOT:
            if (!(DIGIT(ch) || ch == 'e' || ch == 'E')) {
                /* "123." and then the end of the statement: a space before the dot */
                if (sbuf_put(feed, p + copied, s->dot_at - copied) < 0 || sbuf_putc(feed, ' ') < 0)
                    return -1;
                copied = s->dot_at;
                s->state = SC_NORMAL;
                s->prev = '.';
            }
            else {
                s->state = SC_NORMAL;
                s->prev = '0';
            }
            break;
        case SC_NORMAL:
            if (!s->esc && s->label == 0 && number_boundary(s->prev) &&
                (DIGIT(ch) || ch == '+' || ch == '-')) {
                s->state = SC_NUM;
                s->digits = DIGIT(ch) ? 1 : 0;
                s->token_bytes++;
                i++;
                break;
            }
            if (s->label == 1) {
                s->label = 0;
                if ((ch == 'b' || ch == 'B') && !s->esc) {
                    s->label = 2;
                    s->label_upper = ch == 'B';
                }
            }
            else if (s->label == 2) {
                s->label = 0;
                if (DIGIT(ch)) {
                    if (s->label_upper)
                        s->seen_upper = 1;
                    else
                        s->seen_lower = 1;
                }
            }
            if (s->esc) {
                s->esc = 0;
                s->token_bytes++;
                s->prev = 'x';
                i++;
                continue;
            }
            switch (ch) {
            case ' ': case '\t': case '\n': case '\r':
                break;
            case '#':
                s->state = SC_COMMENT;
                break;
            case '<':
                s->state = SC_IRI;
                s->token_bytes++;
                break;
            case '"': case '\'':
                s->state = SC_QUOTE;
                s->q = ch;
                s->quotes = 1;
                s->token_bytes++;
                break;
            case '[': case '(':
                s->anon = 1;
                if (++s->depth > SERD_MAX_DEPTH) {
                    sp_fail(c, "depth", "collections or blank-node property lists nested more "
                            "than %d levels deep: refused (nested too deeply)", SERD_MAX_DEPTH);
                    return -1;
                }
                break;
            case ']': case ')':
                if (s->depth > 0)
                    s->depth--;
                break;
            case '\\':
                s->esc = 1;
                s->token_bytes++;
                break;
            case ':':
                if (s->prev == '_')
                    s->label = 1;
                s->token_bytes++;
                break;
            default:
                s->token_bytes++;
            }
            /* "_" starts a label only where a name does not go on (prev is kept as 'x') */
            if (ch == '_' && name_byte(s->prev))
                s->prev = 'x';
            else
                s->prev = ch;
            i++;
            break;
        case SC_COMMENT: {
            const unsigned char *nl = memchr(p + i, '\n', n - i);
            const unsigned char *cr = memchr(p + i, '\r', nl ? (size_t)(nl - (p + i)) : n - i);
            const unsigned char *end = cr ? cr : nl;
            if (end == NULL) {
                i = n;
                break;
            }
            i = (size_t)(end - p) + 1;
            s->state = SC_NORMAL;
            s->prev = '\n';
            break;
        }
        case SC_IRI: {
            /* serd: "\" starts \u or \U (a hex digit never is ">"), ">" ends */
            size_t start = i;
            while (i < n && p[i] != '>')
                i++;
            if (i < n) {
                i++;
                s->state = SC_NORMAL;
                s->prev = '>';
            }
            s->token_bytes += i - start;
            break;
        }
        case SC_QUOTE:
            /* read_String: q1 seen; q2 != q1: short string; q1 q1 then q3 != q1: "" */
            if (s->quotes == 1) {
                if (ch == s->q) {
                    s->quotes = 2;
                    i++;
                }
                else
                    s->state = SC_STR; /* this byte is the string's first */
            }
            else if (ch == s->q) {
                s->state = SC_LSTR;
                i++;
            }
            else {
                s->state = SC_NORMAL; /* an empty string; this byte is syntax */
                s->prev = s->q;
            }
            s->token_bytes++;
            break;
        case SC_STR:
            while (i < n) {
                unsigned char b = p[i++];
                s->token_bytes++;
                if (s->esc)
                    s->esc = 0;
                else if (b == '\\')
                    s->esc = 1;
                else if (b == s->q) {
                    s->state = SC_NORMAL;
                    s->prev = b;
                    break;
                }
            }
            break;
        case SC_LSTR:
            /* read_STRING_LITERAL_LONG: "\" escapes the next byte; a quote takes the byte
             * after it whatever it is (q2) and looks at the next (q3) */
            while (i < n) {
                unsigned char b = p[i++];
                s->token_bytes++;
                if (s->esc)
                    s->esc = 0;
                else if (b == '\\')
                    s->esc = 1;
                else if (b == s->q) {
                    s->state = SC_LQ1;
                    break;
                }
            }
            break;
        case SC_LQ1: /* this byte is q2, taken as it is */
            s->token_bytes++;
            i++;
            s->state = ch == s->q ? SC_LQ2 : SC_LSTR;
            break;
        case SC_LQ2: /* q q seen: a third ends the string, anything else is read again */
            if (ch == s->q) {
                i++;
                s->state = SC_NORMAL;
                s->prev = ch;
            }
            else
                s->state = SC_LSTR;
            break;
        }
    }
    if (s->state == SC_NUMDOT && s->dot_at == n - 1) {
        /* the block ends with the dot: what follows it decides (the next block) */
        s->pending_dot = 1;
        s->state = SC_NORMAL;
        return sbuf_put(feed, p + copied, n - 1 - copied);
    }
    if (s->state == SC_NUMDOT)
        s->dot_at = 0; /* cannot happen: the dot's follower is in this block */
    return sbuf_put(feed, p + copied, n - copied);
}

/* ---- input ----------------------------------------------------------------------------- */

static uint64_t
fnv1a(const unsigned char *p, size_t n)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* The next block from read(), into c->feed; 0 at the end, -1 on error (set, or sp_fail). */
static int
next_block(SP *c)
{
    c->feed.n = 0;
    c->feed_at = 0;
    PyObject *size = PyLong_FromLong(SERD_BLOCK);
    if (size == NULL) {
        c->failed = 1;
        return -1;
    }
    PyObject *b = PyObject_CallOneArg(c->read, size);
    Py_DECREF(size);
    if (b == NULL) {
        c->failed = 1;
        return -1;
    }
    if (!PyBytes_Check(b)) {
        Py_DECREF(b);
        PyErr_SetString(PyExc_TypeError, "read() must return bytes");
        c->failed = 1;
        return -1;
    }
    const unsigned char *p = (const unsigned char *)PyBytes_AS_STRING(b);
    size_t n = (size_t)PyBytes_GET_SIZE(b);
    if (n == 0) {
        Py_DECREF(b);
        c->eof = 1;
        if (c->scan.pending_dot) { /* "123." at the very end */
            c->scan.pending_dot = 0;
            if (sbuf_put(&c->feed, " .", 2) < 0) {
                c->failed = 1;
                return -1;
            }
            return 1;
        }
        return 0;
    }
    if (memchr(p, 0, n) != NULL) {
        /* serd takes a NUL byte for the end of the document: what follows would be lost */
        Py_DECREF(b);
        sp_fail(c, "nul", "a NUL byte (U+0000)");
        return -1;
    }
    if (!c->seeded) {
        c->seeded = 1;
        uint64_t h = fnv1a(p, n < SERD_SEED_BYTES ? n : SERD_SEED_BYTES);
        c->seed_len = (size_t)snprintf(c->seed, sizeof(c->seed), "g%012llxn",
                                       (unsigned long long)(h & 0xFFFFFFFFFFFFULL));
    }
    int rc;
    if (c->fancy)
        rc = scan_block(c, p, n, &c->feed);
    else {
        c->scan.token_bytes += n;
        rc = sbuf_put(&c->feed, p, n);
    }
    Py_DECREF(b);
    if (rc < 0) {
        if (!sp_stopped(c))
            c->failed = 1;
        return -1;
    }
    if (c->fancy && c->scan.seen_lower && c->scan.seen_upper) {
        sp_fail(c, "labels", "blank-node labels of both the _:b1 and the _:B1 style");
        return -1;
    }
    if (c->scan.token_bytes > SERD_MAX_TOKEN + (size_t)SERD_BLOCK) {
        sp_fail(c, "token", "one token (literal, IRI, string) is too long: more than %u bytes",
                SERD_MAX_TOKEN);
        return -1;
    }
    return 1;
}

/* serd's SerdSource: fills buf whole (serd takes a short page for the end of the input). */
static size_t
sp_read(void *buf, size_t size, size_t nmemb, void *stream)
{
    SP *c = stream;
    size_t want = size * nmemb, got = 0;
    while (got < want && !sp_stopped(c)) {
        if (c->feed_at >= c->feed.n) {
            if (c->eof || next_block(c) <= 0)
                break;
            continue; /* a block may feed nothing (a held-back dot) */
        }
        size_t avail = c->feed.n - c->feed_at;
        size_t take = avail < want - got ? avail : want - got;
        memcpy((char *)buf + got, c->feed.p + c->feed_at, take);
        c->feed_at += take;
        got += take;
    }
    return sp_stopped(c) ? 0 : got;
}

static int
sp_read_error(void *stream)
{
    return sp_stopped((SP *)stream);
}

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
    PyObject *v = lookup((const unsigned char *)c->tok.p, 0, (Py_ssize_t)c->tok.n, c->tokens,
                         c->iri_fn, c->use_fast ? &c->fast : NULL, fast_iri, tok);
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
    PyObject *v = lookup((const unsigned char *)c->tok.p, 0, (Py_ssize_t)c->tok.n, c->tokens,
                         c->literal_fn, c->use_fast ? &c->fast : NULL, fast_literal, tok);
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

/* ---- sinks ----------------------------------------------------------------------------- */

static int
sp_emit(SP *c)
{
    PyObject *data;
    if (c->out) {
        data = PyBytes_FromStringAndSize(c->obuf.p ? c->obuf.p : "", (Py_ssize_t)c->obuf.n);
        if (data == NULL) {
            c->failed = 1;
            return -1;
        }
    }
    else
        data = Py_NewRef(Py_None);
    PyObject *r = PyObject_CallFunction(c->emit, "On", data, c->chunk_statements);
    Py_DECREF(data);
    if (r == NULL) {
        c->failed = 1;
        return -1;
    }
    Py_DECREF(r);
    c->obuf.n = 0;
    c->emitted += c->chunk_statements;
    c->chunk_statements = 0;
    return 0;
}

static SerdStatus
sp_base(void *handle, const SerdNode *uri)
{
    SP *c = handle;
    if (sp_stopped(c))
        return SERD_ERR_UNKNOWN;
    c->scan.token_bytes = 0;
    SBuf *t = &c->iri[4];
    if (node_iri(c, uri, t) < 0)
        return SERD_ERR_UNKNOWN;
    c->base.n = 0;
    if (sbuf_put(&c->base, t->p, t->n) < 0) {
        c->failed = 1;
        return SERD_ERR_UNKNOWN;
    }
    c->have_base = 1;
    if ((c->out == SERD_TURTLE || c->out == SERD_TRIG) && c->directive != Py_None) {
        PyObject *r = PyObject_CallFunction(c->directive, "sy#y#", "base", "", (Py_ssize_t)0,
                                            c->base.p, (Py_ssize_t)c->base.n);
        if (r == NULL) {
            c->failed = 1;
            return SERD_ERR_UNKNOWN;
        }
        if (r != Py_None) {
            if (!PyBytes_Check(r)) {
                Py_DECREF(r);
                PyErr_SetString(PyExc_TypeError, "directive() must return bytes or None");
                c->failed = 1;
                return SERD_ERR_UNKNOWN;
            }
            const char *s = PyBytes_AS_STRING(r);
            Py_ssize_t n = PyBytes_GET_SIZE(r);
            if (writer_base(&c->w, s, (size_t)n) < 0) {
                Py_DECREF(r);
                c->failed = 1;
                return SERD_ERR_UNKNOWN;
            }
        }
        Py_DECREF(r);
    }
    return SERD_SUCCESS;
}

static SerdStatus
sp_prefix(void *handle, const SerdNode *name, const SerdNode *uri)
{
    SP *c = handle;
    if (sp_stopped(c))
        return SERD_ERR_UNKNOWN;
    c->scan.token_bytes = 0;
    SBuf *t = &c->iri[4];
    if (node_iri(c, uri, t) < 0)
        return SERD_ERR_UNKNOWN;
    /* serd copies the node with its terminating NUL */
    if (sbuf_putc(t, '\0') < 0) {
        c->failed = 1;
        return SERD_ERR_UNKNOWN;
    }
    t->n--;
    SerdNode abs = {(const uint8_t *)t->p, t->n, t->n, 0, SERD_URI};
    if (serd_env_set_prefix(c->env, name, &abs) != SERD_SUCCESS) {
        sp_fail(c, "syntax", "cannot declare the prefix %.100s", (const char *)name->buf);
        return SERD_ERR_UNKNOWN;
    }
    if ((c->out == SERD_TURTLE || c->out == SERD_TRIG) && c->directive != Py_None) {
        PyObject *r = PyObject_CallFunction(c->directive, "sy#y#", "prefix",
                                            (const char *)name->buf, (Py_ssize_t)name->n_bytes,
                                            t->p, (Py_ssize_t)t->n);
        if (r == NULL) {
            c->failed = 1;
            return SERD_ERR_UNKNOWN;
        }
        if (r != Py_None) {
            if (!PyBytes_Check(r)) {
                Py_DECREF(r);
                PyErr_SetString(PyExc_TypeError, "directive() must return bytes or None");
                c->failed = 1;
                return SERD_ERR_UNKNOWN;
            }
            const char *s = PyBytes_AS_STRING(r);
            Py_ssize_t n = PyBytes_GET_SIZE(r);
            if (writer_prefix(&c->w, (const char *)name->buf, name->n_bytes, s, (size_t)n) < 0) {
                Py_DECREF(r);
                c->failed = 1;
                return SERD_ERR_UNKNOWN;
            }
        }
        Py_DECREF(r);
    }
    return SERD_SUCCESS;
}

static SerdStatus
sp_statement(void *handle, SerdStatementFlags flags, const SerdNode *graph,
             const SerdNode *subject, const SerdNode *predicate, const SerdNode *object,
             const SerdNode *datatype, const SerdNode *lang)
{
    (void)flags;
    SP *c = handle;
    if (sp_stopped(c))
        return SERD_ERR_UNKNOWN;
    c->scan.token_bytes = 0;
    Term s, p, o, g = {T_NONE, NULL, 0, NULL, 0, NULL, 0};
    if (node_term(c, subject, 0, &s) < 0 || node_term(c, predicate, 1, &p) < 0)
        return SERD_ERR_UNKNOWN;
    if (object->type == SERD_LITERAL) {
        o.kind = T_LITERAL;
        o.s = (const char *)object->buf;
        o.n = object->n_bytes;
        o.dt = o.lang = NULL;
        o.dtn = o.langn = 0;
        if (check_utf8(c, o.s, o.n, "a literal") < 0)
            return SERD_ERR_UNKNOWN;
        if (lang != NULL && lang->buf != NULL) {
            /* in lower case, as pyoxigraph reads them (both paths write the same bytes) */
            c->lang.n = 0;
            if (sbuf_put(&c->lang, (const char *)lang->buf, lang->n_bytes) < 0) {
                c->failed = 1;
                return SERD_ERR_UNKNOWN;
            }
            for (size_t k = 0; k < c->lang.n; k++)
                if (c->lang.p[k] >= 'A' && c->lang.p[k] <= 'Z')
                    c->lang.p[k] = (char)(c->lang.p[k] + ('a' - 'A'));
            o.lang = c->lang.p;
            o.langn = c->lang.n;
        }
        else if (datatype != NULL && datatype->buf != NULL) {
            if (node_iri(c, datatype, &c->iri[4]) < 0)
                return SERD_ERR_UNKNOWN;
            /* xsd:string is the plain literal's datatype: written plain, as pyoxigraph does */
            if (!(c->iri[4].n == NS_XSD_LEN + 6 &&
                  memcmp(c->iri[4].p, NS_XSD_IRI "string", NS_XSD_LEN + 6) == 0)) {
                o.dt = c->iri[4].p;
                o.dtn = c->iri[4].n;
            }
        }
    }
    else if (node_term(c, object, 2, &o) < 0)
        return SERD_ERR_UNKNOWN;
    if (graph != NULL && graph->buf != NULL && node_term(c, graph, 3, &g) < 0)
        return SERD_ERR_UNKNOWN;

    PyObject *outs[4] = {NULL, NULL, NULL, NULL}, *toks[4] = {NULL, NULL, NULL, NULL};
    SerdStatus st = SERD_SUCCESS;
    if (c->rule) {
        /* the line pass's counting: each URN token once per statement */
        if (s.kind == T_IRI && rule_iri(c, &s, &outs[0], &toks[0]) < 0)
            goto fail;
        if (toks[0] != NULL && count(c->occ, toks[0]) < 0)
            goto fail;
        if (rule_iri(c, &p, &outs[1], &toks[1]) < 0)
            goto fail;
        if (toks[1] != NULL && !same_token(toks[1], toks[0]) && count(c->occ, toks[1]) < 0)
            goto fail;
        if (o.kind == T_IRI) {
            if (rule_iri(c, &o, &outs[2], &toks[2]) < 0)
                goto fail;
            if (toks[2] != NULL && !same_token(toks[2], toks[0]) &&
                !same_token(toks[2], toks[1]) && count(c->occ, toks[2]) < 0)
                goto fail;
        }
        else if (o.kind == T_LITERAL && c->literals && o.lang == NULL) {
            int skipped = c->skip != NULL &&
                          p.n + 2 == (size_t)PyBytes_GET_SIZE(c->skip) &&
                          MEMEQ(PyBytes_AS_STRING(c->skip) + 1, p.s, p.n);
            if (!skipped) {
                if (rule_literal(c, &o, &outs[2], &toks[2]) < 0)
                    goto fail;
                if (toks[2] != NULL && count(c->occ, toks[2]) < 0)
                    goto fail;
            }
        }
        if (g.kind == T_IRI) {
            if (rule_iri(c, &g, &outs[3], &toks[3]) < 0)
                goto fail;
            if (toks[3] != NULL && !same_token(toks[3], toks[0]) &&
                !same_token(toks[3], toks[1]) && !same_token(toks[3], toks[2]) &&
                count(c->occ, toks[3]) < 0)
                goto fail;
        }
    }
    if (c->out) {
        apply_output(&s, outs[0], toks[0]);
        apply_output(&p, outs[1], toks[1]);
        apply_output(&o, outs[2], toks[2]);
        apply_output(&g, outs[3], toks[3]);
        int r = writer_statement(&c->w, &g, &s, &p, &o);
        if (r < 0) {
            c->failed = 1;
            goto fail;
        }
        if (r > 0) {
            sp_fail(c, "graph", "holds statements in named graphs");
            goto fail;
        }
    }
    c->statements++;
    c->chunk_statements++;
    if (c->chunk_statements >= c->chunk_limit || c->obuf.n >= SERD_CHUNK_BYTES) {
        /* the tokens of this statement are released first: the emit may clear the caches */
        for (int k = 0; k < 4; k++) {
            Py_CLEAR(outs[k]);
            Py_CLEAR(toks[k]);
        }
        if (sp_emit(c) < 0)
            return SERD_ERR_UNKNOWN;
    }
    goto done;
fail:
    st = SERD_ERR_UNKNOWN;
done:
    for (int k = 0; k < 4; k++) {
        Py_XDECREF(outs[k]);
        Py_XDECREF(toks[k]);
    }
    return st;
}

/* ---- the pass -------------------------------------------------------------------------- */

static void
sp_free(SP *c)
{
    sbuf_free(&c->feed);
    if (c->env != NULL)
        serd_env_free(c->env);
    sbuf_free(&c->base);
    for (int k = 0; k < 5; k++)
        sbuf_free(&c->iri[k]);
    sbuf_free(&c->tok);
    sbuf_free(&c->lex);
    for (int k = 0; k < 4; k++)
        sbuf_free(&c->label[k]);
    sbuf_free(&c->lang);
    Py_CLEAR(c->labels);
    sbuf_free(&c->obuf);
    writer_free(&c->w);
}

/* serd_probe(read) -> (anonymous, both_label_styles, unfit): the whole Turtle or TriG document
 * read by the scanner alone (no serd, nothing kept): does it hold "[" or "(" outside strings,
 * IRIs and comments (anonymous blank nodes, collections: pyoxigraph's statement order for
 * those is its own), blank-node labels of both the "b1" and "B1" style, or (unfit) brackets
 * nested past SERD_MAX_DEPTH (which serd would recurse into; pyoxigraph reads them) or a NUL
 * byte (serd's end of input)? */
static PyObject *
sp_serd_probe(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (!nargs_are("serd_probe", nargs, 1))
        return NULL;
    SP c;
    memset(&c, 0, sizeof(c));
    c.fancy = 1;
    PyObject *size = PyLong_FromLong(SERD_BLOCK);
    if (size == NULL)
        return NULL;
    int ok = 1, deep = 0;
    while (ok && !deep && !(c.scan.seen_lower && c.scan.seen_upper)) {
        PyObject *b = PyObject_CallOneArg(args[0], size);
        if (b == NULL || !PyBytes_Check(b)) {
            if (b != NULL)
                PyErr_SetString(PyExc_TypeError, "read() must return bytes");
            Py_XDECREF(b);
            ok = 0;
            break;
        }
        Py_ssize_t n = PyBytes_GET_SIZE(b);
        if (n == 0) {
            Py_DECREF(b);
            break;
        }
        c.feed.n = 0;
        if (memchr(PyBytes_AS_STRING(b), 0, (size_t)n) != NULL)
            deep = 1;
        else if (scan_block(&c, (const unsigned char *)PyBytes_AS_STRING(b), (size_t)n, &c.feed) < 0) {
            if (PyErr_Occurred())
                ok = 0;
            else
                deep = 1;
        }
        Py_DECREF(b);
    }
    Py_DECREF(size);
    sbuf_free(&c.feed);
    if (!ok)
        return NULL;
    return Py_BuildValue("(OOO)", c.scan.anon ? Py_True : Py_False,
                         c.scan.seen_lower && c.scan.seen_upper ? Py_True : Py_False,
                         deep ? Py_True : Py_False);
}

static PyObject *
sp_serd_pass(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!nargs_are("serd_pass", nargs, 5))
        return NULL;
    PyObject *config = args[3], *ctx = args[4];
    if (!PyTuple_CheckExact(config) || PyTuple_GET_SIZE(config) != 7) {
        PyErr_SetString(PyExc_TypeError, "config must be a tuple of 7");
        return NULL;
    }
    if (ctx != Py_None && (!PyTuple_CheckExact(ctx) || PyTuple_GET_SIZE(ctx) != 12)) {
        PyErr_SetString(PyExc_TypeError, "ctx must be None or a tuple of 12");
        return NULL;
    }
    SP c;
    memset(&c, 0, sizeof(c));
    c.read = args[0];
    c.emit = args[1];
    c.directive = args[2];
    long syntax = PyLong_AsLong(PyTuple_GET_ITEM(config, 0));
    long out = PyLong_AsLong(PyTuple_GET_ITEM(config, 1));
    Py_ssize_t chunk = PyLong_AsSsize_t(PyTuple_GET_ITEM(config, 4));
    if (PyErr_Occurred())
        return NULL;
    if (syntax < SERD_TURTLE || syntax > SERD_TRIG || out < 0 || out > SERD_TRIG || chunk < 1) {
        PyErr_SetString(PyExc_ValueError, "bad syntax or chunk");
        return NULL;
    }
    c.syntax = (SerdSyntax)syntax;
    c.fancy = syntax == SERD_TURTLE || syntax == SERD_TRIG;
    c.out = (int)out;
    c.chunk_limit = chunk;
    PyObject *base = PyTuple_GET_ITEM(config, 2), *skip = PyTuple_GET_ITEM(config, 3);
    if (skip != Py_None && !PyBytes_CheckExact(skip)) {
        PyErr_SetString(PyExc_TypeError, "skip must be bytes or None");
        return NULL;
    }
    c.skip = skip == Py_None ? NULL : skip;
    PyObject *relabel = PyTuple_GET_ITEM(config, 5), *header = PyTuple_GET_ITEM(config, 6);
    if ((relabel != Py_None && !PyCallable_Check(relabel)) ||
        (header != Py_None && !PyTuple_CheckExact(header))) {
        PyErr_SetString(PyExc_TypeError, "bad relabel or prefixes");
        return NULL;
    }
    c.w.out = &c.obuf;
    c.w.syntax = c.out;
    if (relabel != Py_None) {
        c.relabel = relabel;
        c.labels = PyDict_New();
        if (c.labels == NULL)
            return NULL;
    }
    c.env = serd_env_new(NULL);
    if (c.env == NULL) {
        Py_CLEAR(c.labels);
        return PyErr_NoMemory();
    }
    /* the output's prefixes, written first and used throughout (as pyoxigraph's writer) */
    if (header != Py_None)
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(header); k++) {
            PyObject *pair = PyTuple_GET_ITEM(header, k);
            if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2 ||
                !PyBytes_CheckExact(PyTuple_GET_ITEM(pair, 0)) ||
                !PyBytes_CheckExact(PyTuple_GET_ITEM(pair, 1))) {
                PyErr_SetString(PyExc_TypeError, "prefixes must be (name, namespace) bytes");
                sp_free(&c);
                return NULL;
            }
            PyObject *name = PyTuple_GET_ITEM(pair, 0), *ns = PyTuple_GET_ITEM(pair, 1);
            if (writer_prefix(&c.w, PyBytes_AS_STRING(name), (size_t)PyBytes_GET_SIZE(name),
                              PyBytes_AS_STRING(ns), (size_t)PyBytes_GET_SIZE(ns)) < 0) {
                sp_free(&c);
                return NULL;
            }
        }
    if (base != Py_None) {
        Py_ssize_t n;
        const char *b = PyUnicode_AsUTF8AndSize(base, &n);
        if (b == NULL || sbuf_put(&c.base, b, (size_t)n) < 0) {
            sp_free(&c);
            return NULL;
        }
        c.have_base = 1;
    }
    if (ctx != Py_None) {
        PyObject *const *a = &PyTuple_GET_ITEM(ctx, 0);
        c.use_fast = a[5] != Py_None;
        int literals = PyObject_IsTrue(a[4]), ic = c.use_fast ? PyObject_IsTrue(a[8]) : 0;
        if (literals < 0 || ic < 0) {
            sp_free(&c);
            return NULL;
        }
        if (!PyDict_CheckExact(a[0]) || !PyDict_CheckExact(a[1]) ||
            (c.use_fast && (!PyDict_CheckExact(a[5]) || !PyDict_CheckExact(a[6]))) ||
            (a[9] != Py_None && (!PyType_Check(a[9]) ||
                                 !PyType_IsSubtype((PyTypeObject *)a[9], &PyTuple_Type))) ||
            (a[10] != Py_None && !PyTuple_CheckExact(a[10])) ||
            (a[11] != Py_None && (!PyTuple_CheckExact(a[11]) || PyTuple_GET_SIZE(a[11]) != 5))) {
            PyErr_SetString(PyExc_TypeError, "bad ctx");
            sp_free(&c);
            return NULL;
        }
        if (a[10] != Py_None)
            for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(a[10]); k++) {
                PyObject *h = PyTuple_GET_ITEM(a[10], k);
                if (!PyBytes_CheckExact(h) || PyBytes_GET_SIZE(h) == 0) {
                    PyErr_SetString(PyExc_TypeError, "bad divert");
                    sp_free(&c);
                    return NULL;
                }
            }
        c.rule = 1;
        c.tokens = a[0];
        c.occ = a[1];
        c.iri_fn = a[2];
        c.literal_fn = a[3];
        c.literals = literals;
        c.fast.info = a[5];
        c.fast.prefixes = a[6];
        c.fast.policy = a[7];
        c.fast.ignore_components = ic;
        c.fast.verdict_type = a[9] == Py_None ? NULL : (PyTypeObject *)a[9];
        c.fast.divert = a[10] == Py_None ? NULL : a[10];
        c.fast.check = a[11] == Py_None || c.fast.verdict_type != NULL
                           ? NULL
                           : &PyTuple_GET_ITEM(a[11], 0);
        c.fast.canonical_nss = str_canonical_nss;
    }
    SerdReader *reader = serd_reader_new(c.syntax, &c, NULL, sp_base, sp_prefix, sp_statement,
                                         NULL);
    if (reader == NULL) {
        sp_free(&c);
        return PyErr_NoMemory();
    }
    serd_reader_set_strict(reader, true);
    serd_reader_set_error_sink(reader, sp_error_sink, &c);
    SerdStatus st = serd_reader_read_source(reader, sp_read, sp_read_error, &c,
                                            (const uint8_t *)"input", SERD_PAGE);
    serd_reader_free(reader);
    if (!sp_stopped(&c) && st > SERD_FAILURE)
        sp_fail(&c, "syntax", "%s", (const char *)serd_strerror(st));
    /* what serd left unread is read too: the caller's reader (the URN-base search) must see
     * every byte, and a document that ends in a bound must fail on it */
    while (!sp_stopped(&c) && !c.eof && next_block(&c) > 0)
        ;
    if (!sp_stopped(&c) && c.out && writer_close(&c.w) < 0)
        c.failed = 1;
    if (!sp_stopped(&c) && (c.chunk_statements > 0 || c.obuf.n > 0))
        sp_emit(&c);
    PyObject *result = NULL;
    if (!c.failed) {
        PyObject *error = Py_None;
        Py_INCREF(error);
        if (c.error_kind != NULL) {
            Py_DECREF(error);
            error = Py_BuildValue("(syII)", c.error_kind, c.error, c.line, c.col);
        }
        if (error != NULL) {
            result = Py_BuildValue("(nN)", c.statements, error);
        }
    }
    sp_free(&c);
    return result;
}

#endif /* URNLD_SPEEDUPS_SERD_H */
