"""Pattern readings: MRSs for a few fixed question shapes, without a grammar.

The ERG parses most questions well, but not all: the shared corpus was parsed with a lexicon
that does not match its rules, and a released grammar stumbles over long names ("Which is
the Irish Rugby Football Union men's player ID for Brian O'Driscoll?" becomes a chain of
appositions).  For the commonest question shapes this module writes the MRS that the
grammar would give, so that the deductive check has one reading with the right structure
next to the grammar's.  It also gives a reading when no parser is configured at all.

Shapes (case-insensitive; ``NP`` is a noun phrase, ``NAME`` a name):

* ``What|Which is [the] NP of|for NAME?``, ``Who is [the] NP of NAME?`` and the requests
  ``Name|Tell me|Give me [the] NP of|for NAME``: the NP's head
  relates to the name through the preposition (``_of_p`` / ``_for_p``), and the answer is
  what the NP denotes (an identity copula, as the ERG reads it);
* ``What|Who is NAME's NP?``: a possessive (``poss``);
* ``NAME has what|which NP?``: ``_have_v_1``;
* ``Tell me|Give me|Name|What is|Which are [the] NP whose name has the word W [in it]`` and
  ``... NP that starts with [the letter] L`` (and "contains the word W in their name"): the
  answer is an NP, as in "What is the NP?"; the restriction of its name is checked against
  the query's string test by the deductive check, not written in the MRS;
* ``Which|What [is the]|Name the CLASS has|with the highest|lowest|maximum ... NP?``: the
  class has the NP (``_have_v_1``), which is superlative (``_high_a_1`` with ``superl``, or
  ``_maximum_a_1``); the answer is the CLASS; a closing ``whose NP2 is NAME2`` says the
  CLASS's NP2 (``poss``) is NAME2 (``appos``);
* ``Which|What is [the] CLASS for [the] NP of NAME?``: besides the chain (the CLASS is for the
  NP, the NP is of NAME), the two readings LC-QuAD 2.0 writes this way: the CLASS that is the
  NP of NAME (``appos``), and the CLASS whose NP is NAME (``poss``, "the NP of NAME" naming
  NAME itself, ``appos``), so that a query faithful to either is faithful;
* ``What|Which|Who is [the] NP1 of|for NAME1 [,] that|which has [a|the] NP2 of|as|in NAME2``,
  ``... NP1 of NAME1 with [a|the] NP2 of|as NAME2`` and ``... NP1 of NAME1 whose NP2 is
  NAME2``: the answer is the NP1 of NAME1, which has (``_have_v_1`` / ``poss``) an NP2 that
  is NAME2 (``appos``); when NAME2 is a number, the NP2 is a value the query looks up and
  compares (its filter is checked against the question's words);
* ``What|Which is [the] NP that VERBs NAME?`` and ``... NP that is VERBed by NAME?``: an
  unknown-word verb (``_represents/vbz_u_unknown``) relating the NP and the name, the name
  being the doer of a passive; a past verb (``... NP that created NAME``, ``_created/vbd``)
  is active; with a preposition after the verb (``... NP who works for NAME``) the name is
  the preposition's;
* ``What|Which|Who is [the] NP1 [of NAME1] that is [also] the NP2 of|for NAME2?``: the answer
  (the NP1, or the NP1 of NAME1) is (``_be_v_id``) the NP2 of NAME2;
* ``What|Which|Who is|was VERBed by|for|in|... NAME?``: a passive whose undergoer is the
  answer, the name being the doer after "by" and otherwise the preposition's;
* ``How many NP does NAME have?`` (or ``NAME has how many NP?``), ``How many NP are VERBed
  by NAME?`` and ``How many NP are [there] for|of NAME?``: the NP is counted (``abstr_deg`` +
  ``much-many_a`` + ``measure``, as the ERG writes "how many"; with "there", ``_be_v_there``
  and the preposition on the NP); ``How many NP VERB in|on|at PLACE?`` ("How many people
  live in Poland?"): the NP is counted and does the (intransitive) verb, which the
  preposition places; PLACE is a name or [the] NP2 of NAME.
* ``Give me|Name|List|What are [the] NP1 of all NP2 of|in|from|on|at NAME``: a chain of two
  noun phrases ("the capitals of all countries in Africa"), the second related to the name
  by its preposition, "all" read as "the";
* ``Name|Give me|Which is [the] NP VERBed by NAME``: the relative clause without "that is";
  with another preposition (``NP VERBed in|at|on|... NAME``) the NP undergoes the verb and the
  name is the preposition's ("Name a codex written in Old English"), and an NP VERBing PREP
  NAME does the verb ("Name someone working in Vancouver"); "someone" is a person;
* ``Did NAME VERB [PREP] [both] A and B?`` and ``Was NAME VERBed PREP A and B?``: a yes/no
  question about two names, written distributed (one verb predication per conjunct), as the
  coordination means it;
* ``Is it true that NAME VERBs|was VERBed [PREP] NAME2 [and NAME3]?``: the statement, read
  like the yes/no question above (names capitalised);
* ``Were A and B [the] NP of NAME?``, ``Was NAME a NP of A and B?`` and ``Was NAME's NP A and
  B?``: yes/no copulas over two names, one noun phrase per conjunct; ``Is NAME's NP [a|an|the]
  NAME2?`` with one name ("Is Anderson Cooper's mother Gloria Vanderbilt?");
* ``Was NAME_JOINED NP VALUE [and VALUE2]?`` (LC-QuAD 2.0's "Was Marilyn_Manson genre
  Deathrock?"): the NAME's NP is each value (one reading per NP of one to three lower-case
  words); "Was NAME_JOINED NP of A and B?": NAME is a NP of each;
* ``Is [the] NP of NAME [equal to|more than|...] VALUE?``: the NP is a number (``card``); the
  comparison is checked against the query's filter, not written in the MRS;
* ``What|Which NP did|does NAME VERB [PREP]?``: the NP is the verb's object (or, with a
  stranded preposition, the preposition's); ``What NP did NAME VERB NAME2 PREP?`` and ``PREP
  what NP did|will NAME VERB NAME2?``: the NP is the preposition's;
* ``When did NAME become|start as|cease being [a] NP of NAME2?`` and ``When was NAME a NP of
  NAME2?``: a time (``loc_nonsp`` + ``time_n``) of ``_become_v_id`` / ``_be_v_id`` between the
  name and the NP of NAME2;
* ``Where and what|when did NAME VERB?``: two answers of the verb, its place
  (``loc_nonsp`` + ``place_n``) and its object (or its time);
* ``When|In which year was NAME VERBed PREP [a|the] NAME2?``, ``When did NAME VERB [PREP]
  [the] NAME2?`` and ``When did NAME and NAME2 VERB?``: the time of the verb's event, the
  second name being its object (or its preposition's), the two coordinated names its
  subject (``_and_c``); "When did NAME start|stop|... VERBing [PREP] NAME2?" is read as the
  time of the VERBing (its start or end is read from the question's words).
* Informal shapes of WikiWebQuestions, each as the ERG reads the questions it parses:
  ``Where is|was [the] NAME [located|situated|from|at]?`` (``loc_nonsp`` between the name and
  a ``place_n``; ``_locate_v_1``; ``_from_p``), ``Who played|plays|voiced CHARACTER in|on
  WORK?`` (the work on the verb's event), ``Who is NAME married to?`` (``_married_a_1`` and
  ``_to_p_state``), ``What county|city|country|state|province is|was NAME [located|born]
  in?``, ``What films|movies has|have NAME starred|played|appeared|acted in?``, ``Who|What
  is NAME wife|husband|parents ... [name]?`` (a relative written without "'s": ``poss``),
  ``Who|What team(s)|club(s) does|did|has NAME play[ed] for?`` (``_play_v_1`` and ``_for_p``
  on its event), ``What did NAME die of|from?`` (``_die_v_of``; ``_die_v_1`` and
  ``_from_p``), ``Who did NAME marry?``, ``Who did|does NAME play in|on WORK?`` (the
  character asked for: the object of ``_play_v_1``), ``Who is playing|has played|will play
  CHARACTER in|on WORK?`` and ``Where did NAME go|went to [high] school|college|university?``
  (``_go_v_1``, ``_to_p_dir`` and the place on ``loc_nonsp``).
* ``Is [the] NP of NAME ... VALUE?`` also with NP "number of W [W [W]]" and as ``Is NAME's NP
  ... VALUE?`` (``poss``).

"Where is|was [the] PLACE of NAME [located]?", with a noun that names a place (location,
headquarters, birthplace, workplace, residence, grave ...), asks for that place and is read
as "What is [the] PLACE of NAME?" ("Where" written "What", "located" blanked).

A time at the end or the start of a question ("... in the year 1888?", "... on 4/29/2014?",
"In 1983, what award ...?") is set aside, the rest is read by the shapes above, and the time
is added as a year (``yofc``) under a temporal preposition (``_in_p_temp``) on the main event.
A name after "in", "at", "during", "for" or "on" at the end ("What was Arthur Penn nominated
for at the 12th Annual Tony Awards?"), when no shape reads the question as written and a name
comes before it, is set aside the same way and added as that preposition on the main event.
A name test closing a question that says more ("Name a skyscraper designed by Atkins that
contains the word "Al" in its name") is set aside the same way and the rest read by the shapes
above (the deductive check reads the name test from the question's words), also after a
relative clause of its own ("... that has as NP NAME and starts with the letter r").
"... that has as NP2 NAME2", the object written after its "as" phrase, reads as "... that has
NAME2 as NP2" (the name starting after "the" or at the first capitalised word).
"What is|Give me the name of the|a|an NP ...?" (the name of a description, not of a proper
name) is read first as "What is the NP ...?", the words "the name of" blanked: a KG query
answers it with the thing described, whose label is the name.
A participle and a preposition right after the copula ("Who was nominated for X?") are a
passive, not a noun phrase: no copula reading.

When the question contains several "of"/"for", each split is one reading (at most
:data:`MAX_SPLITS`), as a grammar would give one reading per attachment; a noun phrase that
may be a property's name ("place of birth", "field of profession") is read both as one noun
phrase and as a chain of two.  The NP becomes
one noun predication spanning all its words (an unknown-word predicate named after its head
word, ``_id/nn_u_unknown``); the name one ``named`` predication whose ``CARG`` is the text.
The grounding links both by the words they span, exactly as for the grammar's readings.

Public API: :func:`pattern_readings` (question -> list of SimpleMRS strings).
"""

from __future__ import annotations

import re
from typing import Sequence

from verifier.lexical import ID_WORDS, base_forms, irregular_base

__all__ = ["pattern_readings", "MAX_SPLITS", "NAME_OF_DESCRIPTION"]

#: At most this many readings per question (one per split of NP and NAME).
MAX_SPLITS = 3

_END = r"\s*[?.!]*\s*$"
#: A number as questions write it ("248440", "3,170,280", ".024", "1.30289e+06").
_NUMBER_TEXT = r"[-+]?(?:\d[\d,]*(?:\.\d+)?|\.\d+)(?:e[-+]?\d+)?"
# "What is in the NP of NAME?" is how LC-QuAD 2.0 often writes "What is the NP of NAME?"
_COPULA = re.compile(r"^\s*(?:(?P<wh>what|which|who|how\s+much)(?:\s+(?:is|was|are|were)(?:\s+in(?=\s+the\s))?|'s|’s|(?=\s+the\s))"
                     r"|name|mention|list|define|enlist|identify|specify|(?:tell|give|show)\s+me)\s+"
                     r"(?:(?P<det>the|a|an)\s+)?(?P<rest>.+?)" + _END, re.I)
_POSSESSIVE = re.compile(r"^\s*(?P<wh>what|who)(?:\s+(?:is|was|are|were)|'s|’s)\s+(?:the\s+)?"
                         r"(?P<name>[^?]+?)(?:'s|’s|')\s+(?P<np>[^?]+?)" + _END, re.I)
_HAVE = re.compile(r"^\s*(?P<name>[^?]+?)\s+(?P<verb>has|had|have)\s+(?P<wh>what|which)\s+"
                   r"(?P<np>[^?]+?)" + _END, re.I)
_SPLIT = re.compile(r"\s+(of|for)\s+", re.I)
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
# words that end a name or start a clause: such questions are beyond these shapes
_CLAUSE = re.compile(r"\b(that|which|who|whose|whom|where|when|and|or|with|in|on|at|by|"
                     r"is|was|are|were|has|have|had|did|does)\b", re.I)


