"""Names written in a question's text: word tokens with their offsets, and the ways a name
may be written (exactly, by stems, with a near spelling, as an acronym, without its middle
names, by a distinctive part, as "H of M", a character's first name ...).  Each matcher
returns ``(similarity, start offset, end offset)`` or None."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Sequence

from verifier.grounding.units import Unit
from verifier.grounding.words import (
    DEFINITE_ARTICLE, DETERMINERS, INVERSION_PREPOSITIONS, NUMBER_OF_WORDS, ROMAN,
)
from verifier.lexical import LabelIndex, STOPWORDS, content_keys, fold, initials, stem, without_possessive, words_of

__all__ = ["Token", "DIGITS", "ACRONYM", "PROMINENT_TAIL", "tokens", "question_tokens", "numeral",
           "best_known", "around_another_name", "character_part", "find_words", "capitalised_words",
           "acronym_match", "tightest_occurrence", "of_inversion", "label_written",
           "tokens_without_articles", "distinctive_part", "middle_name_match"]

#: A word token: the folded word without a possessive "'s", its start and end offsets.
Token = tuple[str, int, int]

_TOKEN_RE = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)


def tokens(text: str) -> list[Token]:
    """Lower-cased word tokens of a text without accents and without a possessive "'s" (as
    :func:`words_of`) with their character offsets in the text."""
    out = []
    for m in _TOKEN_RE.finditer(text):
        folded = fold(m.group(0))
        w = without_possessive(folded)
        out.append((w, m.start(), m.end() - (len(folded) - len(w))))
    return out


@lru_cache(maxsize=4096)
def question_tokens(question: str) -> tuple[Token, ...]:
    """:func:`tokens` of a question, computed once: the names of every symbol of every
    reading are looked up in them."""
    return tuple(tokens(question))


DIGITS = re.compile(r"\d+")


def numeral(word: str) -> str:
    """A Roman numeral as its number ("ii" -> "2"); any other word as it is."""
    return ROMAN.get(word, word)


#: Similarity of a link by a surname or nickname that other items' names end with too, made to
#: the best known of them (:meth:`verifier.grounding.spans.SpanLinker.sole_bearer_tail`).
PROMINENT_TAIL = 0.75


def best_known(sid: str, bearers: set[str]) -> bool:
    """Whether ``sid`` has the smallest numeric Wikidata id of ``bearers`` (which it is one
    of): older items are, as a rule, the better known ones (*Abraham Lincoln* is Q91, the city
    of Lincoln Q28260), the prior PGMR uses for label collisions too."""
    def num(s: str) -> int:
        return int(s[1:]) if s[:1] in "QP" and s[1:].isdigit() else 1 << 62
    return sid in bearers and num(sid) < (1 << 62) and all(num(sid) < num(b) for b in bearers if b != sid)


def around_another_name(labels: LabelIndex, sid: str, toks: Sequence[Token], i: int, k: int,
                         question: str) -> bool:
    """Whether the tokens ``i..k`` together with up to two tokens before or after them are
    written as the label of another item than ``sid`` (a part of a longer name: "ingalls" in
    "laura ingalls wilder" is not *Dan Ingalls*, "richard" in "richard pryor" not *Richard
    Wagner*)."""
    return any(e.symbol != sid for a in range(max(0, i - 2), i + 1) for b in range(k, min(len(toks), k + 3))
               if (a, b) != (i, k) for e in labels.labels_written_as(question[toks[a][1]:toks[b][2]]))


def character_part(toks: Sequence[Token], words: list[str], name: str
                    ) -> tuple[float, int, int] | None:
    """A character's first or last name written alone ("meg" for *Meg Griffin*, "giles" for
    *Rupert Giles*), as questions about a work name its characters.  Only for the value of a
    *character role* qualifier (the query says which work and which role, so a first name
    does not have to tell the character from every other bearer of it); the label is a
    capitalised name of two or three words without a comma, and the word is alphabetic, of
    three letters or more, and written as a word of the question.  Similarity 0.8."""
    if not name[:1].isupper() or "," in name or not 2 <= len(words) <= 3:
        return None
    for part in (words[:1], words[-1:]):
        w = part[0]
        if len(w) < 3 or not w.isalpha() or not content_keys(w):
            continue
        for t in toks:
            if t[0] == w:
                return (0.8, t[1], t[2])
    return None


def find_words(toks: Sequence[Token], words: Sequence[str]) -> tuple[float, int, int] | None:
    """Where ``words`` occur in order in ``toks`` (exactly, by stem, or, for names of five
    letters or more, with a near spelling that writes the same numbers): (similarity, start
    offset, end offset).  Remembered for the last 16,384 arguments: every reading of a
    question, and every alignment, looks up the same names in the same words."""
    return _find_words(tuple(toks), tuple(words))


@lru_cache(maxsize=16384)
def _find_words(toks: tuple[Token, ...], words: tuple[str, ...]) -> tuple[float, int, int] | None:
    import difflib

    words = list(words)
    n = len(words)
    if n == 0 or n > len(toks):
        return None
    target = " ".join(words)
    stems = [stem(w) for w in words]
    # "Grade 1 listed building" writes the label "Grade I listed building"
    numerals = [numeral(w) for w in words] if any(w in ROMAN for w in words) else None
    digits = DIGITS.findall(target)
    best = None
    for i in range(len(toks) - n + 1):
        window = toks[i:i + n]
        ws = [t[0] for t in window]
        if ws == words or [stem(w) for w in ws] == stems or (
                numerals and [numeral(w) for w in ws] == numerals):
            return (1.0, window[0][1], window[-1][2])
        if len(target) >= 5:
            for m in (n - 1, n, n + 1):
                if m < 1 or i + m > len(toks):
                    continue
                w2 = toks[i:i + m]
                written = " ".join(t[0] for t in w2)
                if DIGITS.findall(written) != digits:
                    continue  # "aluminium-36" is not a near spelling of "aluminium-26"
                sm = difflib.SequenceMatcher(None, target, written, autojunk=False)
                if sm.real_quick_ratio() < 0.88 or sm.quick_ratio() < 0.88:
                    continue
                ratio = sm.ratio()
                if ratio >= 0.88 and (best is None or ratio > best[0]):
                    best = (ratio, w2[0][1], w2[-1][2])
    return best


def capitalised_words(units: Sequence[Unit], question: str) -> dict[int, str]:
    """The units whose word the question writes in capitals, two to six letters (a possible
    acronym: "the IDLH of graphite"), by ``id``: the word in capitals."""
    out: dict[int, str] = {}
    for u in units:
        w = u.lemma.upper()
        if 2 <= len(w) <= 6 and w.isalpha() and re.search(r"\b" + w + r"\b", question):
            out[id(u)] = w
    return out




#: Similarity of a name written as its acronym (:func:`acronym_match`).
ACRONYM = 0.95


def acronym_match(toks: Sequence[Token], question: str, name: str) -> tuple[float, int, int] | None:
    """Where the question writes the acronym of ``name`` in capitals ("the USA", "the IDLH of
    graphite"), or in lower case in a question without capitals ("the nba"): (similarity
    0.95, start, end)."""
    letters = initials(name)
    if len(letters) < 2:
        return None
    # a question written all in lower case writes acronyms so too ("who does X play for in
    # the nba?"); three letters or more, and not a word of its own ("who")
    lowercase = question == question.casefold() and len(letters) >= 3
    for w, a, b in toks:
        if question[a:b] == letters or (lowercase and question[a:b].upper() == letters and w not in STOPWORDS):
            return (ACRONYM, a, b)
    return None




def tightest_occurrence(toks: Sequence[Token], question: str, a: int, b: int,
                         spans: dict[str, tuple[int, int]], headed: set[str]) -> tuple[int, int]:
    """Of the places where the words of ``question[a:b]`` occur, the one that a noun phrase of
    its own covers most tightly: in "Is Morgan Freeman's family name Freeman?" the family
    name *Freeman* is the last word, not the end of the person's name."""
    words = [t[0] for t in toks if t[1] >= a and t[2] <= b]
    n = len(words)
    if not n:
        return a, b

    def slack(sa: int, sb: int) -> int:
        cover = [qb - qa for v, (qa, qb) in spans.items()
                 if v in headed and qa <= sa + 1 and qb >= sb - 1]
        return min(cover) - (sb - sa) if cover else len(question)

    def alone(i: int) -> bool:  # not part of a longer name ("Western Roman Empire")
        around = ([toks[i - 1]] if i > 0 else []) + ([toks[i + n]] if i + n < len(toks) else [])
        return not any(question[t[1]:t[1] + 1].isupper() for t in around)

    places = [(toks[i][1], toks[i + n - 1][2]) for i in range(len(toks) - n + 1)
              if [t[0] for t in toks[i:i + n]] == words and (toks[i][1] == a or alone(i))]
    if len(places) < 2:
        return a, b
    return min(places, key=lambda p: (slack(*p), p != (a, b)))


