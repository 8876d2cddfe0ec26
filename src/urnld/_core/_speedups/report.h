/* Part of _speedups.c (one translation unit). Twin of urnld._kernel._report, _report_canon and
 * _report_check: what a canonicalize or check report makes of a pass's flush. */
#ifndef URNLD_SPEEDUPS_REPORT_H
#define URNLD_SPEEDUPS_REPORT_H

/* key <= limit, for the limit of a report's capped map (None: nothing was ever cut, every key
 * is taken). Keys above it are refused by the map, so a flush leaves them out before building
 * anything for them. 1, 0, or -1 on error. */
static int
str_within(PyObject *key, PyObject *limit)
{
    if (limit == Py_None)
        return 1;
    if (PyUnicode_CheckExact(key) && PyUnicode_CheckExact(limit)) {
        int c = PyUnicode_Compare(key, limit);
        if (c == -1 && PyErr_Occurred())
            return -1;
        return c <= 0;
    }
    return PyObject_RichCompareBool(key, limit, Py_LE);
}

/* (a, b) <= limit, compared part by part before any tuple is built: most keys of a big flush
 * are above the limit of a capped map. */
static int
pair_within(PyObject *a, PyObject *b, PyObject *limit)
{
    if (limit == Py_None)
        return 1;
    if (PyTuple_CheckExact(limit) && PyTuple_GET_SIZE(limit) == 2 && PyUnicode_CheckExact(a) &&
        PyUnicode_CheckExact(b) && PyUnicode_CheckExact(PyTuple_GET_ITEM(limit, 0)) &&
        PyUnicode_CheckExact(PyTuple_GET_ITEM(limit, 1))) {
        int c = PyUnicode_Compare(a, PyTuple_GET_ITEM(limit, 0));
        if (c == 0)
            c = PyUnicode_Compare(b, PyTuple_GET_ITEM(limit, 1));
        if (c == -1 && PyErr_Occurred())
            return -1;
        return c <= 0;
    }
    PyObject *probe = PyTuple_Pack(2, a, b);
    if (probe == NULL)
        return -1;
    int keep = PyObject_RichCompareBool(probe, limit, Py_LE);
    Py_DECREF(probe);
    return keep;
}

/* list.append(item), consuming the new reference item (NULL: an error already set). */
static int
append_new(PyObject *list, PyObject *item)
{
    if (item == NULL)
        return -1;
    untrack_atomic(item);
    int r = PyList_Append(list, item);
    Py_DECREF(item);
    return r;
}

/* list.append((a, b, c)) */
static int
append_triple(PyObject *list, PyObject *a, PyObject *b, PyObject *c)
{
    return append_new(list, PyTuple_Pack(3, a, b, c));
}

/* info[tok], a (spelling, verdict, is_literal) tuple (borrowed), or NULL with an exception. */
static PyObject *
info_entry(PyObject *info, PyObject *tok)
{
    PyObject *entry = PyDict_GetItemWithError(info, tok);
    if (entry == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetObject(PyExc_KeyError, tok);
        return NULL;
    }
    if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) < 3) {
        PyErr_SetString(PyExc_TypeError, "bad info entry");
        return NULL;
    }
    return entry;
}

/* canon_counts(occ, info, limit) -> (occurrences, rewritten, clusters, nids, dropped, invalid)
 *
 * What CanonicalizeReport.record_verdicts makes of a flush: occ maps a raw token to its
 * statement count, info a raw token to (spelling, verdict, is_literal), a verdict being a
 * urnld._kernel.TermVerdict (output, canonical, nid, dropped, code, message; usable when nid is
 * not None, else listed with its .reason). clusters maps (output, spelling),
 * nids nid, dropped (canonical, dropped) to counts; invalid lists (spelling, reason, count).
 * Cluster keys above *limit* (the report's capped map refuses them) are left out. */
