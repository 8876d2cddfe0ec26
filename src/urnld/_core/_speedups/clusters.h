/* Part of _speedups.c (one translation unit). Twin of urnld._kernel._clusters: cluster_batch,
 * the cluster pass over a batch of "canonical NUL spelling" keys, without a substring or a
 * comparison object per key. */
#ifndef URNLD_SPEEDUPS_CLUSTERS_H
#define URNLD_SPEEDUPS_CLUSTERS_H

/* Code-point order of a[as:as+al] and b[bs:bs+bl]. */
static int
cl_region_cmp(PyObject *a, Py_ssize_t as, Py_ssize_t al, PyObject *b, Py_ssize_t bs,
              Py_ssize_t bl)
{
    int ka = PyUnicode_KIND(a), kb = PyUnicode_KIND(b);
    Py_ssize_t n = al < bl ? al : bl;
    if (ka == PyUnicode_1BYTE_KIND && kb == PyUnicode_1BYTE_KIND) {
        int c = memcmp(PyUnicode_1BYTE_DATA(a) + as, PyUnicode_1BYTE_DATA(b) + bs, (size_t)n);
        if (c)
            return c < 0 ? -1 : 1;
    }
    else {
        const void *da = PyUnicode_DATA(a), *db = PyUnicode_DATA(b);
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_UCS4 x = PyUnicode_READ(ka, da, as + i), y = PyUnicode_READ(kb, db, bs + i);
            if (x != y)
                return x < y ? -1 : 1;
        }
    }
    return (al > bl) - (al < bl);
}

/* The figures of _clusters' state, by index (CURRENT .. MERGED_SPELLINGS). */
enum { CL_CURRENT, CL_SIZE, CL_REWRITTEN, CL_CANONICAL, CL_SEVERAL, CL_SEVERAL_SPELLINGS,
       CL_SIZES, CL_REWRITTEN_SPELLINGS, CL_MERGED_CANONICAL, CL_MERGED_SPELLINGS, CL_STATE };

typedef struct {
    long long n[CL_STATE]; /* the counts (CL_CURRENT and CL_SIZES unused) */
    PyObject *sizes;       /* borrowed */
} cl_state;

/* _clusters._close: a finished group of size spellings, rewritten not canonical. */
static int
cl_close(cl_state *st, long long size, long long rewritten)
{
    if (size > 1) {
        st->n[CL_SEVERAL] += 1;
        st->n[CL_SEVERAL_SPELLINGS] += size;
        PyObject *key = PyLong_FromLongLong(size);
        if (key == NULL)
            return -1;
        PyObject *old = PyDict_GetItemWithError(st->sizes, key);
        PyObject *now = old ? PyNumber_Add(old, one) : (PyErr_Occurred() ? NULL : Py_NewRef(one));
        int r = now ? PyDict_SetItem(st->sizes, key, now) : -1;
        Py_DECREF(key);
        Py_XDECREF(now);
        if (r < 0)
            return -1;
    }
    if (size > 1 || rewritten) {
        st->n[CL_MERGED_CANONICAL] += 1;
        st->n[CL_MERGED_SPELLINGS] += size;
    }
    return 0;
}

/* cluster_batch(keys, values, state, worst) -> candidates | None: see _clusters._cluster_batch
 * (None, with the state untouched, for anything else than its common case). */
