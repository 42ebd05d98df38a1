"""Build every benchmark dataset from the shared data: ``verifier bench build``.

Writes one JSONL per dataset (see :data:`~verifier.benchmark.records.DATASET_FILES`) and
``manifest.json`` (seed, code version, source file hashes, per-dataset counts and
statistics, output file hashes) into the output folder; the out-of-ontology split is also
written in the HDM engineer's format under ``ontology_split/``.

The manifest's ``code_version`` is taken when the build starts, after every module that
shapes the data has been imported (the workers inherit them), so edits made to the tree by
others during a long build do not leak into it; a warning says when files changed.

Byte-identical on rebuild with the same seed and code: every random choice is seeded from
(seed, item id, purpose), records are written in a fixed order with sorted keys, and nothing
time- or machine-dependent (timestamps, absolute paths, worker counts) enters the files.
Equivalence checks are bounded by Z3's deterministic resource counter, not by the clock
(:func:`~verifier.benchmark.perturb.decide_equivalence`: ``timeout_ms`` and
``retry_timeout_ms`` are converted to resource budgets, each check runs in a fresh Z3
context), so a busy machine cannot change an outcome; the wall clock is only a safety net
at ten times the budget (the manifest counts undecided checks so a difference can be traced).

Worker processes (``workers > 1``) are forked (``fork`` start method, so ``python -m
verifier`` works without a ``__main__`` guard); they inherit the read-only build context set
by :func:`_init_worker`.  The parent never runs Z3 itself before forking.
"""

from __future__ import annotations

import hashlib
import json
import logging
import multiprocessing as mp
import random
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from verifier.benchmark import gold as gold_mod
from verifier.benchmark.gold import GoldPair
from verifier.benchmark.perturb import CATEGORIES, PairOutcome, PerturbConfig, perturb_pair
from verifier.benchmark.records import (DATASET_FILES, MANIFEST_FILE, BenchRecord,
                                        write_jsonl)
from verifier.benchmark.splits import SplitSizes

__all__ = ["BuildConfig", "build_all", "DATASET_NAMES", "code_version", "BuildError"]

log = logging.getLogger(__name__)

DATASET_NAMES: tuple[str, ...] = tuple(DATASET_FILES)
LABELS_FILE = "wikidata/labels.tsv"
ONTOLOGY_DIR = "ontology_split"
_CODE_FILES = (
    "verifier/benchmark/build.py", "verifier/benchmark/gold.py", "verifier/benchmark/ids.py",
    "verifier/benchmark/llm.py", "verifier/benchmark/ood.py",
    "verifier/benchmark/out_of_ontology.py", "verifier/benchmark/ontology_split.py",
    "verifier/benchmark/perturb.py", "verifier/benchmark/plausible.py",
    "verifier/benchmark/records.py", "verifier/benchmark/splits.py",
    "verifier/benchmark/unionfind.py",
    "parsers/sparql.py", "parsers/sparql_translate.py", "parsers/sparql_terms.py",
    "parsers/sparql_expressions.py", "parsers/sparql_labels.py", "parsers/sparql_generate.py",
    "parsers/sparql_transform.py", "verifier/prover.py", "verifier/logic.py",
    "verifier/normal_form.py", "grammar/sparql.lark", "verifier/pgmr/encoders.py")


class BuildError(RuntimeError):
    """A dataset failed its checks (message lists what)."""


