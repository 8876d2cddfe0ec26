/* Part of _speedups.c (one translation unit). Twin of urnld.stream._passes, first part: the
 * output buffer and counters of the line pass, and its cache-miss work for the common case, the
 * term rule's verdict (urnld._kernel.TermVerdict, field order from _generated.h); stream.h
 * holds the line loop that uses them. */
#ifndef URNLD_SPEEDUPS_STREAM_MISS_H
#define URNLD_SPEEDUPS_STREAM_MISS_H

/* The output, written straight into the bytes object that is returned (no copy at the end):
 * grown, and finally cut to its length, with _PyBytes_Resize. */
typedef struct {
    PyObject *bytes; /* NULL after a failed resize (the error is set) */
    Py_ssize_t len, cap;
} Buf;

static int
buf_resize(Buf *b, Py_ssize_t cap)
{
    if (_PyBytes_Resize(&b->bytes, cap) < 0)
        return -1; /* b->bytes is NULL now */
    b->cap = cap;
    return 0;
}

static int
buf_put(Buf *b, const void *data, Py_ssize_t len)
{
    if (b->len + len > b->cap) {
        Py_ssize_t cap = b->cap * 2;
        if (cap < b->len + len)
            cap = b->len + len + 4096;
        if (buf_resize(b, cap) < 0)
            return -1;
    }
    memcpy(PyBytes_AS_STRING(b->bytes) + b->len, data, (size_t)len);
    b->len += len;
    return 0;
}

static int
add_count(PyObject *d, PyObject *key, PyObject *n)
{
    PyObject *old = PyDict_GetItemWithError(d, key);
    if (old == NULL) {
        if (PyErr_Occurred())
            return -1;
        return PyDict_SetItem(d, key, n);
    }
    PyObject *val = PyNumber_Add(old, n);
    if (val == NULL)
        return -1;
    int r = PyDict_SetItem(d, key, val);
    Py_DECREF(val);
    return r;
}

/* A new tuple of strs, ints and such tuples, untracked (see untrack_atomic), or NULL. */
static PyObject *
atomic_pair(PyObject *a, PyObject *b)
{
    PyObject *t = PyTuple_Pack(2, a, b);
    if (t != NULL)
        untrack_atomic(t);
    return t;
}

/* d[(a, b)] += n */
static int
add_pair(PyObject *d, PyObject *a, PyObject *b, PyObject *n)
{
    PyObject *key = atomic_pair(a, b);
    if (key == NULL)
        return -1;
    int r = add_count(d, key, n);
    Py_DECREF(key);
    return r;
}

/* One more statement for the URN token tok. */
static int
count(PyObject *occ, PyObject *tok)
{
    return add_count(occ, tok, one);
}

/* The output token for the term p[a..b) (a new reference; an empty bytes object means "not a
 * URN, write it as it is"), through the cache *tokens* or the miss function. *tok receives a
 * new reference to the token as a bytes object, or NULL when the term cannot be a URN. */

typedef struct {
    PyObject *info, *prefixes, *policy, *canonical_nss;
    PyTypeObject *verdict_type; /* urnld._kernel.TermVerdict, a tuple subclass; NULL: the
                                 * check pass, which keeps the spellings only */
    PyObject *divert; /* a tuple of lower-case ASCII bytes, or NULL: an IRI that starts with
                       * one of them (ASCII case aside) goes to the miss function (the locator
                       * modes: a resolver's address may stand for a URN) */
    PyObject *const *check;     /* the check pass: check_fields()'s 5 arguments after the
                                 * text (TermCache.fast_check), or NULL */
    int ignore_components;
} Fast;

/* Whether the IRI token p[a..b) ('<' ... '>') starts with one of f->divert's heads, ASCII
 * case aside: a superset of the locators the Python side reads back (it decides). */
static int
diverted(const unsigned char *p, Py_ssize_t a, Py_ssize_t b, Fast *f)
{
    Py_ssize_t n = b - a - 1, count = PyTuple_GET_SIZE(f->divert);
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *h = PyTuple_GET_ITEM(f->divert, k);
        Py_ssize_t hn = PyBytes_GET_SIZE(h);
        const unsigned char *hs = (const unsigned char *)PyBytes_AS_STRING(h);
        /* first and last characters first: heads differ mostly in their host's end */
        if (hn > n || (p[a + 1] | 0x20) != hs[0])
            continue;
        unsigned char last = p[a + hn];
        if ((last >= 'A' && last <= 'Z' ? last | 0x20 : last) != hs[hn - 1])
            continue;
        Py_ssize_t j = 1;
        while (j < hn - 1) {
            unsigned char c = p[a + 1 + j];
            if ((c >= 'A' && c <= 'Z' ? c | 0x20 : c) != hs[j])
                break;
            j++;
        }
        if (j >= hn - 1)
            return 1;
    }
    return 0;
}

