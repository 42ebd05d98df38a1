"""Lexical evidence between a question and the names of KG identifiers.

The hashed n-gram cosine of :mod:`verifier.pgmr.signal` says how *similar* a name is to some
span of the question; this module says which *words* of a name the question contains, and
which phrases of the question name an identifier that the query does not use.

* :class:`QuestionTerms`: the question's words, the matching keys of its content words
  (:func:`verifier.lexical.content_keys`: stop words dropped, irregular forms lemmatised,
  Porter stems), its prepositions and, optionally, WordNet synonyms and derivations of its
  content words (:class:`verifier.lexical.WordNetRelations`).
* :func:`match_names`: the best name of an identifier for a question (:class:`NameMatch`):
  the share of the name's keys found in the question (``coverage``; a key counts 1 when the
  question has it, 0.8 when a question key shares a long prefix with it (``ukrain`` /
  ``ukrainian``), 0.7 through WordNet), how many keys matched, whether the name's
  prepositions occur in the question (``nominated for`` vs. ``nominated by``) and whether the
  whole name occurs as a phrase.
* :class:`MentionIndex` and :func:`mentions`: every question span (up to six words, not
  starting or ending with a stop word) whose key set is exactly the key set of some name in
  the memory, with the identifier kinds it can name.  :func:`covered_keys` gives the keys
  that a query accounts for (every name of its identifiers, and its string literals); a
  *maximal* mention whose keys are not all covered is a phrase of the question that names an
  identifier the query does not use (see :func:`unexplained_mentions`).

Everything is deterministic and needs no model or download.
"""

from __future__ import annotations

import logging
import re
import threading
import weakref
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

from verifier.lexical import PREPOSITIONS, STOPWORDS, WordNetRelations, content_keys, within_edits, words_of
from verifier.pgmr.encoders import normalize_text

if TYPE_CHECKING:  # pragma: no cover
    from verifier.pgmr.memory import Memory
    from verifier.pgmr.symbols import SymbolTable

__all__ = ["QuestionTerms", "NameMatch", "Mention", "MentionIndex", "match_names",
           "name_keys", "mentions", "covered_keys", "unexplained_mentions", "question_words",
           "near_spelling", "maximal",
           "WH_WORDS", "MAX_MENTION_WORDS"]

log = logging.getLogger(__name__)

MAX_NAMES = 32
MAX_MENTION_WORDS = 6
PREFIX_CREDIT = 0.8
WORDNET_CREDIT = 0.7
# question words that often stand for an identifier no name mentions ("who" -> human,
# "when" -> point in time); kept by :func:`question_words` although they are stop words
WH_WORDS = frozenset({"who", "whom", "whose", "when", "where", "why", "how", "many", "much"})