@dataclass(frozen=True)
class BuildConfig:
    """What to build and how.

    Attributes:
        data_dir: the shared data folder.
        out_dir: where datasets and the manifest go.
        seed: seeds everything.
        datasets: names to build (subset of :data:`DATASET_NAMES`).
        workers: processes for the equivalence checks.
        max_pairs: perturb only a seeded sample of this many gold pairs (``None``: all).
        max_attempts / timeout_ms / retry_timeout_ms: see
            :class:`~verifier.benchmark.perturb.PerturbConfig`.
        ood_extra: out-of-domain utterances beyond those of the MRS sample.
        split_sizes: dev/test fractions of the generalisation splits.
        rare_below: a URI is rare below this many occurrences (unknown-URI split).
        progress: show progress bars.
    """

    data_dir: Path
    out_dir: Path
    seed: int = 0
    datasets: tuple[str, ...] = DATASET_NAMES
    workers: int = 1
    max_pairs: int | None = None
    max_attempts: int = 8
    timeout_ms: int = 4000
    retry_timeout_ms: int = 30000
    ood_extra: int = 1000
    split_sizes: SplitSizes = field(default_factory=SplitSizes)
    rare_below: int = 5
    progress: bool = True

    def __post_init__(self) -> None:
        bad = set(self.datasets) - set(DATASET_NAMES)
        if bad:
            raise ValueError(f"unknown datasets {sorted(bad)}; choose from {DATASET_NAMES}")
        if self.workers < 1:
            raise ValueError("workers must be >= 1")
        if self.max_pairs is not None and self.max_pairs < 1:
            raise ValueError("max_pairs must be >= 1")

    def manifest_config(self) -> dict[str, Any]:
        """The settings that change the outputs (no paths, no worker count)."""
        return {"seed": self.seed, "max_pairs": self.max_pairs,
                "max_attempts": self.max_attempts, "timeout_ms": self.timeout_ms,
                "retry_timeout_ms": self.retry_timeout_ms,
                "ood_extra": self.ood_extra, "split_sizes": asdict(self.split_sizes),
                "rare_below": self.rare_below}


def _import_code_modules() -> None:
    """Import the modules that shape the datasets (see :data:`_CODE_FILES`)."""
    import importlib

    for name in ("parsers.sparql", "parsers.sparql_translate", "parsers.sparql_terms",
                 "parsers.sparql_expressions", "parsers.sparql_labels", "parsers.sparql_generate",
                 "parsers.sparql_transform", "verifier.prover", "verifier.logic", "verifier.normal_form",
                 "verifier.pgmr.encoders", "verifier.benchmark.perturb",
                 "verifier.benchmark.plausible", "verifier.benchmark.splits",
                 "verifier.benchmark.ood", "verifier.benchmark.llm",
                 "verifier.benchmark.out_of_ontology", "verifier.benchmark.ontology_split",
                 "verifier.benchmark.unionfind"):
        importlib.import_module(name)
    from parsers.sparql import parse_query

    parse_query("SELECT ?x WHERE { ?x ?p ?o }")  # builds the Lark parser from the grammar now


def code_version() -> dict[str, str]:
    """Package version and a SHA-256 over the source files that shape the datasets."""
    from verifier.benchmark.paths import REPO_ROOT

    h = hashlib.sha256()
    for rel in _CODE_FILES:
        p = REPO_ROOT / rel
        h.update(rel.encode())
        h.update(p.read_bytes() if p.is_file() else b"<missing>")
    try:
        from importlib.metadata import version

        pkg = version("sparql-verifier")
    except Exception:  # not installed
        pkg = "unknown"
    return {"package": pkg, "source_sha256": h.hexdigest()}


# --------------------------------------------------------------------------------------------
# Parallel map with a per-process read-only context
# --------------------------------------------------------------------------------------------

_WORKER_CTX: dict[str, Any] = {}  # process-local, set once by _init_worker (read-only after)


def _init_worker(ctx: Mapping[str, Any]) -> None:
    _WORKER_CTX.clear()
    _WORKER_CTX.update(ctx)
    logging.getLogger("verifier.prover").setLevel(logging.ERROR)


def _perturb_job(i: int) -> PairOutcome:
    c = _WORKER_CTX
    p = c["pairs"][i]
    return perturb_pair(p, c["stats"], c["perturb"], has_mrs=c["mrs"].get(p.id, False),
                        extra={"chemistry": p.id in c["chem"]})


