/* Part of _speedups.c (one translation unit), built only where libserd (pkg-config serd-0) was
 * found at build time (URNLD_HAVE_SERD). Twin of urnld.stream._serd: Turtle, TriG, N-Triples
 * and N-Quads read by serd's reader, each statement through the term rule of the line pass
 * (stream_miss.h: the same caches, verdicts and per-statement counts, each URN term looked up
 * as the N-Triples token pyoxigraph would have written for it, so the report is the report of
 * the statements as N-Triples by construction) and written by serd_write.h.
 *
 *   serd_pass(read, emit, directive, config, ctx) -> (statements, error or None)
 *
 * read(n) gives the input's next bytes (b"" at the end); emit(output, statements) takes each
 * chunk of output (None for a check) and the statements in it; directive(kind, name, iri)
 * says what an @prefix or @base of the input becomes in Turtle or TriG output (the namespace
 * to write, or None: leave it out). config is (syntax, out_syntax, base, skip, chunk):
 * serd's syntax numbers (out_syntax 0: a check, nothing written), the base IRI (None: none),
 * the predicate whose literals are no URN terms (bytes, N-Triples form, or None), statements
 * per chunk. ctx is the 12 arguments of rewrite() after the chunk (tokens, occ, iri, literal,
 * literals, info, prefixes, policy_ok, ignore_components, verdict_type, divert, check).
 * A document serd cannot read, or that breaks a bound, ends the pass with error =
 * (kind, message, line, column): kind "syntax" (serd's message), "depth" (brackets nested past
 * SERD_MAX_DEPTH), "token" (one token past SERD_MAX_TOKEN bytes), "labels" (blank-node labels
 * both "b1" and "B1" style: serd renames one into the other) or "graph" (a named graph in an
 * output syntax without graphs).
 *
 * Bounds on untrusted input: serd recurses once per nested "[" or "(", and holds the token
 * being read whole; the bytes are scanned before serd reads them (scan_block) for the bracket
 * depth, the bytes of tokens since the last statement, and the blank-node labels serd would
 * rename, so neither the C stack nor memory depends on the input. */
#ifndef URNLD_SPEEDUPS_SERD_H
#define URNLD_SPEEDUPS_SERD_H

/* The scanner and input (serd_scan.h), the terms and the term rule (serd_terms.h). */
#include "serd_terms.h"

/* ---- sinks ----------------------------------------------------------------------------- */

static int
sp_emit(SP *c)
{
    PyObject *data;
    if (c->out) {
        data = PyBytes_FromStringAndSize(c->obuf.p ? c->obuf.p : "", (Py_ssize_t)c->obuf.n);
        if (data == NULL) {
            c->failed = 1;
            return -1;
        }
    }
    else
        data = Py_NewRef(Py_None);
    PyObject *r = PyObject_CallFunction(c->emit, "On", data, c->chunk_statements);
    Py_DECREF(data);
    if (r == NULL) {
        c->failed = 1;
        return -1;
    }
    Py_DECREF(r);
    c->obuf.n = 0;
    c->emitted += c->chunk_statements;
    c->chunk_statements = 0;
    return 0;
}

/* What directive(kind, name, iri) makes of an @base or @prefix of the input, for Turtle or
 * TriG output: 1 and *r* the bytes to write (a new reference), 0 where nothing is written
 * (None, or no such output), -1 on an error (c->failed set). */
static int
sp_directive(SP *c, const char *kind, const char *name, Py_ssize_t name_n, const char *iri,
             Py_ssize_t iri_n, PyObject **r)
{
    *r = NULL;
    if (!((c->out == SERD_TURTLE || c->out == SERD_TRIG) && c->directive != Py_None))
        return 0;
    PyObject *v = PyObject_CallFunction(c->directive, "sy#y#", kind, name, name_n, iri, iri_n);
    if (v == NULL) {
        c->failed = 1;
        return -1;
    }
    if (v == Py_None) {
        Py_DECREF(v);
        return 0;
    }
    if (!PyBytes_Check(v)) {
        Py_DECREF(v);
        PyErr_SetString(PyExc_TypeError, "directive() must return bytes or None");
        c->failed = 1;
        return -1;
    }
    *r = v;
    return 1;
}

