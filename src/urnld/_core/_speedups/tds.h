/* Part of _speedups.c (one translation unit). Twin of urnld.namespaces._tds and the check of
 * urnld.namespaces.epc: the GS1 TDS bodies of urn:epc. The table itself (TDS_SCHEMES) and the
 * kinds' characters and escapes are generated from _tds (_generated.h); tds_schemes() returns
 * the table in _tds.SCHEMES's shape, for the test that keeps the two equal. */
#ifndef URNLD_SPEEDUPS_TDS_H
#define URNLD_SPEEDUPS_TDS_H

/* Whether the escape at v ("%XY") is in the list *escapes* ("%XY%XY...", as written). */
static int
escape_in(const char *escapes, const unsigned char *v)
{
    for (const char *e = escapes; *e; e += 3)
        if (v[1] == (unsigned char)e[1] && v[2] == (unsigned char)e[2])
            return 1;
    return 0;
}

/* The field's length as TDS counts it (an escape is one character), or -1 when the value is
 * outside its kind (_tds._fits). */
static Py_ssize_t
tds_length(enum tds_kind kind, const unsigned char *v, Py_ssize_t n)
{
    Py_ssize_t escapes = 0;
    switch (kind) {
    case TDS_CP:
    case TDS_PADDED:
    case TDS_PADDED_OR_EMPTY:
    case TDS_NUMERIC:
        if (n == 0)
            return kind == TDS_PADDED_OR_EMPTY ? 0 : -1;
        for (Py_ssize_t i = 0; i < n; i++)
            if (!DIGIT(v[i]))
                return -1;
        return kind == TDS_NUMERIC && n > 1 && v[0] == '0' ? -1 : n;
    case TDS_GS3A3:
    case TDS_CPREF: {
        /* _tds._GS3A3 / _tds._CPREF: one or more of the kind's characters and escapes */
        const unsigned char *plain = kind == TDS_GS3A3 ? TDS_GS3A3_CHAR : TDS_CPREF_CHAR;
        const char *esc = kind == TDS_GS3A3 ? TDS_GS3A3_ESCAPES : TDS_CPREF_ESCAPES;
        if (n == 0)
            return -1;
        for (Py_ssize_t i = 0; i < n; i++) {
            if (plain[v[i]])
                continue;
            if (v[i] != '%' || i + 2 >= n || !escape_in(esc, v + i))
                return -1;
            escapes++;
            i += 2;
        }
        return n - 2 * escapes;
    }
    }
    return -1;
}

/* _tds.check_body(key, body) is None, for key s[0..k) and body b[0..m). */
static int
tds_body_fits(const unsigned char *s, Py_ssize_t k, const unsigned char *b, Py_ssize_t m)
{
    const TdsScheme *scheme = NULL;
    for (int j = 0; j < TDS_COUNT; j++)
        if ((Py_ssize_t)strlen(TDS_SCHEMES[j].key) == k && memcmp(TDS_SCHEMES[j].key, s, k) == 0) {
            scheme = &TDS_SCHEMES[j];
            break;
        }
    if (scheme == NULL)
        return 1; /* no grammar for the scheme: RFC 5134's checks only */
    Py_ssize_t start = 0, total = 0;
    for (int f = 0; f < scheme->fields; f++) {
        Py_ssize_t end = m; /* body.split(".", fields - 1): the last field takes the rest */
        if (f < scheme->fields - 1) {
            const unsigned char *dot = memchr(b + start, '.', (size_t)(m - start));
            if (dot == NULL)
                return 0;
            end = dot - b;
        }
        const TdsField *field = &scheme->field[f];
        Py_ssize_t len = tds_length(field->kind, b + start, end - start);
        if (len < 0 || (end == start && field->min_len) || len < field->min_len ||
            (field->max_len && len > field->max_len))
            return 0;
        if (scheme->budget_mask & (1u << f))
            total += len;
        start = end + 1;
    }
    if (scheme->budget &&
        ((scheme->exact && total != scheme->exact) || (scheme->most && total > scheme->most)))
        return 0;
    return 1;
}

/* urn:epc (RFC 5134 §2; urnld.namespaces.epc): 1 when the NSS is sub-ns-name ":" sub-ns and
 * the scheme's body fits GS1 TDS. */
static int
epc_fits(const unsigned char *s, Py_ssize_t n)
{
    const unsigned char *colon = memchr(s, ':', (size_t)n);
    if (colon == NULL || colon == s || !ALNUM[s[0]])
        return 0;
    Py_ssize_t c = colon - s;
    for (Py_ssize_t i = 1; i < c; i++)
        if (!LDH[s[i]])
            return 0;
    if (c == n - 1 || s[c + 1] == '/')
        return 0;
    const unsigned char *second = memchr(s + c + 1, ':', (size_t)(n - c - 1));
    if (second == NULL)
        return 1;
    Py_ssize_t k = second - s;
    return tds_body_fits(s, k, s + k + 1, n - k - 1);
}

/* EPCRule.check_nss: clean when the NSS fits, else Python's to word. */
static int
check_epc(const unsigned char *s, Py_ssize_t n, Found *f)
{
    (void)f;
    return epc_fits(s, n) ? COPY_CLEAN : COPY_PYTHON;
}

/* tds_schemes() -> {key: (((kind, min_len, max_len), ...), budget)}: check_epc's table in
 * the shape of urnld.namespaces._tds.SCHEMES, budget ((0, 1), exact, most) or None. */
static PyObject *
sp_tds_schemes(PyObject *self, PyObject *unused)
{
    PyObject *out = PyDict_New();
    if (out == NULL)
        return NULL;
    for (int j = 0; j < TDS_COUNT; j++) {
        const TdsScheme *sc = &TDS_SCHEMES[j];
        PyObject *fields = PyTuple_New(sc->fields), *budget, *entry;
        if (fields == NULL)
            goto fail;
        for (int f = 0; f < sc->fields; f++) {
            PyObject *t = Py_BuildValue("(sii)", TDS_KIND_NAMES[sc->field[f].kind],
                                        sc->field[f].min_len, sc->field[f].max_len);
            if (t == NULL) {
                Py_DECREF(fields);
                goto fail;
            }
            PyTuple_SET_ITEM(fields, f, t);
        }
        if (!sc->budget)
            budget = Py_NewRef(Py_None);
        else
        {
            PyObject *which = PyList_New(0);
            for (int f = 0; which != NULL && f < sc->fields; f++) {
                if (!(sc->budget_mask & (1u << f)))
                    continue;
                PyObject *i = PyLong_FromLong(f);
                if (i == NULL || PyList_Append(which, i) < 0)
                    Py_CLEAR(which);
                Py_XDECREF(i);
            }
            PyObject *wt = which == NULL ? NULL : PyList_AsTuple(which);
            Py_XDECREF(which);
            budget = wt == NULL ? NULL
                     : Py_BuildValue("(NNN)", wt,
                                     sc->exact ? PyLong_FromLong(sc->exact) : Py_NewRef(Py_None),
                                     sc->most ? PyLong_FromLong(sc->most) : Py_NewRef(Py_None));
        }
        entry = budget == NULL ? NULL : Py_BuildValue("(NN)", fields, budget);
        if (entry == NULL) {
            if (budget == NULL)
                Py_DECREF(fields);
            goto fail;
        }
        int r = PyDict_SetItemString(out, sc->key, entry);
        Py_DECREF(entry);
        if (r < 0)
            goto fail;
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

#endif /* URNLD_SPEEDUPS_TDS_H */