def _llm_job(row: Mapping[str, Any]) -> BenchRecord:
    from verifier.benchmark.llm import prediction_record

    return prediction_record(row, timeout_ms=_WORKER_CTX["timeout_ms"],
                             retry_timeout_ms=_WORKER_CTX["retry_timeout_ms"],
                             mrs_index=_WORKER_CTX["mrs_index"])


def _verify_job(i: int) -> tuple[int, str | None]:
    from verifier.benchmark.perturb import regenerated_gold

    return i, regenerated_gold(_WORKER_CTX["pairs"][i].sparql, _WORKER_CTX["timeout_ms"],
                               _WORKER_CTX["retry_timeout_ms"])


def _pmap(fn: Callable[[Any], Any], items: Sequence[Any], ctx: Mapping[str, Any], workers: int,
          desc: str, progress: bool) -> list[Any]:
    """``[fn(x) for x in items]`` in order, in ``workers`` processes, with a progress bar."""
    from verifier.benchmark.progress import progress_bar

    bar = progress_bar(len(items), desc, progress)
    out: list[Any] = []
    try:
        if workers <= 1 or len(items) < 2:
            saved = dict(_WORKER_CTX)
            _init_worker(ctx)
            try:
                for x in items:
                    out.append(fn(x))
                    bar.update()
            finally:
                _init_worker(saved)
        else:
            method = "fork" if "fork" in mp.get_all_start_methods() else "spawn"
            with mp.get_context(method).Pool(workers, _init_worker, (ctx,)) as pool:
                for r in pool.imap(fn, items, chunksize=4):
                    out.append(r)
                    bar.update()
    finally:
        bar.close()
    return out


# --------------------------------------------------------------------------------------------
# Counting
# --------------------------------------------------------------------------------------------


def _counts(records: Iterable[BenchRecord], row: Callable[[BenchRecord], str],
            col: Callable[[BenchRecord], str]) -> dict[str, dict[str, int]]:
    c: dict[str, Counter] = defaultdict(Counter)
    for r in records:
        c[row(r)][col(r)] += 1
    return {k: dict(sorted(v.items())) for k, v in sorted(c.items())}


def _labels(records: Iterable[BenchRecord]) -> dict[str, int]:
    c = Counter("none" if r.label is None else str(r.label) for r in records)
    return dict(sorted(c.items()))


# --------------------------------------------------------------------------------------------
# The build
# --------------------------------------------------------------------------------------------