/* The term rule's verdict on the ASCII str text in the common case that canon_scan() takes: a
 * new urnld._kernel.TermVerdict (output=canonical, canonical, nid, None, None, None), made as
 * tuple.__new__ makes a tuple subclass instance, with *canonical a new reference to the
 * canonical form. NULL without an exception means "take the Python path". */
static PyObject *
fast_verdict(PyObject *text, Fast *f, PyObject **canonical_out)
{
    *canonical_out = NULL;
    Canon got;
    int r = canon_scan(text, f->prefixes, f->policy, &got);
    if (r <= 0)
        return NULL;
    /* The NID (lower case) of this prefix, shared by every term with it. */
    PyObject *prefix = got.prefix;
    PyObject *nid = PyDict_GetItemWithError(nid_of_prefix, prefix); /* borrowed */
    if (nid == NULL) {
        if (PyErr_Occurred())
            goto fail_canon;
        nid = PyUnicode_Substring(prefix, 4, PyUnicode_GET_LENGTH(prefix) - 1);
        if (nid == NULL)
            goto fail_canon;
        if (PyDict_GET_SIZE(nid_of_prefix) >= 4096)
            PyDict_Clear(nid_of_prefix);
        int rr = PyDict_SetItem(nid_of_prefix, prefix, nid);
        Py_DECREF(nid); /* the dict holds it */
        if (rr < 0)
            goto fail_canon;
    }
    PyObject *canonical = canon_finish(&got, 1);
    if (canonical == NULL)
        return NULL; /* an error, or NULL alone: the Python path */
    const unsigned char *c = PyUnicode_1BYTE_DATA(canonical);
    Py_ssize_t cn = PyUnicode_GET_LENGTH(canonical);
    if (f->ignore_components && (memchr(c, '?', (size_t)cn) || memchr(c, '#', (size_t)cn))) {
        Py_DECREF(canonical);
        return NULL;
    }
    PyObject *verdict = f->verdict_type->tp_alloc(f->verdict_type, VERDICT_FIELDS);
    if (verdict == NULL) {
        Py_DECREF(canonical);
        return NULL;
    }
    for (int k = 0; k < VERDICT_FIELDS; k++) /* (canonical, canonical, nid, None, ...) */
        PyTuple_SET_ITEM(verdict, k,
                         Py_NewRef(k == VERDICT_OUTPUT || k == VERDICT_CANONICAL ? canonical
                                   : k == VERDICT_NID                             ? nid
                                                                                  : Py_None));
    untrack_atomic(verdict);
    *canonical_out = canonical;
    return verdict;
fail_canon:
    Py_XDECREF(got.canonical);
    Py_XDECREF(got.nss);
    Py_XDECREF(got.tail);
    return NULL;
}

/* info[t] = (text, verdict, is_literal), then tokens[t] = out. Returns out (a new reference,
 * consumed from the caller), NULL on error. */
static PyObject *
fast_store(PyObject *t, PyObject *tokens, Fast *f, PyObject *text, PyObject *verdict,
           PyObject *is_literal, PyObject *out)
{
    PyObject *entry = PyTuple_Pack(3, text, verdict, is_literal);
    if (entry != NULL)
        untrack_atomic(entry);
    if (entry == NULL || PyDict_SetItem(f->info, t, entry) < 0 ||
        PyDict_SetItem(tokens, t, out) < 0) {
        Py_XDECREF(entry);
        Py_DECREF(out);
        return NULL;
    }
    Py_DECREF(entry);
    return out;
}

/* The check pass's miss work: info[t] = (text, fields, is_literal), the term written as it
 * is (the check pass keeps no output: a canonicalization verdict would be work thrown away).
 * fields are check_fields()'s answer when the pass gave its arguments (f->check), judged here
 * once per distinct token (a URN literal that spells an IRI met already: taken from its
 * entry) so that the flush reads them from the entry; None when there is no answer (the flush
 * asks the check rule). Consumes text; returns t (a new reference) or NULL. */
