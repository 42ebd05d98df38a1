"""Out-of-ontology split: the hallucination simulation framework of Bacciu et al.
("Handling ontology gaps in semantic parsing", background doc section 2).

The KG symbols (Wikidata ``P``/``Q`` ids referenced by gold queries) are split into *known*
and *unknown*.  A symbol used by at most ``max_occurrences`` question/query pairs is a
candidate for unknown.  Pairs linked by shared candidate symbols form connected components;
seeded-shuffled components are assigned whole to one of three disjoint unknown sets
(``detect_train``, ``detect_dev``, ``detect_test``) until each reaches its target number of
pairs, so an out-of-ontology pair's unknown symbols always belong to exactly one set.  The
remaining components stay known.

Resulting splits (field ``split``):

* ``parser_train``: in-ontology pairs the generator is trained on (all symbols known;
  includes every pair of a known rare symbol, so that known symbols are seen in training);
* ``detect_train`` / ``detect_dev``: in-ontology pairs of the parser's *validation* split
  (never its training split) + out-of-ontology pairs with unknown symbols of that set +
  out-of-domain utterances;
* ``detect_test``: in-ontology pairs of the parser's *test* split + out-of-ontology pairs of
  the test unknown set + out-of-domain utterances.

With ``require_seen`` (default) an in-ontology validation/test pair is only chosen when every
symbol it uses also occurs in ``parser_train``: "in-ontology" then means that the parser saw
every symbol it needs.

Record fields: ``id, question, sparql, label, category, split, unknown_symbols`` plus
``symbols`` (all KG ids of the gold query), ``dataset`` and ``parser_split`` (``train``,
``validation``, ``test``, or ``none`` for out-of-domain).  ``category`` is ``in_ontology``,
``out_of_ontology`` or ``out_of_domain``; ``label`` is 1 for inputs that must not be served
(out-of-ontology, out-of-domain), 0 for in-ontology inputs (whether the parser gets them
right is only known after generation).

Everything is deterministic in ``SplitConfig.seed``.  :func:`check_split` verifies the
properties above and raises :class:`SplitError` listing every violation.

Typical use::

    pairs = load_pairs(data_dir)                  # de-duplicated across files
    ood = load_ood_utterances(data_dir)
    split = build_ontology_split(pairs, ood, SplitConfig(seed=0))
    check_split(split)
    split.write(out_dir)                          # ontology_split.jsonl + manifest.json
    split = read_ontology_split(out_dir)
"""

from __future__ import annotations

import dataclasses
import json
import logging
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from verifier.benchmark.unionfind import UnionFind

__all__ = [
    "DEFAULT_SOURCES", "OOD_FILE", "SPLITS", "DETECT_SPLITS", "CATEGORIES",
    "SourcePair", "SplitConfig", "Example", "OntologySplit", "SplitError",
    "extract_symbols", "normalize_question", "load_pairs", "load_ood_utterances",
    "build_ontology_split", "check_split", "read_ontology_split",
]

log = logging.getLogger(__name__)

#: files of ``shared/data`` used by default, in priority order for de-duplication
DEFAULT_SOURCES: tuple[str, ...] = (
    "lcquad2/test.jsonl", "lcquad2/train_subset.jsonl", "qald9plus/train.jsonl",
    "qald9plus/test.jsonl", "qald10/train.jsonl", "wikiwebquestions/train.jsonl",
    "wikiwebquestions/dev.jsonl", "spinach/dev.jsonl", "spinach/test.jsonl",
    "qald7/train.jsonl", "qald7/test.jsonl",
)
OOD_FILE = "ood/utterances.txt"
SPLITS: tuple[str, ...] = ("parser_train", "detect_train", "detect_dev", "detect_test")
DETECT_SPLITS: tuple[str, ...] = ("detect_train", "detect_dev", "detect_test")
CATEGORIES: tuple[str, ...] = ("in_ontology", "out_of_ontology", "out_of_domain")
SPLIT_FILE = "ontology_split.jsonl"
MANIFEST_FILE = "manifest.json"

_SYMBOL_RE = re.compile(
    r"(?:\b(?:wd|wdt|wds|wdv|wdref|wdno|p|ps|psv|psn|pq|pqv|pqn|pr|prv|prn)"
    r":|http://www\.wikidata\.org/(?:entity/(?:statement/)?|prop/(?:[a-z\-]+/)*))"
    r"([PQ][1-9]\d*)\b")
_PUNCT_END = re.compile(r"[\s?.!]+$")


