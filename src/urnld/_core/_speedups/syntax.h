/* Part of _speedups.c (one translation unit). Twin of urnld._core._parser and _urn: RFC 8141
 * syntax of an ASCII string and its canonical form (the NID's rule applied through rules.h).
 *
 *   is_urn(text), canonical(text, prefixes, policy_ok), canonical_str(...) */
#ifndef URNLD_SPEEDUPS_SYNTAX_H
#define URNLD_SPEEDUPS_SYNTAX_H

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

/* rule.canonical_nss(nss): the native copy or the Python method (rules.h). */
static PyObject *call_canonical_nss(PyObject *rule, PyObject *nss);

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

#endif /* URNLD_SPEEDUPS_SYNTAX_H */
