"""A fast reader for SimpleMRS (the one-line form written by PyDelphin and ACE).

PyDelphin's ``delphin.codecs.simplemrs.decode`` reads about 400 MRSs per second, too slow
for corpus-scale work.  :func:`read_simplemrs` reads the same text about ten times faster
into :class:`parsers.mrs.structure.Mrs`; anything it does not recognise (exotic ``lnk``
forms, odd layouts) is handed to PyDelphin, so both give the same result
(``tests/test_mrs_reader.py`` checks this on the shared corpus).  :func:`coerce_mrs` reads
an MRS from any of the accepted forms (:class:`Mrs`, PyDelphin MRS, SimpleMRS text).
"""

from __future__ import annotations

import logging
import re
from functools import lru_cache
from typing import Any

from parsers.mrs.structure import EP, HCons, Mrs, MrsError, from_pydelphin, normalize_predicate, role_order

__all__ = ["read_simplemrs", "read_simplemrs_fast", "coerce_mrs"]

log = logging.getLogger(__name__)

_UNESCAPE_RE = re.compile(r"\\(.)")


def _role_key(kv: tuple[str, str]) -> tuple[int, int, str]:
    return role_order(kv[0])


def _unquote(tok: str) -> str:
    s = tok[1:-1]
    if "\\" in s:
        s = _UNESCAPE_RE.sub(r"\1", s)
    return s


def read_simplemrs(text: str) -> Mrs:
    """Read one SimpleMRS string into :class:`Mrs`.

    The fast reader is tried first, then PyDelphin's decoder.  Raises
    :class:`~parsers.mrs.structure.MrsError` when neither can read the text.
    """
    if not isinstance(text, str):
        raise MrsError(f"SimpleMRS must be a string, not {type(text).__name__}")
    try:
        return read_simplemrs_fast(text)
    except MrsError as fast_error:
        from delphin.codecs import simplemrs

        try:
            m = simplemrs.decode(text)
        except Exception as e:  # pydelphin raises many types (even StopIteration)
            raise MrsError(f"unreadable SimpleMRS: {fast_error}; pydelphin: "
                           f"{type(e).__name__} {e}") from None
        log.debug("fast SimpleMRS reader declined (%s); used pydelphin", fast_error)
        out = from_pydelphin(m)
        return Mrs(out.top, out.index, out.eps, out.hcons, out.variables, out.icons, text)


def coerce_mrs(obj: Any) -> Mrs:
    """Accept a :class:`Mrs`, a PyDelphin MRS or a SimpleMRS string.

    Raises :class:`MrsError` for anything else or for unreadable text.
    """
    if isinstance(obj, Mrs):
        return obj
    if isinstance(obj, str):
        return read_simplemrs(obj)
    if hasattr(obj, "rels") and hasattr(obj, "hcons"):
        return from_pydelphin(obj)
    raise MrsError(f"cannot read an MRS from {type(obj).__name__}")


_STR = r'"(?:[^"\\]|\\.)*"'
_MRS_RE = re.compile(
    r'\A\s*\[\s*(?:<[^<>]*>\s*)?(?:' + _STR + r'\s*)?'
    r'(?:L?TOP:\s*(?P<top>[^\s\[\]<>"]+)\s*)?'
    r'(?:INDEX:\s*(?P<index>[^\s\[\]<>"]+)\s*(?:\[\s*[^\s\[\]:]+(?P<iprops>[^\[\]]*)\]\s*)?)?'
    r'RELS:\s*<(?P<rels>.*?)>\s*(?=HCONS:|ICONS:|\]\s*\Z)'
    r'(?:HCONS:\s*<(?P<hcons>[^<>"]*)>\s*)?'
    r'(?:ICONS:\s*<(?P<icons>[^<>"]*)>\s*)?\]\s*\Z', re.S)
_EP_RE = re.compile(
    r'\[\s*(?P<pred>' + _STR + r'|[^\s<>\[\]"]+)(?:<(?P<cfrom>-?\d+):(?P<cto>-?\d+)>)?\s*'
    r'(?:' + _STR + r'\s*)?'
    r'LBL:\s*(?P<lbl>[^\s\[\]<>"]+)\s*'
    r'(?P<args>(?:[A-Za-z0-9-]+:\s*(?:' + _STR + r'|[^\s\[\]<>"]+)\s*(?:\[[^\[\]"]*\]\s*)?)*)\]')
