"""Verification signals behind one small protocol, for the evaluation harness.

A :class:`Signal` has a ``name``, says whether it can run (:meth:`Signal.availability`,
with the reason when it cannot), describes the settings that change its outputs
(:meth:`Signal.config`, hashed into the result-cache key) and maps a (question, SPARQL) pair
to a :class:`SignalOutput`: ``decision`` in ``accept`` / ``reject`` / ``abstain``, ``score``
in [0, 1] = probability that the query is faithful / correct, and a JSON-ready ``details``
dict.

Built-in adapters (:func:`make_signal`):

* ``deductive``: the public ``verifier.verify(question, sparql, signals=("deductive",))``
  (its ``.decision``, ``.score``, ``.explanation``, ``.signals``; ``verifier.api.verify`` when
  the package does not export it yet); reported "not available yet" while neither exists.
* ``pgmr``: :func:`verifier.pgmr.grounding_signal` over a PGMR memory of
  ``wikidata/labels.tsv`` (built once, cached under ``bench/out/pgmr_memory/``).  Decision:
  ``reject`` when an identifier does not exist in the memory or has the wrong kind, or when
  the grounding score (the weakest identifier's support by a question span) is below the
  threshold (default: the encoder's ``default_threshold``, 0.4 for the hashed n-gram
  encoder: above the 99th percentile of unrelated-label cosines, below the 1st percentile
  of one-typo pairs); ``abstain`` when the query has no KG identifier or no query exists;
  else ``accept``.  ``score`` is the grounding score (0 when flagged).
* ``hdm``: :func:`verifier.hdm.hdm_signal` with a trained detector (``hdm_model``: the
  detector directory; its generator is read from the detector's ``info.generator`` or given
  as ``hdm_generator``); unavailable without a model.  ``score`` = 1 - P(hallucination).
  It judges only queries of its own model: a record whose ``model`` (provenance) is not
  ``hdm_model_name`` (nor the generator's directory) gets ``abstain`` with ``missing``.
* ``syntax``: a floor baseline: ``accept`` when the query parses, ``reject`` otherwise.
* any other name ``X``: a module ``verifier.X`` exposing ``benchmark_signal(options) ->
  Signal`` (the extension point for the stacked verifier: ``verifier.stacked`` or
  ``verifier.stacking`` with ``benchmark_signal``); unavailable, with that explanation,
  until it exists.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import logging
import math
import os
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Protocol, runtime_checkable

__all__ = ["Signal", "SignalOutput", "Availability", "SignalOptions", "make_signal",
           "config_hash", "DECISIONS", "BUILTIN_SIGNALS", "UnavailableSignal",
           "DeductiveSignal", "PGMRSignal", "HDMSignal", "SyntaxSignal", "json_safe"]

log = logging.getLogger(__name__)

DECISIONS = ("accept", "reject", "abstain")
BUILTIN_SIGNALS = ("deductive", "hdm", "pgmr", "stacked", "syntax")


@dataclass(frozen=True)
class SignalOutput:
    """What a signal says about one pair (see the module docstring)."""

    decision: str
    score: float
    details: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.decision not in DECISIONS:
            raise ValueError(f"decision must be one of {DECISIONS}, got {self.decision!r}")
        if not isinstance(self.score, (int, float)) or math.isnan(self.score) \
                or not 0.0 <= float(self.score) <= 1.0:
            raise ValueError(f"score must be in [0, 1], got {self.score!r}")

    def to_dict(self) -> dict[str, Any]:
        return {"decision": self.decision, "score": float(self.score),
                "details": json_safe(self.details)}


@dataclass(frozen=True)
class Availability:
    """Whether a signal can run, and why not."""

    available: bool
    reason: str = ""


@runtime_checkable
class Signal(Protocol):
    """The protocol every evaluated signal implements."""

    name: str

    def availability(self) -> Availability:
        """Can :meth:`run` be called (and if not, why)?"""

    def config(self) -> Mapping[str, Any]:
        """JSON-ready settings that change the outputs (part of the cache key)."""

    def run(self, question: str, sparql: str | None) -> SignalOutput:
        """Judge one pair; ``sparql`` is ``None`` when no query exists."""


@dataclass(frozen=True)
class SignalOptions:
    """Settings for the built-in adapters (picklable, for worker processes).

    Attributes:
        labels: the labels TSV of the PGMR memory.
        pgmr_memory: where the memory is cached (built on first use).
        pgmr_threshold: grounding-score threshold (``None``: the encoder's default).
        pgmr_priors: support-priors JSON for the grounding signal (optional).
        hdm_model: trained HDM detector directory.
        hdm_generator: its generator directory (default: from the detector's info).
        hdm_mc_trials: Monte Carlo dropout trials when the detector uses them.
        verifier_config: ``verifier.toml`` given to ``verifier.verify(config=...)``; default:
            one written to ``bench/out/verifier-bench.toml`` naming the shared MRS corpora
            (``[mrs] corpora``) and labels (``[grounding] labels``).
        data_dir: the shared data folder (default: ``$VERIFIER_BENCH_DATA`` or
            ``../shared/data``).
        tag: free text added to every config (forces re-computation when changed).
        stacking_model: the stacked verifier's model JSON (default
            ``$VERIFIER_STACKING_MODEL`` or ``bench/out/stacked/model.json``).
        hdm_model_name: the model whose internals the HDM scorer reads (``[hdm]
            model_name``; ``None``: :data:`verifier.provenance.GENERATOR_NAME`): HDM judges
            only records whose ``model`` is it or its generator's directory
            (:func:`verifier.provenance.hdm_applies`), else it abstains with ``missing``.
    """

    labels: Path | None = None
    pgmr_memory: Path | None = None
    pgmr_threshold: float | None = None
    pgmr_priors: Path | None = None
    hdm_model: Path | None = None
    hdm_generator: Path | None = None
    hdm_mc_trials: int = 30
    verifier_config: Path | None = None
    data_dir: Path | None = None
    tag: str = ""
    stacking_model: Path | None = None
    hdm_model_name: str | None = None


def json_safe(x: Any, depth: int = 0) -> Any:
    """A JSON-serialisable copy of ``x`` (dataclasses to dicts, unknown objects to str)."""
    if depth > 8:
        return str(x)[:500]
    if x is None or isinstance(x, (bool, int, str)):
        return x
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, Mapping):
        return {str(k): json_safe(v, depth + 1) for k, v in x.items()}
    if isinstance(x, (list, tuple, set, frozenset)):
        return [json_safe(v, depth + 1) for v in x]
    if hasattr(x, "__dataclass_fields__"):
        try:
            return json_safe(asdict(x), depth + 1)
        except TypeError:
            pass
    if hasattr(x, "to_dict"):
        try:
            return json_safe(x.to_dict(), depth + 1)
        except Exception:  # noqa: BLE001 - best effort
            pass
    return str(x)[:2000]


def config_hash(signal: Signal) -> str:
    """16 hex digits identifying ``(name, config)``."""
    blob = json.dumps({"name": signal.name, "config": json_safe(signal.config())},
                      sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _default_score(decision: str) -> float:
    return {"accept": 1.0, "reject": 0.0, "abstain": 0.5}[decision]


def _source_hash(roots: list[Path], patterns: tuple[str, ...] = ("*.py", "*.yaml", "*.yml",
                                                                  "*.lark", "*.txt")) -> str:
    h = hashlib.sha256()
    for root in roots:
        if not root.exists():
            continue
        files = [root] if root.is_file() else sorted(
            p for pat in patterns for p in root.rglob(pat) if "__pycache__" not in p.parts)
        for p in files:
            h.update(str(p.relative_to(root.parent)).encode())
            try:
                h.update(p.read_bytes())
            except OSError:  # a file removed while hashing (others edit the tree)
                h.update(b"<unreadable>")
    return h.hexdigest()[:16]


#: The sources each learned or lexical signal depends on (paths under the repository root):
#: part of its configuration, so that results cached under older code are not reused.
PGMR_SOURCES = ("verifier/pgmr", "verifier/lexical.py", "verifier/namespaces.py")
HDM_SOURCES = ("verifier/hdm",)


def source_version(parts: tuple[str, ...]) -> str:
    """16 hex digits of the source files under ``parts`` (paths relative to the repository
    root; ``*.py`` and data files, see :func:`_source_hash`)."""
    from verifier.benchmark.paths import REPO_ROOT

    return _source_hash([REPO_ROOT / p for p in parts])


# --------------------------------------------------------------------------------------------
# Adapters
# --------------------------------------------------------------------------------------------


@dataclass
class UnavailableSignal:
    """A placeholder for a signal that cannot run (the reason is reported)."""

    name: str
    reason: str

    def availability(self) -> Availability:
        return Availability(False, self.reason)

    def config(self) -> Mapping[str, Any]:
        return {}

    def run(self, question: str, sparql: str | None) -> SignalOutput:
        raise RuntimeError(f"signal {self.name} is not available: {self.reason}")


class SyntaxSignal:
    """Floor baseline: accept every query that parses (see the module docstring)."""

    name = "syntax"

    def availability(self) -> Availability:
        return Availability(True)

    def config(self) -> Mapping[str, Any]:
        return {"version": 1}

    def run(self, question: str, sparql: str | None) -> SignalOutput:
        from parsers.sparql import SparqlError, parse_query

        if not sparql:
            return SignalOutput("abstain", 0.5, {"reason": "no query"})
        try:
            parse_query(sparql)
        except SparqlError as e:
            return SignalOutput("reject", 0.0, {"reason": str(e).splitlines()[0][:300]})
        return SignalOutput("accept", 1.0, {})


def _find_verify() -> tuple[Callable[..., Any] | None, str, str]:
    """``(verify function, where it was found, reason when not found)``: ``verifier.verify``
    (a function, or a module holding ``verify``), else ``verifier.api.verify``."""
    try:
        import verifier

        fn = getattr(verifier, "verify", None)
        if fn is not None and not callable(fn):
            fn = getattr(fn, "verify", None)
        if callable(fn):
            return fn, "verifier.verify", ""
        for mod_name in ("verifier.verify", "verifier.api"):
            try:
                mod = importlib.import_module(mod_name)
            except ModuleNotFoundError:
                continue
            fn = getattr(mod, "verify", None)
            if callable(fn):
                return fn, f"{mod_name}.verify", ""
        return None, "", ("verifier.verify is not available yet (the public deductive "
                          "verifier API is still being written)")
    except Exception as e:  # noqa: BLE001 - any import-time failure makes it unavailable
        return None, "", f"importing verifier.verify failed: {type(e).__name__}: {e}"


class DeductiveSignal:
    """``verifier.verify(question, sparql, signals=("deductive",))`` (module docstring)."""

    name = "deductive"

    def __init__(self, options: SignalOptions = SignalOptions()) -> None:
        self._fn, self._where, self._why = _find_verify()
        self._tag = options.tag
        self._config_path: Path | None = None
        self._config_text = ""
        from verifier.benchmark.paths import REPO_ROOT

        # what the deductive verifier depends on (not the benchmark, CLI, HDM or PGMR code)
        roots = sorted(p for p in (REPO_ROOT / "verifier").iterdir()
                       if p.name not in ("benchmark", "cli", "hdm", "pgmr", "stacking", "__pycache__")
                       and (p.is_dir() or p.suffix == ".py"))
        roots += [REPO_ROOT / "parsers", REPO_ROOT / "axioms", REPO_ROOT / "grammar"]
        self._version = _source_hash(roots) if self._fn is not None else ""
        if self._fn is not None and _accepts(self._fn, "config"):
            if options.verifier_config is not None:
                self._config_path = Path(options.verifier_config)
                if not self._config_path.is_file():
                    self._fn, self._why = None, f"verifier config not found: {self._config_path}"
            else:
                self._config_path = _bench_verifier_config(options.data_dir)
            if self._config_path is not None and self._config_path.is_file():
                self._config_text = self._config_path.read_text(encoding="utf-8")

    def prepare(self) -> None:
        """Load the verifier's warm state once (inherited by forked workers)."""
        if self._fn is not None:
            try:
                self._call("What is the mass of benzene?",
                           "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v . }")
            except Exception as e:  # noqa: BLE001 - reported per item later
                log.warning("deductive warm-up failed: %s", e)

    def _call(self, question: str, sparql: str) -> Any:
        kw: dict[str, Any] = {"signals": ("deductive",)}
        if self._config_path is not None:
            kw["config"] = str(self._config_path)
        return self._fn(question, sparql, **kw)

    def availability(self) -> Availability:
        return Availability(self._fn is not None, self._why)

    def config(self) -> Mapping[str, Any]:
        # the verifier's source hash: results are recomputed when its code or axioms change
        return {"signals": ["deductive"], "entry": self._where, "source": self._version,
                "verifier_config": self._config_text, "tag": self._tag}

    def run(self, question: str, sparql: str | None) -> SignalOutput:
        if self._fn is None:
            raise RuntimeError(self._why)
        if not sparql:
            return SignalOutput("abstain", 0.5, {"reason": "no query"})
        res = self._call(question, sparql)
        decision = str(getattr(res, "decision", "abstain"))
        if decision not in DECISIONS:
            decision = "abstain"
        score = getattr(res, "score", None)
        try:
            score = float(score)
            if not 0.0 <= score <= 1.0 or math.isnan(score):
                raise ValueError
        except (TypeError, ValueError):
            score = _default_score(decision)
        return SignalOutput(decision, score, {
            "explanation": str(getattr(res, "explanation", ""))[:3000],
            "signals": json_safe(getattr(res, "signals", {}))})


def _accepts(fn: Callable[..., Any], name: str) -> bool:
    import inspect

    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    return name in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def _bench_verifier_config(data_dir: Path | None) -> Path | None:
    """Write (when changed) ``bench/out/verifier-bench.toml`` naming the shared MRS corpora
    and labels; ``None`` when the shared data is absent."""
    from verifier.benchmark.paths import REPO_ROOT, default_data_dir

    data = Path(data_dir) if data_dir is not None else default_data_dir()
    if not data.is_dir():
        return None
    corpora = [str((data / "mrs" / f).resolve()) for f in
               ("questions.jsonl.gz", "ood_sample.jsonl.gz", "chemistry.jsonl.gz")
               if (data / "mrs" / f).is_file()]
    labels = data / "wikidata" / "labels.tsv"
    text = ("# written by verifier.benchmark.signals for 'verifier eval' (deductive signal)\n"
            "[mrs]\ncorpora = " + json.dumps(corpora) + "\n")
    if labels.is_file():
        text += "\n[grounding]\nlabels = " + json.dumps(str(labels.resolve())) + "\n"
    path = REPO_ROOT / "bench" / "out" / "verifier-bench.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    return path


def _pgmr_memory_dir(options: SignalOptions) -> Path:
    from verifier.benchmark.paths import REPO_ROOT

    return Path(options.pgmr_memory) if options.pgmr_memory else \
        REPO_ROOT / "bench" / "out" / "pgmr_memory"


def load_or_build_memory(labels: Path, directory: Path):
    """The PGMR memory saved in ``directory``, built from ``labels`` (and saved) when absent
    or built from another labels file (checked through the stored label-file hash)."""
    from verifier.benchmark.gold import file_sha256
    from verifier.pgmr import Memory

    stamp = directory / "labels.sha256"
    want = file_sha256(labels)
    if (directory / "meta.json").is_file() and stamp.is_file() and stamp.read_text().strip() == want:
        return Memory.load(directory)
    log.info("building the PGMR memory from %s into %s (once)", labels, directory)
    from verifier.labels.configured import read_labels

    mem = Memory.build(read_labels(labels).symbols)  # a labels TSV or a label store
    tmp = directory.with_name(directory.name + f".tmp{os.getpid()}")
    mem.save(tmp)
    (tmp / "labels.sha256").write_text(want + "\n")
    if directory.exists():
        shutil.rmtree(directory)
    tmp.rename(directory)
    return mem


class PGMRSignal:
    """The PGMR grounding signal thresholded into a decision (module docstring)."""

    name = "pgmr"

    def __init__(self, options: SignalOptions = SignalOptions()) -> None:
        from verifier.benchmark.paths import default_data_dir

        self._labels = Path(options.labels) if options.labels else \
            default_data_dir() / "wikidata" / "labels.tsv"
        self._dir = _pgmr_memory_dir(options)
        self._threshold = options.pgmr_threshold
        self._priors_path = options.pgmr_priors
        self._tag = options.tag
        self._memory = None
        self._priors = None
        self._source = source_version(PGMR_SOURCES)
        self._why = ""
        if not self._labels.is_file():
            self._why = f"labels file not found: {self._labels}"

    def prepare(self) -> None:
        """Load (or build once) the memory in the parent process, before workers fork."""
        self._load()

    def _load(self) -> None:
        if self._memory is not None:
            return
        try:  # one FAISS thread: faster on a shared machine, and safe to fork afterwards
            import faiss

            faiss.omp_set_num_threads(1)
        except (ImportError, AttributeError):
            pass
        self._memory = load_or_build_memory(self._labels, self._dir)
        if self._threshold is None:
            self._threshold = float(self._memory.encoder.default_threshold)
        if self._priors_path:
            from verifier.pgmr import SupportPriors

            self._priors = SupportPriors.load(self._priors_path)

    def availability(self) -> Availability:
        if self._why:
            return Availability(False, self._why)
        return Availability(True)   # FAISS is optional (exact search in NumPy without it)

    def config(self) -> Mapping[str, Any]:
        from verifier.benchmark.gold import file_sha256

        return {"labels_sha256": file_sha256(self._labels) if self._labels.is_file() else None,
                "threshold": self._threshold, "priors": str(self._priors_path or ""),
                "tag": self._tag, "version": 2,  # 2: evidence-based grounding signal (e5dd92a)
                "source": self._source}

    def run(self, question: str, sparql: str | None) -> SignalOutput:
        from verifier.pgmr import grounding_decision, grounding_signal

        if not sparql:
            return SignalOutput("abstain", 0.5, {"reason": "no query"})
        self._load()
        rep = grounding_signal(question, sparql, self._memory, priors=self._priors)
        return SignalOutput(*grounding_decision(rep, self._threshold))


class HDMSignal:
    """The HDM detector (module docstring)."""

    name = "hdm"

    def __init__(self, options: SignalOptions = SignalOptions()) -> None:
        self._opts = options
        self._source = source_version(HDM_SOURCES + PGMR_SOURCES)
        self._pair = None
        self._memory: Any = None
        self._why = ""
        if options.hdm_model is None:
            self._why = ("needs a trained HDM detector: pass --hdm-model DIR (the output of "
                         "'verifier train hdm')")
        elif not Path(options.hdm_model).is_dir():
            self._why = f"HDM model directory not found: {options.hdm_model}"

    def _generator_dir(self) -> Path:
        if self._opts.hdm_generator:
            return Path(self._opts.hdm_generator)
        meta = json.loads((Path(self._opts.hdm_model) / "hdm_detector.json").read_text())
        gen = (meta.get("info") or {}).get("generator")
        if not gen:
            raise FileNotFoundError("the detector does not name its generator; pass "
                                    "--hdm-generator DIR")
        return Path(gen)

    def availability(self) -> Availability:
        if self._why:
            return Availability(False, self._why)
        try:
            self._load()
        except Exception as e:  # noqa: BLE001 - any load failure makes it unavailable
            self._why = f"cannot load the HDM model: {type(e).__name__}: {e}"
            return Availability(False, self._why)
        return Availability(True)

    def _load(self) -> None:
        if self._pair is None:
            from verifier.hdm import load_hdm

            self._pair = load_hdm(self._generator_dir(), self._opts.hdm_model,
                                  mc_trials=self._opts.hdm_mc_trials)
        if self._memory is None:
            from verifier.benchmark.paths import default_data_dir

            # the generator reads the PGMR intermediate form: SPARQL goes through the memory
            # (verifier.hdm.to_generator_form, the conversion the stacked signal uses too)
            labels = Path(self._opts.labels) if self._opts.labels else \
                default_data_dir() / "wikidata" / "labels.tsv"
            if labels.is_file():
                self._memory = load_or_build_memory(labels, _pgmr_memory_dir(self._opts))
            else:
                log.warning("HDM: no labels at %s: queries reach the generator as SPARQL", labels)
                self._memory = False

    def prepare(self) -> None:
        """Load the scorer, the detector and the PGMR memory in the parent, before workers
        fork."""
        self._load()

    def generator_input(self, sparql: str) -> str:
        """The text the generator scores for ``sparql`` (:func:`verifier.hdm.to_generator_form`
        through the PGMR memory)."""
        from verifier.hdm import to_generator_form

        self._load()
        return to_generator_form(sparql, self._memory or None)

    def config(self) -> Mapping[str, Any]:
        return {"model": str(self._opts.hdm_model), "generator": str(self._opts.hdm_generator),
                "mc_trials": self._opts.hdm_mc_trials, "tag": self._opts.tag,
                "via": "pgmr-intermediate", "model_name": self.model_name, "source": self._source}

    @property
    def model_name(self) -> str:
        """The model whose queries HDM judges (``SignalOptions.hdm_model_name``)."""
        from verifier.provenance import GENERATOR_NAME

        return self._opts.hdm_model_name or GENERATOR_NAME

    def not_applicable(self, model: str | None) -> str | None:
        """Why HDM cannot judge a query generated by ``model`` (``None``: it can):
        :func:`verifier.provenance.hdm_applies` with the generator's directory as an alias."""
        from verifier.provenance import hdm_applies

        try:
            aliases = (str(self._generator_dir()),)
        except (OSError, ValueError):
            aliases = ()
        return hdm_applies(self.model_name, model, aliases)

    def run(self, question: str, sparql: str | None, model: str | None = None) -> SignalOutput:
        """Judge one pair generated by ``model`` (the record's provenance); a query of
        another (or an unknown) model is not judged: abstain with ``missing`` saying why."""
        from verifier.hdm import hdm_signal

        why = self.not_applicable(model)
        if why is not None:
            return SignalOutput("abstain", 0.5, {"missing": why})
        if not sparql:
            return SignalOutput("abstain", 0.5, {"reason": "no query"})
        self._load()
        scorer, detector = self._pair
        rep = hdm_signal(question, sparql, scorer, detector, memory=self._memory or None)
        p = min(1.0, max(0.0, float(rep.probability)))
        return SignalOutput("reject" if rep.hallucination else "accept", 1.0 - p,
                            json_safe(rep))


def make_signal(name: str, options: SignalOptions = SignalOptions()) -> Signal:
    """The adapter for ``name`` (module docstring); never raises for a missing package: an
    :class:`UnavailableSignal` says why instead."""
    if name == "deductive":
        return DeductiveSignal(options)
    if name == "pgmr":
        return PGMRSignal(options)
    if name == "hdm":
        return HDMSignal(options)
    if name == "syntax":
        return SyntaxSignal()
    if not name.isidentifier():
        return UnavailableSignal(name, "not a signal name")
    candidates = [f"verifier.{name}"] + (["verifier.stacking"] if name == "stacked" else [])
    mod = None
    for mod_name in candidates:
        try:
            mod = importlib.import_module(mod_name)
        except ModuleNotFoundError:
            continue
        except Exception as e:  # noqa: BLE001
            return UnavailableSignal(name, f"importing {mod_name} failed: {e}")
        if hasattr(mod, "benchmark_signal"):
            break
    if mod is None:
        return UnavailableSignal(name, f"no package {' or '.join(candidates)} yet (it should "
                                       f"expose benchmark_signal(options) -> Signal)")
    factory = getattr(mod, "benchmark_signal", None)
    if factory is None:
        return UnavailableSignal(name, f"{mod.__name__} exposes no benchmark_signal(options) "
                                       f"-> Signal yet")
    try:
        sig = factory(options)
    except Exception as e:  # noqa: BLE001
        return UnavailableSignal(name, f"{mod.__name__}.benchmark_signal failed: {e}")
    if not isinstance(sig, Signal):
        return UnavailableSignal(name, f"{mod.__name__}.benchmark_signal did not return a Signal")
    return sig