static SerdStatus
sp_base(void *handle, const SerdNode *uri)
{
    SP *c = handle;
    if (sp_stopped(c))
        return SERD_ERR_UNKNOWN;
    c->scan.token_bytes = 0;
    SBuf *t = &c->iri[4];
    if (node_iri(c, uri, t) < 0)
        return SERD_ERR_UNKNOWN;
    c->base.n = 0;
    if (sbuf_put(&c->base, t->p, t->n) < 0) {
        c->failed = 1;
        return SERD_ERR_UNKNOWN;
    }
    c->have_base = 1;
    PyObject *r;
    int k = sp_directive(c, "base", "", 0, c->base.p, (Py_ssize_t)c->base.n, &r);
    if (k < 0)
        return SERD_ERR_UNKNOWN;
    if (k > 0) {
        int bad = writer_base(&c->w, PyBytes_AS_STRING(r), (size_t)PyBytes_GET_SIZE(r)) < 0;
        Py_DECREF(r);
        if (bad) {
            c->failed = 1;
            return SERD_ERR_UNKNOWN;
        }
    }
    return SERD_SUCCESS;
}

static SerdStatus
sp_prefix(void *handle, const SerdNode *name, const SerdNode *uri)
{
    SP *c = handle;
    if (sp_stopped(c))
        return SERD_ERR_UNKNOWN;
    c->scan.token_bytes = 0;
    SBuf *t = &c->iri[4];
    if (node_iri(c, uri, t) < 0)
        return SERD_ERR_UNKNOWN;
    /* serd copies the node with its terminating NUL */
    if (sbuf_putc(t, '\0') < 0) {
        c->failed = 1;
        return SERD_ERR_UNKNOWN;
    }
    t->n--;
    SerdNode abs = {(const uint8_t *)t->p, t->n, t->n, 0, SERD_URI};
    if (serd_env_set_prefix(c->env, name, &abs) != SERD_SUCCESS) {
        sp_fail(c, "syntax", "cannot declare the prefix %.100s", (const char *)name->buf);
        return SERD_ERR_UNKNOWN;
    }
    PyObject *r;
    int k = sp_directive(c, "prefix", (const char *)name->buf, (Py_ssize_t)name->n_bytes, t->p,
                         (Py_ssize_t)t->n, &r);
    if (k < 0)
        return SERD_ERR_UNKNOWN;
    if (k > 0) {
        int bad = writer_prefix(&c->w, (const char *)name->buf, name->n_bytes,
                                PyBytes_AS_STRING(r), (size_t)PyBytes_GET_SIZE(r)) < 0;
        Py_DECREF(r);
        if (bad) {
            c->failed = 1;
            return SERD_ERR_UNKNOWN;
        }
    }
    return SERD_SUCCESS;
}

