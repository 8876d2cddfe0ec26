/* Part of _speedups.c (one translation unit). Twin of the built-in rules' canonical_nss
 * methods (urnld.namespaces.*) that carry a native_copy mark, and of the grammars their
 * check_nss copies share (rules_check.h). */
#ifndef URNLD_SPEEDUPS_RULES_H
#define URNLD_SPEEDUPS_RULES_H

/* ---- the built-in namespace rules' canonical_nss, for ASCII input ------------------------
 *
 * A built-in rule's canonical_nss marked with urnld._core._rule.native_copy(kind) has an
 * exact copy here (the differential tests run both on the same NSSs); a subclass that
 * overrides the method, or a method replaced at run time, loses the mark and runs in Python. */

/* NATIVE_NONE, then one kind per native_copy mark on a built-in canonical_nss (the list
 * CANONICAL_COPIES of _generated.h): the copy of kind K is canonical_K() below, so a mark
 * added in Python without its copy here does not compile. */
enum native {
    NATIVE_NONE,
#define X(kind) NATIVE_##kind,
    CANONICAL_COPIES(X)
#undef X
};

/* The marks native_copy() writes, by kind. */
static const char *const native_names[] = {
    NULL,
#define X(kind) #kind,
    CANONICAL_COPIES(X)
#undef X
};

/* The native kind of a bound canonical_nss method: NATIVE_NONE when unmarked, -1 on error. */
static int
native_kind(PyObject *meth)
{
    if (!PyMethod_Check(meth) || !PyFunction_Check(PyMethod_GET_FUNCTION(meth)))
        return NATIVE_NONE;
    PyObject *d = PyObject_GenericGetDict(PyMethod_GET_FUNCTION(meth), NULL);
    if (d == NULL)
        return -1;
    PyObject *kind = PyDict_GetItemWithError(d, str_native); /* borrowed */
    Py_DECREF(d);
    if (kind == NULL)
        return PyErr_Occurred() ? -1 : NATIVE_NONE;
    if (!PyUnicode_Check(kind))
        return NATIVE_NONE;
    for (int k = 1; k < (int)(sizeof(native_names) / sizeof(native_names[0])); k++)
        if (PyUnicode_CompareWithASCIIString(kind, native_names[k]) == 0)
            return k;
    return NATIVE_NONE;
}

/* The ISBN grammar [0-9](?:-?[0-9]){8}-?[0-9Xx] | 9-?7-?[89](?:-?[0-9]){9}-?[0-9] (ten or
 * thirteen symbols, single hyphens between them): its symbols without the hyphens, a final
 * 'x' upper-cased, into sym[13]; returns their number, or 0 when s[0..n) does not match. */
static int
isbn_symbols(const unsigned char *s, Py_ssize_t n, unsigned char *sym)
{
    int k = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char ch = s[i];
        if (ch == '-') {
            if (i == 0 || i == n - 1 || s[i - 1] == '-')
                return 0;
            continue;
        }
        if (k == 13 || !(DIGIT(ch) || ch == 'X' || ch == 'x'))
            return 0;
        sym[k++] = ch;
    }
    if (k == 10) {
        for (int j = 0; j < 9; j++)
            if (!DIGIT(sym[j]))
                return 0;
        if (sym[9] == 'x')
            sym[9] = 'X';
        return 10;
    }
    if (k == 13) {
        for (int j = 0; j < 13; j++)
            if (!DIGIT(sym[j]))
                return 0;
        if (sym[0] != '9' || sym[1] != '7' || (sym[2] != '8' && sym[2] != '9'))
            return 0;
        return 13;
    }
    return 0;
}

/* ISBNRule.canonical_nss: an NSS in the grammar without its hyphens, upper-cased; any other
 * NSS as it is. */
static PyObject *
canonical_isbn(PyObject *nss, const unsigned char *s, Py_ssize_t n)
{
    unsigned char sym[13];
    int k = isbn_symbols(s, n, sym);
    if (k)
        return PyUnicode_FromKindAndData(PyUnicode_1BYTE_KIND, sym, k);
    Py_INCREF(nss);
    return nss;
}

/* The ISSN grammar [0-9]{4}-?[0-9]{3}[0-9Xx]: NNNN-NNNC (C upper-cased) into out[9], and 1;
 * 0 when s[0..n) does not match. */
static int
issn_match(const unsigned char *s, Py_ssize_t n, unsigned char *out)
{
    Py_ssize_t h = n == 9 ? 1 : 0; /* the hyphen, if any, is the fifth character */
    if ((n != 8 && n != 9) || (h && s[4] != '-'))
        return 0;
    for (int j = 0; j < 8; j++) {
        unsigned char ch = s[j < 4 ? j : j + h];
        if (!(DIGIT(ch) || (j == 7 && (ch == 'X' || ch == 'x'))))
            return 0;
        out[j < 4 ? j : j + 1] = ch == 'x' ? 'X' : ch;
    }
    out[4] = '-';
    return 1;
}