static PyObject *
spelling_only(PyObject *t, PyObject *tokens, Fast *f, PyObject *text, PyObject *is_literal)
{
    PyObject *fields = Py_None;
    if (f->check != NULL && is_literal == Py_True) {
        /* A URN literal mostly repeats an IRI of the data (a record's own URN as its
         * identifier): the IRI token's entry, when there is one, has the same spelling
         * judged already (text is ASCII, as fast_literal() takes it). */
        Py_ssize_t len = PyUnicode_GET_LENGTH(text);
        PyObject *iri_tok = PyBytes_FromStringAndSize(NULL, len + 2);
        if (iri_tok == NULL) {
            Py_DECREF(text);
            return NULL;
        }
        char *d = PyBytes_AS_STRING(iri_tok);
        d[0] = '<';
        memcpy(d + 1, PyUnicode_1BYTE_DATA(text), (size_t)len);
        d[len + 1] = '>';
        PyObject *e = PyDict_GetItemWithError(f->info, iri_tok); /* borrowed */
        Py_DECREF(iri_tok);
        if (e == NULL && PyErr_Occurred()) {
            Py_DECREF(text);
            return NULL;
        }
        if (e != NULL && PyTuple_CheckExact(e) && PyTuple_GET_SIZE(e) == 3 &&
            PyTuple_CheckExact(PyTuple_GET_ITEM(e, 1)) &&
            PyTuple_GET_SIZE(PyTuple_GET_ITEM(e, 1)) == FIELDS_COUNT &&
            PyUnicode_CheckExact(PyTuple_GET_ITEM(e, 0)) &&
            PyUnicode_Compare(PyTuple_GET_ITEM(e, 0), text) == 0) {
            Py_SETREF(text, Py_NewRef(PyTuple_GET_ITEM(e, 0))); /* one str for both */
            fields = PyTuple_GET_ITEM(e, 1);
        }
    }
    if (fields != Py_None)
        Py_INCREF(fields);
    else if (f->check != NULL) {
        PyObject *const *a = f->check;
        fields = check_fields_of(text, a[0], a[1], a[2], a[3], a[4]);
        if (fields == NULL) {
            Py_DECREF(text);
            return NULL;
        }
    }
    else
        Py_INCREF(fields);
    Py_INCREF(t);
    PyObject *out = fast_store(t, tokens, f, text, fields, is_literal, t);
    Py_DECREF(fields);
    Py_DECREF(text);
    return out;
}

/* before + canonical + after as a bytes object (canonical: an ASCII str). */
static PyObject *
wrap_ascii(char before, PyObject *canonical, const char *after, Py_ssize_t after_len)
{
    Py_ssize_t cn = PyUnicode_GET_LENGTH(canonical);
    PyObject *out = PyBytes_FromStringAndSize(NULL, 1 + cn + after_len);
    if (out != NULL) {
        char *d = PyBytes_AS_STRING(out);
        d[0] = before;
        memcpy(d + 1, PyUnicode_1BYTE_DATA(canonical), (size_t)cn);
        memcpy(d + 1 + cn, after, (size_t)after_len);
    }
    return out;
}

/* The stream's IRI cache-miss work (_Pass.iri) for the common case: an ASCII IRI without
 * escapes that is a URN the accelerator's canonical() takes. Fills tokens/info as iri() does
 * and returns the output token (new reference); NULL without an exception means "take the
 * Python path". */
static PyObject *
fast_iri(PyObject *t, PyObject *tokens, Fast *f)
{
    const unsigned char *q = (const unsigned char *)PyBytes_AS_STRING(t);
    Py_ssize_t n = PyBytes_GET_SIZE(t);
    if (n < 2 || memchr(q, '\\', (size_t)n) != NULL) /* escapes: iri() decodes them */
        return NULL;
    if (!(n >= 5 && (q[2] | 0x20) == 'r' && (q[3] | 0x20) == 'n' && q[4] == ':')) {
        if (PyDict_SetItem(tokens, t, empty_bytes) < 0)
            return NULL;
        Py_INCREF(empty_bytes);
        return empty_bytes;
    }
    for (Py_ssize_t k = 1; k < n - 1; k++)
        if (q[k] >= 0x80)
            return NULL;
    PyObject *text = PyUnicode_FromKindAndData(PyUnicode_1BYTE_KIND, q + 1, n - 2);
    if (text == NULL)
        return NULL;
    if (f->verdict_type == NULL)
        return spelling_only(t, tokens, f, text, Py_False);
    PyObject *canonical, *out = NULL;
    PyObject *verdict = fast_verdict(text, f, &canonical);
    if (verdict != NULL) {
        Py_ssize_t cn = PyUnicode_GET_LENGTH(canonical);
        if (cn == n - 2 && memcmp(PyUnicode_1BYTE_DATA(canonical), q + 1, (size_t)cn) == 0) {
            Py_INCREF(t);
            out = t;
        }
        else
            out = wrap_ascii('<', canonical, ">", 1);
        if (out != NULL)
            out = fast_store(t, tokens, f, text, verdict, Py_False, out);
        Py_DECREF(verdict);
        Py_DECREF(canonical);
    }
    Py_DECREF(text);
    return out;
}

/* Whether what follows the closing quote of a literal (s[0..n)) lets it hold a URN: nothing,
 * or "^^" and one of the term rule's URN literal datatypes (URN_LITERAL_SUFFIXES, as
 * urnld.stream._grammar.literal_parts takes them). */
