/* Part of _speedups.c (one translation unit). Twin of urnld.cli._parse (_Describer.text,
 * _Describer.json_line): what `urnld parse -` writes for each line of a list.
 *
 * describe_lines(chunk, as_json, seen, seen_max, lanes, lane_of, slow, prefixes, spec,
 *                options, code_ranks, severity_ranks) -> (output, lines, invalid)
 *
 * chunk: whole lines ('\n' ends each but the last), each stripped as str.strip() does, blank
 * ones skipped. The common case, a valid ASCII RFC 8141 URN without components whose findings
 * are its NID's own, percent-encoding lints and not-canonical, is written here from
 * check_fields_of() (check.h) and the NID's lane: lanes[nid as written] or lane_of(nid), a
 * tuple (text_head, json_mid, json_tail, own) or None, own holding the NID's findings as
 * (code, rank, text line, JSON object). The rest is written by slow(line) -> (text, valid),
 * the Python writer: byte for byte the Python's output (tests/core/test_speedups_describe.py).
 * seen: line -> output of the lines written here, at most seen_max lines of at most
 * SEEN_LINE_MAX characters (emptied when full): lists repeat URNs. Returns the chunk's
 * output, the lines described and how many were invalid. */
#ifndef URNLD_SPEEDUPS_DESCRIBE_H
#define URNLD_SPEEDUPS_DESCRIBE_H
#define SEEN_LINE_MAX 1024 /* a longer line is not remembered: the memo's size stays bounded */

/* A growable buffer of UTF-8 text. */
typedef struct {
    char *p;
    Py_ssize_t n, cap;
} DBuf;

static int
dbuf_reserve(DBuf *b, Py_ssize_t more)
{
    if (b->n + more <= b->cap)
        return 0;
    Py_ssize_t cap = b->cap ? b->cap : 1 << 16;
    while (cap < b->n + more) {
        if (cap > PY_SSIZE_T_MAX / 2) {
            PyErr_NoMemory();
            return -1;
        }
        cap *= 2;
    }
    char *p = PyMem_Realloc(b->p, (size_t)cap);
    if (p == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    b->p = p;
    b->cap = cap;
    return 0;
}

static int
dbuf_put(DBuf *b, const char *s, Py_ssize_t n)
{
    if (n == 0) /* the buffer may not exist yet: memcpy() takes no NULL, even for 0 bytes */
        return 0;
    if (dbuf_reserve(b, n) < 0)
        return -1;
    memcpy(b->p + b->n, s, (size_t)n);
    b->n += n;
    return 0;
}

static int
dbuf_puts(DBuf *b, const char *s)
{
    return dbuf_put(b, s, (Py_ssize_t)strlen(s));
}

/* A str's UTF-8 (cached in the object by CPython: a lane's strings are encoded once). */
static int
dbuf_str(DBuf *b, PyObject *s)
{
    Py_ssize_t n;
    const char *u = PyUnicode_AsUTF8AndSize(s, &n);
    return u == NULL ? -1 : dbuf_put(b, u, n);
}

static int
dbuf_ssize(DBuf *b, Py_ssize_t v)
{
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "%zd", v);
    return dbuf_put(b, tmp, n);
}

/* repr() of printable ASCII s[0..n): quoted as Python quotes it ('…' unless it holds a "'"
 * and no '"'), a backslash and the chosen quote escaped. */
static int
dbuf_repr(DBuf *b, const unsigned char *s, Py_ssize_t n)
{
    int single = 0, dbl = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        single |= s[k] == '\'';
        dbl |= s[k] == '"';
    }
    char q = single && !dbl ? '"' : '\'';
    if (dbuf_reserve(b, 2 * n + 2) < 0)
        return -1;
    b->p[b->n++] = q;
    for (Py_ssize_t k = 0; k < n; k++) {
        if (s[k] == (unsigned char)q || s[k] == '\\')
            b->p[b->n++] = '\\';
        b->p[b->n++] = (char)s[k];
    }
    b->p[b->n++] = q;
    return 0;
}

