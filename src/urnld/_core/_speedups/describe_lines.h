/* Part of _speedups.c (one translation unit). Twin of urnld.cli._parse_stream (_Describer.text,
 * _Describer.json_line): what `urnld parse -` writes for each line of a list.
 *
 * describe_lines(chunk, as_json, seen, seen_max, lanes, lane_of, slow, prefixes, spec,
 *                options, code_ranks, severity_ranks, r_message, as_bytes, hint)
 *     -> (output, lines, invalid)
 *
 * chunk: whole lines ('\n' ends each but the last), each stripped as str.strip() does, blank
 * ones skipped. The common case, a valid ASCII RFC 8141 URN whose findings are its NID's own,
 * percent-encoding lints (of its NSS and components) and not-canonical, and the r-component's
 * warning (r_message), is written here from check_fields_of() (check.h) on its
 * assigned name and the NID's lane: lanes[nid as written] or lane_of(nid), a
 * tuple (text_head, json_mid, json_tail, own) or None, own holding the NID's findings as
 * (code, rank, text line, JSON object). The rest is written by slow(line) -> (text, valid),
 * the Python writer: byte for byte the Python's output (tests/core/test_speedups_describe.py).
 * An ASCII line that does not parse is written here too when diagnose.h finds its fault (and,
 * in JSON, hint(line), urnld.repair, names no repair).
 * seen: line -> output of the lines written here, at most seen_max lines of at most
 * SEEN_LINE_MAX characters (emptied when full): lists repeat URNs. Returns the chunk's
 * output (a str, or with as_bytes its UTF-8 as stdout writes it: what a str cannot encode as
 * backslash escapes), the lines described and how many were invalid. */
#ifndef URNLD_SPEEDUPS_DESCRIBE_LINES_H
#define URNLD_SPEEDUPS_DESCRIBE_LINES_H
#define SEEN_LINE_MAX 1024 /* a longer line is not remembered: the memo's size stays bounded */

/* Whether an ASCII str needs no JSON escape and shows nothing a terminal acts on. */
static int
plain_ascii(PyObject *s)
{
    if (!PyUnicode_CheckExact(s) || !PyUnicode_IS_ASCII(s))
        return 0;
    const unsigned char *p = PyUnicode_1BYTE_DATA(s);
    for (Py_ssize_t k = 0, n = PyUnicode_GET_LENGTH(s); k < n; k++)
        if (p[k] < 0x20 || p[k] == 0x7f || p[k] == '"' || p[k] == '\\')
            return 0;
    return 1;
}

/* The lane of the NID as written: borrowed from lanes, or lane_of's answer kept in *hold.
 * NULL without an error: no lane (the Python writes the line). */
static PyObject *
lane_for(PyObject *nid, PyObject *lanes, PyObject *lane_of, PyObject **hold)
{
    PyObject *lane = PyDict_GetItemWithError(lanes, nid);
    if (lane == NULL) {
        if (PyErr_Occurred())
            return NULL;
        lane = *hold = PyObject_CallOneArg(lane_of, nid);
        if (lane == NULL)
            return NULL;
    }
    if (lane == Py_None)
        return NULL;
    int ok = PyTuple_CheckExact(lane) && PyTuple_GET_SIZE(lane) == 4 &&
             PyTuple_CheckExact(PyTuple_GET_ITEM(lane, 3));
    for (Py_ssize_t j = 0; ok && j < PyTuple_GET_SIZE(PyTuple_GET_ITEM(lane, 3)); j++) {
        PyObject *e = PyTuple_GET_ITEM(PyTuple_GET_ITEM(lane, 3), j);
        ok = PyTuple_CheckExact(e) && PyTuple_GET_SIZE(e) == 4;
    }
    if (!ok)
        PyErr_SetString(PyExc_TypeError, "describe_lines(): a lane is (str, str, str, tuple)");
    return ok ? lane : NULL;
}

/* The message of a finding the writer makes, into m: the r-component's as check() words it; a
 * lint of a component names its part where the NSS's names the NSS (no escape's repr holds
 * "NSS"). */