def of_inversion(toks: Sequence[Token], words: list[str]) -> tuple[float, int, int] | None:
    """A two-word name "M H" written "H of|for [the] M" ("series of films" for *film series*,
    "cirrhosis of the liver" for *liver cirrhosis*, "the vaccine for influenza"): (similarity
    0.9, start, end), words compared by stem; the match starts at the head H."""
    if len(words) != 2 or any(len(w) < 3 for w in words):
        return None
    m_, h_ = stem(words[0]), stem(words[1])
    for i in range(len(toks) - 2):
        if stem(toks[i][0]) != h_ or toks[i + 1][0] not in INVERSION_PREPOSITIONS:
            continue
        j = i + 2 + (toks[i + 2][0] == DEFINITE_ARTICLE)
        if j < len(toks) and stem(toks[j][0]) == m_:
            return (0.9, toks[i][1], toks[j][2])
    return None




def label_written(question: str, label: str) -> bool:
    """Whether the question writes the label word for word (exactly or by stems), articles
    aside ("the work present in the work of Confucius" writes *present in work*); a "number
    of" label also without those words, which "how many" or a stated number say ("When did
    Latvia have 10,293 out of school children?" writes *number of out-of-school children*)."""
    if not question:
        return False
    words = [w for w in words_of(label) if w not in DETERMINERS]
    if words[:2] == list(NUMBER_OF_WORDS) and len(words) > 3:
        words = words[2:]
    found = find_words(tokens_without_articles(question), words)
    return found is not None and found[0] >= 0.999


