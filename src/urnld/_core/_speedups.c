/* Optional compiled accelerator for urnld's hot paths (built at install where a C compiler is
 * present; urnld works the same without it).
 *
 * Every function here handles the common case only and answers None for anything unusual, so
 * the caller falls back to the pure-Python code, which stays the reference:
 *
 *   is_urn(text)                          RFC 8141 syntax of an ASCII string;
 *   canonical(text, prefixes, policy_ok)  RFC 8141 canonical form of an ASCII URN string;
 *   canonical_str(text, prefixes, policy_ok)
 *                                         the same with the namespace rule applied here;
 *   rewrite(chunk, tokens, occ, iri, literal, literals)
 *                                         the rewrite of a chunk of N-Triples/N-Quads lines in
 *                                         the usual layout (the stream's per-line loop);
 *   canon_counts(occ, info, limit)        the per-flush aggregation of a canonicalize report;
 *   check_counts(occ, info, cache, checked, maps[, fast, cache_max])
 *                                         the same for a check report;
 *   check_fields(text, prefixes, spec, options, code_ranks, severity_ranks)
 *                                         what check() reports of an ASCII URN (codes, first
 *                                         error, canonical form, NID).
 *
 * The differential tests (tests/core/test_speedups.py, tests/core/test_speedups_check.py,
 * tests/canon/test_canon_speedups.py) run both paths on the same inputs.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

/* ---- character classes (RFC 3986 / RFC 8141) ----------------------------------------- */

static unsigned char PCHAR[256];   /* unreserved / sub-delims / ":" / "@"  */
static unsigned char HEX[256];
static unsigned char ALNUM[256];
static unsigned char LDH[256];
static unsigned char IRI_BAD[256]; /* bytes that end or break an N-Triples IRIREF */
static unsigned char PN[256];      /* blank-node label bytes after the first */
static PyObject *empty_bytes;      /* b"": "not a URN" */
static PyObject *one;
static PyObject *str_canonical_nss;  /* "canonical_nss" */
static PyObject *str_reason;         /* "reason" */
static PyObject *str_native;         /* "_urnld_native": see native_kind() */
static PyObject *nid_of_prefix;      /* "urn:nid:" -> "nid", shared by the verdicts */

static void
init_tables(void)
{
    const char *pc = "-._~!$&'()*+,;=:@";
    for (int c = 0; c < 256; c++) {
        int alnum = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        ALNUM[c] = (unsigned char)alnum;
        LDH[c] = (unsigned char)(alnum || c == '-');
        PCHAR[c] = (unsigned char)alnum;
        HEX[c] = (unsigned char)((c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') ||
                                 (c >= 'a' && c <= 'f'));
        IRI_BAD[c] = (unsigned char)(c <= 0x20 || c == '<' || c == '>' || c == '"' || c == '{' ||
                                     c == '}' || c == '|' || c == '^' || c == '`' || c == '\\');
        PN[c] = (unsigned char)(alnum || c == '_' || c == '-' || c == '.' || c >= 0x80);
    }
    for (const char *p = pc; *p; p++)
        PCHAR[(unsigned char)*p] = 1;
}

/* ---- RFC 8141 ---------------------------------------------------------------------------- */

/* The parts after the NID, by what may follow their first character (RFC 8141 §2):
 * NSS: pchar / "/", ends at "?" or "#"; r-component: pchar / "/" / "?", ends at "?=" or "#";
 * q-component: pchar / "/" / "?", ends at "#"; f-component: pchar / "/" / "?", to the end. */
enum part { NSS, R_COMP, Q_COMP, F_COMP };

/* One pchar or pct-encoded at s[i]: the index after it, or -1. */
static Py_ssize_t
scan_pchar(const unsigned char *s, Py_ssize_t i, Py_ssize_t n)
{
    if (i >= n)
        return -1;
    if (PCHAR[s[i]])
        return i + 1;
    if (s[i] == '%' && i + 2 < n && HEX[s[i + 1]] && HEX[s[i + 2]])
        return i + 3;
    return -1;
}

/* The rest of a part from s[i]: the index where it ends (n, or the delimiter that starts the
 * next part), or -1 when a character is not allowed. */
static Py_ssize_t
scan_part(const unsigned char *s, Py_ssize_t i, Py_ssize_t n, enum part part)
{
    while (i < n) {
        unsigned char c = s[i];
        if (PCHAR[c] || c == '/')
            i++;
        else if (c == '%') {
            if (!(i + 2 < n && HEX[s[i + 1]] && HEX[s[i + 2]]))
                return -1;
            i += 3;
        }
        else if (c == '?') {
            if (part == NSS || (part == R_COMP && i + 1 < n && s[i + 1] == '='))
                return i;
            i++;
        }
        else if (c == '#' && part != F_COMP)
            return i;
        else
            return -1;
    }
    return i;
}

/* Scan an RFC 8141 namestring in s[0..n). On success store the end of the NID (index of its
 * ':') and the end of the NSS, and return 1; return 0 when s is not one. */
static int
scan_urn(const unsigned char *s, Py_ssize_t n, Py_ssize_t *nid_end, Py_ssize_t *nss_end)
{
    Py_ssize_t i;
    if (n < 7 || (s[0] | 0x20) != 'u' || (s[1] | 0x20) != 'r' || (s[2] | 0x20) != 'n' ||
        s[3] != ':')
        return 0;
    /* NID = alphanum 0*30(ldh) alphanum */
    i = 4;
    while (i < n && LDH[s[i]])
        i++;
    if (i >= n || s[i] != ':' || i - 4 < 2 || i - 4 > 32 || !ALNUM[s[4]] || !ALNUM[s[i - 1]])
        return 0;
    *nid_end = i;
    /* NSS = pchar *(pchar / "/") */
    i = scan_pchar(s, i + 1, n);
    if (i < 0 || (i = scan_part(s, i, n, NSS)) < 0)
        return 0;
    *nss_end = i;
    if (i < n && s[i] == '?' && i + 1 < n && s[i + 1] == '+') { /* "?+" r-component */
        i = scan_pchar(s, i + 2, n);
        if (i < 0 || (i = scan_part(s, i, n, R_COMP)) < 0)
            return 0;
    }
    if (i < n && s[i] == '?') { /* "?=" q-component */
        if (i + 1 >= n || s[i + 1] != '=')
            return 0;
        i = scan_pchar(s, i + 2, n);
        if (i < 0 || (i = scan_part(s, i, n, Q_COMP)) < 0)
            return 0;
    }
    if (i < n) { /* "#" f-component (scan_part stopped at "#") */
        if (s[i] != '#' || scan_part(s, i + 1, n, F_COMP) < 0)
            return 0;
    }
    return 1;
}

/* A new str: s[start..end) with the hex digits of every %XX upper-cased. */
static PyObject *
upper_pct(const unsigned char *s, Py_ssize_t start, Py_ssize_t end)
{
    PyObject *out = PyUnicode_New(end - start, 127);
    if (out == NULL)
        return NULL;
    unsigned char *d = PyUnicode_1BYTE_DATA(out);
    memcpy(d, s + start, (size_t)(end - start));
    for (Py_ssize_t k = 0; k < end - start; k++) {
        if (d[k] == '%') {
            if (d[k + 1] >= 'a')
                d[k + 1] -= 32;
            if (d[k + 2] >= 'a')
                d[k + 2] -= 32;
            k += 2;
        }
    }
    return out;
}

/* A tuple that only holds objects the garbage collector does not track (str, None, bool,
 * int, bytes, untracked tuples) can be in no reference cycle: untrack it, as CPython does for
 * exact tuples at their first collection. It matters for tuple subclasses (TermVerdict), which
 * CPython never untracks: a dense run keeps ~100k of them alive, and every collection of the
 * older generations would walk them all. */
static void
untrack_atomic(PyObject *t)
{
    if (!PyObject_GC_IsTracked(t))
        return;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(t); k++)
        if (PyObject_GC_IsTracked(PyTuple_GET_ITEM(t, k)))
            return;
    PyObject_GC_UnTrack(t);
}

/* What canon_scan() found for an ASCII URN whose NID is in the core's NID table. */
typedef struct {
    PyObject *prefix;    /* borrowed from the table: "urn:nid:" (the NID in lower case) */
    PyObject *rule;      /* borrowed: the namespace rule, or None */
    PyObject *canonical; /* new reference when rule is None: the canonical form */
    PyObject *nss, *tail; /* new references when it is not: NSS and the rest, %XX upper */
    Py_ssize_t nid_end, nss_end; /* scan_urn()'s: the NID's ':' and the end of the NSS */
} Canon;

/* text: a str. prefixes: the core's NID table, NID as written -> ("urn:nid:", rule or None).
 * policy: a dict or set of NIDs (as written) that RFC 8141's NID policy accepts, or None to
 * skip that test. Returns 1 with *out filled, 0 for anything this does not take (not ASCII,
 * not RFC 8141, an NID in neither table: the caller takes the Python path), -1 on error. */
static int
canon_scan(PyObject *text, PyObject *prefixes, PyObject *policy, Canon *out)
{
    if (!PyUnicode_CheckExact(text) || !PyDict_CheckExact(prefixes))
        return 0;
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(text) < 0)
        return -1;