/* s[0..n) as the inside of a JSON string, as json.dumps(ensure_ascii=False) writes it. */
static int
dbuf_json(DBuf *b, const char *s, Py_ssize_t n)
{
    static const char hexd[] = "0123456789abcdef", named[] = "btn\0fr";
    if (dbuf_reserve(b, 6 * n) < 0)
        return -1;
    for (Py_ssize_t k = 0; k < n; k++) {
        unsigned char c = (unsigned char)s[k];
        char *d = b->p + b->n;
        if (c == '"' || c == '\\' || (c >= '\b' && c <= '\r' && c != 0x0b)) {
            d[0] = '\\';
            d[1] = c >= 0x20 ? (char)c : named[c - '\b'];
            b->n += 2;
        }
        else if (c < 0x20) {
            memcpy(d, "\\u00", 4);
            d[4] = hexd[c >> 4];
            d[5] = hexd[c & 15];
            b->n += 6;
        }
        else
            b->p[b->n++] = (char)c;
    }
    return 0;
}

/* One finding of a line the writer describes: one of the NID's own (text and JSON from its
 * lane), a percent-encoding lint or not-canonical (written here). */
#define MAX_ITEMS 32
typedef struct {
    int code;            /* enum code of a lint or not-canonical; -1: the NID's own */
    const char *name;    /* the code, for the order */
    int rank;
    Py_ssize_t start, end;
    PyObject *own;       /* borrowed: the own entry (code, rank, text line, JSON object) */
} Item;

typedef struct {
    Item item[MAX_ITEMS];
    int n, per_code[CODE_COUNT];
} Items;

/* Add a lint (at most LINTS_PER_CODE of a code, as check() makes them). 0 done, -1 full. */
static int
items_lint(Items *it, int code, Py_ssize_t start, Py_ssize_t end)
{
    if (it->per_code[code] >= LINTS_PER_CODE)
        return 0;
    if (it->n == MAX_ITEMS)
        return -1;
    it->per_code[code]++;
    it->item[it->n++] = (Item){code, CODE_NAMES[code], CODE_RANK[code], start, end, NULL};
    return 0;
}

/* _check._pct_lints over the NSS s[a..b) of a valid RFC 8141 URN (every '%' starts an
 * escape), only the codes wanted[] (those check_fields found). 0 done, -1 too many items. */
static int
lint_items(const unsigned char *s, Py_ssize_t a, Py_ssize_t b, const int *wanted, Items *it)
{
    Py_ssize_t high_start = -1, high_end = 0;
#define LINT(code, from, to)                                                                  \
    do {                                                                                       \
        if (wanted[code] && items_lint(it, code, from, to) < 0)                                \
            return -1;                                                                         \
    } while (0)
#define FLUSH_HIGH()                                                                           \
    do {                                                                                       \
        if (!utf8_run_ok(s, high_start, high_end))                                             \
            LINT(CODE_PCT_NOT_UTF8, high_start, high_end);                                     \
        high_start = -1;                                                                       \
    } while (0)
    for (Py_ssize_t i = a; i < b; i++) {
        if (s[i] != '%')
            continue;
        unsigned char x = s[i + 1], y = s[i + 2];
        if (x >= 'a' || y >= 'a') /* hex digits: a-f are the only bytes >= 'a' */
            LINT(CODE_PCT_LOWERCASE, i, i + 3);
        int value = hex_value(x) * 16 + hex_value(y);
        if (value >= 0x80) {
            if (high_start >= 0 && i != high_end)
                FLUSH_HIGH();
            if (high_start < 0)
                high_start = i;
            high_end = i + 3;
            i += 2;
            continue;
        }
        if (value == 0)
            LINT(CODE_PCT_NUL, i, i + 3);
        else if (ALNUM[value] || value == '-' || value == '.' || value == '_' || value == '~')
            LINT(CODE_PCT_UNRESERVED, i, i + 3);
        if (high_start >= 0)
            FLUSH_HIGH();
        i += 2;
    }
    if (high_start >= 0)
        FLUSH_HIGH();
#undef FLUSH_HIGH
#undef LINT
    return 0;
}