class SplitError(ValueError):
    """The split violates one of its properties (all violations in the message)."""


def extract_symbols(sparql: str) -> frozenset[str]:
    """Wikidata ``P``/``Q`` ids referenced by a query through the Wikidata prefixes
    (``wd: wdt: p: ps: pq:`` ...) or full ``http://www.wikidata.org/...`` IRIs."""
    return frozenset(_SYMBOL_RE.findall(sparql or ""))


def normalize_question(q: str) -> str:
    """Key for de-duplication: case-folded, whitespace collapsed, final ``?.!`` dropped."""
    return _PUNCT_END.sub("", " ".join(q.casefold().split()))


@dataclass(frozen=True)
class SourcePair:
    """A gold question/query pair of a source dataset."""

    id: str
    question: str
    sparql: str
    symbols: frozenset[str]
    dataset: str = ""


@dataclass(frozen=True)
class SplitConfig:
    """How to build the split.

    Attributes:
        seed: seeds every random choice.
        max_occurrences: a symbol used by at most this many pairs is a candidate for unknown.
        kinds: symbol kinds that may become unknown (``"P"`` properties, ``"Q"`` items).
        unknown_pairs: target number of out-of-ontology pairs for detect train / dev / test.
        validation_pairs: in-ontology pairs of the parser's validation split (shared between
            detect_train and detect_dev).
        test_pairs: in-ontology pairs of the parser's test split (detect_test).
        detect_dev_fraction: share of the validation pairs that go to detect_dev.
        ood_pairs: out-of-domain utterances for detect train / dev / test.
        require_seen: in-ontology validation/test pairs only use symbols of parser_train.
        stratify: out-of-ontology and in-ontology detection pairs follow the same source
            dataset mix (so a detector cannot tell them apart by the dataset's style).
    """

    seed: int = 0
    max_occurrences: int = 2
    kinds: tuple[str, ...] = ("P", "Q")
    unknown_pairs: tuple[int, int, int] = (500, 250, 500)
    validation_pairs: int = 750
    test_pairs: int = 500
    detect_dev_fraction: float = 1 / 3
    ood_pairs: tuple[int, int, int] = (500, 250, 500)
    require_seen: bool = True
    stratify: bool = True

    def __post_init__(self) -> None:
        if self.max_occurrences < 1:
            raise ValueError("max_occurrences must be >= 1")
        if not set(self.kinds) <= {"P", "Q"} or not self.kinds:
            raise ValueError("kinds must be a non-empty subset of ('P', 'Q')")
        if len(self.unknown_pairs) != 3 or len(self.ood_pairs) != 3:
            raise ValueError("unknown_pairs and ood_pairs need three sizes (train, dev, test)")
        if min(*self.unknown_pairs, *self.ood_pairs, self.validation_pairs, self.test_pairs) < 0:
            raise ValueError("sizes must be >= 0")
        if not 0.0 < self.detect_dev_fraction < 1.0:
            raise ValueError("detect_dev_fraction must be in (0, 1)")

    def to_dict(self) -> dict:
        """JSON-ready dict."""
        d = dataclasses.asdict(self)
        return {k: list(v) if isinstance(v, tuple) else v for k, v in d.items()}

    @classmethod
    def from_dict(cls, d: Mapping) -> "SplitConfig":
        """Inverse of :meth:`to_dict`."""
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in d.items()})


@dataclass(frozen=True)
class Example:
    """One record of the split (one JSONL line)."""

    id: str
    question: str
    sparql: str | None
    label: int
    category: str
    split: str
    unknown_symbols: tuple[str, ...] = ()
    symbols: tuple[str, ...] = ()
    dataset: str = ""
    parser_split: str = "none"

    def to_dict(self) -> dict:
        """JSON-ready dict (the record format)."""
        d = dataclasses.asdict(self)
        d["unknown_symbols"], d["symbols"] = list(self.unknown_symbols), list(self.symbols)
        return d

    @classmethod
    def from_dict(cls, d: Mapping) -> "Example":
        """Inverse of :meth:`to_dict` (extra keys ignored)."""
        names = {f.name for f in dataclasses.fields(cls)}
        kw = {k: v for k, v in d.items() if k in names}
        kw["unknown_symbols"] = tuple(kw.get("unknown_symbols", ()))
        kw["symbols"] = tuple(kw.get("symbols", ()))
        return cls(**kw)


