"""Compiling a SHACL shapes graph into a validation plan: set-at-a-time SPARQL queries.

Each shape with targets (a *root*) becomes a list of :class:`Step`\\ s, one per constraint it
and the shapes it reaches through ``sh:property`` carry. A step is one SELECT over the whole
data graph: the focus nodes (the targets: ``sh:targetNode``, ``sh:targetClass`` with
``rdfs:subClassOf*``, implicit class targets, ``sh:targetSubjectsOf``, ``sh:targetObjectsOf``)
joined with the value nodes (the path, as a SPARQL property path) and filtered to the value
nodes that break the constraint, so a store answers with the results only. Shapes a constraint
refers to (``sh:node``, ``sh:not``, ``sh:and``, ``sh:or``, ``sh:xone``, qualified value
shapes) are compiled into one SPARQL boolean expression, "this node conforms", inlined where
they are used.

urnld's own components (``urnsh:nid`` … ``urnsh:uniqueByEquivalence``, when declared exactly as
``shapes/urn.ttl`` declares them) become steps that ask for the (focus node, value) pairs and
judge each *distinct* value once with the URN core (:mod:`._rules`), and uniqueness becomes a
grouping of the path's values by their canonical form.

Anything else the plan does not compile — ``sh:sparql``, SHACL-AF targets, other
SPARQL-based components, a shape that refers to itself, a blank node named in a constraint,
urnld's components inside a referenced shape — raises :class:`~._terms.NotCompiled` for that
root, which then runs on pyshacl (:mod:`._plan` says which).

>>> from rdflib import Graph
>>> shapes = Graph().parse(format="turtle", data='''
...   @prefix sh: <http://www.w3.org/ns/shacl#> . @prefix ex: <http://example.org/> .
...   ex:S a sh:NodeShape ; sh:targetClass ex:C ;
...        sh:property [ sh:path ex:p ; sh:minCount 1 ; sh:datatype ex:D ] .''')
>>> roots, failed = compile_shapes(shapes, Plain())
>>> [s.component.split("#")[1] for s in roots[0].steps]
['DatatypeConstraintComponent', 'MinCountConstraintComponent']
>>> failed
{}
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

from rdflib import RDF, RDFS, Graph, Literal, URIRef
from rdflib.collection import Collection
from rdflib.namespace import SH
from rdflib.term import BNode, Node

from ._rules import RULES, URNSH
from ._signature import is_shipped
from ._terms import NotCompiled, Plain, sparql_string

__all__ = ["Focus", "Root", "Step", "compile_shapes", "query_key", "roots_of"]

_TARGETS = (SH.targetNode, SH.targetClass, SH.targetSubjectsOf, SH.targetObjectsOf)
_TYPE_PATH = f"<{RDF.type}>/<{RDFS.subClassOf}>*"
_XSD = "http://www.w3.org/2001/XMLSchema#"
# XSD types whose ill-formed literals SPARQL's constructor functions refuse (an error): the
# datatype constraint asks them whether a literal is well-formed.
_CASTABLE = frozenset(
    _XSD + t
    for t in ("integer", "decimal", "double", "float", "boolean", "dateTime", "date", "time",
              "duration", "dayTimeDuration", "yearMonthDuration")
)
# The types derived from xsd:integer by range (XSD 1.1 Part 2 §3.4): lexical form and bounds.
_INTEGER_RANGES: dict[str, tuple[int | None, int | None]] = {
    _XSD + "long": (-(2**63), 2**63 - 1), _XSD + "int": (-(2**31), 2**31 - 1),
    _XSD + "short": (-(2**15), 2**15 - 1), _XSD + "byte": (-128, 127),
    _XSD + "unsignedLong": (0, 2**64 - 1), _XSD + "unsignedInt": (0, 2**32 - 1),
    _XSD + "unsignedShort": (0, 2**16 - 1), _XSD + "unsignedByte": (0, 255),
    _XSD + "nonNegativeInteger": (0, None), _XSD + "positiveInteger": (1, None),
    _XSD + "nonPositiveInteger": (None, 0), _XSD + "negativeInteger": (None, -1),
}
# The parameters of SHACL Core, and what else a shape may say (names, documentation).
_CORE = {
    SH["class"], SH.datatype, SH.nodeKind, SH.minCount, SH.maxCount, SH.minExclusive,
    SH.minInclusive, SH.maxExclusive, SH.maxInclusive, SH.minLength, SH.maxLength, SH.pattern,
    SH.flags, SH.languageIn, SH.uniqueLang, SH.equals, SH.disjoint, SH.lessThan,
    SH.lessThanOrEquals, SH["not"], SH["and"], SH["or"], SH.xone, SH.node, SH.property,
    SH.qualifiedValueShape, SH.qualifiedMinCount, SH.qualifiedMaxCount,
    SH.qualifiedValueShapesDisjoint, SH.closed, SH.ignoredProperties, SH.hasValue, SH["in"],
}
_INERT = {
    RDF.type, SH.path, SH.severity, SH.message, SH.deactivated, SH.name, SH.description,
    SH.order, SH.group, SH.defaultValue, *_TARGETS, RDFS.label, RDFS.comment,
    RDFS.subClassOf, RDFS.seeAlso, RDFS.isDefinedBy,
}
_URN_PARAMS = {URIRef(str(URNSH) + r.param): iri for iri, r in RULES.items()}
_URN_OPTIONAL = {URNSH.onlyURNs, URNSH.nidFindings}
_NODE_KINDS: dict[URIRef, str] = {
    SH.IRI: "isIRI({v})",
    SH.BlankNode: "isBlank({v})",
    SH.Literal: "isLiteral({v})",
    SH.BlankNodeOrIRI: "(isBlank({v}) || isIRI({v}))",
    SH.BlankNodeOrLiteral: "(isBlank({v}) || isLiteral({v}))",
    SH.IRIOrLiteral: "(isIRI({v}) || isLiteral({v}))",
}
_COMPARISONS = {
    SH.minExclusive: ">", SH.minInclusive: ">=", SH.maxExclusive: "<", SH.maxInclusive: "<=",
}


#: A focus pattern: given a variable name, SPARQL that binds it to each focus node, and the
#: variables that tell apart the ways a node is reached (a value node of a property shape is a
#: focus node of its sh:property shapes once per focus node it is a value of, as SHACL's
#: recursive definition validates it, and as many results).
Focus = Callable[[str], tuple[str, str]]


#: A constraint on one value node: given its variable, a SPARQL boolean expression.
Condition = Callable[[str], str]


@dataclass(frozen=True)
class Step:
    """One query of the plan and how its rows become results.

    *kind*: ``"value"`` rows are (focus, value); ``"focus"`` rows are (focus,) with no value;
    ``"self"`` rows are (focus,), the value being the focus node; ``"closed"`` rows are
    (focus, predicate, value); ``"lang"`` rows are (focus, tag), no value; ``"urn"`` rows are
    (focus, value) pairs that :mod:`._rules` judges (``rule_params``); ``"unique"`` also has
    ``holders``, a query for every (subject, value) of the path.
    """

    shape: Node
    component: URIRef
    severity: URIRef
    path: Node | None
    messages: tuple[Literal, ...]
    sparql: str
    kind: str
    params: dict[str, Node] = field(default_factory=dict)
    holders: str | None = None
    parameter: Node | None = None
    #: ``"urn"`` steps: the query without DISTINCT, for a backend whose results sink keeps one
    #: of each (a store's DISTINCT holds every row it returned); None: only :attr:`sparql`.
    bag: str | None = None


@dataclass
class Root:
    """A shape with targets and the steps that validate it."""

    shape: Node
    steps: list[Step]
    predicates: set[str] | None  # the data predicates the steps read; None: any


class _Compiler:
    def __init__(self, graph: Graph, terms: Plain,
                 subclasses: Mapping[str, set[str]] | None = None) -> None:
        self.g = graph
        self.t = terms
        self.subclasses = subclasses
        self.counter = itertools.count()
        self.predicates: set[str] | None = set()
        self._declared = self._declared_components()

    # -- helpers ---------------------------------------------------------------------------

    def instances(self, var: str, classes: list[Node]) -> str:
        """A pattern binding *var* to the instances of *classes* (SHACL: ``rdf:type/
        rdfs:subClassOf*``). With the data's subclass relation known, the classes are expanded
        first and the pattern is a plain ``rdf:type`` lookup per class."""
        self.uses(RDF.type)
        self.uses(RDFS.subClassOf)
        c = self.var("c")
        if self.subclasses is None:
            listed = " ".join(sorted({self.t.const(k) for k in classes}))
            return f"VALUES {c} {{ {listed} }} {var} {_TYPE_PATH} {c}"
        expanded: set[str] = set()
        todo = [str(k) for k in classes if isinstance(k, URIRef)]
        if len(todo) != len(classes):
            raise NotCompiled("a class that is not an IRI")
        while todo:
            k = todo.pop()
            if k not in expanded:
                expanded.add(k)
                todo.extend(self.subclasses.get(k, ()))
        listed = " ".join(sorted(self.t.const(URIRef(k)) for k in expanded))
        return f"VALUES {c} {{ {listed} }} {var} <{RDF.type}> {c}"

    def var(self, stem: str = "v") -> str:
        return f"?{stem}{next(self.counter)}"

    def uses(self, predicate: Node) -> None:
        if self.predicates is not None and isinstance(predicate, URIRef):
            self.predicates.add(str(predicate))

    def _declared_components(self) -> dict[Node, list[Node]]:
        """Parameter -> the components (other than core and urnld's own, as shipped) that
        declare it. A ``urnsh:`` component declared otherwise than urnld ships it counts too:
        it runs as declared, on pyshacl."""
        declared: dict[Node, list[Node]] = {}
        for comp, param in self.g.subject_objects(SH.parameter):
            if comp in RULES and is_shipped(self.g, comp):  # type: ignore[arg-type]
                continue
            for p in self.g.objects(param, SH.path):
                declared.setdefault(p, []).append(comp)
        return declared

    def items(self, node: Node) -> list[Node]:
        if node == RDF.nil:
            return []
        if not isinstance(node, BNode) or self.g.value(node, RDF.first) is None:
            raise NotCompiled(f"{node} is not an RDF list")
        return list(Collection(self.g, node))

    def is_deactivated(self, shape: Node) -> bool:
        value = self.g.value(shape, SH.deactivated)
        return isinstance(value, Literal) and value.value is True

    def severity(self, shape: Node) -> URIRef:
        value = self.g.value(shape, SH.severity)
        return value if isinstance(value, URIRef) else SH.Violation

    def messages(self, shape: Node) -> tuple[Literal, ...]:
        return tuple(sorted((m for m in self.g.objects(shape, SH.message)
                             if isinstance(m, Literal)), key=str))

    def path(self, node: Node) -> str:
        """A SHACL property path (§2.3.1) as a SPARQL property path."""
        if isinstance(node, URIRef):
            self.uses(node)
            return self.t.const(node)
        if not isinstance(node, BNode):
            raise NotCompiled(f"{node} is not a property path")
        if self.g.value(node, RDF.first) is not None:
            parts = self.items(node)
            if len(parts) < 2:
                raise NotCompiled("a sequence path needs two members")
            return "(" + "/".join(self.path(p) for p in parts) + ")"
        for prop, fmt in ((SH.inversePath, "^({})"), (SH.zeroOrMorePath, "({})*"),
                          (SH.oneOrMorePath, "({})+"), (SH.zeroOrOnePath, "({})?")):
            inner = self.g.value(node, prop)
            if inner is not None:
                return fmt.format(self.path(inner))
        alternatives = self.g.value(node, SH.alternativePath)
        if alternatives is not None:
            parts = self.items(alternatives)
            if len(parts) < 2:
                raise NotCompiled("an alternative path needs two members")
            return "(" + "|".join(self.path(p) for p in parts) + ")"
        raise NotCompiled(f"{node} is not a property path")

    def one(self, shape: Node, prop: URIRef) -> Node:
        values = list(self.g.objects(shape, prop))
        if len(values) != 1:
            raise NotCompiled(f"{prop} needs exactly one value on {shape}")
        return values[0]

    def integer(self, shape: Node, prop: URIRef) -> int:
        value = self.one(shape, prop)
        if not isinstance(value, Literal) or not isinstance(value.value, int) or isinstance(
            value.value, bool
        ):
            raise NotCompiled(f"{prop} on {shape} is not an integer")
        return int(value.value)

    def check_parameters(self, shape: Node) -> None:
        """Refuse a shape that uses a parameter the plan does not know (another component)."""
        for p in set(self.g.predicates(shape)):
            if p in self._declared:
                raise NotCompiled(f"{shape} uses {p}, a parameter of a component the plan does "
                                  "not compile")
            if p in _CORE or p in _INERT or p in _URN_PARAMS or p in _URN_OPTIONAL:
                continue
            if p in (SH.sparql, SH.target, SH.rule) or p in self._declared:
                raise NotCompiled(f"{shape} uses {p}, which the plan does not compile")

    # -- "this node conforms" as a SPARQL expression ----------------------------------------

    def conforms(self, shape: Node, v: str, stack: tuple[Node, ...] = ()) -> str:
        """A SPARQL boolean expression: the node bound to *v* conforms to *shape*."""
        if shape in stack:
            raise NotCompiled(f"the shape {shape} refers to itself")
        if self.is_deactivated(shape):
            return "true"
        self.check_parameters(shape)
        for p in self.g.predicates(shape):
            if p in _URN_PARAMS:
                raise NotCompiled("urnld's components inside a referenced shape")
        stack = (*stack, shape)
        path = self.g.value(shape, SH.path)
        parts: list[str] = []
        if path is None:
            parts.extend(cond(v) for _, cond in self.value_conditions(shape, stack))
            parts.extend(self.conforms(prop, v, stack)
                         for prop in self.g.objects(shape, SH.property))
            if _true(self.g.value(shape, SH.closed)):
                parts.append(f"NOT EXISTS {{ {self.closed_pattern(shape, v)} }}")
        else:
            sparql_path = self.path(path)
            for _component, cond in self.value_conditions(shape, stack):
                x = self.var()
                parts.append(f"NOT EXISTS {{ {v} {sparql_path} {x} . FILTER (!({cond(x)})) }}")
            parts.extend(self.property_conditions(shape, sparql_path, v, stack))
            for prop in self.g.objects(shape, SH.property):
                x = self.var()
                nested = self.conforms(prop, x, stack)
                parts.append(f"NOT EXISTS {{ {v} {sparql_path} {x} . FILTER (!({nested})) }}")
        return "(" + " && ".join(parts) + ")" if parts else "true"

    def property_conditions(
        self, shape: Node, p: str, v: str, stack: tuple[Node, ...]
    ) -> Iterator[str]:
        """The constraints of a referenced property shape that look at all values at once."""
        g = self.g
        if g.value(shape, SH.minCount) is not None:
            n = self.integer(shape, SH.minCount)
            if n > 0:
                yield f"EXISTS {{ {self.distinct_values(v, p, n)} }}"
        if g.value(shape, SH.maxCount) is not None:
            n = self.integer(shape, SH.maxCount)
            yield f"NOT EXISTS {{ {self.distinct_values(v, p, n + 1)} }}"
        if _true(g.value(shape, SH.uniqueLang)):
            a, b = self.var(), self.var()
            la, lb = self.t.lang(a), self.t.lang(b)
            yield (f"NOT EXISTS {{ {v} {p} {a} . {v} {p} {b} . FILTER (!sameTerm({a}, {b}) && "
                   f"{la} != \"\" && LCASE({la}) = LCASE({lb})) }}")
        for other in g.objects(shape, SH.equals):
            q, x = self.path(other), self.var()
            yield (f"(NOT EXISTS {{ {v} {p} {x} . FILTER NOT EXISTS {{ {v} {q} {x} }} }} && "
                   f"NOT EXISTS {{ {v} {q} {x} . FILTER NOT EXISTS {{ {v} {p} {x} }} }})")
        for other in g.objects(shape, SH.disjoint):
            q, x = self.path(other), self.var()
            yield f"NOT EXISTS {{ {v} {p} {x} . {v} {q} {x} }}"
        for prop, op in ((SH.lessThan, "<"), (SH.lessThanOrEquals, "<=")):
            for other in g.objects(shape, prop):
                q, x, y = self.path(other), self.var(), self.var()
                yield (f"NOT EXISTS {{ {v} {p} {x} . {v} {q} {y} . FILTER (!COALESCE("
                       f"{self.t.value(x)} {op} {self.t.value(y)}, false)) }}")
        if g.value(shape, SH.hasValue) is not None:
            for h in g.objects(shape, SH.hasValue):
                yield f"EXISTS {{ {v} {p} {self.t.const(h)} }}"
        if g.value(shape, SH.qualifiedValueShape) is not None:
            raise NotCompiled("a qualified value shape inside a referenced shape")

    def distinct_values(self, v: str, p: str, n: int) -> str:
        """A pattern with *n* pairwise different values of *p* on *v*."""
        if n > 4:
            raise NotCompiled("a count above 4 inside a referenced shape")
        xs = [self.var() for _ in range(n)]
        pattern = " . ".join(f"{v} {p} {x}" for x in xs)
        different = [f"!sameTerm({a}, {b})" for a, b in itertools.combinations(xs, 2)]
        return pattern + (f" . FILTER ({' && '.join(different)})" if different else "")

    def closed_pattern(self, shape: Node, v: str) -> str:
        allowed = set()
        for prop in self.g.objects(shape, SH.property):
            path = self.g.value(prop, SH.path)
            if isinstance(path, URIRef):
                allowed.add(path)
        ignored = self.g.value(shape, SH.ignoredProperties)
        if ignored is not None:
            allowed.update(i for i in self.items(ignored) if isinstance(i, URIRef))
        self.predicates = None  # every predicate of a focus node matters
        p, o = self.var("p"), self.var("o")
        listed = ", ".join(self.t.const(a) for a in sorted(allowed))
        not_in = f" . FILTER ({p} NOT IN ({listed}))" if listed else ""
        return f"{v} {p} {o}{not_in}"

    def value_conditions(
        self, shape: Node, stack: tuple[Node, ...]
    ) -> Iterator[tuple[URIRef, Condition]]:
        """Each constraint of *shape* that judges one value node at a time, as a condition."""
        g, t = self.g, self.t
        for c in g.objects(shape, SH["class"]):
            yield SH.ClassConstraintComponent, self._class_condition(c)
        for d in g.objects(shape, SH.datatype):
            yield SH.DatatypeConstraintComponent, self.datatype_condition(d)
        for k in g.objects(shape, SH.nodeKind):
            if not isinstance(k, URIRef) or k not in _NODE_KINDS:
                raise NotCompiled(f"unknown node kind {k}")
            yield SH.NodeKindConstraintComponent, _template(_NODE_KINDS[k])
        for prop, op in _COMPARISONS.items():
            name = str(prop).rsplit("#", 1)[1]
            component = URIRef(f"{SH}{name[0].upper()}{name[1:]}ConstraintComponent")
            for bound in g.objects(shape, prop):
                yield component, _comparison(t, op, t.const(bound))
        for prop, op, component in ((SH.minLength, ">=", SH.MinLengthConstraintComponent),
                                    (SH.maxLength, "<=", SH.MaxLengthConstraintComponent)):
            for _ in g.objects(shape, prop):
                n = self.integer(shape, prop)
                yield component, _template(
                    f"COALESCE(!isBlank({{v}}) && STRLEN(STR({{v}})) {op} {n}, false)")
        flags = g.value(shape, SH.flags)
        flag_text = f", {sparql_string(str(flags))}" if flags is not None else ""
        for pat in g.objects(shape, SH.pattern):
            yield SH.PatternConstraintComponent, _template(
                f"COALESCE(!isBlank({{v}}) && REGEX(STR({{v}}), {sparql_string(str(pat))}"
                f"{flag_text}), false)")
        for langs in g.objects(shape, SH.languageIn):
            ranges = [str(r) for r in self.items(langs)]
            yield SH.LanguageInConstraintComponent, _language_in(t, ranges)
        for members in g.objects(shape, SH["in"]):
            consts = [t.const(m) for m in self.items(members)]
            yield SH.InConstraintComponent, _template(
                "(" + (" || ".join(f"sameTerm({{v}}, {k})" for k in consts) or "false") + ")")
        if g.value(shape, SH.path) is None:
            for h in g.objects(shape, SH.hasValue):
                yield SH.HasValueConstraintComponent, _template(f"sameTerm({{v}}, {t.const(h)})")
        for ref in g.objects(shape, SH.node):
            yield SH.NodeConstraintComponent, self._bound(ref, stack)
        for ref in g.objects(shape, SH["not"]):
            yield SH.NotConstraintComponent, _negated(self._bound(ref, stack))
        for prop, component, join in ((SH["and"], SH.AndConstraintComponent, " && "),
                                      (SH["or"], SH.OrConstraintComponent, " || ")):
            for members in g.objects(shape, prop):
                conds = [self._bound(m, stack) for m in self.items(members)]
                yield component, _joined(conds, join)
        for members in g.objects(shape, SH.xone):
            conds = [self._bound(m, stack) for m in self.items(members)]
            yield SH.XoneConstraintComponent, _exactly_one(conds)

    def _class_condition(self, c: Node) -> Condition:
        if not isinstance(c, URIRef):
            raise NotCompiled(f"sh:class {c} is not an IRI")

        def cond(v: str) -> str:
            return f"EXISTS {{ {self.instances(v, [c])} }}"

        cond("?probe")  # the class expanded (and the predicates noted) now
        return cond

    def _bound(self, shape: Node, stack: tuple[Node, ...]) -> Callable[[str], str]:
        # Compile once now (so NotCompiled surfaces here), then per variable when used.
        self.conforms(shape, "?probe", stack)
        return lambda v: self.conforms(shape, v, stack)

    def datatype_condition(self, d: Node) -> Callable[[str], str]:
        if not isinstance(d, URIRef):
            raise NotCompiled(f"sh:datatype {d} is not an IRI")
        const = self.t.const(d)
        t = self.t
        bounds = _INTEGER_RANGES.get(str(d))

        def cond(v: str) -> str:
            same = f"isLiteral({v}) && sameTerm({t.datatype(v)}, {const})"
            # an ill-formed literal ("a"^^xsd:integer, "300"^^xsd:byte) breaks sh:datatype
            # too (SHACL §4.1.2)
            if str(d) in _CASTABLE:
                same += f" && isLiteral({const}({t.value(v)}))"
            elif bounds is not None:
                low, high = bounds
                number = f"<{_XSD}integer>(STR({v}))"
                same += f' && REGEX(STR({v}), "^[+-]?[0-9]+$")'
                if low is not None:
                    same += f" && {number} >= {low}"
                if high is not None:
                    same += f" && {number} <= {high}"
            return f"COALESCE({same}, false)"

        return cond

    # -- roots --------------------------------------------------------------------------------

    def focus(self, shape: Node) -> Focus:
        g, t = self.g, self.t
        nodes = [t.const(n) for n in g.objects(shape, SH.targetNode)]
        classes: list[Node] = list(g.objects(shape, SH.targetClass))
        if (shape, RDF.type, RDFS.Class) in g and isinstance(shape, URIRef):
            classes.append(shape)
        subjects = [t.const(p) for p in g.objects(shape, SH.targetSubjectsOf)]
        objects = [t.const(p) for p in g.objects(shape, SH.targetObjectsOf)]
        if classes:
            self.instances("?probe", classes)  # refuse a class that is not an IRI now
        for p in itertools.chain(g.objects(shape, SH.targetSubjectsOf),
                                 g.objects(shape, SH.targetObjectsOf)):
            self.uses(p)

        def pattern(var: str) -> tuple[str, str]:
            parts = []
            if nodes:
                parts.append(f"VALUES {var} {{ {' '.join(sorted(set(nodes)))} }}")
            if classes:
                parts.append(self.instances(var, classes))
            if subjects:
                p, o = self.var("p"), self.var("o")
                parts.append(f"VALUES {p} {{ {' '.join(sorted(set(subjects)))} }} {var} {p} {o}")
            if objects:
                p, s = self.var("p"), self.var("s")
                parts.append(f"VALUES {p} {{ {' '.join(sorted(set(objects)))} }} {s} {p} {var}")
            union = " UNION ".join(f"{{ {x} }}" for x in parts)
            return f"{{ SELECT DISTINCT {var} WHERE {{ {union} }} }}", ""

        return pattern

    def root(self, shape: Node) -> list[Step]:
        steps: list[Step] = []
        self.shape_steps(shape, self.focus(shape), steps, ())
        return steps

    def shape_steps(self, shape: Node, focus: Focus, steps: list[Step],
                    stack: tuple[Node, ...]) -> None:
        """The steps that validate *shape* on the focus nodes *focus* gives."""
        if self.is_deactivated(shape):
            return
        if shape in stack:
            raise NotCompiled(f"the shape {shape} refers to itself")
        self.check_parameters(shape)
        stack = (*stack, shape)
        g = self.g
        severity, messages = self.severity(shape), self.messages(shape)
        path_node = g.value(shape, SH.path)

        def step(component: URIRef, sparql: str, kind: str, **extra: object) -> None:
            steps.append(Step(shape, component, severity, path_node, messages, sparql, kind,
                              **extra))  # type: ignore[arg-type]

        f, ctx = focus("?this")
        if path_node is None:
            values, val = "", "?this"
        else:
            p = self.path(path_node)
            values, val = f"?this {p} ?value .", "?value"
        select = (f"SELECT DISTINCT ?this ?value {ctx}" if path_node is not None
                  else f"SELECT DISTINCT ?this {ctx}")
        kind = "value" if path_node is not None else "self"
        for component, cond in self.value_conditions(shape, stack):
            # SHACL §4.8.3: a missing value has no sh:value
            kind_here = "focus" if component == SH.HasValueConstraintComponent else kind
            step(component, f"{select} WHERE {{ {f} {values} FILTER (!({cond(val)})) }}",
                 kind_here)
        if path_node is not None:
            self.count_steps(shape, p, f, ctx, step)
            self.pair_steps(shape, p, f, ctx, step)
            for h in g.objects(shape, SH.hasValue):
                step(SH.HasValueConstraintComponent,
                     f"SELECT DISTINCT ?this {ctx} WHERE {{ {f} FILTER NOT EXISTS {{ ?this {p} "
                     f"{self.t.const(h)} }} }}", "focus", parameter=h)
            self.qualified_steps(shape, p, f, ctx, step, stack)
        else:
            self.pair_steps(shape, None, f, ctx, step)
            if _true(g.value(shape, SH.closed)):
                pattern = self.closed_pattern(shape, "?this")
                pvar, ovar = pattern.split()[1], pattern.split()[2]
                step(SH.ClosedConstraintComponent,
                     f"SELECT DISTINCT ?this {pvar} {ovar} {ctx} WHERE {{ {f} {pattern} }}",
                     "closed")
        self.urn_steps(shape, path_node, f, ctx, values, step)
        for prop in g.objects(shape, SH.property):
            if path_node is None:
                self.shape_steps(prop, focus, steps, stack)
            else:
                inner = self.path(path_node)

                def nested(var: str, outer: Focus = focus, inner: str = inner
                           ) -> tuple[str, str]:
                    t = self.var("t")
                    pattern, ctx = outer(t)
                    ctx = f"{ctx} {t}".strip()
                    return (f"{{ SELECT DISTINCT {var} {ctx} WHERE {{ {pattern} {t} {inner} "
                            f"{var} }} }}", ctx)

                self.shape_steps(prop, nested, steps, stack)

    def count_steps(self, shape: Node, p: str, f: str, ctx: str,
                    step: Callable[..., None]) -> None:
        g = self.g
        if g.value(shape, SH.minCount) is not None:
            n = self.integer(shape, SH.minCount)
            if n > 0:
                step(SH.MinCountConstraintComponent,
                     f"SELECT ?this {ctx} WHERE {{ {f} OPTIONAL {{ ?this {p} ?value }} }} "
                     f"GROUP BY ?this {ctx} HAVING (COUNT(DISTINCT ?value) < {n})", "focus")
        if g.value(shape, SH.maxCount) is not None:
            n = self.integer(shape, SH.maxCount)
            step(SH.MaxCountConstraintComponent,
                 f"SELECT ?this {ctx} WHERE {{ {f} ?this {p} ?value }} "
                 f"GROUP BY ?this {ctx} HAVING (COUNT(DISTINCT ?value) > {n})", "focus")
        if _true(g.value(shape, SH.uniqueLang)):
            la, lb = self.t.lang("?a"), self.t.lang("?b")
            step(SH.UniqueLangConstraintComponent,
                 f"SELECT DISTINCT ?this (LCASE({la}) AS ?lang) {ctx} WHERE {{ {f} ?this {p} ?a . "
                 f"?this {p} ?b . FILTER (!sameTerm(?a, ?b) && {la} != \"\" && "
                 f"LCASE({la}) = LCASE({lb})) }}", "lang")

    def pair_steps(self, shape: Node, p: str | None, f: str, ctx: str,
                   step: Callable[..., None]) -> None:
        """equals, disjoint, lessThan, lessThanOrEquals: the values against another path's."""
        g, t = self.g, self.t
        val = "?value" if p is not None else "?this"
        values = f"?this {p} ?value ." if p is not None else ""
        kind = "value" if p is not None else "self"
        select = (f"SELECT DISTINCT ?this ?value {ctx}" if p is not None
                  else f"SELECT DISTINCT ?this {ctx}")
        for other in g.objects(shape, SH.equals):
            q = self.path(other)
            mine = f"?this {p} ?value ." if p is not None else "BIND (?this AS ?value)"
            step(SH.EqualsConstraintComponent,
                 f"SELECT DISTINCT ?this ?value {ctx} WHERE {{ {{ {f} {mine} FILTER NOT EXISTS "
                 f"{{ ?this {q} ?value }} }} UNION {{ {f} ?this {q} ?value . FILTER NOT EXISTS "
                 f"{{ {mine.replace('BIND (?this AS ?value)', 'FILTER (sameTerm(?this, ?value))')}"
                 f" }} }} }}", "value", parameter=other)
        for other in g.objects(shape, SH.disjoint):
            q = self.path(other)
            step(SH.DisjointConstraintComponent,
                 f"{select} WHERE {{ {f} {values} ?this {q} {val} }}", kind, parameter=other)
        for prop, op, comp in ((SH.lessThan, "<", SH.LessThanConstraintComponent),
                               (SH.lessThanOrEquals, "<=",
                                SH.LessThanOrEqualsConstraintComponent)):
            for other in g.objects(shape, prop):
                q = self.path(other)
                # one result per pair of values that do not compare (SHACL §4.5.3)
                step(comp, f"{select} ?other WHERE {{ {f} {values} ?this {q} ?other . FILTER "
                           f"(!COALESCE({t.value(val)} {op} {t.value('?other')}, false)) }}",
                     kind, parameter=other)

    def qualified_steps(self, shape: Node, p: str, f: str, ctx: str,  # noqa: PLR0917
                        step: Callable[..., None], stack: tuple[Node, ...]) -> None:
        g = self.g
        for q in g.objects(shape, SH.qualifiedValueShape):
            cond = self._bound(q, stack)
            siblings: list[Callable[[str], str]] = []
            if _true(g.value(shape, SH.qualifiedValueShapesDisjoint)):
                for parent in g.subjects(SH.property, shape):
                    for sib in g.objects(parent, SH.property):
                        if sib == shape:
                            continue
                        siblings.extend(self._bound(sq, stack)
                                        for sq in g.objects(sib, SH.qualifiedValueShape))
            test = " && ".join([f"COALESCE({cond('?value')}, false)",
                                *(f"!COALESCE({s('?value')}, false)" for s in siblings)])
            counted = (f"SELECT ?this {ctx} WHERE {{ {f} OPTIONAL "
                       f"{{ ?this {p} ?value . FILTER ({test}) }} }} GROUP BY ?this {ctx}")
            for prop, op, comp in (
                (SH.qualifiedMinCount, "<", SH.QualifiedMinCountConstraintComponent),
                (SH.qualifiedMaxCount, ">", SH.QualifiedMaxCountConstraintComponent),
            ):
                if g.value(shape, prop) is not None:
                    n = self.integer(shape, prop)
                    step(comp, f"{counted} HAVING (COUNT(DISTINCT ?value) {op} {n})", "focus")

    def urn_steps(self, shape: Node, path_node: Node | None, f: str, ctx: str,  # noqa: PLR0917
                  values: str,
                  step: Callable[..., None]) -> None:
        """urnld's components: the pairs, judged value by distinct value in Python."""
        g = self.g
        found = {_URN_PARAMS[p] for p in g.predicates(shape) if isinstance(p, URIRef)
                 and p in _URN_PARAMS}
        for component in sorted(found):
            rule = RULES[component]
            params = {rule.param: g.value(shape, URNSH[rule.param])}
            for extra in ("onlyURNs", "nidFindings"):
                value = g.value(shape, URNSH[extra])
                if value is not None:
                    params[extra] = value
            if any(len(list(g.objects(shape, URNSH[k]))) > 1 for k in params):
                raise NotCompiled(f"{shape} gives a urnsh: parameter twice")
            holders = None
            if rule.needs_graph:
                if path_node is None:
                    raise NotCompiled("urnsh:uniqueByEquivalence needs a property shape")
                holders = f"SELECT ?this ?value WHERE {{ ?this {self.path(path_node)} ?value }}"
            flat = _flat_focus(f, ctx)
            pairs = (f"SELECT DISTINCT ?this ?value {ctx} WHERE {{ {flat} {values} }}"
                     if path_node is not None
                     else f"SELECT DISTINCT ?this {ctx} WHERE {{ {flat} }}")
            step(component, pairs, "urn", params={k: v for k, v in params.items()
                                                  if v is not None}, holders=holders,
                 bag=None if ctx else pairs.replace("SELECT DISTINCT ", "SELECT ", 1))


# A string or IRI of the query (kept), or a variable the compiler numbered (renamed).
_TOKEN = re.compile(r'("(?:[^"\\]|\\.)*"|<[^<>"\s]*>)|\?([A-Za-z_]+)[0-9]+\b')


def query_key(sparql: str) -> str:
    """*sparql* with the variables the compiler numbered renumbered in order of appearance:
    two shapes with the same targets and path compile to queries that differ only there
    (each shape's ``?c3``, ``?c4``), and equal keys mean the same rows.

    >>> query_key('SELECT ?this WHERE { VALUES ?c7 { <urn:x:?c1> "?p2" } ?this a ?c7 }')
    'SELECT ?this WHERE { VALUES ?c0 { <urn:x:?c1> "?p2" } ?this a ?c0 }'
    """
    names: dict[str, str] = {}

    def rename(m: re.Match[str]) -> str:
        if m.group(1) is not None:
            return m.group(1)
        return names.setdefault(m.group(0), f"?{m.group(2)}{len(names)}")

    return _TOKEN.sub(rename, sparql)


_DISTINCT_FOCUS = "{ SELECT DISTINCT ?this WHERE { "


def _flat_focus(f: str, ctx: str) -> str:
    """A shape's own targets, *f*, without the subquery that makes each focus node distinct,
    for a query that is itself DISTINCT on ``?this`` (and ``?value``): the same rows, and
    oxigraph's evaluation of the subquery and its join was a third of the query's time.

    >>> _flat_focus("{ SELECT DISTINCT ?this WHERE { { ?this a ?c } } }", "")
    '{ { ?this a ?c } }'
    """
    if ctx or not f.startswith(_DISTINCT_FOCUS) or not f.endswith(" } }") or \
            f.count("SELECT") != 1:
        return f  # focus nodes reached from another shape's values: kept as compiled
    return "{ " + f[len(_DISTINCT_FOCUS):-len(" } }")] + " }"


def _template(text: str) -> Condition:
    """A condition from a text with ``{v}`` where the variable goes."""
    return lambda v: text.replace("{v}", v)


def _comparison(t: Plain, op: str, const: str) -> Condition:
    # SHACL §4.3: a value that does not compare (an error) is a violation
    return lambda v: f"COALESCE(isLiteral({v}) && {t.value(v)} {op} {t.value(const)}, false)"


def _language_in(t: Plain, ranges: list[str]) -> Condition:
    def cond(v: str) -> str:
        tests = " || ".join(f"langMatches({t.lang(v)}, {sparql_string(r)})" for r in ranges)
        return f"COALESCE(isLiteral({v}) && ({tests or 'false'}), false)"

    return cond


def _negated(cond: Condition) -> Condition:
    return lambda v: f"!COALESCE({cond(v)}, false)"


def _joined(conds: list[Condition], join: str) -> Condition:
    empty = "true" if join == " && " else "false"
    return lambda v: "(" + (join.join(f"COALESCE({c(v)}, false)" for c in conds) or empty) + ")"


def _exactly_one(conds: list[Condition]) -> Condition:
    return lambda v: "(" + (" + ".join(f"IF(COALESCE({c(v)}, false), 1, 0)" for c in conds)
                            or "0") + ") = 1"


def _true(value: Node | None) -> bool:
    return isinstance(value, Literal) and value.value is True


def roots_of(graph: Graph) -> list[Node]:
    """The shapes with targets, in a stable order (IRIs first, then blank nodes)."""
    found: set[Node] = set()
    for prop in _TARGETS:
        found.update(graph.subjects(prop, None))
    for shape in graph.subjects(RDF.type, RDFS.Class):
        if (shape, RDF.type, SH.NodeShape) in graph or (shape, RDF.type, SH.PropertyShape) in graph:
            found.add(shape)
    return sorted(found, key=lambda n: (isinstance(n, BNode), str(n)))


def compile_shapes(
    graph: Graph, terms: Plain, subclasses: Mapping[str, set[str]] | None = None
) -> tuple[list[Root], dict[Node, str]]:
    """Compile every root shape of *graph*; the roots that do not compile, with the reason.

    *subclasses*: the data's ``rdfs:subClassOf`` relation (class IRI -> its direct
    subclasses), when known: class targets and ``sh:class`` then look up expanded class lists
    instead of walking ``rdfs:subClassOf*`` per node.
    """
    roots: list[Root] = []
    failed: dict[Node, str] = {}
    for shape in roots_of(graph):
        compiler = _Compiler(graph, terms, subclasses)
        try:
            steps = compiler.root(shape)
        except NotCompiled as e:
            failed[shape] = str(e)
            continue
        roots.append(Root(shape, steps, compiler.predicates))
    return roots, failed