/* check()'s order: (rank, start, code), stable. */
static void
items_sort(Items *it)
{
    for (int i = 1; i < it->n; i++) {
        Item x = it->item[i];
        int j = i - 1;
        while (j >= 0) {
            Item *y = &it->item[j];
            int later = y->rank > x.rank ||
                        (y->rank == x.rank &&
                         (y->start > x.start || (y->start == x.start && strcmp(y->name, x.name) > 0)));
            if (!later)
                break;
            it->item[j + 1] = *y;
            j--;
        }
        it->item[j + 1] = x;
    }
}

/* The message of a finding the writer makes, into m (plain text, before any JSON escape). */
static int
item_message(DBuf *m, const Item *e, const unsigned char *s, PyObject *canonical)
{
    const unsigned char *at = s + e->start;
    switch (e->code) {
    case CODE_PCT_LOWERCASE: {
        unsigned char up[3] = {at[0], at[1], at[2]};
        for (int k = 1; k < 3; k++)
            if (up[k] >= 'a' && up[k] <= 'f')
                up[k] = (unsigned char)(up[k] - 'a' + 'A');
        return dbuf_puts(m, MSG_PCT_LOWERCASE[0]) || dbuf_repr(m, at, 3) ||
               dbuf_puts(m, MSG_PCT_LOWERCASE[1]) || dbuf_repr(m, up, 3) ||
               dbuf_puts(m, MSG_PCT_LOWERCASE[2]) ? -1 : 0;
    }
    case CODE_PCT_UNRESERVED: {
        unsigned char ch = (unsigned char)(hex_value(at[1]) * 16 + hex_value(at[2]));
        return dbuf_puts(m, MSG_PCT_UNRESERVED[0]) || dbuf_repr(m, at, 3) ||
               dbuf_puts(m, MSG_PCT_UNRESERVED[1]) || dbuf_repr(m, &ch, 1) ||
               dbuf_puts(m, MSG_PCT_UNRESERVED[2]) ? -1 : 0;
    }
    case CODE_PCT_NUL:
        return dbuf_puts(m, MSG_PCT_NUL[0]);
    case CODE_PCT_NOT_UTF8:
        return dbuf_puts(m, MSG_PCT_NOT_UTF8[0]) || dbuf_repr(m, at, e->end - e->start) ||
               dbuf_puts(m, MSG_PCT_NOT_UTF8[1]) ? -1 : 0;
    case CODE_NOT_CANONICAL:
        return dbuf_puts(m, MSG_NOT_CANONICAL[0]) ||
               dbuf_repr(m, PyUnicode_1BYTE_DATA(canonical), PyUnicode_GET_LENGTH(canonical)) ||
               dbuf_puts(m, MSG_NOT_CANONICAL[1]) ? -1 : 0;
    }
    PyErr_SetString(PyExc_SystemError, "describe_lines(): no message for this code");
    return -1;
}

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

/* Write the line *text* (an ASCII str) if it is the common case. 1 written, 0 not the common
 * case (nothing written), -1 error. */