#endif
    if (!PyUnicode_IS_ASCII(text))
        return 0;
    const unsigned char *s = PyUnicode_1BYTE_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), nid_end, nss_end;
    if (!scan_urn(s, n, &nid_end, &nss_end))
        return 0;
    PyObject *nid = PyUnicode_New(nid_end - 4, 127); /* ASCII: no scan for the widest char */
    if (nid == NULL)
        return -1;
    memcpy(PyUnicode_1BYTE_DATA(nid), s + 4, (size_t)(nid_end - 4));
    if (policy != Py_None) {
        int ok = PySequence_Contains(policy, nid);
        if (ok <= 0) {
            Py_DECREF(nid);
            return ok;
        }
    }
    PyObject *entry = PyDict_GetItemWithError(prefixes, nid); /* borrowed */
    Py_DECREF(nid);
    if (entry == NULL)
        return PyErr_Occurred() ? -1 : 0;
    if (!PyTuple_CheckExact(entry) || PyTuple_GET_SIZE(entry) != 2 ||
        !PyUnicode_CheckExact(PyTuple_GET_ITEM(entry, 0)))
        return 0;
    PyObject *prefix = PyTuple_GET_ITEM(entry, 0), *rule = PyTuple_GET_ITEM(entry, 1);
    if (PyUnicode_GET_LENGTH(prefix) != nid_end + 1 || !PyUnicode_IS_ASCII(prefix))
        return 0;
    out->prefix = prefix; /* valid while the caller holds the table */
    out->rule = rule;
    out->nid_end = nid_end;
    out->nss_end = nss_end;
    out->canonical = out->nss = out->tail = NULL;
    if (rule == Py_None) {
        /* "urn:" + nid.lower() + ":" is the prefix; the rest has its %XX hex upper-cased.
         * Already so (most URNs in data): the text itself, as the Python path returns it. */
        if (memcmp(s, PyUnicode_1BYTE_DATA(prefix), (size_t)(nid_end + 1)) == 0) {
            Py_ssize_t k = nid_end + 1;
            while (k < n && !(s[k] == '%' && (s[k + 1] >= 'a' || s[k + 2] >= 'a')))
                k++;
            if (k == n) {
                Py_INCREF(text);
                out->canonical = text;
                return 1;
            }
        }
        PyObject *c = PyUnicode_New(n, 127);
        if (c == NULL)
            return -1;
        unsigned char *d = PyUnicode_1BYTE_DATA(c);
        memcpy(d, PyUnicode_1BYTE_DATA(prefix), (size_t)(nid_end + 1));
        memcpy(d + nid_end + 1, s + nid_end + 1, (size_t)(n - nid_end - 1));
        for (Py_ssize_t k = nid_end + 1; k < n; k++) {
            if (d[k] == '%') {
                if (d[k + 1] >= 'a')
                    d[k + 1] -= 32;
                if (d[k + 2] >= 'a')
                    d[k + 2] -= 32;
                k += 2;
            }
        }
        out->canonical = c;
        return 1;
    }
    out->nss = upper_pct(s, nid_end + 1, nss_end);
    if (out->nss == NULL)
        return -1;
    out->tail = upper_pct(s, nss_end, n);
    if (out->tail == NULL) {
        Py_CLEAR(out->nss);
        return -1;
    }
    return 1;
}

/* Whether a METH_FASTCALL function got its *want* arguments (else a TypeError is set). */
static int
nargs_are(const char *name, Py_ssize_t nargs, Py_ssize_t want)
{
    if (nargs == want)
        return 1;
    PyErr_Format(PyExc_TypeError, "%s() takes %zd arguments", name, want);
    return 0;
}

/* canonical(text, prefixes, policy_ok) -> str | tuple | None
 *
 * canon_scan()'s answer for Python: the canonical form when the NID has no rule of its own,
 * the tuple (prefix, rule, nss, tail) when it has one (canonical = prefix +
 * rule.canonical_nss(nss) + tail), and None for anything canon_scan() does not take. */
static PyObject *
canon_core(PyObject *text, PyObject *prefixes, PyObject *policy)
{
    Canon c;
    int r = canon_scan(text, prefixes, policy, &c);
    if (r < 0)
        return NULL;
    if (r == 0)
        Py_RETURN_NONE;
    if (c.canonical != NULL)
        return c.canonical;
    PyObject *res = PyTuple_New(4);
    if (res == NULL) {
        Py_DECREF(c.nss);
        Py_DECREF(c.tail);
        return NULL;
    }
    Py_INCREF(c.prefix);
    Py_INCREF(c.rule);
    PyTuple_SET_ITEM(res, 0, c.prefix);
    PyTuple_SET_ITEM(res, 1, c.rule);
    PyTuple_SET_ITEM(res, 2, c.nss);
    PyTuple_SET_ITEM(res, 3, c.tail);
    return res;
}

/* ---- the built-in namespace rules' canonical_nss, for ASCII input ------------------------
 *
 * A built-in rule's canonical_nss marked with urnld._core._rule.native_copy(kind) has an
 * exact copy here (the differential tests run both on the same NSSs); a subclass that
 * overrides the method, or a method replaced at run time, loses the mark and runs in Python. */

enum native {
    NATIVE_NONE, NATIVE_ISBN, NATIVE_ISSN, NATIVE_UUID, NATIVE_UPPER, NATIVE_LOWER, NATIVE_ISNI,
    NATIVE_NBN, NATIVE_MPEG, NATIVE_IETF
};

/* The marks native_copy() writes (namespaces/_base.py) and the copies they name. */
static const struct {
    const char *name;
    enum native kind;
} native_names[] = {
    {"isbn", NATIVE_ISBN},   {"issn", NATIVE_ISSN}, {"uuid", NATIVE_UUID},
    {"upper", NATIVE_UPPER}, {"lower_except_pct", NATIVE_LOWER},
    {"isni", NATIVE_ISNI},   {"nbn", NATIVE_NBN},   {"mpeg", NATIVE_MPEG},
    {"ietf", NATIVE_IETF},
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
    for (size_t k = 0; k < sizeof(native_names) / sizeof(native_names[0]); k++)
        if (PyUnicode_CompareWithASCIIString(kind, native_names[k].name) == 0)
            return native_names[k].kind;
    return NATIVE_NONE;
}

#define DIGIT(ch) ((ch) >= '0' && (ch) <= '9')

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
native_isbn(PyObject *nss, const unsigned char *s, Py_ssize_t n)
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
native_issn(PyObject *nss, const unsigned char *s, Py_ssize_t n)
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
native_uuid(PyObject *nss, const unsigned char *s, Py_ssize_t n)
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

/* upper_except_pct(nss): str.upper of ASCII text (%XX hex is upper-cased with it). */
static PyObject *
native_upper(const unsigned char *s, Py_ssize_t n)
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
native_isni(PyObject *nss, const unsigned char *s, Py_ssize_t n)
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
native_nbn(PyObject *nss, const unsigned char *s, Py_ssize_t n)
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
native_mpeg(PyObject *nss, const unsigned char *s, Py_ssize_t n)
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
native_ietf(PyObject *nss, const unsigned char *s, Py_ssize_t n)
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
        out = kind == NATIVE_ISBN   ? native_isbn(nss, s, n)
              : kind == NATIVE_ISSN ? native_issn(nss, s, n)
              : kind == NATIVE_UUID ? native_uuid(nss, s, n)
              : kind == NATIVE_ISNI ? native_isni(nss, s, n)
              : kind == NATIVE_NBN  ? native_nbn(nss, s, n)
              : kind == NATIVE_MPEG ? native_mpeg(nss, s, n)
              : kind == NATIVE_IETF ? native_ietf(nss, s, n)
              : kind == NATIVE_UPPER ? native_upper(s, n)
                                    : lower_head(s, n, n);
    }
    Py_DECREF(meth);
    return out;
}

/* The canonical form from canon_scan()'s parts (a new reference): prefix +
 * rule.canonical_nss(nss) + tail when the NID has a rule. Consumes the parts' references.
 * NULL without an exception means "take the Python path": the rule returned something other
 * than a str (the Python path then meets it again), or, with ascii_only, a str that is not
 * an ASCII one. An exception from the rule propagates, as it would from the Python path. */
static PyObject *
canon_finish(Canon *c, int ascii_only)
{
    if (c->canonical != NULL)
        return c->canonical;
    PyObject *nss = call_canonical_nss(c->rule, c->nss);
    Py_CLEAR(c->nss);
    PyObject *out = NULL;
    if (nss == NULL || !PyUnicode_Check(nss) ||
        (ascii_only && (!PyUnicode_CheckExact(nss) || !PyUnicode_IS_ASCII(nss)))) {
        Py_XDECREF(nss);
        Py_CLEAR(c->tail);
        return NULL;
    }
    if (PyUnicode_IS_ASCII(nss)) {
        /* prefix + nss + tail, all ASCII, in one allocation */
        Py_ssize_t lp = PyUnicode_GET_LENGTH(c->prefix), ln = PyUnicode_GET_LENGTH(nss),
                   lt = PyUnicode_GET_LENGTH(c->tail);
        out = PyUnicode_New(lp + ln + lt, 127);
        if (out != NULL) {
            unsigned char *d = PyUnicode_1BYTE_DATA(out);
            memcpy(d, PyUnicode_1BYTE_DATA(c->prefix), (size_t)lp);
            memcpy(d + lp, PyUnicode_1BYTE_DATA(nss), (size_t)ln);
            memcpy(d + lp + ln, PyUnicode_1BYTE_DATA(c->tail), (size_t)lt);
        }
    }
    else {
        PyObject *head = PyUnicode_Concat(c->prefix, nss);
        if (head != NULL) {
            out = PyUnicode_Concat(head, c->tail);
            Py_DECREF(head);
        }
    }
    Py_DECREF(nss);
    Py_CLEAR(c->tail);
    return out;
}

/* canonical_str(text, prefixes, policy_ok) -> str | None
 *
 * canonical() with the namespace rule's canonical_nss() called here: the canonical form, or
 * None for anything canon_scan() does not take (and for a rule that returns no str). */
static PyObject *
sp_canonical_str(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!nargs_are("canonical_str", nargs, 3))
        return NULL;
    Canon c;
    int r = canon_scan(args[0], args[1], args[2], &c);
    if (r < 0)
        return NULL;
    if (r == 0)
        Py_RETURN_NONE;
    PyObject *out = canon_finish(&c, 0);
    if (out == NULL && !PyErr_Occurred())
        Py_RETURN_NONE;
    return out;
}

static PyObject *
sp_canonical(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!nargs_are("canonical", nargs, 3))
        return NULL;
    return canon_core(args[0], args[1], args[2]);
}

/* is_urn(text) -> True | False | None: whether an ASCII str is an RFC 8141 namestring; None
 * for anything else (not a str, not ASCII), which the caller's regex decides. */
static PyObject *
sp_is_urn(PyObject *self, PyObject *text)
{
    if (!PyUnicode_CheckExact(text))
        Py_RETURN_NONE;
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(text) < 0)
        return NULL;
