"""MRS building blocks of the question shapes: the SimpleMRS writer, noun phrases, names, wh words.

Ported from the former ``parsers/mrs/patterns.py``; the regexes and word lists live in
``axioms/shapes/*.yaml`` (read through :mod:`parsers.mrs.shapes.data`).
"""

from __future__ import annotations

import re

from parsers.mrs.shapes.data import shape_rx, shape_words
from verifier.lexical import ID_WORDS

__all__ = [
    "which_noun", "people_ep", "MAX_SPLITS", "ID_HEADS", "WORD", "MAIN_LABEL", "carg_text", "names_id",
    "np_ok", "name_ok", "plain_name_ok", "clean_span", "MrsBuilder", "noun_phrase", "kin_owned", "name_ep",
    "quantifier", "plain_np", "wh_ep", "capitalised", "title_ok", "loc_answer", "has_article"
]


#: At most this many readings per question (one per split of NP and NAME).
MAX_SPLITS = 3
#: Heads of noun phrases that may contain "of" / "for" themselves (identifiers).
ID_HEADS = ID_WORDS
#: A word: letters and digits.
WORD = re.compile(r"[^\W_]+", re.UNICODE)
#: The label of the main event ``e2`` in a SimpleMRS.
MAIN_LABEL = re.compile(r"\[ \S+<\d+:\d+> LBL: (h\d+) ARG0: e2 ")


def carg_text(text: str) -> str:
    """The quoted CARG value of ``text`` (backslashes and quotes escaped)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def names_id(np: str) -> bool:
    """Whether a noun phrase names an identifier (its last word is one of :data:`ID_HEADS`)."""
    words = WORD.findall(np.casefold())
    return bool(words) and words[-1] in ID_HEADS


def np_ok(np: str) -> bool:
    """Whether ``np`` can be one noun phrase of these shapes: it has a word, and any "of" / "for" in it is
    an identifier's or a property name's ("place of birth", "number of X")."""
    if not WORD.search(np):
        return False
    inner = shape_rx("SPLIT").findall(" " + np.strip() + " ")
    return (names_id(np) or not inner
            or (len(inner) == 1 and bool(shape_rx("OF_TAIL").match(np.strip()) or shape_rx("NUMBER_OF").match(np.strip()))))


def name_ok(name: str) -> bool:
    """Whether ``name`` can be a name: no clause word, no phrase; a capitalised name may hold
    "in", "on", "at" ... before a capitalised word ("Singin' in the Rain", :func:`title_ok`),
    but not "and", which more often joins two names ("the son of Sonny and Cher")."""
    return plain_name_ok(name) or (title_ok(name) and not shape_rx("AND_INSIDE").search(name))


def plain_name_ok(name: str) -> bool:
    """Whether ``name`` can be a plain name: no clause word, no phrase in it (patterns ``CLAUSE``,
    ``PHRASE_IN_NAME``, ``PHRASE_NOT_NAME``)."""
    return (bool(name.strip()) and not shape_rx("CLAUSE").search(name) and not shape_rx("PHRASE_IN_NAME").search(name)
            and not shape_rx("PHRASE_NOT_NAME").search(name))


def clean_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Shrink ``[start, end)`` past surrounding spaces and quotes."""
    while start < end and text[start] in " \t\"'“”‘’":
        start += 1
    while end > start and text[end - 1] in " \t\"'“”‘’":
        end -= 1
    return start, end


class MrsBuilder:
    """Writes one SimpleMRS with fresh handles and variables."""

    def __init__(self, force: str = "ques") -> None:
        self.force = force
        self.n = 2
        self.rels: list[str] = []
        self.hcons: list[str] = []

    def new(self, sort: str) -> str:
        self.n += 1
        return f"{sort}{self.n}"

    def ep(self, pred: str, span: tuple[int, int], label: str, **args: str) -> None:
        body = " ".join(f"{k}: {v}" for k, v in args.items())
        self.rels.append(f"[ {pred}<{span[0]}:{span[1]}> LBL: {label} {body} ]")

    def quantified(self, quant: str, span: tuple[int, int], x: str, restrictor: str) -> None:
        rstr, body = self.new("h"), self.new("h")
        self.ep(quant, span, self.new("h"), ARG0=x, RSTR=rstr, BODY=body)
        self.hcons.append(f"{rstr} qeq {restrictor}")

    def main(self, pred: str, span: tuple[int, int], arg1: str, arg2: str) -> str:
        """Add the sentence's main predication (event ``e2``, under the top handle) and
        return the finished SimpleMRS."""
        top = self.new("h")
        self.ep(pred, span, top, ARG0="e2", ARG1=arg1, ARG2=arg2)
        return self.text("e2", top)

    def text(self, index: str, top_label: str) -> str:
        return (f"[ TOP: h0 INDEX: {index} [ e SF: {self.force} ] RELS: < {' '.join(self.rels)} > "
                f"HCONS: < h0 qeq {top_label} {' '.join(self.hcons)} > ]")


