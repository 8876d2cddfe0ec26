/* Part of _speedups.c (one translation unit). Twin of urnld._kernel._spill: encode_counts, a
 * counting map's items sorted and written as column records (the sort and the encoding of a
 * report map's spill, without a Python object per item). */
#ifndef URNLD_SPEEDUPS_SPILL_H
#define URNLD_SPEEDUPS_SPILL_H

/* One item: the key's UTF-8 (a pair's two parts; b == NULL for a str key) and its count. */
typedef struct {
    unsigned long long head[2]; /* the first 16 bytes of a, big-endian, zero-padded */
    unsigned long long bhead;   /* the first 8 of b */
    const char *a;
    Py_ssize_t alen;
    const char *b;
    Py_ssize_t blen;
    long long value;
} spill_item;

/* Byte order of UTF-8 is code-point order, the order of Python's str. */
static int
spill_cmp_bytes(const char *x, Py_ssize_t xl, const char *y, Py_ssize_t yl)
{
    int c = memcmp(x, y, (size_t)(xl < yl ? xl : yl));
    if (c)
        return c;
    return (xl > yl) - (xl < yl);
}

/* (a, b) order, which is the order of "a NUL b" since no part holds a NUL. */
static int
spill_cmp(const void *p, const void *q)
{
    const spill_item *x = *(spill_item *const *)p, *y = *(spill_item *const *)q;
    /* Most keys differ in their first bytes: compared there without reading the strings
     * (scattered in memory). Padding ties with a NUL, so equal heads decide nothing. */
    if (x->head[0] != y->head[0])
        return x->head[0] < y->head[0] ? -1 : 1;
    if (x->head[1] != y->head[1])
        return x->head[1] < y->head[1] ? -1 : 1;
    /* the spellings of one canonical form share its string */
    if (x->a != y->a || x->alen != y->alen) {
        int c = spill_cmp_bytes(x->a, x->alen, y->a, y->alen);
        if (c)
            return c;
    }
    if (x->b == NULL)
        return 0;
    if (x->bhead != y->bhead)
        return x->bhead < y->bhead ? -1 : 1;
    return spill_cmp_bytes(x->b, x->blen, y->b, y->blen);
}

/* The UTF-8 of an exact str without a line feed (nor, with no_nul, a NUL): 1, or 0 when it
 * does not fit a column record (a lone surrogate, a separator), -1 on another error. */
static int
spill_text(PyObject *s, int no_nul, const char **text, Py_ssize_t *len)
{
    if (!PyUnicode_CheckExact(s))
        return 0;
    *text = PyUnicode_AsUTF8AndSize(s, len);
    if (*text == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError))
            return -1;
        PyErr_Clear();
        return 0;
    }
    if (memchr(*text, '\n', (size_t)*len) != NULL)
        return 0;
    if (no_nul && memchr(*text, '\0', (size_t)*len) != NULL)
        return 0;
    return 1;
}

static void
spill_put_le(char *out, unsigned long long v, int bytes)
{
    for (int k = 0; k < bytes; k++, v >>= 8)
        out[k] = (char)(v & 0xff);
}

