/* Part of _speedups.c (one translation unit). Twin of urnld._core._check (check_fields,
 * _pct_findings): the findings of an ASCII URN, for the check side of the term rule.
 *
 * check_fields() answers what urnld._kernel.check_term answers under the default policy (not
 * strict, no profile, no severity override) for the common case: an ASCII RFC 8141 URN without
 * components whose NID is in the core's NID table. Only what the report keeps is computed: the
 * codes in check()'s order (errors first, then by position, then by code), the first error as
 * "code: message", the canonical form and the NID. The NID's findings, its rule's check_nss
 * and the code severities come from Python (see urnld._core._check.check_fields); the percent-
 * encoding lints, and the rules whose check_nss carries a native_copy mark, are copies. */
#ifndef URNLD_SPEEDUPS_CHECK_H
#define URNLD_SPEEDUPS_CHECK_H

#define MAX_HITS 16

/* The first finding of one code: check() lists every code once, at its first finding in its
 * sort order (rank, start, code); among findings with equal keys the first one made. */
typedef struct {
    PyObject *code;    /* new reference */
    PyObject *message; /* new reference, or NULL (only an error's message is ever used) */
    int rank;
    Py_ssize_t start;
} Hit;

typedef struct {
    Hit hit[MAX_HITS];
    int n;
} Hits;

static void
hits_clear(Hits *h)
{
    for (int k = 0; k < h->n; k++) {
        Py_DECREF(h->hit[k].code);
        Py_XDECREF(h->hit[k].message);
    }
    h->n = 0;
}

/* Record one finding. 1 done, 0 too many codes (the caller takes the Python path), -1 error. */
static int
hits_add(Hits *h, PyObject *code, int rank, Py_ssize_t start, PyObject *message)
{
    for (int k = 0; k < h->n; k++) {
        Hit *e = &h->hit[k];
        int same = e->code == code;
        if (!same) {
            int c = PyUnicode_Compare(e->code, code);
            if (c == -1 && PyErr_Occurred())
                return -1;
            same = c == 0;
        }
        if (same) {
            if (rank < e->rank || (rank == e->rank && start < e->start)) {
                e->rank = rank;
                e->start = start;
                Py_XINCREF(message);
                Py_XSETREF(e->message, message);
            }
            return 1;
        }
    }
    if (h->n == MAX_HITS)
        return 0;
    Hit *e = &h->hit[h->n++];
    Py_INCREF(code);
    Py_XINCREF(message);
    e->code = code;
    e->message = message;
    e->rank = rank;
    e->start = start;
    return 1;
}

/* The rank of one of this file's own codes in *ranks* (code -> rank): -1 with an error set. */
static int
rank_of(PyObject *ranks, PyObject *code)
{
    PyObject *r = PyDict_GetItemWithError(ranks, code); /* borrowed */
    if (r == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetObject(PyExc_KeyError, code);
        return -1;
    }
    long v = PyLong_AsLong(r);
    return v == -1 && PyErr_Occurred() ? -1 : (int)v;
}

/* Whether the escapes s[a..b) (a run of "%XX", every byte >= 0x80) decode as strict UTF-8,
 * as bytes.decode("utf-8") does (no overlong forms, no surrogates, nothing above U+10FFFF). */
static int
utf8_run_ok(const unsigned char *s, Py_ssize_t a, Py_ssize_t b)
{
    Py_ssize_t k = 0, n = (b - a) / 3;
#define BYTE(j) (hex_value(s[a + 3 * (j) + 1]) * 16 + hex_value(s[a + 3 * (j) + 2]))
    while (k < n) {
        int c = BYTE(k), need, lo = 0x80, hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF)
            need = 1;
        else if (c >= 0xE0 && c <= 0xEF) {
            need = 2;
            if (c == 0xE0)
                lo = 0xA0;
            else if (c == 0xED)
                hi = 0x9F;
        }
        else if (c >= 0xF0 && c <= 0xF4) {
            need = 3;
            if (c == 0xF0)
                lo = 0x90;
            else if (c == 0xF4)
                hi = 0x8F;
        }
        else
            return 0;
        if (k + need >= n) /* the sequence is cut off by the end of the run */
            return 0;
        int c1 = BYTE(k + 1);
        if (c1 < lo || c1 > hi)
            return 0;
        for (int j = 2; j <= need; j++) {
            int cj = BYTE(k + j);
            if (cj < 0x80 || cj > 0xBF)
                return 0;
        }
        k += need + 1;
    }
#undef BYTE
    return 1;
}

/* _check._pct_findings for the NSS s[a..b) of a valid RFC 8141 URN (every '%' starts an
 * escape): the first finding of each code. 1 done, 0 Python path, -1 error. */