static int
urn_literal_suffix(const unsigned char *s, Py_ssize_t n)
{
    if (n == 0)
        return 1;
    for (int k = 0; k < URN_LITERAL_SUFFIX_COUNT; k++)
        if ((size_t)n == strlen(URN_LITERAL_SUFFIXES[k]) &&
            memcmp(s, URN_LITERAL_SUFFIXES[k], (size_t)n) == 0)
            return 1;
    return 0;
}

/* The stream's literal cache-miss work (_Pass.literal) for the common case: a literal token
 * without escapes whose lexical form is ASCII. Fills tokens/info as literal() does and returns
 * the output token (new reference); NULL without an exception means "take the Python path". */
static PyObject *
fast_literal(PyObject *t, PyObject *tokens, Fast *f)
{
    const unsigned char *q = (const unsigned char *)PyBytes_AS_STRING(t);
    Py_ssize_t n = PyBytes_GET_SIZE(t);
    if (n < 2 || q[0] != '"' || memchr(q, '\\', (size_t)n) != NULL)
        return NULL; /* escapes: literal() decodes them */
    Py_ssize_t end = n - 1; /* the closing quote: the last '"' (no escaped one inside) */
    while (end > 0 && q[end] != '"')
        end--;
    if (end == 0)
        return NULL;
    const unsigned char *suffix = q + end + 1;
    Py_ssize_t suffix_len = n - end - 1;
    int urn_like = urn_literal_suffix(suffix, suffix_len);
    const unsigned char *body = q + 1;
    Py_ssize_t len = end - 1;
    /* is_urn_like(): "urn:" in any case (ASCII letters: c | 0x20 is the lower case) */
    urn_like = urn_like && len >= 4 && (body[0] | 0x20) == 'u' && (body[1] | 0x20) == 'r' &&
               (body[2] | 0x20) == 'n' && body[3] == ':';
    if (!urn_like) {
        if (PyDict_SetItem(tokens, t, empty_bytes) < 0)
            return NULL;
        Py_INCREF(empty_bytes);
        return empty_bytes;
    }
    for (Py_ssize_t k = 0; k < len; k++)
        if (body[k] >= 0x80)
            return NULL;
    PyObject *text = PyUnicode_FromKindAndData(PyUnicode_1BYTE_KIND, body, len);
    if (text == NULL)
        return NULL;
    if (f->verdict_type == NULL)
        return spelling_only(t, tokens, f, text, Py_True);
    PyObject *canonical, *out = NULL;
    PyObject *verdict = fast_verdict(text, f, &canonical);
    if (verdict != NULL) {
        Py_ssize_t cn = PyUnicode_GET_LENGTH(canonical);
        if (cn == len && memcmp(PyUnicode_1BYTE_DATA(canonical), body, (size_t)cn) == 0) {
            Py_INCREF(t);
            out = t;
        }
        else /* a canonical URN is ASCII without '"' or '\\': no escaping needed */
            out = wrap_ascii('"', canonical, (const char *)q + end, suffix_len + 1);
        if (out != NULL)
            out = fast_store(t, tokens, f, text, verdict, Py_True, out);
        Py_DECREF(verdict);
        Py_DECREF(canonical);
    }
    Py_DECREF(text);
    return out;
}

typedef PyObject *(*FastMiss)(PyObject *, PyObject *, Fast *);

static PyObject *
lookup(const unsigned char *p, Py_ssize_t a, Py_ssize_t b, PyObject *tokens, PyObject *miss,
       Fast *fast, FastMiss fast_miss, PyObject **tok)
{
    *tok = NULL;
    unsigned char c = p[a + 1];
    int divert = 0; /* the miss goes to the Python function, never to fast_miss */
    if (c != 'u' && c != 'U' && c != '\\') {
        divert = fast != NULL && fast->divert != NULL && fast_miss == fast_iri &&
                 diverted(p, a, b, fast);
        if (!divert) {
            Py_INCREF(empty_bytes);
            return empty_bytes;
        }
    }
    PyObject *t = PyBytes_FromStringAndSize((const char *)p + a, b - a);
    if (t == NULL)
        return NULL;
    PyObject *v = PyDict_GetItemWithError(tokens, t);
    if (v != NULL)
        Py_INCREF(v);
    else {
        if (PyErr_Occurred()) {
            Py_DECREF(t);
            return NULL;
        }
        v = fast == NULL || divert ? NULL : fast_miss(t, tokens, fast);
        if (v == NULL && !PyErr_Occurred())
            v = PyObject_CallOneArg(miss, t);
        if (v == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        if (!PyBytes_Check(v)) {
            PyErr_SetString(PyExc_TypeError, "a term function must return bytes");
            Py_DECREF(v);
            Py_DECREF(t);
            return NULL;
        }
    }
    *tok = t;
    return v;
}

#endif /* URNLD_SPEEDUPS_STREAM_MISS_H */