/* encode_counts(data, per_record) -> list[bytes] | None: see _spill._encode_counts. */
static PyObject *
sp_encode_counts(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!nargs_are("encode_counts", nargs, 2))
        return NULL;
    PyObject *data = args[0];
    if (!PyDict_Check(data)) {
        PyErr_SetString(PyExc_TypeError, "encode_counts() needs a dict");
        return NULL;
    }
    Py_ssize_t per_record = PyLong_AsSsize_t(args[1]);
    if (per_record == -1 && PyErr_Occurred())
        return NULL;
    Py_ssize_t n = PyDict_GET_SIZE(data);
    if (n == 0 || per_record < 1 || (unsigned long long)n > 0xFFFFFFFFull)
        Py_RETURN_NONE;
    spill_item *items = PyMem_Malloc((size_t)n * sizeof(spill_item)), **order = NULL;
    if (items == NULL)
        return PyErr_NoMemory();
    PyObject *key, *value, *out = NULL;
    Py_ssize_t pos = 0, k = 0;
    int kind = 0; /* 1 STR, 2 PAIR, as _spill's */
    while (PyDict_Next(data, &pos, &key, &value)) {
        spill_item *it = &items[k++];
        if (kind == 0)
            kind = PyUnicode_CheckExact(key) ? 1 : 2;
        if (!PyLong_CheckExact(value))
            goto unfit;
        int overflow = 0;
        it->value = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (overflow)
            goto unfit;
        if (it->value == -1 && PyErr_Occurred())
            goto done;
        int ok;
        if (kind == 1) {
            it->b = NULL;
            it->blen = 0;
            ok = spill_text(key, 0, &it->a, &it->alen);
        }
        else {
            if (!PyTuple_CheckExact(key) || PyTuple_GET_SIZE(key) != 2)
                goto unfit;
            ok = spill_text(PyTuple_GET_ITEM(key, 0), 1, &it->a, &it->alen);
            if (ok == 1)
                ok = spill_text(PyTuple_GET_ITEM(key, 1), 1, &it->b, &it->blen);
        }
        if (ok < 0)
            goto done;
        if (ok == 0)
            goto unfit;
        it->head[0] = it->head[1] = it->bhead = 0;
        for (Py_ssize_t j = 0; j < 16 && j < it->alen; j++)
            it->head[j / 8] |= (unsigned long long)(unsigned char)it->a[j] << (56 - 8 * (j % 8));
        for (Py_ssize_t j = 0; j < 8 && j < it->blen; j++)
            it->bhead |= (unsigned long long)(unsigned char)it->b[j] << (56 - 8 * j);
    }
    /* sorted by pointer: qsort moves 8 bytes an item, not the item */
    order = PyMem_Malloc((size_t)n * sizeof(spill_item *));
    if (order == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t j = 0; j < n; j++)
        order[j] = &items[j];
    qsort(order, (size_t)n, sizeof(spill_item *), spill_cmp);
    out = PyList_New(0);
    if (out == NULL)
        goto done;
    for (Py_ssize_t start = 0; start < n; start += per_record) {
        Py_ssize_t count = n - start < per_record ? n - start : per_record;
        Py_ssize_t text = count - 1; /* the line feeds */
        for (Py_ssize_t j = start; j < start + count; j++)
            text += order[j]->alen + (kind == 2 ? 1 + order[j]->blen : 0);
        PyObject *record = PyBytes_FromStringAndSize(NULL, 13 + text + 8 * count);
        if (record == NULL)
            goto fail;
        char *w = PyBytes_AS_STRING(record);
        w[0] = (char)kind;
        spill_put_le(w + 1, (unsigned long long)count, 4);
        spill_put_le(w + 5, (unsigned long long)text, 8);
        w += 13;
        for (Py_ssize_t j = start; j < start + count; j++) {
            if (j > start)
                *w++ = '\n';
            memcpy(w, order[j]->a, (size_t)order[j]->alen);
            w += order[j]->alen;
            if (kind == 2) {
                *w++ = '\0';
                memcpy(w, order[j]->b, (size_t)order[j]->blen);
                w += order[j]->blen;
            }
        }
        for (Py_ssize_t j = start; j < start + count; j++, w += 8)
            spill_put_le(w, (unsigned long long)order[j]->value, 8);
        int r = PyList_Append(out, record);
        Py_DECREF(record);
        if (r < 0)
            goto fail;
    }
    goto done;
fail:
    Py_CLEAR(out);
    goto done;
unfit:
    out = Py_NewRef(Py_None);
done:
    PyMem_Free(order);
    PyMem_Free(items);
    return out;
}

/* str order, without a call for the common case (both strings of one byte a character:
 * their bytes compare as their code points). */
static int
spill_str_cmp(PyObject *x, PyObject *y)
{
    if (x == y)
        return 0;
    if (PyUnicode_KIND(x) == PyUnicode_1BYTE_KIND && PyUnicode_KIND(y) == PyUnicode_1BYTE_KIND)
        return spill_cmp_bytes((const char *)PyUnicode_1BYTE_DATA(x), PyUnicode_GET_LENGTH(x),
                               (const char *)PyUnicode_1BYTE_DATA(y), PyUnicode_GET_LENGTH(y));
    return PyUnicode_Compare(x, y); /* -1 with an error set too: checked by the caller */
}

/* The sorted union of two sorted column pairs (keys distinct within each), equal keys'
 * counts added: new (keys, values) lists, or NULL with an exception. */
