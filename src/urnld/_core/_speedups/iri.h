/* Part of _speedups.c (one translation unit), built with libserd only (serd.h uses it). RFC
 * 3986 §5.2 reference resolution: what pyoxigraph (oxiri) computes for a relative IRI of a
 * Turtle or TriG document, written here because serd's own resolution differs from it on the
 * W3C "IRI-resolution" tests (it keeps dot segments of some references). The twin of
 * urnld._kernel.resolve; tests/stream/test_serd.py runs both on the same references. */
#ifndef URNLD_SPEEDUPS_IRI_H
#define URNLD_SPEEDUPS_IRI_H

/* The five components of a reference (RFC 3986 §3), as spans of the string they came from;
 * a component that is absent has len -1 (an empty query "?" has len 0). */
typedef struct {
    const char *scheme, *authority, *path, *query, *fragment;
    Py_ssize_t scheme_len, authority_len, path_len, query_len, fragment_len;
} IriParts;

static int
iri_scheme_char(unsigned char c, int first)
{
    if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')
        return 1;
    return !first && (DIGIT(c) || c == '+' || c == '-' || c == '.');
}

/* The regular expression of RFC 3986 appendix B, by hand. */
static void
iri_split(const char *s, Py_ssize_t n, IriParts *r)
{
    Py_ssize_t i = 0;
    r->scheme = r->authority = r->query = r->fragment = NULL;
    r->scheme_len = r->authority_len = r->query_len = r->fragment_len = -1;
    /* scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":" before any "/", "?" or "#" */
    if (n > 0 && iri_scheme_char((unsigned char)s[0], 1)) {
        Py_ssize_t j = 1;
        while (j < n && iri_scheme_char((unsigned char)s[j], 0))
            j++;
        if (j < n && s[j] == ':') {
            r->scheme = s;
            r->scheme_len = j;
            i = j + 1;
        }
    }
    if (i + 1 < n && s[i] == '/' && s[i + 1] == '/') {
        Py_ssize_t j = i + 2;
        while (j < n && s[j] != '/' && s[j] != '?' && s[j] != '#')
            j++;
        r->authority = s + i + 2;
        r->authority_len = j - i - 2;
        i = j;
    }
    Py_ssize_t j = i;
    while (j < n && s[j] != '?' && s[j] != '#')
        j++;
    r->path = s + i;
    r->path_len = j - i;
    i = j;
    if (i < n && s[i] == '?') {
        j = i + 1;
        while (j < n && s[j] != '#')
            j++;
        r->query = s + i + 1;
        r->query_len = j - i - 1;
        i = j;
    }
    if (i < n && s[i] == '#') {
        r->fragment = s + i + 1;
        r->fragment_len = n - i - 1;
    }
}

/* remove_dot_segments (RFC 3986 §5.2.4) of in[0..n) into out (room for n + 1 bytes); returns
 * the length written, or -1 (memory; set). Written over the list of segments as
 * urnld._kernel._bases._remove_dot_segments is, which is what pyoxigraph computes: a path that
 * does not start with "/" does not get one ("a/.." against urn:example:a:b is "urn:", where
 * the letter of §5.2.4 gives "urn:/"). */