#endif
    if (!PyUnicode_IS_ASCII(text))
        Py_RETURN_NONE;
    Py_ssize_t nid_end, nss_end;
    if (scan_urn(PyUnicode_1BYTE_DATA(text), PyUnicode_GET_LENGTH(text), &nid_end, &nss_end))
        Py_RETURN_TRUE;
    Py_RETURN_FALSE;
}

/* ---- the findings of an ASCII URN, for the check side of the term rule --------------------
 *
 * check_fields() answers what urnld._kernel.check_term answers under the default policy (not
 * strict, no profile, no severity override) for the common case: an ASCII RFC 8141 URN without
 * components whose NID is in the core's NID table. Only what the report keeps is computed: the
 * codes in check()'s order (errors first, then by position, then by code), the first error as
 * "code: message", the canonical form and the NID. The NID's findings, its rule's check_nss
 * and the code severities come from Python (see urnld._core._check.check_fields); the percent-
 * encoding lints, and the rules whose check_nss carries a native_copy mark, are copies. */

#define MAX_HITS 16

/* The first finding of one code: check() lists every code once, at its first finding in its
 * sort order (rank, start, code); among findings with equal keys the first one made. */
typedef struct {
    PyObject *code;    /* new reference */
    PyObject *message; /* new reference, or NULL (only an error's message is ever used) */
    int rank;
    Py_ssize_t start;
} Hit;

typedef struct {
    Hit hit[MAX_HITS];
    int n;
} Hits;

static PyObject *str_pct_lowercase, *str_pct_unreserved, *str_pct_nul, *str_pct_not_utf8,
    *str_not_canonical, *str_nss_check_digit, *str_nss_invalid, *str_code, *str_severity,
    *str_span, *str_message, *issn_tail;

static void
hits_clear(Hits *h)
{
    for (int k = 0; k < h->n; k++) {
        Py_DECREF(h->hit[k].code);
        Py_XDECREF(h->hit[k].message);
    }
    h->n = 0;
}

/* Record one finding. 1 done, 0 too many codes (the caller takes the Python path), -1 error. */
static int
hits_add(Hits *h, PyObject *code, int rank, Py_ssize_t start, PyObject *message)
{
    for (int k = 0; k < h->n; k++) {
        Hit *e = &h->hit[k];
        int same = e->code == code;
        if (!same) {
            int c = PyUnicode_Compare(e->code, code);
            if (c == -1 && PyErr_Occurred())
                return -1;
            same = c == 0;
        }
        if (same) {
            if (rank < e->rank || (rank == e->rank && start < e->start)) {
                e->rank = rank;
                e->start = start;
                Py_XINCREF(message);
                Py_XSETREF(e->message, message);
            }
            return 1;
        }
    }
    if (h->n == MAX_HITS)
        return 0;
    Hit *e = &h->hit[h->n++];
    Py_INCREF(code);
    Py_XINCREF(message);
    e->code = code;
    e->message = message;
    e->rank = rank;
    e->start = start;
    return 1;
}

/* The rank of one of this file's own codes in *ranks* (code -> rank): -1 with an error set. */
static int
rank_of(PyObject *ranks, PyObject *code)
{
    PyObject *r = PyDict_GetItemWithError(ranks, code); /* borrowed */
    if (r == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetObject(PyExc_KeyError, code);
        return -1;
    }
    long v = PyLong_AsLong(r);
    return v == -1 && PyErr_Occurred() ? -1 : (int)v;
}

static int
hex_value(unsigned char c)
{
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/* Whether the escapes s[a..b) (a run of "%XX", every byte >= 0x80) decode as strict UTF-8,
 * as bytes.decode("utf-8") does (no overlong forms, no surrogates, nothing above U+10FFFF). */
static int
utf8_run_ok(const unsigned char *s, Py_ssize_t a, Py_ssize_t b)
{
    Py_ssize_t k = 0, n = (b - a) / 3;
#define BYTE(j) (hex_value(s[a + 3 * (j) + 1]) * 16 + hex_value(s[a + 3 * (j) + 2]))
    while (k < n) {
        int c = BYTE(k), need, lo = 0x80, hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF)
            need = 1;
        else if (c >= 0xE0 && c <= 0xEF) {
            need = 2;
            if (c == 0xE0)
                lo = 0xA0;
            else if (c == 0xED)
                hi = 0x9F;
        }
        else if (c >= 0xF0 && c <= 0xF4) {
            need = 3;
            if (c == 0xF0)
                lo = 0x90;
            else if (c == 0xF4)
                hi = 0x8F;
        }
        else
            return 0;
        if (k + need >= n) /* the sequence is cut off by the end of the run */
            return 0;
        int c1 = BYTE(k + 1);
        if (c1 < lo || c1 > hi)
            return 0;
        for (int j = 2; j <= need; j++) {
            int cj = BYTE(k + j);
            if (cj < 0x80 || cj > 0xBF)
                return 0;
        }
        k += need + 1;
    }
#undef BYTE
    return 1;
}

/* _check._pct_findings for the NSS s[a..b) of a valid RFC 8141 URN (every '%' starts an
 * escape): the first finding of each code. 1 done, 0 Python path, -1 error. */
static int
pct_hits(const unsigned char *s, Py_ssize_t a, Py_ssize_t b, PyObject *ranks, Hits *h)
{
    Py_ssize_t high_start = -1, high_end = 0;
    int r = 1;
    for (Py_ssize_t i = a; i < b && r == 1; i++) {
        if (s[i] != '%')
            continue;
        unsigned char x = s[i + 1], y = s[i + 2];
        PyObject *code = NULL;
        if (x >= 'a' || y >= 'a') { /* hex digits: a-f are the only bytes >= 'a' */
            int rank = rank_of(ranks, str_pct_lowercase);
            if (rank < 0 || (r = hits_add(h, str_pct_lowercase, rank, i, NULL)) != 1)
                return rank < 0 ? -1 : r;
        }
        int value = hex_value(x) * 16 + hex_value(y);
        if (value >= 0x80) {
            if (high_start >= 0 && i != high_end) {
                if (!utf8_run_ok(s, high_start, high_end))
                    code = str_pct_not_utf8;
                if (code != NULL) {
                    int rank = rank_of(ranks, code);
                    if (rank < 0 || (r = hits_add(h, code, rank, high_start, NULL)) != 1)
                        return rank < 0 ? -1 : r;
                    code = NULL;
                }
                high_start = -1;
            }
            if (high_start < 0)
                high_start = i;
            high_end = i + 3;
            i += 2;
            continue;
        }
        if (value == 0)
            code = str_pct_nul;
        else if (ALNUM[value] || value == '-' || value == '.' || value == '_' || value == '~')
            code = str_pct_unreserved;
        if (code != NULL) {
            int rank = rank_of(ranks, code);
            if (rank < 0 || (r = hits_add(h, code, rank, i, NULL)) != 1)
                return rank < 0 ? -1 : r;
        }
        if (high_start >= 0) {
            if (!utf8_run_ok(s, high_start, high_end)) {
                int rank = rank_of(ranks, str_pct_not_utf8);
                if (rank < 0 || (r = hits_add(h, str_pct_not_utf8, rank, high_start, NULL)) != 1)
                    return rank < 0 ? -1 : r;
            }
            high_start = -1;
        }
        i += 2;
    }
    if (high_start >= 0 && !utf8_run_ok(s, high_start, high_end)) {
        int rank = rank_of(ranks, str_pct_not_utf8);
        if (rank < 0 || (r = hits_add(h, str_pct_not_utf8, rank, high_start, NULL)) != 1)
            return rank < 0 ? -1 : r;
    }
    return r;
}

/* The copies of the marked check_nss methods, for an ASCII NSS s[0..n) under the default
 * options: 1 no finding, 2 a check-digit finding (*msg set), 0 the Python method decides
 * (the NSS is outside the grammar: its message names what is wrong), -1 error. */
static int
check_isbn(const unsigned char *s, Py_ssize_t n, PyObject **msg)
{
    unsigned char sym[13];
    int k = isbn_symbols(s, n, sym), total = 0;
    unsigned char expected;
    if (k == 10) {
        for (int j = 0; j < 9; j++)
            total += (10 - j) * (sym[j] - '0');
        int c = (11 - total % 11) % 11;
        expected = c == 10 ? 'X' : (unsigned char)('0' + c);
    }
    else if (k == 13) {
        for (int j = 0; j < 12; j++)
            total += (j % 2 ? 3 : 1) * (sym[j] - '0');
        expected = (unsigned char)('0' + (10 - total % 10) % 10);
    }
    else
        return 0;
    if (sym[k - 1] == expected)
        return 1;
    *msg = PyUnicode_FromFormat("ISBN check digit '%c' is wrong", (int)s[n - 1]);
    return *msg == NULL ? -1 : 2;
}

static int
check_issn(const unsigned char *s, Py_ssize_t n, PyObject **msg)
{
    unsigned char c9[9];
    if (!issn_match(s, n, c9))
        return 0;
    int total = 0;
    for (int j = 0; j < 7; j++)
        total += (8 - j) * (c9[j < 4 ? j : j + 1] - '0');
    int c = (11 - total % 11) % 11;
    unsigned char expected = c == 10 ? 'X' : (unsigned char)('0' + c);
    if (c9[8] == expected)
        return 1;
    *msg = PyUnicode_FromFormat("ISSN check character is '%c', expected '%c'%U", (int)s[n - 1],
                                (int)expected, issn_tail);
    return *msg == NULL ? -1 : 2;
}

/* urn:oid (RFC 3061 §2; urnld.namespaces.oid): 1 for (?:0|[1-9][0-9]*)(?:\.(?:0|[1-9][0-9]*))*,
 * 3 for the first arc with a leading zero (*msg, *at) when every arc up to it is a number;
 * anything else is Python's to word. */