static int
describe_fast(DBuf *out, DBuf *m, PyObject *text, int as_json, PyObject *lanes, PyObject *lane_of,
              PyObject *prefixes, PyObject *spec_of, PyObject *options, PyObject *code_ranks,
              PyObject *sev_ranks)
{
    PyObject *fields = check_fields_of(text, prefixes, spec_of, options, code_ranks, sev_ranks);
    if (fields == NULL)
        return -1;
    int r = 0;
    PyObject *nid = NULL, *held = NULL;
    if (!PyTuple_CheckExact(fields) || PyTuple_GET_SIZE(fields) != FIELDS_COUNT ||
        PyTuple_GET_ITEM(fields, FIELDS_ERROR) != Py_None)
        goto done; /* an error may come with check()'s repair hint: the Python writes it */
    PyObject *codes = PyTuple_GET_ITEM(fields, FIELDS_CODES),
             *canonical = PyTuple_GET_ITEM(fields, FIELDS_CANONICAL),
             *lower = PyTuple_GET_ITEM(fields, FIELDS_NID);
    if (!PyTuple_CheckExact(codes) || !PyUnicode_CheckExact(lower) || !plain_ascii(canonical) ||
        !plain_ascii(text))
        goto done;
    const unsigned char *s = PyUnicode_1BYTE_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), nid_len = PyUnicode_GET_LENGTH(lower);
    Py_ssize_t nss_start = 5 + nid_len;
    if (nss_start > n)
        goto done;
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
    /* The findings: the NID's own (all start at the NID, 4), the lints, not-canonical. */
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
    if (lint_items(s, nss_start, n, wanted, &it) < 0)
        goto done;
    if (wanted[CODE_NOT_CANONICAL] && items_lint(&it, CODE_NOT_CANONICAL, 0, n) < 0)
        goto done;
    items_sort(&it);

    const char *nss = (const char *)s + nss_start;
    Py_ssize_t nss_len = n - nss_start;
    r = -1;
    if (!as_json) {
        if (dbuf_put(out, (const char *)s, n) || dbuf_puts(out, "\n  valid       yes\n") ||
            dbuf_str(out, PyTuple_GET_ITEM(lane, 0)) || dbuf_put(out, nss, nss_len) ||
            dbuf_puts(out, "\n  canonical   ") || dbuf_str(out, canonical) || dbuf_puts(out, "\n"))
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
            m->n = 0;
            if (dbuf_puts(out, "  ") || dbuf_puts(out, sev) ||
                dbuf_put(out, "            ", (pad > 0 ? pad : 0) + 5) ||
                dbuf_puts(out, e->name) || dbuf_puts(out, ": ") ||
                item_message(m, e, s, canonical) || dbuf_put(out, m->p, m->n) ||
                dbuf_puts(out, "\n"))
                goto done;
        }
    }
    else {
        if (dbuf_puts(out, "{\"input\": \"") || dbuf_put(out, (const char *)s, n) ||
            dbuf_puts(out, "\", \"valid\": true") || dbuf_str(out, PyTuple_GET_ITEM(lane, 1)) ||
            dbuf_put(out, nss, nss_len) ||
            dbuf_puts(out, "\", \"r_component\": null, \"q_component\": null, \"f_component\": "
                          "null}, \"assigned_name\": \"") ||
            dbuf_put(out, (const char *)s, n) || dbuf_puts(out, "\", \"normalized\": \"urn:") ||
            dbuf_str(out, lower) || dbuf_puts(out, ":"))
            goto done;
        /* the NSS with its escapes' hex digits upper-cased (upper_pct) */
        if (dbuf_reserve(out, nss_len) < 0)
            goto done;
        for (Py_ssize_t k = 0; k < nss_len; k++) {
            char ch = nss[k];
            int in_escape = (k >= 1 && nss[k - 1] == '%') || (k >= 2 && nss[k - 2] == '%');
            if (in_escape && ch >= 'a' && ch <= 'f')
                ch = (char)(ch - 'a' + 'A');
            out->p[out->n++] = ch;
        }
        if (dbuf_puts(out, "\", \"canonical\": \"") || dbuf_str(out, canonical) ||
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
            m->n = 0;
            if (dbuf_puts(out, "{\"code\": \"") || dbuf_puts(out, e->name) ||
                dbuf_puts(out, "\", \"severity\": \"") ||
                dbuf_puts(out, SEVERITY_NAMES[e->rank]) || dbuf_puts(out, "\", \"message\": \"") ||
                item_message(m, e, s, canonical) || dbuf_json(out, m->p, m->n) ||
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
    Py_DECREF(fields);
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
    if (!nargs_are("describe_lines", nargs, 12))
        return NULL;
    PyObject *chunk = args[0], *seen = args[2], *lanes = args[4], *lane_of = args[5],
             *slow = args[6], *prefixes = args[7], *spec_of = args[8], *options = args[9],
             *code_ranks = args[10], *sev_ranks = args[11];
    int as_json = PyObject_IsTrue(args[1]);
    Py_ssize_t seen_max = PyLong_AsSsize_t(args[3]);
    if (as_json < 0 || (seen_max == -1 && PyErr_Occurred()))
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
                                     options, code_ranks, sev_ranks);
            else
                done = -1;
            if (done == 1 && known == NULL && b - a <= SEEN_LINE_MAX) { /* remember it */
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
            else if (valid >= 0 && (flush_to(pieces, &out) < 0 ||
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

#endif /* URNLD_SPEEDUPS_DESCRIBE_H */
