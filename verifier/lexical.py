"""Lexical matching between question words and KG labels.

* :func:`content_keys` turns a text ("place of birth", "born in", "developer") into matching
  keys: lower-cased words without accents, irregular forms lemmatised (born -> bear), stop words dropped,
  each word reduced to its Porter stem (developer, develop -> develop).
* :func:`label_shape` reads the grammatical shape of a property name, which fixes the
  direction of the property relative to the question (see ``docs/deductive.md``):
  ``noun`` ("mass": P(s, o) = o is the mass of s), ``of`` ("part of": s is part of o),
  ``by`` ("owned by": o owns s), ``prep`` ("born in", "educated at": s ... in o), ``verb``
  ("follows", "has part": s follows o).
* :class:`LabelIndex` indexes the names (label and aliases) of a symbol table by key.
* :class:`WordNetRelations` adds synonyms and derivations from WordNet when its data is
  installed (optional; absent data is reported once and matching carries on without it).
"""

from __future__ import annotations

import logging
import os
import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable

from nltk.stem.porter import PorterStemmer

from verifier.vocabulary import vocabulary

__all__ = ["content_keys", "lemma_keys", "fold", "words_of", "without_possessive", "stem",
           "lemma_of", "label_shape", "within_edits", "LabelIndex", "NameEntry", "name_entries",
           "initials", "STOPWORDS", "PREPOSITIONS", "WordNetRelations"]

log = logging.getLogger(__name__)

#: The English words of this module (``axioms/words/lexical.yaml``): the engine below reads them.
_WORDS = vocabulary("lexical")


PREPOSITIONS = _WORDS.word_set("prepositions")
STOPWORDS = PREPOSITIONS | _WORDS.word_set("function_words")

#: Irregular past forms of verbs, as labels and questions write them ("written by", "what did
#: X wrote?"): matching keys (:data:`_IRREGULAR`) and the base forms of unknown-word verbs
#: (:func:`irregular_base`) both read them.
_PAST_FORMS = _WORDS.lemmas("past_forms")

# Irregular verb forms and plurals that appear in Wikidata labels; stemming handles the rest.
_IRREGULAR = _WORDS.lemmas("past_forms", "irregular_forms")

_WORD_RE = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)
_POSSESSIVE = _WORDS.words("possessive_endings")


@lru_cache(maxsize=None)
def _stemmer() -> PorterStemmer:
    return PorterStemmer()


@lru_cache(maxsize=1 << 17)
def stem(word: str) -> str:
    """Porter stem of a lower-cased word (after irregular forms are lemmatised)."""
    w = _IRREGULAR.get(word, word)
    if len(w) <= 3 or not w.isalpha():
        return w
    return _stemmer().stem(w)


#: Words that are irregular forms of one verb and the lemma of another ("found": find /
#: to found, "saw": see / to saw).  A predicate's lemma is already a lemma, so
#: :func:`lemma_keys` does not map these.
LEMMA_FORMS = _WORDS.word_set("lemma_forms")


def lemma_keys(lemma: str) -> tuple[str, ...]:
    """Matching keys of a predicate's lemma: as :func:`content_keys`, except that a lemma which
    is also an irregular form of another verb stays itself (``_found_v_1``: "found", which
    matches "founded by"; :func:`content_keys` reads "found" as "find")."""
    if lemma in LEMMA_FORMS:
        return (_stemmer().stem(lemma),)
    return content_keys(lemma)


def lemma_of(word: str) -> str:
    """Lemma of an irregular form, else the word itself."""
    return _IRREGULAR.get(word, word)


def fold(text: str) -> str:
    """``text`` case-folded and without accents (NFKD, combining marks dropped)."""
    if not text.isascii():
        text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return text.casefold()


def words_of(text: str) -> list[str]:
    """Lower-cased word tokens of a text (apostrophe-s split off), accents removed: "Malmo"
    in a question matches the label "Malmö"."""
    return [w for w in map(without_possessive, _WORD_RE.findall(fold(text))) if w]