static int
check_oid(const unsigned char *s, Py_ssize_t n, PyObject **msg, Py_ssize_t *at)
{
    Py_ssize_t i = 0;
    for (;;) {
        Py_ssize_t start = i;
        while (i < n && DIGIT(s[i]))
            i++;
        if (i == start || (i < n && s[i] != '.'))
            return 0; /* an empty arc, or a character that is not a digit */
        if (s[start] == '0' && i - start > 1) {
            PyObject *arc = PyUnicode_FromStringAndSize((const char *)s + start, i - start);
            if (arc == NULL)
                return -1;
            *msg = PyUnicode_FromFormat("arc %R at NSS position %zd has a leading zero (RFC 3061 "
                                        "%s)", arc, start, "\xc2\xa7" "2");
            Py_DECREF(arc);
            *at = start;
            return *msg == NULL ? -1 : 3;
        }
        if (i == n)
            return 1;
        i++;
    }
}

/* urn:uuid (RFC 9562 §4; urnld.namespaces.uuid): 1 for the 8-4-4-4-12 hex form, 3 for five
 * hex groups of which one has the wrong length (*msg, *at: the first such group). */
static int
check_uuid(const unsigned char *s, Py_ssize_t n, PyObject **msg, Py_ssize_t *at)
{
    if (uuid_match(s, n))
        return 1;
    static const int want[5] = {8, 4, 4, 4, 12};
    static const char *const names[5] = {"time_low", "time_mid", "time_high_and_version",
                                         "clock_seq", "node"};
    Py_ssize_t groups = 1;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (s[i] == '-')
            groups++;
        else if (!HEX[s[i]])
            return 0; /* not a hex digit (or an escaped brace): Python's message */
    }
    if (groups != 5)
        return 0;
    Py_ssize_t start = 0;
    for (int g = 0; g < 5; g++) {
        const unsigned char *dash = memchr(s + start, '-', (size_t)(n - start));
        Py_ssize_t stop = dash == NULL ? n : dash - s;
        if (stop - start != want[g]) {
            *msg = PyUnicode_FromFormat("UUID field %s has %zd hex digits, expected %d (RFC 9562 "
                                        "%s)", names[g], stop - start, want[g], "\xc2\xa7" "4");
            *at = start;
            return *msg == NULL ? -1 : 3;
        }
        start = stop + 1;
    }
    return 0;
}

/* urn:publicid (RFC 3151 §2; urnld.namespaces.publicid._nss_problem): 1 when the NSS is the
 * left-to-right transcription of a public identifier, 3 for an escape that is not one of the
 * eight (*msg, *at). An escaped '/' or ':' followed by what could start the same character
 * again (':', ';', an escape) goes to Python, which re-reads it: "%2F:" is not what "///"
 * transcribes to. */
static int
check_publicid(const unsigned char *s, Py_ssize_t n, PyObject **msg, Py_ssize_t *at)
{
    if (n == 0 || s[0] == '+' || s[n - 1] == '+')
        return 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = s[i];
        if (ALNUM[c] || (c != 0 && strchr("-().,=!*@$_:;", c) != NULL))
            continue;
        if (c == '+') {
            if (s[i + 1] == '+') /* i < n - 1: the last byte is not '+' */
                return 0;
            continue;
        }
        if (c != '%' || i + 2 >= n)
            return 0;
        unsigned char a = s[i + 1], b = (unsigned char)(s[i + 2] | 0x20); /* hex case folded */
        /* the eight escapes: %2B %3A %2F %3B %27 %3F %23 %25 */
        if (!((a == '2' && (b == 'b' || b == 'f' || b == '7' || b == '3' || b == '5')) ||
              (a == '3' && (b == 'a' || b == 'b' || b == 'f')))) {
            /* the first piece _untranscribe refuses: every one before it was read */
            PyObject *piece = PyUnicode_FromStringAndSize((const char *)s + i, 3);
            if (piece == NULL)
                return -1;
            *msg = PyUnicode_FromFormat("%R is not one of RFC 3151's eight escapes (%%2B %%3A "
                                        "%%2F %%3B %%27 %%3F %%23 %%25)", piece);
            Py_DECREF(piece);
            *at = i;
            return *msg == NULL ? -1 : 3;
        }
        if (((a == '2' && b == 'f') || (a == '3' && b == 'a')) && i + 3 < n &&
            (s[i + 3] == ':' || s[i + 3] == ';' || s[i + 3] == '%'))
            return 0;
        i += 2;
    }
    return 1;
}

/* urn:oasis (RFC 3121 §2; urnld.namespaces.oasis): 1 when the NSS fills its branch's template:
 * names:{specification,tc,technical} and 3 more segments, or member and 2 more, every
 * ':'-separated segment non-empty and without '/'; 3 with the warning (*msg, the whole NSS)
 * for a branch with too few segments after it. */
static int
check_oasis(const unsigned char *s, Py_ssize_t n, PyObject **msg)
{
    Py_ssize_t segs = 1, start = 0, used = 0, second_end = 0;
    for (Py_ssize_t i = 0; i <= n; i++) {
        if (i < n && s[i] != ':') {
            if (s[i] == '/')
                return 0;
            continue;
        }
        Py_ssize_t len = i - start;
        if (len == 0)
            return 0;
        if (segs == 1) {
            if (len == 5 && memcmp(s, "names", 5) == 0)
                used = 2; /* the branch keyword is the next segment */
            else if (len == 6 && memcmp(s, "member", 6) == 0)
                used = 1;
            else
                return 0;
        }
        else if (segs == 2 && used == 2 &&
                 !((len == 13 && memcmp(s + start, "specification", 13) == 0) ||
                   (len == 2 && memcmp(s + start, "tc", 2) == 0) ||
                   (len == 9 && memcmp(s + start, "technical", 9) == 0)))
            return 0;
        if (segs == 2)
            second_end = i;
        if (i < n)
            segs++;
        start = i + 1;
    }
    Py_ssize_t after = segs - used, need = used == 2 ? 3 : 2;
    if (after >= need)
        return 1;
    if (after < 1) /* fewer segments than the branch keyword needs: an error, Python's */
        return 0;
    PyObject *branch = used == 1 ? PyUnicode_FromString("member")
                                 : PyUnicode_FromStringAndSize((const char *)s, second_end);
    if (branch == NULL)
        return -1;
    const char *shape =
        used == 1 ? "member:{member-id}:{opaque}"
        : second_end == 8 ? "names:tc:{tc-id}:{type}[:{subtype}]:{doc-id}"
        : second_end == 19 ? "names:specification:{spec-id}:{type}[:{subtype}]:{doc-id}"
                           : "names:technical:{doc-type}:{doc-id}:{amendment-id}";
    *msg = PyUnicode_FromFormat("%zd segment(s) after '%U', the template has at least %zd: %s "
                                "(RFC 3121 %s)", after, branch, need, shape, "\xc2\xa7" "2");
    Py_DECREF(branch);
    return *msg == NULL ? -1 : 3;
}

/* GS1 TDS pure-identity and class URI bodies (urnld.namespaces._tds.SCHEMES, which
 * tds_schemes() returns this table as, for the test that keeps the two equal). */
enum tds_kind { TDS_CP, TDS_PADDED, TDS_PADDED_OR_EMPTY, TDS_NUMERIC, TDS_GS3A3, TDS_CPREF };
static const char *const TDS_KIND_NAMES[] = {"cp",      "padded", "padded-or-empty",
                                             "numeric", "gs3a3",  "cpref"};

typedef struct {
    enum tds_kind kind;
    int min_len, max_len; /* max_len 0: no bound of its own */
} TdsField;

typedef struct {
    const char *key;
    int fields;
    TdsField field[5];
    int budget;      /* fields 0 and 1's lengths add up to exact (or at most *most*) */
    int exact, most; /* 0: none */
} TdsScheme;

#define CP {TDS_CP, 6, 12}
static const TdsScheme TDS_SCHEMES[] = {
    {"id:sgtin", 3, {CP, {TDS_PADDED, 1, 0}, {TDS_GS3A3, 1, 20}}, 1, 13, 0},
    {"id:sscc", 2, {CP, {TDS_PADDED, 1, 0}}, 1, 17, 0},
    {"id:sgln", 3, {CP, {TDS_PADDED_OR_EMPTY, 0, 0}, {TDS_GS3A3, 1, 20}}, 1, 12, 0},
    {"id:grai", 3, {CP, {TDS_PADDED_OR_EMPTY, 0, 0}, {TDS_GS3A3, 1, 16}}, 1, 12, 0},
    {"id:giai", 2, {CP, {TDS_GS3A3, 1, 0}}, 1, 0, 30},
    {"id:gsrn", 2, {CP, {TDS_PADDED, 1, 0}}, 1, 17, 0},
    {"id:gsrnp", 2, {CP, {TDS_PADDED, 1, 0}}, 1, 17, 0},
    {"id:gdti", 3, {CP, {TDS_PADDED_OR_EMPTY, 0, 0}, {TDS_GS3A3, 1, 17}}, 1, 12, 0},
    {"id:cpi", 3, {CP, {TDS_CPREF, 1, 0}, {TDS_NUMERIC, 1, 12}}, 1, 0, 30},
    {"id:sgcn", 3, {CP, {TDS_PADDED_OR_EMPTY, 0, 0}, {TDS_PADDED, 1, 12}}, 1, 12, 0},
    {"id:ginc", 2, {CP, {TDS_GS3A3, 1, 0}}, 1, 0, 30},
    {"id:gsin", 2, {CP, {TDS_PADDED, 1, 0}}, 1, 16, 0},
    {"id:itip", 5,
     {CP, {TDS_PADDED, 1, 0}, {TDS_PADDED, 2, 2}, {TDS_PADDED, 2, 2}, {TDS_GS3A3, 1, 20}}, 1,
     13, 0},
    {"id:upui", 3, {CP, {TDS_PADDED, 1, 0}, {TDS_GS3A3, 1, 28}}, 1, 13, 0},
    {"id:pgln", 2, {CP, {TDS_PADDED_OR_EMPTY, 0, 0}}, 1, 12, 0},
    {"id:gid", 3, {{TDS_NUMERIC, 1, 0}, {TDS_NUMERIC, 1, 0}, {TDS_NUMERIC, 1, 0}}, 0, 0, 0},
    {"class:lgtin", 3, {CP, {TDS_PADDED, 1, 0}, {TDS_GS3A3, 1, 20}}, 1, 13, 0},
};
#undef CP
#define TDS_COUNT ((int)(sizeof(TDS_SCHEMES) / sizeof(TDS_SCHEMES[0])))

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
        /* [A-Za-z0-9!'()*+,\-.:;=_] | %22 %25 %26 %2F %3C %3E %3F (hex in either case) */
        if (n == 0)
            return -1;
        for (Py_ssize_t i = 0; i < n; i++) {
            unsigned char c = v[i];
            if (ALNUM[c] || (c != 0 && strchr("!'()*+,-.:;=_", c) != NULL))
                continue;
            if (c != '%' || i + 2 >= n)
                return -1;
            unsigned char a = v[i + 1], b = (unsigned char)(v[i + 2] | 0x20);
            if (!((a == '2' && (b == '2' || b == '5' || b == '6' || b == 'f')) ||
                  (a == '3' && (b == 'c' || b == 'e' || b == 'f'))))
                return -1;
            escapes++;
            i += 2;
        }
        return n - 2 * escapes;
    case TDS_CPREF:
        /* [A-Z0-9\-] | %2F | %23 */
        if (n == 0)
            return -1;
        for (Py_ssize_t i = 0; i < n; i++) {
            unsigned char c = v[i];
            if ((c >= 'A' && c <= 'Z') || DIGIT(c) || c == '-')
                continue;
            if (c != '%' || i + 2 >= n ||
                !((v[i + 1] == '2' && (v[i + 2] == 'F' || v[i + 2] == 'f' || v[i + 2] == '3'))))
                return -1;
            escapes++;
            i += 2;
        }
        return n - 2 * escapes;
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
        if (f < 2)
            total += len;
        start = end + 1;
    }
    if (scheme->budget &&
        ((scheme->exact && total != scheme->exact) || (scheme->most && total > scheme->most)))
        return 0;
    return 1;
}