static Py_ssize_t
iri_remove_dots(const char *in, Py_ssize_t n, char *out)
{
    /* the kept segments, as (start, length) in in[] */
    Py_ssize_t count = 1;
    for (Py_ssize_t i = 0; i < n; i++)
        count += in[i] == '/';
    Py_ssize_t *seg = PyMem_RawMalloc(sizeof(Py_ssize_t) * 2 * (size_t)count);
    if (seg == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t kept = 0, start = 0;
    for (Py_ssize_t i = 0; i <= n; i++) {
        if (i < n && in[i] != '/')
            continue;
        Py_ssize_t len = i - start;
        int last = i == n;
        if (len == 1 && in[start] == '.') {
            if (last) {
                seg[2 * kept] = start;
                seg[2 * kept + 1] = 0;
                kept++;
            }
        }
        else if (len == 2 && in[start] == '.' && in[start + 1] == '.') {
            if (kept > 1 || (kept == 1 && seg[1] != 0))
                kept--;
            if (last) {
                seg[2 * kept] = start;
                seg[2 * kept + 1] = 0;
                kept++;
            }
        }
        else {
            seg[2 * kept] = start;
            seg[2 * kept + 1] = len;
            kept++;
        }
        start = i + 1;
    }
    Py_ssize_t o = 0;
    for (Py_ssize_t k = 0; k < kept; k++) {
        if (k > 0)
            out[o++] = '/';
        if (seg[2 * k + 1] > 0)
            memcpy(out + o, in + seg[2 * k], (size_t)seg[2 * k + 1]);
        o += seg[2 * k + 1];
    }
    PyMem_RawFree(seg);
    if (n > 0 && in[0] == '/' && (o == 0 || out[0] != '/')) { /* absolute stays absolute */
        memmove(out + 1, out, (size_t)o);
        out[0] = '/';
        o++;
    }
    return o;
}

/* Appends to a Python-managed growable buffer (see serd.h's SBuf). */
typedef struct {
    char *p;
    size_t n, cap;
} SBuf;

static int
sbuf_reserve(SBuf *b, size_t extra)
{
    if (extra > ((size_t)PY_SSIZE_T_MAX >> 1) - b->n) {
        PyErr_NoMemory();
        return -1;
    }
    size_t need = b->n + extra;
    if (need <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need)
        cap *= 2;
    char *p = PyMem_RawRealloc(b->p, cap);
    if (p == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    b->p = p;
    b->cap = cap;
    return 0;
}

static int
sbuf_put(SBuf *b, const void *d, size_t n)
{
    if (n == 0)
        return 0;
    if (sbuf_reserve(b, n) < 0)
        return -1;
    memcpy(b->p + b->n, d, n);
    b->n += n;
    return 0;
}

static int
sbuf_putc(SBuf *b, char c)
{
    if (b->n >= b->cap && sbuf_reserve(b, 1) < 0)
        return -1;
    b->p[b->n++] = c;
    return 0;
}

static void
sbuf_free(SBuf *b)
{
    PyMem_RawFree(b->p);
    b->p = NULL;
    b->n = b->cap = 0;
}

/* The reference ref[0..rn) resolved against the absolute IRI base[0..bn), appended to out
 * (RFC 3986 §5.2.2, with §5.2.3's merge). Returns 0, -1 on error (memory; set). */
static int
iri_resolve(const char *base, Py_ssize_t bn, const char *ref, Py_ssize_t rn, SBuf *out)
{
    IriParts b, r;
    iri_split(base, bn, &b);
    iri_split(ref, rn, &r);
    /* scratch for the merged path and its dots removed: room for both paths */
    size_t room = (size_t)bn + (size_t)rn + 3;
    char *merged = PyMem_RawMalloc(room), *clean = PyMem_RawMalloc(room);
    if (merged == NULL || clean == NULL) {
        PyMem_RawFree(merged);
        PyMem_RawFree(clean);
        PyErr_NoMemory();
        return -1;
    }
    const char *scheme, *authority, *query;
    Py_ssize_t scheme_len, authority_len, query_len, path_len;
    if (r.scheme_len >= 0) {
        scheme = r.scheme, scheme_len = r.scheme_len;
        authority = r.authority, authority_len = r.authority_len;
        path_len = iri_remove_dots(r.path, r.path_len, clean);
        query = r.query, query_len = r.query_len;
    }
    else {
        scheme = b.scheme, scheme_len = b.scheme_len;
        if (r.authority_len >= 0) {
            authority = r.authority, authority_len = r.authority_len;
            path_len = iri_remove_dots(r.path, r.path_len, clean);
            query = r.query, query_len = r.query_len;
        }
        else {
            authority = b.authority, authority_len = b.authority_len;
            if (r.path_len == 0) {
                if (b.path_len > 0)
                    memcpy(clean, b.path, (size_t)b.path_len);
                path_len = b.path_len;
                if (r.query_len >= 0)
                    query = r.query, query_len = r.query_len;
                else
                    query = b.query, query_len = b.query_len;
            }
            else {
                if (r.path[0] == '/')
                    path_len = iri_remove_dots(r.path, r.path_len, clean);
                else {
                    Py_ssize_t m = 0;
                    if (b.authority_len >= 0 && b.path_len == 0)
                        merged[m++] = '/';
                    else {
                        Py_ssize_t last = b.path_len;
                        while (last > 0 && b.path[last - 1] != '/')
                            last--;
                        if (last > 0)
                            memcpy(merged, b.path, (size_t)last);
                        m = last;
                    }
                    if (r.path_len > 0)
                        memcpy(merged + m, r.path, (size_t)r.path_len);
                    m += r.path_len;
                    path_len = iri_remove_dots(merged, m, clean);
                }
                query = r.query, query_len = r.query_len;
            }
        }
    }
    int rc = 0;
    if (path_len < 0) {
        PyMem_RawFree(merged);
        PyMem_RawFree(clean);
        return -1;
    }
    if (scheme_len >= 0)
        rc |= sbuf_put(out, scheme, (size_t)scheme_len) | sbuf_putc(out, ':');
    if (authority_len >= 0)
        rc |= sbuf_put(out, "//", 2) | sbuf_put(out, authority, (size_t)authority_len);
    rc |= sbuf_put(out, clean, (size_t)path_len);
    if (query_len >= 0)
        rc |= sbuf_putc(out, '?') | sbuf_put(out, query, (size_t)query_len);
    if (r.fragment_len >= 0)
        rc |= sbuf_putc(out, '#') | sbuf_put(out, r.fragment, (size_t)r.fragment_len);
    PyMem_RawFree(merged);
    PyMem_RawFree(clean);
    return rc ? -1 : 0;
}

/* iri_resolve(base, ref) -> str: the test hook of the resolution above. */
static PyObject *
sp_iri_resolve(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!nargs_are("iri_resolve", nargs, 2))
        return NULL;
    Py_ssize_t bn, rn;
    const char *b = PyUnicode_AsUTF8AndSize(args[0], &bn);
    if (b == NULL)
        return NULL;
    const char *r = PyUnicode_AsUTF8AndSize(args[1], &rn);
    if (r == NULL)
        return NULL;
    SBuf out = {NULL, 0, 0};
    if (iri_resolve(b, bn, r, rn, &out) < 0) {
        sbuf_free(&out);
        return NULL;
    }
    PyObject *s = PyUnicode_DecodeUTF8(out.p ? out.p : "", (Py_ssize_t)out.n, "surrogatepass");
    sbuf_free(&out);
    return s;
}

#endif /* URNLD_SPEEDUPS_IRI_H */