def without_possessive(word: str) -> str:
    """``word`` without a final possessive "'s" ("obama's" -> "obama")."""
    for ending in _POSSESSIVE:
        if word.endswith(ending):
            return word[:-len(ending)]
    return word


@lru_cache(maxsize=1 << 17)
def content_keys(text: str) -> tuple[str, ...]:
    """Matching keys of a text: stems of its content words, in order, without duplicates."""
    seen: dict[str, None] = {}
    for w in words_of(text):
        if w in STOPWORDS:
            continue
        seen.setdefault(stem(w), None)
    return tuple(seen)


_AGENT_SUFFIXES = _WORDS.words("agent_suffixes")
_AGENT_NOUNS = _WORDS.word_set("agent_nouns")
_VERB_STARTS = _WORDS.word_set("verb_starts")
_PARTICIPLE_SUFFIXES = _WORDS.words("participle_suffixes")
_PRESENT_ENDINGS = _WORDS.words("present_endings")
_NON_PRESENT_ENDINGS = _WORDS.words("non_present_endings")
_PRESENT_PARTICIPLE_ENDINGS = _WORDS.words("present_participle_endings")
_SILENT_ENDINGS = _WORDS.words("silent_endings")
_PASSIVE_PARTICLES = _WORDS.word_set("passive_particles")
_PASSIVE_HEADS = _WORDS.word_set("passive_heads")
_VERB_OBJECT_DETERMINERS = _WORDS.word_set("verb_object_determiners")
_NOUN_COMPLEMENT_PREPOSITIONS = _WORDS.word_set("noun_complement_prepositions")
_HEAD_JOINERS = _WORDS.word_set("head_joiners")


#: Last words of identifier names ("Flags of the World ID", "terms of service URL"), also the
#: heads of question noun phrases that may contain "of" (``parsers.mrs.patterns``).
ID_WORDS = _WORDS.word_set("id_words")
#: Titles written before a person's name ("sir isaac newton", "saint paul", "jesus christ"
#: after it): part of how the person is named, not a name of its own.
TITLES = _WORDS.word_set("titles")
#: The matching keys of :data:`TITLES` (to compare with :func:`content_keys` of a phrase).
TITLE_KEYS = frozenset(k for w in TITLES for k in content_keys(w))


def words_beyond(phrase: str, keys: Iterable[str]) -> set[str]:
    """The matching keys of ``phrase`` that are not among a name's ``keys`` and are no title
    (:data:`TITLES`): what "indianapolis indiana" writes beyond *Indiana* ("indianapolis"),
    and "sir isaac newton" beyond *Isaac Newton* (nothing)."""
    return set(content_keys(phrase)) - set(keys) - TITLE_KEYS


@lru_cache(maxsize=1 << 16)
def label_shape(name: str) -> str:
    """Grammatical shape of a property name: ``noun``, ``agent`` (a noun naming the doer:
    developer, author), ``of``, ``by``, ``prep`` or ``verb``."""
    ws = words_of(name)
    if not ws:
        return "noun"
    last, first = ws[-1], ws[0]
    if last == "of" and len(ws) == 2 and first.endswith(_PARTICIPLE_SUFFIXES):
        return "prep"  # a participle's complement ("convicted of"), not a relational noun's
    if last == "of" and len(ws) == 3 and ws[1] in _PASSIVE_PARTICLES and (
            first.endswith(_PARTICIPLE_SUFFIXES) or first in _PASSIVE_HEADS):
        return "by"  # a passive ("made up of", "built out of"): "Y makes up X" is has part(X, Y)
    if last == "of" and len(ws) > 1:
        return "of"
    if last == "by" and len(ws) > 1:
        return "by"
    if last in PREPOSITIONS and len(ws) > 1:
        return "prep"
    # "flows into", "shares border with"; not a rate ("beats per minute", "visitors per year"),
    # a plural noun's complement ("coordinates of northernmost point", "assets under management",
    # "rules for classification") or an identifier ("Flags of the World ID")
    if first in _VERB_STARTS or (first.endswith(_PRESENT_ENDINGS) and not first.endswith(_NON_PRESENT_ENDINGS)
                                 and len(ws) > 1
                                 and (ws[1] in PREPOSITIONS or ws[1] in _VERB_OBJECT_DETERMINERS)
                                 and ws[1] not in _NOUN_COMPLEMENT_PREPOSITIONS and last not in ID_WORDS):
        return "verb"
    if len(ws) > 1 and ws[0].endswith(_PARTICIPLE_SUFFIXES) and ws[1] in PREPOSITIONS:
        return "prep"
    head = ws[0] if len(ws) > 1 and ws[1] in _HEAD_JOINERS else ws[-1]
    if is_agentive(head):
        return "agent"
    return "noun"