_LITERAL = re.compile(r'"""(.*?)"""|\'\'\'(.*?)\'\'\''
                      r'|"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'', re.DOTALL)


@lru_cache(maxsize=1 << 17)
def _norm_words(text: str) -> tuple[str, ...]:
    return tuple(words_of(normalize_text(text)))


@lru_cache(maxsize=1 << 18)
def name_keys(name: str) -> tuple[tuple[str, ...], frozenset[str], str]:
    """Matching keys of a name, its prepositions, and its words joined by single spaces."""
    ws = _norm_words(name)
    text = " ".join(ws)
    return content_keys(text), frozenset(w for w in ws if w in PREPOSITIONS), text


def question_words(question: str) -> frozenset[str]:
    """Keys of the question's content words plus its wh-words (:data:`WH_WORDS`): the words
    that the association statistics of :mod:`verifier.pgmr.calibrate` are counted on."""
    ws = _norm_words(question)
    return frozenset(content_keys(" ".join(ws))) | frozenset(w for w in ws if w in WH_WORDS)


@dataclass(frozen=True)
class QuestionTerms:
    """What :func:`match_names` needs to know about a question (build with :meth:`of`)."""

    text: str
    words: tuple[str, ...]
    keys: frozenset[str]
    related: frozenset[str]
    phrase: str

    @classmethod
    def of(cls, question: str, wordnet: WordNetRelations | None = None) -> "QuestionTerms":
        """Analyse ``question`` (with WordNet relations of its content words when given)."""
        ws = _norm_words(question)
        keys = frozenset(content_keys(" ".join(ws)))
        related: set[str] = set()
        if wordnet is not None:
            for w in ws:
                if w not in STOPWORDS:
                    related |= wordnet.keys_for(w)
        return cls(question, ws, keys, frozenset(related - keys), " " + " ".join(ws) + " ")

    def key_credit(self, key: str) -> float:
        """How well the question contains ``key``: 1 exactly; :data:`PREFIX_CREDIT` through a
        shared prefix of at least 4 letters (all but the last two of the shorter key) or a
        spelling slip (:func:`near_spelling`); :data:`WORDNET_CREDIT` through WordNet."""
        if key in self.keys:
            return 1.0
        best = WORDNET_CREDIT if key in self.related else 0.0
        if len(key) >= 4:
            for k in self.keys:
                if len(k) < 4:
                    continue
                short, long_ = (key, k) if len(key) <= len(k) else (k, key)
                if long_.startswith(short[:max(4, len(short) - 2)]) or near_spelling(key, k):
                    return max(best, PREFIX_CREDIT)
        return best


@lru_cache(maxsize=1 << 16)
def near_spelling(a: str, b: str) -> bool:
    """``a`` and ``b`` (keys of 6 letters or more, same first letter) differ by one edit
    (two from 9 letters on): "samourai" / "samurai", "lauudrup" / "laudrup".  Shorter
    words are left out: one edit often makes another word there ("death" / "depth")."""
    if min(len(a), len(b)) < 6 or a[0] != b[0] or a == b:
        return False
    return within_edits(a, b, 2 if min(len(a), len(b)) >= 9 else 1)


@dataclass(frozen=True, slots=True)
class NameMatch:
    """The best name of an identifier for a question.

    ``coverage`` in [0, 1]: the mean credit of the name's keys (see
    :meth:`QuestionTerms.key_credit`); ``matched`` the number of keys with some credit,
    ``keys`` the number of keys; ``prepositions`` the share of the name's prepositions that
    the question contains (1 when it has none); ``phrase`` whether the whole name occurs in
    the question.  A name made only of stop words ("of", "in") has ``keys = 0`` and
    ``coverage = 0``.
    """

    name: str | None
    coverage: float
    matched: int
    keys: int
    prepositions: float
    phrase: bool

    @property
    def unmatched(self) -> int:
        """Keys of the name that the question does not contain."""
        return self.keys - self.matched


_NO_MATCH = NameMatch(None, 0.0, 0, 0, 1.0, False)


def match_names(terms: QuestionTerms, names: Sequence[str]) -> NameMatch:
    """The best of ``names`` (label first, then aliases; at most 32) for the question:
    highest coverage, then prepositions, then phrase, then more matched keys, then the
    earlier name."""
    best = _NO_MATCH
    best_key: tuple[float, float, bool, int] | None = None
    for name in names[:MAX_NAMES]:
        keys, preps, text = name_keys(name)
        if not keys:
            continue
        credits = [terms.key_credit(k) for k in keys]
        cov = sum(credits) / len(keys)
        matched = sum(c > 0 for c in credits)
        prep = sum(p in terms.words for p in preps) / len(preps) if preps else 1.0
        phrase = f" {text} " in terms.phrase
        key = (round(cov, 6), prep, phrase, matched)
        if best_key is None or key > best_key:
            best_key = key
            best = NameMatch(name, cov, matched, len(keys), prep, phrase)
    return best


@dataclass(frozen=True, slots=True)
class Mention:
    """A question span ``words[start:end]`` whose keys are exactly those of some name of the
    memory; ``groups`` are the kind groups (``item`` / ``property``) of those names."""

    start: int
    end: int
    text: str
    keys: frozenset[str]
    groups: frozenset[str]


class MentionIndex:
    """Names of a symbol table by key set (see the module docstring): for each key set, the
    kind groups of the identifiers with such a name.

    Building it for the 76k symbols of the shared ``labels.tsv`` takes about 3 s; use
    :meth:`for_memory` to build it once per memory.
    """

    _cache: dict[int, "MentionIndex"] = {}
    _lock = threading.Lock()

    def __init__(self, by_keys: Mapping[frozenset[str], frozenset[str]]) -> None:
        self.by_keys = by_keys

    @classmethod
    def build(cls, table: "SymbolTable") -> "MentionIndex":
        """Index every name (label and aliases, at most 32) of ``table``."""
        acc: dict[frozenset[str], set[str]] = {}
        for s in table:
            for name in s.names[:MAX_NAMES]:
                keys = name_keys(name)[0]
                if keys:
                    acc.setdefault(frozenset(keys), set()).add(s.kind.group)
        return cls({k: frozenset(v) for k, v in acc.items()})

    @classmethod
    def for_memory(cls, memory: "Memory") -> "MentionIndex":
        """The index of ``memory``'s symbol table, built on first use and kept while the
        table lives."""
        table = memory.table
        key = id(table)
        with cls._lock:
            idx = cls._cache.get(key)
            if idx is None:
                idx = cls.build(table)
                cls._cache[key] = idx
                weakref.finalize(table, cls._cache.pop, key, None)
        return idx

    def __len__(self) -> int:
        return len(self.by_keys)


def mentions(question: str | QuestionTerms, index: MentionIndex,
             max_words: int = MAX_MENTION_WORDS) -> list[Mention]:
    """Every span of the question (1..``max_words`` words, first and last word not stop
    words) that names something in ``index``."""
    ws = question.words if isinstance(question, QuestionTerms) else _norm_words(question)
    out: list[Mention] = []
    for a in range(len(ws)):
        if ws[a] in STOPWORDS:
            continue
        for b in range(a + 1, min(a + max_words, len(ws)) + 1):
            if ws[b - 1] in STOPWORDS:
                continue
            text = " ".join(ws[a:b])
            keys = frozenset(content_keys(text))
            if not keys or all(len(k) == 1 or k.isdigit() for k in keys):
                continue  # letters and numbers name too much to be evidence
            groups = index.by_keys.get(keys)
            if groups:
                out.append(Mention(a, b, text, keys, groups))
    return out


def maximal(ms: Iterable[Mention], group: str) -> list[Mention]:
    """The mentions that can name a ``group`` identifier and lie in no longer such mention."""
    sel = [m for m in ms if group in m.groups]
    return [m for m in sel
            if not any(o.start <= m.start and m.end <= o.end and o.end - o.start > m.end - m.start
                       for o in sel)]


def covered_keys(names: Iterable[str], sparql: str = "") -> frozenset[str]:
    """Keys accounted for by a query: those of ``names`` (every name of its identifiers)
    and of the string literals of ``sparql``."""
    out: set[str] = set()
    for n in names:
        out.update(name_keys(n)[0])
    for m in _LITERAL.finditer(sparql):
        lit = next((g for g in m.groups() if g is not None), "")
        out.update(content_keys(" ".join(_norm_words(lit))))
    return frozenset(out)


def unexplained_mentions(ms: Sequence[Mention], covered: frozenset[str],
                         group: str) -> list[Mention]:
    """The maximal ``group`` mentions with a key that ``covered`` lacks."""
    return [m for m in maximal(ms, group) if not m.keys <= covered]