/* urn:epc and urn:epcglobal (RFC 5134 §2, §3; urnld.namespaces.epc): 1 when the NSS is
 * sub-ns-name ":" sub-ns and, for epc (*tds*), the scheme's body fits GS1 TDS. */
static int
check_epc(const unsigned char *s, Py_ssize_t n, int tds)
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
    if (!tds)
        return 1;
    const unsigned char *second = memchr(s + c + 1, ':', (size_t)(n - c - 1));
    if (second == NULL)
        return 1;
    Py_ssize_t k = second - s;
    return tds_body_fits(s, k, s + k + 1, n - k - 1);
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
            budget = Py_BuildValue("((ii)NN)", 0, 1,
                                   sc->exact ? PyLong_FromLong(sc->exact) : Py_NewRef(Py_None),
                                   sc->most ? PyLong_FromLong(sc->most) : Py_NewRef(Py_None));
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

/* The findings of a Python check_nss(nss, options), spans shifted by *offset*. */
static int
python_rule_hits(PyObject *meth, PyObject *nss, PyObject *options, Py_ssize_t offset,
                 PyObject *sev_ranks, Hits *h)
{
    PyObject *found = PyObject_CallFunctionObjArgs(meth, nss, options, NULL);
    if (found == NULL)
        return -1;
    PyObject *it = PyObject_GetIter(found);
    Py_DECREF(found);
    if (it == NULL)
        return -1;
    int r = 1;
    PyObject *f;
    while (r == 1 && (f = PyIter_Next(it)) != NULL) {
        PyObject *code = PyObject_GetAttr(f, str_code), *sev = PyObject_GetAttr(f, str_severity),
                 *span = PyObject_GetAttr(f, str_span), *message = PyObject_GetAttr(f, str_message);
        r = -1;
        if (code && sev && span && message && PyUnicode_Check(code) && PyTuple_Check(span) &&
            PyTuple_GET_SIZE(span) == 2) {
            PyObject *rank = PyDict_GetItemWithError(sev_ranks, sev);
            Py_ssize_t start = PyLong_AsSsize_t(PyTuple_GET_ITEM(span, 0));
            if (rank != NULL && !(start == -1 && PyErr_Occurred()))
                r = hits_add(h, code, (int)PyLong_AsLong(rank), start + offset, message);
            else if (!PyErr_Occurred())
                r = 0; /* an unknown severity: the Python path says what it makes of it */
        }
        else if (!PyErr_Occurred())
            r = 0;
        Py_XDECREF(code);
        Py_XDECREF(sev);
        Py_XDECREF(span);
        Py_XDECREF(message);
        Py_DECREF(f);
    }
    Py_DECREF(it);
    return PyErr_Occurred() ? -1 : r;
}

/* hits in check()'s order: (rank, start, code). */
static int
hits_sort(Hits *h)
{
    for (int i = 1; i < h->n; i++) {
        Hit x = h->hit[i];
        int j = i - 1;
        while (j >= 0) {
            Hit *y = &h->hit[j];
            int later = y->rank > x.rank || (y->rank == x.rank && y->start > x.start);
            if (!later && y->rank == x.rank && y->start == x.start) {
                int c = PyUnicode_Compare(y->code, x.code);
                if (c == -1 && PyErr_Occurred())
                    return -1;
                later = c > 0;
            }
            if (!later)
                break;
            h->hit[j + 1] = *y;
            j--;
        }
        h->hit[j + 1] = x;
    }
    return 0;
}

/* The codes tuples check_fields_of() returns, shared: the spellings of a dump fall into a few
 * sets of findings, and check_counts() counts a batch per set (by identity) before per code.
 * Kept for the module's life; past CODE_SETS sets, new tuples are not kept. */
#define CODE_SETS 64
static PyObject *code_sets[CODE_SETS];
static int n_code_sets;

/* The codes of h as a tuple (new reference): a kept one with the same code objects, else a new
 * one, kept while there is room. */
static PyObject *
shared_codes(const Hits *h)
{
    for (int k = 0; k < n_code_sets; k++) {
        PyObject *t = code_sets[k];
        if (PyTuple_GET_SIZE(t) != h->n)
            continue;
        int j = 0;
        while (j < h->n && PyTuple_GET_ITEM(t, j) == h->hit[j].code)
            j++;
        if (j == h->n)
            return Py_NewRef(t);
    }
    PyObject *codes = PyTuple_New(h->n);
    if (codes == NULL)
        return NULL;
    for (int k = 0; k < h->n; k++)
        PyTuple_SET_ITEM(codes, k, Py_NewRef(h->hit[k].code));
    untrack_atomic(codes);
    if (n_code_sets < CODE_SETS)
        code_sets[n_code_sets++] = Py_NewRef(codes);
    return codes;
}

/* check_fields(text, prefixes, spec, options, code_ranks, severity_ranks)
 *     -> (codes, error, canonical, nid) | None
 *
 * spec(nid as written) -> (NID findings as (code, rank, start, message) tuples, the NID in
 * lower case, the rule's bound check_nss, its native_copy mark or None); code_ranks maps this
 * file's codes, severity_ranks a finding's severity, to its rank (0 error, 1 warning, 2 info).
 * None: not the common case (not an ASCII str, not RFC 8141, components, an NID not in the
 * table, a rule's answer the copy cannot express): the Python path decides. */