static int
message_of(DBuf *m, const Item *e, const unsigned char *s, PyObject *canonical,
           PyObject *r_message)
{
    static const char *const parts[4] = {"NSS", "r-component", "q-component", "f-component"};
    m->n = 0;
    if (e->code == CODE_R_COMPONENT)
        return dbuf_str(m, r_message);
    if (item_message(m, e, s, canonical) < 0)
        return -1;
    for (Py_ssize_t k = 0; e->part > 0 && k + 3 <= m->n; k++)
        if (memcmp(m->p + k, "NSS", 3) == 0) {
            Py_ssize_t len = (Py_ssize_t)strlen(parts[e->part]), rest = m->n - k - 3;
            if (dbuf_reserve(m, len) < 0)
                return -1;
            memmove(m->p + k + len, m->p + k + 3, (size_t)rest);
            memcpy(m->p + k, parts[e->part], (size_t)len);
            m->n += len - 3;
            break;
        }
    return 0;
}

/* Where a URN's components are: r, q, f from [x0, x1) each, x0 = -1 when absent. */
typedef struct {
    Py_ssize_t nss_end, at[3][2];
} Comps;

/* The components of the ASCII URN s[0..n) whose NSS ends at a '?' or '#' (RFC 8141 §2). 1 found,
 * 0 not a URN with components. */
static int
comps_of(const unsigned char *s, Py_ssize_t n, Comps *c)
{
    Py_ssize_t nid_end, i;
    if (!scan_urn(s, n, &nid_end, &c->nss_end) || c->nss_end == n)
        return 0;
    i = c->nss_end;
    for (int k = 0; k < 3; k++)
        c->at[k][0] = c->at[k][1] = -1;
    if (s[i] == '?' && s[i + 1] == '+') { /* scan_urn checked the grammar: only the ends here */
        c->at[0][0] = i + 2;
        i = c->at[0][1] = scan_part(s, i + 2, n, R_COMP);
    }
    if (i < n && s[i] == '?') {
        c->at[1][0] = i + 2;
        i = c->at[1][1] = scan_part(s, i + 2, n, Q_COMP);
    }
    if (i < n) { /* '#' */
        c->at[2][0] = i + 1;
        c->at[2][1] = n;
    }
    return 1;
}

/* Write the line *text* (an ASCII str) if it is the common case: a valid URN whose NSS's
 * findings are its NID's own, percent-encoding lints and not-canonical (those of its assigned
 * name, when it has components), plus the r-component's warning. 1 written, 0 not the common
 * case (nothing written), -1 error. */
