"""Propose lexicon entries from (question, gold query) pairs with MRS: ``verifier axioms induce``.

The engine behind the command, in four forward steps:

1. :func:`read_pairs` reads a JSONL file of pairs (bad lines are counted, never fatal).
2. :func:`align` turns each pair into the *words* of its question (lemma, part of speech and
   kind of every content predicate of its MRS readings, minus the predicates the settings
   skip) and the *symbols* of its gold query (properties, classes asked with instance of,
   items asked as the value of a property).
3. :func:`associations` counts words against symbols over all pairs and keeps the pairs
   with enough support, pointwise mutual information, log-likelihood ratio (G2) and
   precision (:class:`InduceSettings`, from ``verifier/_data/induce.yaml``).
4. :func:`propose` turns each association into a lexicon entry: the template comes from the
   word's kind and the symbol's kind (the settings' ``templates`` table); with a
   :data:`Checker` (a verifier), each candidate template is tried on supporting pairs and the
   one that makes most of them accepted wins, and the accepted pairs become the entry's
   examples.  :func:`pack_text` writes the result as a lexicon pack in the shipped format.

No English is written here: what is skipped and which templates are tried are data.
"""

from __future__ import annotations

import fnmatch
import json
import logging
import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import yaml

from parsers.mrs import MrsError, predicate_info, read_simplemrs
from parsers.sparql import parse_query
from verifier.axioms.model import Example, Lexicon, LexiconEntry, Pack
from verifier.lexical import lemma_keys
from verifier.logic import IRI, atoms
from verifier.namespaces import wikidata_id

__all__ = [
    "InduceSettings", "InduceError", "Pair", "ReadCounts", "Word", "Symbol", "AlignedPair",
    "AlignCounts", "Association", "Proposal", "InduceResult", "Checker", "SETTINGS_PATH",
    "load_settings", "read_pairs", "align", "associations", "propose", "pack_text",
    "symbols_of_query", "words_of_readings", "shipped_link", "label_names_word",
]

log = logging.getLogger(__name__)

#: The shipped settings.
SETTINGS_PATH = Path(__file__).resolve().parents[1] / "_data" / "induce.yaml"

#: Kinds of symbol a query yields (see ``templates`` in the settings).
SYMBOL_KINDS = ("property", "class", "value")


class InduceError(ValueError):
    """The input cannot be used at all (no file, no pair with the needed fields, bad settings)."""


@dataclass(frozen=True)
class InduceSettings:
    """Thresholds and tables of the induction (``verifier/_data/induce.yaml`` documents each)."""

    min_support: int = 3
    min_pmi: float = 1.0
    min_llr: float = 10.0
    min_precision: float = 0.2
    max_symbols_per_word: int = 3
    max_entries: int = 300
    skip_shipped: bool = True
    skip_label_named: bool = True
    check_pairs: int = 4
    require_gain: bool = True
    examples_per_entry: int = 3
    skip_predicates: tuple[str, ...] = ()
    parts_of_speech: Mapping[str, str] = field(default_factory=dict)
    relational_senses: tuple[str, ...] = ()
    class_properties: tuple[str, ...] = ()
    templates: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)

    def candidates(self, word_kind: str, symbol_kind: str) -> tuple[str, ...]:
        """The templates to try for a word of ``word_kind`` naming a symbol of ``symbol_kind``."""
        return tuple(self.templates.get(word_kind, {}).get(symbol_kind, ()))


_NUMBER_FIELDS = {"min_support": int, "min_pmi": float, "min_llr": float, "min_precision": float,
                  "max_symbols_per_word": int, "max_entries": int, "check_pairs": int,
                  "examples_per_entry": int}
_BOOL_FIELDS = ("skip_shipped", "skip_label_named", "require_gain")


