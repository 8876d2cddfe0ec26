/* Part of _speedups.c (one translation unit). Twin of urnld._core._parser (diagnose, _explain
 * in RFC 8141 mode): where an ASCII string that is not a URN goes wrong first, and why, in the
 * parser's words (its reasons, cut at their arguments, come from _generated.h).
 *
 * Used by describe_lines.h for the lines that do not parse; a draft-era bare '?query' that '?='
 * would make a URN (whose reason names the fix) and anything the scan does not find are left
 * to the Python. */
#ifndef URNLD_SPEEDUPS_DIAGNOSE_H
#define URNLD_SPEEDUPS_DIAGNOSE_H

/* The pieces of a reason with n - 1 arguments, the arguments written by the caller between. */
#define SX_PUT(m, msg) dbuf_puts((m), (msg))

/* repr() of one ASCII character, as Python writes it ('\t', '\x00', '"', ...). */
static int
sx_repr(DBuf *m, unsigned char c)
{
    char esc[8];
    if (c >= 0x20 && c < 0x7f)
        return dbuf_repr(m, &c, 1);
    if (c == '\t' || c == '\n' || c == '\r')
        snprintf(esc, sizeof esc, "'\\%c'", c == '\t' ? 't' : c == '\n' ? 'n' : 'r');
    else
        snprintf(esc, sizeof esc, "'\\x%02x'", (unsigned)c);
    return dbuf_puts(m, esc);
}

/* _parser._describe(c) + " (in the {what})", or the bad-percent reason (_parser._stop). */
static int
sx_stop(DBuf *m, const unsigned char *s, Py_ssize_t i, int part)
{
    unsigned char c = s[i];
    char code[8];
    if (c == '%')
        return SX_PUT(m, MSG_SX_BAD_PCT[0]);
    if (c == ' ')
        return SX_PUT(m, MSG_SX_SPACE_IN[0]) || SX_PUT(m, SX_PARTS[part]) ||
                       SX_PUT(m, MSG_SX_SPACE_IN[1])
                   ? -1
                   : 0;
    if (c < 0x20 || c == 0x7f) {
        snprintf(code, sizeof code, "U+%04X", (unsigned)c);
        return SX_PUT(m, MSG_SX_CONTROL_IN[0]) || SX_PUT(m, code) ||
                       SX_PUT(m, MSG_SX_CONTROL_IN[1]) || SX_PUT(m, SX_PARTS[part]) ||
                       SX_PUT(m, MSG_SX_CONTROL_IN[2])
                   ? -1
                   : 0;
    }
    snprintf(code, sizeof code, "%02X", (unsigned)c);
    return SX_PUT(m, MSG_SX_CHAR_IN[0]) || dbuf_repr(m, &c, 1) || SX_PUT(m, MSG_SX_CHAR_IN[1]) ||
                   SX_PUT(m, code) || SX_PUT(m, MSG_SX_CHAR_IN[2]) ||
                   SX_PUT(m, SX_PARTS[part]) || SX_PUT(m, MSG_SX_CHAR_IN[3])
               ? -1
               : 0;
}

/* Whether s[i..] starts with a valid %XX. */
static int
sx_pct(const unsigned char *s, Py_ssize_t i, Py_ssize_t n)
{
    return i + 2 < n && HEX[s[i + 1]] && HEX[s[i + 2]];
}

/* _parser._first_char: 1 a fault at *at (reason in m), 0 none, -1 error. */
static int
sx_first(DBuf *m, const unsigned char *s, Py_ssize_t i, Py_ssize_t n, int part, Py_ssize_t *at)
{
    *at = i;
    if (i >= n || (s[i] == '?' && i + 1 < n && s[i + 1] == '=') || s[i] == '#')
        return SX_PUT(m, MSG_SX_EMPTY[0]) || SX_PUT(m, SX_PARTS[part]) ||
                       SX_PUT(m, MSG_SX_EMPTY[1])
                   ? -1
                   : 1;
    unsigned char c = s[i];
    if (c == '/' || c == '?')
        return SX_PUT(m, MSG_SX_START[0]) || SX_PUT(m, SX_PARTS[part]) ||
                       SX_PUT(m, MSG_SX_START[1]) || dbuf_repr(m, &c, 1) ||
                       SX_PUT(m, MSG_SX_START[2])
                   ? -1
                   : 1;
    if (c == '%')
        return sx_pct(s, i, n) ? 0 : SX_PUT(m, MSG_SX_BAD_PCT[0]) ? -1 : 1;
    if (!PCHAR[c])
        return sx_stop(m, s, i, part) ? -1 : 1;
    return 0;
}

/* The regex runs of _parser: pchar / "/" / pct-encoded, and '?' where the part takes it
 * (q, f: any; r: not before '='). The index where the run stops. */
static Py_ssize_t
sx_run(const unsigned char *s, Py_ssize_t i, Py_ssize_t n, enum part part)
{
    while (i < n) {
        unsigned char c = s[i];
        if (PCHAR[c] || c == '/')
            i++;
        else if (c == '%' && sx_pct(s, i, n))
            i += 3;
        else if (c == '?' && (part == Q_COMP || part == F_COMP ||
                              (part == R_COMP && !(i + 1 < n && s[i + 1] == '='))))
            i++;
        else
            break;
    }
    return i;
}