def build_all(config: BuildConfig) -> dict[str, Any]:
    """Build the requested datasets, write them and the manifest; return the manifest.

    Raises ``FileNotFoundError`` for missing inputs and :class:`BuildError` when a split
    fails its property checks (nothing is written then).
    """
    from verifier.benchmark.plausible import build_stats, read_labels

    data, out = Path(config.data_dir), Path(config.out_dir)
    if not data.is_dir():
        raise FileNotFoundError(f"shared data folder not found: {data}")
    # Others edit the tree while long builds run: import every module that shapes the data
    # now (forked workers inherit them) and record the code version of this moment.
    _import_code_modules()
    code_at_start = code_version()
    want = set(config.datasets)
    pairs = gold_mod.load_gold_pairs(data)
    log.info("%d gold pairs", len(pairs))
    mrs_index = gold_mod.load_mrs_questions(data)
    ood_mrs = gold_mod.load_mrs_questions(data, gold_mod.MRS_OOD)
    mrs = {p.id: gold_mod.has_mrs(p.question, mrs_index) for p in pairs}
    chem = gold_mod.load_chemistry_ids(data)
    from verifier.benchmark.ontology_split import DEFAULT_SOURCES

    source_files = list(DEFAULT_SOURCES) + [gold_mod.MRS_QUESTIONS, gold_mod.MRS_OOD,
                                            gold_mod.CHEMISTRY_FILE]
    outputs: dict[str, list[BenchRecord]] = {}
    info: dict[str, dict[str, Any]] = {}

    stats = labels = None
    if want & {"perturbations", "out_of_domain"}:
        from parsers.sparql import SparqlError, parse_tree

        labels_path = data / LABELS_FILE
        if not labels_path.is_file():
            raise FileNotFoundError(f"label file needed for perturbations missing: {labels_path}")
        source_files.append(LABELS_FILE)
        labels = read_labels(labels_path)
        trees = []
        for p in pairs:
            try:
                trees.append(parse_tree(p.sparql))
            except SparqlError:
                pass
        stats = build_stats(trees, labels, labels.keys())
        log.info("corpus statistics: %d properties, %d label neighbour lists",
                 len(stats.prop_count), len(stats.near))

    if "perturbations" in want:
        outputs["perturbations"], info["perturbations"] = _build_perturbations(
            config, pairs, stats, mrs, chem)

    if "out_of_domain" in want:
        outputs["out_of_domain"], info["out_of_domain"] = _build_ood(
            config, data, pairs, stats, labels, mrs_index, ood_mrs, outputs)
        source_files += ["ood/utterances_with_intent.tsv", "ood/utterances.txt"]

    if "unknown_uri" in want:
        from verifier.benchmark.splits import build_unknown_uri_split, check_unknown_uri_split

        recs, st = build_unknown_uri_split(pairs, seed=config.seed, rare_below=config.rare_below,
                                           sizes=config.split_sizes, has_mrs=mrs)
        try:
            check_unknown_uri_split(recs)
        except ValueError as e:
            raise BuildError(str(e)) from None
        outputs["unknown_uri"] = recs
        info["unknown_uri"] = {"counts": _counts(recs, lambda r: r.get("split"),
                                                 lambda r: r.category),
                               "by_dataset": _counts(recs, lambda r: r.get("split"),
                                                     lambda r: r.get("dataset")),
                               "stats": st, "checked": True}

    if "unknown_template" in want:
        from verifier.benchmark.splits import (build_unknown_template_split,
                                               check_unknown_template_split)

        recs, st = build_unknown_template_split(pairs, seed=config.seed, sizes=config.split_sizes,
                                                has_mrs=mrs)
        try:
            check_unknown_template_split(recs, recompute=False)
        except ValueError as e:
            raise BuildError(str(e)) from None
        outputs["unknown_template"] = recs
        info["unknown_template"] = {"counts": _counts(recs, lambda r: r.get("split"),
                                                      lambda r: r.category),
                                    "by_dataset": _counts(recs, lambda r: r.get("split"),
                                                          lambda r: r.get("dataset")),
                                    "stats": st, "checked": True}

    if "out_of_ontology" in want:
        outputs["out_of_ontology"], info["out_of_ontology"] = _build_ontology(
            config, data, pairs, mrs, ood_mrs, out)
        source_files.append("ood/utterances.txt")

    if "llm_predictions" in want:
        outputs["llm_predictions"], info["llm_predictions"] = _build_llm(config, data, mrs_index)
        source_files += [f"llm_predictions/{p.name}"
                         for p in sorted((data / "llm_predictions").glob("*.jsonl"))]

    if code_version() != code_at_start:
        log.warning("source files changed on disk during the build; the datasets were made "
                    "with the code loaded at the start (code_version in the manifest)")
    out.mkdir(parents=True, exist_ok=True)
    manifest_path = out / MANIFEST_FILE
    old = json.loads(manifest_path.read_text()) if manifest_path.is_file() else {}
    manifest: dict[str, Any] = {
        "format": "sparql-verifier/benchmark-datasets", "format_version": 1,
        "config": config.manifest_config(), "code_version": code_at_start,
        "sources": gold_mod.hash_files(data, source_files),
        "gold_pairs": {"total": len(pairs),
                       "by_source": dict(sorted(Counter(p.source for p in pairs).items())),
                       "with_mrs_reading": sum(mrs.values())},
        "datasets": dict(old.get("datasets", {})) if old.get("config") == config.manifest_config()
        else {},
    }
    for name in DATASET_NAMES:
        if name not in outputs:
            continue
        path = out / DATASET_FILES[name]
        n = write_jsonl(path, outputs[name])
        manifest["datasets"][name] = {"file": DATASET_FILES[name], "records": n,
                                      "labels": _labels(outputs[name]),
                                      "has_mrs": sum(r.has_mrs for r in outputs[name]),
                                      "sha256": gold_mod.file_sha256(path), **info[name]}
    manifest["datasets"] = dict(sorted(manifest["datasets"].items()))
    manifest_path.write_text(json.dumps(manifest, indent=1, sort_keys=True, ensure_ascii=False)
                             + "\n", encoding="utf-8")
    return manifest