static PyObject *
sp_canon_counts(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!nargs_are("canon_counts", nargs, 3))
        return NULL;
    PyObject *occ = args[0], *info = args[1], *limit = args[2];
    if (!PyDict_Check(occ) || !PyDict_Check(info)) {
        PyErr_SetString(PyExc_TypeError, "canon_counts() needs dicts");
        return NULL;
    }
    PyObject *clusters = PyDict_New(), *nids = PyDict_New(), *dropped = PyDict_New(),
             *invalid = PyList_New(0);
    /* Sums in C: no int object per token. */
    long long occurrences = 0, rewritten = 0;
    PyObject *result = NULL;
    if (!clusters || !nids || !dropped || !invalid)
        goto done;
    Py_ssize_t pos = 0;
    PyObject *tok, *n;
    while (PyDict_Next(occ, &pos, &tok, &n)) {
        PyObject *entry = info_entry(info, tok);
        if (entry == NULL)
            goto done;
        PyObject *spelling = PyTuple_GET_ITEM(entry, 0), *verdict = PyTuple_GET_ITEM(entry, 1);
        if (!PyTuple_Check(verdict) || PyTuple_GET_SIZE(verdict) < VERDICT_FIELDS) {
            PyErr_SetString(PyExc_TypeError, "bad verdict");
            goto done;
        }
        PyObject *canonical = PyTuple_GET_ITEM(verdict, VERDICT_OUTPUT),
                 *nid = PyTuple_GET_ITEM(verdict, VERDICT_NID),
                 *drop = PyTuple_GET_ITEM(verdict, VERDICT_DROPPED);
        if (nid == Py_None) { /* not a usable URN: listed with its reason */
            PyObject *reason = PyObject_GetAttr(verdict, str_reason);
            if (reason == NULL)
                goto done;
            if (reason == Py_None) {
                Py_DECREF(reason);
                reason = PyUnicode_FromStringAndSize("", 0);
                if (reason == NULL)
                    goto done;
            }
            int r = append_triple(invalid, spelling, reason, n);
            Py_DECREF(reason);
            if (r < 0)
                goto done;
            continue;
        }
        long long count = PyLong_AsLongLong(n); /* statements: far below 2**63 */
        if (count == -1 && PyErr_Occurred())
            goto done;
        occurrences += count;
        int eq = PyObject_RichCompareBool(spelling, canonical, Py_EQ);
        if (eq < 0)
            goto done;
        if (!eq)
            rewritten += count;
        int keep = pair_within(canonical, spelling, limit);
        if (keep < 0)
            goto done;
        if (keep && add_pair(clusters, canonical, spelling, n) < 0)
            goto done;
        if (add_count(nids, nid, n) < 0)
            goto done;
        if (drop != Py_None) {
            int truth = PyObject_IsTrue(drop);
            if (truth < 0)
                goto done;
            if (truth && add_pair(dropped, canonical, drop, n) < 0)
                goto done;
        }
    }
    result = Py_BuildValue("(LLOOOO)", occurrences, rewritten, clusters, nids, dropped, invalid);
done:
    Py_XDECREF(clusters);
    Py_XDECREF(nids);
    Py_XDECREF(dropped);
    Py_XDECREF(invalid);
    return result;
}

/* maps[key] += n as _Capped.add does with int values: a key not there yet is added only
 * within the map's limit (no kept key is above it). 1 done, 0 refused, -1 error. */
static int
capped_add(PyObject *d, PyObject *limit, PyObject *key, PyObject *n)
{
    int keep = str_within(key, limit);
    return keep <= 0 ? keep : add_count(d, key, n) < 0 ? -1 : 1;
}

/* d[key] = (count, text) combined as report._count_with_text: counts added, the smaller text
 * kept; a new key only within *limit*. */
static int
capped_example(PyObject *d, PyObject *limit, PyObject *key, PyObject *n, PyObject *text)
{
    int keep = str_within(key, limit);
    if (keep <= 0)
        return keep;
    PyObject *old = PyDict_GetItemWithError(d, key), *value;
    if (old == NULL) {
        if (PyErr_Occurred())
            return -1;
        value = atomic_pair(n, text);
    }
    else {
        if (!PyTuple_Check(old) || PyTuple_GET_SIZE(old) != 2) {
            PyErr_SetString(PyExc_TypeError, "an example must be a (count, text) pair");
            return -1;
        }
        PyObject *sum = PyNumber_Add(PyTuple_GET_ITEM(old, 0), n);
        if (sum == NULL)
            return -1;
        int less = PyObject_RichCompareBool(text, PyTuple_GET_ITEM(old, 1), Py_LT);
        value = less < 0 ? NULL : atomic_pair(sum, less ? text : PyTuple_GET_ITEM(old, 1));
        Py_DECREF(sum);
    }
    if (value == NULL)
        return -1;
    int r = PyDict_SetItem(d, key, value);
    Py_DECREF(value);
    return r < 0 ? -1 : 1;
}

/* capped_add(d, limit, code, n) for each code of the sequence *codes*. */
static int
capped_add_each(PyObject *d, PyObject *limit, PyObject *codes, PyObject *n)
{
    PyObject *seq = PySequence_Fast(codes, "check codes must be a sequence");
    if (seq == NULL)
        return -1;
    int r = 0;
    for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(seq) && r >= 0; k++)
        r = capped_add(d, limit, PySequence_Fast_GET_ITEM(seq, k), n);
    Py_DECREF(seq);
    return r < 0 ? -1 : 0;
}