static int
pct_hits(const unsigned char *s, Py_ssize_t a, Py_ssize_t b, PyObject *ranks, Hits *h)
{
    Py_ssize_t high_start = -1, high_end = 0;
    int r = 1;
    for (Py_ssize_t i = a; i < b && r == 1; i++) {
        if (s[i] != '%')
            continue;
        unsigned char x = s[i + 1], y = s[i + 2];
        PyObject *code = NULL;
        if (x >= 'a' || y >= 'a') { /* hex digits: a-f are the only bytes >= 'a' */
            int rank = rank_of(ranks, code_str[CODE_PCT_LOWERCASE]);
            if (rank < 0 || (r = hits_add(h, code_str[CODE_PCT_LOWERCASE], rank, i, NULL)) != 1)
                return rank < 0 ? -1 : r;
        }
        int value = hex_value(x) * 16 + hex_value(y);
        if (value >= 0x80) {
            if (high_start >= 0 && i != high_end) {
                if (!utf8_run_ok(s, high_start, high_end))
                    code = code_str[CODE_PCT_NOT_UTF8];
                if (code != NULL) {
                    int rank = rank_of(ranks, code);
                    if (rank < 0 || (r = hits_add(h, code, rank, high_start, NULL)) != 1)
                        return rank < 0 ? -1 : r;
                    code = NULL;
                }
                high_start = -1;
            }
            if (high_start < 0)
                high_start = i;
            high_end = i + 3;
            i += 2;
            continue;
        }
        if (value == 0)
            code = code_str[CODE_PCT_NUL];
        else if (ALNUM[value] || value == '-' || value == '.' || value == '_' || value == '~')
            code = code_str[CODE_PCT_UNRESERVED];
        if (code != NULL) {
            int rank = rank_of(ranks, code);
            if (rank < 0 || (r = hits_add(h, code, rank, i, NULL)) != 1)
                return rank < 0 ? -1 : r;
        }
        if (high_start >= 0) {
            if (!utf8_run_ok(s, high_start, high_end)) {
                int rank = rank_of(ranks, code_str[CODE_PCT_NOT_UTF8]);
                if (rank < 0 || (r = hits_add(h, code_str[CODE_PCT_NOT_UTF8], rank, high_start, NULL)) != 1)
                    return rank < 0 ? -1 : r;
            }
            high_start = -1;
        }
        i += 2;
    }
    if (high_start >= 0 && !utf8_run_ok(s, high_start, high_end)) {
        int rank = rank_of(ranks, code_str[CODE_PCT_NOT_UTF8]);
        if (rank < 0 || (r = hits_add(h, code_str[CODE_PCT_NOT_UTF8], rank, high_start, NULL)) != 1)
            return rank < 0 ? -1 : r;
    }
    return r;
}

/* The findings of a Python check_nss(nss, options), spans shifted by *offset*. */
static int
python_rule_hits(PyObject *meth, PyObject *nss, PyObject *options, Py_ssize_t offset,
                 PyObject *sev_ranks, Hits *h)
{
    PyObject *found = PyObject_CallFunctionObjArgs(meth, nss, options, NULL);
    if (found == NULL)
        return -1;
    PyObject *it = PyObject_GetIter(found);
    Py_DECREF(found);
    if (it == NULL)
        return -1;
    int r = 1;
    PyObject *f;
    while (r == 1 && (f = PyIter_Next(it)) != NULL) {
        PyObject *code = PyObject_GetAttr(f, str_code), *sev = PyObject_GetAttr(f, str_severity),
                 *span = PyObject_GetAttr(f, str_span), *message = PyObject_GetAttr(f, str_message);
        r = -1;
        if (code && sev && span && message && PyUnicode_Check(code) && PyTuple_Check(span) &&
            PyTuple_GET_SIZE(span) == 2) {
            PyObject *rank = PyDict_GetItemWithError(sev_ranks, sev);
            Py_ssize_t start = PyLong_AsSsize_t(PyTuple_GET_ITEM(span, 0));
            if (rank != NULL && !(start == -1 && PyErr_Occurred()))
                r = hits_add(h, code, (int)PyLong_AsLong(rank), start + offset, message);
            else if (!PyErr_Occurred())
                r = 0; /* an unknown severity: the Python path says what it makes of it */
        }
        else if (!PyErr_Occurred())
            r = 0;
        Py_XDECREF(code);
        Py_XDECREF(sev);
        Py_XDECREF(span);
        Py_XDECREF(message);
        Py_DECREF(f);
    }
    Py_DECREF(it);
    return PyErr_Occurred() ? -1 : r;
}