@dataclass(frozen=True)
class OntologySplit:
    """The split: all examples, the unknown symbol sets per detection split, the config."""

    examples: tuple[Example, ...]
    unknown: Mapping[str, frozenset[str]]
    config: SplitConfig
    stats: Mapping[str, int] = field(default_factory=dict)

    def by_split(self, name: str) -> list[Example]:
        """Examples of one split (``parser_train``, ``detect_train`` ...)."""
        if name not in SPLITS:
            raise KeyError(f"unknown split {name!r}; choose from {SPLITS}")
        return [e for e in self.examples if e.split == name]

    @property
    def all_unknown(self) -> frozenset[str]:
        """Union of the unknown sets."""
        return frozenset().union(*self.unknown.values()) if self.unknown else frozenset()

    def sizes(self) -> dict[str, dict[str, int]]:
        """``{split: {category: count, "total": count}}``."""
        out: dict[str, dict[str, int]] = {}
        for s in SPLITS:
            c = Counter(e.category for e in self.examples if e.split == s)
            out[s] = {k: c.get(k, 0) for k in CATEGORIES} | {"total": sum(c.values())}
        return out

    def write(self, out_dir: str | Path) -> Path:
        """Write ``ontology_split.jsonl`` (all records) and ``manifest.json`` (config, sizes,
        unknown sets, stats) to ``out_dir``."""
        d = Path(out_dir)
        d.mkdir(parents=True, exist_ok=True)
        with (d / SPLIT_FILE).open("w", encoding="utf-8") as f:
            for e in self.examples:
                f.write(json.dumps(e.to_dict(), ensure_ascii=False) + "\n")
        manifest = {"config": self.config.to_dict(), "sizes": self.sizes(),
                    "unknown": {k: sorted(v) for k, v in self.unknown.items()},
                    "stats": dict(self.stats)}
        (d / MANIFEST_FILE).write_text(json.dumps(manifest, indent=1))
        return d


def read_ontology_split(directory: str | Path) -> OntologySplit:
    """Read a split written by :meth:`OntologySplit.write`."""
    d = Path(directory)
    if not (d / SPLIT_FILE).is_file() or not (d / MANIFEST_FILE).is_file():
        raise FileNotFoundError(f"{d} holds no ontology split ({SPLIT_FILE}, {MANIFEST_FILE})")
    manifest = json.loads((d / MANIFEST_FILE).read_text())
    with (d / SPLIT_FILE).open(encoding="utf-8") as f:
        examples = tuple(Example.from_dict(json.loads(line)) for line in f if line.strip())
    return OntologySplit(examples, {k: frozenset(v) for k, v in manifest["unknown"].items()},
                         SplitConfig.from_dict(manifest["config"]), manifest.get("stats", {}))


# -- loading ----------------------------------------------------------------------------------