def load_settings(path: str | Path | None = None, **overrides: Any) -> InduceSettings:
    """The settings of ``path`` (default: the shipped ``induce.yaml``), with ``overrides``
    (``None`` values ignored).  Raises :class:`InduceError` on a bad file or value."""
    p = Path(path) if path is not None else SETTINGS_PATH
    try:
        data = yaml.safe_load(p.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as e:
        raise InduceError(f"{p}: cannot read the induction settings: {e}") from None
    if not isinstance(data, dict):
        raise InduceError(f"{p}: the induction settings are a mapping")
    data = {**data, **{k: v for k, v in overrides.items() if v is not None}}
    known = set(InduceSettings.__dataclass_fields__) | {"version", "doc"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise InduceError(f"{p}: unknown setting(s) {', '.join(unknown)}")
    kw: dict[str, Any] = {}
    for k, typ in _NUMBER_FIELDS.items():
        if k in data:
            v = data[k]
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
                raise InduceError(f"{p}: {k} must be a non-negative number, not {v!r}")
            kw[k] = typ(v)
    for k in _BOOL_FIELDS:
        if k in data:
            if not isinstance(data[k], bool):
                raise InduceError(f"{p}: {k} is true or false")
            kw[k] = data[k]
    for k in ("skip_predicates", "relational_senses", "class_properties"):
        v = data.get(k) or []
        if not isinstance(v, list) or not all(isinstance(s, str) for s in v):
            raise InduceError(f"{p}: {k} is a list of strings")
        kw[k] = tuple(v)
    pos = data.get("parts_of_speech") or {}
    if not isinstance(pos, dict) or not all(isinstance(v, str) for v in pos.values()):
        raise InduceError(f"{p}: parts_of_speech maps a part of speech to a kind of word")
    kw["parts_of_speech"] = {str(k): v for k, v in pos.items()}
    tpl = data.get("templates") or {}
    table: dict[str, dict[str, tuple[str, ...]]] = {}
    if not isinstance(tpl, dict):
        raise InduceError(f"{p}: templates maps a kind of word to kinds of symbol")
    for wk, by_sym in tpl.items():
        if not isinstance(by_sym, dict):
            raise InduceError(f"{p}: templates.{wk} maps kinds of symbol to lists of templates")
        for sk, names in by_sym.items():
            if sk not in SYMBOL_KINDS:
                raise InduceError(f"{p}: templates.{wk}.{sk}: the kinds of symbol are {', '.join(SYMBOL_KINDS)}")
            if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
                raise InduceError(f"{p}: templates.{wk}.{sk} is a list of template names")
            table.setdefault(str(wk), {})[sk] = tuple(names)
    kw["templates"] = table
    return InduceSettings(**kw)


# --------------------------------------------------------------------------------------------
# 1. pairs
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pair:
    """One (question, gold query) pair; ``id`` is the record's id or its line number."""

    id: str
    question: str
    sparql: str


@dataclass(frozen=True)
class ReadCounts:
    """What :func:`read_pairs` saw: lines read, pairs kept, lines skipped and why."""

    lines: int = 0
    pairs: int = 0
    bad_json: int = 0
    missing_fields: int = 0
    duplicates: int = 0


def read_pairs(path: str | Path, *, question_field: str = "question",
               sparql_field: str = "sparql") -> tuple[list[Pair], ReadCounts]:
    """The pairs of a JSONL file (one object per line with the two fields); lines that are
    not JSON objects or lack a field are counted and skipped, a repeated question is kept
    once.  Raises :class:`InduceError` when the file cannot be read or no line has both
    fields (naming the fields the first object has)."""
    p = Path(path)
    if not p.is_file():
        raise InduceError(f"{p}: no such file")
    pairs: list[Pair] = []
    seen: set[str] = set()
    c = Counter()
    first_keys: list[str] | None = None
    try:
        with p.open(encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                c["lines"] += 1
                try:
                    d = json.loads(line)
                except json.JSONDecodeError:
                    d = None
                if not isinstance(d, dict):
                    c["bad_json"] += 1
                    continue
                if first_keys is None:
                    first_keys = sorted(d)
                q, s = d.get(question_field), d.get(sparql_field)
                if not isinstance(q, str) or not q.strip() or not isinstance(s, str) or not s.strip():
                    c["missing_fields"] += 1
                    continue
                key = " ".join(q.split())
                if key in seen:
                    c["duplicates"] += 1
                    continue
                seen.add(key)
                pairs.append(Pair(str(d.get("id", f"line {n}")), q, s))
    except (OSError, UnicodeDecodeError) as e:
        raise InduceError(f"{p}: cannot read: {e}") from None
    counts = ReadCounts(c["lines"], len(pairs), c["bad_json"], c["missing_fields"], c["duplicates"])
    if not pairs:
        has = f" (the first object has: {', '.join(first_keys)})" if first_keys else ""
        raise InduceError(f"{p}: no line has both {question_field!r} and {sparql_field!r}{has}")
    return pairs, counts


# --------------------------------------------------------------------------------------------
# 2. alignment: words of the question, symbols of the query
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Word:
    """A question word: the lemma and part of speech of a content predicate, and its kind
    (``noun``, ``relational_noun``, ``verb``, ``adjective``, ``preposition``)."""

    lemma: str
    pos: str
    kind: str

    def __str__(self) -> str:
        return f"{self.lemma}/{self.pos}"


@dataclass(frozen=True, order=True)
class Symbol:
    """A symbol of a gold query: ``kind`` is ``property``, ``class`` or ``value`` (an item
    asked as the value of the property ``via``)."""

    symbol: str
    kind: str
    via: str = ""

    def __str__(self) -> str:
        return f"{self.symbol} via {self.via}" if self.via else self.symbol


@dataclass(frozen=True)
class AlignedPair:
    """A pair with the words of its question and the symbols of its query."""

    pair: Pair
    words: frozenset[Word]
    symbols: frozenset[Symbol]


@dataclass(frozen=True)
class AlignCounts:
    """What :func:`align` saw: pairs aligned, and pairs skipped and why."""

    aligned: int = 0
    no_mrs: int = 0
    no_reading: int = 0
    bad_sparql: int = 0
    no_symbol: int = 0
    no_word: int = 0


def words_of_readings(readings: Sequence[str], settings: InduceSettings) -> frozenset[Word]:
    """The words of a question: every content predicate of any of its readings whose part of
    speech the settings take and that they do not skip; the kind of a noun whose sense is a
    relational one is ``relational_noun``.  Readings that cannot be read are ignored."""
    out: set[Word] = set()
    for text in readings:
        try:
            m = read_simplemrs(text)
        except (MrsError, ValueError) as e:
            log.debug("unreadable reading skipped: %s", e)
            continue
        for ep in m.eps:
            info = predicate_info(ep.pred)
            if info.is_abstract or info.is_quantifier or info.pos not in settings.parts_of_speech:
                continue
            if any(fnmatch.fnmatchcase(info.pred, pat) for pat in settings.skip_predicates):
                continue
            lemma = info.lemma.casefold().strip()
            if not lemma or not any(ch.isalpha() for ch in lemma):
                continue
            kind = settings.parts_of_speech[info.pos]
            sense = (info.sense or "").split("-")[0]
            if info.pos == "n" and sense in settings.relational_senses:
                kind = "relational_noun"
            out.add(Word(lemma, info.pos, kind))
    return frozenset(out)


def symbols_of_query(sparql: str, settings: InduceSettings) -> frozenset[Symbol]:
    """The symbols of a query: each Wikidata property (as ``wdt:P…``), each class asked with a
    class property (``wdt:P31 wd:Q5``: ``wd:Q5``, kind ``class``), and each item asked as the
    value of another property (``wdt:P21 wd:Q6581072``: the item via ``wdt:P21``).  The parser
    writes a property path as atoms of its steps (``wdt:P31/wdt:P279* wd:Q5``: ``wdt:P31``
    and ``wdt:P279*``, whose object is the class).  Raises the parser's error (a
    ``ValueError``) when the query cannot be parsed."""
    q = parse_query(sparql)
    out: set[Symbol] = set()
    for a in atoms(q.pattern):
        pid = wikidata_id(a.pred.rstrip("*+"))
        if not pid or not pid.startswith("P"):
            continue
        out.add(Symbol(f"wdt:{pid}", "property"))
        obj = a.args[-1] if len(a.args) == 2 else None
        item = wikidata_id(obj.value) if isinstance(obj, IRI) else None
        if not item or not item.startswith("Q"):
            continue
        if pid in settings.class_properties:
            out.add(Symbol(f"wd:{item}", "class"))
        else:
            out.add(Symbol(f"wd:{item}", "value", f"wdt:{pid}"))
    return frozenset(out)


def align(pairs: Iterable[Pair], readings_of: Callable[[str], Sequence[str] | None],
          settings: InduceSettings, *, progress: Callable[[int], None] | None = None,
          ) -> tuple[list[AlignedPair], AlignCounts]:
    """The words and symbols of each pair; ``readings_of(question)`` gives its SimpleMRS
    readings (``None`` when the question is unknown).  A pair without MRS, without a reading,
    whose query cannot be parsed or that yields no word or no symbol is counted and skipped."""
    out: list[AlignedPair] = []
    c = Counter()
    for i, p in enumerate(pairs, 1):
        if progress is not None:
            progress(i)
        readings = readings_of(p.question)
        if readings is None:
            c["no_mrs"] += 1
            continue
        if not readings:
            c["no_reading"] += 1
            continue
        try:
            symbols = symbols_of_query(p.sparql, settings)
        except (ValueError, RecursionError) as e:
            c["bad_sparql"] += 1
            log.debug("%s: query skipped: %s", p.id, e)
            continue
        if not symbols:
            c["no_symbol"] += 1
            continue
        words = words_of_readings(readings, settings)
        if not words:
            c["no_word"] += 1
            continue
        out.append(AlignedPair(p, words, symbols))
    counts = AlignCounts(len(out), c["no_mrs"], c["no_reading"], c["bad_sparql"], c["no_symbol"],
                         c["no_word"])
    return out, counts


# --------------------------------------------------------------------------------------------
# 3. association statistics
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Association:
    """How a word and a symbol go together over the aligned pairs: ``support`` pairs have
    both, ``word_count`` the word, ``symbol_count`` the symbol, of ``total``; ``pmi`` (log2),
    ``llr`` (G2) and ``precision`` (support / word_count); ``pairs`` the supporting pairs."""

    word: Word
    symbol: Symbol
    support: int
    word_count: int
    symbol_count: int
    total: int
    pmi: float
    llr: float
    precision: float
    pairs: tuple[Pair, ...] = ()


def _llr(k11: int, k12: int, k21: int, k22: int) -> float:
    """Dunning's G2 of a 2x2 table (0 when the cell is below what independence predicts)."""
    def h(*ks: int) -> float:
        n = sum(ks)
        return sum(k * math.log(k / n) for k in ks if k > 0)
    g2 = 2 * (h(k11, k12, k21, k22) - h(k11 + k12, k21 + k22) - h(k11 + k21, k12 + k22))
    return max(0.0, g2)


def associations(aligned: Sequence[AlignedPair], settings: InduceSettings) -> list[Association]:
    """The (word, symbol) associations that pass the settings' thresholds, at most
    ``max_symbols_per_word`` per word, best G2 first.  A word counts once per pair whatever its
    kind (the kind of most of its pairs is kept)."""
    n = len(aligned)
    word_n: Counter = Counter()
    sym_n: Counter = Counter()
    joint: dict[tuple[tuple[str, str], Symbol], list[Pair]] = defaultdict(list)
    kinds: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for ap in aligned:
        keys = {}
        for w in ap.words:
            keys.setdefault((w.lemma, w.pos), set()).add(w.kind)
        for k, ks in keys.items():
            word_n[k] += 1
            kinds[k].update(ks)
        for s in ap.symbols:
            sym_n[s] += 1
        for k in keys:
            for s in ap.symbols:
                joint[(k, s)].append(ap.pair)
    out: list[Association] = []
    for (k, s), ps in joint.items():
        k11 = len(ps)
        if k11 < settings.min_support:
            continue
        cw, cs = word_n[k], sym_n[s]
        pmi = math.log2(k11 * n / (cw * cs))
        precision = k11 / cw
        if pmi < settings.min_pmi or precision < settings.min_precision:
            continue
        llr = _llr(k11, cw - k11, cs - k11, n - cw - cs + k11)
        if llr < settings.min_llr:
            continue
        word = Word(k[0], k[1], kinds[k].most_common(1)[0][0])
        out.append(Association(word, s, k11, cw, cs, n, round(pmi, 3), round(llr, 2),
                               round(precision, 3), tuple(ps)))
    out.sort(key=lambda a: (-a.llr, -a.support, str(a.word), str(a.symbol)))
    per_word: Counter = Counter()
    kept = []
    for a in out:
        key = (a.word.lemma, a.word.pos)
        if per_word[key] >= settings.max_symbols_per_word:
            continue
        per_word[key] += 1
        kept.append(a)
    return kept


# --------------------------------------------------------------------------------------------
# 4. proposals
# --------------------------------------------------------------------------------------------

#: Verifies a pair with a pack: ``check(pack, question, sparql)`` -> (accepted, verdict).
Checker = Callable[[Pack, str, str], tuple[bool, str]]


@dataclass(frozen=True)
class Proposal:
    """A proposed entry: the association, the template chosen among ``candidates``, and (when
    checked) how many of the ``checked`` supporting pairs the pack accepts with the entry and
    without it, and the accepted pairs written as examples."""

    association: Association
    template: str
    candidates: tuple[str, ...]
    entry: LexiconEntry
    examples: tuple[Example, ...] = ()
    checked: int = 0
    accepted_with: int = 0
    accepted_without: int = 0


@dataclass(frozen=True)
class InduceResult:
    """The proposals and what was set aside: ``skipped`` counts associations by reason
    (``shipped``: the packs already have the entry; ``label_named``: a label names the word;
    ``no_template``: no template for the word's and the symbol's kinds; ``no_gain``: the entry
    made no supporting pair accepted; ``over_max``: beyond ``max_entries``)."""

    proposals: tuple[Proposal, ...]
    skipped: Mapping[str, int]
    associations: int


def shipped_link(pack: Pack, w: Word, s: Symbol) -> bool:
    """Whether a lexicon of the pack links the word to the symbol (any template)."""
    sid = wikidata_id(s.symbol)
    for e in pack.entries_for(w.lemma):
        if e.pos is not None and e.pos != w.pos:
            continue
        if any(wikidata_id(x) == sid for x in e.symbols):
            return True
    return False


def label_names_word(labels: Any, w: Word, s: Symbol) -> bool:
    """Whether a label or an alias of the symbol has the word's matching keys among its own."""
    if labels is None:
        return False
    keys = set(lemma_keys(w.lemma))
    if not keys:
        return False
    names = getattr(labels, "names", {}).get(wikidata_id(s.symbol) or "", [])
    return any(keys <= set(n.keys) for n in names)


def _entry(a: Association, template: str) -> LexiconEntry:
    s = a.symbol
    doc = (f"induced: {a.support} of {a.word_count} pairs with '{a.word.lemma}' ({a.word.kind}) "
           f"have {s} in the query ({a.symbol_count} of {a.total} pairs); PMI {a.pmi:.2f}, "
           f"G2 {a.llr:.1f}")
    return LexiconEntry(words=(a.word.lemma,), template=template, symbols=(s.symbol,), pos=a.word.pos,
                        via=(s.via,) if s.via else (), doc=doc, support=a.support)


def _with_entry(pack: Pack, entry: LexiconEntry) -> Pack:
    return replace(pack, lexicons=pack.lexicons + (Lexicon("induced-trial", "", (entry,)),))


def propose(assocs: Sequence[Association], pack: Pack, settings: InduceSettings, *,
            labels: Any = None, check: Checker | None = None,
            progress: Callable[[int, int], None] | None = None) -> InduceResult:
    """Proposals for the associations (best first, at most ``max_entries``).

    Associations the pack's lexicons already cover, or whose word a label of the symbol
    names (with ``labels``, a :class:`verifier.lexical.LabelIndex`), are skipped as the
    settings say.  Without ``check`` the first candidate template is taken and the first
    supporting pairs become examples (verdict ``faithful``, unchecked).  With ``check``, up to
    ``check_pairs`` supporting pairs are verified without the entry and with it through each
    candidate template; the template accepting most wins (the earlier among equals), and with
    ``require_gain`` an entry that makes no pair accepted that was not already is dropped.
    """
    skipped: Counter = Counter()
    out: list[Proposal] = []
    baseline: dict[str, tuple[bool, str]] = {}
    todo = []
    for a in assocs:
        cands = tuple(t for t in settings.candidates(a.word.kind, a.symbol.kind) if t in pack.templates)
        if not cands:
            skipped["no_template"] += 1
        elif settings.skip_shipped and shipped_link(pack, a.word, a.symbol):
            skipped["shipped"] += 1
        elif settings.skip_label_named and label_names_word(labels, a.word, a.symbol):
            skipped["label_named"] += 1
        else:
            todo.append((a, cands))
    for i, (a, cands) in enumerate(todo, 1):
        if progress is not None:
            progress(i, len(todo))
        if len(out) >= settings.max_entries:
            skipped["over_max"] += 1
            continue
        if check is None:
            entry = _entry(a, cands[0])
            exs = tuple(Example(p.question, p.sparql, "faithful", note="unchecked")
                        for p in a.pairs[:settings.examples_per_entry])
            out.append(Proposal(a, cands[0], cands, replace(entry, examples=exs), exs))
            continue
        trial = a.pairs[:max(settings.check_pairs, settings.examples_per_entry)]
        for p in trial:
            if p.id not in baseline:
                baseline[p.id] = check(pack, p.question, p.sparql)
        best = None
        for t in cands:
            entry = _entry(a, t)
            trial_pack = _with_entry(pack, entry)
            results = [(p, check(trial_pack, p.question, p.sparql)) for p in trial]
            accepted = [(p, r) for p, r in results if r[0]]
            gained = [(p, r) for p, r in accepted if not baseline[p.id][0]]
            score = (len(gained), len(accepted))
            if best is None or score > best[0]:
                best = (score, t, entry, accepted, gained)
        (n_gain, n_acc), t, entry, accepted, gained = best
        if settings.require_gain and n_gain == 0:
            skipped["no_gain"] += 1
            continue
        chosen = (gained + [x for x in accepted if x not in gained])[:settings.examples_per_entry]
        exs = tuple(Example(p.question, p.sparql, r[1]) for p, r in chosen)
        n_without = sum(1 for p in trial if baseline[p.id][0])
        out.append(Proposal(a, t, cands, replace(entry, examples=exs), exs, len(trial), n_acc, n_without))
    return InduceResult(tuple(out), dict(skipped), len(assocs))


def pack_text(result: InduceResult, *, name: str = "induced", doc: str = "") -> str:
    """The proposals as a lexicon pack file (the format of ``axioms/lexicons/*.yaml``: one
    entry per proposal with its word, part of speech, template, symbol, ``via``, ``support``,
    a ``doc`` line with the statistics, and its examples)."""
    entries = []
    for pr in result.proposals:
        e = pr.entry
        d: dict[str, Any] = {"words": list(e.words), "pos": e.pos, "template": e.template,
                             "symbol": e.symbols[0]}
        if e.via:
            d["via"] = e.via[0]
        d["support"] = e.support
        doc_line = e.doc
        if pr.checked:
            doc_line += (f"; accepted {pr.accepted_with} of {pr.checked} supporting pairs with it, "
                         f"{pr.accepted_without} without (templates tried: {', '.join(pr.candidates)})")
        d["doc"] = doc_line
        d["examples"] = [{"question": x.question, "sparql": " ".join(x.sparql.split()), "verdict": x.verdict,
                          **({"note": x.note} if x.note else {})} for x in pr.examples]
        entries.append(d)
    data = {"version": 1, "name": name,
            "doc": doc or "Lexicon entries proposed by `verifier axioms induce`: review each one "
                          "(word, template, symbol, support, examples) before use.",
            "entries": entries}
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