/* hits in check()'s order: (rank, start, code). */
static int
hits_sort(Hits *h)
{
    for (int i = 1; i < h->n; i++) {
        Hit x = h->hit[i];
        int j = i - 1;
        while (j >= 0) {
            Hit *y = &h->hit[j];
            int later = y->rank > x.rank || (y->rank == x.rank && y->start > x.start);
            if (!later && y->rank == x.rank && y->start == x.start) {
                int c = PyUnicode_Compare(y->code, x.code);
                if (c == -1 && PyErr_Occurred())
                    return -1;
                later = c > 0;
            }
            if (!later)
                break;
            h->hit[j + 1] = *y;
            j--;
        }
        h->hit[j + 1] = x;
    }
    return 0;
}

/* The codes tuples check_fields_of() returns, shared: the spellings of a dump fall into a few
 * sets of findings, and check_counts() counts a batch per set (by identity) before per code.
 * Kept for the module's life; past CODE_SETS sets, new tuples are not kept. */
#define CODE_SETS 64
static PyObject *code_sets[CODE_SETS];
static int n_code_sets;

/* The codes of h as a tuple (new reference): a kept one with the same code objects, else a new
 * one, kept while there is room. */
static PyObject *
shared_codes(const Hits *h)
{
    for (int k = 0; k < n_code_sets; k++) {
        PyObject *t = code_sets[k];
        if (PyTuple_GET_SIZE(t) != h->n)
            continue;
        int j = 0;
        while (j < h->n && PyTuple_GET_ITEM(t, j) == h->hit[j].code)
            j++;
        if (j == h->n)
            return Py_NewRef(t);
    }
    PyObject *codes = PyTuple_New(h->n);
    if (codes == NULL)
        return NULL;
    for (int k = 0; k < h->n; k++)
        PyTuple_SET_ITEM(codes, k, Py_NewRef(h->hit[k].code));
    untrack_atomic(codes);
    if (n_code_sets < CODE_SETS)
        code_sets[n_code_sets++] = Py_NewRef(codes);
    return codes;
}

/* check_fields(text, prefixes, spec, options, code_ranks, severity_ranks)
 *     -> (codes, error, canonical, nid) | None
 *
 * spec(nid as written) -> (NID findings as (code, rank, start, message) tuples, the NID in
 * lower case, the rule's bound check_nss, its native_copy mark or None, whether the rule has
 * repairs: an error then makes the answer None, for check()'s "repairable" hint); code_ranks maps this
 * file's codes, severity_ranks a finding's severity, to its rank (0 error, 1 warning, 2 info).
 * None: not the common case (not an ASCII str, not RFC 8141, components, an NID not in the
 * table, a rule's answer the copy cannot express): the Python path decides. */