/* Counts per object, by identity, for the few distinct codes tuples and NIDs of a batch. */
#define TALLY_SIZE 32
typedef struct {
    PyObject *key[TALLY_SIZE]; /* strong references */
    long long count[TALLY_SIZE];
    int n;
} Tally;

/* count more for key: 1 tallied, 0 no room (the caller counts it itself). */
static int
tally(Tally *t, PyObject *key, long long count)
{
    for (int k = 0; k < t->n; k++)
        if (t->key[k] == key) {
            t->count[k] += count;
            return 1;
        }
    if (t->n == TALLY_SIZE)
        return 0;
    t->key[t->n] = Py_NewRef(key);
    t->count[t->n++] = count;
    return 1;
}

/* Add the tallies to the map d as capped_add does: each key's count, or with *per_item* each
 * item of each key (a codes tuple: every code once). */
static int
tally_flush(Tally *t, PyObject *d, PyObject *limit, int per_item)
{
    for (int k = 0; k < t->n; k++) {
        PyObject *n = PyLong_FromLongLong(t->count[k]);
        if (n == NULL)
            return -1;
        int r = per_item ? capped_add_each(d, limit, t->key[k], n)
                         : capped_add(d, limit, t->key[k], n);
        Py_DECREF(n);
        if (r < 0)
            return -1;
    }
    return 0;
}

static void
tally_clear(Tally *t)
{
    for (int k = 0; k < t->n; k++)
        Py_DECREF(t->key[k]);
    t->n = 0;
}

/* check_counts(occ, info, cache, checked, maps[, fast, cache_max])
 *     -> (iris, literals, errors, non_canonical)
 *
 * What CheckReport.record_checks makes of a check pass's flush, added to the report's maps in
 * place: occ maps a raw token to its statement count, info a raw token to (spelling, verdict,
 * is_literal). A spelling's check fields (codes, error, canonical, nid) are the verdict itself
 * when it is such a 4-tuple (a plain tuple: the rewrite judged the spelling), else come from the dict
 * *cache* (spelling -> fields; None: no cache), else from check_fields(spelling, *fast) when
 * *fast* is a 5-tuple of its other arguments (the answer then goes into *cache*, cleared first
 * when it holds *cache_max*), else from checked(spelling), which is called for nothing else and
 * fills the cache itself. *maps* (CheckReport.batch_maps) holds (dict, limit) for the findings
 * (code), NIDs, clusters ((canonical, spelling)), invalid (spelling: (count, first error)) and
 * non-canonical (spelling: (count, canonical)) maps: counts are added to them as _Capped.add
 * does, a new key only within the map's limit; the caller prunes them afterwards. Returns the
 * statement-occurrences of URN IRIs, URN literals, invalid URNs and valid non-canonical ones. */