def _participle_of(name: str, verb: str) -> bool:
    """Whether a one-word ``name`` is the -ing form of ``verb`` ("depicting" of "depicts",
    "using" of "uses")."""
    w = name.strip().casefold()
    ing = next((e for e in _PRESENT_PARTICIPLE_ENDINGS if w.endswith(e)), None)
    if " " in w or ing is None:
        return False
    base = verb.casefold()
    base = next((base[:-len(e)] for e in _PRESENT_ENDINGS if base.endswith(e)), base)
    bare = next((base[:-len(e)] for e in _SILENT_ENDINGS if base.endswith(e)), base)
    return w[:-len(ing)] in (base, bare)


def is_agentive(word: str) -> bool:
    """A noun that names the doer of an action (developer, author, founder ...)."""
    w = word.casefold()
    return w.endswith(_AGENT_SUFFIXES) or w in _AGENT_NOUNS


# --------------------------------------------------------------------------------------------
# Label index
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NameEntry:
    """One name of a symbol with its matching keys and shape."""

    symbol: str
    name: str
    keys: tuple[str, ...]
    shape: str
    is_label: bool


def within_edits(a: str, b: str, k: int) -> bool:
    """Whether ``a`` becomes ``b`` in at most ``k`` insertions, deletions or substitutions
    (Levenshtein distance, stopped as soon as it must exceed ``k``)."""
    if abs(len(a) - len(b)) > k:
        return False
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
        if min(cur) > k:
            return False
        prev = cur
    return prev[-1] <= k


_NEGATIONS = _WORDS.word_set("negations")
_NEGATION_SUFFIXES = _WORDS.words("negation_suffixes")
_NAME_WORDS = _WORDS.pattern("name_words")


#: A maintenance note closing a label ("commander of (DEPRECATED)", "BNB person ID
#: (OBSOLETE)"): not part of the name anyone says.
_STATUS_NOTE = _WORDS.pattern("status_note")
#: a closing abbreviation in parentheses ("(LC50)", "(IDLH)", "(SID)")
_ABBREVIATION_NOTE = _WORDS.pattern("abbreviation_note")


def _with_unabbreviated(names: Iterable[str]) -> list[str]:
    """``names`` and, after them, each name that closes with its abbreviation in parentheses
    without it (the first name stays first: it is the label)."""
    names = list(names)
    extra = [_ABBREVIATION_NOTE.sub("", n) for n in names
             if n and _ABBREVIATION_NOTE.search(n) and not _STATUS_NOTE.search(n)]
    return names + [e for e in extra if e and e not in names]


_HAS_NOUN = _WORDS.pattern("has_noun")


def _with_has_noun(names: list[str]) -> list[str]:
    """``names`` and, after them, the noun of a property label "has N" ("grammatical person"
    for *has grammatical person*, "phenotype" for *has phenotype*): "X has N Y" says that Y
    is an N of X, so a question that writes the noun names the property as a noun names its
    value ("the language that has as grammatical person the second-person singular").  Only
    the label, and only when the rest is a noun (not "has written for")."""
    if not names:
        return names
    m = _HAS_NOUN.fullmatch(names[0].strip())
    if not m or label_shape(m.group("noun")) not in ("noun", "agent"):
        return names
    noun = m.group("noun").strip()
    if any(content_keys(n) == content_keys(noun) for n in names[1:] if n):
        return names  # already named by its noun ("parts" for *has part(s)*)
    return names + [noun]


