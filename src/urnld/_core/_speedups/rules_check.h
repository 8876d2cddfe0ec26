/* Part of _speedups.c (one translation unit). Twin of the built-in rules' check_nss methods
 * (urnld.namespaces.*) that carry a native_copy mark: the copy of mark K is check_K(), listed
 * by CHECK_COPIES in _generated.h, for an ASCII NSS under the default options. The grammars
 * come from rules.h (the canonical_nss copies share them), the tables and the wording from
 * _generated.h: a message is its Python rule's str.format template, formatted by str.format. */
#ifndef URNLD_SPEEDUPS_RULES_CHECK_H
#define URNLD_SPEEDUPS_RULES_CHECK_H

/* The one finding a copy words itself. */
typedef struct {
    enum code code;     /* its code */
    int rank;           /* its severity's rank, or -1: the code's usual one */
    Py_ssize_t at;      /* where it starts, from the start of the NSS */
    PyObject *message;  /* a new reference */
} Found;

/* What a copy answers: */
#define COPY_PYTHON 0  /* the Python method decides (outside the grammar: its message says
                        * what is wrong) */
#define COPY_CLEAN 1   /* no finding */
#define COPY_FOUND 2   /* one finding, in *f */

/* template.format(*args) for one of _generated.h's MSG_ templates; args as Py_BuildValue's
 * format *fmt* (a tuple). A new reference, or NULL with an exception. */
static PyObject *
format_message(const char *template, const char *fmt, ...)
{
    va_list va;
    va_start(va, fmt);
    PyObject *args = Py_VaBuildValue(fmt, va);
    va_end(va);
    if (args == NULL)
        return NULL;
    PyObject *out = NULL, *t = PyUnicode_FromString(template);
    if (t != NULL) {
        PyObject *meth = PyObject_GetAttr(t, str_format);
        if (meth != NULL) {
            out = PyObject_Call(meth, args, NULL);
            Py_DECREF(meth);
        }
        Py_DECREF(t);
    }
    Py_DECREF(args);
    return out;
}

/* *f = one finding of code at NSS offset at; COPY_FOUND, or -1 when message is NULL. */
static int
found(Found *f, enum code code, int rank, Py_ssize_t at, PyObject *message)
{
    f->code = code;
    f->rank = rank;
    f->at = at;
    f->message = message;
    return message == NULL ? -1 : COPY_FOUND;
}

/* urn:isbn (RFC 3187 §5; urnld.namespaces.isbn): the grammar, then the check digit
 * (isbn10_check_digit, isbn13_check_digit). */
static int
check_isbn(const unsigned char *s, Py_ssize_t n, Found *f)
{
    unsigned char sym[13];
    int k = isbn_symbols(s, n, sym), total = 0;
    unsigned char expected;
    if (k == 10) {
        for (int j = 0; j < 9; j++)
            total += ISBN10_WEIGHTS[j] * (sym[j] - '0');
        int c = (11 - total % 11) % 11;
        expected = c == 10 ? 'X' : (unsigned char)('0' + c);
    }
    else if (k == 13) {
        for (int j = 0; j < 12; j++)
            total += (j % 2 ? 3 : 1) * (sym[j] - '0');
        expected = (unsigned char)('0' + (10 - total % 10) % 10);
    }
    else
        return COPY_PYTHON;
    if (sym[k - 1] == expected)
        return COPY_CLEAN;
    return found(f, CODE_NSS_CHECK_DIGIT, -1, n - 1,
                 format_message(MSG_ISBN_CHECK_DIGIT, "(C)", (int)s[n - 1]));
}

/* urn:issn (RFC 3044 §5; urnld.namespaces.issn): the grammar, then the check character
 * (issn_check_character). */
static int
check_issn(const unsigned char *s, Py_ssize_t n, Found *f)
{
    unsigned char c9[9];
    if (!issn_match(s, n, c9))
        return COPY_PYTHON;
    int total = 0;
    for (int j = 0; j < 7; j++)
        total += ISSN_WEIGHTS[j] * (c9[j < 4 ? j : j + 1] - '0');
    int c = (11 - total % 11) % 11;
    unsigned char expected = c == 10 ? 'X' : (unsigned char)('0' + c);
    if (c9[8] == expected)
        return COPY_CLEAN;
    return found(f, CODE_NSS_CHECK_DIGIT, -1, n - 1,
                 format_message(MSG_ISSN_CHECK_CHARACTER, "(CC)", (int)s[n - 1], (int)expected));
}

/* urn:uuid (RFC 9562 §4; urnld.namespaces.uuid): clean for the 8-4-4-4-12 hex form, the first
 * group of the wrong length when there are five hex groups. */