static int
describe_fast(DBuf *out, DBuf *m, PyObject *text, int as_json, PyObject *lanes, PyObject *lane_of,
              PyObject *prefixes, PyObject *spec_of, PyObject *options, PyObject *code_ranks,
              PyObject *sev_ranks, PyObject *r_message)
{
    const unsigned char *s = PyUnicode_1BYTE_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), end = n;
    Comps comps;
    PyObject *base = text, *tail = NULL, *canonical, *canon = NULL; /* canon: owned */
    int has_comps = memchr(s, '?', (size_t)n) != NULL || memchr(s, '#', (size_t)n) != NULL;
    if (has_comps) {
        /* A component changes no finding of the NSS's: check its assigned name. */
        if (!comps_of(s, n, &comps))
            return 0;
        end = comps.nss_end;
        if ((base = PyUnicode_Substring(text, 0, end)) == NULL)
            return -1;
    }
    PyObject *fields = check_fields_of(base, prefixes, spec_of, options, code_ranks, sev_ranks);
    if (has_comps)
        Py_DECREF(base);
    if (fields == NULL)
        return -1;
    int r = 0;
    PyObject *nid = NULL, *held = NULL;
    if (!PyTuple_CheckExact(fields) || PyTuple_GET_SIZE(fields) != FIELDS_COUNT ||
        PyTuple_GET_ITEM(fields, FIELDS_ERROR) != Py_None)
        goto done; /* an error may come with check()'s repair hint: the Python writes it */
    PyObject *codes = PyTuple_GET_ITEM(fields, FIELDS_CODES),
             *lower = PyTuple_GET_ITEM(fields, FIELDS_NID);
    canonical = PyTuple_GET_ITEM(fields, FIELDS_CANONICAL);
    if (!PyTuple_CheckExact(codes) || !PyUnicode_CheckExact(lower) || !plain_ascii(canonical) ||
        !plain_ascii(text) || (has_comps && !PyUnicode_CheckExact(r_message)))
        goto done;
    Py_ssize_t nid_len = PyUnicode_GET_LENGTH(lower);
    Py_ssize_t nss_start = 5 + nid_len;
    if (nss_start > end)
        goto done;
    int tail_canonical = 1; /* whether the components are canonical as written */
    if (has_comps) { /* RFC 8141 §3: the components' %XX hex upper-cased */
        if ((tail = upper_pct(s, end, n)) == NULL ||
            (canon = PyUnicode_Concat(canonical, tail)) == NULL) {
            r = -1;
            goto done;
        }
        tail_canonical = memcmp(PyUnicode_1BYTE_DATA(tail), s + end, (size_t)(n - end)) == 0;
    }
    else
        canon = Py_NewRef(canonical);
    canonical = canon;
    nid = PyUnicode_Substring(text, 4, 4 + nid_len);
    if (nid == NULL) {
        r = -1;
        goto done;
    }
    PyObject *lane = lane_for(nid, lanes, lane_of, &held);
    if (lane == NULL) {
        r = PyErr_Occurred() ? -1 : 0;
        goto done;
    }
    PyObject *own = PyTuple_GET_ITEM(lane, 3);
    Items it;
    it.n = 0;
    memset(it.per_code, 0, sizeof it.per_code);
    int wanted[CODE_COUNT] = {0};
    /* Every code check_fields found must be one written here. */
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(codes); k++) {
        PyObject *code = PyTuple_GET_ITEM(codes, k);
        int known = 0;
        for (int c = CODE_PCT_LOWERCASE; c <= CODE_PCT_NOT_UTF8 && !known; c++)
            if (code == code_str[c])
                known = wanted[c] = 1;
        if (code == code_str[CODE_NOT_CANONICAL])
            known = wanted[CODE_NOT_CANONICAL] = 1;
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(own) && !known; j++) {
            int c = PyUnicode_Compare(PyTuple_GET_ITEM(PyTuple_GET_ITEM(own, j), 0), code);
            if (c == -1 && PyErr_Occurred()) {
                r = -1;
                goto done;
            }
            known = c == 0;
        }
        if (!known)
            goto done; /* a rule's own finding: the Python writes it */
    }
    /* The findings: the NID's own (all start at the NID, 4), the lints, not-canonical (its
     * assigned name's verdict stands for the whole: the components are canonical as written),
     * the r-component's warning. */
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(own); j++) {
        PyObject *e = PyTuple_GET_ITEM(own, j);
        if (it.n == MAX_ITEMS)
            goto done;
        long rank = PyLong_AsLong(PyTuple_GET_ITEM(e, 1));
        const char *name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(e, 0));
        if ((rank == -1 && PyErr_Occurred()) || name == NULL) {
            r = -1;
            goto done;
        }
        it.item[it.n++] = (Item){-1, name, (int)rank, 4, 4 + nid_len, e};
    }
    if (lint_items(s, nss_start, end, wanted, &it) < 0)
        goto done;
    for (int k = 0; has_comps && k < 3; k++) { /* each component's lints, as many as the NSS's */
        static const int every[CODE_COUNT] = {[CODE_PCT_LOWERCASE] = 1, [CODE_PCT_UNRESERVED] = 1,
                                              [CODE_PCT_NUL] = 1, [CODE_PCT_NOT_UTF8] = 1};
        int from = it.n;
        memset(it.per_code, 0, sizeof it.per_code);
        if (comps.at[k][0] >= 0 && lint_items(s, comps.at[k][0], comps.at[k][1], every, &it) < 0)
            goto done;
        for (int j = from; j < it.n; j++)
            it.item[j].part = k + 1;
    }
    wanted[CODE_NOT_CANONICAL] |= !tail_canonical;
    if (wanted[CODE_NOT_CANONICAL] && items_lint(&it, CODE_NOT_CANONICAL, 0, n) < 0)
        goto done;
    if (has_comps && comps.at[0][0] >= 0 &&
        items_lint(&it, CODE_R_COMPONENT, end, comps.at[0][1]) < 0)
        goto done;
    items_sort(&it);

    static const char *const labels[3] = {"  r-component ", "  q-component ", "  f-component "};
    static const char *const keys[3] = {"\", \"r_component\": ", ", \"q_component\": ",
                                        ", \"f_component\": "};
    const char *nss = (const char *)s + nss_start;
    Py_ssize_t nss_len = end - nss_start;
    r = -1;
    if (!as_json) {
        if (dbuf_put(out, (const char *)s, n) || dbuf_puts(out, "\n  valid       yes\n") ||
            dbuf_str(out, PyTuple_GET_ITEM(lane, 0)) || dbuf_put(out, nss, nss_len) ||
            dbuf_puts(out, "\n"))
            goto done;
        for (int k = 0; has_comps && k < 3; k++)
            if (comps.at[k][0] >= 0 &&
                (dbuf_puts(out, labels[k]) ||
                 dbuf_put(out, (const char *)s + comps.at[k][0], comps.at[k][1] - comps.at[k][0]) ||
                 dbuf_puts(out, "\n")))
                goto done;
        if (dbuf_puts(out, "  canonical   ") || dbuf_str(out, canonical) || dbuf_puts(out, "\n"))
            goto done;
        for (int k = 0; k < it.n; k++) {
            Item *e = &it.item[k];
            if (e->own != NULL) {
                if (dbuf_str(out, PyTuple_GET_ITEM(e->own, 2)))
                    goto done;
                continue;
            }
            const char *sev = SEVERITY_NAMES[e->rank]; /* "  {severity:<7}     {code}: " */
            Py_ssize_t pad = 7 - (Py_ssize_t)strlen(sev);
            if (dbuf_puts(out, "  ") || dbuf_puts(out, sev) ||
                dbuf_put(out, "            ", (pad > 0 ? pad : 0) + 5) ||
                dbuf_puts(out, e->name) || dbuf_puts(out, ": ") ||
                message_of(m, e, s, canonical, r_message) || dbuf_put(out, m->p, m->n) ||
                dbuf_puts(out, "\n"))
                goto done;
        }
    }
    else {
        if (dbuf_puts(out, "{\"input\": \"") || dbuf_put(out, (const char *)s, n) ||
            dbuf_puts(out, "\", \"valid\": true") || dbuf_str(out, PyTuple_GET_ITEM(lane, 1)) ||
            dbuf_put(out, nss, nss_len))
            goto done;
        for (int k = 0; k < 3; k++) {
            int at = has_comps && comps.at[k][0] >= 0;
            if (dbuf_puts(out, keys[k]) ||
                (at ? dbuf_puts(out, "\"") ||
                          dbuf_put(out, (const char *)s + comps.at[k][0],
                                   comps.at[k][1] - comps.at[k][0]) ||
                          dbuf_puts(out, "\"")
                    : dbuf_puts(out, "null")))
                goto done;
        }
        if (dbuf_puts(out, "}, \"assigned_name\": \"") || dbuf_put(out, (const char *)s, end) ||
            dbuf_puts(out, "\", \"normalized\": \"urn:") || dbuf_str(out, lower) ||
            dbuf_puts(out, ":"))
            goto done;
        /* the NSS with its escapes' hex digits upper-cased (upper_pct), then the components */
        if (dbuf_reserve(out, nss_len) < 0)
            goto done;
        for (Py_ssize_t k = 0; k < nss_len; k++) {
            char ch = nss[k];
            int in_escape = (k >= 1 && nss[k - 1] == '%') || (k >= 2 && nss[k - 2] == '%');
            if (in_escape && ch >= 'a' && ch <= 'f')
                ch = (char)(ch - 'a' + 'A');
            out->p[out->n++] = ch;
        }
        if ((has_comps && dbuf_str(out, tail)) ||
            dbuf_puts(out, "\", \"canonical\": \"") || dbuf_str(out, canonical) ||
            dbuf_str(out, PyTuple_GET_ITEM(lane, 2)))
            goto done;
        for (int k = 0; k < it.n; k++) {
            Item *e = &it.item[k];
            if (k && dbuf_puts(out, ", "))
                goto done;
            if (e->own != NULL) {
                if (dbuf_str(out, PyTuple_GET_ITEM(e->own, 3)))
                    goto done;
                continue;
            }
            if (dbuf_puts(out, "{\"code\": \"") || dbuf_puts(out, e->name) ||
                dbuf_puts(out, "\", \"severity\": \"") ||
                dbuf_puts(out, SEVERITY_NAMES[e->rank]) || dbuf_puts(out, "\", \"message\": \"") ||
                message_of(m, e, s, canonical, r_message) || dbuf_json(out, m->p, m->n) ||
                dbuf_puts(out, "\", \"span\": [") || dbuf_ssize(out, e->start) ||
                dbuf_puts(out, ", ") || dbuf_ssize(out, e->end) ||
                dbuf_puts(out, "], \"rule\": null}"))
                goto done;
        }
        if (dbuf_puts(out, "]}\n"))
            goto done;
    }
    r = 1;