static PyObject *
sp_check_counts(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5 && !nargs_are("check_counts", nargs, 7))
        return NULL;
    PyObject *occ = args[0], *info = args[1], *cache = args[2], *checked = args[3],
             *maps = args[4], *fast = nargs == 7 ? args[5] : Py_None;
    if (!PyDict_Check(occ) || !PyDict_Check(info) || (cache != Py_None && !PyDict_Check(cache))) {
        PyErr_SetString(PyExc_TypeError, "check_counts() needs dicts");
        return NULL;
    }
    PyObject *map[5], *limit[5];
    if (!PyTuple_Check(maps) || PyTuple_GET_SIZE(maps) != 5) {
        PyErr_SetString(PyExc_TypeError, "check_counts() needs five (dict, limit) maps");
        return NULL;
    }
    for (int k = 0; k < 5; k++) {
        PyObject *m = PyTuple_GET_ITEM(maps, k);
        if (!PyTuple_Check(m) || PyTuple_GET_SIZE(m) != 2 ||
            !PyDict_Check(PyTuple_GET_ITEM(m, 0))) {
            PyErr_SetString(PyExc_TypeError, "check_counts() needs five (dict, limit) maps");
            return NULL;
        }
        map[k] = PyTuple_GET_ITEM(m, 0);
        limit[k] = PyTuple_GET_ITEM(m, 1);
    }
    PyObject *findings = map[0], *nids = map[1], *clusters = map[2], *invalid = map[3],
             *non_canonical_map = map[4];
    Py_ssize_t cache_max = 0;
    if (fast != Py_None) {
        if (!PyTuple_CheckExact(fast) || PyTuple_GET_SIZE(fast) != 5 || cache == Py_None) {
            PyErr_SetString(PyExc_TypeError, "check_counts() needs a cache and 5 fast arguments");
            return NULL;
        }
        if ((cache_max = PyLong_AsSsize_t(args[6])) < 0) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "check_counts(): cache_max < 0");
            return NULL;
        }
    }
    /* Sums in C: no int object per token. The findings and NIDs are counted per codes tuple
     * and per NID object first (a batch has few of each), then added to their maps. */
    long long iris = 0, literals = 0, errors = 0, non_canonical = 0;
    Tally sets = {0}, nid_counts = {0};
    /* entry: held while checked() runs Python code */
    PyObject *result = NULL, *fields = NULL, *entry = NULL;
    Py_ssize_t pos = 0;
    PyObject *tok, *n;
    while (PyDict_Next(occ, &pos, &tok, &n)) {
        entry = info_entry(info, tok);
        if (entry == NULL)
            goto done;
        Py_INCREF(entry);
        PyObject *spelling = PyTuple_GET_ITEM(entry, 0);
        int literal = PyObject_IsTrue(PyTuple_GET_ITEM(entry, 2));
        if (literal < 0)
            goto done;
        /* judged by the rewrite at the token's cache miss (see spelling_only()), else looked up */
        fields = PyTuple_GET_ITEM(entry, 1);
        if (!PyTuple_CheckExact(fields) || PyTuple_GET_SIZE(fields) != FIELDS_COUNT)
            fields = cache == Py_None ? NULL : PyDict_GetItemWithError(cache, spelling);
        if (fields != NULL)
            Py_INCREF(fields);
        else if (PyErr_Occurred())
            goto done;
        else {
            if (fast != Py_None) {
                PyObject *const *a = &PyTuple_GET_ITEM(fast, 0);
                fields = check_fields_of(spelling, a[0], a[1], a[2], a[3], a[4]);
                if (fields == NULL)
                    goto done;
                if (fields == Py_None)
                    Py_CLEAR(fields);
                else {
                    if (PyDict_GET_SIZE(cache) >= cache_max) /* bounded like TermCache's */
                        PyDict_Clear(cache);
                    if (PyDict_SetItem(cache, spelling, fields) < 0)
                        goto done;
                }
            }
            if (fields == NULL && (fields = PyObject_CallOneArg(checked, spelling)) == NULL)
                goto done;
        }
        if (!PyTuple_Check(fields) || PyTuple_GET_SIZE(fields) != FIELDS_COUNT) {
            PyErr_SetString(PyExc_TypeError, "checked() must return a 4-tuple");
            goto done;
        }
        PyObject *codes = PyTuple_GET_ITEM(fields, FIELDS_CODES),
                 *error = PyTuple_GET_ITEM(fields, FIELDS_ERROR),
                 *canonical = PyTuple_GET_ITEM(fields, FIELDS_CANONICAL),
                 *nid = PyTuple_GET_ITEM(fields, FIELDS_NID);
        long long count = PyLong_AsLongLong(n); /* statements: far below 2**63 */
        if (count == -1 && PyErr_Occurred())
            goto done;
        if (literal)
            literals += count;
        else
            iris += count;
        if ((!PyTuple_CheckExact(codes) || !tally(&sets, codes, count)) &&
            capped_add_each(findings, limit[0], codes, n) < 0)
            goto done;
        if (error != Py_None) {
            errors += count;
            if (capped_example(invalid, limit[3], spelling, n, error) < 0)
                goto done;
        }
        else if (canonical != Py_None && nid != Py_None) {
            if (!tally(&nid_counts, nid, count) && capped_add(nids, limit[1], nid, n) < 0)
                goto done;
            int keep = pair_within(canonical, spelling, limit[2]);
            if (keep < 0 || (keep && add_pair(clusters, canonical, spelling, n) < 0))
                goto done;
            int eq = PyObject_RichCompareBool(spelling, canonical, Py_EQ);
            if (eq < 0)
                goto done;
            if (!eq) {
                non_canonical += count;
                if (capped_example(non_canonical_map, limit[4], spelling, n, canonical) < 0)
                    goto done;
            }
        }
        Py_CLEAR(fields);
        Py_CLEAR(entry);
    }
    if (tally_flush(&sets, findings, limit[0], 1) < 0 ||
        tally_flush(&nid_counts, nids, limit[1], 0) < 0)
        goto done;
    result = Py_BuildValue("(LLLL)", iris, literals, errors, non_canonical);
done:
    tally_clear(&sets);
    tally_clear(&nid_counts);
    Py_XDECREF(entry);
    Py_XDECREF(fields);
    return result;
}

#endif /* URNLD_SPEEDUPS_REPORT_H */