static int
check_uuid(const unsigned char *s, Py_ssize_t n, Found *f)
{
    if (uuid_match(s, n))
        return COPY_CLEAN;
    Py_ssize_t groups = 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (s[i] == '-')
            groups++;
        else if (!HEX[s[i]])
            return COPY_PYTHON; /* not a hex digit (or an escaped brace): Python's message */
    }
    if (groups != UUID_GROUP_COUNT)
        return COPY_PYTHON;
    Py_ssize_t start = 0;
    for (int g = 0; g < UUID_GROUP_COUNT; g++) {
        const unsigned char *dash = memchr(s + start, '-', (size_t)(n - start));
        Py_ssize_t stop = dash == NULL ? n : dash - s;
        if (stop - start != UUID_GROUPS[g])
            return found(f, CODE_NSS_INVALID, -1, start,
                         format_message(MSG_UUID_GROUP_LENGTH, "(sni)", UUID_GROUP_NAMES[g],
                                        stop - start, UUID_GROUPS[g]));
        start = stop + 1;
    }
    return COPY_PYTHON;
}

/* Whether s[0..3) is one of RFC 3151's eight escapes (hex in either case). */
static int
publicid_escape(const unsigned char *s)
{
    for (const char *e = PUBLICID_ESCAPES; *e; e += 3)
        if (s[1] == e[1] && (s[2] | 0x20) == (e[2] | 0x20))
            return 1;
    return 0;
}

/* urn:publicid (RFC 3151 §2; urnld.namespaces.publicid._nss_problem): clean when the NSS is
 * the left-to-right transcription of a public identifier, the first escape that is not one of
 * the eight. An escaped '/' or ':' followed by what could start the same character again
 * (':', ';', an escape) goes to Python, which re-reads it: "%2F:" is not what "///"
 * transcribes to. */
static int
check_publicid(const unsigned char *s, Py_ssize_t n, Found *f)
{
    if (n == 0 || s[0] == '+' || s[n - 1] == '+')
        return COPY_PYTHON;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        /* copied as they are, and ':' / ';' (the transcriptions of "//" and "::") */
        if (PUBLICID_COPIED[c] || c == ':' || c == ';')
            continue;
        if (c == '+') {
            if (s[i + 1] == '+') /* i < n - 1: the last byte is not '+' */
                return COPY_PYTHON;
            continue;
        }
        if (c != '%' || i + 2 >= n)
            return COPY_PYTHON;
        if (!publicid_escape(s + i)) /* the first piece _untranscribe refuses */
            return found(f, CODE_NSS_INVALID, -1, i,
                         format_message(MSG_PUBLICID_NOT_AN_ESCAPE, "(s#)",
                                        (const char *)s + i, (Py_ssize_t)3));
        unsigned char a = s[i + 1], b = (unsigned char)(s[i + 2] | 0x20);
        if (((a == '2' && b == 'f') || (a == '3' && b == 'a')) && i + 3 < n &&
            (s[i + 3] == ':' || s[i + 3] == ';' || s[i + 3] == '%'))
            return COPY_PYTHON; /* %2F = "/", %3A = ":" */
        i += 2;
    }
    return COPY_CLEAN;
}

/* urn:oasis (RFC 3121 §2; urnld.namespaces.oasis): clean when the NSS fills its branch's
 * template (OASIS_BRANCHES: the branch, the segments it needs after it, its shape), every
 * ':'-separated segment non-empty and without '/'; the warning for a branch with too few
 * segments after it. */
static int
check_oasis(const unsigned char *s, Py_ssize_t n, Found *f)
{
    int b = 0;
    Py_ssize_t len = 0, used = 1;
    for (; b < OASIS_BRANCH_COUNT; b++) {
        len = (Py_ssize_t)strlen(OASIS_BRANCHES[b].branch);
        if (n > len && s[len] == ':' && memcmp(s, OASIS_BRANCHES[b].branch, (size_t)len) == 0)
            break;
    }
    if (b == OASIS_BRANCH_COUNT)
        return COPY_PYTHON; /* not a branch: an error, Python's */
    for (Py_ssize_t i = 0; i < len; i++)
        used += s[i] == ':';
    Py_ssize_t segs = 1, start = 0;
    for (Py_ssize_t i = 0; i <= n; i++) {
        if (i < n && s[i] != ':') {
            if (s[i] == '/')
                return COPY_PYTHON;
            continue;
        }
        if (i == start)
            return COPY_PYTHON; /* an empty segment */
        if (i < n)
            segs++;
        start = i + 1;
    }
    Py_ssize_t after = segs - used, need = OASIS_BRANCHES[b].need;
    if (after >= need)
        return COPY_CLEAN;
    if (after < 1) /* fewer segments than the branch keyword needs: an error, Python's */
        return COPY_PYTHON;
    return found(f, CODE_NSS_INVALID, RANK_WARNING, 0,
                 format_message(MSG_OASIS_TOO_FEW, "(ns#ns)", after, (const char *)s, len, need,
                                OASIS_BRANCHES[b].shape));
}

#endif /* URNLD_SPEEDUPS_RULES_CHECK_H */