done:
    Py_XDECREF(held);
    Py_XDECREF(nid);
    Py_XDECREF(tail);
    Py_XDECREF(canon);
    Py_DECREF(fields);
    return r;
}

/* Write the line *text* (an ASCII str, default options) if it does not parse and its fault is
 * found here (diagnose.h): the text block shows the fault alone; the JSON has its one
 * finding, the syntax error, unless hint(text) (urnld.repair) names a repair, whose finding
 * the Python writes. 1 written, 0 left to the Python, -1 error. */
static int
describe_fault(DBuf *out, DBuf *m, PyObject *text, int as_json, PyObject *hint)
{
    const unsigned char *s = PyUnicode_1BYTE_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), at, nid_end, nss_end;
    if (scan_urn(s, n, &nid_end, &nss_end))
        return 0;
    int r = diagnose_ascii(m, s, n, &at);
    if (r != 1)
        return r;
    if (as_json) {
        PyObject *fix = PyObject_CallOneArg(hint, text);
        if (fix == NULL)
            return -1;
        Py_DECREF(fix);
        if (fix != Py_None)
            return 0;
        const char *severity = SEVERITY_NAMES[CODE_RANK[CODE_SYNTAX]];
        return dbuf_puts(out, "{\"input\": \"") || dbuf_json(out, (const char *)s, n) ||
                       dbuf_puts(out, "\", \"valid\": false, \"mode\": \"rfc8141\", \"parts\": null, "
                                      "\"assigned_name\": null, \"normalized\": null, "
                                      "\"canonical\": null, \"registered\": null, \"rule\": null, "
                                      "\"error\": {\"position\": ") ||
                       dbuf_ssize(out, at) || dbuf_puts(out, ", \"reason\": \"") ||
                       dbuf_json(out, m->p, m->n) || dbuf_puts(out, "\"}, \"findings\": [{\"code\": \"") ||
                       dbuf_puts(out, CODE_NAMES[CODE_SYNTAX]) ||
                       dbuf_puts(out, "\", \"severity\": \"") || dbuf_puts(out, severity) ||
                       dbuf_puts(out, "\", \"message\": \"") || dbuf_json(out, m->p, m->n) ||
                       dbuf_puts(out, "\", \"span\": [") || dbuf_ssize(out, at) ||
                       dbuf_puts(out, ", ") || dbuf_ssize(out, at + 1 < n ? at + 1 : n) ||
                       dbuf_puts(out, "], \"rule\": null}]}\n")
                   ? -1
                   : 1;
    }
    /* The input as a terminal may show it (_parse_stream._shown): a control character is '?'. */
    Py_ssize_t mark = out->n;
    if (dbuf_put(out, (const char *)s, n) < 0)
        return -1;
    for (Py_ssize_t k = mark; k < out->n; k++)
        if ((unsigned char)out->p[k] < 0x20 || out->p[k] == 0x7f)
            out->p[k] = '?';
    Py_ssize_t shown = out->n - mark;
    if (dbuf_puts(out, "\n  valid       NO\n  error       ") || dbuf_put(out, m->p, m->n) ||
        dbuf_puts(out, " (at position ") || dbuf_ssize(out, at) ||
        dbuf_puts(out, ")\n              ") || dbuf_reserve(out, shown) < 0)
        return -1;
    memcpy(out->p + out->n, out->p + mark, (size_t)shown);
    out->n += shown;
    if (dbuf_puts(out, "\n              ") || dbuf_reserve(out, at + 2) < 0)
        return -1;
    memset(out->p + out->n, ' ', (size_t)at);
    out->n += at;
    return dbuf_puts(out, "^\n") ? -1 : 1;
}