#: A join inside a name written solid: a lower-case letter before a capitalised word
#: ("LiveJournal", "OpenSecrets") or letters against digits ("CIQUAL2017"), each side at least
#: two or three letters, so that "IMDb", "BAnQ" or "P2P" stay whole.
_SOLID_JOIN = re.compile(r"(?<=[a-z]{2})(?=[A-Z][a-z]{2})|(?<=[A-Za-z]{3})(?=\d)|(?<=\d)(?=[A-Za-z]{3})")


def _with_split_joins(names: list[str]) -> list[str]:
    """``names`` and, after them, each name whose solid compounds (:data:`_SOLID_JOIN`) are
    written apart: "Live Journal ID" for *LiveJournal ID*, "Open Secrets organization ID" for
    *OpenSecrets organization ID*.  A brand written solid in Wikidata is the same name
    written in two words, as a question often writes it.  Only when every part is a content
    word (not "All Music" for *AllMusic*, which "music" alone would name), and only for
    properties (an item's name is matched as a whole, spaces aside)."""
    extra = []
    for n in names:
        joins = len(_SOLID_JOIN.findall(n)) if n else 0
        if not joins:
            continue
        split = _SOLID_JOIN.sub(" ", n)
        # each part a content word: "AllMusic" is not named by "music" alone, "YouTube" not
        # by "tube"
        if len(content_keys(split)) == len(content_keys(n)) + joins and split not in names:
            extra.append(split)
    return names + extra


#: A class label that is a disjunction of one-word nouns, with a tail that names a place
#: ("province or territory of Canada", "version, edition, or translation", "city or town").
_DISJUNCTIVE_CLASS = _WORDS.pattern("disjunctive_class")
_ALTERNATIVE_SEPARATORS = _WORDS.pattern("alternative_separators")


def _with_alternatives(names: list[str]) -> list[str]:
    """``names`` and, after them, each alternative of a class label that is a disjunction of
    one-word nouns (:data:`_DISJUNCTIVE_CLASS`), with the label's place tail: "province of
    Canada" and "territory of Canada" for *province or territory of Canada*, "translation" for
    *version, edition, or translation*.  Whatever is one of the alternatives is an instance of
    the class, so a question that says one of them names it.  Labels whose alternatives share
    a modifier or a tail that is not a name ("intensive or extensive property", "flag or coat
    of arms") are left whole: where the disjunction ends is not written."""
    if not names or not (m := _DISJUNCTIVE_CLASS.fullmatch(names[0])):
        return names
    tail = m.group("tail") or ""
    words = _ALTERNATIVE_SEPARATORS.split(m.group("head"))
    extra = [w + tail for w in words]
    return names + [e for e in extra if e not in names]


def _negated(name: str) -> bool:
    """Whether a name says "not" ("not the same as", "isn't", "non-fiction")."""
    words = _NAME_WORDS.findall(name.casefold())
    return any(w in _NEGATIONS or w.endswith(_NEGATION_SUFFIXES) for w in words)


_ACRONYM_SKIP = _WORDS.word_set("acronym_skips")


@lru_cache(maxsize=1 << 16)
def initials(name: str) -> str:
    """The acronym of a name of two words or more: the first letters of its words but
    function words ("immediately dangerous to life or health" -> "IDLH", "United States of
    America" -> "USA"); "" for a one-word name."""
    words = [w for w in re.findall(r"[^\W_]+", name) if w.casefold() not in _ACRONYM_SKIP]
    return "".join(w[0] for w in words).upper() if len(words) >= 2 else ""