static SerdStatus
sp_statement(void *handle, SerdStatementFlags flags, const SerdNode *graph,
             const SerdNode *subject, const SerdNode *predicate, const SerdNode *object,
             const SerdNode *datatype, const SerdNode *lang)
{
    (void)flags;
    SP *c = handle;
    if (sp_stopped(c))
        return SERD_ERR_UNKNOWN;
    c->scan.token_bytes = 0;
    Term s, p, o, g = {T_NONE, NULL, 0, NULL, 0, NULL, 0};
    if (node_term(c, subject, 0, &s) < 0 || node_term(c, predicate, 1, &p) < 0)
        return SERD_ERR_UNKNOWN;
    if (object->type == SERD_LITERAL) {
        o.kind = T_LITERAL;
        o.s = (const char *)object->buf;
        o.n = object->n_bytes;
        o.dt = o.lang = NULL;
        o.dtn = o.langn = 0;
        if (check_utf8(c, o.s, o.n, "a literal") < 0)
            return SERD_ERR_UNKNOWN;
        if (lang != NULL && lang->buf != NULL) {
            /* in lower case, as pyoxigraph reads them (both paths write the same bytes) */
            c->lang.n = 0;
            if (sbuf_put(&c->lang, (const char *)lang->buf, lang->n_bytes) < 0) {
                c->failed = 1;
                return SERD_ERR_UNKNOWN;
            }
            for (size_t k = 0; k < c->lang.n; k++)
                if (c->lang.p[k] >= 'A' && c->lang.p[k] <= 'Z')
                    c->lang.p[k] = (char)(c->lang.p[k] + ('a' - 'A'));
            o.lang = c->lang.p;
            o.langn = c->lang.n;
        }
        else if (datatype != NULL && datatype->buf != NULL) {
            if (node_iri(c, datatype, &c->iri[4]) < 0)
                return SERD_ERR_UNKNOWN;
            /* xsd:string is the plain literal's datatype: written plain, as pyoxigraph does */
            if (!(c->iri[4].n == NS_XSD_LEN + 6 &&
                  memcmp(c->iri[4].p, NS_XSD_IRI "string", NS_XSD_LEN + 6) == 0)) {
                o.dt = c->iri[4].p;
                o.dtn = c->iri[4].n;
            }
        }
    }
    else if (node_term(c, object, 2, &o) < 0)
        return SERD_ERR_UNKNOWN;
    if (graph != NULL && graph->buf != NULL && node_term(c, graph, 3, &g) < 0)
        return SERD_ERR_UNKNOWN;

    PyObject *outs[4] = {NULL, NULL, NULL, NULL}, *toks[4] = {NULL, NULL, NULL, NULL};
    SerdStatus st = SERD_SUCCESS;
    if (c->rule) {
        /* the line pass's counting: each URN token once per statement */
        if (s.kind == T_IRI && rule_iri(c, &s, &outs[0], &toks[0]) < 0)
            goto fail;
        if (toks[0] != NULL && count(c->occ, toks[0]) < 0)
            goto fail;
        if (rule_iri(c, &p, &outs[1], &toks[1]) < 0)
            goto fail;
        if (toks[1] != NULL && !same_token(toks[1], toks[0]) && count(c->occ, toks[1]) < 0)
            goto fail;
        if (o.kind == T_IRI) {
            if (rule_iri(c, &o, &outs[2], &toks[2]) < 0)
                goto fail;
            if (toks[2] != NULL && !same_token(toks[2], toks[0]) &&
                !same_token(toks[2], toks[1]) && count(c->occ, toks[2]) < 0)
                goto fail;
        }
        else if (o.kind == T_LITERAL && c->literals && o.lang == NULL) {
            int skipped = c->skip != NULL &&
                          p.n + 2 == (size_t)PyBytes_GET_SIZE(c->skip) &&
                          MEMEQ(PyBytes_AS_STRING(c->skip) + 1, p.s, p.n);
            if (!skipped) {
                if (rule_literal(c, &o, &outs[2], &toks[2]) < 0)
                    goto fail;
                if (toks[2] != NULL && count(c->occ, toks[2]) < 0)
                    goto fail;
            }
        }
        if (g.kind == T_IRI) {
            if (rule_iri(c, &g, &outs[3], &toks[3]) < 0)
                goto fail;
            if (toks[3] != NULL && !same_token(toks[3], toks[0]) &&
                !same_token(toks[3], toks[1]) && !same_token(toks[3], toks[2]) &&
                count(c->occ, toks[3]) < 0)
                goto fail;
        }
    }
    if (c->out) {
        apply_output(&s, outs[0], toks[0]);
        apply_output(&p, outs[1], toks[1]);
        apply_output(&o, outs[2], toks[2]);
        apply_output(&g, outs[3], toks[3]);
        int r = writer_statement(&c->w, &g, &s, &p, &o);
        if (r < 0) {
            c->failed = 1;
            goto fail;
        }
        if (r > 0) {
            sp_fail(c, "graph", "holds statements in named graphs");
            goto fail;
        }
    }
    c->statements++;
    c->chunk_statements++;
    if (c->chunk_statements >= c->chunk_limit || c->obuf.n >= SERD_CHUNK_BYTES) {
        /* the tokens of this statement are released first: the emit may clear the caches */
        for (int k = 0; k < 4; k++) {
            Py_CLEAR(outs[k]);
            Py_CLEAR(toks[k]);
        }
        if (sp_emit(c) < 0)
            return SERD_ERR_UNKNOWN;
    }
    goto done;
fail:
    st = SERD_ERR_UNKNOWN;
done:
    for (int k = 0; k < 4; k++) {
        Py_XDECREF(outs[k]);
        Py_XDECREF(toks[k]);
    }
    return st;
}