def _carg(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


#: Heads of noun phrases that may contain "of" / "for" themselves: identifiers named after
#: an institution ("the Library of Congress authority ID of X").  Any other noun phrase with
#: "of" / "for" is a nested phrase ("the 3D film for the series of X") beyond these shapes.
ID_HEADS = ID_WORDS
_FUNCTION = frozenset({"of", "for", "the", "a", "an", "de", "du", "des", "la", "le", "del",
                       "di", "von", "van", "and", "&"})
# a common noun right before "of" / "for" inside a name: "the location of Manhattan" is not
# a name but a phrase
_PHRASE_IN_NAME = re.compile(r"(?:^|\s)(?:the\s+)?[a-z][\w-]*\s+(?:of|for)\s", re.UNICODE)


# a noun phrase ending in "of" + one common noun is a property's name ("place of birth",
# "country of citizenship"), not a nested phrase; "location of the" is no noun phrase
_OF_TAIL = re.compile(r"^[^\s].*?\s(?:of|for)\s+(?!(?:the|a|an)$)[a-z][a-z-]*$")
# so is "number of" with up to three lowercase words ("number of platform tracks", "number
# of spoilt votes"): Wikidata names its counts this way
_NUMBER_OF = re.compile(r"^(?:(?:total|the)\s+)?(?:number|amount|count|quantity)\s+of\s+"
                        r"(?!(?:the|a|an)\s)(?:[a-z][a-z-]*\s+){0,2}[a-z][a-z-]*$")


def _names_id(np: str) -> bool:
    """Whether a noun phrase names an identifier (its last word is one of :data:`ID_HEADS`)."""
    words = _WORD.findall(np.casefold())
    return bool(words) and words[-1] in ID_HEADS


def _np_ok(np: str) -> bool:
    if not _WORD.search(np):
        return False
    inner = _SPLIT.findall(" " + np.strip() + " ")
    return (_names_id(np) or not inner
            or (len(inner) == 1 and bool(_OF_TAIL.match(np.strip()) or _NUMBER_OF.match(np.strip()))))


# a span that is a phrase, not a name: it starts with a preposition ("[refers] to the Coen
# brothers", "as a parent organization to UNICEF"), holds an auxiliary ("James Watt do field
# [work in]"), a lowercase word before "to" / "as" / "from" ("the person married to Hillary
# Clinton", "the vernacular as X", "according to the census", "the landing from the Caribbean
# Sea") or "to" before a verb ("the drug to treat X").  Titles capitalise those words ("Mr.
# Smith Goes to Washington", "Journey to the West").
_PHRASE_NOT_NAME = re.compile(
    r"^(?:to|for|as|from|into|about|according)\s|(?:^|\s)(?:do|does|did)(?:\s|$)"
    r"|^(?:the\s+)?(?:year|date|day)\s+(?:of\s+)?\d"  # a time ("the year 1947")
    r"|(?:^|\s)[a-z][\w-]{2,}\s+(?:to|as|from)(?:\s|$)|(?:^|\s)to\s+(?!(?:the|a|an)\s)[a-z]")


def _name_ok(name: str) -> bool:
    """Whether ``name`` can be a name: no clause word, no phrase; a capitalised name may hold
    "in", "on", "at" ... before a capitalised word ("Singin' in the Rain", :func:`_title_ok`),
    but not "and", which more often joins two names ("the son of Sonny and Cher")."""
    return _plain_name_ok(name) or (_title_ok(name) and not re.search(r"\sand\s", name))


def _plain_name_ok(name: str) -> bool:
    return (bool(name.strip()) and not _CLAUSE.search(name) and not _PHRASE_IN_NAME.search(name)
            and not _PHRASE_NOT_NAME.search(name))


def _blanked(text: str, *spans: tuple[int, int]) -> str:
    """``text`` with the characters of ``spans`` replaced by spaces, so that the spans of the
    rest keep their offsets."""
    for a, z in spans:
        text = text[:a] + " " * (z - a) + text[z:]
    return text


def _clean_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Shrink ``[start, end)`` past surrounding spaces and quotes."""
    while start < end and text[start] in " \t\"'“”‘’":
        start += 1
    while end > start and text[end - 1] in " \t\"'“”‘’":
        end -= 1
    return start, end


class _Builder:
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


def _noun_phrase(b: _Builder, q: str, np: tuple[int, int], quant: str,
                 qspan: tuple[int, int] | None = None) -> tuple[str, str] | None:
    """EPs of a noun phrase as the ERG builds an unknown-word compound: the last word is the
    head, every other content word a compound modifier with its own variable (so that a class
    named by a modifier, "treaty" in "treaty location", is not the head's class).  Returns
    (x of the head, its label)."""
    toks = [(m.group(0), np[0] + m.start(), np[0] + m.end()) for m in _WORD.finditer(q[np[0]:np[1]])]
    toks = [t for t in toks if t[0].casefold() not in _FUNCTION] or toks
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


# one or two lowercase words in front of a capitalised name: a noun for what the name is
# ("the composer Pete Townshend", "illustrator Beatrix Potter")
_ROLE_BEFORE_NAME = re.compile(r"(?:(?:the|a|an)\s+)?(?P<role>(?-i:[a-z])[\w-]+(?:\s+(?-i:[a-z])[\w-]+)?)"
                               r"\s+(?=(?-i:[A-Z]))", re.I)


#: Relatives, which a possessive before them names whatever the question's case (``_name``).
_KIN = frozenset({"wife", "husband", "spouse", "son", "sons", "daughter", "daughters", "father",
                  "mother", "brother", "brothers", "sister", "sisters", "children", "parents",
                  "siblings", "child"})
#: A name followed by a possessive and one or two lower-case words ("walt disney's son").
_OWNED = re.compile(r"(?P<owner>[^?,]*?[^\s'’])(?:'s|’s)\s+(?P<np>(?-i:[a-z])[\w-]*(?:\s+(?-i:[a-z])[\w-]*)?)\s*$")


def _kin_owned(q: str, span: tuple[int, int]) -> re.Match | None:
    """The :data:`_OWNED` match of ``span`` when its noun is a relative (:data:`_KIN`):
    "Obama's wife"."""
    m = _OWNED.match(q, span[0], span[1])
    return m if m and m.group("np").casefold() in _KIN else None


def _name(b: _Builder, q: str, name: tuple[int, int], text: str | None = None) -> str:
    """A ``named`` EP (and its ``proper_q``) for the span ``name``, whose CARG is ``text``
    (the span's own text by default).  Lowercase words in front of a capitalised name are a
    compound modifier of the name, as the ERG reads "the composer Pete Townshend"."""
    if text is None:
        # (in a question written in lower case, whose possessives the grammar often misreads;
        # with capitals the grammar's readings have them, and a garbled LC-QuAD question such
        # as "What is the discography for Justin Timberlake's discography?" is read best with
        # the whole name; there only a relative: "In which school did Obama's wife study?")
        m = _OWNED.match(q, name[0], name[1]) if q == q.casefold() else _kin_owned(q, name)
        if (m and _plain_name_ok(m.group("owner")) and m.group("np").casefold().split()[0] not in _FUNCTION
                and m.group("np").casefold() not in ("name", "names", "real name", "full name")):
            # "walt disney's son", "marty mcfly's dad": the noun of the name's owner, as the
            # ERG reads a possessive
            owner = _name(b, q, m.span("owner"))
            x_np, l_np = _noun_phrase(b, q, m.span("np"), "def_explicit_q", name)
            b.ep("poss", (m.end("owner"), name[1]), l_np, ARG0=b.new("e"), ARG1=x_np, ARG2=owner)
            return x_np
    x, lab = b.new("x"), b.new("h")
    m = _ROLE_BEFORE_NAME.match(q, name[0], name[1]) if text is None else None
    if m and m.group("role").casefold().split()[0] not in _FUNCTION:
        role = m.span("role")
        b.ep("named", (m.end(), name[1]), lab, ARG0=x, CARG=_carg(q[m.end():name[1]]))
        b.quantified("proper_q", name, x, lab)
        head = _noun_phrase(b, q, role, "udef_q")
        if head is not None:
            b.ep("compound", name, lab, ARG0=b.new("e"), ARG1=x, ARG2=head[0])
        return x
    b.ep("named", name, lab, ARG0=x, CARG=_carg(q[name[0]:name[1]] if text is None else text))
    b.quantified("proper_q", name, x, lab)
    return x


def _quantifier(det: str | None) -> str:
    """The quantifier of a noun phrase after ``det`` ("the" or none: ``_the_q``)."""
    return "_the_q" if det is None or det.casefold() == "the" else "_a_q"


def _plain_np(text: str) -> bool:
    """A noun phrase without a clause in it that these shapes can build (:func:`_np_ok`)."""
    return not _CLAUSE.search(text) and _np_ok(text)


def _checked_np_name(q: str, np: tuple[int, int], name: tuple[int, int]):
    """The cleaned spans of a plain noun phrase and a name, or None when either does not fit."""
    np, name = _clean_span(q, *np), _clean_span(q, *name)
    if not _plain_np(q[np[0]:np[1]]) or not _name_ok(q[name[0]:name[1]]):
        return None
    return np, name


def _np_and_name(b: _Builder, q: str, np: tuple[int, int], name: tuple[int, int],
                 quant: str, qspan: tuple[int, int] | None = None) -> tuple[str, str, str] | None:
    """EPs of the noun phrase (quantified by ``quant``, over ``qspan`` if given) and of the
    name; returns (x of the NP, label of the NP's head noun, x of the name) or None when
    either does not fit."""
    spans = _checked_np_name(q, np, name)
    if spans is None:
        return None
    np, name = spans
    head = _noun_phrase(b, q, np, quant, qspan)
    if head is None:
        return None
    return head[0], head[1], _name(b, q, name)


def _of_name(b: _Builder, q: str, x: str, label: str, prep: tuple[str, tuple[int, int]],
             name: tuple[int, int]) -> None:
    """The EP relating a noun phrase (``x``, labelled ``label``) to the name of a
    :func:`_splits` split by its preposition ("the position *of* Benedict XVI")."""
    b.ep(f"_{prep[0].casefold()}_p", prep[1], label, ARG0=b.new("e"), ARG1=x, ARG2=_name(b, q, name))


def _whose_is(b: _Builder, q: str, owner: str, x2: str, l2: str, poss_span: tuple[int, int],
              appos_span: tuple[int, int], name: tuple[int, int]) -> None:
    """EPs saying that the ``owner``'s NP2 (``x2``, labelled ``l2``) is the name: ``poss``
    and ``appos``, as "whose NP2 is NAME" reads."""
    b.ep("poss", poss_span, l2, ARG0=b.new("e"), ARG1=x2, ARG2=owner)
    b.ep("appos", appos_span, l2, ARG0=b.new("e"), ARG1=x2, ARG2=_name(b, q, name))


def _wh(b: _Builder, wh: str, span: tuple[int, int]) -> str:
    x, lab = b.new("x"), b.new("h")
    b.ep("person" if wh.casefold() == "who" else "thing", span, lab, ARG0=x)
    b.quantified("which_q", span, x, lab)
    return x


def _verb_and_prep(b: _Builder, top: str, pred: str, span: tuple[int, int], arg1: str, arg2: str,
                   prep: str, prep_span: tuple[int, int], obj: str, sense: str = "p") -> str:
    """The main verb (event ``e2``, under ``top``) with its two arguments and a preposition on
    its event whose object is ``obj`` ("X plays *for* who", "X is known *for* what"), as the
    ERG writes a verb's modifier (``_for_p``, or another ``sense``: ``_in_p_state``); returns
    the finished SimpleMRS."""
    b.ep(pred, span, top, ARG0="e2", ARG1=arg1, ARG2=arg2)
    b.ep(f"_{prep.casefold()}_{sense}", prep_span, top, ARG0=b.new("e"), ARG1="e2", ARG2=obj)
    return b.text("e2", top)


def _which_noun(b: _Builder, pred: str, span: tuple[int, int], wh_span: tuple[int, int],
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


def _answer(b: _Builder, m: re.Match) -> tuple[str, int]:
    """The answer's variable for the match's ``wh`` word ("what", "which", "who"; a request
    such as "Name the ..." asks for a thing) and where the wh phrase ends."""
    if m.group("wh"):
        return _wh(b, m.group("wh"), m.span("wh")), m.end("wh")
    return _wh(b, "what", (0, 0)), 0


# a participle and a preposition right after the copula ("Who was nominated for ...", "What is
# known as ..."): a passive ("Who was elected rector of X?" stays a noun phrase)
_PASSIVE_START = re.compile(
    r"(?!(?:speed|breed|creed|seed|need|deed|steed|reed|bed|red|feed|weed|shed)\b)"
    r"(?:[a-z]{2,}ed|born|known|given|written|held|won|made|shown|seen|taken|sworn|begun|"
    r"sung|built|sold|bought|taught|led|spoken|chosen|drawn|grown|thrown|found|named|called)\s+"
    r"(?:for|of|in|at|by|after|as|to|from|with|on|into)\s", re.I)


def _copula_readings(q: str) -> list[str]:
    m = _COPULA.match(q)
    if not m:
        return []
    rest0 = m.start("rest")
    rest = m.group("rest")
    if not m.group("det") and _PASSIVE_START.match(rest):
        return []  # "Who was nominated for X?": a passive, not "Who was the nominee for X?"
    out = []
    splits = list(_SPLIT.finditer(rest))
    for j, sp in enumerate(splits):
        np = (rest0, rest0 + sp.start())
        name = (rest0 + sp.end(), m.end("rest"))
        if _CLAUSE.search(q[np[0]:np[1]]) or not _name_ok(q[name[0]:name[1]]):
            continue
        prep = (sp.group(1).casefold(), (rest0 + sp.start(1), rest0 + sp.end(1)))
        if _np_ok(q[np[0]:np[1]]):
            out.append(_copula_mrs(q, m, [np], [], prep, name))
            if j == 0 or _names_id(q[np[0]:np[1]]):
                continue
            # "the field of profession for X" may be a property's name ("place of birth") or
            # a chain ("the field of [the] profession for X"): one reading each, as a
            # grammar gives one per attachment
        # "the child body of the parent body of X": a chain of two noun phrases.  (Reading
        # "the CLASS of the PROPERTY of X" as one thing named twice, as LC-QuAD sometimes means
        # it, accepted the inverse direction as often as the right one: not done.  With "for"
        # both directions are what LC-QuAD means, and each is a reading: _class_for_mrs.)
        for inner in splits[:j]:
            np1 = (rest0, rest0 + inner.start())
            np2 = (rest0 + inner.end(), rest0 + sp.start())
            if _np_ok(q[np1[0]:np1[1]]) and _np_ok(q[np2[0]:np2[1]]):
                p1 = (inner.group(1).casefold(), (rest0 + inner.start(1), rest0 + inner.end(1)))
                out.append(_copula_mrs(q, m, [np1, np2], [p1], prep, name))
                if p1[0] == "for" and prep[0] == "of":
                    out.extend(_class_for_mrs(q, m, np1, np2, name, how) for how in ("is", "has"))
                break
    return [r for r in out if r is not None]


def _class_for_mrs(q: str, m: re.Match, np1: tuple[int, int], np2: tuple[int, int],
                   name: tuple[int, int], how: str) -> str | None:
    """The two readings of "Which is the CLASS for the NP of NAME?" (LC-QuAD 2.0 writes both
    of its templates so): ``is``, the CLASS that is the NP of NAME ("the business cluster for
    the capital of Karnataka"), an apposition; ``has``, the CLASS whose NP is NAME ("the
    currency for the country of Biafra"), "the NP of NAME" naming NAME itself."""
    b = _Builder()
    x_wh, wh_end = _answer(b, m)
    h1 = _noun_phrase(b, q, _clean_span(q, *np1), _quantifier(m.group("det")))
    h2 = _noun_phrase(b, q, _clean_span(q, *np2), "_the_q")
    if h1 is None or h2 is None:
        return None
    (x1, l1), (x2, l2) = h1, h2
    x_name = _name(b, q, _clean_span(q, *name))
    if how == "is":
        b.ep("appos", (np1[0], name[1]), l1, ARG0=b.new("e"), ARG1=x1, ARG2=x2)
        b.ep("_of_p", (np2[1], name[0]), l2, ARG0=b.new("e"), ARG1=x2, ARG2=x_name)
    else:
        b.ep("poss", (np1[1], np2[1]), l2, ARG0=b.new("e"), ARG1=x2, ARG2=x1)
        b.ep("appos", (np2[0], name[1]), l2, ARG0=b.new("e"), ARG1=x2, ARG2=x_name)
    return b.main("_be_v_id", (wh_end, m.start("rest")), x_wh, x1)


def _copula_mrs(q: str, m: re.Match, nps: list[tuple[int, int]], links: list, prep: tuple,
                name: tuple[int, int]) -> str | None:
    """The MRS of "wh is NP1 [prep NP2] prep NAME": consecutive noun phrases are related by
    their preposition (``links[i]``: (word, span))."""
    b = _Builder()
    x_wh, wh_end = _answer(b, m)
    heads = []
    for i, np in enumerate(nps):
        np = _clean_span(q, *np)
        h = _noun_phrase(b, q, np, _quantifier(None if i else m.group("det")))
        if h is None:
            return None
        heads.append(h)
    name = _clean_span(q, *name)
    x_name = _name(b, q, name)
    top = b.new("h")
    b.ep("_be_v_id", (wh_end, m.start("rest")), top, ARG0="e2", ARG1=x_wh, ARG2=heads[0][0])
    for (x1, l1), (x2, _), link in zip(heads, heads[1:], links):
        b.ep(f"_{link[0]}_p", link[1], l1, ARG0=b.new("e"), ARG1=x1, ARG2=x2)
    b.ep(f"_{prep[0]}_p", prep[1], heads[-1][1], ARG0=b.new("e"), ARG1=heads[-1][0], ARG2=x_name)
    return b.text("e2", top)


# "Give me the capitals of all countries in Africa.", "Give me the birthdays of all actors
# of the television show Charmed.": a chain of two noun phrases, the second (after "of all")
# related to a name by its preposition.  "all" says that no country is left out, which a
# query says by not cutting its answers off; the noun phrase is read like "the countries"
_OF_ALL = re.compile(
    r"^\s*(?:(?P<wh>what|which)\s+(?:are|were)|name|list|(?:tell|give|show)\s+me)\s+"
    r"(?:(?P<det>the)\s+)?(?P<rest>(?P<np1>[^?,]+?)\s+(?P<of>of)\s+all\s+(?P<np2>[^?,]+?)\s+"
    r"(?P<prep>of|in|from|on|at)\s+(?P<name>[^?,]+?))" + _END, re.I)


def _of_all_readings(q: str) -> list[str]:
    m = _OF_ALL.match(q)
    if not m or not all(_plain_np(m.group(g)) for g in ("np1", "np2")) or not _name_ok(m.group("name")):
        return []
    mrs = _copula_mrs(q, m, [m.span("np1"), m.span("np2")], [("of", m.span("of"))],
                      (m.group("prep").casefold(), m.span("prep")), m.span("name"))
    return [mrs] if mrs is not None else []


# "who is robert downey jr wife?", "what is bethenny frankel husband name?", "what is brazil
# time zone?", "what is yale university mascot?": a relative (or the time zone, the mascot)
# written after the name without "'s", read as the possessive
_KIN_AFTER_NAME = re.compile(
    r"^\s*(?P<wh>what|who)\s+(?:is|was|are|were)\s+(?:the\s+)?(?:names?\s+of\s+)?(?P<name>[^?']+?)\s+"
    r"(?P<np>wife|husband|sister|sisters|brother|brothers|father|mother|dad|mom|son|sons|daughter|"
    r"daughters|parents|children|kids|spouse|boyfriend|girlfriend|time\s+zones?|mascots?|"
    r"nationality|religion|ethnicity|occupation|profession|jobs?|teachers?|coach|siblings|"
    # "what is lil wayne real name?", "what is julia gillard party?"
    r"(?:real|birth|last|first|full|maiden|middle)\s+name|(?:political\s+)?party|net\s+worth|birthday|hometown|"
    # "What is Advanced Micro Devices ISIN?": an identifier written as its acronym
    r"(?-i:[A-Z]{3,6}))"
    r"(?:\s+names?)?" + _END,
    re.I)


def _possessive_readings(q: str) -> list[str]:
    m = _POSSESSIVE.match(q) or _KIN_AFTER_NAME.match(q)
    if not m:
        return []
    b = _Builder()
    x_wh = _wh(b, m.group("wh"), m.span("wh"))
    parts = _np_and_name(b, q, m.span("np"), m.span("name"), "_the_q")
    if parts is None:
        return []
    x_np, l_np, x_name = parts
    top = b.new("h")
    b.ep("_be_v_id", (m.end("wh"), m.start("name")), top, ARG0="e2", ARG1=x_wh, ARG2=x_np)
    b.ep("poss", (m.end("name"), m.start("np")), l_np, ARG0=b.new("e"), ARG1=x_np, ARG2=x_name)
    return [b.text("e2", top)]


def _have_readings(q: str) -> list[str]:
    m = _HAVE.match(q)
    if not m:
        return []
    b = _Builder()
    parts = _np_and_name(b, q, m.span("np"), m.span("name"), "which_q", m.span("wh"))
    if parts is None:
        return []
    x_np, _, x_name = parts
    return [b.main("_have_v_1", m.span("verb"), x_name, x_np)]


# "What is the location of birth of Berthe Morisot with a twin city of Koszalin?", "What is
# the gender of Phyllis Schlafly whose shortened name is Аял?": the answer (NP1 of NAME1) has
# an NP2 that is NAME2 (or a value the query looks up); LC-QuAD 2.0 also writes that NP2 with
# "in" ("the birth city of X, which has boroughs in Cotta": Cotta is one of its boroughs)
_TWO_HOP = re.compile(
    r"^\s*(?P<wh>what|which|who)\s+(?:is|was|are|were)\s+(?:(?P<det>the|a|an)\s+)?(?P<head>[^?,]+?)\s*,?\s+"
    r"(?:(?:(?:that|which|who)\s+(?P<have>has|have|had)|(?P<with>with))\s+(?:(?:a|an|the)\s+)?"
    r"(?P<np2>[^?,]+?)\s+(?:of|as|in)\s+|(?P<whose>whose)\s+(?P<np2w>[^?,]+?)\s+(?:is|was|are|were)\s+"
    r"|(?:that|which|who)\s+(?:is|was|are|were)\s+(?:also\s+)?the\s+(?P<same>same)\s+as\s+)"
    r"(?P<name2>[^?,]+?)" + _END, re.I)
_VALUE = re.compile(r"^[-+]?[\d.,]+(?:e[-+]?\d+)?$", re.I)


def _splits(q: str, m: re.Match, group: str) -> list[tuple[tuple[int, int], tuple[str, tuple[int, int]], tuple[int, int]]]:
    """Each split of the match's ``group`` at "of" / "for" into a plain noun phrase, the
    preposition (word, span) and a name ("the location of birth | of | Berthe Morisot"), at
    most :data:`MAX_SPLITS`."""
    g0 = m.start(group)
    out = []
    for sp in _SPLIT.finditer(m.group(group)):
        spans = _checked_np_name(q, (g0, g0 + sp.start()), (g0 + sp.end(), m.end(group)))
        if spans is None:
            continue
        out.append((spans[0], (sp.group(1), (g0 + sp.start(1), g0 + sp.end(1))), spans[1]))
        if len(out) >= MAX_SPLITS:
            break
    return out


def _two_hop_readings(q: str) -> list[str]:
    m = _TWO_HOP.match(q)
    if not m:
        return []
    if m.group("same"):  # "..., which is the same as NAME2": no second noun phrase
        if not _name_ok(m.group("name2")):
            return []
        np2, name2 = None, m.span("name2")
    else:
        second = _checked_np_name(q, m.span("np2" if m.group("np2") else "np2w"), m.span("name2"))
        if second is None:
            return []
        np2, name2 = second
    return [_two_hop_mrs(q, m, np1, prep, name1, np2, name2) for np1, prep, name1 in _splits(q, m, "head")]


def _two_hop_mrs(q: str, m: re.Match, np1: tuple[int, int], prep: tuple[str, tuple[int, int]],
                 name1: tuple[int, int], np2: tuple[int, int] | None, name2: tuple[int, int]) -> str:
    b = _Builder()
    x_wh = _wh(b, m.group("wh"), m.span("wh"))
    x1, l1 = _noun_phrase(b, q, np1, _quantifier(m.group("det")))
    n1 = _name(b, q, name1)
    b.ep(f"_{prep[0].casefold()}_p", prep[1], l1, ARG0=b.new("e"), ARG1=x1, ARG2=n1)
    if np2 is None:  # "the same as NAME2": _same_a_as, as the ERG reads it
        b.ep("_same_a_as", m.span("same"), l1, ARG0=b.new("e"), ARG1=x1, ARG2=_name(b, q, name2))
        return b.main("_be_v_id", (m.end("wh"), np1[0]), x_wh, x1)
    x2, l2 = _noun_phrase(b, q, np2, "_a_q")
    if m.group("whose"):
        b.ep("poss", m.span("whose"), l2, ARG0=b.new("e"), ARG1=x2, ARG2=x1)
    else:
        verb = m.span("have") if m.group("have") else m.span("with")
        b.ep("_have_v_1", verb, l1, ARG0=b.new("e"), ARG1=x1, ARG2=x2)
    # a value the query looks up ("an acreage of 213.587") is checked against the query's
    # filter; a name is what the NP2 is
    if not _VALUE.match(q[name2[0]:name2[1]]):
        n2 = _name(b, q, name2)
        b.ep("appos", (np2[0], name2[1]), l2, ARG0=b.new("e"), ARG1=x2, ARG2=n2)
    return b.main("_be_v_id", (m.end("wh"), np1[0]), x_wh, x1)


#: The start of the relative-clause shapes: "What|Which|Who is [the]", "Name|List|Tell me [a]".
_WH_OR_REQUEST = (r"^\s*(?:(?P<wh>what|which|who)\s+(?:is|was|are|were)|name|list|(?:give|tell|show)\s+me)\s+"
                  r"(?:(?P<det>the|a|an)\s+)?")


# "Which is broadcasted by NTV?", "Who was nominated for King of the Hill?", "What is depicted
# in the Garden of Guangzhou?": the answer undergoes the verb, whose doer is the name after
# "by" (with another preposition the name is the preposition's, the doer unexpressed)
_WH_PASSIVE = re.compile(
    r"^\s*(?P<wh>what|which|who)\s+(?:is|was|are|were)\s+(?=" + _PASSIVE_START.pattern + r")"
    r"(?P<part>[a-z]+)\s+(?P<pprep>by|for|of|in|at|after|as|to|from|with|on|into)\s+"
    r"(?P<name>[^?,]+?)" + _END, re.I)


def _wh_passive_readings(q: str) -> list[str]:
    """``_WH_PASSIVE``, and ``_HOW_MANY_PASSIVE`` with what undergoes the verb counted."""
    m = _WH_PASSIVE.match(q) or _HOW_MANY_PASSIVE.match(q)
    if not m:
        return []
    name = _clean_span(q, *m.span("name"))
    if not _name_ok(q[name[0]:name[1]]) or _VALUE.match(q[name[0]:name[1]]):
        return []
    b = _Builder()
    if m.re is _WH_PASSIVE:
        return [_passive_text(b, q, m, name, _wh(b, m.group("wh"), m.span("wh")))]
    x_c, l_c = b.new("x"), b.new("h")
    b.ep("generic_entity", m.span("many"), l_c, ARG0=x_c)
    b.quantified("udef_q", m.span("many"), x_c, l_c)
    _how_many(b, m, x_c, l_c)
    return [_passive_text(b, q, m, name, x_c)]


# "Who was Herbert von Karajan employed by?": the passive with its preposition left at the end;
# the answer is the doer ("by") or the preposition's object, the name undergoes the verb
_WH_PASSIVE_STRANDED = re.compile(
    r"^\s*(?P<wh>who|whom|what)\s+(?:is|was|are|were)\s+(?P<name>(?-i:[A-Z])[^?,]*?)\s+"
    r"(?P<part>(?-i:[a-z]+))\s+(?P<pprep>by|for|of|in|at|to|from|with|on)" + _END, re.I)


def _wh_passive_stranded_readings(q: str) -> list[str]:
    m = _WH_PASSIVE_STRANDED.match(q)
    if not m or not _PASSIVE_START.match(f"{m.group('part')} of "):
        return []
    name = _clean_span(q, *m.span("name"))
    if not _plain_name_ok(q[name[0]:name[1]]) or _VALUE.match(q[name[0]:name[1]]):
        return []
    b = _Builder()
    x_wh = _wh(b, m.group("wh"), m.span("wh"))
    x_name = _name(b, q, name)
    pred = f"_{m.group('part').casefold()}/vbn_u_unknown"
    if m.group("pprep").casefold() == "by":
        return [b.main(pred, m.span("part"), x_wh, x_name)]
    return [_verb_and_prep(b, b.new("h"), pred, m.span("part"), b.new("i"), x_name, m.group("pprep"),
                           m.span("pprep"), x_wh)]


def _passive_text(b: _Builder, q: str, m: re.Match, name: tuple[int, int], x: str) -> str:
    """The passive participle of ``m`` (groups ``part``, ``pprep``) that ``x`` undergoes: its
    doer is the name after "by"; with another preposition the name is the preposition's and
    the doer unexpressed.  Returns the finished SimpleMRS."""
    x_name = _name(b, q, name)
    pred = f"_{m.group('part').casefold()}/vbn_u_unknown"
    prep = m.group("pprep").casefold()
    if prep == "by":
        return b.main(pred, m.span("part"), x_name, x)
    top = b.new("h")
    b.ep(pred, m.span("part"), top, ARG0="e2", ARG1=b.new("i"), ARG2=x)
    b.ep(f"_{prep}_p", m.span("pprep"), top, ARG0=b.new("e"), ARG1="e2", ARG2=x_name)
    return b.text("e2", top)


# "Which is the memoir that is the notable work of Hillary Clinton?", "Who is the eponym of
# Lake Eyre that also is the winner of the Founder's Medal?": the answer (an NP1, or the NP1 of
# NAME1) is the NP2 of NAME2; "Which is the congregation that has the Catholic Church as parent
# organization?": its NP2 is NAME2
_RELATIVE_BE = re.compile(
    _WH_OR_REQUEST + r"(?P<head>[^?,]+?)\s*,?\s+(?:that|which|who)\s+(?:also\s+)?"
    r"(?:(?P<be>is|was|are|were)\s+(?:also\s+)?(?:the|an?)\s+(?P<np2>[^?,]+?)\s+(?P<prep2>of|for)\s+"
    r"(?P<name2>[^?,]+?)"
    # "... that has Purdue University as parent organization": the NP1's NP2 is NAME2
    r"|(?P<have>has|have|had)\s+(?:the\s+(?=(?-i:[A-Z])))?(?!(?:an?|the)\s)(?P<hname>[^?,]+?)\s+as\s+"
    r"(?:(?:its|their|his|her|an?|the)\s+)?(?P<hnp>[^?,]+?)"
    # "... that has as grammatical person the second-person singular": the same, with the
    # object written after its "as" phrase (a heavy object moved to the end)
    r"|(?P<shave>has|have|had)\s+as\s+(?:(?:its|their|his|her|an?)\s+)?(?P<shifted>[^?,]+?))" + _END, re.I)

# where the name may start in a shifted "has as NP NAME": after "the", or at the first of
# capitalised words ("member | Ryan Giggs", not "member Ryan | Giggs")
_SHIFTED_NAME = re.compile(r"\s(?:the\s+(?=\S)|(?=(?-i:[A-Z])))")


def _shifted_np_names(q: str, m: re.Match) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The splits of a shifted "has as NP NAME" into a plain noun phrase and a name (the
    name starting after "the" or at a capitalised word), at most :data:`MAX_SPLITS`."""
    g0, g1 = m.span("shifted")
    out = []
    for sp in _SHIFTED_NAME.finditer(q, g0, g1):
        before = q[g0:sp.start()].split()
        if not before or before[-1][0].isupper():  # inside a capitalised name
            continue
        spans = _checked_np_name(q, (g0, sp.start()), (sp.end(), g1))
        if spans is not None:
            out.append(spans)
        if len(out) >= MAX_SPLITS:
            break
    return out


def _relative_be_readings(q: str) -> list[str]:
    m = _RELATIVE_BE.match(q)
    if not m:
        return []
    has = bool(m.group("have") or m.group("shave"))
    if m.group("shave"):
        return [r for second in _shifted_np_names(q, m) for r in _relative_be_mrs(q, m, second)]
    second = (_checked_np_name(q, m.span("hnp"), m.span("hname")) if has
              else _checked_np_name(q, m.span("np2"), m.span("name2")))
    if second is None or not q[second[0][0]].isalpha():  # "has population as 185170"
        return []
    return _relative_be_mrs(q, m, second)


def _relative_be_mrs(q: str, m: re.Match, second: tuple[tuple[int, int], tuple[int, int]]) -> list[str]:
    """The readings of a :data:`_RELATIVE_BE` match whose second noun phrase and name are
    ``second``: one per way of reading the head (a plain noun phrase, or NP of NAME)."""
    has = bool(m.group("have") or m.group("shave"))
    have = "have" if m.group("have") else "shave"
    head = _clean_span(q, *m.span("head"))
    firsts: list[tuple[tuple[int, int], tuple | None, tuple[int, int] | None]] = []
    if _plain_np(q[head[0]:head[1]]):  # "the branch of chemistry" may be a class's name
        firsts.append((head, None, None))
    firsts.extend(_splits(q, m, "head"))
    out = []
    for np1, prep1, name1 in firsts:
        b = _Builder()
        x_wh, wh_end = _answer(b, m)
        h1 = _noun_phrase(b, q, np1, _quantifier(m.group("det")))
        h2 = _noun_phrase(b, q, second[0], "_a_q" if has else "_the_q")
        if h1 is None or h2 is None:
            continue
        (x1, l1), (x2, l2) = h1, h2
        if prep1 is not None:
            _of_name(b, q, x1, l1, prep1, name1)
        if has:  # as "whose NP2 is NAME2" (_two_hop_readings)
            name_span = m.span("hname") if have == "have" else second[1]
            _whose_is(b, q, x1, x2, l2, m.span(have), name_span, second[1])
        else:
            b.ep("_be_v_id", m.span("be"), l1, ARG0=b.new("e"), ARG1=x1, ARG2=x2)
            b.ep(f"_{m.group('prep2').casefold()}_p", m.span("prep2"), l2, ARG0=b.new("e"), ARG1=x2,
                 ARG2=_name(b, q, second[1]))
        out.append(b.main("_be_v_id", (wh_end, np1[0]), x_wh, x1))
    return out


#: A past participle ("published", "held", "taught", "written").
_PARTICIPLE = r"[a-z]+(?:ed|en|wn|ld|lt|nt|ught|ung)"


# "Which is the talent agency that represents Ronald Reagan?", "Which is the book that is
# published by Rolling Stone?": the answer is an NP that does (or undergoes) one verb with a name
_RELATIVE = re.compile(
    _WH_OR_REQUEST + r"(?P<np>[^?,]+?)\s+"
    # the auxiliary may be left out before a participle and its doer ("what is philosophical
    # movement that practiced by atheist"): a passive still, as with any "by" phrase
    r"(?:(?P<rel>(?:that|which|who)\s+(?:(?P<aux>is|was|are|were)\s+|(?=" + _PARTICIPLE + r"\s+by\s)))?"
    r"(?:(?P<part>" + _PARTICIPLE + r")"
    r"|(?P<ing>(?-i:[a-z]){3,}ing))\s+(?P<pprep>by|in|at|on|from|for|with|into|after|as|to)"
    r"|(?:that|which|who)\s+(?:(?P<verb>[a-z]+s)|(?P<past>(?-i:[a-z]){3,}ed))"
    r"(?:\s+(?P<vprep>to|with|for|from|on|into|at))?)\s+(?P<name>[^?,]+?)" + _END, re.I)


def _relative_readings(q: str) -> list[str]:
    m = _RELATIVE.match(q)
    if not m:
        return []
    name = _clean_span(q, *m.span("name"))
    if not _name_ok(q[name[0]:name[1]]):
        return []
    np = _clean_span(q, *m.span("np"))
    # the NP, or "the NP1 of NAME1" ("What is the position of Benedict XVI that replaces John
    # Paul II?": the position, of Benedict XVI, replaces John Paul II)
    firsts: list[tuple[tuple[int, int], tuple | None, tuple[int, int] | None]] = []
    if _plain_np(q[np[0]:np[1]]):
        firsts.append((np, None, None))
    if m.group("verb") or m.group("past"):
        firsts.extend(_splits(q, m, "np"))
    return [r for np, prep1, name1 in firsts
            for r in _relative_mrs(q, m, np, prep1, name1, name)]


def _relative_mrs(q: str, m: re.Match, np: tuple[int, int], prep1: tuple | None,
                  name1: tuple[int, int] | None, name: tuple[int, int]) -> list[str]:
    verb = "part" if m.group("part") else "ing" if m.group("ing") else "past" if m.group("past") else "verb"
    if verb in ("part", "ing") and not m.group("rel") and m.group("wh") and not m.group("det"):
        return []  # "What was Pasha Angelina awarded in ...?": a passive question about a name
    word = m.group(verb).casefold()
    if word in _AUXILIARIES or ((m.group("past") or m.group("vprep")) and not q[name[0]:name[1]][:1].isalpha()):
        return []  # "who died at 1999-0-0": a time, not a name
    if m.group("pprep") and m.group("pprep").casefold() != "by" and not (
            (verb == "part" and _PASSIVE_START.match(q, m.start("part")))
            or (verb == "ing" and word not in _NOT_VERBING and not _VALUE.match(q[name[0]:name[1]]))):
        # with another preposition than "by" only a sure participle ("written in", not
        # "component for") and a verb in -ing that is no preposition or time ("beginning in
        # 1974") make a relative clause
        return []
    b = _Builder()
    x_wh, wh_end = _answer(b, m)
    if q[np[0]:np[1]].casefold() in _SOMEONE:  # "Name someone involved in X": a person
        x_np, l_np = b.new("x"), b.new("h")
        b.ep("person", np, l_np, ARG0=x_np)
        b.quantified("_some_q", np, x_np, l_np)
    else:
        head = _noun_phrase(b, q, np, _quantifier(m.group("det")))
        if head is None:
            return []
        x_np, l_np = head
        if prep1 is not None:
            _of_name(b, q, x_np, l_np, prep1, name1)
    x_name = _name(b, q, name)
    tag = {"part": "vbn", "ing": "vbg", "past": "vbd"}.get(verb, "vbz")
    prep = (m.group("pprep") or m.group("vprep") or "by").casefold()
    pspan = m.span("pprep") if m.group("pprep") else m.span("vprep")
    e = b.new("e")
    if verb == "ing" or prep != "by":
        # the name is the preposition's; "someone working in Vancouver", "the co-founder who
        # works for X": the NP does the verb; "a codex written in Old English": the NP
        # undergoes it (its doer unexpressed)
        unexpressed = b.new("i")
        doer, undergoer = (unexpressed, x_np) if verb == "part" else (x_np, unexpressed)
        b.ep(f"_{word}/{tag}_u_unknown", m.span(verb), l_np, ARG0=e, ARG1=doer, ARG2=undergoer)
        b.ep(f"_{prep}_p", pspan, l_np, ARG0=b.new("e"), ARG1=e, ARG2=x_name)
    else:
        doer, undergoer = (x_name, x_np) if verb == "part" else (x_np, x_name)
        b.ep(f"_{word}/{tag}_u_unknown", m.span(verb), l_np, ARG0=e, ARG1=doer, ARG2=undergoer)
    return [b.main("_be_v_id", (wh_end, np[0]), x_wh, x_np)]


#: Words in -ing that are prepositions or name a time, not a verb of a relative clause.
_NOT_VERBING = frozenset({"beginning", "starting", "ending", "including", "excluding", "following",
                          "according", "regarding", "concerning", "during", "being", "having",
                          "something", "anything", "nothing", "everything", "spring", "string",
                          "building", "painting", "recording", "meeting", "setting", "wedding",
                          "evening", "morning", "ceiling"})
#: Pronouns for a person that a request may ask for ("Name someone ...").
_SOMEONE = frozenset({"someone", "somebody", "anyone", "anybody"})


# "How many academic degrees does Ernest Rutherford have?", "How many positions are held by
# Helmut Schmidt?", "How many editors are there for Vogue?": the NP is counted
_HOW_MANY = re.compile(
    r"^\s*(?P<how>how)\s+(?P<many>many)\s+(?P<np>[^?,]+?)\s+"
    r"(?:(?:does|do|did)\s+(?P<name>[^?,]+?)\s+(?P<have>have|has)"
    r"|(?:are|were|is|was)\s+(?P<part>" + _PARTICIPLE + r")\s+by\s+(?P<doer>[^?,]+?)"
    r"|(?:are|were|is|was)\s+(?P<ppart>" + _PARTICIPLE + r")\s+(?P<pprep>for|in|at|to|from|on|with)\s+"
    r"(?P<pname>[^?,]+?)"
    r"|(?P<be>are|were)\s+(?P<there>there\s+)?(?P<prep>for|of)\s+"
    r"(?P<place>[^?,]+?)"
    r"|(?!(?:are|were|is|was|do|does|did|have|has|had)\s)(?P<verb>(?-i:[a-z]+))\s+(?P<vprep>in|on|at)\s+"
    r"(?P<vname>[^?,]+?))" + _END, re.I)
# "Karlsruhe has how many areas?": the same question with "how many" in place
_HAS_HOW_MANY = re.compile(r"^\s*(?P<name>[^?,]+?)\s+(?P<have>has|have|had)\s+(?P<how>how)\s+(?P<many>many)\s+"
                           r"(?P<np>[^?,]+?)" + _END, re.I)


def _how_many_readings(q: str) -> list[str]:
    m = _HOW_MANY.match(q) or _HAS_HOW_MANY.match(q)
    if not m:
        return []
    if m.groupdict().get("verb"):
        return _how_many_verb_readings(q, m)
    name_group = next(g for g in ("name", "doer", "pname", "place") if m.groupdict().get(g))
    spans = _checked_np_name(q, m.span("np"), m.span(name_group))
    if spans is None:
        return []
    np, name = spans
    b = _Builder()
    x_np, l_np = _noun_phrase(b, q, np, "udef_q", (m.start("many"), np[1]))
    _how_many(b, m, x_np, l_np)
    x_name = _name(b, q, name)
    if m.group("have"):
        return [b.main("_have_v_1", m.span("have"), x_name, x_np)]
    if m.group("prep"):
        # "How many NP are [there] for|of NAME?": the preposition relates the NP to the name
        # (as the ERG attaches a PP after "be there" to the NP); the copula says it exists.
        # Not "in", "on" ...: a located NP is no relational one ("residents in X", "conflicts
        # in the Korean War" read either way), and not an NP with its own "of" ("directors
        # of photography"), which would be read as one compound
        if re.search(r"\bof\b", q[np[0]:np[1]], re.I):
            return []
        b.ep(f"_{m.group('prep').casefold()}_p", m.span("prep"), l_np, ARG0=b.new("e"),
             ARG1=x_np, ARG2=x_name)
        top = b.new("h")
        b.ep("_be_v_there", (m.start("be"), m.end("there") if m.group("there") else m.end("be")),
             top, ARG0="e2", ARG1=x_np)
        return [b.text("e2", top)]
    if m.group("ppart"):
        # "How many doctoral advisors are determined for Gottfried Wilhelm Leibniz?": the
        # preposition's object is the name, the doer unexpressed (as in ``_WH_PASSIVE``)
        top = b.new("h")
        b.ep(f"_{m.group('ppart').casefold()}/vbn_u_unknown", m.span("ppart"), top, ARG0="e2",
             ARG1=b.new("i"), ARG2=x_np)
        b.ep(f"_{m.group('pprep').casefold()}_p", m.span("pprep"), l_np, ARG0=b.new("e"), ARG1=x_np,
             ARG2=x_name)
        return [b.text("e2", top)]
    return [b.main(f"_{m.group('part').casefold()}/vbn_u_unknown", m.span("part"), x_name, x_np)]


def _how_many_verb_readings(q: str, m: re.Match) -> list[str]:
    """"How many NP VERB in|on|at PLACE?" ("How many people live in Poland?"): the NP is
    counted and does the verb (an intransitive unknown-word verb), which the preposition
    places; PLACE is a name or "[the] NP2 of|for NAME" (one reading per split)."""
    np = _clean_span(q, *m.span("np"))
    if not _plain_np(q[np[0]:np[1]]):
        return []
    place = _clean_span(q, *m.span("vname"))
    # a name, or each split of "[the] NP2 of|for NAME"
    places: list = [place] if _name_ok(q[place[0]:place[1]]) else list(_splits(q, m, "vname"))
    out = []
    for where in places:
        b = _Builder()
        x_np, l_np = _noun_phrase(b, q, np, "udef_q", (m.start("many"), np[1]))
        _how_many(b, m, x_np, l_np)
        if isinstance(where[0], int):
            x_place = _name(b, q, where)
        else:
            np2, prep, name = where
            x_place, l_place = _noun_phrase(b, q, np2, "_the_q")
            _of_name(b, q, x_place, l_place, prep, name)
        top = b.new("h")
        b.ep(f"_{m.group('verb').casefold()}/vb_u_unknown", m.span("verb"), top, ARG0="e2", ARG1=x_np)
        b.ep(f"_{m.group('vprep').casefold()}_p", m.span("vprep"), top, ARG0=b.new("e"), ARG1="e2",
             ARG2=x_place)
        out.append(b.text("e2", top))
    return out


# "How many were founded by the Soviet Union?", "How many are dedicated to Basil of
# Caesarea?": no noun phrase, so what is counted is whatever undergoes the verb (its doer the
# name after "by"; with another preposition, as in ``_WH_PASSIVE``, the name is the
# preposition's and the doer unexpressed); read by ``_wh_passive_readings``
_HOW_MANY_PASSIVE = re.compile(
    r"^\s*(?P<how>how)\s+(?P<many>many)\s+(?P<be>are|were|is|was)\s+(?P<part>" + _PARTICIPLE + r")\s+"
    r"(?P<pprep>by|for|of|in|at|as|to|from|with|on|into)\s+(?P<name>[^?,]+?)" + _END, re.I)


def _how_many(b: _Builder, m: re.Match, x: str, label: str) -> None:
    """"How many" (groups ``how``, ``many``) on the noun phrase ``x`` (label ``label``), as
    the ERG writes it: the degree asked for measures "many" of ``x``."""
    x_deg, l_deg = b.new("x"), b.new("h")
    b.ep("abstr_deg", m.span("how"), l_deg, ARG0=x_deg)
    b.quantified("which_q", m.span("how"), x_deg, l_deg)
    e_many = b.new("e")
    b.ep("much-many_a", m.span("many"), label, ARG0=e_many, ARG1=x)
    b.ep("measure", (m.start("how"), m.end("many")), label, ARG0=b.new("e"), ARG1=e_many, ARG2=x_deg)


#: Verbs a relative clause may not be read as (they take other complements).
_AUXILIARIES = frozenset({"is", "was", "has", "does", "contains", "starts", "begins", "ends"})
#: Verbs after a name that say no event of their own ("When did X become ...", "did X have").
_LIGHT_VERBS = frozenset({"be", "get", "become", "have", "do"})
#: particles of phrasal verbs that end a question ("grow up", "come from")
_PARTICLES = frozenset({"up", "from", "out", "off", "away", "back", "down", "over"})


# "Tell me NP whose name has the word W in it.", "What are the NP which start with the letter
# L", "Name a NP that starts with letter R": the answer is an NP; the rest restricts its name,
# which the deductive check compares with the query's string test (not part of the MRS)
_NAME_TEST = re.compile(
    r"^\s*(?:(?:tell|give|show)\s+me(?:\s+about)?|name|list|(?P<wh>what|which)(?:\s+(?:is|are|was|were))?)\s+"
    r"(?:(?P<det>the|a|an)\s+)?(?P<np>[^?]+?)\s*(?:\s(?:whose|that|which)\s+|['’]s\s+"
    r"|\s(?=(?:contains?|starts?|begins?)\s))"  # "What German dog breed contains the word W?"
    r"(?P<rest>(?:name\s+)?(?:has|have|contains?|starts?|begins?)\b[^?]*?)" + _END, re.I)
# the word or letter a name test spells: one token, or a quoted phrase ("the word "city "")
_SPELT = r"(?:\"[^\"]+\"|“[^”]+”|\S+)"
_NAME_TEST_TEXT = (
    r"(?:name\s+(?:has|contains?)\s+(?:the\s+)?words?\s+" + _SPELT + r"(?:\s+in\s+it)?"
    r"|(?:has|have|contains?)\s+(?:the\s+)?words?\s+" + _SPELT
    + r"(?:\s+in\s+(?:their|its|it's|it’s)\s+name)?(?:\s+in\s+it)?"
    r"|(?:name\s+)?(?:starts?|begins?)\s+with\s+(?:(?:the|an?)\s+)?"
    r"(?:(?:letter|alphabet)\s+\S+|[\"'“‘]?[^\W\d_][\"'”’]?|\"[^\"]+\"))")  # not "with a glacier"
_NAME_TEST_REST = re.compile("^" + _NAME_TEST_TEXT + "$", re.I)
# a name test closing a question that says more about the answer ("Name a skyscraper designed
# by Atkins that contains the word "Al" in its name"): set aside as the time phrase is
_WORD_IN_NAME_TEXT = r"(?:the\s+)?words?\s+" + _SPELT + r"\s+in\s+(?:its|their|the)\s+name"  # "with" it
_NAME_TEST_TAIL = re.compile(
    r"[\s,]*(?:\b(?:and\s+)?(?:also\s+)?(?:that|which|who)\s+|\band\s+(?:also\s+)?"
    r"|\bwith\s+(?=(?:the\s+)?words?\b))(?P<rest>(?:(?:its|their)\s+)?(?:name\s+)?"
    r"(?:has|have|contains?|starts?|begins?)\b[^?]*?|" + _WORD_IN_NAME_TEXT + r")" + _END, re.I)
_WORD_IN_NAME = re.compile("^" + _WORD_IN_NAME_TEXT + "$", re.I)
# ... or between the relative pronoun and the clause that says more ("Tell me a first-class
# city that starts with the letter "m" and has the Seal of Milwaukee as its coat of arms")
_NAME_TEST_MIDDLE = re.compile(
    r"\s(?:that|which|who)\s+(?P<test>" + _NAME_TEST_TEXT + r"\s*,?\s+and\s+(?:also\s+)?"
    r"(?:(?:that|which|who)\s+)?)(?=[^\W\d_])", re.I)


def _name_test_readings(q: str) -> list[str]:
    m = _NAME_TEST.match(q)
    if not m or not _NAME_TEST_REST.match(m.group("rest").strip()):
        return []
    np = _clean_span(q, *m.span("np"))
    # "a first-class city name, that starts with": the name is the NP's, not the NP
    tail = re.search(r"(?:\s+names?)?[\s,;:]*$", q[np[0]:np[1]], re.I)
    np = _clean_span(q, np[0], np[0] + tail.start())
    if not _plain_np(q[np[0]:np[1]]):
        return []
    b = _Builder()
    x_wh, _ = _answer(b, m)
    head = _noun_phrase(b, q, np, _quantifier(m.group("det")))
    if head is None:
        return []
    return [b.main("_be_v_id", (np[0], np[0]), x_wh, head[0])]


# "Which tram system has the highest cruising speed?", "Name the chemical substance with the
# lowest flash point", "What is the newspaper with the MAX publication interval?"
_SUPERLATIVE = re.compile(
    r"^\s*(?:(?:what|which)(?:\s+(?:is|was|are|were))?|name|give\s+me|tell\s+me)\s+"
    r"(?:(?:the|a|an)\s+)?(?P<cls>[^?]+?)\s+(?P<verb>has|had|have|with)\s+the\s+"
    r"(?P<sup>highest|lowest|largest|smallest|biggest|greatest|max|min|maximum|minimum|most|least|fewest)\s+"
    r"(?:amount\s+of\s+)?(?P<np>[^?]+?)"
    r"(?:\s+whose\s+(?P<np2>[^?]+?)\s+(?:is|are|was|were)\s+(?P<name2>[^?]+?))?" + _END, re.I)
#: Superlative adjectives and the ERG predicate of their positive form ("highest": ``_high_a_1``
#: with ``superl``); the other words mark a superlative by themselves ("maximum").
_SUPERLATIVE_ADJECTIVES = {"highest": "high", "lowest": "low", "largest": "large",
                           "smallest": "small", "biggest": "big", "greatest": "great"}


def _superlative_readings(q: str) -> list[str]:
    m = _SUPERLATIVE.match(q)
    if not m:
        return []
    cls = _clean_span(q, *m.span("cls"))
    np = _clean_span(q, *m.span("np"))
    np_text = q[np[0]:np[1]]
    # "the maximum number of platform tracks" is one property's name
    counted = re.match(r"number\s+of\s+", np_text, re.I)
    if (not _plain_np(q[cls[0]:cls[1]]) or _CLAUSE.search(np_text)
            or not (_np_ok(np_text) or (counted and not _SPLIT.search(" " + np_text[counted.end():] + " ")))):
        return []
    b = _Builder()
    x_cls, l_cls = _noun_phrase(b, q, cls, "which_q") or (None, None)
    x_np, l_np = _noun_phrase(b, q, np, "_the_q") or (None, None)
    if x_cls is None or x_np is None:
        return []
    word = m.group("sup").casefold()
    span = m.span("sup")
    if word in _SUPERLATIVE_ADJECTIVES:
        e = b.new("e")
        b.ep(f"_{_SUPERLATIVE_ADJECTIVES[word]}_a_1", span, l_np, ARG0=e, ARG1=x_np)
        b.ep("superl", span, l_np, ARG0=b.new("e"), ARG1=e)
    else:
        b.ep(f"_{word}_a_1", span, l_np, ARG0=b.new("e"), ARG1=x_np)
    if m.group("np2"):
        # "... with the highest number of households whose country is India": the CLASS's
        # NP2 is NAME2
        second = _checked_np_name(q, m.span("np2"), m.span("name2"))
        if second is None:
            return []
        x2, l2 = _noun_phrase(b, q, second[0], "_a_q") or (None, None)
        if x2 is None:
            return []
        _whose_is(b, q, x_cls, x2, l2, m.span("np2"), (second[0][0], second[1][1]), second[1])
    return [b.main("_have_v_1", m.span("verb"), x_cls, x_np)]


# "Did Garth Brooks record with Big Machine Records and Decca?", "Did Shivaji marry both
# Soyarabai as well as Putalabai?", "Was Neil Young nominated for X and Y?": a yes/no question
# whose verb takes two coordinated names.  The verb is the first lower-case word after the
# subject's name (a word inside a name such as "of" is not a verb).
_NOT_A_VERB = r"(?!(?:of|the|de|du|des|la|le|del|di|von|van|and|for|a|an)\b)"
_YES_NO_COORDINATED = re.compile(
    r"^\s*(?:(?:did|does|do)\s+(?P<name>[^?]+?)\s+(?P<verb>" + _NOT_A_VERB + r"(?-i:[a-z]+))"
    r"|(?:is|was|are|were)\s+(?P<pname>[^?]+?)\s+(?P<part>" + _NOT_A_VERB + r"(?-i:" + _PARTICIPLE
    + r")))\s+(?:(?P<prep>in|on|at|with|for|to|from|as|into|by)\s+)?(?:both\s+)?"
    r"(?P<a>[^?,]+?)\s+(?:and|as\s+well\s+as)\s+(?P<b>[^?,]+?)" + _END, re.I)


def _yes_no_coordinated_readings(q: str) -> list[str]:
    m = _YES_NO_COORDINATED.match(q)
    if not m:
        return []
    return _verb_statement(q, m, "pname" if m.group("part") is not None else "name", ("a", "b"))


def _verb_statement(q: str, m: re.Match, subject: str, objects: Sequence[str]) -> list[str]:
    """The MRS of a yes/no question about one verb between the name of group ``subject`` and
    the names of groups ``objects`` (one, or two coordinated: written distributed, as the
    grammar's reading means it, "X VERBed A and X VERBed B"); ``[]`` when a name is not one,
    or the verb is an auxiliary, or a passive has no preposition."""
    passive, prep = m.group("part") is not None, m.group("prep")
    spans = [_clean_span(q, *m.span(g)) for g in (subject, *objects) if m.group(g)]
    verb = m.span("part" if passive else "verb")
    word = q[verb[0]:verb[1]].casefold()
    if (any(not _name_ok(q[a:z]) or _VALUE.match(q[a:z]) for a, z in spans)
            or word in _AUXILIARIES or word in ("have", "had", "be", "get") or (passive and not prep)):
        return []
    b = _Builder()
    x_subject = _name(b, q, spans[0])
    top = b.new("h")
    for i, span in enumerate(spans[1:]):
        _verb_eps(b, word, verb, top, "e2" if i == 0 else b.new("e"), x_subject, _name(b, q, span), passive,
                  (prep, m.span("prep")) if prep else None)
    return [b.text("e2", top)]


# "Is it true that Robert de Niro was born in Greenwich Village?", "Is it true that Demi Moore
# knows Old English?": a statement asked about; one name, or two coordinated ones, after the verb
# (names: capitalised)
_IS_IT_TRUE = re.compile(
    r"^\s*is\s+it\s+true\s+that\s+(?P<name>(?-i:[A-Z])[^?,]*?)\s+(?:(?:is|was|are|were)\s+(?P<part>"
    + _NOT_A_VERB + r"(?-i:" + _PARTICIPLE + r"|born|held|made|won|led|built|sold|taught))"
    r"|(?P<verb>" + _NOT_A_VERB + r"(?-i:[a-z]+)))\s+"
    r"(?:(?P<prep>in|on|at|with|for|to|from|as|into|by|during)\s+)?(?:(?:the|a|an)\s+(?=(?-i:[A-Z])))?"
    r"(?P<a>(?-i:[A-Z])[^?,]*?)(?:\s+(?:and|as\s+well\s+as)\s+(?P<b>(?-i:[A-Z])[^?,]*?))?" + _END, re.I)


def _is_it_true_readings(q: str) -> list[str]:
    m = _IS_IT_TRUE.match(q)
    return _verb_statement(q, m, "name", ("a", "b")) if m else []


def _verb_eps(b: _Builder, word: str, verb: tuple[int, int], top: str, e: str, x_subject: str,
              x_other: str, passive: bool, prep: tuple[str, tuple[int, int]] | None) -> None:
    """An unknown-word verb (event ``e``) relating a name to another: a passive's subject
    undergoes the verb ("Was X nominated for A?"), an active verb takes the other name as its
    object; with a preposition (``prep``: its word and span) the other name is the
    preposition's."""
    pred = f"_{word}/{'vbn' if passive else 'vb'}_u_unknown"
    if passive:
        b.ep(pred, verb, top, ARG0=e, ARG1=b.new("i"), ARG2=x_subject)
    else:
        b.ep(pred, verb, top, ARG0=e, ARG1=x_subject, ARG2=b.new("i") if prep else x_other)
    if prep:
        b.ep(f"_{prep[0].casefold()}_p", prep[1], top, ARG0=b.new("e"), ARG1=e, ARG2=x_other)


# Yes/no copulas over two coordinated names, written distributed with one noun phrase per
# conjunct (one NP for both would make the two names one thing): "Were Agrippina the Elder and
# Octavia the Elder siblings of Augustus?", "Was Edward VI of England a sibling of Lady Jane
# Grey and Mary I of England?", "Was Anderson Silva's sport taekwondo and judo?".  The noun
# phrase starts with a lower-case word.
_NP_LOWER = r"(?P<np>(?!(?:the|a|an)\s)(?-i:[a-z])[^?,]*?)"
_AND = r"\s+(?:and|as\s+well\s+as)\s+"
_COPULA_SUBJECTS = re.compile(
    r"^\s*(?:are|were)\s+(?P<a>[^?,]+?)" + _AND + r"(?P<b>[^?,]+?)\s+(?:(?P<det>the|a|an)\s+)?"
    + _NP_LOWER + r"\s+(?P<prep>of|for)\s+(?P<name>[^?,]+?)" + _END, re.I)
_COPULA_OBJECTS = re.compile(
    r"^\s*(?:is|was)\s+(?P<name>[^?,]+?)\s+(?P<det>a|an|the)\s+" + _NP_LOWER
    + r"\s+(?P<prep>of|for)\s+(?P<a>[^?,]+?)" + _AND + r"(?P<b>[^?,]+?)" + _END, re.I)
_COPULA_VALUES = re.compile(
    r"^\s*(?:is|was|are|were)\s+(?P<name>[^?,]+?)(?:'s|’s)\s+(?P<np>(?-i:[a-z][\w-]*))\s+"
    r"(?P<a>[^?,]+?)" + _AND + r"(?P<b>[^?,]+?)" + _END, re.I)


# one value: "Is Anderson Cooper's mother Gloria Vanderbilt?", "Is Axl Rose's voice type a
# mezzo-soprano?" (the NP is one or two lower-case words; the value follows a determiner or
# starts with a capital)
_COPULA_VALUE = re.compile(
    r"^\s*(?:is|was)\s+(?P<name>[^?,]+?)(?:'s|’s)\s+(?P<np>(?-i:[a-z][\w-]*(?:\s+[a-z][\w-]*)?))\s+"
    r"(?:(?:a|an|the)\s+|(?=(?-i:[A-Z])))(?P<a>(?!.*\band\b)[^?,]+?)" + _END, re.I)


def _yes_no_copula_readings(q: str) -> list[str]:
    for form, m in (("subjects", _COPULA_SUBJECTS.match(q)), ("objects", _COPULA_OBJECTS.match(q)),
                    ("values", _COPULA_VALUES.match(q)), ("values", _COPULA_VALUE.match(q))):
        if m:
            break
    else:
        return []
    np = _clean_span(q, *m.span("np"))
    names = [_clean_span(q, *m.span(g)) for g in ("name", "a", "b") if g in m.re.groupindex]
    if not _plain_np(q[np[0]:np[1]]) or any(not _name_ok(q[a:z]) for a, z in names):
        return []
    prep = (m.group("prep").casefold(), m.span("prep")) if "prep" in m.re.groupindex else None
    quant = "_the_q" if form == "values" else _quantifier(m.group("det"))
    return [_distributed_copulas(q, form, names[0], np, names[1:], quant, prep)]


def _distributed_copulas(q: str, form: str, name: tuple[int, int], np: tuple[int, int],
                         values: Sequence[tuple[int, int]], quant: str,
                         prep: tuple[str, tuple[int, int]] | None, name_text: str | None = None) -> str:
    """The MRS of yes/no copulas between a name, a noun phrase and each of ``values``, one
    noun phrase per value (one NP for both would make the two values one thing): ``values``,
    NAME's NP is A (``poss``); ``subjects``, A is the NP PREP NAME; ``objects``, NAME is a NP
    PREP A.  ``name_text`` is the name's CARG when not its span's text."""
    b = _Builder()
    x_name = _name(b, q, name, name_text)
    top = b.new("h")
    for i, span in enumerate(values):
        x_c = _name(b, q, span)
        x_np, l_np = _noun_phrase(b, q, np, quant)
        e = "e2" if i == 0 else b.new("e")
        if form == "values":  # NAME's NP is A, NAME's NP is B
            b.ep("poss", (name[1], np[0]), l_np, ARG0=b.new("e"), ARG1=x_np, ARG2=x_name)
            b.ep("_be_v_id", (0, 0), top, ARG0=e, ARG1=x_np, ARG2=x_c)
        elif form == "subjects":  # A is the NP of NAME, B is the NP of NAME
            b.ep(f"_{prep[0]}_p", prep[1], l_np, ARG0=b.new("e"), ARG1=x_np, ARG2=x_name)
            b.ep("_be_v_id", (0, 0), top, ARG0=e, ARG1=x_c, ARG2=x_np)
        else:  # NAME is a NP of A, NAME is a NP of B
            b.ep(f"_{prep[0]}_p", prep[1], l_np, ARG0=b.new("e"), ARG1=x_np, ARG2=x_c)
            b.ep("_be_v_id", (0, 0), top, ARG0=e, ARG1=x_name, ARG2=x_np)
    return b.text("e2", top)


# "Is there a video game called Battle Chess?": the thing so called is a NP, as "Is Battle
# Chess a video game?" says
_THERE_CALLED = re.compile(
    r"^\s*(?:is|was)\s+there\s+(?:an?|any)\s+" + _NP_LOWER + r"\s+(?:called|named)\s+"
    r"(?P<name>(?-i:[A-Z\d\"'“])[^?,]*?)" + _END, re.I)


def _there_called_readings(q: str) -> list[str]:
    m = _THERE_CALLED.match(q)
    if not m:
        return []
    np, name = _clean_span(q, *m.span("np")), _clean_span(q, *m.span("name"))
    if not _plain_np(q[np[0]:np[1]]) or not _name_ok(q[name[0]:name[1]]):
        return []
    b = _Builder()
    x_name = _name(b, q, name)
    x_np, _ = _noun_phrase(b, q, np, "_a_q")
    top = b.new("h")
    b.ep("_be_v_id", (0, 0), top, ARG0="e2", ARG1=x_name, ARG2=x_np)
    return [b.text("e2", top)]


# "Was Marilyn_Manson genre Deathrock?", "Was Warren_Beatty partner Diane Keaton and Isabelle
# Adjani?", "Was James_Madison member of A and B?": LC-QuAD 2.0 joins the subject's words with
# "_", so the name ends there; then a noun phrase of one to three lower-case words (one reading
# each, as the value may be lower-case too: "hair color brown hair") and one or two values
_UNDERSCORED = re.compile(
    r"^\s*(?:was|is|were|are)\s+(?P<name>[^\s_?]+(?:_[^\s_?]+)+)\s+(?P<rest>[^?]+?)" + _END, re.I)


def _underscored_copula_readings(q: str) -> list[str]:
    m = _UNDERSCORED.match(q)
    if not m:
        return []
    words = [(w.start() + m.start("rest"), w.end() + m.start("rest")) for w in re.finditer(r"\S+", m.group("rest"))]
    out = []
    for k in range(1, min(4, len(words))):
        np = (words[0][0], words[k - 1][1])
        text = q[np[0]:np[1]]
        of = text.casefold().endswith(" of")
        if of:
            np = (np[0], np[1] - 3)
        if text != text.casefold() or not _plain_np(q[np[0]:np[1]]):
            continue
        rest = q[words[k][0]:words[-1][1]]
        conj = re.search(_AND, rest)
        values = ([(words[k][0], words[k][0] + conj.start()), (words[k][0] + conj.end(), words[-1][1])]
                  if conj else [(words[k][0], words[-1][1])])
        values = [_clean_span(q, *v) for v in values]
        if any(not _name_ok(q[a:z]) for a, z in values):
            continue
        out.append(_distributed_copulas(q, "objects" if of else "values", m.span("name"), np, values,
                                        "_a_q" if of else "_the_q", ("of", (np[1], np[1] + 3)) if of else None,
                                        m.group("name").replace("_", " ")))
    return out


# "Is the albedo of 1437 Diomedes equal to .024?", "Does the slope of X greater than 0.0":
# the NP of NAME is a number; the comparison itself is checked against the query's filter
# from the question's words (as for every comparison), not written in the MRS
_ASK_VALUE = re.compile(
    r"^\s*(?:is|was|are|were|does|do|did)\s+(?:it\s+true\s+that\s+)?(?:(?P<det>the|a|an)\s+)?"
    r"(?P<rest>[^?]+?)\s+(?:(?:is\s+)?(?:equals?(?:\s+to)?|(?:more|greater|less|fewer|higher|lower|"
    r"larger|smaller|bigger)\s+than|at\s+(?:least|most)|exactly)\s+)?"
    r"(?P<value>" + _NUMBER_TEXT + r")" + _END, re.I)


def _ask_value_readings(q: str) -> list[str]:
    m = _ASK_VALUE.match(q)
    if not m:
        return []
    out = []
    for np, (word, span), name in _splits(q, m, "rest"):
        b = _Builder()
        x_np, l_np = _noun_phrase(b, q, np, _quantifier(m.group("det")))
        b.ep(f"_{word.casefold()}_p", span, l_np, ARG0=b.new("e"), ARG1=x_np, ARG2=_name(b, q, name))
        out.append(_ask_value_main(b, q, m, np, x_np))
    # "Is the number of races by Alan Staley more than 1.2?", "Are the number of children had
    # by Catherine Keener equal to 0.8?": a count's holder after "by", read as "of"
    by = _COUNT_BY.match(m.group("rest"))
    if by:
        g0 = m.start("rest")
        spans = _checked_np_name(q, (g0, g0 + by.end("np")), (g0 + by.start("name"), g0 + by.end("name")))
        if spans is not None:
            b = _Builder()
            x_np, l_np = _noun_phrase(b, q, spans[0], _quantifier(m.group("det")))
            b.ep("_of_p", (g0 + by.start("by"), g0 + by.end("by")), l_np, ARG0=b.new("e"), ARG1=x_np,
                 ARG2=_name(b, q, spans[1]))
            out.append(_ask_value_main(b, q, m, spans[0], x_np))
    # "Is Graham Mink's total career points equal to 0?": the name's NP (``poss``)
    p = _POSSESSOR.match(m.group("rest"))
    if p:
        g0 = m.start("rest")
        b = _Builder()
        parts = _np_and_name(b, q, (g0 + p.start("np"), g0 + p.end("np")),
                             (g0 + p.start("name"), g0 + p.end("name")), "_the_q")
        if parts is not None:
            x_np, l_np, x_name = parts
            b.ep("poss", (g0 + p.end("name"), g0 + p.start("np")), l_np, ARG0=b.new("e"), ARG1=x_np,
                 ARG2=x_name)
            out.append(_ask_value_main(b, q, m, (g0 + p.start("np"), g0 + p.end("np")), x_np))
    return out


# "Are there 1.942 employees at Fu Jen Catholic University?": read as "Does NAME have N NP?"
# (``_have_v_1`` of the name and the counted noun phrase, ``card`` on it), as the ERG reads that
_THERE_ARE_N = re.compile(
    r"^\s*(?:are|is)\s+there\s+(?P<value>" + _NUMBER_TEXT + r")\s+(?P<np>(?-i:[a-z])[\w\s-]*?)\s+"
    r"(?P<prep>at|in|of|on)\s+(?P<name>[^?,]+?)" + _END, re.I)


#: "Is it true that the California Dreams Tour has 3.6 representations?", "Does the Dundonald
#: have 3.2 masts?": the same, with the name first
_HAS_N = re.compile(
    r"^\s*(?:(?:does|did|do)\s+|is\s+it\s+true\s+that\s+)(?:the\s+)?(?P<name>[^?,]+?)\s+(?P<prep>have|has|had)\s+"
    r"(?P<value>" + _NUMBER_TEXT + r")\s+(?P<np>(?-i:[a-z])[\w\s-]*?)" + _END, re.I)


def _there_are_n_readings(q: str) -> list[str]:
    m = _THERE_ARE_N.match(q) or _HAS_N.match(q)
    if not m:
        return []
    spans = _checked_np_name(q, m.span("np"), m.span("name"))
    if spans is None:
        return []
    b = _Builder()
    head = _noun_phrase(b, q, spans[0], "udef_q")
    if head is None:
        return []
    x_np, l_np = head
    b.ep("card", m.span("value"), l_np, ARG0=b.new("e"), ARG1=x_np, CARG=_carg(m.group("value")))
    return [b.main("_have_v_1", m.span("prep"), _name(b, q, spans[1]), x_np)]


#: "number of NP [had] by NAME" (the count, "by" and its holder)
_COUNT_BY = re.compile(r"^(?P<np>(?:(?:total|the)\s+)?(?:number|amount|count|quantity)\s+of\s+[a-z][\w\s-]*?)"
                       r"\s+(?P<by>(?:had\s+)?by)\s+(?P<name>[^?]+)$")
#: "NAME's NP" (the possessor and the possessed noun phrase)
_POSSESSOR = re.compile(r"^(?P<name>[^?]+?)(?:'s|’s|')\s+(?P<np>[^?']+)$")


def _ask_value_main(b: _Builder, q: str, m: re.Match, np: tuple[int, int], x_np: str) -> str:
    """The value of an :data:`_ASK_VALUE` question (``card``) as what the NP ``x_np`` is."""
    x_val, l_val = b.new("x"), b.new("h")
    b.ep("card", m.span("value"), l_val, ARG0=x_val, ARG1=b.new("i"), CARG=_carg(m.group("value")))
    b.quantified("udef_q", m.span("value"), x_val, l_val)
    return b.main("_be_v_id", (np[1], m.start("value")), x_np, x_val)


# "What languages does Arthur Hailey speak?", "Which films did Mike Myers produce?", "What
# area of engineering did James Watt work in?": the answer is the NP, the verb's object (or,
# with a stranded preposition, the preposition's)
_WH_OBJECT = re.compile(
    r"^\s*(?P<wh>what|which)\s+(?P<np>[^?,]+?)\s+(?:did|does|do)\s+(?P<name>[^?,]+?)\s+"
    r"(?P<verb>" + _NOT_A_VERB + r"(?-i:[a-z]+))(?:\s+(?P<prep>in|on|at|with|for|to|from|about|by))?"
    r"(?:\s+(?:today|now|currently))?" + _END, re.I)


#: Verbs that end "what kind of NP does X VERB?" questions: with one of them the verb is not left out.
_COMMON_VERBS = frozenset({"have", "use", "practice", "practise", "follow", "speak", "play", "do", "make", "offer",
                           "produce", "write", "believe", "eat", "drink", "wear", "drive", "sell", "run", "study"})


#: Words that make a would-be name a clause ("do they use in thailand", "did bob marley died").
_NOT_A_NAME = re.compile(r"\b(?:they|you|we|i|he|she|it|in|from|of|on|with|\w+ed|sing|die|fly|"
                         + "|".join(sorted(_COMMON_VERBS)) + r")\b", re.I)


# "what form of government does mexico?": "have" left out after a kind of NP
_WH_KIND_NO_VERB = re.compile(
    r"^\s*(?P<wh>what|which)\s+(?P<np>(?:kind|type|form|sort)s?\s+of\s+[^?,]+?)\s+(?:did|does|do)\s+"
    r"(?P<name>[^?,]+?)(?P<verb>)(?P<prep>)" + _END, re.I)


# "What position did Edgar of England succeed Eadwig in?": the verb has a name for its object,
# and the noun phrase asked for is the object of the stranded preposition
_WH_OBJECT_PREP = re.compile(
    r"^\s*(?P<wh>what|which)\s+(?P<np>[^?,]+?)\s+(?:did|does|do)\s+(?P<name>[^?,]+?)\s+"
    r"(?P<verb>" + _NOT_A_VERB + r"(?-i:[a-z]+))\s+(?P<obj>(?-i:[A-Z])[^?,]*?)\s+"
    r"(?P<prep>in|on|at|for|with|as|from|to)" + _END, re.I)
# "In what position will Maria Miller replace Theresa May?": the same with the preposition in
# front of the noun phrase it takes (pied-piped), as English also writes it
_PREP_WH_OBJECT = re.compile(
    r"^\s*(?P<prep>in|on|at|for|with|as|from|to)\s+(?P<wh>what|which)\s+(?P<np>[^?,]+?)\s+"
    r"(?:did|does|do|will|would)\s+(?:the\s+)?(?P<name>(?-i:[A-Z])[^?,]*?)\s+"
    r"(?P<verb>" + _NOT_A_VERB + r"(?-i:[a-z]+))\s+(?:(?:the|an?)\s+)?(?P<obj>(?-i:[A-Z])[^?,]*?)" + _END, re.I)
#: Prepositions, which are no verb at the end of :data:`_WH_OBJECT`.
_PREPOSITION_WORDS = frozenset({"in", "on", "at", "with", "for", "to", "from", "about", "by", "of", "as", "into"})


def _wh_object_prep_readings(q: str) -> list[str]:
    return [r for rx in (_WH_OBJECT_PREP, _PREP_WH_OBJECT) if (m := rx.match(q)) for r in _wh_object_prep_mrs(q, m)]


def _wh_object_prep_mrs(q: str, m: re.Match) -> list[str]:
    """The readings of :data:`_WH_OBJECT_PREP` and :data:`_PREP_WH_OBJECT`: the name VERBs the
    object name, and the noun phrase asked for is the preposition's."""
    if m.group("verb").casefold() in _AUXILIARIES | _PREPOSITION_WORDS | {"be", "get", "do"}:
        return []
    spans = _checked_np_name(q, m.span("np"), m.span("name"))
    obj = _clean_span(q, *m.span("obj"))
    if spans is None or not _plain_name_ok(q[obj[0]:obj[1]]) or not _plain_name_ok(q[spans[1][0]:spans[1][1]]):
        return []
    np, name = spans
    if m.re is _PREP_WH_OBJECT and not all(_capitalised(q[a:z]) for a, z in (name, obj)):
        return []  # no preposition closes the object: both names are written as names
    b = _Builder()
    x_np, _ = _noun_phrase(b, q, np, "which_q", (m.start("wh"), np[1]))
    x_name = _name(b, q, name)
    x_obj = _name(b, q, obj)
    return [_verb_and_prep(b, b.new("h"), f"_{m.group('verb').casefold()}/vb_u_unknown", m.span("verb"), x_name,
                           x_obj, m.group("prep"), m.span("prep"), x_np)]


def _capitalised(name: str) -> bool:
    """Whether every word of ``name`` but function words is capitalised ("Theresa May", "Duke
    of York"; not "Linda Nochlin major while")."""
    return all(w[:1].isupper() or w[:1].isdigit() or w in _FUNCTION for w in name.split())


def _wh_object_readings(q: str) -> list[str]:
    m = _WH_OBJECT.match(q)
    if m and m.group("verb").casefold() in _PREPOSITION_WORDS:
        m = None  # "... succeed Eadwig in?": a preposition is no verb
    out = _wh_object_mrs(q, m) if m else []
    if m and m.group("verb").casefold() in _COMMON_VERBS:
        return out  # "what kind of government does italy have?": the verb is there
    m = _WH_KIND_NO_VERB.match(q)
    if (not m or len(m.group("name").split()) > 3 or _NOT_A_NAME.search(m.group("name"))
            or any(base_forms(w) for w in m.group("name").split())):
        return out
    return out + _wh_object_mrs(q, m)


def _wh_object_mrs(q: str, m: re.Match) -> list[str]:
    spans = _checked_np_name(q, m.span("np"), m.span("name"))
    word = m.group("verb").casefold() or "have"
    if spans is None or word in _AUXILIARIES or word in ("be", "get", "do"):
        return []
    np, name = spans
    b = _Builder()
    x_np, _ = _noun_phrase(b, q, np, "which_q", (m.start("wh"), np[1]))
    x_name = _name(b, q, name)
    pred = "_have_v_1" if word == "have" else f"_{word}/vb_u_unknown"
    if not m.group("prep"):
        return [b.main(pred, m.span("verb"), x_name, x_np)]
    top = b.new("h")
    b.ep(pred, m.span("verb"), top, ARG0="e2", ARG1=x_name, ARG2=b.new("i"))
    b.ep(f"_{m.group('prep').casefold()}_p", m.span("prep"), top, ARG0=b.new("e"), ARG1="e2",
         ARG2=x_np)
    return [b.text("e2", top)]


# "When did Georg Simon Ohm become a member of the Royal Society?", "When did Mainz cease to
# be a part of X?", "When was Glen McGrath a member of X?": the time of a statement "NAME is
# the NP of NAME2" (whether its start or its end is asked is read from the question's words
# by the qualifier check)
_WHEN_BECOME = re.compile(
    r"^\s*(?P<when>when)\s+(?P<aux>did|does|do|was|is|were|has|had)\s+(?P<name>[^?,]+?)\s+"
    r"(?:(?P<become>become|became|becomes)|(?P<verb>(?:start(?:ed)?|begin|began)\s+as|"
    r"(?:cease[ds]?|stop(?:ped|s)?)\s+(?:being|to\s+be)|(?:step(?:ped)?\s+down|resign(?:ed)?)\s+as)"
    r"|(?=(?:a|an|the)\s))\s*"  # or nothing: "When was NAME a NP of NAME2?"
    r"(?:(?P<det>the|a|an)\s+)?(?P<np>[^?,]+?)\s+(?P<prep>of|for|in|from)\s+(?P<name2>[^?,]+?)" + _END, re.I)


def _when_become_readings(q: str) -> list[str]:
    m = _WHEN_BECOME.match(q)
    if m and not (m.group("become") or m.group("verb")) and m.group("aux").casefold() not in ("was", "is", "were"):
        return []  # "When did X win the Y in Z?" has a verb: not "When was X the Y in Z?"
    spans = m and [_checked_np_name(q, m.span("np"), m.span(g)) for g in ("name", "name2")]
    if not spans or None in spans:
        return []
    (np, name), (_, name2) = spans
    b = _Builder()
    x_time, l_time = b.new("x"), b.new("h")
    b.ep("time_n", m.span("when"), l_time, ARG0=x_time)
    b.quantified("which_q", m.span("when"), x_time, l_time)
    x_name = _name(b, q, name)
    x_np, l_np = _noun_phrase(b, q, np, _quantifier(m.group("det")))
    b.ep(f"_{m.group('prep').casefold()}_p", m.span("prep"), l_np, ARG0=b.new("e"), ARG1=x_np,
         ARG2=_name(b, q, name2))
    top = b.new("h")
    b.ep("loc_nonsp", m.span("when"), top, ARG0=b.new("e"), ARG1="e2", ARG2=x_time)
    verb = (m.end("name"), np[0])
    b.ep("_become_v_id" if m.group("become") else "_be_v_id", verb, top, ARG0="e2", ARG1=x_name,
         ARG2=x_np)
    return [b.text("e2", top)]


# "When was Tiger Woods nominated for a Best Male Golfer ESPY Award?", "In which year did
# Ernest Rutherford win the Nobel Prize in Chemistry?", "When did Leon Lai and Gaile Lok
# marry?": the time (``loc_nonsp`` + ``time_n``) of an event between a name and another
# name (a passive's subject undergoes the verb; an active verb takes the second name as its
# object, or through its preposition); two coordinated names before a verb without object
# are its coordinated subject, as the grammar reads "X and Y married"
_WHEN_WORDS = (r"(?P<when>when|(?:(?:in|on|during)\s+)?(?:which|what)\s+(?:year|date|day|month|time)"
               r"|what\s+time)")
_WHEN_EVENT = re.compile(
    r"^\s*" + _WHEN_WORDS + r"\s+(?:(?P<aux>did|does|do|has|have|had)\s+(?P<name>[^?,]+?)\s+"
    # "When did Vladimir Lenin stop living in Podolsk?": the time of the living (its start or
    # end is read from the question's words, as for every time qualifier)
    r"(?:(?-i:start|stop|begin|finish|end|cease|quit)\s+(?=(?-i:[a-z]+ing)\b))?"
    # "When did City of God get nominated for ...?": "get" before a participle, a passive
    r"(?:(?P<get>get|gets|got)\s+(?=" + _PARTICIPLE + r"\b))?"
    r"(?P<verb>" + _NOT_A_VERB + r"(?-i:[a-z]+))"
    r"|(?:was|were|is|are)\s+(?P<pname>[^?,]+?)\s+(?P<part>" + _NOT_A_VERB + r"(?-i:" + _PARTICIPLE
    + r")))(?:\s+(?P<prep>in|on|at|with|for|to|from|as|into|by|against))?\s+"
    r"(?:(?P<det>the|a|an)\s+)?(?P<name2>[^?,]+?)" + _END, re.I)
_WHEN_RECIPROCAL = re.compile(
    r"^\s*" + _WHEN_WORDS + r"\s+(?:did|do|does)\s+(?P<a>[^?,]+?)\s+and\s+(?P<b>[^?,]+?)\s+"
    r"(?P<verb>" + _NOT_A_VERB + r"(?-i:[a-z]+))" + _END, re.I)
# a capitalised name may contain "in", "on", "at", "and" before a capitalised word ("Nobel
# Prize in Chemistry", "Singin' in the Rain"), not before a month ("X on December 2, 1409")
_TITLE_JOINT = re.compile(r"\s(?:in|on|at|and|with|de|del|di|of|the)(?:\s+the)?\s+(?=[A-Z])"
                          r"(?!(?:January|February|March|April|May|June|July|August|September|October"
                          r"|November|December)\b)")


def _title_ok(name: str) -> bool:
    return name[:1].isupper() and _plain_name_ok(_TITLE_JOINT.sub(" X ", name))


def _loc_answer(b: _Builder, noun: str, span: tuple[int, int], top: str | None = None,
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


# "Where is Mount Whitney [located]?", "where is adam smith from?": the place of a name, as
# the ERG reads these (``loc_nonsp`` between the name and the place; with "located" the
# name is the undergoer of ``_locate_v_1``; with "from", ``_from_p``)
_WHERE_IS_NAME = re.compile(
    r"^\s*(?P<where>where)(?:(?P<be>'s|\s+(?:is|are|was|were))\s+|\s+)(?:the\s+)?"  # "where's X?"
    # "where is the country of armenia?", "where is the nation of greece located?": the place
    # noun before "of" is the named place itself
    r"(?:(?:country|nation|state|island|city|town|province|kingdom|republic)\s+of\s+)?(?P<name>[^?,]+?)"
    # "where indian ocean is located?": the copula after the name
    r"(?:\s+(?:(?:is|are|was|were)\s+(?=located|situated))?(?P<tail>located|situated|from)(?:\s+at)?|\s+at)?"
    + _END, re.I)


def _has_article(text: str) -> bool:
    """Whether a would-be name holds an article (a phrase: "the war", "a lake in X")."""
    return bool(re.search(r"\s(?:a|an|the)\s", f" {text} "))


#: the end of a "name" that is a participle, an adverb or a progressive
_PASSIVE_END = re.compile(r"\b(?:now|being|been|\w+ed|born|made|held|built|sold|spoken|found|shot|taken|"
                          r"shown|seen|grown|known|written|fought|thrown|sung|hung|begun|run|won|drawn)$", re.I)


def _where_is_name_readings(q: str) -> list[str]:
    m = _WHERE_IS_NAME.match(q)
    if not m:
        return []
    tail = (m.group("tail") or "").casefold()
    if not (m.group("be") or tail in ("located", "situated")):
        return []  # without the copula first only "where great britain [is] located?"
    name = _clean_span(q, *m.span("name"))
    text = q[name[0]:name[1]]
    # "where is isthmus of panama located?": before "located", a lowercase "N of NAME" without
    # an article may be a name too (the KG's labels decide)
    of_name = (tail in ("located", "situated") and text == text.casefold()
               and not q[:name[0]].casefold().rstrip().endswith(" the") and not _CLAUSE.search(text)
               and not _PHRASE_NOT_NAME.search(text) and re.fullmatch(r"[\w-]+(?:\s+[\w-]+)?\s+of\s+[\w\s-]+", text))
    if (not (_name_ok(text) or of_name) or _has_article(text)
            or re.match(r"(?:located|situated|from|based|born|buried|made|spoken|used)\b", text, re.I)
            or _PASSIVE_END.search(text)):  # a passive ("where was X born?"): another shape
        return []
    b = _Builder()
    x_place, l_place = b.new("x"), b.new("h")
    b.ep("place_n", m.span("where"), l_place, ARG0=x_place)
    b.quantified("which_q", m.span("where"), x_place, l_place)
    x_name = _name(b, q, name)
    top = b.new("h")
    if tail == "from":
        b.ep("_from_p", m.span("tail"), top, ARG0="e2", ARG1=x_name, ARG2=x_place)
    elif tail in ("located", "situated"):
        h, loc = b.new("h"), b.new("h")
        b.ep("loc_nonsp", m.span("where"), loc, ARG0=b.new("e"), ARG1=x_name, ARG2=x_place)
        b.ep("_locate_v_1", m.span("tail"), top, ARG0="e2", ARG1=b.new("i"), ARG2=x_name, ARG3=h)
        b.hcons.append(f"{h} qeq {loc}")
    else:
        b.ep("loc_nonsp", m.span("where"), top, ARG0="e2", ARG1=x_name, ARG2=x_place)
    return [b.text("e2", top)]


# "who played dorothy in the wizard of oz movie?", "who plays lorne on angel?": a person plays
# (or voices, portrays) a character, in (on) the work, as the ERG reads "who plays jay adams in
# lords of dogtown?" (the preposition on the verb's event)
_WHO_PLAYED_IN = re.compile(
    r"^\s*who\s+(?:(?:is|was|has|had|will)\s+)?"
    # "who does the voice of kitt in knight rider?" as "who voices kitt in knight rider?"
    r"(?P<verb>plays|played|playing|play|portrays|portrayed|voices|voiced|(?:does|did|do)\s+the\s+voice\s+of)"
    r"\s+(?:the\s+)?(?P<char>[^?,]+?)\s+"
    r"(?P<prep>in|on)\s+(?:the\s+)?(?P<work>[^?,]+?)(?:\s+(?:movies?|films?|(?:tv\s+)?show|series))?" + _END,
    re.I)
_PLAY_LEMMAS = {"plays": "play", "played": "play", "playing": "play", "play": "play",
                "portrays": "portray", "portrayed": "portray", "voices": "voice", "voiced": "voice",
                "drive": "drive", "drove": "drive", "race": "race", "raced": "race"}

# "who did kat graham play in parent trap?", "who does maggie grace play in taken?": the
# character (asked for) that the name played in the work, as the ERG reads "Who did X play in
# Y?" (``_play_v_1`` with the character as its object, ``_in_p`` on its event)
_WHO_DID_PLAY_IN = re.compile(
    r"^\s*(?P<wh>who)\s+(?:(?:did|does|do|will)\s+)?(?P<name>[^?,]+?)\s+(?P<verb>play)\s+(?P<prep>in|on)\s+"
    r"(?:the\s+)?(?P<work>[^?,]+?)(?:\s+(?:movies?|films?|(?:tv\s+)?show|series))?" + _END, re.I)


def _work_span(q: str, m: re.Match) -> tuple[int, int] | None:
    """The cleaned span of the ``work`` group ("in the wizard of oz movie"), unless it is
    empty or holds a clause."""
    work = _clean_span(q, *m.span("work"))
    if _CLAUSE.search(q[work[0]:work[1]]) or not work[1] > work[0]:
        return None
    return work


def _who_did_play_in_readings(q: str) -> list[str]:
    start = _wh_and_name(_WHO_DID_PLAY_IN, q, "who")
    if start is None:
        return []
    m, b, x_who, x_name, top = start
    work = _work_span(q, m)
    if work is None:
        return []
    x_work = _name(b, q, work)
    b.ep("_play_v_1", m.span("verb"), top, ARG0="e2", ARG1=x_name, ARG2=x_who)
    b.ep(f"_{m.group('prep').casefold()}_p_state", m.span("prep"), top, ARG0=b.new("e"), ARG1="e2",
         ARG2=x_work)
    return [b.text("e2", top)]


def _who_played_in_readings(q: str) -> list[str]:
    m = _WHO_PLAYED_IN.match(q)
    if not m:
        return []
    char, work = _clean_span(q, *m.span("char")), _work_span(q, m)
    if not _plain_name_ok(q[char[0]:char[1]]) or work is None:
        return []
    b = _Builder()
    x_who = _wh(b, "who", (0, m.start("verb")))
    x_char, x_work = _name(b, q, char), _name(b, q, work)
    top = b.new("h")
    verb = _PLAY_LEMMAS.get(m.group("verb").casefold(), "voice")
    b.ep(f"_{verb}_v_1", m.span("verb"), top, ARG0="e2", ARG1=x_who, ARG2=x_char)
    b.ep(f"_{m.group('prep').casefold()}_p_state", m.span("prep"), top, ARG0=b.new("e"), ARG1="e2", ARG2=x_work)
    return [b.text("e2", top)]


# "who was judy garland married to?": ``_married_a_1`` of the name, "to" the person asked for
# ("married too", a common slip, read the same)
_WHO_MARRIED = re.compile(
    # "who tom cruise been married to?": the auxiliary left out
    r"^\s*(?P<wh>who)\s+(?:(?:is|was|are|were|has|have)\s+)?(?P<name>[^?,]+?)\s+(?:getting\s+|been\s+)?"
    r"(?P<married>married)\s+(?P<to>to|too)"
    + _END, re.I)


def _matched_name(rx: re.Pattern, q: str, refuse=None) -> tuple[re.Match, tuple[int, int]] | None:
    """The match of ``rx`` and the cleaned span of its ``name`` group, when that span is a
    plain name (:func:`_plain_name_ok`) that ``refuse`` (a test of its text) does not refuse."""
    m = rx.match(q)
    if not m:
        return None
    name = _clean_span(q, *m.span("name"))
    text = q[name[0]:name[1]]
    if not _plain_name_ok(text) or (refuse is not None and refuse(text)):
        return None
    return m, name


def _wh_and_name(rx: re.Pattern, q: str, wh) -> tuple[re.Match, "_Builder", str, str, str] | None:
    """The start of a reading for a question of ``rx`` that asks ``wh`` ("who", "what") about
    one plain name (:func:`_matched_name`, no article in it): the match, the builder, the
    answer's variable (its span the group ``wh``), the name's variable and the top label.
    ``wh`` may also be a function of the builder and the match that writes the answer ("what
    teams": :func:`_which_noun`)."""
    found = _matched_name(rx, q, _has_article)
    if found is None:
        return None
    m, name = found
    b = _Builder()
    x_wh = wh(b, m) if callable(wh) else _wh(b, wh, m.span("wh"))
    return m, b, x_wh, _name(b, q, name), b.new("h")


def _who_married_readings(q: str) -> list[str]:
    start = _wh_and_name(_WHO_MARRIED, q, "who")
    if start is None:
        return []
    m, b, x_who, x_name, top = start
    b.ep("_married_a_1", m.span("married"), top, ARG0="e2", ARG1=x_name)
    b.ep("_to_p_state", m.span("to"), top, ARG0=b.new("e"), ARG1="e2", ARG2=x_who)
    return [b.text("e2", top)]


# "what county is morristown tn in?", "what county is sacramento located in?", "what city was
# selena gomez born in?": the place noun asked for, the name in it (``_in_p_loc``), or located
# (born) in it (``_locate_v_1`` / ``_born/vbn_u_unknown`` + ``_in_p_state``)
_WHAT_PLACE_IS_IN = re.compile(
    r"^\s*(?P<wh>what|which)\s+(?P<np>county|city|country|state|province|region|continent|town)\s+"
    r"(?:is|was|are|were)\s+(?:the\s+)?(?P<name>[^?,]+?)\s+"
    # "what continent is greenland located?": "in" left out after the participle; "what
    # continent is south africa part of?" (or "apart of"): a place is in what it is part of
    r"(?:(?P<verb>located|situated|born)(?:\s+(?P<prep>in))?|(?P<prep2>in|(?:a\s+)?a?part\s+of))"
    + _END, re.I)


def _what_place_is_in_readings(q: str) -> list[str]:
    found = _matched_name(_WHAT_PLACE_IS_IN, q, _PASSIVE_END.search)
    if found is None:
        return []
    m, name = found
    b = _Builder()
    x_np = _which_noun(b, f"_{m.group('np').casefold()}_n_of", m.span("np"), m.span("wh"), True)
    x_name = _name(b, q, name)
    top = b.new("h")
    if m.group("verb"):  # "born" as "where was andy todd born?" reads it
        verb = "_born/vbn_u_unknown" if m.group("verb").casefold() == "born" else "_locate_v_1"
        b.ep(verb, m.span("verb"), top, ARG0="e2", ARG1=b.new("i"), ARG2=x_name)
        b.ep("_in_p_state", m.span("prep") if m.group("prep") else m.span("verb"), top,
             ARG0=b.new("e"), ARG1="e2", ARG2=x_np)
    else:
        b.ep("_in_p_loc", m.span("prep2"), top, ARG0="e2", ARG1=x_name, ARG2=x_np)
    return [b.text("e2", top)]


# "what films has gerard butler starred in?": the films asked for, in which the name starred
# (played, appeared, acted), as the ERG reads it
_WHAT_FILMS_HAS = re.compile(
    r"^\s*(?P<wh>what|which)\s+(?P<np>movies|films|movie|film)\s+(?:has|have|had)\s+(?P<name>[^?,]+?)\s+"
    r"(?P<verb>starred|played|appeared|acted)\s+(?P<prep>in)" + _END, re.I)
_FILM_VERBS = {"starred": "_star_v_1", "played": "_play_v_1", "appeared": "_appear_v_1", "acted": "_act_v_1"}


# "what movies has billy burke been in?", "what films have johnny depp been in?", "what movies
# is molly ringwald in?": the name is in the film (``_in_p_loc(e, name, film)``, as the ERG
# reads "What movie is X in?"), whose cast the axioms read it as
_WHAT_FILMS_BEEN_IN = re.compile(
    r"^\s*(?P<wh>what|which)\s+(?:other\s+)?(?P<np>movies|films|movie|film|shows|show|tv\s+shows?|series)\s+"
    # "been" and even the auxiliary left out: "what movies has angelina jolie in?", "what
    # movies gerard butler in?"
    r"(?:(?:has|have|had)\s+(?P<name>[^?,]+?)(?:\s+been)?|(?:is|are|was|were)\s+(?P<name2>[^?,]+?)"
    r"|(?P<name3>(?!(?:has|have|had|is|are|was|were|did|does|do)\b)[^?,]+?))\s+"
    r"(?P<prep>in|on)" + _END, re.I)


#: verbs that end a name of :data:`_WHAT_FILMS_BEEN_IN` in another shape ("what movies has tom
#: hanks starred in?"); a name may end like a participle ("taylor momsen")
_FILM_VERB_WORDS = frozenset({"star", "play", "act", "appear", "feature", "featured", "voice", "voiced",
                              "direct", "directed", "produce", "produced", "written", "made", "done"})


def _what_films_been_in_readings(q: str) -> list[str]:
    m = _WHAT_FILMS_BEEN_IN.match(q)
    if not m:
        return []
    name = _clean_span(q, *m.span(next(g for g in ("name", "name2", "name3") if m.group(g))))
    last = q[name[0]:name[1]].split()[-1].casefold()
    if (not _plain_name_ok(q[name[0]:name[1]]) or _has_article(q[name[0]:name[1]])
            or last in _FILM_VERBS or last in _FILM_VERB_WORDS):
        return []  # "what movies has tom hanks starred in?": another shape
    b = _Builder()
    word = m.group("np").casefold().split()[-1].rstrip("s") or "series"
    noun = {"movie": "_movie_n_of", "film": "_film_n_1", "show": "_show_n_of", "serie": "_series_n_1"}[word]
    x_np = _which_noun(b, noun, m.span("np"), m.span("wh"), noun.endswith("_of"))
    x_name = _name(b, q, name)
    return [b.main("_in_p_loc", m.span("prep"), x_name, x_np)]


# "what language people speak in afghanistan?", "what language does people speak in
# australia?", "what does russian people speak?", "what language do chilean people speak?":
# (the) people, or the people a demonym names, speak the language asked for, in the place
# after "in" (as the ERG reads "What language do people speak in Iran?": ``_speak_v_to``,
# ``_in_p_state`` on its event); the grammar reads the agreement slips as "doe" nouns
# "what language do they speak in brazil?", "what language do the speak in pakistan?" ("they"
# mistyped), "what language do people in czech republic speak?", "what do they speak iceland?"
# ("in" left out): the same, "they" read as the people
_WHAT_PEOPLE_SPEAK = re.compile(
    r"^\s*(?P<wh>what|which)\s+(?:(?P<np>languages?)\s+)?(?:(?:do|does|did)\s+)?"
    r"(?:(?P<people>they|the(?=\s+(?:speak|talk)\b))|(?:the\s+)?(?:(?P<dem>[a-z]+)\s+)?(?P<people2>people))"
    r"(?:\s+(?P<prep2>in)\s+(?P<name2>[^?,]+?))?\s+(?P<verb>speak|talk)"
    r"(?:\s+(?:(?P<prep>in)\s+)?(?P<name>[^?,]+?))?" + _END, re.I)


def _people(b: _Builder, span: tuple[int, int], demonym: str | None = None,
            demonym_span: tuple[int, int] = (-1, -1)) -> str:
    """"people" (``_people_n_of``), with the demonym that modifies it ("russian people"), as a
    quantified noun phrase; returns its variable."""
    x, lab = b.new("x"), b.new("h")
    b.ep("_people_n_of", span, lab, ARG0=x, ARG1=b.new("i"))
    if demonym:
        b.ep(f"_{demonym.casefold()}/jj_u_unknown", demonym_span, lab, ARG0=b.new("e"), ARG1=x)
    b.quantified("udef_q", (demonym_span[0] if demonym else span[0], span[1]), x, lab)
    return x


def _what_people_speak_readings(q: str) -> list[str]:
    m = _WHAT_PEOPLE_SPEAK.match(q)
    if not m or (m.group("dem") and (m.group("name") or m.group("name2")
                                     or m.group("dem").casefold() in ("do", "does", "did", "the"))):
        return []
    if m.group("name") and m.group("name2"):
        return []
    place, prep = ("name", "prep") if m.group("name") else ("name2", "prep2")
    if m.group(place) and (not _plain_name_ok(m.group(place)) or _has_article(m.group(place))):
        return []
    people = "people" if m.group("people") else "people2"
    b = _Builder()
    if m.group("np"):
        x = _which_noun(b, "_language_n_1", m.span("np"), m.span("wh"))
    else:
        x = _wh(b, "what", m.span("wh"))
    x_people = _people(b, m.span(people), m.group("dem"), m.span("dem"))
    top = b.new("h")
    b.ep("_speak_v_to", m.span("verb"), top, ARG0="e2", ARG1=x_people, ARG2=x)
    if m.group(place):
        span = m.span(prep) if m.group(prep) else (m.start(place), m.start(place))
        b.ep("_in_p_state", span, top, ARG0=b.new("e"), ARG1="e2", ARG2=_name(b, q, _clean_span(q, *m.span(place))))
    return [b.text("e2", top)]


# "what countries do people speak portuguese?", "what country do they speak farsi?", "in which
# countries do people speak japanese?": the countries in which people speak the language, as
# the ERG reads the last (``_speak_v_to`` of the people and the language, ``_in_p_state`` of
# its event and the country)
_WHAT_COUNTRIES_SPEAK = re.compile(
    r"^\s*(?:in\s+)?(?P<wh>what|which)\s+(?P<np>countries|country|nations?)\s+(?:do|does|did)\s+(?:the\s+)?"
    r"(?P<people>people|they)\s+(?P<verb>speak|talk)\s+(?P<name>[a-z]+)" + _END, re.I)


def _what_countries_speak_readings(q: str) -> list[str]:
    m = _WHAT_COUNTRIES_SPEAK.match(q)
    if not m or m.group("name").casefold() in ("in", "to", "with", "about", "there", "it", "now"):
        return []
    b = _Builder()
    x = _which_noun(b, "_country_n_of", m.span("np"), m.span("wh"), relational=True)
    x_people = _people(b, m.span("people"))
    top = b.new("h")
    b.ep("_speak_v_to", m.span("verb"), top, ARG0="e2", ARG1=x_people, ARG2=_name(b, q, m.span("name")))
    b.ep("_in_p_state", (m.start("wh"), m.end("np")), top, ARG0=b.new("e"), ARG1="e2", ARG2=x)
    return [b.text("e2", top)]


# "what is the time zone in oklahoma city?": the time zone of the place after "in", read as
# "the time zone of NAME"
_TIME_ZONE_IN = re.compile(
    r"^\s*(?P<wh>what|which)\s+(?:is|are)\s+(?P<det>the)\s+(?P<rest>(?P<np>time\s+zones?)\s+(?P<prep>in)\s+"
    r"(?P<name>[^?,]+?))" + _END, re.I)


# "what is currency in dominican republic?", "what the currency in argentina?": the article
# or the copula left out before a currency in a place
_CURRENCY_IN = re.compile(
    r"^\s*(?P<wh>what|which)(?:\s+(?:is|are)|'s|’s)?\s+(?:(?P<det>the)\s+)?(?P<rest>(?P<np>currency|money)\s+"
    r"(?P<prep>in)\s+(?:the\s+)?(?P<name>[^?,]+?))(?:\s+called)?" + _END, re.I)


# "what do australia call their money?", "what do you call money in brazil?": the money of the
# place, read as "What is the money of NAME?" ("in" for the second form)
_CALL_MONEY = re.compile(
    r"^\s*(?P<wh>what)\s+(?:do|does)\s+(?:(?P<name>(?!you\b|they\b|people\b)[^?,]+?)\s+call\s+(?:their|its)\s+"
    r"(?P<np>money|currency)|you\s+call\s+(?:the\s+)?(?P<np2>money|currency)\s+(?P<prep>in)\s+(?P<name2>[^?,]+?))"
    + _END, re.I)


def _call_money_readings(q: str) -> list[str]:
    m = _CALL_MONEY.match(q)
    if not m:
        return []
    name, np = ("name", "np") if m.group("name") else ("name2", "np2")
    if not _plain_name_ok(m.group(name)) or _has_article(m.group(name)):
        return []
    b = _Builder()
    x_wh = _wh(b, "what", m.span("wh"))
    x, l_np = _noun_phrase(b, q, m.span(np), "_the_q")
    prep = "in" if m.group("prep") else "of"
    b.ep(f"_{prep}_p", m.span("prep") if m.group("prep") else m.span(np), l_np, ARG0=b.new("e"), ARG1=x,
         ARG2=_name(b, q, _clean_span(q, *m.span(name))))
    return [b.main("_be_v_id", (m.end("wh"), m.start(np)), x_wh, x)]


def _time_zone_in_readings(q: str) -> list[str]:
    m = _TIME_ZONE_IN.match(q) or _CURRENCY_IN.match(q)
    if not m or not _plain_name_ok(m.group("name")):
        return []
    r = _copula_mrs(q, m, [m.span("np")], [], ("in", m.span("prep")), m.span("name"))
    return [r] if r else []


# "what time is it in texas?", "what is the current time in nigeria lagos?", "what time is
# nebraska now?", "what timezone are the bahamas?", "where is the time zone in florida?": the
# time of a place, which a knowledge graph records as the time zone the place is in.  Read as
# "What time zone is NAME in?" (``_in_p`` of the name and the zone), with the time words as one
# noun *timezone*.  Plain "time" needs "in" or "now" ("what time is the super bowl?" asks when
# an event is, not a zone).
_TIME = r"times?(?:\s*zones?)?"
_NOW = r"(?:\s+(?:right\s+)?now|\s+currently)?"
_WHAT_TIME = re.compile(
    r"^\s*(?:(?P<wh>what|which)\s+(?:"
    r"(?:is|'s|’s)\s+(?:the\s+)?(?:(?:actual|current|local|present|exact)\s+)*(?P<t1>" + _TIME + ")"
    + _NOW + r"\s+(?P<in1>in)\s+(?P<n1>[^?,]+?)"
    r"|(?P<t2>" + _TIME + r")\s+(?:is|are)(?:\s+it|\s+there)?" + _NOW + r"\s+(?P<in2>in)\s+(?P<n2>[^?,]+?)" + _NOW +
    r"|(?P<t3>" + _TIME + r")\s+(?:is|are)\s+(?P<n3>[^?,]+?)(?P<now3a>" + _NOW + r")(?:\s+(?P<in3>in))?(?P<now3>" + _NOW + "))"
    r"|(?P<wh4>where)\s+is\s+(?:the\s+)?(?P<t4>time\s*zones?)\s+(?P<in4>in)\s+(?P<n4>[^?,]+?))"
    + _END, re.I)


def _what_time_in_readings(q: str) -> list[str]:
    m = _WHAT_TIME.match(q)
    if not m or _TIME_ZONE_IN.match(q):  # "what is the time zone in X?" has its copula reading
        return []
    k = next(i for i in "1234" if m.group("t" + i))
    time, name = m.span("t" + k), m.span("n" + k)
    if k == "3" and "zone" not in m.group("t3").casefold() and not (m.group("in3") or m.group("now3") or m.group("now3a")):
        return []
    if not _plain_name_ok(m.group("n" + k)):
        return []
    b = _Builder()
    wh = m.span("wh4") if k == "4" else m.span("wh")
    x = _which_noun(b, "_timezone/nn_u_unknown", time, wh)
    the = re.match(r"the\s+", m.group("n" + k), re.I)
    x_name = _name(b, q, _clean_span(q, name[0] + (the.end() if the else 0), name[1]))
    top = b.new("h")
    prep = m.span("in" + k) if m.group("in" + k) else time
    b.ep("_in_p", prep, top, ARG0="e2", ARG1=x_name, ARG2=x)
    return [b.text("e2", top)]


# "what are some places to visit in new york?", "what are the places to see in dubai?": what
# one sees or visits in the place, read as "What should you see in NAME?" (the verb's object
# the answer, ``_in_p_state`` on its event), which `verb_sight_in_place` reads
_PLACES_TO_SEE = re.compile(
    r"^\s*(?P<wh>what)\s+(?:are|is)\s+(?:some\s+|the\s+)?(?:(?:best|top|main|good|famous)\s+)*"
    r"(?:places|sights|things|attractions)\s+to\s+(?P<verb>see|visit)\s+(?P<prep>in)\s+(?P<name>[^?,]+?)" + _END,
    re.I)


def _places_to_see_readings(q: str) -> list[str]:
    m = _PLACES_TO_SEE.match(q)
    if not m or not _plain_name_ok(m.group("name")):
        return []
    b = _Builder()
    x = _wh(b, "what", m.span("wh"))
    x_name = _name(b, q, _clean_span(q, *m.span("name")))
    return [_verb_and_prep(b, b.new("h"), f"_{m.group('verb').casefold()}_v_1", m.span("verb"), b.new("i"), x,
                           "in", m.span("prep"), x_name, sense="p_state")]


def _what_films_has_readings(q: str) -> list[str]:
    found = _matched_name(_WHAT_FILMS_HAS, q)
    if found is None:
        return []
    m, name = found
    b = _Builder()
    noun = "movie" if m.group("np").casefold().startswith("movie") else "film"
    x_np = _which_noun(b, f"_{noun}_n_1", m.span("np"), m.span("wh"))
    x_name = _name(b, q, name)
    top = b.new("h")
    b.ep(_FILM_VERBS[m.group("verb").casefold()], m.span("verb"), top, ARG0="e2", ARG1=x_name)
    b.ep("_in_p_loc", m.span("prep"), top, ARG0=b.new("e"), ARG1="e2", ARG2=x_np)
    return [b.text("e2", top)]


# "who does joakim noah play for?", "who has tom brady played for?", "what teams has lionel
# messi played for?": the name plays for "who" (the team, club), as the ERG reads "Who does X
# play for?" (``_play_v_1`` and ``_for_p`` on its event)
_WHO_PLAYS_FOR = re.compile(
    r"^\s*(?:(?P<wh>who)|(?P<which>what|which)\s+(?P<np>teams?|clubs?))\s+(?:all\s+)?"
    r"(?:(?:does|did|do|has|have|had|will)\s+)?(?P<name>[^?,]+?)\s+"
    r"(?P<verb>play|played|drive|drove|race|raced)\s+(?P<prep>for)(?:\s+(?:right\s+)?now|\s+currently)?" + _END, re.I)


def _team_asked(b: "_Builder", m: re.Match) -> str:
    """The answer of :data:`_WHO_PLAYS_FOR`: "who", or the team / club asked for."""
    if m.group("wh"):
        return _wh(b, "who", m.span("wh"))
    if m.group("np").casefold().startswith("team"):
        return _which_noun(b, "_team_n_of", m.span("np"), m.span("which"), True)
    return _which_noun(b, "_club_n_1", m.span("np"), m.span("which"))


def _who_plays_for_readings(q: str) -> list[str]:
    start = _wh_and_name(_WHO_PLAYS_FOR, q, _team_asked)
    if start is None:
        return []
    m, b, x_who, x_name, top = start
    verb = _PLAY_LEMMAS[m.group("verb").casefold()]
    return [_verb_and_prep(b, top, f"_{verb}_v_1", m.span("verb"), x_name, b.new("i"), "for", m.span("prep"), x_who)]


# "what did lucille ball die of?", "what did robin gibb died from?": the name died of (from)
# "what", as the ERG reads "What did X die of?" (``_die_v_of``; "from": ``_from_p`` on the
# event of ``_die_v_1``)
_WHAT_DIE_OF = re.compile(
    r"^\s*(?P<wh>what)\s+(?:did|does|do)\s+(?P<name>[^?,]+?)\s+(?:really\s+)?(?P<verb>die|died)\s+"
    r"(?P<prep>of|from)" + _END, re.I)


def _what_die_of_readings(q: str) -> list[str]:
    start = _wh_and_name(_WHAT_DIE_OF, q, "what")
    if start is None:
        return []
    m, b, x_what, x_name, top = start
    if m.group("prep").casefold() == "of":
        b.ep("_die_v_of", (m.start("verb"), m.end("prep")), top, ARG0="e2", ARG1=x_name,
             ARG2=x_what)
    else:
        b.ep("_die_v_1", m.span("verb"), top, ARG0="e2", ARG1=x_name)
        b.ep("_from_p", m.span("prep"), top, ARG0=b.new("e"), ARG1="e2", ARG2=x_what)
    return [b.text("e2", top)]


# "what did copernicus invented?", "what did james madison wrote?": "what did NAME VERB?" with
# the verb written in the past, which the grammar does not parse after "did".  Read with the
# verb's base form as an unknown word, one reading per form its spelling allows ("invented":
# *invent*, *invente*), so that the one the lexicon knows links.
_WHAT_DID_VERBED = re.compile(
    r"^\s*(?P<wh>what)\s+did\s+(?P<name>[^?,]+?)\s+(?P<verb>(?-i:[a-z]{3,}))"
    # "what did corey haim act in?", "what did kellie martin play on?": the preposition
    # stranded, "what" its object and the verb's event its subject
    r"(?:\s+(?P<prep>in|on|for|with|about))?" + _END, re.I)


def _what_did_verbed_readings(q: str) -> list[str]:
    found = _matched_name(_WHAT_DID_VERBED, q, _has_article)
    forms = base_forms(found[0].group("verb")) if found else []
    if found and found[0].group("prep") and not forms:
        forms = [found[0].group("verb").casefold()]  # "what did X act in?": the verb as written
    if not forms or forms[0] in _LIGHT_VERBS:
        return []
    m, name = found
    out = []
    for base in forms:  # a builder of its own for each reading
        b = _Builder()
        x_what = _wh(b, "what", m.span("wh"))
        x_name = _name(b, q, name)
        top = b.new("h")
        if m.group("prep"):
            out.append(_verb_and_prep(b, top, f"_{base}/vb_u_unknown", m.span("verb"), x_name, b.new("i"),
                                      m.group("prep"), m.span("prep"), x_what))
            continue
        b.ep(f"_{base}/vb_u_unknown", m.span("verb"), top, ARG0="e2", ARG1=x_name, ARG2=x_what)
        out.append(b.text("e2", top))
    return out


# "In which films directed by Garry Marshall was Julia Roberts starring?", "In which movies did
# Tom Hanks star?", "Which films directed by X did Y appear in?": the name does the verb in
# (on, at, for, with) the thing asked for, which may undergo a verb by another name (a reduced
# relative: "films *directed by* Garry Marshall"); the preposition on the verb's event, as the
# ERG reads "Which films did X star in?"
_IN_WHICH = re.compile(
    r"^\s*(?:(?P<prep>in|on|at|for|with)\s+)?(?P<wh>which|what)\s+(?P<np>(?-i:[a-z])[^?,]*?)"
    r"(?:\s+(?P<part>" + _PARTICIPLE + r")\s+by\s+(?P<name1>[^?,]+?))?"
    r"\s+(?P<aux>was|is|were|are|did|does|do)\s+(?P<name>[^?,]+?)\s+"
    r"(?P<verb>(?-i:[a-z]){3,})(?:\s+(?P<prep2>in|on|at|for|with))?" + _END, re.I)


def _in_which_readings(q: str) -> list[str]:
    m = _IN_WHICH.match(q)
    if not m or bool(m.group("prep")) == bool(m.group("prep2")):
        return []  # the preposition in front of "which" or at the end, once
    verb = m.group("verb").casefold()
    aux = m.group("aux").casefold()
    ing = verb.endswith("ing")
    if ing != (aux in ("was", "is", "were", "are")) or verb in _NOT_VERBING or verb in _AUXILIARIES:
        return []  # "was X starring", "did X star"; not "was X born" (a passive)
    if m.group("prep2") and not ing and not m.group("name1"):
        return []  # "What films did X star in?": the object shape reads it (_wh_object_readings)
    np, name = _clean_span(q, *m.span("np")), _clean_span(q, *m.span("name"))
    if not _plain_np(q[np[0]:np[1]]) or not _plain_name_ok(q[name[0]:name[1]]) or _has_article(q[name[0]:name[1]]):
        return []
    words = q[name[0]:name[1]].split()
    if (any(w[:1].isupper() for w in words) and any(w[:1].islower() and w not in _FUNCTION for w in words)
            and not _kin_owned(q, name)):
        return []  # "did Rosalind Franklin study physical chemistry": the verb is not last
    name1 = _clean_span(q, *m.span("name1")) if m.group("name1") else None
    if name1 is not None and not _plain_name_ok(q[name1[0]:name1[1]]):
        return []
    b = _Builder()
    head = _noun_phrase(b, q, np, "_which_q", m.span("wh"))
    if head is None:
        return []
    x_np, l_np = head
    if name1 is not None:
        b.ep(f"_{m.group('part').casefold()}/vbn_u_unknown", m.span("part"), l_np, ARG0=b.new("e"),
             ARG1=_name(b, q, name1), ARG2=x_np)
    x_name = _name(b, q, name)
    prep = "prep" if m.group("prep") else "prep2"
    return [_verb_and_prep(b, b.new("h"), f"_{verb}/{'vbg' if ing else 'vb'}_u_unknown", m.span("verb"),
                           x_name, b.new("i"), m.group(prep), m.span(prep), x_np)]


# "what was gregor mendel known for?", "what was elijah mccoy famous for?": what the name is
# known for, as the ERG reads "What was William Faulkner known for?" (the passive ``_know_v_1``
# of the name, "for" on its event); "famous for" says the same
_KNOWN_FOR = re.compile(
    r"^\s*(?P<wh>what)\s+(?:is|was|are|were)\s+(?P<name>[^?,]+?)\s+(?:(?:best|most|well|mostly)\s+)?"
    r"(?P<verb>known|famous)\s+(?P<for>for)" + _END, re.I)


def _known_for_readings(q: str) -> list[str]:
    start = _wh_and_name(_KNOWN_FOR, q, "what")
    if start is None:
        return []
    m, b, x_what, x_name, top = start
    return [_verb_and_prep(b, top, "_know_v_1", m.span("verb"), b.new("i"), x_name, "for", m.span("for"), x_what)]


# "who did jason segel date?", "who did jeremy lin sign with?": the name did the verb to (or
# with) the person asked for: its object, or the object of the preposition on its event
_WHO_DID_VERB = re.compile(
    r"^\s*(?P<wh>who)\s+(?:did|does|do)\s+(?P<name>[^?,]+?)\s+(?P<verb>(?-i:[a-z]){3,})"
    r"(?:\s+(?P<prep>with|to|for|against|from|by))?" + _END, re.I)


def _who_did_verb_readings(q: str) -> list[str]:
    start = _wh_and_name(_WHO_DID_VERB, q, "who")
    if start is None:
        return []
    m, b, x_who, x_name, top = start
    if m.group("name").split()[-1].casefold() in _LIGHT_VERBS | {"got", "gets", "been"}:
        return []  # "who did X get shot by?": a passive
    verb = m.group("verb").casefold()
    base = next(iter(base_forms(verb)), None) or irregular_base(verb) or verb
    if base in _LIGHT_VERBS or verb in _AUXILIARIES or base in ("marry", "play") or verb.endswith("ing"):
        return []  # "who did X marry / play?": shapes of their own
    if m.group("prep"):
        return [_verb_and_prep(b, top, f"_{base}/vb_u_unknown", m.span("verb"), x_name, b.new("i"),
                               m.group("prep"), m.span("prep"), x_who)]
    b.ep(f"_{base}/vb_u_unknown", m.span("verb"), top, ARG0="e2", ARG1=x_name, ARG2=x_who)
    return [b.text("e2", top)]


# "who did axl rose marry?", "who did mario lopez just marry?": the name married "who", as
# the ERG reads "Who did X marry?"
_WHO_DID_MARRY = re.compile(
    r"^\s*(?P<wh>who)\s+(?:did|does|do)\s+(?P<name>[^?,]+?)\s+(?:just\s+|end\s+up\s+)?(?P<verb>marry|married|marrying)" + _END,
    re.I)


def _who_did_marry_readings(q: str) -> list[str]:
    start = _wh_and_name(_WHO_DID_MARRY, q, "who")
    if start is None:
        return []
    m, b, x_who, x_name, top = start
    b.ep("_marry_v_1", m.span("verb"), top, ARG0="e2", ARG1=x_name, ARG2=x_who)
    return [b.text("e2", top)]


# "where did barack obama went to school?", "where ulysses s grant go to school?": the place
# the name went to, a school (college, university), as the ERG reads "Where did X go to high
# school?" (``_go_v_1``, ``_to_p_dir`` on its event, the place on ``loc_nonsp``)
# ("where did kobe bryant attend high school?": "attend" is read as "go to", which it means
# here, so that the school is the place asked for)
_WHERE_GO_TO_SCHOOL = re.compile(
    r"^\s*(?P<where>where)\s+(?:(?:did|does|do)\s+)?(?P<name>[^?,]+?)\s+(?:(?P<verb>go|goes|went)\s+"
    r"(?P<prep>to)|(?P<attend>attend|attended|attends))\s+(?P<np>(?:(?P<high>high)\s+)?(?P<noun>school|college|university))"
    + _END, re.I)


def _where_go_to_school_readings(q: str) -> list[str]:
    found = _matched_name(_WHERE_GO_TO_SCHOOL, q, _has_article)
    if found is None:
        return []
    m, name = found
    b = _Builder()
    x_name = _name(b, q, name)
    top = _loc_answer(b, "place_n", m.span("where"))
    verb = m.span("verb") if m.group("verb") else m.span("attend")
    b.ep("_go_v_1", verb, top, ARG0="e2", ARG1=x_name)
    x_np, l_np = b.new("x"), b.new("h")
    b.ep("_to_p_dir", m.span("prep") if m.group("prep") else verb, top, ARG0=b.new("e"), ARG1="e2", ARG2=x_np)
    if m.group("high"):
        b.ep("_high_a_1", m.span("high"), l_np, ARG0=b.new("e"), ARG1=x_np)
    b.ep(f"_{m.group('noun').casefold()}_n_1", m.span("noun"), l_np, ARG0=x_np)
    b.quantified("udef_q", m.span("np"), x_np, l_np)
    return [b.text("e2", top)]


def _time_answer(b: _Builder, q: str, m: re.Match) -> str:
    """``time_n`` (the answer) and its ``loc_nonsp`` on the main event ``e2``; returns the
    top label."""
    return _loc_answer(b, "time_n", m.span("when"))


def _when_event_readings(q: str) -> list[str]:
    m = _WHEN_RECIPROCAL.match(q)
    if m:
        word = m.group("verb").casefold()
        names = [_clean_span(q, *m.span(g)) for g in ("a", "b")]
        if word in _AUXILIARIES or word in ("be", "get", "become", "have") or \
                any(not _name_ok(q[a:z]) for a, z in names):
            return []
        b = _Builder()
        top = _time_answer(b, q, m)
        x_and, l_and = b.new("x"), b.new("h")
        xa, xb = (_name(b, q, span) for span in names)
        b.ep("_and_c", (names[0][1], names[1][0]), l_and, ARG0=x_and, ARG1=xa, ARG2=xb)
        b.quantified("udef_q", (names[0][0], names[1][1]), x_and, l_and)
        b.ep(f"_{word}/vb_u_unknown", m.span("verb"), top, ARG0="e2", ARG1=x_and, ARG2=b.new("i"))
        return [b.text("e2", top)]
    m = _WHEN_EVENT.match(q)
    if not m:
        return []
    passive, prep = m.group("part") is not None, m.group("prep")
    subject = _clean_span(q, *m.span("pname" if passive else "name"))
    other = _clean_span(q, *m.span("name2"))
    verb = m.span("part" if passive else "verb")
    word = q[verb[0]:verb[1]].casefold()
    passive = passive or m.group("get") is not None
    if (word in _AUXILIARIES or word in _LIGHT_VERBS or (passive and not prep)
            or not _name_ok(q[subject[0]:subject[1]]) or not _title_ok(q[other[0]:other[1]])):
        return []
    b = _Builder()
    top = _time_answer(b, q, m)
    x_subject, x_other = _name(b, q, subject), _name(b, q, other)
    _verb_eps(b, word, verb, top, "e2", x_subject, x_other, passive,
              (prep, m.span("prep")) if prep else None)
    return [b.text("e2", top)]


#: a possessive inside a noun phrase ("space agency's official language")
_POSSESSIVE_IN = re.compile(r"\w['’]s?(?:\s|$)")

# "What gender is michel gauthier?", "What genre is srđan branković classified as", "what
# country is kristen kish from", "what team is ronaldinho on?": the NP of the name, read as
# "What is the NP of NAME?"
_WHAT_NP_IS_NAME = re.compile(
    r"^\s*(?P<wh>what|which)\s+(?P<np>(?-i:[a-z])[^?,]*?)\s+(?:is|was|are|were)\s+(?P<name>[^?,]+?)"
    r"(?:\s+(?:classified\s+as|considered|from|on))?" + _END, re.I)


def _what_np_is_name_readings(q: str) -> list[str]:
    m = _WHAT_NP_IS_NAME.match(q)
    if not m:
        return []
    spans = _checked_np_name(q, m.span("np"), m.span("name"))
    if spans is None or not _plain_np(q[spans[0][0]:spans[0][1]]) \
            or _POSSESSIVE_IN.search(q[spans[0][0]:spans[0][1]]):
        # "What space agency's official language is Hebrew?": a possessor and its noun, of
        # which the name is the value, not the NP of the name
        return []
    np, name = spans
    text = q[name[0]:name[1]]
    if re.match(r"(?:a|an|the|it|this|that|there)\b", text, re.I) or \
            re.search(r"\s(?:" + _PARTICIPLE + r"|born|of|in|for|to|by|with|at|on)$", text) or \
            re.search(r"\s(?:the|a|an)\s", text):
        # "What river is the longest", "What film is directed by X", "Which country is Paris
        # the capital of": other shapes
        return []
    return [_np_of_name_mrs(q, m.group("wh"), m.span("wh"), np, name)]


def _np_of_name_mrs(q: str, wh: str, wh_span: tuple[int, int], np: tuple[int, int],
                    name: tuple[int, int]) -> str:
    """The MRS of "What is the NP of NAME?" for the spans of a question written otherwise."""
    b = _Builder()
    x_wh = _wh(b, wh, wh_span)
    x, l_np = _noun_phrase(b, q, np, "_the_q")
    b.ep("_of_p", (np[1], name[0]), l_np, ARG0=b.new("e"), ARG1=x, ARG2=_name(b, q, name))
    return b.main("_be_v_id", (wh_span[1], np[0]), x_wh, x)


# "what college did peyton manning?", "what instrument does justin bieber?", "what language
# does fiji?": the verb left out after the name, read as "What is the NP of NAME?".  Only for
# nouns whose usual verb says nothing the noun does not ("attend" a college, "play" for a
# team, "speak" a language, "have" a disease); a name that ends in a verb is another shape
_WHAT_NP_DID_NAME = re.compile(
    r"^\s*(?P<wh>what|which)\s+(?P<np>(?:high\s+)?(?:colleges?|schools?|universit(?:y|ies)|teams?|positions?"
    r"|instruments?|languages?|diseases?|illness(?:es)?|sports?))\s+(?:did|does|do)\s+(?P<name>[^?,]+?)" + _END, re.I)
#: verbs that may end such a question after the name ("what college did X attend?")
_LEFT_VERBS = frozenset({
    "attend", "attended", "go", "went", "play", "played", "speak", "spoke", "have", "had", "get", "got",
    "use", "do", "did", "coach", "own", "join", "leave", "represent", "teach", "study", "graduate",
    "start", "found", "visit", "choose", "pick", "want", "like", "love", "support", "manage", "lead",
    "sign", "draft", "enter", "finish", "run", "die", "suffer", "contract", "catch", "cure", "treat",
    "learn", "know", "master", "invent", "create", "write", "make", "hold", "take", "win", "lose", "beat",
    "face", "fight", "favor", "favour", "prefer", "practice", "practise", "compete", "belong", "share",
    "border", "touch", "include", "need", "bring", "accept", "call", "talk", "say", "work", "live"})
#: words that are no part of a name there (people, pronouns, prepositions)
_NOT_IN_NAME = frozenset({"they", "you", "i", "we", "he", "she", "it", "people", "most", "for", "in", "on",
                          "at", "to", "from", "with", "by", "of", "about", "as", "now", "first", "last"})


def _what_np_did_name_readings(q: str) -> list[str]:
    m = _WHAT_NP_DID_NAME.match(q)
    if not m:
        return []
    name = _clean_span(q, *m.span("name"))
    text = q[name[0]:name[1]]
    words = text.casefold().split()
    if (not _plain_name_ok(text) or _has_article(text) or len(words) > 4
            or any(w in _LEFT_VERBS or w in _NOT_IN_NAME or not w.isalpha() for w in words)):
        return []
    return [_np_of_name_mrs(q, m.group("wh"), m.span("wh"), m.span("np"), name)]


# "Who directed Kishen Kanhaiya?", "who published split second: velocity": the doer of a
# verb in the past whose object is a name (a leading "the" is left out of the name)
_WHO_VERBED = re.compile(
    r"^\s*(?P<wh>who)\s+(?P<verb>" + _NOT_A_VERB + r"(?-i:[a-z]{3,}))\s+(?:the\s+)?(?P<name>[^?,]+?)"
    + _END, re.I)
#: Verbs in the present whose subject "who" asks for a state, not a role ("who owns X?").
_STATE_VERBS = frozenset({"owns", "runs", "leads", "controls", "operates", "manages", "coaches", "employs",
                          "governs", "rules", "publishes", "sponsors"})
#: Words after "who" that are no verb in the past with an object.
_NOT_VERBED = frozenset({"is", "was", "are", "were", "has", "had", "have", "does", "did", "can", "could",
                         "will", "would", "should", "may", "might", "must", "else", "all", "among"})


def _who_verbed_readings(q: str) -> list[str]:
    m = _WHO_VERBED.match(q)
    if not m:
        return []
    word = m.group("verb").casefold()
    name = _clean_span(q, *m.span("name"))
    if (word in _NOT_VERBED or word in _AUXILIARIES or (word.endswith("s") and word not in _STATE_VERBS)
            or not _name_ok(q[name[0]:name[1]])):
        return []  # "Who plays ...": a present tense asks about a role, not a deed
    tag = "vbz" if word in _STATE_VERBS else "vbd"
    b = _Builder()
    x_who = _wh(b, m.group("wh"), m.span("wh"))
    x = _name(b, q, name)
    return [b.main(f"_{word}/{tag}_u_unknown", m.span("verb"), x_who, x)]


# "Where did Boethius die?", "where was andy todd born?", "When did Vladimir Lenin die?", "where
# does the atlanta braves play?": the place (``place_n``) or the time (``time_n``) of a
# one-place event of a name ("the" before it is not part of it), active or passive
_WH_EVENT_ALONE = re.compile(
    # "where the latin language come from?": the auxiliary left out before "come from" only
    r"^\s*(?P<wh>where|when|(?:(?:in|on|during)\s+)?(?:which|what)\s+(?:year|date|day|month))\s+"
    r"(?:(?:(?P<aux>did|does|do)\s+|(?=[^?,]+\scome\s+from\W*$))(?:the\s+)?(?P<name>[^?,]+?)\s+"
    # "what year did michael jordan get drafted?": "get" before a participle, a passive
    r"(?:(?P<get>get|gets|got)\s+(?=" + _PARTICIPLE + r"\W*$))?(?P<verb>" + _NOT_A_VERB
    + r"(?-i:[a-z]+))|(?:was|were|is|are)\s+(?:the\s+)?(?P<pname>[^?,]+?)\s+(?:(?P<part>" + _NOT_A_VERB
    + r"(?-i:" + _PARTICIPLE + r"|born))"
    # "Where was Voyager 1 travelling?": a progressive, the verb's own place or time
    + r"|(?P<prog>(?-i:[a-z]{2,}ing))))" + _END, re.I)


def _wh_event_alone_readings(q: str) -> list[str]:
    m = _WH_EVENT_ALONE.match(q)
    if not m:
        return []
    passive = m.group("part") is not None
    progressive = m.group("prog") is not None
    name = _clean_span(q, *m.span("pname" if passive or progressive else "name"))
    verb = m.span("part" if passive else "prog" if progressive else "verb")
    word = q[verb[0]:verb[1]].casefold()
    if progressive and word in _NOT_VERBING:
        return []
    particle = None
    if not passive and word in _PARTICLES and " " in q[name[0]:name[1]]:
        # a phrasal verb ("where did rihanna grow up?", "where did X come from?"): the verb is
        # the name's last word; "from" says where the place is, as the grammar reads it
        cut = q.rindex(" ", name[0], name[1])
        particle, verb, name = word, (cut + 1, name[1]), _clean_span(q, name[0], cut)
        word = q[verb[0]:verb[1]].casefold()
    passive = passive or m.group("get") is not None
    text = q[name[0]:name[1]]
    if (word in _AUXILIARIES or word in _LIGHT_VERBS or word in ("located", "situated")
            or not _name_ok(text) or _has_article(text)):
        return []
    if not passive and not m.group("aux") and re.search(r"\slanguage$", text, re.I):
        return []  # "where the latin language come from?": a noun phrase, which a name would hide
    # after "the", a name of two words or more or a capitalised one ("where does the atlanta
    # braves play?"), not a common noun ("Where did the war end?")
    if q[:name[0]].casefold().rstrip().endswith(" the") and len(text.split()) < 2 and not text[:1].isupper():
        return []
    b = _Builder()
    if particle == "from" and m.group("wh").casefold() == "where":
        top = _loc_answer(b, "place_n", m.span("wh"), rel="_from_p_dir", rel_span=m.span("verb"))
    else:
        top = _loc_answer(b, "place_n" if m.group("wh").casefold() == "where" else "time_n", m.span("wh"))
    x = _name(b, q, name)
    if passive:
        b.ep(f"_{word}/vbn_u_unknown", verb, top, ARG0="e2", ARG1=b.new("i"), ARG2=x)
    else:
        b.ep(f"_{word}/{'vbg' if progressive else 'vb'}_u_unknown", verb, top, ARG0="e2", ARG1=x)
    return [b.text("e2", top)]


# "Where and what did Niels Bohr study?", "Where and when did John Kenneth Galbraith study?":
# two answers of one verb, its place (``loc_nonsp`` + ``place_n``) and its object or its time
_WHERE_AND = re.compile(
    r"^\s*(?P<where>where)\s+and\s+(?:(?P<what>what)|(?P<when>when|what\s+time))\s+(?:did|does|do)\s+"
    r"(?P<name>[^?,]+?)\s+(?P<verb>" + _NOT_A_VERB + r"(?-i:[a-z]+))" + _END, re.I)


def _where_and_readings(q: str) -> list[str]:
    m = _WHERE_AND.match(q)
    if not m:
        return []
    word = m.group("verb").casefold()
    name = _clean_span(q, *m.span("name"))
    if word in _AUXILIARIES or word in _LIGHT_VERBS or not _name_ok(q[name[0]:name[1]]):
        return []
    b = _Builder()
    top = _loc_answer(b, "place_n", m.span("where"))
    if m.group("when"):
        _loc_answer(b, "time_n", m.span("when"), top)
        x_object = b.new("i")
    else:
        x_object = _wh(b, "what", m.span("what"))
    b.ep(f"_{word}/vb_u_unknown", m.span("verb"), top, ARG0="e2", ARG1=_name(b, q, name), ARG2=x_object)
    return [b.text("e2", top)]


# "When did Portsmouth have a population of 248440?", "When did Bhutan have an inflation rate
# of 14.7?": the time of NAME having an NP whose value is the number (the ``number_of_noun``
# template reads "an NP of NUMBER"; the query's value test is checked against the question's
# words, as for every value)
_WHEN_HAVE_VALUE = re.compile(
    r"^\s*" + _WHEN_WORDS + r"\s+(?:did|does|do)\s+(?P<name>[^?,]+?)\s+(?P<have>have|has)\s+"
    r"(?P<det>a|an|the)\s+(?P<np>[^?,]+?)\s+(?P<of>of)\s+"
    r"(?P<value>" + _NUMBER_TEXT + r")" + _END, re.I)


def _when_have_value_readings(q: str) -> list[str]:
    m = _WHEN_HAVE_VALUE.match(q)
    if not m:
        return []
    name, np = _clean_span(q, *m.span("name")), m.span("np")
    if not _name_ok(q[name[0]:name[1]]) or not _np_ok(q[np[0]:np[1]]):
        return []
    b = _Builder()
    top = _time_answer(b, q, m)
    x_name = _name(b, q, name)
    x_np, l_np = _noun_phrase(b, q, np, _quantifier(m.group("det")))
    x_val, l_val = b.new("x"), b.new("h")
    b.ep("card", m.span("value"), l_val, ARG0=b.new("e"), ARG1=x_val, CARG=_carg(m.group("value")))
    b.quantified("udef_q", m.span("value"), x_val, l_val)
    b.ep("_of_p", m.span("of"), l_np, ARG0=b.new("e"), ARG1=x_np, ARG2=x_val)
    b.ep("_have_v_1", m.span("have"), top, ARG0="e2", ARG1=x_name, ARG2=x_np)
    return [b.text("e2", top)]


# A time written at the end or the start of a question ("What was the title of the Financial
# Times in the year 1888?", "Which team did Brian Lara join at 1987-0-0?", "In 1983, what
# award did E.T. win?") modifies the main event; the rest of the question is read by the
# shapes above.  The date is a year (``yofc``) under a temporal preposition, as the ERG
# writes "in 1888"; which time qualifier it supports is the deductive check's business.
_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
          r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?")
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_YEAR = r"(?:1\d{3}|20\d{2})"
_DATE = (r"(?:" + _YEAR + r"-\d{1,2}-\d{1,2}|" + _DAY + r"[/-]" + _DAY + r"[/-]" + _YEAR + r"|"
         r"(?:(?:the\s+)?" + _DAY + r"\s+(?:of\s+)?)?(?:" + _MONTH + r"\s+(?:" + _DAY + r",?\s+)?(?:of\s+)?)?"
         + _YEAR + r")")
_TIME_PREP = r"(?P<prep>in|on|at|during|since|until|till)\s+(?:the\s+year\s+(?:of\s+)?)?"
_TIME_TAIL = re.compile(r"(?:\s*,)?\s+(?:(?:beginning|starting|ending)\s+)?" + _TIME_PREP + r"(?P<date>" + _DATE + r")(?=" + _END + ")", re.I)
_TIME_HEAD = re.compile(r"^\s*" + _TIME_PREP + r"(?P<date>" + _DATE + r")\s*,\s*", re.I)
#: a bare year at the end of a wh-question, read as "in YEAR" ("who does jr smith play for 2012?",
#: "who is the governor of oregon 2012?"); not after a word that compares or counts
_TIME_BARE = re.compile(r"^\s*(?:who|what|which|where)\b.*\s(?P<before>\S+)\s+(?P<date>(?:19|20)\d{2})"
                        r"(?=" + _END + ")", re.I)
#: words before a bare year that make it no time of the event ("until 1973", "equal to 2012")
_NOT_BEFORE_BARE_YEAR = frozenset({"until", "till", "before", "after", "since", "from", "by", "in", "on",
                                   "at", "during", "of", "to", "than", "is", "was", "are", "were", "equals",
                                   "equal", "and", "or", "=", "<", ">", "about", "around", "over", "under"})
_MAIN_LABEL = re.compile(r"\[ \S+<\d+:\d+> LBL: (h\d+) ARG0: e2 ")


def _on_main_event(reading: str, eps: str, hcons: str) -> str:
    """``reading`` with the EPs ``eps`` and the HCONS ``hcons`` added; in ``eps``, ``hMAIN``
    stands for the label of the main event ``e2`` (the reading unchanged when it has none)."""
    m = _MAIN_LABEL.search(reading)
    head, sep, tail = reading.rpartition(" > HCONS: < ")
    if m is None or not sep or not tail.endswith(" > ]"):
        return reading
    return f"{head} {eps.replace('LBL: hMAIN ', f'LBL: {m.group(1)} ')}{sep}{tail[:-3]} {hcons} > ]"


def _modifier_on_main_event(reading: str, pred: str, span: tuple[int, int],
                            arg: tuple[str, tuple[int, int], str], quant: str, n: int) -> str:
    """``reading`` with the modifier ``pred(e, e2, x)`` on its main event, ``x`` the argument
    ``arg`` (predicate, span, quoted CARG) under ``quant``; the new variables and handles are
    numbered from ``n`` (apart from the reading's own)."""
    (a, z), (arg_pred, (c, d), carg) = span, arg
    return _on_main_event(reading, f"[ {pred}<{a}:{z}> LBL: hMAIN ARG0: e{n} ARG1: e2 ARG2: x{n + 1} ] "
                                   f"[ {arg_pred}<{c}:{d}> LBL: h{n + 2} ARG0: x{n + 1} CARG: {carg} ] "
                                   f"[ {quant}<{c}:{d}> LBL: h{n + 3} ARG0: x{n + 1} RSTR: h{n + 4} BODY: h{n + 5} ]",
                          f"h{n + 4} qeq h{n + 2}")


def _with_time(reading: str, prep: str, span: tuple[int, int], year: str) -> str:
    """``reading`` with "PREP YEAR" modifying its main event ``e2``."""
    # "until 1975", "since 1928": a bound of the event's time, as the ERG writes it (the
    # deductive check reads it as a comparison that a time qualifier's year expresses)
    pred = {"during": "_during_p", "since": "_since_p", "until": "_until_p", "till": "_until_p"}.get(
        prep, f"_{prep}_p_temp")
    return _modifier_on_main_event(reading, pred, span, ("yofc", span, _carg(year)), "def_implicit_q", 900)


def _time_readings(q: str, shapes) -> list[str]:
    """Readings of ``q`` without its time phrase (blanked, so spans keep their offsets),
    each with the time added."""
    m = _TIME_TAIL.search(q) or _TIME_HEAD.match(q)
    if m:  # the blanked words from the match's start, the time phrase from the preposition
        prep, a, start = m.group("prep").casefold(), m.start(), m.start("prep")
    elif (m := _TIME_BARE.match(q)) is not None and m.group("before").casefold() not in _NOT_BEFORE_BARE_YEAR:
        prep, a, start = "in", m.start("date"), m.start("date")
    else:
        return []
    year = re.search(_YEAR, m.group("date")).group(0)
    blanked = _blanked(q, (a, m.end()))
    return [_with_time(r, prep, (start, m.end("date")), year) for f in shapes for r in f(blanked)]


# A companion of the main event ("What award was received by Igor Tamm together with Pavel
# Cherenkov?", "What award did Kanye West and Fergie win together?"): the rest of the question
# is read by the shapes above, and the companion is ``_together+with_p`` on its main event, as
# the ERG reads "together with"; which qualifier (*together with*) it names is the deductive
# check's business.
_TOGETHER_TAIL = re.compile(r"\s+(?P<prep>together\s+with)\s+(?P<name>(?-i:[A-Z])[^?,]*?)(?=" + _END + ")", re.I)
_TOGETHER_PAIR = re.compile(
    r"^\s*(?:what|which)\b[^?,]*?\s(?:did|do|does)\s+[^?,]+?(?P<and>\s+and\s+)(?P<name>(?-i:[A-Z])[^?,]*?)\s+"
    r"(?-i:[a-z]+)(?P<prep>\s+together)(?=" + _END + ")", re.I)


def _with_companion(reading: str, prep: tuple[int, int], name: tuple[int, int], carg: str) -> str:
    """``reading`` with "together with NAME" modifying its main event ``e2``."""
    return _modifier_on_main_event(reading, "_together+with_p", prep, ("named", name, carg), "proper_q", 910)


def _together_readings(q: str, shapes) -> list[str]:
    """Readings of ``q`` without its companion phrase (blanked, so spans keep their offsets),
    each with the companion added to the main event."""
    m = _TOGETHER_TAIL.search(q)
    if m:
        blanks = [(m.start(), m.end())]
    elif (m := _TOGETHER_PAIR.match(q)) is not None:
        blanks = [(m.start("and"), m.end("name")), m.span("prep")]
    else:
        return []
    name = _clean_span(q, *m.span("name"))
    if not _name_ok(q[name[0]:name[1]]):
        return []
    blanked = _blanked(q, *blanks)
    prep = _clean_span(q, *m.span("prep"))
    return [_with_companion(r, prep, name, _carg(q[name[0]:name[1]])) for f in shapes for r in f(blanked)]


# A name after "in", "at", "during", "for" or "on" at the end of a question ("What is the
# position of Goh Chok Tong in the 13th Parliament of Singapore?", "What award did Elia Kazan
# receive at the 27th Academy Awards?", "When did R. T. Rybak stop being the head of government
# for Minneapolis?") modifies the main event, as a time at the end does: the rest of the
# question is read by the shapes above, and the name is the preposition's on its main event;
# which qualifier it names (a ceremony, a parliamentary term) is the deductive check's business.
_NAME_TAIL = re.compile(r"\s+(?P<prep>in|at|during|for|on)\s+(?:the\s+)?(?P<name>(?-i:[A-Z0-9])[^?,]*?)(?=" + _END + ")",
                        re.I)


#: Eras after a year ("524 BC"), which are no names.
_ERAS = frozenset({"BC", "AD", "BCE", "CE"})


def _name_tail_readings(q: str, shapes) -> list[str]:
    """Readings of ``q`` without its final "in|at|during|for|on NAME" (blanked, so spans keep
    their offsets), each with the phrase added to the main event; every word of the name is
    capitalised, a number or a function word."""
    m = _NAME_TAIL.search(q)
    if m is None:
        return []
    name = _clean_span(q, *m.span("name"))
    text = q[name[0]:name[1]]
    if (q.upper() == q or not _name_ok(text) or not _capitalised(text)
            or not any(w[:1].isupper() and w[1:].islower() and w not in _ERAS for w in text.split())):
        return []  # a name has a capitalised word ("524 BC", "656-1-1" are times); capitals say
        # nothing in a question written in capitals
    prep = m.group("prep").casefold()
    blanked = _blanked(q, (m.start(), m.end()))
    if not any(w[:1].isupper() for w in blanked.split()[1:]):
        return []  # "Which city has the highest population in Europe?", "the location of the
        # landing in the Caribbean Sea": with no name before it, the phrase restricts a noun
    return [_modifier_on_main_event(r, f"_{prep}_p", (m.start("prep"), name[1]), ("named", name, _carg(text)),
                                    "proper_q", 920)
            for f in shapes for r in f(blanked)]


# A clause that says when the main event held, with a pronoun for its subject ("Where did
# Sylvia Plath go to school when she was a literature major?", "Who was Herbert von Karajan
# employed by when he was replaced by Paul van Kempen?", "What position did Arthur Balfour hold
# when he replaced Edward Grey?"): the rest of the question is read by the shapes above, and
# the clause is ``_when_x_subord`` on its main event, as the ERG reads it; which qualifier
# its words name (*academic major*, *replaced by*, *replaces*) is the deductive check's
# business.  The clause is a copula with a noun phrase, a passive with its doer, or a verb in
# the past with a name for its object.
_WHEN_CLAUSE = re.compile(
    r"\s+(?P<when>when)\s+(?P<pron>he|she|they|it)\s+(?:"
    r"(?:was|were)\s+(?P<det>a|an|the)\s+(?P<np>(?-i:[a-z])[\w\s-]*?)"
    r"|(?:was|were)\s+(?P<part>(?-i:[a-z]+(?:ed|en|wn)))\s+(?P<by>by)\s+(?P<doer>(?-i:[A-Z])[^?]*?)"
    r"|(?P<verb>(?-i:[a-z]+ed))\s+(?P<obj>(?-i:[A-Z])[^?]*?))(?=" + _END + ")", re.I)


def _when_clause_eps(q: str, m: re.Match) -> tuple[list[str], list[str], str] | None:
    """The EPs (and HCONS) of a :data:`_WHEN_CLAUSE` match, and the clause's event."""
    b = _Builder()
    b.n = 900  # apart from the variables of the reading it is added to
    x_pron, l_pron = b.new("x"), b.new("h")
    b.ep("pron", m.span("pron"), l_pron, ARG0=x_pron)
    b.quantified("pronoun_q", m.span("pron"), x_pron, l_pron)
    e = b.new("e")
    top = "hMAIN"  # the main event's label, filled in by _on_main_event
    if m.group("np"):
        np = _clean_span(q, *m.span("np"))
        if not _plain_np(q[np[0]:np[1]]):
            return None
        head = _noun_phrase(b, q, np, _quantifier(m.group("det")))
        if head is None:
            return None
        b.ep("_be_v_id", (m.start("pron"), np[1]), top, ARG0=e, ARG1=x_pron, ARG2=head[0])
    else:
        name = _clean_span(q, *m.span("doer" if m.group("part") else "obj"))
        if not _name_ok(q[name[0]:name[1]]):
            return None
        x_name = _name(b, q, name)
        if m.group("part"):  # "he was replaced by NAME": NAME is the doer
            b.ep(f"_{m.group('part').casefold()}/vbn_u_unknown", m.span("part"), top, ARG0=e, ARG1=x_name,
                 ARG2=x_pron)
        else:
            b.ep(f"_{m.group('verb').casefold()}/vbd_u_unknown", m.span("verb"), top, ARG0=e, ARG1=x_pron,
                 ARG2=x_name)
    return b.rels, b.hcons, e


def _with_when_clause(reading: str, when: tuple[int, int], clause: tuple[list[str], list[str], str]) -> str:
    """``reading`` with the clause ``_when_x_subord`` on its main event ``e2``."""
    rels, hcons, e = clause  # the clause's event shares the main event's label (hMAIN)
    return _on_main_event(reading, f"[ _when_x_subord<{when[0]}:{when[1]}> LBL: hMAIN ARG0: e990 ARG1: e2 ARG2: {e} ] "
                          + " ".join(rels), " ".join(hcons))


def _when_readings(q: str, shapes) -> list[str]:
    """Readings of ``q`` without its when-clause (blanked, so spans keep their offsets), each
    with the clause added to the main event."""
    m = _WHEN_CLAUSE.search(q)
    if not m:
        return []
    clause = _when_clause_eps(q, m)
    if clause is None:
        return []
    return [_with_when_clause(r, m.span("when"), clause) for f in shapes for r in f(_blanked(q, m.span()))]


def _name_test_tails(q: str):
    """The matches of :data:`_NAME_TEST_TAIL` in ``q``, leftmost first, each starting after
    the last one's start: in "... that has as NP NAME and starts with the letter r" the
    first ("that has ...") spans the whole relative clause, the next the name test alone."""
    pos = 0
    while (m := _NAME_TEST_TAIL.search(q, pos)) is not None:
        yield m
        pos = m.start() + 1


def _without_name_test(q: str, shapes) -> list[str]:
    """Readings of ``q`` without a name test at its end, or between the relative pronoun and
    a clause that says more (blanked, so spans keep their offsets).  The deductive check reads
    the name test from the question's words, as for every question, so the readings need not
    carry it."""
    for m in _name_test_tails(q):
        rest = re.sub(r"^(?:its|their)\s+", "", m.group("rest").strip(), flags=re.I)
        if _NAME_TEST_REST.match(rest) or _WORD_IN_NAME.match(rest):
            return [r for f in shapes for r in f(_blanked(q, (m.start(), len(q))))]
    m = _NAME_TEST_MIDDLE.search(q)
    if not m:
        return []
    a, b = m.span("test")
    return [r for f in shapes for r in f(_blanked(q, (a, b)))]


_SHAPES = (_possessive_readings, _copula_readings, _have_readings, _name_test_readings,
           _superlative_readings, _two_hop_readings, _relative_readings, _relative_be_readings,
           _wh_passive_readings, _wh_passive_stranded_readings, _how_many_readings,
           _yes_no_coordinated_readings, _is_it_true_readings, _yes_no_copula_readings,
           _underscored_copula_readings, _ask_value_readings, _there_are_n_readings,
           _wh_object_readings, _wh_object_prep_readings, _when_become_readings, _when_event_readings, _where_and_readings,
           _when_have_value_readings, _wh_event_alone_readings, _who_verbed_readings,
           _what_np_is_name_readings, _what_np_did_name_readings, _there_called_readings, _of_all_readings,
           _where_is_name_readings, _who_played_in_readings, _who_married_readings,
           _what_place_is_in_readings, _what_films_has_readings, _what_films_been_in_readings,
           _what_people_speak_readings, _what_countries_speak_readings,
           _time_zone_in_readings, _call_money_readings, _what_time_in_readings, _places_to_see_readings,
           _who_plays_for_readings, _what_die_of_readings, _who_did_marry_readings,
           _who_did_play_in_readings, _where_go_to_school_readings, _what_did_verbed_readings,
           _in_which_readings, _known_for_readings, _who_did_verb_readings)


#: "What is the name of the chemical compound that treats chickenpox?": the name of a
#: description, which the query answers with the thing described.
NAME_OF_DESCRIPTION = re.compile(
    r"^\s*(?:(?:what|which)(?:'s|’s|\s+is|\s+was|\s+are|\s+were)|give(?:\s+me)?|tell\s+me)\s+"
    r"(?P<name>the\s+names?\s+of\s+)(?=(?:the|a|an)\s+(?-i:[a-z])|[^?]+?(?:'s|’s)\s+(?-i:[a-z])[\w-]*\s*\??\s*$)", re.I)


#: "Where is the headquarters of the NRA [located]?": a place noun's value, read as "What is
#: the headquarters of the NRA?" (the noun names the place asked for).
WHERE_IS_PLACE = re.compile(
    r"^\s*(?P<where>where)\s+(?:is|was)\s+(?:the\s+)?(?P<np>(?:[a-z]+\s+)?"
    r"(?:location|place|birthplace|headquarters|residence|workplace|grave|seat|site|venue|"
    r"hometown|campus))\s+of\s+[^?]+?"
    r"(?P<located>\s+located)?" + _END, re.I)


#: "Where is Burundi located on a map?": the map says nothing more than where it is; the words
#: are blanked and the rest read.
ON_A_MAP = re.compile(r"(?<=\S)\s+on\s+(?:a\s+|the\s+)?map(?=\s*[?.!]*\s*$)", re.I)


def _shape_readings(q: str) -> list[str]:
    out: list[str] = []
    for f in _SHAPES:
        out.extend(f(q))
    if not out:
        out = _without_name_test(q, _SHAPES)
    if not out:
        out = _time_readings(q, _SHAPES)
    if not out:
        out = _together_readings(q, _SHAPES)
    if not out:
        out = _when_readings(q, _SHAPES)
    if not out:
        out = _name_tail_readings(q, _SHAPES)
    return out


def pattern_readings(question: str) -> list[str]:
    """SimpleMRS readings of ``question`` for the shapes this module knows (``[]`` for any
    other question).  Character spans refer to ``question`` itself.  "What is the name of
    the NP ...?" is read first as "What is the NP ...?" (the words "the name of" blanked, so
    that spans keep their offsets), then as written."""
    if not isinstance(question, str) or not question.strip() or len(question) > 300:
        return []
    out: list[str] = []
    m = NAME_OF_DESCRIPTION.match(question)
    if m:
        out = _shape_readings(_blanked(question, m.span("name")))
    m = ON_A_MAP.search(question)
    if m:  # "where is burundi located on a map?": where it is
        out = _shape_readings(_blanked(question, m.span()))
    m = WHERE_IS_PLACE.match(question)
    if m:
        a, b = m.span("where")
        q2 = question[:a] + "What " + question[b:]
        if m.group("located"):
            q2 = _blanked(q2, m.span("located"))
        out = _shape_readings(q2)
    return (out + _shape_readings(question))[:MAX_SPLITS]