def name_entries(symbol: str, names: Iterable[str], kind: str = "item") -> list[NameEntry]:
    """The indexed names of a symbol (the first kept is its label), with their matching keys
    and shapes: what :meth:`LabelIndex.add` indexes and what a label store keeps
    (:mod:`verifier.labels`), so that both match alike.  An alias that negates what the
    label does not ("not the same as" for *different from*) is left out: without its
    negation, which matching ignores like any stop word, it would name the opposite.  A
    closing "(deprecated)" / "(obsolete)" note is dropped from every name; a name that
    closes with its abbreviation ("median lethal concentration (LC50)") is also indexed
    without it, as an alias, so that a question writing the words names it in full; and
    an item or class whose label is a disjunction of one-word nouns is also named by each
    alternative (:func:`_with_alternatives`: "translation" for *version, edition, or
    translation*); a property labelled "has N" is also named by its noun N
    (:func:`_with_has_noun`), and a property's name written solid also by its words
    apart (:func:`_with_split_joins`: "Live Journal ID" for *LiveJournal ID*)."""
    names = _with_unabbreviated(names)
    if kind != "property":
        names = _with_alternatives(names)
    else:
        names = _with_split_joins(_with_has_noun(names))
    out: list[NameEntry] = []
    first = True
    label_negated = verb_label = False
    label_words: list[str] = []
    for n in names:
        if not n or not n.strip():
            continue
        n = _STATUS_NOTE.sub("", n) or n
        negated = _negated(n)
        if first:
            label_negated = negated
        elif negated and not label_negated:
            continue
        keys = content_keys(n)
        if not keys:
            ws = words_of(n)
            if not ws or len(ws) > 2:
                continue
            keys = tuple(ws)  # a name made of function words ("since", "as of")
        shape = label_shape(n)
        if first:
            label_words = words_of(n)
            verb_label = shape == "verb"
        elif verb_label and _participle_of(n, label_words[0]):
            shape = "verb"  # "depicting" for *depicts*: the verb's participle, no noun
        out.append(NameEntry(symbol, n, keys, shape, first))
        first = False
    return out


