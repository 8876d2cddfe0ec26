/* Part of _speedups.c (one translation unit). Twin of urnld.stream._passes, second part: the
 * rewrite of a chunk of N-Triples/N-Quads lines (the stream's per-line loop), with the buffer,
 * counters and cache-miss work of stream_miss.h. */
#ifndef URNLD_SPEEDUPS_STREAM_H
#define URNLD_SPEEDUPS_STREAM_H

static int
same(const unsigned char *p, Py_ssize_t a1, Py_ssize_t b1, Py_ssize_t a2, Py_ssize_t b2)
{
    return b1 - a1 == b2 - a2 && memcmp(p + a1, p + a2, (size_t)(b1 - a1)) == 0;
}

/* rewrite(chunk, tokens, occ, iri, literal, literals[, info, prefixes, policy_ok,
 *         ignore_components, verdict_type[, skip_predicate[, divert[, check]]]])
 *     -> (bytes, statements) | None
 *
 * The output of a chunk whose every line is a statement in the usual layout, as the stream's
 * Python rewrite loop makes it: each token through the cache *tokens* (raw token -> output
 * token, b"" for "not a URN"), a miss through iri(token) / literal(token), which fill the
 * cache; every URN token is counted once per statement in *occ*. None (nothing counted) when a
 * line is not in that layout. With the last five arguments, an IRI miss that fast_iri() can
 * take does not call iri(), nor a literal miss that fast_literal() can take literal(); with
 * verdict_type None (the check pass) they record the spellings of URN-like terms (info
 * entries (spelling, None, is_literal)) and the output is b"": that pass keeps none. A literal
 * object of a statement whose predicate is *skip_predicate* (bytes, the IRIREF as written) is
 * left as it is, uncounted. An IRI that does not start like a URN but with one of *divert*'s
 * heads (a tuple of lower-case ASCII bytes; None: none) is looked up too, a miss through
 * iri(token). With verdict_type None, *check* (check_fields()'s 5 arguments after the text, or
 * None) judges each new spelling at once: its info entry is (spelling, fields or None,
 * is_literal). */