/* ---- the pass -------------------------------------------------------------------------- */

static void
sp_free(SP *c)
{
    sbuf_free(&c->feed);
    if (c->env != NULL)
        serd_env_free(c->env);
    sbuf_free(&c->base);
    for (int k = 0; k < 5; k++)
        sbuf_free(&c->iri[k]);
    sbuf_free(&c->tok);
    sbuf_free(&c->lex);
    for (int k = 0; k < 4; k++)
        sbuf_free(&c->label[k]);
    sbuf_free(&c->lang);
    Py_CLEAR(c->labels);
    sbuf_free(&c->obuf);
    writer_free(&c->w);
}

/* serd_probe(read) -> (anonymous, both_label_styles, unfit): the whole Turtle or TriG document
 * read by the scanner alone (no serd, nothing kept): does it hold "[" or "(" outside strings,
 * IRIs and comments (anonymous blank nodes, collections: pyoxigraph's statement order for
 * those is its own), blank-node labels of both the "b1" and "B1" style, or (unfit) brackets
 * nested past SERD_MAX_DEPTH (which serd would recurse into; pyoxigraph reads them) or a NUL
 * byte (serd's end of input)? */
static PyObject *
sp_serd_probe(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (!nargs_are("serd_probe", nargs, 1))
        return NULL;
    SP c;
    memset(&c, 0, sizeof(c));
    c.fancy = 1;
    PyObject *size = PyLong_FromLong(SERD_BLOCK);
    if (size == NULL)
        return NULL;
    int ok = 1, deep = 0;
    while (ok && !deep && !(c.scan.seen_lower && c.scan.seen_upper)) {
        PyObject *b = PyObject_CallOneArg(args[0], size);
        if (b == NULL || !PyBytes_Check(b)) {
            if (b != NULL)
                PyErr_SetString(PyExc_TypeError, "read() must return bytes");
            Py_XDECREF(b);
            ok = 0;
            break;
        }
        Py_ssize_t n = PyBytes_GET_SIZE(b);
        if (n == 0) {
            Py_DECREF(b);
            break;
        }
        c.feed.n = 0;
        if (memchr(PyBytes_AS_STRING(b), 0, (size_t)n) != NULL)
            deep = 1;
        else if (scan_block(&c, (const unsigned char *)PyBytes_AS_STRING(b), (size_t)n, &c.feed) < 0) {
            if (PyErr_Occurred())
                ok = 0;
            else
                deep = 1;
        }
        Py_DECREF(b);
    }
    Py_DECREF(size);
    sbuf_free(&c.feed);
    if (!ok)
        return NULL;
    return Py_BuildValue("(OOO)", c.scan.anon ? Py_True : Py_False,
                         c.scan.seen_lower && c.scan.seen_upper ? Py_True : Py_False,
                         deep ? Py_True : Py_False);
}