class LabelIndex:
    """Names of KG symbols indexed by matching key.

    Built from a ``verifier.pgmr.SymbolTable`` (labels.tsv or any RDF file) or from plain
    ``(id, [names])`` pairs.  Identifiers are Wikidata ids (``P2067``, ``Q2270``) or IRIs.
    """

    def __init__(self) -> None:
        self.names: dict[str, list[NameEntry]] = defaultdict(list)
        self.by_key: dict[str, list[NameEntry]] = defaultdict(list)
        self.labels: dict[str, str] = {}
        self.kinds: dict[str, str] = {}
        self.descriptions: dict[str, str] = {}
        self._by_initials: dict[str, set[str]] | None = None

    def add(self, symbol: str, names: Iterable[str], kind: str = "item", description: str = "") -> None:
        """Index a symbol's names (the first is its label), as :func:`name_entries` derives
        them."""
        for e in name_entries(symbol, names, kind):
            if e.is_label:
                self.labels.setdefault(symbol, e.name)
            self.names[symbol].append(e)
            for k in set(e.keys):
                self.by_key[k].append(e)
        self.kinds.setdefault(symbol, kind)
        if description:
            self.descriptions.setdefault(symbol, description)

    @classmethod
    def from_symbol_table(cls, table) -> "LabelIndex":
        idx = cls()
        for sym in table:
            idx.add(sym.id, sym.names, getattr(sym.kind, "value", str(sym.kind)), sym.description)
        return idx

    @classmethod
    def from_labels_tsv(cls, path: str | Path) -> "LabelIndex":
        """Read ``id<TAB>label<TAB>aliases<TAB>description`` (the shared labels.tsv format)."""
        from verifier.pgmr.loaders import read_labels_tsv

        report = read_labels_tsv(path)
        idx = cls()
        for sym in report.symbols:
            idx.add(sym.id, sym.names, getattr(sym.kind, "value", str(sym.kind)), sym.description)
        return idx

    @classmethod
    def cached(cls, path: str | Path, cache_dir: str | Path | None = None) -> "LabelIndex":
        """:meth:`from_labels_tsv`, kept as a pickle in the user cache folder and rebuilt when
        the source file changes (size or modification time) or the code that reads it and
        derives names, keys and shapes does (this module, its word lists and the TSV loader);
        older caches of the same file are removed."""
        import hashlib
        import pickle

        from verifier.pgmr import loaders

        src = Path(path)
        st = src.stat()
        source_key = hashlib.blake2s(f"{src.resolve()}".encode(), digest_size=6).hexdigest()
        code = (Path(__file__).read_bytes() + Path(loaders.__file__).read_bytes()
                + Path(_WORDS.file).read_bytes())
        key = hashlib.blake2s(f"{st.st_size}|{st.st_mtime_ns}|".encode() + code,
                              digest_size=6).hexdigest()
        folder = Path(cache_dir) if cache_dir else Path.home() / ".cache" / "sparql-verifier"
        cache = folder / f"labels-{source_key}-{key}.pkl"
        if cache.exists():
            try:
                with cache.open("rb") as f:
                    obj = pickle.load(f)  # our own cache file, written below
                if isinstance(obj, cls):
                    return obj
            except Exception as e:  # a broken cache is rebuilt
                log.warning("label cache %s unreadable (%s); rebuilding", cache, e)
        idx = cls.from_labels_tsv(src)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            # one temporary file per process: workers that build the cache at the same time
            # must not replace each other's half-written file
            tmp = cache.with_suffix(f".{os.getpid()}.tmp")
            with tmp.open("wb") as f:
                pickle.dump(idx, f, protocol=pickle.HIGHEST_PROTOCOL)
            tmp.replace(cache)
            # superseded caches of this file, and those of the old naming (never read again)
            for stale in [*folder.glob(f"labels-{source_key}-*.pkl"),
                          *folder.glob("labels-" + "[0-9a-f]" * 16 + ".pkl")]:
                if stale != cache:
                    stale.unlink(missing_ok=True)
        except OSError as e:
            log.warning("cannot write label cache %s: %s", cache, e)
        return idx

    def __contains__(self, symbol: str) -> bool:
        return symbol in self.names

    def __len__(self) -> int:
        return len(self.names)

    def label(self, symbol: str) -> str | None:
        return self.labels.get(symbol)

    def acronym_bearers(self, letters: str) -> set[str]:
        """Symbols one of whose names has the acronym ``letters`` (:func:`initials`; "USA":
        *United States of America*, *United States Army*); the index is built on first use."""
        if getattr(self, "_by_initials", None) is None:  # (an index pickled before it had one)
            index: dict[str, set[str]] = defaultdict(set)
            for sid, entries in self.names.items():
                for e in entries:
                    a = initials(e.name)
                    if a:
                        index[a].add(sid)
            self._by_initials = dict(index)
        return self._by_initials.get(letters, set())

    def proper_names_ending(self, word: str) -> list[NameEntry]:
        """Capitalised names whose last word is ``word`` as written, case aside ("giants":
        *New York Giants*; not *gas giant*, and "raiders" not *Tomb Raider*)."""
        keys = content_keys(word)
        if len(keys) != 1:
            return []
        w = word.casefold()
        return [e for e in self.by_key.get(keys[0], ()) if e.name[:1].isupper() and e.name.split()[-1].casefold() == w]

    def labels_written_as(self, text: str) -> list[NameEntry]:
        """Labels (not aliases) written with exactly the words of ``text`` (``words_of``, case
        aside), found through the rarest of its keys."""
        keys = content_keys(text)
        if not keys:
            return []
        words = [w.casefold() for w in words_of(text)]
        rarest = min(keys, key=lambda k: len(self.by_key.get(k, ())))
        return [e for e in self.by_key.get(rarest, ())
                if e.is_label and e.keys == keys and [w.casefold() for w in words_of(e.name)] == words]

    def candidates(self, keys: Iterable[str], kind: str | None = None, limit: int = 2000) -> list[NameEntry]:
        """Names sharing at least one key with ``keys`` (optionally of one kind)."""
        out: dict[tuple[str, str], NameEntry] = {}
        for k in keys:
            for e in self.by_key.get(k, ())[:limit]:
                if kind is None or self.kinds.get(e.symbol) == kind or (
                        kind == "item" and self.kinds.get(e.symbol) == "class"):
                    out[(e.symbol, e.name)] = e
        return list(out.values())