static PyObject *
check_fields_of(PyObject *text, PyObject *prefixes, PyObject *spec_of, PyObject *options,
                PyObject *code_ranks, PyObject *sev_ranks)
{
    if (!PyDict_CheckExact(code_ranks) || !PyDict_CheckExact(sev_ranks))
        Py_RETURN_NONE;
    Canon c; /* canon_scan() takes only an ASCII str that is an RFC 8141 URN */
    int r = canon_scan(text, prefixes, Py_None, &c);
    if (r <= 0)
        return r < 0 ? NULL : Py_NewRef(Py_None);
    const unsigned char *s = PyUnicode_1BYTE_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), nid_end = c.nid_end;
    if (c.nss_end != n) { /* components: the Python path */
        Py_XDECREF(c.canonical);
        Py_XDECREF(c.nss);
        Py_XDECREF(c.tail);
        Py_RETURN_NONE;
    }
    PyObject *canonical = canon_finish(&c, 0);
    if (canonical == NULL)
        return PyErr_Occurred() ? NULL : Py_NewRef(Py_None);

    PyObject *result = NULL, *nid = NULL, *spec = NULL, *nss = NULL, *msg = NULL;
    Hits h;
    h.n = 0;
    r = -1;
    nid = PyUnicode_Substring(text, 4, nid_end);
    if (nid == NULL || (spec = PyObject_CallOneArg(spec_of, nid)) == NULL)
        goto done;
    if (!PyTuple_CheckExact(spec) || PyTuple_GET_SIZE(spec) != 4 ||
        !PyTuple_CheckExact(PyTuple_GET_ITEM(spec, 0)) ||
        !PyUnicode_CheckExact(PyTuple_GET_ITEM(spec, 1))) {
        PyErr_SetString(PyExc_TypeError, "check_fields(): spec must return a 4-tuple");
        goto done;
    }
    PyObject *entries = PyTuple_GET_ITEM(spec, 0), *lower = PyTuple_GET_ITEM(spec, 1),
             *meth = PyTuple_GET_ITEM(spec, 2), *mark = PyTuple_GET_ITEM(spec, 3);
    r = 1;
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(entries) && r == 1; k++) {
        PyObject *e = PyTuple_GET_ITEM(entries, k);
        if (!PyTuple_CheckExact(e) || PyTuple_GET_SIZE(e) != 4) {
            PyErr_SetString(PyExc_TypeError, "check_fields(): bad NID finding");
            r = -1;
            break;
        }
        long rank = PyLong_AsLong(PyTuple_GET_ITEM(e, 1));
        Py_ssize_t start = PyLong_AsSsize_t(PyTuple_GET_ITEM(e, 2));
        if (PyErr_Occurred()) {
            r = -1;
            break;
        }
        r = hits_add(&h, PyTuple_GET_ITEM(e, 0), (int)rank, start, PyTuple_GET_ITEM(e, 3));
    }
    if (r == 1)
        r = pct_hits(s, nid_end + 1, n, code_ranks, &h);
    if (r == 1) {
        const unsigned char *ns = s + nid_end + 1;
        Py_ssize_t nn = n - nid_end - 1;
        /* got: 0 the Python method decides, 1 no finding, 2 a check-digit finding (msg), 3 an
         * nss-invalid finding at NSS offset *at* (msg; a warning where *warning*) */
        int got = 0, warning = 0;
        Py_ssize_t at = 0;
        if (mark == Py_None || !PyUnicode_Check(mark))
            got = 0;
        else if (PyUnicode_CompareWithASCIIString(mark, "empty") == 0)
            got = 1;
        else if (PyUnicode_CompareWithASCIIString(mark, "isbn") == 0)
            got = check_isbn(ns, nn, &msg);
        else if (PyUnicode_CompareWithASCIIString(mark, "issn") == 0)
            got = check_issn(ns, nn, &msg);
        else if (PyUnicode_CompareWithASCIIString(mark, "uuid") == 0)
            got = check_uuid(ns, nn, &msg, &at);
        else if (PyUnicode_CompareWithASCIIString(mark, "oid") == 0)
            got = check_oid(ns, nn, &msg, &at);
        else if (PyUnicode_CompareWithASCIIString(mark, "nbn") == 0) {
            Py_ssize_t k; /* RFC 8458 grammar; the profiles' checks are not the default's */
            got = nbn_match(ns, nn, &k);
        }
        else if (PyUnicode_CompareWithASCIIString(mark, "publicid") == 0)
            got = check_publicid(ns, nn, &msg, &at);
        else if (PyUnicode_CompareWithASCIIString(mark, "oasis") == 0) {
            got = check_oasis(ns, nn, &msg);
            warning = 1;
        }
        else if (PyUnicode_CompareWithASCIIString(mark, "epc") == 0)
            got = check_epc(ns, nn, 1);
        else if (PyUnicode_CompareWithASCIIString(mark, "epcglobal") == 0)
            got = check_epc(ns, nn, 0);
        if (got < 0)
            r = -1;
        else if (got == 2) {
            int rank = rank_of(code_ranks, str_nss_check_digit);
            r = rank < 0 ? -1 : hits_add(&h, str_nss_check_digit, rank, n - 1, msg);
        }
        else if (got == 3) { /* the rule's one nss-invalid finding, worded by the copy */
            int rank = warning ? 1 : rank_of(code_ranks, str_nss_invalid);
            r = rank < 0 ? -1 : hits_add(&h, str_nss_invalid, rank, nid_end + 1 + at, msg);
        }
        else if (got == 0) {
            nss = PyUnicode_Substring(text, nid_end + 1, n);
            r = nss == NULL ? -1
                            : python_rule_hits(meth, nss, options, nid_end + 1, sev_ranks, &h);
        }
    }
    if (r == 1 && PyUnicode_Compare(text, canonical) != 0) {
        int rank = rank_of(code_ranks, str_not_canonical);
        r = rank < 0 ? -1 : hits_add(&h, str_not_canonical, rank, 0, NULL);
    }
    if (r == 1)
        r = hits_sort(&h) < 0 ? -1 : 1;
    if (r == 0) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    if (r < 0)
        goto done;
    PyObject *error = Py_None, *codes = shared_codes(&h);
    if (codes == NULL)
        goto done;
    if (h.n && h.hit[0].rank == 0) {
        if (h.hit[0].message == NULL || !PyUnicode_Check(h.hit[0].message)) {
            Py_DECREF(codes);
            result = Py_NewRef(Py_None);
            goto done;
        }
        error = PyUnicode_FromFormat("%U: %U", h.hit[0].code, h.hit[0].message);
        if (error == NULL) {
            Py_DECREF(codes);
            goto done;
        }
    }
    else
        Py_INCREF(error);
    result = PyTuple_New(4);
    if (result == NULL) {
        Py_DECREF(codes);
        Py_DECREF(error);
        goto done;
    }
    PyTuple_SET_ITEM(result, 0, codes);
    PyTuple_SET_ITEM(result, 1, error);
    PyTuple_SET_ITEM(result, 2, Py_NewRef(canonical));
    PyTuple_SET_ITEM(result, 3, Py_NewRef(lower));
    untrack_atomic(result);
done:
    hits_clear(&h);
    Py_XDECREF(msg);
    Py_XDECREF(nss);
    Py_XDECREF(spec);
    Py_XDECREF(nid);
    Py_DECREF(canonical);
    return result;
}

static PyObject *
sp_check_fields(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!nargs_are("check_fields", nargs, 6))
        return NULL;
    return check_fields_of(args[0], args[1], args[2], args[3], args[4], args[5]);
}

/* ---- N-Triples lines in the usual layout -------------------------------------------------- */

/* IRIREF at p[i] == '<': index after its '>', or -1. */
static Py_ssize_t
scan_iri(const unsigned char *p, Py_ssize_t i, Py_ssize_t n)
{
    i++;
    while (i < n) {
        unsigned char c = p[i];
        if (!IRI_BAD[c]) {
            i++;
            continue;
        }
        if (c == '>')
            return i + 1;
        if (c != '\\')
            return -1;
        if (i + 1 < n && p[i + 1] == 'u') {
            if (i + 5 >= n)
                return -1;
            for (int k = 2; k < 6; k++)
                if (!HEX[p[i + k]])
                    return -1;
            i += 6;
        }
        else if (i + 1 < n && p[i + 1] == 'U') {
            if (i + 9 >= n)
                return -1;
            for (int k = 2; k < 10; k++)
                if (!HEX[p[i + k]])
                    return -1;
            i += 10;
        }
        else
            return -1;
    }
    return -1;
}

/* BLANK_NODE_LABEL at p[i] == '_': index after it, or -1. */
static Py_ssize_t
scan_bnode(const unsigned char *p, Py_ssize_t i, Py_ssize_t n)
{
    if (i + 2 >= n || p[i + 1] != ':')
        return -1;
    unsigned char c = p[i + 2];
    if (!(ALNUM[c] || c == '_' || c >= 0x80))
        return -1;
    i += 3;
    while (i < n && PN[p[i]])
        i++;
    if (p[i - 1] == '.')
        return -1;
    return i;
}

/* A literal at p[i] == '"' (string, then ^^IRIREF or a language tag): index after it, or -1. */
static Py_ssize_t
scan_literal(const unsigned char *p, Py_ssize_t i, Py_ssize_t n)
{
    i++;
    for (;;) {
        if (i >= n)
            return -1;
        unsigned char c = p[i];
        if (c == '"')
            break;
        if (c == '\n' || c == '\r')
            return -1;
        if (c == '\\') {
            if (i + 1 >= n)
                return -1;
            unsigned char e = p[i + 1];
            if (e == 'u' || e == 'U') {
                int len = e == 'u' ? 4 : 8;
                if (i + 1 + len >= n)
                    return -1;
                for (int k = 2; k < 2 + len; k++)
                    if (!HEX[p[i + k]])
                        return -1;
                i += 2 + len;
            }
            else if (e == 't' || e == 'b' || e == 'n' || e == 'r' || e == 'f' || e == '"' ||
                     e == '\'' || e == '\\')
                i += 2;
            else
                return -1;
            continue;
        }
        i++;
    }
    i++; /* the closing quote */
    if (i >= n)
        return -1;
    if (p[i] == '^') {
        if (i + 2 >= n || p[i + 1] != '^' || p[i + 2] != '<')
            return -1;
        return scan_iri(p, i + 2, n);
    }
    if (p[i] == '@') {
        Py_ssize_t j = i + 1;
        while (j < n && ((p[j] | 0x20) >= 'a' && (p[j] | 0x20) <= 'z'))
            j++;
        if (j == i + 1)
            return -1;
        while (j + 1 < n && p[j] == '-' && ALNUM[p[j + 1]]) {
            j += 2;
            while (j < n && ALNUM[p[j]])
                j++;
        }
        if (j + 4 < n && p[j] == '-' && p[j + 1] == '-' &&
            (memcmp(p + j + 2, "ltr", 3) == 0 || memcmp(p + j + 2, "rtl", 3) == 0))
            j += 5;
        return j;
    }
    return i;
}

/* A subject, object or graph term at p[i]: index after it, or -1. kind: 1 IRI, 2 blank node,
 * 3 literal (only where allow_literal). */
static Py_ssize_t
scan_term(const unsigned char *p, Py_ssize_t i, Py_ssize_t n, int allow_literal, int *kind)
{
    if (i >= n)
        return -1;
    switch (p[i]) {
    case '<':
        *kind = 1;
        return scan_iri(p, i, n);
    case '_':
        *kind = 2;
        return scan_bnode(p, i, n);
    case '"':
        if (!allow_literal)
            return -1;
        *kind = 3;
        return scan_literal(p, i, n);
    default:
        return -1;
    }
}

/* One statement line in the layout "S P O [G] .\n" (single spaces): token bounds into sp[8]
 * (graph bounds 0, 0 for a triple) and kinds into kinds[4]; returns the index after the line's
 * '\n', or -1. */
static Py_ssize_t
scan_line(const unsigned char *p, Py_ssize_t i, Py_ssize_t n, Py_ssize_t *sp, int *kinds)
{
    Py_ssize_t j;
    int k;
    sp[0] = i;
    j = scan_term(p, i, n, 0, &k);
    if (j < 0 || j >= n || p[j] != ' ')
        return -1;
    kinds[0] = k;
    sp[1] = j;
    i = j + 1;
    if (i >= n || p[i] != '<')
        return -1;
    sp[2] = i;
    j = scan_iri(p, i, n);
    if (j < 0 || j >= n || p[j] != ' ')
        return -1;
    kinds[1] = 1;
    sp[3] = j;
    i = j + 1;
    sp[4] = i;
    j = scan_term(p, i, n, 1, &k);
    if (j < 0 || j + 2 >= n || p[j] != ' ')
        return -1;
    kinds[2] = k;
    sp[5] = j;
    if (p[j + 1] == '.' && p[j + 2] == '\n') {
        sp[6] = sp[7] = 0;
        kinds[3] = 0;
        return j + 3;
    }
    i = j + 1;
    sp[6] = i;
    j = scan_term(p, i, n, 0, &k);
    if (j < 0 || j + 2 >= n || p[j] != ' ' || p[j + 1] != '.' || p[j + 2] != '\n')
        return -1;
    kinds[3] = k;
    sp[7] = j;
    return j + 3;
}