def _sample_pairs(pairs: Sequence[GoldPair], config: BuildConfig) -> list[int]:
    idx = list(range(len(pairs)))
    if config.max_pairs is not None and config.max_pairs < len(pairs):
        idx = sorted(random.Random(f"{config.seed}:pair_sample").sample(idx, config.max_pairs))
    return idx


def _build_perturbations(config: BuildConfig, pairs: Sequence[GoldPair], stats: Any,
                         mrs: Mapping[str, bool], chem: frozenset[str]
                         ) -> tuple[list[BenchRecord], dict[str, Any]]:
    pcfg = PerturbConfig(seed=config.seed, max_attempts=config.max_attempts,
                         timeout_ms=config.timeout_ms, retry_timeout_ms=config.retry_timeout_ms)
    idx = _sample_pairs(pairs, config)
    ctx = {"pairs": list(pairs), "stats": stats, "perturb": pcfg, "mrs": dict(mrs),
           "chem": chem}
    outcomes = _pmap(_perturb_job, idx, ctx, config.workers, "perturbations", config.progress)
    records = [r for o in outcomes for r in o.records]
    dropped: dict[str, Counter] = defaultdict(Counter)
    for o in outcomes:
        for cat, d in o.dropped.items():
            dropped[cat].update(d)
    status = Counter(o.status for o in outcomes)
    failed = [{"gold_id": o.gold_id, "status": o.status, "reason": o.reason}
              for o in outcomes if o.status != "ok"]
    via = _counts([r for r in records if "via" in r.detail], lambda r: r.category,
                  lambda r: r.detail["via"])
    kinds = _counts([r for r in records if r.category in ("wrong_literal", "nonexistent_id")],
                    lambda r: r.category, lambda r: r.detail.get("kind", "?"))
    forms = _counts([r for r in records if r.category == "wrong_form"], lambda r: r.category,
                    lambda r: f"{r.detail['from']} -> {r.detail['to']}")
    order = {c: i for i, c in enumerate(CATEGORIES)}
    counts = _counts(records, lambda r: r.category, lambda r: r.source)
    counts = dict(sorted(counts.items(), key=lambda kv: order.get(kv[0], 99)))
    return records, {
        "counts": counts,
        "gold_pairs_used": len(idx), "pair_status": dict(sorted(status.items())),
        "failed_pairs": failed,
        "dropped_candidates": {k: dict(sorted(v.items())) for k, v in sorted(dropped.items())},
        "via": via, "kinds": {**kinds, **forms},
        "has_mrs_by_category": {c: sum(1 for r in records if r.category == c and r.has_mrs)
                                for c in counts},
        "chemistry_by_category": {c: sum(1 for r in records if r.category == c
                                         and r.get("chemistry")) for c in counts},
    }


