/* Part of _speedups.c (one translation unit): what every other part uses. The module's
 * interned strings and constants, created at import (PyInit__speedups), and small helpers
 * that belong to no Python twin. */
#ifndef URNLD_SPEEDUPS_COMMON_H
#define URNLD_SPEEDUPS_COMMON_H

static PyObject *empty_bytes;       /* b"": "not a URN" */
static PyObject *one;
static PyObject *str_canonical_nss; /* "canonical_nss" */
static PyObject *str_reason;        /* "reason" */
static PyObject *str_native;        /* "_urnld_native": see native_kind() */
static PyObject *str_format;        /* "format": the message templates are str.format's */
static PyObject *str_code, *str_severity, *str_span, *str_message; /* Finding attributes */
static PyObject *nid_of_prefix;     /* "urn:nid:" -> "nid", shared by the verdicts */
static PyObject *code_str[CODE_COUNT]; /* CODE_NAMES, interned */

#define DIGIT(ch) ((ch) >= '0' && (ch) <= '9')

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

/* Whether a METH_FASTCALL function got its *want* arguments (else a TypeError is set). */
static int
nargs_are(const char *name, Py_ssize_t nargs, Py_ssize_t want)
{
    if (nargs == want)
        return 1;
    PyErr_Format(PyExc_TypeError, "%s() takes %zd arguments", name, want);
    return 0;
}


/* The value of a hex digit (0-9, A-F, a-f). */
static int
hex_value(unsigned char c)
{
    return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

#endif /* URNLD_SPEEDUPS_COMMON_H */