def noun_phrase(b: MrsBuilder, q: str, np: tuple[int, int], quant: str,
                 qspan: tuple[int, int] | None = None) -> tuple[str, str] | None:
    """EPs of a noun phrase as the ERG builds an unknown-word compound: the last word is the
    head, every other content word a compound modifier with its own variable (so that a class
    named by a modifier, "treaty" in "treaty location", is not the head's class).  Returns
    (x of the head, its label)."""
    toks = [(m.group(0), np[0] + m.start(), np[0] + m.end()) for m in WORD.finditer(q[np[0]:np[1]])]
    toks = [t for t in toks if t[0].casefold() not in shape_words("FUNCTION")] or toks
    if not toks:
        return None
    x, lab = b.new("x"), b.new("h")
    word, a, z = toks[-1]
    b.ep(f"_{word.casefold()}/nn_u_unknown", (a, z), lab, ARG0=x)
    b.quantified(quant, qspan or np, x, lab)
    for word, a, z in toks[:-1]:
        xm, lm = b.new("x"), b.new("h")
        b.ep(f"_{word.casefold()}/nn_u_unknown", (a, z), lm, ARG0=xm)
        b.quantified("udef_q", (a, z), xm, lm)
        b.ep("compound", (a, np[1]), lab, ARG0=b.new("e"), ARG1=x, ARG2=xm)
    return x, lab


def kin_owned(q: str, span: tuple[int, int]) -> re.Match | None:
    """The :data:`OWNED` match of ``span`` when its noun is a relative (:data:`KIN`):
    "Obama's wife"."""
    m = shape_rx("OWNED").match(q, span[0], span[1])
    return m if m and m.group("np").casefold() in shape_words("KIN") else None


def name_ep(b: MrsBuilder, q: str, name: tuple[int, int], text: str | None = None) -> str:
    """A ``named`` EP (and its ``proper_q``) for the span ``name``, whose CARG is ``text``
    (the span's own text by default).  Lowercase words in front of a capitalised name are a
    compound modifier of the name, as the ERG reads "the composer Pete Townshend"."""
    if text is None:
        # (in a question written in lower case, whose possessives the grammar often misreads;
        # with capitals the grammar's readings have them, and a garbled LC-QuAD question such
        # as "What is the discography for Justin Timberlake's discography?" is read best with
        # the whole name; there only a relative: "In which school did Obama's wife study?")
        m = shape_rx("OWNED").match(q, name[0], name[1]) if q == q.casefold() else kin_owned(q, name)
        if (m and plain_name_ok(m.group("owner")) and m.group("np").casefold().split()[0] not in shape_words("FUNCTION")
                and m.group("np").casefold() not in shape_words("NAME_NOUNS")):
            # "walt disney's son", "marty mcfly's dad": the noun of the name's owner, as the
            # ERG reads a possessive
            owner = name_ep(b, q, m.span("owner"))
            x_np, l_np = noun_phrase(b, q, m.span("np"), "def_explicit_q", name)
            b.ep("poss", (m.end("owner"), name[1]), l_np, ARG0=b.new("e"), ARG1=x_np, ARG2=owner)
            return x_np
    x, lab = b.new("x"), b.new("h")
    m = shape_rx("ROLE_BEFORE_NAME").match(q, name[0], name[1]) if text is None else None
    if m and m.group("role").casefold().split()[0] not in shape_words("FUNCTION"):
        role = m.span("role")
        b.ep("named", (m.end(), name[1]), lab, ARG0=x, CARG=carg_text(q[m.end():name[1]]))
        b.quantified("proper_q", name, x, lab)
        head = noun_phrase(b, q, role, "udef_q")
        if head is not None:
            b.ep("compound", name, lab, ARG0=b.new("e"), ARG1=x, ARG2=head[0])
        return x
    b.ep("named", name, lab, ARG0=x, CARG=carg_text(q[name[0]:name[1]] if text is None else text))
    b.quantified("proper_q", name, x, lab)
    return x


