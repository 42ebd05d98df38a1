"""Generate SPARQL text from the syntax tree of :func:`parsers.sparql.parse_tree`.

``parse_tree(generate(tree))`` translates to the same :class:`~verifier.query.Query` as
``tree`` (checked by the tests over the shared corpus); the output is normalised (one line,
explicit parentheses around operator expressions, prefixes as declared).  Used with
:mod:`parsers.sparql_transform` to write perturbed or normalised queries.
"""

from __future__ import annotations

from typing import Any

from verifier.logic import Literal, Var

__all__ = ["generate"]

_NUMERIC = {"xsd:integer", "xsd:decimal", "xsd:double"}
_BINOPS = {"or": "||", "and": "&&", "add": "+", "sub": "-", "mul": "*", "div": "/"}
_MODS = {"opt": "?", "star": "*", "plus": "+"}


def _string(s: str) -> str:
    return '"' + (s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
                  .replace("\r", "\\r").replace("\t", "\\t")) + '"'


def _literal(t: Literal) -> str:
    if t.lang is not None:
        return _string(t.lexical) + "@" + t.lang
    dt = t.datatype
    if dt is None:
        return _string(t.lexical)
    if dt in _NUMERIC and t.numeric_value is not None and " " not in t.lexical:
        lex = t.lexical
        if dt == "xsd:decimal" and "." not in lex:
            lex += ".0"
        return lex
    if dt == "xsd:boolean" and t.lexical in ("true", "false"):
        return t.lexical
    return _string(t.lexical) + "^^" + (dt if not dt.startswith("http") else f"<{dt}>")


def _term(t: Any) -> str:
    if isinstance(t, Var):
        return "?" + t.name
    if isinstance(t, Literal):
        return _literal(t)
    tag = t[0]
    if tag == "iri":
        return str(t[1])
    if tag == "typed":
        return _string(t[1]) + "^^" + str(t[2][1])
    if tag == "bnode":
        return "[]" if t[1] is None else "_:" + t[1]
    if tag == "nil":
        return "()"
    if tag == "bnpl":
        return "[ " + _plist(t[1]) + " ]"
    if tag == "coll":
        return "( " + " ".join(_term(x) for x in t[1]) + " )"
    raise ValueError(f"not a term: {t!r}")


def _path(p: Any, top: bool = True) -> str:
    if isinstance(p, Var):
        return "?" + p.name
    tag = p[0]
    if tag == "iri":
        return str(p[1])
    if tag == "a":
        return "a"
    if tag == "seq":
        s = "/".join(_path(x, False) for x in p[1])
    elif tag == "alt":
        s = "|".join(_path(x, False) for x in p[1])
    elif tag == "inv":
        return "^" + _path(p[1], False)
    elif tag in _MODS:
        inner = _path(p[1], False)
        return inner + _MODS[tag]
    elif tag == "nps":
        items = [("^" if inv else "") + _path(it, False) for it, inv in p[1]]
        return "!(" + "|".join(items) + ")"
    else:
        raise ValueError(f"not a path: {p!r}")
    return s if top else "(" + s + ")"


def _plist(plist: list) -> str:
    return " ; ".join(_path(verb) + " " + " , ".join(_term(o) for o in objs) for verb, objs in plist)


def _expr(e: Any) -> str:
    if isinstance(e, (Var, Literal)) or (isinstance(e, tuple) and e and e[0] in ("iri", "typed", "bnode", "nil")):
        return _term(e)
    tag = e[0]
    if tag in _BINOPS:
        return f"({_expr(e[1])} {_BINOPS[tag]} {_expr(e[2])})"
    if tag == "rel":
        return f"({_expr(e[2])} {e[1]} {_expr(e[3])})"
    if tag in ("in", "notin"):
        kw = "IN" if tag == "in" else "NOT IN"
        return f"({_expr(e[1])} {kw} ({', '.join(_expr(x) for x in e[2])}))"
    if tag == "not":
        return f"!{_expr_atom(e[1])}"
    if tag == "neg":
        return f"-{_expr_atom(e[1])}"
    if tag == "call":
        return f"{e[1]}({', '.join(_expr(x) for x in e[2])})"
    if tag == "exists":
        return "EXISTS " + _group(e[1])
    if tag == "notexists":
        return "NOT EXISTS " + _group(e[1])
    if tag == "func":
        return f"{e[1][1]}({'DISTINCT ' if e[3] else ''}{', '.join(_expr(x) for x in e[2])})"
    if tag == "agg":
        _, name, distinct, arg, sep = e
        inner = ("DISTINCT " if distinct else "") + ("*" if arg == "*" else _expr(arg))
        if sep is not None:
            inner += f" ; SEPARATOR={_string(sep)}"
        return f"{name.upper()}({inner})"
    raise ValueError(f"not an expression: {e!r}")