def iter_source_pairs(data_dir: str | Path, sources: Sequence[str] = DEFAULT_SOURCES):
    """Unique gold pairs of the ``sources`` files under ``data_dir``, in file order:
    ``(rel, line number, record, question, sparql, symbols)``.  Records without question or
    query are skipped; a question seen before (by :func:`normalize_question`, in ``sources``
    order) is skipped and counted per file in the log.  Symbols come from the record's
    ``wikidata_ids`` when present, else from :func:`extract_symbols`.  Raises
    ``FileNotFoundError`` for a missing file."""
    base = Path(data_dir)
    seen: set[str] = set()
    for rel in sources:
        path = base / rel
        if not path.is_file():
            raise FileNotFoundError(f"source file missing: {path}")
        dup = 0
        with path.open(encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                r = json.loads(line)
                q, s = (r.get("question") or "").strip(), (r.get("sparql") or "").strip()
                if not q or not s:
                    continue
                key = normalize_question(q)
                if key in seen:
                    dup += 1
                    continue
                seen.add(key)
                ids = r.get("wikidata_ids")
                syms = frozenset(ids) if isinstance(ids, list) else extract_symbols(s)
                yield rel, n, r, q, s, syms
        if dup:
            log.info("%s: %d duplicate question(s) skipped", rel, dup)


def load_pairs(data_dir: str | Path, sources: Sequence[str] = DEFAULT_SOURCES) -> list[SourcePair]:
    """Gold pairs of the ``sources`` files under ``data_dir``, de-duplicated by
    :func:`normalize_question` (the first occurrence, in ``sources`` order, wins).  Symbols come
    from the record's ``wikidata_ids`` when present, else from :func:`extract_symbols`."""
    return [SourcePair(str(r.get("id", f"{rel}:{n}")), q, s, syms, str(r.get("dataset", rel.split("/")[0])))
            for rel, n, r, q, s, syms in iter_source_pairs(data_dir, sources)]


def load_ood_utterances(data_dir: str | Path, rel: str = OOD_FILE) -> list[str]:
    """Out-of-domain utterances (one per line), in file order, blank lines dropped."""
    path = Path(data_dir) / rel
    if not path.is_file():
        raise FileNotFoundError(f"out-of-domain file missing: {path}")
    return [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]


# -- building ---------------------------------------------------------------------------------

def _components(pairs: Sequence[SourcePair], candidates: set[str]) -> list[list[int]]:
    uf = UnionFind(len(pairs))
    first: dict[str, int] = {}
    for i, p in enumerate(pairs):
        for s in sorted(p.symbols & candidates):
            if s in first:
                uf.union(first[s], i)
            else:
                first[s] = i
    groups: dict[int, list[int]] = {}
    for i, p in enumerate(pairs):
        if p.symbols & candidates:
            groups.setdefault(uf.find(i), []).append(i)
    return [groups[k] for k in sorted(groups)]


def _quotas(total: int, weights: Mapping[str, float]) -> dict[str, int]:
    """``total`` shared out in proportion to ``weights`` (largest remainder, ties by name)."""
    wsum = sum(weights.values())
    if total <= 0 or wsum <= 0:
        return {k: 0 for k in weights}
    raw = {k: total * w / wsum for k, w in weights.items()}
    out = {k: int(v) for k, v in raw.items()}
    rest = sorted(weights, key=lambda k: (-(raw[k] - out[k]), k))
    for k in rest[: total - sum(out.values())]:
        out[k] += 1
    return out


def build_ontology_split(pairs: Sequence[SourcePair], ood_utterances: Sequence[str],
                         config: SplitConfig = SplitConfig()) -> OntologySplit:
    """Build the split (see the module docstring).  Deterministic in ``config.seed``.

    Steps: (1) candidates and their components; (2) the pool of possible in-ontology
    evaluation pairs = pairs without a candidate symbol; (3) components assigned to the
    unknown sets, with per-dataset quotas following the pool's dataset mix when
    ``stratify``; (4) in-ontology validation/test pairs drawn from the pool (matching each
    detection split's out-of-ontology dataset mix when ``stratify``; only pairs whose
    symbols stay seen in parser_train when ``require_seen``); (5) the rest is parser_train;
    (6) out-of-domain utterances.

    Raises:
        ValueError: duplicate pair ids or questions.
    """
    ids = [p.id for p in pairs]
    if len(set(ids)) != len(ids):
        raise ValueError("pair ids are not unique")
    if len({normalize_question(p.question) for p in pairs}) != len(pairs):
        raise ValueError("questions are not unique (de-duplicate with load_pairs)")
    rng = random.Random(config.seed)
    counts = Counter(s for p in pairs for s in p.symbols)
    candidates = {s for s, c in counts.items()
                  if c <= config.max_occurrences and s[:1] in config.kinds}
    comps = _components(pairs, candidates)
    rng.shuffle(comps)
    in_comp = {i for c in comps for i in c}
    pool = [i for i in range(len(pairs)) if i not in in_comp]
    rng.shuffle(pool)
    datasets = sorted({p.dataset for p in pairs})
    pool_mix = Counter(pairs[i].dataset for i in pool)

    # (3) unknown sets: whole components, largest remaining deficit first
    targets = dict(zip(DETECT_SPLITS, config.unknown_pairs))
    if config.stratify:
        quota = {s: _quotas(targets[s], {d: pool_mix.get(d, 0) for d in datasets})
                 for s in DETECT_SPLITS}
    else:
        quota = {s: {d: targets[s] for d in datasets} for s in DETECT_SPLITS}
    assigned: dict[str, list[int]] = {s: [] for s in DETECT_SPLITS}
    used: dict[str, Counter] = {s: Counter() for s in DETECT_SPLITS}
    in_unknown: set[int] = set()
    for comp in comps:
        need = Counter(pairs[i].dataset for i in comp)
        order = sorted(DETECT_SPLITS, key=lambda s: -(targets[s] - len(assigned[s])))
        for s in order:
            if (targets[s] - len(assigned[s]) >= len(comp)
                    and all(used[s][d] + n <= quota[s][d] for d, n in need.items())):
                assigned[s].extend(comp)
                used[s].update(need)
                in_unknown.update(comp)
                break
        if all(len(assigned[s]) >= targets[s] for s in DETECT_SPLITS):
            break
    unknown = {s: frozenset(sym for i in assigned[s] for sym in pairs[i].symbols & candidates)
               for s in DETECT_SPLITS}

    # (4) in-ontology validation / test pairs
    known = [i for i in range(len(pairs)) if i not in in_unknown]
    train_count = Counter(s for i in known for s in pairs[i].symbols)
    n_dev = round(config.validation_pairs * config.detect_dev_fraction)
    in_targets = {"detect_train": config.validation_pairs - n_dev, "detect_dev": n_dev,
                  "detect_test": config.test_pairs}
    if config.stratify:
        in_quota = {s: _quotas(in_targets[s], {d: used[s].get(d, 0) for d in datasets})
                    if assigned[s] else _quotas(in_targets[s], dict(pool_mix))
                    for s in DETECT_SPLITS}
    else:
        in_quota = {s: {d: in_targets[s] for d in datasets} for s in DETECT_SPLITS}
    chosen: dict[str, list[int]] = {s: [] for s in DETECT_SPLITS}
    taken: dict[str, Counter] = {s: Counter() for s in DETECT_SPLITS}
    for i in pool:
        d = pairs[i].dataset
        open_ = [s for s in DETECT_SPLITS
                 if len(chosen[s]) < in_targets[s] and taken[s][d] < in_quota[s].get(d, 0)]
        if not open_:
            if all(len(chosen[s]) >= in_targets[s] for s in DETECT_SPLITS):
                break
            continue
        syms = pairs[i].symbols
        if config.require_seen and any(train_count[s] < 2 for s in syms):
            continue
        s = max(open_, key=lambda s: ((in_targets[s] - len(chosen[s])) / max(in_targets[s], 1),
                                      -DETECT_SPLITS.index(s)))
        for sym in syms:
            train_count[sym] -= 1
        chosen[s].append(i)
        taken[s][d] += 1
    chosen_set = {i for v in chosen.values() for i in v}

    examples: list[Example] = []

    def add(i: int, split: str, category: str, parser_split: str, unk: frozenset[str]) -> None:
        p = pairs[i]
        examples.append(Example(
            id=p.id, question=p.question, sparql=p.sparql,
            label=0 if category == "in_ontology" else 1, category=category, split=split,
            unknown_symbols=tuple(sorted(p.symbols & unk)), symbols=tuple(sorted(p.symbols)),
            dataset=p.dataset, parser_split=parser_split))

    for i in sorted(known):
        if i not in chosen_set:
            add(i, "parser_train", "in_ontology", "train", frozenset())
    for s in DETECT_SPLITS:
        ps = "test" if s == "detect_test" else "validation"
        for i in sorted(chosen[s]):
            add(i, s, "in_ontology", ps, frozenset())
        for i in sorted(assigned[s]):
            add(i, s, "out_of_ontology", ps, unknown[s])

    # (6) out-of-domain utterances (not equal to any KGQA question)
    questions = {normalize_question(p.question) for p in pairs}
    ood: list[str] = []
    seen: set[str] = set()
    for u in ood_utterances:
        k = normalize_question(u)
        if k and k not in questions and k not in seen:
            seen.add(k)
            ood.append(u)
    rng.shuffle(ood)
    pos = 0
    for s, n in zip(DETECT_SPLITS, config.ood_pairs):
        for k, u in enumerate(ood[pos:pos + n]):
            examples.append(Example(id=f"ood-{s}-{k}", question=u, sparql=None, label=1,
                                    category="out_of_domain", split=s, dataset="snips"))
        pos += n

    stats = {"pairs": len(pairs), "symbols": len(counts), "candidate_symbols": len(candidates),
             "candidate_components": len(comps), "pairs_with_candidates": len(in_comp),
             "in_ontology_pool": len(pool), "ood_pool": len(ood)}
    for s in DETECT_SPLITS:
        stats[f"unknown_symbols_{s}"] = len(unknown[s])
        if len(assigned[s]) < targets[s]:
            log.warning("%s: only %d of %d out-of-ontology pairs", s, len(assigned[s]), targets[s])
        if len(chosen[s]) < in_targets[s]:
            log.warning("%s: only %d of %d in-ontology pairs", s, len(chosen[s]), in_targets[s])
    return OntologySplit(tuple(examples), unknown, config, stats)


# -- checking ---------------------------------------------------------------------------------

def check_split(split: OntologySplit) -> None:
    """Verify the split's properties; raise :class:`SplitError` listing every violation.

    * the unknown sets are pairwise disjoint;
    * no ``parser_train`` pair uses an unknown symbol;
    * every out-of-ontology pair uses at least one unknown symbol of its own split's set and
      none of another split's set, and ``unknown_symbols`` says exactly which;
    * in-ontology pairs use no unknown symbol; detect train/dev in-ontology pairs come from the
      parser's validation split, detect test ones from its test split;
    * questions are unique across the whole split (no detection question in parser_train);
    * with ``require_seen``: in-ontology detection pairs only use symbols of parser_train;
    * out-of-domain records carry no query; labels agree with categories.
    """
    errors: list[str] = []
    unk = split.unknown
    names = sorted(unk)
    for a in range(len(names)):
        for b in range(a + 1, len(names)):
            both = unk[names[a]] & unk[names[b]]
            if both:
                errors.append(f"unknown sets {names[a]} and {names[b]} share {sorted(both)[:5]}")
    all_unknown = split.all_unknown
    train_symbols = {s for e in split.examples if e.split == "parser_train" for s in e.symbols}
    seen_q: dict[str, str] = {}
    for e in split.examples:
        if e.split not in SPLITS:
            errors.append(f"{e.id}: unknown split {e.split!r}")
            continue
        if e.category not in CATEGORIES:
            errors.append(f"{e.id}: unknown category {e.category!r}")
            continue
        key = normalize_question(e.question)
        if key in seen_q:
            errors.append(f"{e.id}: question also in {seen_q[key]}")
        seen_q[key] = e.id
        if e.label != (0 if e.category == "in_ontology" else 1):
            errors.append(f"{e.id}: label {e.label} does not match category {e.category}")
        syms = set(e.symbols)
        if e.category == "in_ontology":
            if syms & all_unknown:
                errors.append(f"{e.id} ({e.split}): in-ontology pair uses unknown "
                              f"{sorted(syms & all_unknown)}")
            want = {"parser_train": "train", "detect_train": "validation",
                    "detect_dev": "validation", "detect_test": "test"}[e.split]
            if e.parser_split != want:
                errors.append(f"{e.id}: in-ontology {e.split} pair from parser split "
                              f"{e.parser_split!r}, expected {want!r}")
            if (split.config.require_seen and e.split != "parser_train"
                    and not syms <= train_symbols):
                errors.append(f"{e.id}: symbols {sorted(syms - train_symbols)[:5]} never seen "
                              "in parser_train")
        elif e.category == "out_of_ontology":
            if e.split == "parser_train":
                errors.append(f"{e.id}: out-of-ontology pair in parser_train")
                continue
            own = unk.get(e.split, frozenset())
            if not syms & own:
                errors.append(f"{e.id}: out-of-ontology pair without an unknown symbol of "
                              f"{e.split}")
            other = (syms & all_unknown) - own
            if other:
                errors.append(f"{e.id}: uses unknown symbols of another split {sorted(other)}")
            if set(e.unknown_symbols) != syms & own:
                errors.append(f"{e.id}: unknown_symbols {list(e.unknown_symbols)} should be "
                              f"{sorted(syms & own)}")
        else:
            if e.sparql:
                errors.append(f"{e.id}: out-of-domain record with a query")
            if e.split == "parser_train":
                errors.append(f"{e.id}: out-of-domain record in parser_train")
    if train_symbols & all_unknown:
        errors.append(f"generator training data uses unknown symbols "
                      f"{sorted(train_symbols & all_unknown)[:10]}")
    if errors:
        more = f"\n... and {len(errors) - 20} more" if len(errors) > 20 else ""
        raise SplitError(f"{len(errors)} split violation(s):\n" + "\n".join(errors[:20]) + more)


def main(argv: Iterable[str] | None = None) -> int:
    """``python -m verifier.benchmark.ontology_split --data DIR --out DIR [--seed N]``."""
    import argparse

    ap = argparse.ArgumentParser(description="Build the out-of-ontology split.")
    ap.add_argument("--data", required=True, help="shared/data directory")
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(list(argv) if argv is not None else None)
    split = build_ontology_split(load_pairs(args.data), load_ood_utterances(args.data),
                                 SplitConfig(seed=args.seed))
    check_split(split)
    split.write(args.out)
    print(json.dumps({"sizes": split.sizes(), "stats": dict(split.stats)}, indent=1))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