@lru_cache(maxsize=4096)
def tokens_without_articles(question: str) -> tuple[Token, ...]:
    """:func:`question_tokens` without "the", "a", "an", computed once per question."""
    return tuple(t for t in question_tokens(question) if t[0] not in DETERMINERS)


def distinctive_part(toks: Sequence[Token], words: list[str], question: str,
                      tail: bool = False) -> tuple[float, int, int] | None:
    """The longest prefix (``tail``: suffix) of a name's words that the question writes word
    for word, when it has two content words or more and is most of the name (60 %); a
    suffix must be written capitalised.  Similarity 0.9."""
    for n in range(len(words) - 1, 1, -1):
        part = words[-n:] if tail else words[:n]
        if n / len(words) < 0.6 or len(content_keys(" ".join(part))) < 2:
            break
        f2 = find_words(toks, part)
        if f2 is not None and f2[0] >= 0.999 and (not tail or question[f2[1]:f2[1] + 1].isupper()):
            return (0.9, f2[1], f2[2])
    return None


def middle_name_match(toks: Sequence[Token], words: list[str], name: str,
                       question: str) -> tuple[float, int, int] | None:
    """A person's name written with or without its middle names: the label "Mikhail
    Vassilyevich Lomonosov" for "Mikhail Lomonosov", "Carl Jung" for "Carl Gustav Jung", or
    with initials for them: "Gordon Stanley Clinton" for "Gordon S. Clinton".  Only for
    capitalised labels of two to five words, and only the first and the last word may frame
    the difference (one or two middle words); a two-word label's first name may be written
    short, as its first three letters or more ("Ray Kurzweil").  Similarity 0.9."""
    parts = name.split()
    if not 2 <= len(words) <= 5 or len(parts) != len(words) or not all(p[:1].isupper() for p in parts):
        return None
    first, last = words[0], words[-1]
    for i, (w, a, _) in enumerate(toks):
        if w != first:
            # the question writes the first name short ("Ray Kurzweil" for "Raymond Kurzweil")
            if (len(words) == 2 and 3 <= len(w) < len(first) and first.startswith(w)
                    and question[a:a + 1].isupper() and i + 1 < len(toks) and toks[i + 1][0] == last):
                return (0.9, a, toks[i + 1][2])
            continue
        # the label has middle words the question leaves out
        if len(words) >= 3 and i + 1 < len(toks) and toks[i + 1][0] == last:
            return (0.9, a, toks[i + 1][2])
        # ... or writes as initials
        k = len(words) - 1
        if k >= 2 and i + k < len(toks) and toks[i + k][0] == last and all(
                len(t[0]) == 1 and t[0] == m[0] and question[t[1]:t[1] + 1].isupper()
                for t, m in zip(toks[i + 1:i + k], words[1:-1])):
            return (0.9, a, toks[i + k][2])
        # the question has one or two middle words (capitalised) the label leaves out
        if len(words) == 2:
            for k in (2, 3):
                if i + k < len(toks) and toks[i + k][0] == last and all(
                        question[t[1]:t[1] + 1].isupper() for t in toks[i + 1:i + k]):
                    return (0.9, a, toks[i + k][2])
    return None