/* ---- the rewrite of a chunk ----------------------------------------------------------- */

/* The output, written straight into the bytes object that is returned (no copy at the end):
 * grown, and finally cut to its length, with _PyBytes_Resize. */
typedef struct {
    PyObject *bytes; /* NULL after a failed resize (the error is set) */
    Py_ssize_t len, cap;
} Buf;

static int
buf_resize(Buf *b, Py_ssize_t cap)
{
    if (_PyBytes_Resize(&b->bytes, cap) < 0)
        return -1; /* b->bytes is NULL now */
    b->cap = cap;
    return 0;
}

static int
buf_put(Buf *b, const void *data, Py_ssize_t len)
{
    if (b->len + len > b->cap) {
        Py_ssize_t cap = b->cap * 2;
        if (cap < b->len + len)
            cap = b->len + len + 4096;
        if (buf_resize(b, cap) < 0)
            return -1;
    }
    memcpy(PyBytes_AS_STRING(b->bytes) + b->len, data, (size_t)len);
    b->len += len;
    return 0;
}

static int
add_count(PyObject *d, PyObject *key, PyObject *n)
{
    PyObject *old = PyDict_GetItemWithError(d, key);
    if (old == NULL) {
        if (PyErr_Occurred())
            return -1;
        return PyDict_SetItem(d, key, n);
    }
    PyObject *val = PyNumber_Add(old, n);
    if (val == NULL)
        return -1;
    int r = PyDict_SetItem(d, key, val);
    Py_DECREF(val);
    return r;
}

/* A new tuple of strs, ints and such tuples, untracked (see untrack_atomic), or NULL. */
static PyObject *
atomic_pair(PyObject *a, PyObject *b)
{
    PyObject *t = PyTuple_Pack(2, a, b);
    if (t != NULL)
        untrack_atomic(t);
    return t;
}

/* d[(a, b)] += n */
static int
add_pair(PyObject *d, PyObject *a, PyObject *b, PyObject *n)
{
    PyObject *key = atomic_pair(a, b);
    if (key == NULL)
        return -1;
    int r = add_count(d, key, n);
    Py_DECREF(key);
    return r;
}

/* One more statement for the URN token tok. */
static int
count(PyObject *occ, PyObject *tok)
{
    return add_count(occ, tok, one);
}

/* The output token for the term p[a..b) (a new reference; an empty bytes object means "not a
 * URN, write it as it is"), through the cache *tokens* or the miss function. *tok receives a
 * new reference to the token as a bytes object, or NULL when the term cannot be a URN. */

typedef struct {
    PyObject *info, *prefixes, *policy, *canonical_nss;
    PyTypeObject *verdict_type; /* urnld._kernel.TermVerdict, a tuple subclass; NULL: the
                                 * check pass, which keeps the spellings only */
    int ignore_components;
} Fast;

/* The term rule's verdict on the ASCII str text in the common case that canon_scan() takes: a
 * new urnld._kernel.TermVerdict (output=canonical, canonical, nid, None, None, None), made as
 * tuple.__new__ makes a tuple subclass instance, with *canonical a new reference to the
 * canonical form. NULL without an exception means "take the Python path". */
static PyObject *
fast_verdict(PyObject *text, Fast *f, PyObject **canonical_out)
{
    *canonical_out = NULL;
    Canon got;
    int r = canon_scan(text, f->prefixes, f->policy, &got);
    if (r <= 0)
        return NULL;
    /* The NID (lower case) of this prefix, shared by every term with it. */
    PyObject *prefix = got.prefix;
    PyObject *nid = PyDict_GetItemWithError(nid_of_prefix, prefix); /* borrowed */
    if (nid == NULL) {
        if (PyErr_Occurred())
            goto fail_canon;
        nid = PyUnicode_Substring(prefix, 4, PyUnicode_GET_LENGTH(prefix) - 1);
        if (nid == NULL)
            goto fail_canon;
        if (PyDict_GET_SIZE(nid_of_prefix) >= 4096)
            PyDict_Clear(nid_of_prefix);
        int rr = PyDict_SetItem(nid_of_prefix, prefix, nid);
        Py_DECREF(nid); /* the dict holds it */
        if (rr < 0)
            goto fail_canon;
    }
    PyObject *canonical = canon_finish(&got, 1);
    if (canonical == NULL)
        return NULL; /* an error, or NULL alone: the Python path */
    const unsigned char *c = PyUnicode_1BYTE_DATA(canonical);
    Py_ssize_t cn = PyUnicode_GET_LENGTH(canonical);
    if (f->ignore_components && (memchr(c, '?', (size_t)cn) || memchr(c, '#', (size_t)cn))) {
        Py_DECREF(canonical);
        return NULL;
    }
    PyObject *verdict = f->verdict_type->tp_alloc(f->verdict_type, 6);
    if (verdict == NULL) {
        Py_DECREF(canonical);
        return NULL;
    }
    Py_INCREF(canonical);
    PyTuple_SET_ITEM(verdict, 0, canonical);
    Py_INCREF(canonical);
    PyTuple_SET_ITEM(verdict, 1, canonical);
    Py_INCREF(nid);
    PyTuple_SET_ITEM(verdict, 2, nid);
    for (int k = 3; k < 6; k++) {
        Py_INCREF(Py_None);
        PyTuple_SET_ITEM(verdict, k, Py_None);
    }
    untrack_atomic(verdict);
    *canonical_out = canonical;
    return verdict;
fail_canon:
    Py_XDECREF(got.canonical);
    Py_XDECREF(got.nss);
    Py_XDECREF(got.tail);
    return NULL;
}

/* info[t] = (text, verdict, is_literal), then tokens[t] = out. Returns out (a new reference,
 * consumed from the caller), NULL on error. */
static PyObject *
fast_store(PyObject *t, PyObject *tokens, Fast *f, PyObject *text, PyObject *verdict,
           PyObject *is_literal, PyObject *out)
{
    PyObject *entry = PyTuple_Pack(3, text, verdict, is_literal);
    if (entry != NULL)
        untrack_atomic(entry);
    if (entry == NULL || PyDict_SetItem(f->info, t, entry) < 0 ||
        PyDict_SetItem(tokens, t, out) < 0) {
        Py_XDECREF(entry);
        Py_DECREF(out);
        return NULL;
    }
    Py_DECREF(entry);
    return out;
}

/* The check pass's miss work: info[t] = (text, None, is_literal), the term written as it is
 * (the check pass keeps no output, and asks the check rule about the spelling itself: a
 * verdict would be work thrown away). Consumes text; returns t (a new reference) or NULL. */
static PyObject *
spelling_only(PyObject *t, PyObject *tokens, Fast *f, PyObject *text, PyObject *is_literal)
{
    Py_INCREF(t);
    PyObject *out = fast_store(t, tokens, f, text, Py_None, is_literal, t);
    Py_DECREF(text);
    return out;
}

/* before + canonical + after as a bytes object (canonical: an ASCII str). */
static PyObject *
wrap_ascii(char before, PyObject *canonical, const char *after, Py_ssize_t after_len)
{
    Py_ssize_t cn = PyUnicode_GET_LENGTH(canonical);
    PyObject *out = PyBytes_FromStringAndSize(NULL, 1 + cn + after_len);
    if (out != NULL) {
        char *d = PyBytes_AS_STRING(out);
        d[0] = before;
        memcpy(d + 1, PyUnicode_1BYTE_DATA(canonical), (size_t)cn);
        memcpy(d + 1 + cn, after, (size_t)after_len);
    }
    return out;
}

/* The stream's IRI cache-miss work (_Pass.iri) for the common case: an ASCII IRI without
 * escapes that is a URN the accelerator's canonical() takes. Fills tokens/info as iri() does
 * and returns the output token (new reference); NULL without an exception means "take the
 * Python path". */
static PyObject *
fast_iri(PyObject *t, PyObject *tokens, Fast *f)
{
    const unsigned char *q = (const unsigned char *)PyBytes_AS_STRING(t);
    Py_ssize_t n = PyBytes_GET_SIZE(t);
    if (n < 2 || memchr(q, '\\', (size_t)n) != NULL) /* escapes: iri() decodes them */
        return NULL;
    if (!(n >= 5 && (q[2] | 0x20) == 'r' && (q[3] | 0x20) == 'n' && q[4] == ':')) {
        if (PyDict_SetItem(tokens, t, empty_bytes) < 0)
            return NULL;
        Py_INCREF(empty_bytes);
        return empty_bytes;
    }
    for (Py_ssize_t k = 1; k < n - 1; k++)
        if (q[k] >= 0x80)
            return NULL;
    PyObject *text = PyUnicode_FromKindAndData(PyUnicode_1BYTE_KIND, q + 1, n - 2);
    if (text == NULL)
        return NULL;
    if (f->verdict_type == NULL)
        return spelling_only(t, tokens, f, text, Py_False);
    PyObject *canonical, *out = NULL;
    PyObject *verdict = fast_verdict(text, f, &canonical);
    if (verdict != NULL) {
        Py_ssize_t cn = PyUnicode_GET_LENGTH(canonical);
        if (cn == n - 2 && memcmp(PyUnicode_1BYTE_DATA(canonical), q + 1, (size_t)cn) == 0) {
            Py_INCREF(t);
            out = t;
        }
        else
            out = wrap_ascii('<', canonical, ">", 1);
        if (out != NULL)
            out = fast_store(t, tokens, f, text, verdict, Py_False, out);
        Py_DECREF(verdict);
        Py_DECREF(canonical);
    }
    Py_DECREF(text);
    return out;
}

/* What follows the closing quote of a literal that may hold a URN: nothing, or the term
 * rule's URN literal datatypes (urnld._kernel.URN_LITERAL_DATATYPES, as
 * urnld.stream._grammar.literal_parts takes them). */