_ARG_RE = re.compile(
    r'([A-Za-z0-9-]+):\s*(' + _STR + r'|[^\s\[\]<>"]+)\s*(?:\[\s*[^\s\[\]:]+([^\[\]"]*)\])?')
_PROP_RE = re.compile(r'([^\s:]+):\s*([^\s\]]+)')


def read_simplemrs_fast(text: str) -> Mrs:
    """The fast reader alone (raises :class:`MrsError` on anything it does not recognise).

    Works on whitespace-separated tokens, which is what PyDelphin and ACE write; quoted
    strings containing spaces or escapes are left to the regular-expression reader.
    """
    toks = text.split()
    try:
        return _read_tokens(toks, text)
    except (IndexError, ValueError, KeyError):
        return _read_regex(text)
    except MrsError:
        return _read_regex(text)


_BRACKETS = frozenset("[]<>")


def _read_tokens(toks: list[str], text: str) -> Mrs:
    n = len(toks)
    if n < 4 or toks[0] != "[":
        raise MrsError("SimpleMRS must start with '['")
    variables: dict[str, dict[str, str]] = {}
    i = 1
    if toks[i][0] == "<":
        i += 1
    if toks[i][0] == '"':
        raise MrsError("surface strings are left to the regex reader")
    top = index = None
    eps: list[EP] = []
    hcons: list[HCons] = []
    icons: list[tuple[str, str, str]] = []
    roles = _ROLES
    norm = _normalize_cached
    while True:
        key = toks[i]
        if key == "]":
            break
        if key == "TOP:" or key == "LTOP:":
            top = toks[i + 1]
            variables.setdefault(top, {})
            i += 2
            if toks[i] == "[":
                i = toks.index("]", i) + 1
        elif key == "INDEX:":
            index = toks[i + 1]
            d = variables.setdefault(index, {})
            i += 2
            if toks[i] == "[":
                i += 2
                while toks[i] != "]":
                    d[toks[i][:-1]] = toks[i + 1]
                    i += 2
                i += 1
        elif key == "RELS:":
            if toks[i + 1] != "<":
                raise MrsError("RELS must be a list")
            i += 2
            while toks[i] == "[":
                ptok = toks[i + 1]
                if ptok[0] == '"':
                    q = ptok.index('"', 1)
                    pred, rest = ptok[:q + 1], ptok[q + 1:]
                    if "\\" in pred:
                        raise MrsError("escaped predicate")
                else:
                    k = ptok.find("<")
                    if k >= 0:
                        pred, rest = ptok[:k], ptok[k:]
                    else:
                        pred, rest = ptok, ""
                if rest:
                    a, b = rest[1:-1].split(":")
                    cfrom, cto = int(a), int(b)
                else:
                    cfrom = cto = -1
                if toks[i + 2] != "LBL:":
                    raise MrsError("EP without LBL first")
                label = toks[i + 3]
                if label not in variables:
                    variables[label] = {}
                i += 4
                carg = None
                args: list[tuple[str, str]] = []
                last = -1
                unsorted = False
                quant = False
                while True:
                    tok = toks[i]
                    if tok == "]":
                        break
                    val = toks[i + 1]
                    i += 2
                    known = roles.get(tok)
                    if known is None:
                        if tok[-1] != ":":
                            raise MrsError(f"expected a role, got {tok!r}")
                        role, r = tok[:-1].upper(), 99
                    else:
                        role, r = known
                    if val[0] == '"':
                        if len(val) < 2 or val[-1] != '"' or "\\" in val:
                            raise MrsError("quoted value with spaces or escapes")
                        val = val[1:-1]
                        if r == 30:
                            carg = val
                            continue
                    elif r == 30:
                        carg = val
                        continue
                    else:
                        d = variables.get(val)
                        if d is None:
                            if val in _BRACKETS:
                                raise MrsError("bad role value")
                            d = variables[val] = {}
                        if toks[i] == "[":
                            i += 2
                            while toks[i] != "]":
                                d[toks[i][:-1]] = toks[i + 1]
                                i += 2
                            i += 1
                    if r == 20:
                        quant = True
                    if r < last or r == 99:
                        unsorted = True
                    last = r
                    args.append((role, val))
                i += 1
                if unsorted:
                    args.sort(key=_role_key)
                eps.append(EP(norm(pred), label, tuple(args), carg, cfrom, cto, quant))
            if toks[i] != ">":
                raise MrsError("RELS list not closed")
            i += 1
        elif key == "HCONS:" or key == "ICONS:":
            if toks[i + 1] != "<":
                raise MrsError(f"{key} must be a list")
            i += 2
            while toks[i] != ">":
                a, rel, b = toks[i], toks[i + 1], toks[i + 2]
                if rel in _BRACKETS or b in _BRACKETS:
                    raise MrsError(f"bad {key}")
                if key == "HCONS:":
                    variables.setdefault(a, {})
                    variables.setdefault(b, {})
                    hcons.append(HCons(a, rel.lower(), b))
                else:
                    icons.append((a, rel, b))
                i += 3
            i += 1
        else:
            raise MrsError(f"unexpected {key!r}")
    if i + 1 != n:
        raise MrsError("trailing text after the MRS")
    return Mrs(top, index, tuple(eps), tuple(hcons), variables, tuple(icons), text)