/* A str as UTF-8 into *out*, what cannot be encoded (a lone surrogate: a byte of the input
 * that is not UTF-8) written as backslash escapes, as stdout writes it. */
static int
dbuf_encoded(DBuf *out, PyObject *s)
{
    Py_ssize_t n;
    const char *u = PyUnicode_AsUTF8AndSize(s, &n);
    if (u != NULL)
        return dbuf_put(out, u, n);
    if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError))
        return -1;
    PyErr_Clear();
    PyObject *b = PyUnicode_AsEncodedString(s, "utf-8", "backslashreplace");
    if (b == NULL)
        return -1;
    int r = dbuf_put(out, PyBytes_AS_STRING(b), PyBytes_GET_SIZE(b));
    Py_DECREF(b);
    return r;
}

/* Move what *out* holds, as a str, to the list *pieces*. */
static int
flush_to(PyObject *pieces, DBuf *out)
{
    if (out->n == 0)
        return 0;
    PyObject *s = PyUnicode_DecodeUTF8(out->p, out->n, NULL);
    if (s == NULL)
        return -1;
    int r = PyList_Append(pieces, s);
    Py_DECREF(s);
    out->n = 0;
    return r;
}

static PyObject *
sp_describe_lines(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!nargs_are("describe_lines", nargs, 15))
        return NULL;
    PyObject *chunk = args[0], *seen = args[2], *lanes = args[4], *lane_of = args[5],
             *slow = args[6], *prefixes = args[7], *spec_of = args[8], *options = args[9],
             *code_ranks = args[10], *sev_ranks = args[11], *r_message = args[12],
             *hint = args[14];
    int as_json = PyObject_IsTrue(args[1]), as_bytes = PyObject_IsTrue(args[13]);
    Py_ssize_t seen_max = PyLong_AsSsize_t(args[3]);
    if (as_json < 0 || as_bytes < 0 || (seen_max == -1 && PyErr_Occurred()))
        return NULL;
    if (!PyUnicode_Check(chunk) || !PyDict_Check(lanes) || !PyDict_CheckExact(seen)) {
        PyErr_SetString(PyExc_TypeError, "describe_lines(chunk: str, as_json, lanes: dict, ...)");
        return NULL;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(chunk) < 0)
        return NULL;
