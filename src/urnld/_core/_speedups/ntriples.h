/* Part of _speedups.c (one translation unit). Twin of urnld.stream._grammar: the N-Triples
 * terms of a statement line in the usual layout ("S P O [G] .\n", single spaces). The byte
 * classes (IRI_BAD, PN_START, PN) are generated from _grammar's (_generated.h). */
#ifndef URNLD_SPEEDUPS_NTRIPLES_H
#define URNLD_SPEEDUPS_NTRIPLES_H

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
    if (!PN_START[p[i + 2]])
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

#endif /* URNLD_SPEEDUPS_NTRIPLES_H */