# --------------------------------------------------------------------------------------------
# WordNet (optional)
# --------------------------------------------------------------------------------------------

_LEXNAMES = ("adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute "
             "noun.body noun.cognition noun.communication noun.event noun.feeling noun.food noun.group "
             "noun.location noun.motive noun.object noun.person noun.phenomenon noun.plant "
             "noun.possession noun.process noun.quantity noun.relation noun.shape noun.state "
             "noun.substance noun.time verb.body verb.change verb.cognition verb.communication "
             "verb.competition verb.consumption verb.contact verb.creation verb.emotion verb.motion "
             "verb.perception verb.possession verb.social verb.stative verb.weather adj.ppl").split()


class WordNetRelations:
    """Synonym and derivation keys from WordNet, precomputed into a small table.

    Build once with :meth:`build` (``verifier setup wordnet``): it reads a WordNet 3.0 database
    (Debian's ``wordnet-base`` + ``wordnet-sense-index`` in ``/usr/share/wordnet``, or an
    ``nltk_data`` folder) with nltk and writes ``word -> related stems`` as gzip JSON.  Loading
    the table takes well under a second, unlike WordNet itself.
    """

    def __init__(self, related: dict[str, dict[str, list[str]]]) -> None:
        self.related = related

    def keys_for(self, lemma: str, pos: str | None = None) -> set[str]:
        """Stems of synonyms and derivationally related words of ``lemma``."""
        entry = self.related.get(lemma.casefold())
        if not entry:
            return set()
        if pos and pos in entry:
            return set(entry[pos])
        return {k for v in entry.values() for k in v}

    @staticmethod
    def user_table() -> Path:
        """Where ``verifier setup wordnet`` writes a table rebuilt by the user (under
        ``$XDG_CACHE_HOME``, default ``~/.cache``); it replaces the shipped one when present."""
        import os

        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        return Path(base) / "sparql-verifier" / "wordnet-relations.json.gz"

    @staticmethod
    def shipped_table() -> Path:
        """The table shipped inside the package, built from WordNet 3.0 by :meth:`build`
        (WordNet's licence is in the same folder)."""
        return Path(__file__).resolve().parent / "_data" / "wordnet" / "relations.json.gz"

    @classmethod
    def default_path(cls, configured: str | None = None) -> Path | None:
        """The table to load: ``configured`` (``[grounding] wordnet``; ``"none"`` or ``"off"``
        turns WordNet off and gives ``None``), else a table the user rebuilt
        (:meth:`user_table`), else the shipped one."""
        if configured is not None and str(configured).strip().casefold() in ("none", "off", "false", ""):
            return None
        if configured:
            return Path(configured).expanduser()
        user = cls.user_table()
        return user if user.is_file() else cls.shipped_table()

    @classmethod
    def load(cls, path: str | Path) -> "WordNetRelations":
        import gzip
        import json

        with gzip.open(path, "rt", encoding="utf-8") as f:
            return cls(json.load(f))

    @staticmethod
    def build(wordnet_dir: str | Path, out: str | Path, *, words: Iterable[str] | None = None,
              max_senses: int = 3) -> int:
        """Extract relations from the WordNet database in ``wordnet_dir`` into ``out``.

        ``words`` restricts the table (tests); by default every lemma of WordNet.  Returns the
        number of words written.
        """
        import gzip
        import json
        import shutil
        import tempfile
        import warnings

        import nltk
        from nltk.corpus.reader.wordnet import WordNetCorpusReader

        src = Path(wordnet_dir)
        need = ["data.noun", "data.verb", "data.adj", "data.adv", "index.noun", "index.verb",
                "index.adj", "index.adv"]
        if not all((src / f).is_file() for f in need):
            raise FileNotFoundError(f"{src} does not hold a WordNet database (data.* and index.* files)")

        class _English(WordNetCorpusReader):
            def map_wn(self, version="wordnet"):  # no multilingual mapping needed
                return None

        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp) / "wordnet"
            root.mkdir()
            for f in src.iterdir():
                if f.is_file():
                    shutil.copy(f, root / f.name)
            if not (root / "lexnames").exists():  # Debian's package lacks it; nltk needs it
                cats = {"adj": 3, "adv": 4, "noun": 1, "verb": 2}
                (root / "lexnames").write_text("".join(
                    f"{i:02d}\t{n}\t{cats[n.split('.')[0]]}\n" for i, n in enumerate(_LEXNAMES)))
            if tmp not in nltk.data.path:
                nltk.data.path.append(tmp)
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    wn = _English(str(root), None)
                table: dict[str, dict[str, list[str]]] = {}
                vocab = list(words) if words is not None else list(wn.all_lemma_names())
                for w in vocab:
                    entry: dict[str, set[str]] = defaultdict(set)
                    for syn in wn.synsets(w.replace(" ", "_"))[: max_senses * 4]:
                        pos = {"s": "a"}.get(syn.pos(), syn.pos())
                        if len(entry[pos]) > 40:
                            continue
                        for lem in syn.lemmas():
                            entry[pos].update(content_keys(lem.name().replace("_", " ")))
                            for d in lem.derivationally_related_forms():
                                entry[pos].update(content_keys(d.name().replace("_", " ")))
                        for a in syn.attributes():
                            for lem in a.lemmas():
                                entry[pos].update(content_keys(lem.name().replace("_", " ")))
                    own = set(content_keys(w.replace("_", " ")))
                    cleaned = {p: sorted(v - own) for p, v in entry.items() if v - own}
                    if cleaned:
                        table[w.replace("_", " ").casefold()] = cleaned
            finally:
                if tmp in nltk.data.path:
                    nltk.data.path.remove(tmp)
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        with gzip.open(out, "wt", encoding="utf-8") as f:
            json.dump(table, f, sort_keys=True)
        return len(table)


