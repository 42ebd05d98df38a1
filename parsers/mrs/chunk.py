"""Multiword names read as one name: "named-entity chunking" after parsing.

A parser without a gazetteer often reads a multiword name word by word: "Steve Jobs" as
*Steve* and a noun *job*, "Dancing Girls & Other Stories" as a coordination of dancing girls
and other stories, "Augustin-Louis Cauchy" as an interval from *Augustin* to *Louis*.  When
the question writes, word for word, the name of an item the query uses, the predications
whose characters lie inside that name can be replaced by one ``named`` predication, which
is what the grammar gives when the name is marked as one token (ACE's YY input mode with
named-entity tokens).

:func:`chunk_names` does that replacement on one reading, only where it is safe: the name's
predications are connected to the rest of the reading through exactly one referential
variable (the name's head), and nothing inside the name refers to anything outside it.  Any
other reading is left as it is (``None``), so chunking never loses a reading, it only adds
one.  :func:`name_spans` finds where a question writes given names.

The converse also happens: a common word the question writes in lower case read as a name
("What *gene* is genetically associated with ...?" with ``named(x, "Gene")``, "a literature
*major*").  :func:`common_words` gives the reading with such names read as the nouns they
are written as (an unknown-word noun ``_gene/nn_u_unknown``, as the grammar gives for a word
it does not know), again only as an extra reading.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from verifier.vocabulary import vocabulary

from parsers.mrs.structure import EP, HCons, Mrs, var_type

__all__ = ["name_spans", "chunk_names", "common_words"]

#: Predicates a name read as a name already consists of (nothing to chunk).
_NAME_PREDS = frozenset({"named", "compound", "proper_q", "udef_q", "def_explicit_q", "_the_q",
                         "named_n", "card", "yofc", "ord"})

#: The definite article right before a name ("the Reed College"), from the words of the MRS
#: front end (``axioms/words/question.yaml``).
_ARTICLE_BEFORE = vocabulary("question").pattern("article_before_name")


def name_spans(question: str, names: Iterable[str], min_words: int = 2) -> list[tuple[int, int]]:
    """Character spans where ``question`` writes one of ``names`` (case-insensitively, at word
    boundaries), for names of at least ``min_words`` words whose occurrence starts with a
    capital letter or a digit (a proper name, not a common noun phrase such as "rock band";
    not in a question written in capitals).
    Overlapping occurrences keep the longest; spans are sorted."""
    found: list[tuple[int, int]] = []
    for name in set(names):
        name = name.strip()
        if len(name.split()) < min_words:
            continue
        for m in re.finditer(r"(?<!\w)" + re.escape(name) + r"(?!\w)", question, re.I):
            written = m.group(0)
            if written.isupper() and not name.isupper():
                continue  # a question in capitals: "HISTORICAL EVENT" is no proper name
            if written[0].isupper() or written[0].isdigit():
                found.append(m.span())
    found.sort(key=lambda s: (-(s[1] - s[0]), s[0]))
    kept: list[tuple[int, int]] = []
    for a, b in found:
        if all(b <= c or a >= d for c, d in kept):
            kept.append((a, b))
    return sorted(kept)


def _inside(ep: EP, a: int, b: int) -> bool:
    return ep.cfrom >= a and 0 <= ep.cto <= b and ep.cfrom < ep.cto


def _chunk_one(m: Mrs, a: int, b: int, text: str) -> Mrs | None:
    inside = [ep for ep in m.eps if _inside(ep, a, b)]
    content = [ep for ep in inside if not ep.is_quantifier]
    if not content or all(ep.pred in _NAME_PREDS for ep in content):
        return None  # nothing there, or already read as a name
    outside = [ep for ep in m.eps if not _inside(ep, a, b)]
    own = {ep.iv for ep in content if ep.iv}
    # referential variables of the name used outside it: exactly one, the name's head
    used = {v for ep in outside for r, v in ep.args if r != "ARG0" or ep.is_quantifier}
    heads = {v for v in own & used if var_type(v) == "x"}
    if len(heads) != 1 or m.index in own or any(var_type(v) in ("e", "h") for v in own & used):
        return None
    head = heads.pop()
    # nothing inside the name refers to an individual or event outside it
    bound = own | {ep.iv for ep in inside if ep.is_quantifier}
    for ep in content:
        for r, v in ep.args[1:]:
            if var_type(v) in ("x", "e") and v not in bound:
                return None
    head_eps = [ep for ep in content if ep.iv == head]
    label = head_eps[0].label if head_eps else content[0].label
    labels_out = {ep.label for ep in outside}
    removed_labels = {ep.label for ep in inside} - {label} - labels_out
    # a scopal argument outside the name may point at the head's label only
    lo_of = {h.hi: h.lo for h in m.hcons}
    for ep in outside:
        for r, v in ep.args[1:]:
            if var_type(v) == "h" and (v in removed_labels or lo_of.get(v) in removed_labels):
                return None
    quants = [ep for ep in m.eps if ep.is_quantifier and ep.iv == head]
    eps: list[EP] = [ep for ep in outside]
    named = EP("named", label, (("ARG0", head),), text, a, b, False)
    eps.append(named)
    if not any(q in outside for q in quants):
        if not quants:
            return None
        q = quants[0]
        eps.append(q._replace(pred="proper_q", cfrom=a, cto=b))
        keep_q = q
    else:
        keep_q = None
    kept_handles = {v for ep in eps for r, v in ep.args if var_type(v) == "h"} | {m.top}
    hcons = tuple(h for h in m.hcons if h.hi in kept_handles and h.lo not in removed_labels)
    if keep_q is not None and not any(h.hi == keep_q.arg("RSTR") for h in hcons):
        hcons = hcons + (HCons(keep_q.arg("RSTR"), "qeq", label),)
    order = {id(ep): i for i, ep in enumerate(m.eps)}
    eps.sort(key=lambda ep: order.get(id(ep), len(order)))
    return Mrs(m.top, m.index, tuple(eps), hcons, m.variables, m.icons)


def chunk_names(m: Mrs, spans: Sequence[tuple[int, int]], question: str) -> Mrs | None:
    """``m`` with each span of :func:`name_spans` read as one ``named`` predication whose CARG
    is the question's text there, where that is safe (see the module's docstring); ``None``
    when no span changed the reading."""
    out, changed = m, False
    for a, b in spans:
        end = b
        while end < len(question) and question[end] in "?.!,;:\"'”’)":
            end += 1  # the grammar's character spans include trailing punctuation
        the = _ARTICLE_BEFORE.search(question[:a])
        start = the.start() + (question[the.start()].isspace()) if the else a  # "the Reed College"
        got = _chunk_one(out, start, end, question[a:b])
        if got is not None:
            out, changed = got, True
    return out if changed else None


def _next_to_a_capital(question: str, a: int, b: int) -> bool:
    """Whether the word at ``a:b`` has a capitalised word right before or after it (part of a
    multiword name such as "Bactrian camel", which its name reading may be right about); the
    question's first word does not count."""
    before = question[:a].split()
    after = question[b:].split()
    return bool(len(before) > 1 and before[-1][:1].isupper()) or bool(after and after[0][:1].isupper())