static int
spill_merge2(PyObject *ak, PyObject *av, PyObject *bk, PyObject *bv, PyObject **ok,
             PyObject **ov)
{
    Py_ssize_t na = PyList_GET_SIZE(ak), nb = PyList_GET_SIZE(bk), i = 0, j = 0, n = 0;
    PyObject *keys = PyList_New(na + nb), *values = PyList_New(na + nb);
    if (keys == NULL || values == NULL)
        goto fail;
    while (i < na || j < nb) {
        PyObject *key, *value;
        int c;
        if (i == na)
            c = 1;
        else if (j == nb)
            c = -1;
        else {
            c = spill_str_cmp(PyList_GET_ITEM(ak, i), PyList_GET_ITEM(bk, j));
            if (c == -1 && PyErr_Occurred())
                goto fail;
        }
        if (c < 0) {
            key = PyList_GET_ITEM(ak, i);
            value = Py_NewRef(PyList_GET_ITEM(av, i++));
        }
        else if (c > 0) {
            key = PyList_GET_ITEM(bk, j);
            value = Py_NewRef(PyList_GET_ITEM(bv, j++));
        }
        else {
            key = PyList_GET_ITEM(ak, i);
            value = PyNumber_Add(PyList_GET_ITEM(av, i++), PyList_GET_ITEM(bv, j++));
            if (value == NULL)
                goto fail;
        }
        PyList_SET_ITEM(keys, n, Py_NewRef(key));
        PyList_SET_ITEM(values, n, value);
        n++;
    }
    /* equal keys left slots unused: cut the lists to what was filled */
    if (PyList_SetSlice(keys, n, na + nb, NULL) < 0 || PyList_SetSlice(values, n, na + nb, NULL) < 0)
        goto fail;
    *ok = keys;
    *ov = values;
    return 0;
fail:
    /* slots never filled are NULL, which list deallocation skips */
    Py_XDECREF(keys);
    Py_XDECREF(values);
    return -1;
}

/* merge_columns(parts) -> (keys, values) | None: see _spill._merge_columns. */
static PyObject *
sp_merge_columns(PyObject *self, PyObject *parts)
{
    if (!PyList_CheckExact(parts)) {
        PyErr_SetString(PyExc_TypeError, "merge_columns() needs a list");
        return NULL;
    }
    Py_ssize_t k = PyList_GET_SIZE(parts);
    PyObject *level = PyList_New(0);
    if (level == NULL)
        return NULL;
    for (Py_ssize_t p = 0; p < k; p++) {
        PyObject *part = PyList_GET_ITEM(parts, p);
        if (!PyTuple_Check(part) || PyTuple_GET_SIZE(part) != 2 ||
            !PyList_CheckExact(PyTuple_GET_ITEM(part, 0)) ||
            !PyList_CheckExact(PyTuple_GET_ITEM(part, 1)) ||
            PyList_GET_SIZE(PyTuple_GET_ITEM(part, 0)) != PyList_GET_SIZE(PyTuple_GET_ITEM(part, 1)))
            goto unfit;
        PyObject *keys = PyTuple_GET_ITEM(part, 0);
        for (Py_ssize_t q = 0; q < PyList_GET_SIZE(keys); q++)
            if (!PyUnicode_CheckExact(PyList_GET_ITEM(keys, q)))
                goto unfit;
        PyObject *values = PyTuple_GET_ITEM(part, 1);
        for (Py_ssize_t q = 0; q < PyList_GET_SIZE(values); q++)
            if (!PyLong_CheckExact(PyList_GET_ITEM(values, q)))
                goto unfit;
        if (PyList_Append(level, part) < 0)
            goto fail;
    }
    if (PyList_GET_SIZE(level) == 0) {
        Py_DECREF(level);
        PyObject *a = PyList_New(0), *b = PyList_New(0);
        if (a == NULL || b == NULL) {
            Py_XDECREF(a);
            Py_XDECREF(b);
            return NULL;
        }
        return Py_BuildValue("(NN)", a, b);
    }
    /* pairwise, level by level: n log k comparisons */
    while (PyList_GET_SIZE(level) > 1) {
        Py_ssize_t m = PyList_GET_SIZE(level);
        PyObject *next = PyList_New(0);
        if (next == NULL)
            goto fail;
        for (Py_ssize_t p = 0; p < m; p += 2) {
            PyObject *a = PyList_GET_ITEM(level, p), *merged;
            if (p + 1 == m)
                merged = Py_NewRef(a);
            else {
                PyObject *b = PyList_GET_ITEM(level, p + 1), *keys, *values;
                if (spill_merge2(PyTuple_GET_ITEM(a, 0), PyTuple_GET_ITEM(a, 1),
                                 PyTuple_GET_ITEM(b, 0), PyTuple_GET_ITEM(b, 1), &keys,
                                 &values) < 0) {
                    Py_DECREF(next);
                    goto fail;
                }
                merged = Py_BuildValue("(NN)", keys, values);
            }
            if (merged == NULL || PyList_Append(next, merged) < 0) {
                Py_XDECREF(merged);
                Py_DECREF(next);
                goto fail;
            }
            Py_DECREF(merged);
        }
        Py_SETREF(level, next);
    }
    PyObject *out = PyList_GET_ITEM(level, 0);
    PyObject *result = PyTuple_Pack(2, PyTuple_GET_ITEM(out, 0), PyTuple_GET_ITEM(out, 1));
    Py_DECREF(level);
    return result;
unfit:
    Py_DECREF(level);
    Py_RETURN_NONE;
fail:
    Py_DECREF(level);
    return NULL;
}

#endif /* URNLD_SPEEDUPS_SPILL_H */