#endif
    /* The fast lane answers for the default options only (check_fields' contract). */
    int fast = PyDict_CheckExact(prefixes) && PyDict_CheckExact(code_ranks) &&
               PyDict_CheckExact(sev_ranks);
    int kind = PyUnicode_KIND(chunk);
    const void *data = PyUnicode_DATA(chunk);
    Py_ssize_t len = PyUnicode_GET_LENGTH(chunk), lines = 0, invalid = 0;
    DBuf out = {NULL, 0, 0}, m = {NULL, 0, 0};
    PyObject *pieces = PyList_New(0), *result = NULL;
    if (pieces == NULL)
        return NULL;
    Py_ssize_t pos = 0;
    while (pos < len) {
        Py_ssize_t end = pos;
        if (kind == PyUnicode_1BYTE_KIND) {
            const char *nl = memchr((const char *)data + pos, '\n', (size_t)(len - pos));
            end = nl == NULL ? len : nl - (const char *)data;
        }
        else
            while (end < len && PyUnicode_READ(kind, data, end) != '\n')
                end++;
        Py_ssize_t a = pos, b = end;
        pos = end + 1;
        while (a < b && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, a)))
            a++;
        while (b > a && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, b - 1)))
            b--;
        if (a == b)
            continue; /* blank lines are skipped */
        PyObject *line = PyUnicode_Substring(chunk, a, b);
        if (line == NULL)
            goto fail;
        lines++;
        int done = 0;
        if (fast && PyUnicode_IS_ASCII(line)) {
            PyObject *known = PyDict_GetItemWithError(seen, line); /* borrowed */
            Py_ssize_t mark = out.n;
            if (known != NULL)
                done = PyUnicode_CheckExact(known) && dbuf_str(&out, known) == 0 ? 1 : -1;
            else if (!PyErr_Occurred())
                done = describe_fast(&out, &m, line, as_json, lanes, lane_of, prefixes, spec_of,
                                     options, code_ranks, sev_ranks, r_message);
            else
                done = -1;
            int fault = 0; /* an invalid line, written here and not remembered */
            if (done == 0 && known == NULL) {
                out.n = mark;
                done = fault = describe_fault(&out, &m, line, as_json, hint);
                invalid += fault == 1;
            }
            if (done == 1 && !fault && known == NULL && b - a <= SEEN_LINE_MAX) { /* remember it */
                PyObject *text = PyUnicode_DecodeUTF8(out.p + mark, out.n - mark, NULL);
                if (text != NULL && PyDict_GET_SIZE(seen) >= seen_max)
                    PyDict_Clear(seen);
                if (text == NULL || PyDict_SetItem(seen, line, text) < 0)
                    done = -1;
                Py_XDECREF(text);
            }
            if (done < 0) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_TypeError, "describe_lines(): seen holds str");
                Py_DECREF(line);
                goto fail;
            }
            if (!done)
                out.n = mark; /* drop a partial write */
        }
        if (!done) {
            PyObject *got = PyObject_CallOneArg(slow, line);
            if (got == NULL) {
                Py_DECREF(line);
                goto fail;
            }
            int ok = PyTuple_CheckExact(got) && PyTuple_GET_SIZE(got) == 2 &&
                     PyUnicode_CheckExact(PyTuple_GET_ITEM(got, 0));
            int valid = ok ? PyObject_IsTrue(PyTuple_GET_ITEM(got, 1)) : -1;
            if (!ok)
                PyErr_SetString(PyExc_TypeError, "describe_lines(): slow() returns (str, bool)");
            else if (valid >= 0 && (as_bytes ? dbuf_encoded(&out, PyTuple_GET_ITEM(got, 0)) < 0
                                             : flush_to(pieces, &out) < 0 ||
                                                   PyList_Append(pieces, PyTuple_GET_ITEM(got, 0)) < 0))
                valid = -1;
            Py_DECREF(got);
            if (valid < 0) {
                Py_DECREF(line);
                goto fail;
            }
            invalid += !valid;
        }
        Py_DECREF(line);
    }
    if (as_bytes) {
        result = Py_BuildValue("(y#nn)", out.p ? out.p : "", out.n, lines, invalid);
        goto fail;
    }
    if (flush_to(pieces, &out) < 0)
        goto fail;
    PyObject *empty = PyUnicode_New(0, 0);
    if (empty == NULL)
        goto fail;
    PyObject *text = PyUnicode_Join(empty, pieces);
    Py_DECREF(empty);
    if (text == NULL)
        goto fail;
    result = Py_BuildValue("(Nnn)", text, lines, invalid);
fail:
    PyMem_Free(out.p);
    PyMem_Free(m.p);
    Py_DECREF(pieces);
    return result;
}


#endif /* URNLD_SPEEDUPS_DESCRIBE_LINES_H */