static const char XSD_STRING[] = "^^<http://www.w3.org/2001/XMLSchema#string>";
static const char XSD_ANYURI[] = "^^<http://www.w3.org/2001/XMLSchema#anyURI>";

/* The stream's literal cache-miss work (_Pass.literal) for the common case: a literal token
 * without escapes whose lexical form is ASCII. Fills tokens/info as literal() does and returns
 * the output token (new reference); NULL without an exception means "take the Python path". */
static PyObject *
fast_literal(PyObject *t, PyObject *tokens, Fast *f)
{
    const unsigned char *q = (const unsigned char *)PyBytes_AS_STRING(t);
    Py_ssize_t n = PyBytes_GET_SIZE(t);
    if (n < 2 || q[0] != '"' || memchr(q, '\\', (size_t)n) != NULL)
        return NULL; /* escapes: literal() decodes them */
    Py_ssize_t end = n - 1; /* the closing quote: the last '"' (no escaped one inside) */
    while (end > 0 && q[end] != '"')
        end--;
    if (end == 0)
        return NULL;
    const unsigned char *suffix = q + end + 1;
    Py_ssize_t suffix_len = n - end - 1;
    int urn_like = (suffix_len == 0 ||
                    (suffix_len == (Py_ssize_t)sizeof(XSD_STRING) - 1 &&
                     memcmp(suffix, XSD_STRING, (size_t)suffix_len) == 0) ||
                    (suffix_len == (Py_ssize_t)sizeof(XSD_ANYURI) - 1 &&
                     memcmp(suffix, XSD_ANYURI, (size_t)suffix_len) == 0));
    const unsigned char *body = q + 1;
    Py_ssize_t len = end - 1;
    /* is_urn_like(): "urn:" in any case (ASCII letters: c | 0x20 is the lower case) */
    urn_like = urn_like && len >= 4 && (body[0] | 0x20) == 'u' && (body[1] | 0x20) == 'r' &&
               (body[2] | 0x20) == 'n' && body[3] == ':';
    if (!urn_like) {
        if (PyDict_SetItem(tokens, t, empty_bytes) < 0)
            return NULL;
        Py_INCREF(empty_bytes);
        return empty_bytes;
    }
    for (Py_ssize_t k = 0; k < len; k++)
        if (body[k] >= 0x80)
            return NULL;
    PyObject *text = PyUnicode_FromKindAndData(PyUnicode_1BYTE_KIND, body, len);
    if (text == NULL)
        return NULL;
    if (f->verdict_type == NULL)
        return spelling_only(t, tokens, f, text, Py_True);
    PyObject *canonical, *out = NULL;
    PyObject *verdict = fast_verdict(text, f, &canonical);
    if (verdict != NULL) {
        Py_ssize_t cn = PyUnicode_GET_LENGTH(canonical);
        if (cn == len && memcmp(PyUnicode_1BYTE_DATA(canonical), body, (size_t)cn) == 0) {
            Py_INCREF(t);
            out = t;
        }
        else /* a canonical URN is ASCII without '"' or '\\': no escaping needed */
            out = wrap_ascii('"', canonical, (const char *)q + end, suffix_len + 1);
        if (out != NULL)
            out = fast_store(t, tokens, f, text, verdict, Py_True, out);
        Py_DECREF(verdict);
        Py_DECREF(canonical);
    }
    Py_DECREF(text);
    return out;
}

typedef PyObject *(*FastMiss)(PyObject *, PyObject *, Fast *);

static PyObject *
lookup(const unsigned char *p, Py_ssize_t a, Py_ssize_t b, PyObject *tokens, PyObject *miss,
       Fast *fast, FastMiss fast_miss, PyObject **tok)
{
    *tok = NULL;
    unsigned char c = p[a + 1];
    if (c != 'u' && c != 'U' && c != '\\') {
        Py_INCREF(empty_bytes);
        return empty_bytes;
    }
    PyObject *t = PyBytes_FromStringAndSize((const char *)p + a, b - a);
    if (t == NULL)
        return NULL;
    PyObject *v = PyDict_GetItemWithError(tokens, t);
    if (v != NULL)
        Py_INCREF(v);
    else {
        if (PyErr_Occurred()) {
            Py_DECREF(t);
            return NULL;
        }
        v = fast == NULL ? NULL : fast_miss(t, tokens, fast);
        if (v == NULL && !PyErr_Occurred())
            v = PyObject_CallOneArg(miss, t);
        if (v == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        if (!PyBytes_Check(v)) {
            PyErr_SetString(PyExc_TypeError, "a term function must return bytes");
            Py_DECREF(v);
            Py_DECREF(t);
            return NULL;
        }
    }
    *tok = t;
    return v;
}

static int
same(const unsigned char *p, Py_ssize_t a1, Py_ssize_t b1, Py_ssize_t a2, Py_ssize_t b2)
{
    return b1 - a1 == b2 - a2 && memcmp(p + a1, p + a2, (size_t)(b1 - a1)) == 0;
}

/* rewrite(chunk, tokens, occ, iri, literal, literals[, info, prefixes, policy_ok,
 *         ignore_components, verdict_type[, skip_predicate]]) -> (bytes, statements) | None
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
 * left as it is, uncounted. */
static PyObject *
sp_rewrite(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6 && nargs != 11 && nargs != 12) {
        PyErr_SetString(PyExc_TypeError, "rewrite() takes 6, 11 or 12 arguments");
        return NULL;
    }
    /* a literal object of a statement with this predicate is no URN term (urnld's spelling
     * records): NULL for none */
    PyObject *skip = nargs == 12 && args[11] != Py_None ? args[11] : NULL;
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
        fast_ctx.canonical_nss = str_canonical_nss;
        fast_ctx.ignore_components = ic;
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

/* ---- report flush ----------------------------------------------------------------------- */

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
        if (!PyTuple_Check(verdict) || PyTuple_GET_SIZE(verdict) < 4) {
            PyErr_SetString(PyExc_TypeError, "bad verdict");
            goto done;
        }
        PyObject *canonical = PyTuple_GET_ITEM(verdict, 0), *nid = PyTuple_GET_ITEM(verdict, 2),
                 *drop = PyTuple_GET_ITEM(verdict, 3);
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
 * is_literal). A spelling's check fields (codes, error, canonical, nid) come from the dict
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
        if (!PyTuple_Check(fields) || PyTuple_GET_SIZE(fields) != 4) {
            PyErr_SetString(PyExc_TypeError, "checked() must return a 4-tuple");
            goto done;
        }
        PyObject *codes = PyTuple_GET_ITEM(fields, 0), *error = PyTuple_GET_ITEM(fields, 1),
                 *canonical = PyTuple_GET_ITEM(fields, 2), *nid = PyTuple_GET_ITEM(fields, 3);
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

/* ---- module ----------------------------------------------------------------------------- */

static PyMethodDef methods[] = {
    {"is_urn", (PyCFunction)sp_is_urn, METH_O, "is_urn(text) -> bool | None"},
    {"canonical", (PyCFunction)(void (*)(void))sp_canonical, METH_FASTCALL,
     "canonical(text, prefixes, policy_ok) -> str | tuple | None"},
    {"canonical_str", (PyCFunction)(void (*)(void))sp_canonical_str, METH_FASTCALL,
     "canonical_str(text, prefixes, policy_ok) -> str | None"},
    {"rewrite", (PyCFunction)(void (*)(void))sp_rewrite, METH_FASTCALL,
     "rewrite(chunk, tokens, occ, iri, literal, literals[, info, prefixes, policy_ok, "
     "ignore_components, verdict_type[, skip_predicate]]) -> (bytes, int) | None"},
    {"canon_counts", (PyCFunction)(void (*)(void))sp_canon_counts, METH_FASTCALL,
     "canon_counts(occ, info, limit) -> tuple"},
    {"tds_schemes", (PyCFunction)sp_tds_schemes, METH_NOARGS,
     "tds_schemes() -> dict: the GS1 TDS table of the EPC check"},
    {"check_counts", (PyCFunction)(void (*)(void))sp_check_counts, METH_FASTCALL,
     "check_counts(occ, info, cache, checked, maps[, fast, cache_max]) -> tuple"},
    {"check_fields", (PyCFunction)(void (*)(void))sp_check_fields, METH_FASTCALL,
     "check_fields(text, prefixes, spec, options, code_ranks, severity_ranks) -> tuple | None"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "urnld._core._speedups",
    "urnld's optional compiled accelerator (private; see urnld._core._accel).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    init_tables();
    empty_bytes = PyBytes_FromStringAndSize(NULL, 0);
    one = PyLong_FromLong(1);
    str_canonical_nss = PyUnicode_InternFromString("canonical_nss");
    str_reason = PyUnicode_InternFromString("reason");
    str_native = PyUnicode_InternFromString("_urnld_native");
    if (str_reason == NULL || str_native == NULL)
        return NULL;
    nid_of_prefix = PyDict_New();
    if (nid_of_prefix == NULL)
        return NULL;
    const char *names[] = {"pct-lowercase", "pct-unreserved", "pct-nul", "pct-not-utf8",
                           "not-canonical", "nss-check-digit", "nss-invalid", "code", "severity",
                           "span", "message"};
    PyObject **slots[] = {&str_pct_lowercase, &str_pct_unreserved, &str_pct_nul,
                          &str_pct_not_utf8, &str_not_canonical, &str_nss_check_digit,
                          &str_nss_invalid, &str_code, &str_severity, &str_span,
                          &str_message};
    for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++)
        if ((*slots[k] = PyUnicode_InternFromString(names[k])) == NULL)
            return NULL;
    /* IssnRule's wording after the two characters (not ASCII: no PyUnicode_FromFormat). */
    issn_tail = PyUnicode_FromString(" (mod 11, weights 8\xe2\x80\xa6" "2; RFC 3044 \xc2\xa7" "5)");
    if (issn_tail == NULL)
        return NULL;
    if (empty_bytes == NULL || one == NULL || str_canonical_nss == NULL)
        return NULL;
    return PyModule_Create(&module);
}