static PyObject *
sp_cluster_batch(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!nargs_are("cluster_batch", nargs, 4))
        return NULL;
    PyObject *keys = args[0], *values = args[1], *state = args[2], *worst = args[3];
    if (!PyList_CheckExact(keys) || !PyList_CheckExact(values) || !PyList_CheckExact(state) ||
        PyList_GET_SIZE(keys) != PyList_GET_SIZE(values) || PyList_GET_SIZE(state) != CL_STATE ||
        !(worst == Py_None || PyUnicode_CheckExact(worst)) ||
        !PyDict_CheckExact(PyList_GET_ITEM(state, CL_SIZES)))
        Py_RETURN_NONE;
    PyObject *current = PyList_GET_ITEM(state, CL_CURRENT);
    if (!(current == Py_None || PyUnicode_CheckExact(current)))
        Py_RETURN_NONE;
    cl_state st;
    st.sizes = PyList_GET_ITEM(state, CL_SIZES);
    for (int k = 0; k < CL_STATE; k++) {
        st.n[k] = 0;
        if (k == CL_CURRENT || k == CL_SIZES)
            continue;
        PyObject *v = PyList_GET_ITEM(state, k);
        int overflow = 0;
        if (!PyLong_CheckExact(v))
            Py_RETURN_NONE;
        st.n[k] = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (overflow)
            Py_RETURN_NONE;
    }
    Py_ssize_t n = PyList_GET_SIZE(keys);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *key = PyList_GET_ITEM(keys, i);
        if (!PyUnicode_CheckExact(key))
            Py_RETURN_NONE;
        Py_ssize_t pos = PyUnicode_FindChar(key, 0, 0, PyUnicode_GET_LENGTH(key), 1);
        if (pos == -2)
            return NULL;
        if (pos == -1)
            Py_RETURN_NONE;
    }
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    Py_INCREF(current); /* owned from here: a new group replaces it */
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *key = PyList_GET_ITEM(keys, i);
        Py_ssize_t len = PyUnicode_GET_LENGTH(key);
        Py_ssize_t pos = PyUnicode_FindChar(key, 0, 0, len, 1);
        Py_ssize_t slen = len - pos - 1;
        if (current == Py_None ||
            cl_region_cmp(key, 0, pos, current, 0, PyUnicode_GET_LENGTH(current)) != 0) {
            if (cl_close(&st, st.n[CL_SIZE], st.n[CL_REWRITTEN]) < 0)
                goto fail;
            PyObject *c = PyUnicode_Substring(key, 0, pos);
            if (c == NULL)
                goto fail;
            Py_SETREF(current, c);
            st.n[CL_CANONICAL] += 1;
            st.n[CL_SIZE] = st.n[CL_REWRITTEN] = 0;
        }
        st.n[CL_SIZE] += 1;
        if (slen == pos && cl_region_cmp(key, 0, pos, key, pos + 1, slen) == 0)
            continue; /* spelled as its canonical form */
        st.n[CL_REWRITTEN] += 1;
        st.n[CL_REWRITTEN_SPELLINGS] += 1;
        if (worst != Py_None &&
            cl_region_cmp(key, pos + 1, slen, worst, 0, PyUnicode_GET_LENGTH(worst)) > 0)
            continue;
        PyObject *s = PyUnicode_Substring(key, pos + 1, len);
        if (s == NULL)
            goto fail;
        PyObject *inner = PyTuple_Pack(2, PyList_GET_ITEM(values, i), current);
        PyObject *item = inner ? PyTuple_Pack(2, s, inner) : NULL;
        Py_DECREF(s);
        Py_XDECREF(inner);
        if (item == NULL || PyList_Append(out, item) < 0) {
            Py_XDECREF(item);
            goto fail;
        }
        Py_DECREF(item);
    }
    /* write the state back */
    if (PyList_SetItem(state, CL_CURRENT, current) < 0) {
        current = NULL;
        goto fail;
    }
    current = NULL; /* the state holds it */
    for (int k = 0; k < CL_STATE; k++) {
        if (k == CL_CURRENT || k == CL_SIZES)
            continue;
        PyObject *v = PyLong_FromLongLong(st.n[k]);
        if (v == NULL || PyList_SetItem(state, k, v) < 0)
            goto fail;
    }
    return out;
fail:
    Py_XDECREF(current);
    Py_DECREF(out);
    return NULL;
}

#endif /* URNLD_SPEEDUPS_CLUSTERS_H */