def common_words(m: Mrs, question: str) -> Mrs | None:
    """``m`` with each one-word ``named`` predication that the question writes in lower case
    and letter for letter (``named(x, "Gene")`` over "gene") read as an unknown-word noun
    ``_gene/nn_u_unknown(x)`` under ``udef_q``; ``None`` when there is none.  A question
    written without capitals (whose names are in lower case too) keeps its names, and so does
    a word next to a capitalised one ("Bactrian camel")."""
    if not any(c.isupper() for c in question):
        return None
    renamed: set[str] = set()
    eps: list[EP] = []
    for ep in m.eps:
        text = question[ep.cfrom:ep.cto] if 0 <= ep.cfrom < ep.cto <= len(question) else ""
        word = (ep.carg or "")
        if (ep.pred == "named" and word.isalpha() and text.rstrip("?.!,;:").islower()
                and text.rstrip("?.!,;:") == word.casefold() and ep.iv
                and not _next_to_a_capital(question, ep.cfrom, ep.cto)):
            renamed.add(ep.iv)
            eps.append(EP(f"_{word.casefold()}/nn_u_unknown", ep.label, ep.args, None, ep.cfrom, ep.cto, False))
        else:
            eps.append(ep)
    if not renamed:
        return None
    eps = [ep._replace(pred="udef_q") if ep.pred == "proper_q" and ep.iv in renamed else ep for ep in eps]
    return Mrs(m.top, m.index, tuple(eps), m.hcons, m.variables, m.icons)