static PyObject *
check_fields_of(PyObject *text, PyObject *prefixes, PyObject *spec_of, PyObject *options,
                PyObject *code_ranks, PyObject *sev_ranks)
{
    if (!PyDict_CheckExact(code_ranks) || !PyDict_CheckExact(sev_ranks))
        Py_RETURN_NONE;
    Canon c; /* canon_scan() takes only an ASCII str that is an RFC 8141 URN */
    int r = canon_scan(text, prefixes, Py_None, &c);
    if (r <= 0)
        return r < 0 ? NULL : Py_NewRef(Py_None);
    const unsigned char *s = PyUnicode_1BYTE_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), nid_end = c.nid_end;
    if (c.nss_end != n) { /* components: the Python path */
        Py_XDECREF(c.canonical);
        Py_XDECREF(c.nss);
        Py_XDECREF(c.tail);
        Py_RETURN_NONE;
    }
    PyObject *canonical = canon_finish(&c, 0);
    if (canonical == NULL)
        return PyErr_Occurred() ? NULL : Py_NewRef(Py_None);

    PyObject *result = NULL, *nid = NULL, *spec = NULL, *nss = NULL, *msg = NULL;
    Hits h;
    h.n = 0;
    r = -1;
    nid = PyUnicode_Substring(text, 4, nid_end);
    if (nid == NULL || (spec = PyObject_CallOneArg(spec_of, nid)) == NULL)
        goto done;
    if (!PyTuple_CheckExact(spec) || PyTuple_GET_SIZE(spec) != 5 ||
        !PyTuple_CheckExact(PyTuple_GET_ITEM(spec, 0)) ||
        !PyUnicode_CheckExact(PyTuple_GET_ITEM(spec, 1))) {
        PyErr_SetString(PyExc_TypeError, "check_fields(): spec must return a 5-tuple");
        goto done;
    }
    /* the NID's rule has repairs: an error may come with check()'s "repairable" hint */
    int repairs = PyObject_IsTrue(PyTuple_GET_ITEM(spec, 4));
    if (repairs < 0)
        goto done;
    PyObject *entries = PyTuple_GET_ITEM(spec, 0), *lower = PyTuple_GET_ITEM(spec, 1),
             *meth = PyTuple_GET_ITEM(spec, 2), *mark = PyTuple_GET_ITEM(spec, 3);
    r = 1;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(entries) && r == 1; k++) {
        PyObject *e = PyTuple_GET_ITEM(entries, k);
        if (!PyTuple_CheckExact(e) || PyTuple_GET_SIZE(e) != 4) {
            PyErr_SetString(PyExc_TypeError, "check_fields(): bad NID finding");
            r = -1;
            break;
        }
        long rank = PyLong_AsLong(PyTuple_GET_ITEM(e, 1));
        Py_ssize_t start = PyLong_AsSsize_t(PyTuple_GET_ITEM(e, 2));
        if (PyErr_Occurred()) {
            r = -1;
            break;
        }
        r = hits_add(&h, PyTuple_GET_ITEM(e, 0), (int)rank, start, PyTuple_GET_ITEM(e, 3));
    }
    if (r == 1)
        r = pct_hits(s, nid_end + 1, n, code_ranks, &h);
    if (r == 1) {
        const unsigned char *ns = s + nid_end + 1;
        Py_ssize_t nn = n - nid_end - 1;
        Found f = {CODE_COUNT, -1, 0, NULL};
        int got = COPY_PYTHON;
        if (mark != Py_None && PyUnicode_Check(mark)) {
            if (0)
                ;
#define X(kind)                                                                                \
    else if (PyUnicode_CompareWithASCIIString(mark, #kind) == 0) got = check_##kind(ns, nn, &f);
            CHECK_COPIES(X)
#undef X
        }
        if (got < 0)
            r = -1;
        else if (got == COPY_FOUND) { /* the rule's one finding, worded by the copy */
            msg = f.message;
            int rank = f.rank >= 0 ? f.rank : rank_of(code_ranks, code_str[f.code]);
            r = rank < 0 ? -1 : hits_add(&h, code_str[f.code], rank, nid_end + 1 + f.at, msg);
        }
        else if (got == COPY_PYTHON) {
            nss = PyUnicode_Substring(text, nid_end + 1, n);
            r = nss == NULL ? -1
                            : python_rule_hits(meth, nss, options, nid_end + 1, sev_ranks, &h);
        }
    }
    if (r == 1 && PyUnicode_Compare(text, canonical) != 0) {
        int rank = rank_of(code_ranks, code_str[CODE_NOT_CANONICAL]);
        r = rank < 0 ? -1 : hits_add(&h, code_str[CODE_NOT_CANONICAL], rank, 0, NULL);
    }
    if (r == 1)
        r = hits_sort(&h) < 0 ? -1 : 1;
    if (r == 0) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    if (r < 0)
        goto done;
    if (repairs && h.n && h.hit[0].rank == 0) { /* the Python path adds the hint */
        result = Py_NewRef(Py_None);
        goto done;
    }
    PyObject *error = Py_None, *codes = shared_codes(&h);
    if (codes == NULL)
        goto done;
    if (h.n && h.hit[0].rank == 0) {
        if (h.hit[0].message == NULL || !PyUnicode_Check(h.hit[0].message)) {
            Py_DECREF(codes);
            result = Py_NewRef(Py_None);
            goto done;
        }
        error = PyUnicode_FromFormat("%U: %U", h.hit[0].code, h.hit[0].message);
        if (error == NULL) {
            Py_DECREF(codes);
            goto done;
        }
    }
    else
        Py_INCREF(error);
    result = PyTuple_New(FIELDS_COUNT);
    if (result == NULL) {
        Py_DECREF(codes);
        Py_DECREF(error);
        goto done;
    }
    PyTuple_SET_ITEM(result, FIELDS_CODES, codes);
    PyTuple_SET_ITEM(result, FIELDS_ERROR, error);
    PyTuple_SET_ITEM(result, FIELDS_CANONICAL, Py_NewRef(canonical));
    PyTuple_SET_ITEM(result, FIELDS_NID, Py_NewRef(lower));
    untrack_atomic(result);
done:
    hits_clear(&h);
    Py_XDECREF(msg);
    Py_XDECREF(nss);
    Py_XDECREF(spec);
    Py_XDECREF(nid);
    Py_DECREF(canonical);
    return result;
}

static PyObject *
sp_check_fields(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!nargs_are("check_fields", nargs, 6))
        return NULL;
    return check_fields_of(args[0], args[1], args[2], args[3], args[4], args[5]);
}

#endif /* URNLD_SPEEDUPS_CHECK_H */