static PyObject *
sp_rewrite(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6 && nargs != 11 && nargs != 12 && nargs != 13 && nargs != 14) {
        PyErr_SetString(PyExc_TypeError, "rewrite() takes 6, 11, 12, 13 or 14 arguments");
        return NULL;
    }
    PyObject *divert = nargs >= 13 && args[12] != Py_None ? args[12] : NULL;
    if (divert != NULL) {
        if (!PyTuple_CheckExact(divert))
            Py_RETURN_NONE;
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(divert); k++) {
            PyObject *h = PyTuple_GET_ITEM(divert, k);
            if (!PyBytes_CheckExact(h) || PyBytes_GET_SIZE(h) == 0)
                Py_RETURN_NONE;
        }
    }
    PyObject *check = nargs == 14 ? args[13] : Py_None;
    if (check != Py_None && (!PyTuple_CheckExact(check) || PyTuple_GET_SIZE(check) != 5))
        Py_RETURN_NONE;
    /* a literal object of a statement with this predicate is no URN term (urnld's spelling
     * records): NULL for none */
    PyObject *skip = nargs >= 12 && args[11] != Py_None ? args[11] : NULL;
    if (skip != NULL && !PyBytes_CheckExact(skip))
        Py_RETURN_NONE;
    PyObject *chunk = args[0], *tokens = args[1], *occ = args[2], *iri = args[3],
             *literal = args[4];
    int literals = PyObject_IsTrue(args[5]);
    if (literals < 0)
        return NULL;
    if (!PyBytes_CheckExact(chunk) || !PyDict_CheckExact(tokens) || !PyDict_CheckExact(occ))
        Py_RETURN_NONE;
    Fast fast_ctx, *fast = NULL;
    if (nargs >= 11) {
        int ic = PyObject_IsTrue(args[9]);
        if (ic < 0)
            return NULL;
        if (!PyDict_CheckExact(args[6]) || !PyDict_CheckExact(args[7]))
            Py_RETURN_NONE;
        if (args[10] != Py_None && (!PyType_Check(args[10]) ||
                                    !PyType_IsSubtype((PyTypeObject *)args[10], &PyTuple_Type)))
            Py_RETURN_NONE;
        fast_ctx.info = args[6];
        fast_ctx.prefixes = args[7];
        fast_ctx.policy = args[8];
        fast_ctx.verdict_type = args[10] == Py_None ? NULL : (PyTypeObject *)args[10];
        fast_ctx.check = check == Py_None || fast_ctx.verdict_type != NULL
                             ? NULL
                             : &PyTuple_GET_ITEM(check, 0);
        fast_ctx.canonical_nss = str_canonical_nss;
        fast_ctx.ignore_components = ic;
        fast_ctx.divert = divert;
        fast = &fast_ctx;
    }
    const unsigned char *p = (const unsigned char *)PyBytes_AS_STRING(chunk);
    Py_ssize_t n = PyBytes_GET_SIZE(chunk);
    if (n == 0 || p[n - 1] != '\n')
        Py_RETURN_NONE;

    /* Pass 1: every line must be in the layout (else nothing is counted). */
    Py_ssize_t cap = 1024, rows = 0;
    Py_ssize_t *spans = PyMem_Malloc(sizeof(Py_ssize_t) * 9 * (size_t)cap);
    unsigned char *kinds = PyMem_Malloc(4 * (size_t)cap);
    if (spans == NULL || kinds == NULL) {
        PyMem_Free(spans);
        PyMem_Free(kinds);
        return PyErr_NoMemory();
    }
    Py_ssize_t i = 0;
    while (i < n) {
        if (rows == cap) {
            cap *= 2;
            Py_ssize_t *ns = PyMem_Realloc(spans, sizeof(Py_ssize_t) * 9 * (size_t)cap);
            if (ns == NULL) {
                PyMem_Free(spans);
                PyMem_Free(kinds);
                return PyErr_NoMemory();
            }
            spans = ns;
            unsigned char *nk = PyMem_Realloc(kinds, 4 * (size_t)cap);
            if (nk == NULL) {
                PyMem_Free(spans);
                PyMem_Free(kinds);
                return PyErr_NoMemory();
            }
            kinds = nk;
        }
        int k[4];
        Py_ssize_t *sp = spans + 9 * rows;
        Py_ssize_t j = scan_line(p, i, n, sp, k);
        if (j < 0) {
            PyMem_Free(spans);
            PyMem_Free(kinds);
            Py_RETURN_NONE;
        }
        sp[8] = j;
        for (int q = 0; q < 4; q++)
            kinds[4 * rows + q] = (unsigned char)k[q];
        rows++;
        i = j;
    }

    /* Pass 2: the rewrite. */
    int emit = fast == NULL || fast->verdict_type != NULL;
    Buf out = {NULL, 0, emit ? n + n / 8 + 64 : 0};
    out.bytes = PyBytes_FromStringAndSize(NULL, out.cap);
    PyObject *prev_tok = NULL, *prev_v = NULL, *result = NULL;
    Py_ssize_t prev_a = -1, prev_b = -1;
    if (out.bytes == NULL)
        goto done;
    for (Py_ssize_t r = 0; r < rows; r++) {
        Py_ssize_t *sp = spans + 9 * r;
        unsigned char *kd = kinds + 4 * r;
        Py_ssize_t line_start = sp[0], line_end = sp[8];
        PyObject *vals[4] = {NULL, NULL, NULL, NULL}; /* borrowed or owned below */
        PyObject *owned[4] = {NULL, NULL, NULL, NULL};
        PyObject *toks[4] = {NULL, NULL, NULL, NULL};
        int changed = 0, fail = 0;

        /* subject: compared with the previous one before any lookup */
        if (prev_a < 0 || !same(p, sp[0], sp[1], prev_a, prev_b)) {
            Py_CLEAR(prev_tok);
            Py_CLEAR(prev_v);
            prev_a = sp[0];
            prev_b = sp[1];
            if (kd[0] == 1) {
                prev_v = lookup(p, sp[0], sp[1], tokens, iri, fast, fast_iri, &prev_tok);
                if (prev_v == NULL)
                    goto done;
            }
            else {
                Py_INCREF(empty_bytes);
                prev_v = empty_bytes;
            }
        }
        if (PyBytes_GET_SIZE(prev_v)) {
            if (count(occ, prev_tok) < 0)
                goto done;
            vals[0] = prev_v;
            changed = 1;
        }
        /* predicate */
        owned[1] = lookup(p, sp[2], sp[3], tokens, iri, fast, fast_iri, &toks[1]);
        if (owned[1] == NULL)
            goto row_fail;
        if (PyBytes_GET_SIZE(owned[1])) {
            if (!same(p, sp[2], sp[3], sp[0], sp[1]) && count(occ, toks[1]) < 0)
                goto row_fail;
            vals[1] = owned[1];
            changed = 1;
        }
        /* object */
        if (kd[2] == 1) {
            owned[2] = lookup(p, sp[4], sp[5], tokens, iri, fast, fast_iri, &toks[2]);
            if (owned[2] == NULL)
                goto row_fail;
            if (PyBytes_GET_SIZE(owned[2])) {
                if (!same(p, sp[4], sp[5], sp[0], sp[1]) && !same(p, sp[4], sp[5], sp[2], sp[3]) &&
                    count(occ, toks[2]) < 0)
                    goto row_fail;
                vals[2] = owned[2];
                changed = 1;
            }
        }
        else if (kd[2] == 3 && literals &&
                 !(skip != NULL && sp[3] - sp[2] == PyBytes_GET_SIZE(skip) &&
                   memcmp(p + sp[2], PyBytes_AS_STRING(skip), (size_t)(sp[3] - sp[2])) == 0)) {
            owned[2] = lookup(p, sp[4], sp[5], tokens, literal, fast, fast_literal, &toks[2]);
            if (owned[2] == NULL)
                goto row_fail;
            if (PyBytes_GET_SIZE(owned[2])) {
                if (count(occ, toks[2]) < 0)
                    goto row_fail;
                vals[2] = owned[2];
                changed = 1;
            }
        }
        /* graph */
        if (kd[3] == 1) {
            owned[3] = lookup(p, sp[6], sp[7], tokens, iri, fast, fast_iri, &toks[3]);
            if (owned[3] == NULL)
                goto row_fail;
            if (PyBytes_GET_SIZE(owned[3])) {
                if (!same(p, sp[6], sp[7], sp[0], sp[1]) && !same(p, sp[6], sp[7], sp[2], sp[3]) &&
                    !same(p, sp[6], sp[7], sp[4], sp[5]) && count(occ, toks[3]) < 0)
                    goto row_fail;
                vals[3] = owned[3];
                changed = 1;
            }
        }
        if (!emit)
            ; /* spellings only: the check pass keeps no output */
        else if (!changed) {
            if (buf_put(&out, p + line_start, line_end - line_start) < 0)
                goto row_fail;
        }
        else {
            for (int q = 0; q < 4; q++) {
                Py_ssize_t a = sp[2 * q], b = sp[2 * q + 1];
                if (q == 3 && kd[3] == 0)
                    break;
                if (q > 0 && buf_put(&out, " ", 1) < 0)
                    goto row_fail;
                if (vals[q] != NULL) {
                    if (buf_put(&out, PyBytes_AS_STRING(vals[q]), PyBytes_GET_SIZE(vals[q])) < 0)
                        goto row_fail;
                }
                else if (buf_put(&out, p + a, b - a) < 0)
                    goto row_fail;
            }
            if (buf_put(&out, " .\n", 3) < 0)
                goto row_fail;
        }
        goto row_ok;
    row_fail:
        fail = 1;
    row_ok:
        for (int q = 1; q < 4; q++) {
            Py_XDECREF(owned[q]);
            Py_XDECREF(toks[q]);
        }
        if (fail)
            goto done;
    }
    if (buf_resize(&out, out.len) < 0)
        goto done;
    result = Py_BuildValue("(On)", out.bytes, rows);
done:
    Py_XDECREF(prev_tok);
    Py_XDECREF(prev_v);
    Py_XDECREF(out.bytes);
    PyMem_Free(spans);
    PyMem_Free(kinds);
    return result;
}

#endif /* URNLD_SPEEDUPS_STREAM_H */
