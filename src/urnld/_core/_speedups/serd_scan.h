/* Part of _speedups.c, with serd.h (built only with libserd: URNLD_HAVE_SERD). Twin of
 * urnld.stream._serd's bounds: the configuration of the serd pass, its errors, the scanner
 * that reads every block before serd does (bracket depth, token bytes, blank-node label
 * styles, NUL bytes) and the input serd reads from. See serd.h for the pass. */
#ifndef URNLD_SPEEDUPS_SERD_SCAN_H
#define URNLD_SPEEDUPS_SERD_SCAN_H

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

#endif /* URNLD_SPEEDUPS_SERD_SCAN_H */