static PyObject *
sp_serd_pass(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!nargs_are("serd_pass", nargs, 5))
        return NULL;
    PyObject *config = args[3], *ctx = args[4];
    if (!PyTuple_CheckExact(config) || PyTuple_GET_SIZE(config) != 7) {
        PyErr_SetString(PyExc_TypeError, "config must be a tuple of 7");
        return NULL;
    }
    if (ctx != Py_None && (!PyTuple_CheckExact(ctx) || PyTuple_GET_SIZE(ctx) != 12)) {
        PyErr_SetString(PyExc_TypeError, "ctx must be None or a tuple of 12");
        return NULL;
    }
    SP c;
    memset(&c, 0, sizeof(c));
    c.read = args[0];
    c.emit = args[1];
    c.directive = args[2];
    long syntax = PyLong_AsLong(PyTuple_GET_ITEM(config, 0));
    long out = PyLong_AsLong(PyTuple_GET_ITEM(config, 1));
    Py_ssize_t chunk = PyLong_AsSsize_t(PyTuple_GET_ITEM(config, 4));
    if (PyErr_Occurred())
        return NULL;
    if (syntax < SERD_TURTLE || syntax > SERD_TRIG || out < 0 || out > SERD_TRIG || chunk < 1) {
        PyErr_SetString(PyExc_ValueError, "bad syntax or chunk");
        return NULL;
    }
    c.syntax = (SerdSyntax)syntax;
    c.fancy = syntax == SERD_TURTLE || syntax == SERD_TRIG;
    c.out = (int)out;
    c.chunk_limit = chunk;
    PyObject *base = PyTuple_GET_ITEM(config, 2), *skip = PyTuple_GET_ITEM(config, 3);
    if (skip != Py_None && !PyBytes_CheckExact(skip)) {
        PyErr_SetString(PyExc_TypeError, "skip must be bytes or None");
        return NULL;
    }
    c.skip = skip == Py_None ? NULL : skip;
    PyObject *relabel = PyTuple_GET_ITEM(config, 5), *header = PyTuple_GET_ITEM(config, 6);
    if ((relabel != Py_None && !PyCallable_Check(relabel)) ||
        (header != Py_None && !PyTuple_CheckExact(header))) {
        PyErr_SetString(PyExc_TypeError, "bad relabel or prefixes");
        return NULL;
    }
    c.w.out = &c.obuf;
    c.w.syntax = c.out;
    if (relabel != Py_None) {
        c.relabel = relabel;
        c.labels = PyDict_New();
        if (c.labels == NULL)
            return NULL;
    }
    c.env = serd_env_new(NULL);
    if (c.env == NULL) {
        Py_CLEAR(c.labels);
        return PyErr_NoMemory();
    }
    /* the output's prefixes, written first and used throughout (as pyoxigraph's writer) */
    if (header != Py_None)
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(header); k++) {
            PyObject *pair = PyTuple_GET_ITEM(header, k);
            if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2 ||
                !PyBytes_CheckExact(PyTuple_GET_ITEM(pair, 0)) ||
                !PyBytes_CheckExact(PyTuple_GET_ITEM(pair, 1))) {
                PyErr_SetString(PyExc_TypeError, "prefixes must be (name, namespace) bytes");
                sp_free(&c);
                return NULL;
            }
            PyObject *name = PyTuple_GET_ITEM(pair, 0), *ns = PyTuple_GET_ITEM(pair, 1);
            if (writer_prefix(&c.w, PyBytes_AS_STRING(name), (size_t)PyBytes_GET_SIZE(name),
                              PyBytes_AS_STRING(ns), (size_t)PyBytes_GET_SIZE(ns)) < 0) {
                sp_free(&c);
                return NULL;
            }
        }
    if (base != Py_None) {
        Py_ssize_t n;
        const char *b = PyUnicode_AsUTF8AndSize(base, &n);
        if (b == NULL || sbuf_put(&c.base, b, (size_t)n) < 0) {
            sp_free(&c);
            return NULL;
        }
        c.have_base = 1;
    }
    if (ctx != Py_None) {
        PyObject *const *a = &PyTuple_GET_ITEM(ctx, 0);
        c.use_fast = a[5] != Py_None;
        int literals = PyObject_IsTrue(a[4]), ic = c.use_fast ? PyObject_IsTrue(a[8]) : 0;
        if (literals < 0 || ic < 0) {
            sp_free(&c);
            return NULL;
        }
        if (!PyDict_CheckExact(a[0]) || !PyDict_CheckExact(a[1]) ||
            (c.use_fast && (!PyDict_CheckExact(a[5]) || !PyDict_CheckExact(a[6]))) ||
            (a[9] != Py_None && (!PyType_Check(a[9]) ||
                                 !PyType_IsSubtype((PyTypeObject *)a[9], &PyTuple_Type))) ||
            (a[10] != Py_None && !PyTuple_CheckExact(a[10])) ||
            (a[11] != Py_None && (!PyTuple_CheckExact(a[11]) || PyTuple_GET_SIZE(a[11]) != 5))) {
            PyErr_SetString(PyExc_TypeError, "bad ctx");
            sp_free(&c);
            return NULL;
        }
        if (a[10] != Py_None)
            for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(a[10]); k++) {
                PyObject *h = PyTuple_GET_ITEM(a[10], k);
                if (!PyBytes_CheckExact(h) || PyBytes_GET_SIZE(h) == 0) {
                    PyErr_SetString(PyExc_TypeError, "bad divert");
                    sp_free(&c);
                    return NULL;
                }
            }
        c.rule = 1;
        c.tokens = a[0];
        c.occ = a[1];
        c.iri_fn = a[2];
        c.literal_fn = a[3];
        c.literals = literals;
        c.fast.info = a[5];
        c.fast.prefixes = a[6];
        c.fast.policy = a[7];
        c.fast.ignore_components = ic;
        c.fast.verdict_type = a[9] == Py_None ? NULL : (PyTypeObject *)a[9];
        c.fast.divert = a[10] == Py_None ? NULL : a[10];
        c.fast.check = a[11] == Py_None || c.fast.verdict_type != NULL
                           ? NULL
                           : &PyTuple_GET_ITEM(a[11], 0);
        c.fast.canonical_nss = str_canonical_nss;
    }
    SerdReader *reader = serd_reader_new(c.syntax, &c, NULL, sp_base, sp_prefix, sp_statement,
                                         NULL);
    if (reader == NULL) {
        sp_free(&c);
        return PyErr_NoMemory();
    }
    serd_reader_set_strict(reader, true);
    serd_reader_set_error_sink(reader, sp_error_sink, &c);
    SerdStatus st = serd_reader_read_source(reader, sp_read, sp_read_error, &c,
                                            (const uint8_t *)"input", SERD_PAGE);
    serd_reader_free(reader);
    if (!sp_stopped(&c) && st > SERD_FAILURE)
        sp_fail(&c, "syntax", "%s", (const char *)serd_strerror(st));
    /* what serd left unread is read too: the caller's reader (the URN-base search) must see
     * every byte, and a document that ends in a bound must fail on it */
    while (!sp_stopped(&c) && !c.eof && next_block(&c) > 0)
        ;
    if (!sp_stopped(&c) && c.out && writer_close(&c.w) < 0)
        c.failed = 1;
    if (!sp_stopped(&c) && (c.chunk_statements > 0 || c.obuf.n > 0))
        sp_emit(&c);
    PyObject *result = NULL;
    if (!c.failed) {
        PyObject *error = Py_None;
        Py_INCREF(error);
        if (c.error_kind != NULL) {
            Py_DECREF(error);
            error = Py_BuildValue("(syII)", c.error_kind, c.error, c.line, c.col);
        }
        if (error != NULL) {
            result = Py_BuildValue("(nN)", c.statements, error);
        }
    }
    sp_free(&c);
    return result;
}

#endif /* URNLD_SPEEDUPS_SERD_H */