/* ISSNRule.canonical_nss: an NSS in the grammar as NNNN-NNNC; any other NSS as it is. */
static PyObject *
canonical_issn(PyObject *nss, const unsigned char *s, Py_ssize_t n)
{
    unsigned char out[9];
    if (issn_match(s, n, out))
        return PyUnicode_FromKindAndData(PyUnicode_1BYTE_KIND, out, 9);
    Py_INCREF(nss);
    return nss;
}

/* Whether s[0..n) is a UUID's 8-4-4-4-12 hex digits (either case). */
static int
uuid_match(const unsigned char *s, Py_ssize_t n)
{
    if (n != 36)
        return 0;
    for (int j = 0; j < 36; j++) {
        if (j == 8 || j == 13 || j == 18 || j == 23) {
            if (s[j] != '-')
                return 0;
        }
        else if (!HEX[s[j]])
            return 0;
    }
    return 1;
}

/* UUIDRule.canonical_nss: an NSS in the grammar in lower case; any other NSS as it is. */
static PyObject *
canonical_uuid(PyObject *nss, const unsigned char *s, Py_ssize_t n)
{
    if (!uuid_match(s, n)) {
        Py_INCREF(nss);
        return nss;
    }
    unsigned char out[36];
    for (int j = 0; j < 36; j++)
        out[j] = s[j] >= 'A' && s[j] <= 'F' ? (unsigned char)(s[j] + 32) : s[j];
    return PyUnicode_FromKindAndData(PyUnicode_1BYTE_KIND, out, 36);
}

/* A new ASCII str with s[0..n), safe to change in place: PyUnicode_FromKindAndData may hand
 * out the interpreter's shared one-character strings, which must never change. */
static PyObject *
ascii_copy(const unsigned char *s, Py_ssize_t n)
{
    PyObject *out = PyUnicode_New(n, 127);
    if (out != NULL)
        memcpy(PyUnicode_1BYTE_DATA(out), s, (size_t)n);
    return out;
}

/* A copy of s[0..n) whose first k characters have lower_except_pct applied: ASCII letters
 * lower-cased, except the hex digits of a %XX escape, which are upper-cased. */
static PyObject *
lower_head(const unsigned char *s, Py_ssize_t n, Py_ssize_t k)
{
    PyObject *out = ascii_copy(s, n);
    if (out == NULL)
        return NULL;
    unsigned char *d = PyUnicode_1BYTE_DATA(out);
    for (Py_ssize_t j = 0; j < k; j++) {
        if (d[j] == '%' && j + 2 < k && HEX[d[j + 1]] && HEX[d[j + 2]]) {
            for (int h = 1; h <= 2; h++)
                if (d[j + h] >= 'a')
                    d[j + h] -= 32;
            j += 2;
        }
        else if (d[j] >= 'A' && d[j] <= 'Z')
            d[j] += 32;
    }
    return out;
}

/* lower_except_pct(nss), the rules marked "lower_except_pct". */
static PyObject *
canonical_lower_except_pct(PyObject *nss, const unsigned char *s, Py_ssize_t n)
{
    return lower_head(s, n, n);
}

/* upper_except_pct(nss): str.upper of ASCII text (%XX hex is upper-cased with it). */
static PyObject *
canonical_upper(PyObject *nss, const unsigned char *s, Py_ssize_t n)
{
    PyObject *out = ascii_copy(s, n);
    if (out == NULL)
        return NULL;
    unsigned char *d = PyUnicode_1BYTE_DATA(out);
    for (Py_ssize_t j = 0; j < n; j++)
        if (d[j] >= 'a' && d[j] <= 'z')
            d[j] -= 32;
    return out;
}

/* ISNIRule.canonical_nss: an NSS matching [0-9]{15}[0-9Xx] upper-cased; any other as it is. */
static PyObject *
canonical_isni(PyObject *nss, const unsigned char *s, Py_ssize_t n)
{
    if (n != 16)
        goto as_is;
    for (int j = 0; j < 15; j++)
        if (!DIGIT(s[j]))
            goto as_is;
    if (!(DIGIT(s[15]) || s[15] == 'X' || s[15] == 'x'))
        goto as_is;
    if (s[15] != 'x')
        goto as_is; /* already upper case */
    PyObject *out = ascii_copy(s, 16);
    if (out != NULL)
        PyUnicode_1BYTE_DATA(out)[15] = 'X';
    return out;
as_is:
    Py_INCREF(nss);
    return nss;
}

/* Whether s[i..n) is PCHAR (PCHAR / "/")*, the tail of the NBN and MPEG grammars
 * (namespaces._util.PCHAR_RE, PCHAR_SLASH_RE): non-empty, not starting with "/". */