def _build_ood(config: BuildConfig, data: Path, pairs: Sequence[GoldPair], stats: Any,
               labels: Mapping[str, str] | None, mrs_index: frozenset[str],
               ood_mrs: frozenset[str], outputs: Mapping[str, list[BenchRecord]]
               ) -> tuple[list[BenchRecord], dict[str, Any]]:
    from parsers.sparql import SparqlError, parse_tree
    from parsers.sparql_generate import generate
    from parsers.sparql_transform import normalize
    from verifier.benchmark.ood import build_ood_dataset, label_index, load_utterances

    verified = {r.id: r.sparql for r in outputs.get("perturbations", []) if r.category == "gold"}
    texts: dict[str, str] = {}
    for p in pairs:
        if p.id in verified:
            texts[p.id] = verified[p.id]
            continue
        try:
            texts[p.id] = generate(normalize(parse_tree(p.sparql)))
        except SparqlError:
            continue
    index_of = {p.id: i for i, p in enumerate(pairs)}

    def verify_many(ids: Sequence[str]) -> dict[str, bool]:
        todo = [index_of[i] for i in ids if i not in verified]
        res = _pmap(_verify_job, todo, {"pairs": list(pairs), "timeout_ms": config.timeout_ms,
                                        "retry_timeout_ms": config.retry_timeout_ms},
                    config.workers, "ood controls", config.progress) if todo else []
        ok = {pairs[i].id: t is not None for i, t in res}
        return {i: (i in verified) or ok.get(i, False) for i in ids}

    recs, st = build_ood_dataset(load_utterances(data), pairs, texts, stats, seed=config.seed,
                                 extra=config.ood_extra, ood_mrs=ood_mrs, question_mrs=mrs_index,
                                 labels_index=label_index(labels or {}), verify=verify_many)
    return recs, {"counts": _counts(recs, lambda r: r.category, lambda r: r.source),
                  "stats": st}


def _build_ontology(config: BuildConfig, data: Path, pairs: Sequence[GoldPair],
                    mrs: Mapping[str, bool], ood_mrs: frozenset[str], out: Path
                    ) -> tuple[list[BenchRecord], dict[str, Any]]:
    from verifier.benchmark.ontology_split import (SplitConfig, build_ontology_split,
                                                   check_split, load_ood_utterances, load_pairs)
    from verifier.benchmark.out_of_ontology import ontology_records

    split = build_ontology_split(load_pairs(data), load_ood_utterances(data),
                                 SplitConfig(seed=config.seed))
    try:
        check_split(split)
    except ValueError as e:
        raise BuildError(str(e)) from None
    split.write(out / ONTOLOGY_DIR)
    recs = ontology_records(split, pairs, mrs=mrs, ood_mrs=ood_mrs)
    return recs, {"counts": _counts(recs, lambda r: r.get("split"), lambda r: r.category),
                  "stats": dict(split.stats), "unknown_symbols": {k: len(v) for k, v in
                                                                  sorted(split.unknown.items())},
                  "checked": True, "hdm_format_dir": ONTOLOGY_DIR}


def _build_llm(config: BuildConfig, data: Path, mrs_index: frozenset[str]
               ) -> tuple[list[BenchRecord], dict[str, Any]]:
    from verifier.benchmark.llm import iter_prediction_rows

    rows = [r for _, r in iter_prediction_rows(data)]
    recs = _pmap(_llm_job, rows, {"timeout_ms": config.timeout_ms,
                                  "retry_timeout_ms": config.retry_timeout_ms,
                                  "mrs_index": mrs_index},
                 config.workers, "llm predictions", config.progress)
    cross = _counts(recs, lambda r: r.category,
                    lambda r: {True: "equivalent", False: "not_equivalent", None: "undecided"}[
                        r.get("equivalent_to_gold")])
    reasons = Counter(r.get("equivalence_reason").split(":")[0] for r in recs
                      if r.get("equivalent_to_gold") is None)
    return recs, {"counts": _counts(recs, lambda r: r.category, lambda r: r.source),
                  "by_model": _counts(recs, lambda r: f"{r.get('model')}.{r.get('config')}",
                                      lambda r: r.category),
                  "f1_vs_equivalence": cross,
                  "undecided_reasons": dict(reasons.most_common(10))}