def quantifier(det: str | None) -> str:
    """The quantifier of a noun phrase after ``det`` ("the" or none: ``_the_q``)."""
    return "_the_q" if det is None or det.casefold() == "the" else "_a_q"


def plain_np(text: str) -> bool:
    """A noun phrase without a clause in it that these shapes can build (:func:`np_ok`)."""
    return not shape_rx("CLAUSE").search(text) and np_ok(text)


def wh_ep(b: MrsBuilder, wh: str, span: tuple[int, int]) -> str:
    """The answer of a wh word: ``person`` for "who", else ``thing``, under ``which_q``; returns its
    variable."""
    x, lab = b.new("x"), b.new("h")
    b.ep("person" if wh.casefold() == "who" else "thing", span, lab, ARG0=x)
    b.quantified("which_q", span, x, lab)
    return x


def capitalised(name: str) -> bool:
    """Whether every word of ``name`` but function words is capitalised ("Theresa May", "Duke
    of York"; not "Linda Nochlin major while")."""
    return all(w[:1].isupper() or w[:1].isdigit() or w in shape_words("FUNCTION") for w in name.split())


def title_ok(name: str) -> bool:
    """Whether a capitalised ``name`` is a title that may hold "in", "on", "of" ... before a capitalised
    word (``TITLE_JOINT``)."""
    return name[:1].isupper() and plain_name_ok(shape_rx("TITLE_JOINT").sub(" X ", name))


def loc_answer(b: MrsBuilder, noun: str, span: tuple[int, int], top: str | None = None,
                rel: str = "loc_nonsp", rel_span: tuple[int, int] | None = None) -> str:
    """``noun`` (``time_n``, ``place_n``: an answer, ``which_q``) and its ``loc_nonsp`` (or
    ``rel``, over ``rel_span``: ``_from_p_dir`` for "where ... from") on the main event ``e2``
    under ``top`` (a new label when ``None``); returns the top label."""
    x, lab = b.new("x"), b.new("h")
    b.ep(noun, span, lab, ARG0=x)
    b.quantified("which_q", span, x, lab)
    top = top or b.new("h")
    b.ep(rel, rel_span or span, top, ARG0=b.new("e"), ARG1="e2", ARG2=x)
    return top


def has_article(text: str) -> bool:
    """Whether a would-be name holds an article (a phrase: "the war", "a lake in X")."""
    return bool(shape_rx("ARTICLE_INSIDE").search(f" {text} "))


def which_noun(b: MrsBuilder, pred: str, span: tuple[int, int], wh_span: tuple[int, int],
                relational: bool = False) -> str:
    """The answer as a noun asked for with "what" / "which" ("what county", "which films"):
    the noun's EP (an unexpressed complement when ``relational``) under ``_which_q``."""
    x, lab = b.new("x"), b.new("h")
    if relational:
        b.ep(pred, span, lab, ARG0=x, ARG1=b.new("i"))
    else:
        b.ep(pred, span, lab, ARG0=x)
    b.quantified("_which_q", wh_span, x, lab)
    return x


def people_ep(b: MrsBuilder, span: tuple[int, int], demonym: str | None = None,
            demonym_span: tuple[int, int] = (-1, -1)) -> str:
    """"people" (``_people_n_of``), with the demonym that modifies it ("russian people"), as a
    quantified noun phrase; returns its variable."""
    x, lab = b.new("x"), b.new("h")
    b.ep("_people_n_of", span, lab, ARG0=x, ARG1=b.new("i"))
    if demonym:
        b.ep(f"_{demonym.casefold()}/jj_u_unknown", demonym_span, lab, ARG0=b.new("e"), ARG1=x)
    b.quantified("udef_q", (demonym_span[0] if demonym else span[0], span[1]), x, lab)
    return x