static int
pchar_tail(const unsigned char *s, Py_ssize_t i, Py_ssize_t n)
{
    if (i >= n || s[i] == '/')
        return 0;
    while (i < n) {
        if (PCHAR[s[i]] || s[i] == '/')
            i++;
        else if (s[i] == '%' && i + 2 < n && HEX[s[i + 1]] && HEX[s[i + 2]])
            i += 3;
        else
            return 0;
    }
    return 1;
}

/* Whether s[0..n) matches ([A-Za-z]{2}(?::[A-Za-z0-9]+)*)-(tail); *k: the group's end (the
 * group holds no "-", so it ends at the first one). */
static int
nbn_match(const unsigned char *s, Py_ssize_t n, Py_ssize_t *k)
{
    const unsigned char *dash = memchr(s, '-', (size_t)n);
    if (dash == NULL)
        return 0;
    Py_ssize_t i = 2;
    *k = dash - s;
    if (*k < 2 || !ALNUM[s[0]] || DIGIT(s[0]) || !ALNUM[s[1]] || DIGIT(s[1]))
        return 0;
    while (i < *k) {
        if (s[i++] != ':' || i >= *k || !ALNUM[s[i]])
            return 0;
        while (i < *k && ALNUM[s[i]])
            i++;
    }
    return pchar_tail(s, *k + 1, n);
}

/* NBNRule.canonical_nss: an NSS matching the grammar with the group lower-cased; any other
 * as it is. */
static PyObject *
canonical_nbn(PyObject *nss, const unsigned char *s, Py_ssize_t n)
{
    Py_ssize_t k;
    if (nbn_match(s, n, &k))
        return lower_head(s, n, k); /* the group holds no "%": plain lower case */
    Py_INCREF(nss);
    return nss;
}

/* MPEGRule.canonical_nss: an NSS matching (PCHAR_NC+):(tail) with lower_except_pct applied
 * to the group (it holds no ":", so it ends at the first one); any other as it is. */
static PyObject *
canonical_mpeg(PyObject *nss, const unsigned char *s, Py_ssize_t n)
{
    const unsigned char *colon = memchr(s, ':', (size_t)n);
    if (colon == NULL || colon == s)
        goto as_is;
    Py_ssize_t k = colon - s;
    for (Py_ssize_t i = 0; i < k;) {
        if (PCHAR[s[i]] && s[i] != ':')
            i++;
        else if (s[i] == '%' && i + 2 < k && HEX[s[i + 1]] && HEX[s[i + 2]])
            i += 3;
        else
            goto as_is;
    }
    if (!pchar_tail(s, k + 1, n))
        goto as_is;
    return lower_head(s, n, k);
as_is:
    Py_INCREF(nss);
    return nss;
}

/* IETFRule.canonical_nss: "params:" (any case) and the rest as it is, or else
 * lower_except_pct of the whole NSS. */
static PyObject *
canonical_ietf(PyObject *nss, const unsigned char *s, Py_ssize_t n)
{
    static const char params[] = "params:";
    Py_ssize_t j = 0;
    while (j < 7 && j < n && (s[j] | (s[j] >= 'A' && s[j] <= 'Z' ? 0x20 : 0)) == params[j])
        j++;
    if (j < 7)
        return lower_head(s, n, n);
    PyObject *out = ascii_copy(s, n);
    if (out != NULL)
        memcpy(PyUnicode_1BYTE_DATA(out), params, 7);
    return out;
}

/* rule.canonical_nss(nss): the native copy for a marked built-in rule and an ASCII str, else
 * the Python method. */
static PyObject *
call_canonical_nss(PyObject *rule, PyObject *nss)
{
    PyObject *meth = PyObject_GetAttr(rule, str_canonical_nss);
    if (meth == NULL)
        return NULL;
    int kind = PyUnicode_CheckExact(nss) && PyUnicode_IS_ASCII(nss) ? native_kind(meth)
                                                                      : NATIVE_NONE;
    PyObject *out;
    if (kind < 0)
        out = NULL;
    else if (kind == NATIVE_NONE)
        out = PyObject_CallOneArg(meth, nss);
    else {
        const unsigned char *s = PyUnicode_1BYTE_DATA(nss);
        Py_ssize_t n = PyUnicode_GET_LENGTH(nss);
        switch (kind) {
#define X(k)                                                                                   \
    case NATIVE_##k:                                                                           \
        out = canonical_##k(nss, s, n);                                                        \
        break;
            CANONICAL_COPIES(X)
#undef X
        default:
            out = PyObject_CallOneArg(meth, nss);
        }
    }
    Py_DECREF(meth);
    return out;
}

#endif /* URNLD_SPEEDUPS_RULES_H */
