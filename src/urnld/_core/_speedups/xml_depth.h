/* xml_depth.h — twin of urnld.stream._sniff._XmlDepth: the element depth of RDF/XML read block
 * by block, so a document nested deeper than pyoxigraph can read in reasonable time is refused
 * before it parses it (its time grows faster than the square of the depth).
 *
 * A byte automaton of XML's lexical structure: text, start tags (quoted attribute values may
 * hold '>' and '/'), end tags, empty-element tags, comments, CDATA sections, processing
 * instructions and other declarations. Its state is one small int, so a tag or a comment cut
 * by a block end goes on in the next block. The states mirror _XmlDepth's modes one to one.
 */

enum {
    XD_TEXT, XD_LT, XD_END, XD_STAG, XD_STAG_SLASH, XD_DQ, XD_SQ, XD_BANG, XD_BANG_DASH,
    XD_CD0, /* XD_CD0 + k: "<![" and k characters of "CDATA[" seen (k < 6) */
    XD_CDATA = XD_CD0 + 6, XD_CDATA_B1, XD_CDATA_B2, XD_COMM, XD_COMM_D1, XD_COMM_D2,
    XD_PI, XD_PI_Q, XD_DECL, XD_STATES
};

/* Past the next ch at or after *p: 1, or 0 (and *p at end) when the block has none. */
static inline int
xd_skip(const unsigned char **p, const unsigned char *end, unsigned char ch)
{
    const unsigned char *at = memchr(*p, ch, (size_t)(end - *p));
    *p = at == NULL ? end : at + 1;
    return at != NULL;
}

/* xml_depth(block, state, depth, limit) -> (state, depth), depth -1 past limit */
static PyObject *
sp_xml_depth(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (!nargs_are("xml_depth", nargs, 4))
        return NULL;
    if (!PyBytes_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "xml_depth() needs bytes");
        return NULL;
    }
    long state = PyLong_AsLong(args[1]);
    long long depth = PyLong_AsLongLong(args[2]), limit = PyLong_AsLongLong(args[3]);
    if (PyErr_Occurred())
        return NULL;
    if (state < 0 || state >= XD_STATES) {
        PyErr_SetString(PyExc_ValueError, "xml_depth(): bad state");
        return NULL;
    }
    const unsigned char *p = (const unsigned char *)PyBytes_AS_STRING(args[0]);
    const unsigned char *end = p + PyBytes_GET_SIZE(args[0]);
    static const char cdata[] = "CDATA[";
    while (p < end) {
        unsigned char c = *p;
        switch (state) {
        case XD_TEXT:
            if (xd_skip(&p, end, '<'))
                state = XD_LT;
            continue;
        case XD_LT:
            if (c == '/')
                state = XD_END;
            else if (c == '!')
                state = XD_BANG;
            else if (c == '?')
                state = XD_PI;
            else {
                state = XD_STAG;
                continue; /* the character belongs to the tag: read it there */
            }
            break;
        case XD_END:
            if (xd_skip(&p, end, '>')) {
                if (depth > 0)
                    depth--;
                state = XD_TEXT;
            }
            continue;
        case XD_STAG:
        case XD_STAG_SLASH:
            if (c == '>') {
                /* An empty-element tag is one level deeper too, as expat counts it. */
                if (depth + 1 > limit)
                    return Py_BuildValue("(li)", XD_TEXT, -1);
                if (state == XD_STAG)
                    depth++;
                state = XD_TEXT;
            }
            else if (c == '"')
                state = XD_DQ;
            else if (c == '\'')
                state = XD_SQ;
            else
                state = c == '/' ? XD_STAG_SLASH : XD_STAG;
            break;
        case XD_DQ:
        case XD_SQ:
            if (xd_skip(&p, end, state == XD_DQ ? '"' : '\''))
                state = XD_STAG;
            continue;
        case XD_BANG:
            if (c == '-')
                state = XD_BANG_DASH;
            else if (c == '[')
                state = XD_CD0;
            else {
                state = XD_DECL;
                continue;
            }
            break;
        case XD_BANG_DASH:
            if (c == '-')
                state = XD_COMM;
            else {
                state = XD_DECL;
                continue;
            }
            break;
        case XD_CDATA:
            if (xd_skip(&p, end, ']'))
                state = XD_CDATA_B1;
            continue;
        case XD_CDATA_B1:
            state = c == ']' ? XD_CDATA_B2 : XD_CDATA;
            if (state == XD_CDATA)
                continue;
            break;
        case XD_CDATA_B2:
            if (c == '>')
                state = XD_TEXT;
            else if (c != ']') {
                state = XD_CDATA;
                continue;
            }
            break;
        case XD_COMM:
            if (xd_skip(&p, end, '-'))
                state = XD_COMM_D1;
            continue;
        case XD_COMM_D1:
            state = c == '-' ? XD_COMM_D2 : XD_COMM;
            if (state == XD_COMM)
                continue;
            break;
        case XD_COMM_D2:
            if (c == '>')
                state = XD_TEXT;
            else if (c != '-') {
                state = XD_COMM;
                continue;
            }
            break;
        case XD_PI:
            if (xd_skip(&p, end, '?'))
                state = XD_PI_Q;
            continue;
        case XD_PI_Q:
            if (c == '>')
                state = XD_TEXT;
            else if (c != '?') {
                state = XD_PI;
                continue;
            }
            break;
        case XD_DECL:
            if (xd_skip(&p, end, '>'))
                state = XD_TEXT;
            continue;
        default: /* XD_CD0 .. XD_CD0 + 5: matching "CDATA[" */
            if (c == (unsigned char)cdata[state - XD_CD0])
                state = state - XD_CD0 == 5 ? XD_CDATA : state + 1;
            else {
                state = XD_DECL;
                continue;
            }
            break;
        }
        p++;
    }
    return Py_BuildValue("(lL)", state, depth);
}