/* Whether s[0..n) with '=' put after s[i] (a bare '?' at i) is a URN: the draft-era query
 * whose reason the Python writes. -1 error. */
static int
sx_draft_query(const unsigned char *s, Py_ssize_t n, Py_ssize_t i)
{
    unsigned char *fixed = PyMem_Malloc((size_t)n + 1);
    Py_ssize_t nid_end, nss_end;
    if (fixed == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(fixed, s, (size_t)i + 1);
    fixed[i + 1] = '=';
    memcpy(fixed + i + 2, s + i + 1, (size_t)(n - i - 1));
    int r = scan_urn(fixed, n + 1, &nid_end, &nss_end);
    PyMem_Free(fixed);
    return r;
}

#define SX_FAULT(pos, ...) \
    do { \
        *at = (pos); \
        return (__VA_ARGS__) ? -1 : 1; \
    } while (0)

/* _parser.diagnose(text, "rfc8141") and _explain for the ASCII s[0..n), which is not a URN:
 * the first fault's position in *at and the reason in m. 1 found, 0 left to the Python, -1
 * error. */
static int
diagnose_ascii(DBuf *m, const unsigned char *s, Py_ssize_t n, Py_ssize_t *at)
{
    static const char urn[] = "urn:";
    int r;
    m->n = 0;
    for (Py_ssize_t i = 0; i < 4; i++) { /* _check_prefix */
        if (i >= n)
            SX_FAULT(i, SX_PUT(m, MSG_SX_PREFIX_EARLY[0]));
        unsigned char c = s[i] >= 'A' && s[i] <= 'Z' ? (unsigned char)(s[i] | 0x20) : s[i];
        if (c != (unsigned char)urn[i])
            SX_FAULT(i, SX_PUT(m, MSG_SX_PREFIX[0]));
    }
    /* _scan_nid (not legacy) */
    Py_ssize_t end = 4;
    while (end < n && LDH[s[end]])
        end++;
    Py_ssize_t len = end - 4;
    if (len > 0 && s[4] == '-')
        SX_FAULT(4, SX_PUT(m, MSG_SX_NID_DASH_START[0]));
    if (len > 32)
        SX_FAULT(4 + 32, SX_PUT(m, MSG_SX_NID_LONG[0]));
    if (end < n && s[end] != ':') {
        unsigned char c = s[end];
        if (len == 0)
            SX_FAULT(end, SX_PUT(m, MSG_SX_NID_FIRST[0]) || sx_repr(m, c) ||
                              SX_PUT(m, MSG_SX_NID_FIRST[1]));
        SX_FAULT(end, SX_PUT(m, MSG_SX_NID_CHAR[0]) || sx_repr(m, c) ||
                          SX_PUT(m, MSG_SX_NID_CHAR[1]));
    }
    if (len == 0)
        SX_FAULT(end, SX_PUT(m, MSG_SX_NID_MISSING[0]));
    if (end == n)
        SX_FAULT(end, SX_PUT(m, MSG_SX_NID_NO_NSS[0]));
    if (s[end - 1] == '-')
        SX_FAULT(end - 1, SX_PUT(m, MSG_SX_NID_DASH_END[0]));
    if (len < 2)
        SX_FAULT(4, SX_PUT(m, MSG_SX_NID_SHORT[0]));
    /* _diagnose_rfc8141 after the NID */
    Py_ssize_t i = end + 1;
    if ((r = sx_first(m, s, i, n, NSS, at)) != 0)
        return r;
    i = sx_run(s, i, n, NSS);
    if (i < n && s[i] == '?') {
        if (i + 1 < n && s[i + 1] == '+') {
            i += 2;
            if ((r = sx_first(m, s, i, n, R_COMP, at)) != 0)
                return r;
            i = sx_run(s, i, n, R_COMP);
            if (i < n && s[i] != '?' && s[i] != '#')
                SX_FAULT(i, sx_stop(m, s, i, R_COMP));
        }
        if (i < n && s[i] == '?') {
            if (!(i + 1 < n && s[i + 1] == '=')) {
                /* A draft-era query that '?=' makes a URN: its reason (_explain) is the
                 * Python's. */
                if ((r = sx_draft_query(s, n, i)) != 0)
                    return r < 0 ? -1 : 0;
                SX_FAULT(i, SX_PUT(m, MSG_SX_QMARK[0]));
            }
            i += 2;
            if ((r = sx_first(m, s, i, n, Q_COMP, at)) != 0)
                return r;
            i = sx_run(s, i, n, Q_COMP);
            if (i < n && s[i] != '#')
                SX_FAULT(i, sx_stop(m, s, i, Q_COMP));
        }
    }
    if (i < n && s[i] == '#') {
        i = sx_run(s, i + 1, n, F_COMP);
        if (i < n) {
            if (s[i] == '#')
                SX_FAULT(i, SX_PUT(m, MSG_SX_HASH_TWICE[0]));
            SX_FAULT(i, sx_stop(m, s, i, F_COMP));
        }
    }
    if (i < n)
        SX_FAULT(i, sx_stop(m, s, i, NSS));
    return 0; /* the scan accepts what the grammar refused: the Python says so */
}

#undef SX_FAULT
#undef SX_PUT

#endif /* URNLD_SPEEDUPS_DIAGNOSE_H */