def _expr_atom(e: Any) -> str:
    s = _expr(e)
    return s if s.startswith("(") else f"({s})"


def _constraint(e: Any) -> str:
    s = _expr(e)
    return s if s.startswith("(") else f"({s})"


def _values(el: tuple) -> str:
    _, vs, rows = el
    def val(x):
        return "UNDEF" if x is None else _term(x)
    if len(vs) == 1:
        return f"VALUES ?{vs[0].name} {{ {' '.join(val(r[0]) for r in rows)} }}"
    head = "(" + " ".join("?" + v.name for v in vs) + ")"
    body = " ".join("(" + " ".join(val(x) for x in r) + ")" for r in rows)
    return f"VALUES {head} {{ {body} }}"


def _element(el: tuple) -> str:
    tag = el[0]
    if tag == "triples":
        if not el[1]:
            return ""
        return " . ".join(_term(s) + (" " + _plist(pl) if pl else "") for s, pl in el[1]) + " ."
    if tag in ("group", "subselect"):
        return _group(el)
    if tag == "union":
        return " UNION ".join(_group(g) for g in el[1])
    if tag == "optional":
        return "OPTIONAL " + _group(el[1])
    if tag == "minus":
        return "MINUS " + _group(el[1])
    if tag == "graph":
        return f"GRAPH {_term(el[1])} {_group(el[2])}"
    if tag == "service":
        return f"SERVICE {'SILENT ' if el[1] else ''}{_term(el[2])} {_group(el[3])}"
    if tag == "filter":
        return "FILTER " + _constraint(el[1])
    if tag == "bind":
        return f"BIND({_expr(el[1])} AS ?{el[2].name})"
    if tag == "values":
        return _values(el)
    if tag == "include":
        return "INCLUDE " + el[1]
    raise ValueError(f"not a pattern element: {el!r}")


def _group(g: tuple) -> str:
    if g[0] == "subselect":
        return "{ " + _select(g[1]) + " }"
    return "{ " + " ".join(x for x in (_element(el) for el in g[1]) if x) + " }"


def _select(sel: tuple) -> str:
    _, form, modifier, items, where, mods, values, named = sel
    if form == "ask":
        head = "ASK"
    else:
        head = "SELECT" + (f" {modifier.upper()}" if modifier else "")
        if items == "*":
            head += " *"
        else:
            for it in items:
                head += f" ?{it.name}" if isinstance(it, Var) else f" ({_expr(it[1])} AS ?{it[2].name})"
    parts = [head]
    for name, sub in (named or {}).items():
        parts.append(f"WITH {{ {_select(sub[1])} }} AS {name}")
    parts.append("WHERE " + _group(where))
    group_by, having, order, limit, offset = mods
    if group_by:
        parts.append("GROUP BY " + " ".join(
            f"({_expr(g[1])} AS ?{g[2].name})" if isinstance(g, tuple) and g and g[0] == "as"
            else (_term(g) if isinstance(g, Var) else _constraint(g)) for g in group_by))
    if having:
        parts.append("HAVING " + " ".join(_constraint(h) for h in having))
    if order:
        parts.append("ORDER BY " + " ".join(("DESC" if d else "ASC") + _expr_atom(e) for d, e in order))
    if limit is not None:
        parts.append(f"LIMIT {limit}")
    if offset is not None:
        parts.append(f"OFFSET {offset}")
    if values is not None:
        parts.append(_values(values))
    return " ".join(parts)


def generate(tree: tuple) -> str:
    """SPARQL text for a tree of :func:`parsers.sparql.parse_tree` (normalised layout)."""
    prologue, form, values = tree
    out = []
    for decl in prologue:
        if decl[0] == "base":
            out.append(f"BASE {decl[1]}")
        else:
            out.append(f"PREFIX {decl[1]} {decl[2]}")
    if values is not None:
        form = form[:6] + (values,) + form[7:]
    out.append(_select(form))
    return " ".join(out)