#: Irregular past forms of verbs for unknown-word verbs (:func:`base_forms`,
#: :func:`irregular_base`): those of :data:`_PAST_FORMS`, and those that questions write but
#: labels do not, which stay out of the matching keys ("where did X grew up?", "what did X
#: drew?").
_IRREGULAR_PAST = _WORDS.lemmas("past_forms", "question_past_forms")
#: regular past endings, those written for a base in -y, and letters a base doubles itself
_PAST_ENDINGS = _WORDS.words("past_endings")
_PAST_Y_ENDINGS = _WORDS.lemmas("past_y_endings")
_UNDOUBLED_LETTERS = _WORDS.word_set("undoubled_letters")


def base_forms(word: str) -> list[str]:
    """Candidate base forms of a verb written in the past ("invented" -> "invent", "invente";
    "married" -> "marry"; "stopped" -> "stop"; "wrote" -> "write"), most likely first; the
    caller keeps the first that is a verb it knows.  ``[]`` for a word that is no past form
    by its spelling."""
    w = word.casefold()
    if w in _IRREGULAR_PAST:
        return [_IRREGULAR_PAST[w]]
    ed = next((e for e in _PAST_ENDINGS if w.endswith(e)), None)
    if len(w) < 4 or ed is None:
        return []
    out = [w[:-len(end)] + base for end, base in _PAST_Y_ENDINGS.items() if w.endswith(end)]  # "married"
    stem = w[:-len(ed)]
    out.append(stem)
    out.extend(stem + e for e in _SILENT_ENDINGS)  # "composed" -> "compose", "died" -> "die"
    if len(stem) >= 3 and stem[-1] == stem[-2] and stem[-1] not in _UNDOUBLED_LETTERS:
        out.append(stem[:-1])  # "stopped" -> "stop"
    return out


def irregular_base(word: str) -> str | None:
    """The base form of an irregular past form ("grew" -> "grow"), ``None`` for any other word."""
    return _IRREGULAR_PAST.get(word.casefold())
