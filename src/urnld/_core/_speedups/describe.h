/* Part of _speedups.c (one translation unit). Twin of urnld.cli._parse_stream's writing of one
 * finding: the pieces describe_lines.h (`urnld parse -`'s compiled writer) writes a line with:
 * a growable UTF-8 buffer, JSON and repr() quoting, and the findings the writer makes itself
 * (percent-encoding lints, not-canonical) in check()'s order with their messages. */
#ifndef URNLD_SPEEDUPS_DESCRIBE_H
#define URNLD_SPEEDUPS_DESCRIBE_H

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
    int part;            /* where a lint is: 0 the NSS, 1-3 the r-, q-, f-component */
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


#endif /* URNLD_SPEEDUPS_DESCRIBE_H */