_ROLE_RANK = {"ARG0": 0, "ARG": 1, "ARG1": 2, "ARG2": 3, "ARG3": 4, "ARG4": 5, "ARG5": 6,
              "RSTR": 20, "BODY": 21, "CARG": 30}
#: role token ("ARG0:") -> (role, rank); rank 30 marks CARG
_ROLES = {f"{r}:": (r, k) for r, k in _ROLE_RANK.items()}


@lru_cache(maxsize=65536)
def _normalize_cached(pred: str) -> str:
    return normalize_predicate(pred)


def _read_regex(text: str) -> Mrs:
    """Regular-expression reader: handles quoted strings with spaces and escapes."""
    m = _MRS_RE.match(text)
    if m is None:
        raise MrsError("not a SimpleMRS layout the fast reader knows")
    variables: dict[str, dict[str, str]] = {}
    top, index = m.group("top"), m.group("index")
    if top is not None:
        variables[top] = {}
    if index is not None:
        iprops = m.group("iprops")
        variables[index] = ({k.upper(): v for k, v in _PROP_RE.findall(iprops)}
                            if iprops else {})
    rels = m.group("rels")
    eps: list[EP] = []
    pos = 0
    for em in _EP_RE.finditer(rels):
        if rels[pos:em.start()].strip():
            raise MrsError(f"unreadable text in RELS near {rels[pos:em.start()][:40]!r}")
        pos = em.end()
        pred, cfrom, cto, label, argtext = em.group("pred", "cfrom", "cto", "lbl", "args")
        if label not in variables:
            variables[label] = {}
        carg = None
        args: list[tuple[str, str]] = []
        for role, val, props in _ARG_RE.findall(argtext):
            role = role.upper()
            if val[0] == '"':
                val = _unquote(val)
                if role == "CARG":
                    carg = val
                    continue
            elif role == "CARG":
                carg = val
                continue
            else:
                d = variables.get(val)
                if d is None:
                    d = variables[val] = {}
                if props:
                    for k, v in _PROP_RE.findall(props):
                        d[k.upper()] = v
            args.append((role, val))
        if len(args) > 1:
            args.sort(key=_role_key)
        eps.append(EP(normalize_predicate(pred), label, tuple(args), carg,
                      int(cfrom) if cfrom is not None else -1,
                      int(cto) if cto is not None else -1,
                      any(r == "RSTR" for r, _ in args)))
    if rels[pos:].strip():
        raise MrsError(f"unreadable text in RELS near {rels[pos:][:40]!r}")
    hcons: list[HCons] = []
    htext = m.group("hcons")
    if htext:
        toks = htext.split()
        if len(toks) % 3:
            raise MrsError("HCONS is not a list of triples")
        for j in range(0, len(toks), 3):
            hi, rel, lo = toks[j], toks[j + 1], toks[j + 2]
            variables.setdefault(hi, {})
            variables.setdefault(lo, {})
            hcons.append(HCons(hi, rel.lower(), lo))
    icons: list[tuple[str, str, str]] = []
    itext = m.group("icons")
    if itext:
        toks = itext.split()
        if len(toks) % 3:
            raise MrsError("ICONS is not a list of triples")
        icons = [(toks[j], toks[j + 1], toks[j + 2]) for j in range(0, len(toks), 3)]
    return Mrs(top, index, tuple(eps), tuple(hcons), variables, tuple(icons), text)
