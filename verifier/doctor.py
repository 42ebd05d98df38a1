"""What is configured and working: the engine of ``verifier doctor``.

Each check is one small function ``check(ctx: DoctorContext) -> CheckResult`` listed in
:data:`CHECKS`; :func:`run_checks` runs them all (a check that crashes is reported as broken,
the others still run) and returns a :class:`DoctorReport`.  Adding a check: write the
function, append it to :data:`CHECKS`.

A result's ``status`` is one of :data:`STATUSES`:

* ``ok``: configured (or built in) and working;
* ``missing``: an optional part that is not set up; ``fix`` is the command that sets it up;
* ``off``: turned off by the configuration;
* ``warn``: works, but not as configured or not fully (e.g. used only with a stacking model);
* ``broken``: configured but not working (a file that does not exist, a binary that does not
  run, a model that does not load, a missing extra the configuration needs).

:attr:`DoctorReport.exit_code` is 0 when nothing is broken (the deductive path works and every
configured part loads), else 1.
"""

from __future__ import annotations

import importlib
import json
import logging
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from verifier.config import Config, load_config
from verifier.extras import install_hint, missing_modules

__all__ = ["CheckResult", "DoctorContext", "DoctorReport", "STATUSES", "CHECKS", "run_checks",
           "format_report", "count_label_ids"]

log = logging.getLogger(__name__)

STATUSES = ("ok", "missing", "off", "warn", "broken")
_SQLITE_MAGIC = b"SQLite format 3\x00"


@dataclass(frozen=True, slots=True)
class CheckResult:
    """One line of the report: ``name`` (machine key), ``title`` (for people), ``status``
    (:data:`STATUSES`), ``detail`` (what was found), ``fix`` (the command that sets up or
    repairs the part; empty when nothing is to do) and ``facts`` (numbers and paths)."""

    name: str
    title: str
    status: str
    detail: str
    fix: str = ""
    facts: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown status {self.status!r}; one of {STATUSES}")

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "status": self.status,
                "detail": self.detail, "fix": self.fix, "facts": dict(self.facts)}


@dataclass(frozen=True)
class DoctorContext:
    """What the checks read: the loaded configuration (empty when it could not be loaded,
    with ``config_error`` saying why)."""

    config: Config
    config_error: str = ""

    def get(self, section: str, key: str, default: Any = None) -> Any:
        return self.config.get(section, key, default)


@dataclass(frozen=True)
class DoctorReport:
    """All results, in the order of :data:`CHECKS`."""

    results: tuple[CheckResult, ...]

    def result(self, name: str) -> CheckResult:
        """The result of the check called ``name`` (``KeyError`` when there is none)."""
        for r in self.results:
            if r.name == name:
                return r
        raise KeyError(name)

    @property
    def broken(self) -> tuple[CheckResult, ...]:
        return tuple(r for r in self.results if r.status == "broken")

    @property
    def exit_code(self) -> int:
        """0 when nothing is broken, 1 otherwise."""
        return 1 if self.broken else 0

    def to_dict(self) -> dict[str, Any]:
        return {"ok": not self.broken, "exit_code": self.exit_code,
                "checks": [r.to_dict() for r in self.results]}


def _size(path: Path) -> str:
    n = float(path.stat().st_size)
    for unit in ("B", "kB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return ""


def _count(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


# ----------------------------------------------------------------------------- the checks


def check_config(ctx: DoctorContext) -> CheckResult:
    """Which configuration files were read."""
    files = list(dict.fromkeys(str(f) for f in ctx.config.files))   # a file read twice once
    if ctx.config_error:
        return CheckResult("config", "configuration", "broken", ctx.config_error,
                           "fix the file named above (TOML)", {"files": files})
    detail = ", ".join(files) if files else "no verifier.toml found: built-in defaults"
    return CheckResult("config", "configuration", "ok", detail, facts={"files": files})


def check_deductive(ctx: DoctorContext) -> CheckResult:
    """The deductive path end to end on a built-in pair: SPARQL grammar, axiom pack (with
    ``[axioms] dirs``), pattern readings, Z3; a wrong property must not be accepted."""
    from verifier.api import Verifier
    from verifier.lexical import LabelIndex
    from verifier.mrs_cache import MrsProvider

    t0 = time.perf_counter()
    labels = LabelIndex()
    labels.add("Q2270", ["benzene"], "item")
    labels.add("P2067", ["mass"], "property")
    labels.add("P2102", ["boiling point"], "property")
    cfg = Config({"axioms": dict(ctx.config.section("axioms")), "grounding": {"wordnet": "none"},
                  "stacking": {"model": "none"}})  # the deductive path itself
    v = Verifier(cfg, labels=labels, mrs=MrsProvider())
    q = "What is the mass of benzene?"
    good = v.verify(q, "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v }")
    bad = v.verify(q, "SELECT ?v WHERE { wd:Q2270 wdt:P2102 ?v }")
    ms = (time.perf_counter() - t0) * 1000
    facts = {"templates": len(v.pack.templates), "seconds": round(ms / 1000, 2),
             "verdicts": [good.verdict, bad.verdict]}
    if good.verdict != "faithful" or bad.decision == "accept":
        return CheckResult("deductive", "deductive path", "broken",
                           f"self-test gave {good.verdict} / {bad.verdict} (expected faithful / "
                           f"not accepted): {good.explanation.splitlines()[0]}",
                           "check [axioms] dirs; 'verifier axioms lint' names bad templates", facts)
    return CheckResult("deductive", "deductive path", "ok",
                       f"self-test passed ({q!r}: right property accepted, wrong one "
                       f"{bad.verdict}; {len(v.pack.templates)} axiom templates; "
                       f"{ms / 1000:.1f} s)", facts=facts)


def check_ace(ctx: DoctorContext) -> CheckResult:
    """The ``[ace]`` section (or ``VERIFIER_ACE`` / ``VERIFIER_ERG``): binary runs, grammar
    image exists, and its identity (the MRS cache key)."""
    from parsers.ace import AceConfig
    from verifier.mrs_cache import grammar_identity

    title, fix = "ACE parser + ERG", "verifier setup ace --write-config"
    try:
        ace = AceConfig.from_config(ctx.config)
    except ValueError as e:
        return CheckResult("ace", title, "broken", str(e), "fix the [ace] section")
    if ace is None:
        return CheckResult("ace", title, "missing", "not configured: questions outside the MRS "
                           "sources get pattern readings of a few shapes only", fix)
    binary = Path(ace.binary).expanduser()
    exe = str(binary) if binary.exists() else shutil.which(ace.binary)
    if exe is None:
        return CheckResult("ace", title, "broken", f"ACE binary not found: {ace.binary}", fix,
                           {"binary": ace.binary})
    try:
        out = subprocess.run([exe, "-V"], capture_output=True, text=True, timeout=20)
        version = ((out.stdout or "") + (out.stderr or "")).strip().splitlines()[:1]
    except (OSError, subprocess.TimeoutExpired) as e:
        return CheckResult("ace", title, "broken", f"{exe} does not run: {e}", fix, {"binary": exe})
    version_text = version[0] if version else ""
    if "ACE" not in version_text:
        return CheckResult("ace", title, "broken", f"'{exe} -V' printed {version_text!r}", fix,
                           {"binary": exe})
    grammar = Path(ace.grammar).expanduser()
    if not grammar.is_file():
        return CheckResult("ace", title, "broken", f"grammar image not found: {ace.grammar}", fix,
                           {"binary": exe, "version": version_text})
    ident = grammar_identity(grammar)
    return CheckResult("ace", title, "ok", f"{version_text}; grammar {grammar} ({ident})",
                       facts={"binary": exe, "version": version_text, "grammar": str(grammar),
                              "grammar_identity": ident, "pool_size": ace.pool_size})


def _paths(value: Any) -> list[Path]:
    if not value:
        return []
    return [Path(str(v)).expanduser() for v in (value if isinstance(value, list) else [value])]


def check_mrs(ctx: DoctorContext) -> CheckResult:
    """The MRS sources: ``[mrs] corpora`` (files and their questions) and ``[mrs] cache``."""
    import gzip
    import sqlite3

    corpora, cache = _paths(ctx.get("mrs", "corpora")), ctx.get("mrs", "cache")
    parts, facts = [], {"corpora": {}, "cache": None}
    for c in corpora:
        if not c.is_file():
            return CheckResult("mrs", "MRS sources", "broken", f"[mrs] corpora: no file {c}",
                               "fix [mrs] corpora (corpus files: verifier mrs export writes one)")
        opener = gzip.open if c.read_bytes()[:2] == b"\x1f\x8b" else open
        with opener(c, "rt", encoding="utf-8") as f:
            n = sum(1 for line in f if line.strip())
        facts["corpora"][str(c)] = n
        parts.append(f"{c.name} ({_count(n, 'question')})")
    if cache:
        p = Path(str(cache)).expanduser()
        if p.is_file():
            try:
                db = sqlite3.connect(f"file:{p}?mode=ro", uri=True)
                n = db.execute("SELECT count(*) FROM parses").fetchone()[0]
                db.close()
            except sqlite3.Error:
                n = None
            facts["cache"] = {"path": str(p), "questions": n}
            parts.append(f"cache {p} ({_count(n, 'question') if n is not None else 'unreadable'})")
        else:
            parts.append(f"cache {p} (empty: created on the first parse)")
            facts["cache"] = {"path": str(p), "questions": 0}
    if not parts:
        return CheckResult("mrs", "MRS sources", "missing", "no [mrs] corpora or cache (ACE's "
                           "parses are not kept)", "[mrs] corpora = [\"FILE\"] in verifier.toml, "
                           "or verifier mrs --cache PATH import FILE and [mrs] cache = \"PATH\"",
                           facts)
    return CheckResult("mrs", "MRS sources", "ok", "; ".join(parts), facts=facts)


def check_wordnet(ctx: DoctorContext) -> CheckResult:
    """Which WordNet table lexical grounding uses: shipped, user-rebuilt, configured or off."""
    from verifier.lexical import WordNetRelations

    configured = ctx.get("grounding", "wordnet")
    path = WordNetRelations.default_path(None if configured is None else str(configured))
    if path is None:
        return CheckResult("wordnet", "WordNet table", "off", "[grounding] wordnet = \"none\"",
                           "remove [grounding] wordnet to use the shipped table")
    kind = ("configured" if configured else
            "shipped" if path == WordNetRelations.shipped_table() else "user-rebuilt")
    if not path.is_file():
        return CheckResult("wordnet", "WordNet table", "broken", f"{kind} table not found: {path}",
                           f"verifier setup wordnet --out {path}", {"kind": kind, "path": str(path)})
    words = len(WordNetRelations.load(path).related)
    return CheckResult("wordnet", "WordNet table", "ok", f"{kind}: {path} ({words:,} words)",
                       facts={"kind": kind, "path": str(path), "words": words})


def count_label_ids(path: Path) -> tuple[str, int | None]:
    """``(kind, number of ids)`` of a labels source: a TSV file (one id a line, after the
    optional ``id<TAB>label...`` header) or an SQLite
    label store (rows of its table with an ``id`` column); ``None`` when it cannot be told."""
    import sqlite3

    with open(path, "rb") as f:
        head = f.read(len(_SQLITE_MAGIC))
    if head != _SQLITE_MAGIC:
        with open(path, "rb") as f:
            return "TSV", sum(1 for line in f if line.strip() and not line.startswith(b"#")
                              and not line.startswith(b"id\t"))
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
            for t in sorted(tables, key=lambda t: t not in ("labels", "entities", "terms")):
                cols = [r[1] for r in db.execute(f'PRAGMA table_info("{t}")')]
                if "id" in cols:
                    return "SQLite", int(db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0])
        finally:
            db.close()
    except sqlite3.Error as e:
        log.info("cannot read %s as SQLite: %s", path, e)
    return "SQLite", None


def check_labels(ctx: DoctorContext) -> CheckResult:
    """The names of the KG's ids, found as grounding finds them: ``[grounding] labels`` (or
    ``VERIFIER_LABELS``: a TSV or a label store), else the label store of ``[labels] store``
    (or the default store when a fetch source is configured)."""
    from verifier.labels.configured import fetch_options, store_path

    value, key = ctx.get("grounding", "labels"), "[grounding] labels"
    if not value:
        value, key = store_path(ctx.config), "[labels] store"
    if not value:
        return CheckResult("labels", "KG labels", "missing", "no [grounding] labels or [labels] "
                           "store: grounding cannot name the query's ids",
                           "verifier labels import FILE (a Wikidata dump or a TSV) and the "
                           "[labels] store it prints, or [grounding] labels = FILE (TSV: id, "
                           "label, aliases, description) in verifier.toml")
    p = Path(str(value)).expanduser()
    fetching = fetch_options(ctx.config) is not None
    if not p.exists():
        if fetching:
            return CheckResult("labels", "KG labels", "ok", f"{key}: {p} (empty; ids are fetched "
                               "on demand)", facts={"path": str(p), "ids": 0})
        return CheckResult("labels", "KG labels", "broken", f"{key}: no file {p}",
                           f"fix {key}", {"path": str(p)})
    kind, n = count_label_ids(p) if p.is_file() else ("folder", None)
    size = f"{n:,} ids" if n is not None else "size unknown"
    more = "; missing ids fetched on demand" if fetching else ""
    return CheckResult("labels", "KG labels", "ok", f"{kind} {p} ({size}{more})",
                       facts={"path": str(p), "kind": kind, "ids": n})


def _only_stacked(ctx: DoctorContext, res: CheckResult) -> CheckResult:
    from verifier.stacking.default import model_setting

    if res.status == "ok" and model_setting(ctx) is None:
        return CheckResult(res.name, res.title, "warn", res.detail + "; used only with a "
                           "stacking model ([stacking] model)", "verifier train stack --help",
                           res.facts)
    return res


def check_pgmr(ctx: DoctorContext) -> CheckResult:
    """``[pgmr] memory`` / ``[pgmr] labels``: the label memory of the grounding signal."""
    memory, labels = ctx.get("pgmr", "memory"), ctx.get("pgmr", "labels")
    title = "PGMR memory"
    if not memory and not labels:
        return CheckResult("pgmr", title, "missing", "no [pgmr] memory or labels",
                           "verifier pgmr build --labels FILE --out DIR, then [pgmr] memory = DIR")
    meta = Path(str(memory)).expanduser() / "meta.json" if memory else None
    if meta is None or not meta.is_file():
        if labels and Path(str(labels)).expanduser().is_file():
            return _only_stacked(ctx, CheckResult(
                "pgmr", title, "ok", f"built from {labels} on first use"
                + (f" into {memory}" if memory else ""), facts={"labels": str(labels)}))
        what = f"no PGMR memory in {memory}" if memory else f"[pgmr] labels: no file {labels}"
        return CheckResult("pgmr", title, "broken", what,
                           f"verifier pgmr build --labels FILE --out {memory or 'DIR'}")
    info = json.loads(meta.read_text(encoding="utf-8"))
    encoder, kinds = str(info.get("encoder", "")), {
        g: p.get("index") for g, p in (info.get("partitions") or {}).items()}
    facts = {"path": str(meta.parent), "symbols": info.get("symbols"), "encoder": encoder,
             "indexes": kinds}
    detail = f"{meta.parent}: {info.get('symbols', '?'):,} ids, encoder {encoder.split('?')[0]}"
    if encoder.startswith("sentence-transformers") and missing_modules("learned"):
        return CheckResult("pgmr", title, "broken", detail + " (needs the learned extra)",
                           install_hint("learned"), facts)
    if set(kinds.values()) - {"flat"} and missing_modules("faiss"):
        return CheckResult("pgmr", title, "warn", detail + "; an approximate index without "
                           "FAISS is rebuilt exact at every load", install_hint("faiss"), facts)
    return _only_stacked(ctx, CheckResult("pgmr", title, "ok", detail, facts=facts))


def check_stacking(ctx: DoctorContext) -> CheckResult:
    """``[stacking] model``: the stacked verifier's calibrated model."""
    from verifier.stacking.model import StackingModel

    from verifier.stacking.default import DEFAULT_MODEL_PATH, model_setting

    path = model_setting(ctx)
    if path is None:
        return CheckResult("stacking", "stacking model", "missing", "deductive verdict only "
                           "(stacking switched off, or no shipped default model)",
                           "verifier train stack --train LABELLED.jsonl --compute --out "
                           "model.json, then [stacking] model = \"model.json\"")
    try:
        model = StackingModel.load(path)
    except (OSError, ValueError, KeyError, TypeError) as e:
        return CheckResult("stacking", "stacking model", "broken", f"cannot load {path}: {e}",
                           "verifier train stack ... --out " + str(path), {"path": str(path)})
    names = list(getattr(model, "feature_names", ()))
    which = "the shipped default model " if path == DEFAULT_MODEL_PATH else ""
    return CheckResult("stacking", "stacking model", "ok", f"{which}{path} ({len(names)} features)",
                       facts={"path": str(path), "features": len(names)})


def check_hdm(ctx: DoctorContext) -> CheckResult:
    """``[hdm] model``: the HDM detector (needs the learned extra)."""
    model = ctx.get("hdm", "model")
    title = "HDM model"
    if not model:
        return CheckResult("hdm", title, "missing", "no [hdm] model (optional learned signal)",
                           "verifier train hdm --help (needs " + install_hint("learned") + ")")
    det = Path(str(model)).expanduser() / "hdm_detector.json"
    if not det.is_file():
        return CheckResult("hdm", title, "broken", f"no HDM detector in {model}",
                           "verifier train hdm ... --out " + str(model), {"path": str(model)})
    info = json.loads(det.read_text(encoding="utf-8")).get("info") or {}
    generator = ctx.get("hdm", "generator") or info.get("generator")
    facts = {"path": str(model), "generator": generator}
    if missing_modules("learned", ("torch", "transformers", "tokenizers")):
        return CheckResult("hdm", title, "broken", f"{model}: needs the learned extra",
                           install_hint("learned"), facts)
    if not generator or not Path(str(generator)).expanduser().is_dir():
        return CheckResult("hdm", title, "broken", f"{model}: generator not found ({generator})",
                           "set [hdm] generator = DIR (the output of verifier train generator)",
                           facts)
    return _only_stacked(ctx, CheckResult("hdm", title, "ok", f"{model} (generator {generator})",
                                          facts=facts))


def check_kg(ctx: DoctorContext) -> CheckResult:
    """``[kg] file`` or ``[kg] endpoint``: execution evidence (endpoints are not contacted)."""
    file, endpoint = ctx.get("kg", "file"), ctx.get("kg", "endpoint")
    title = "knowledge graph"
    if file:
        p = Path(str(file)).expanduser()
        if not p.is_file():
            return CheckResult("kg", title, "broken", f"[kg] file: no file {p}", "fix [kg] file",
                               {"file": str(p)})
        backend = "rdflib" if missing_modules("kg") else "pyoxigraph"
        return _only_stacked(ctx, CheckResult("kg", title, "ok", f"{p} ({_size(p)}, read with "
                                              f"{backend})", facts={"file": str(p),
                                                                     "backend": backend}))
    if endpoint:
        return _only_stacked(ctx, CheckResult("kg", title, "ok", f"endpoint {endpoint} (not "
                                              "contacted by doctor)",
                                              facts={"endpoint": str(endpoint)}))
    return CheckResult("kg", title, "missing", "no execution evidence",
                       "[kg] file = \"kg.ttl\" or [kg] endpoint = URL in verifier.toml")


def check_learned(ctx: DoctorContext) -> CheckResult:
    """The ``learned`` extra: torch (and its device), transformers, sentence-transformers."""
    missing = missing_modules("learned")
    if missing:
        return CheckResult("learned", "learned extra", "missing", "not installed (" +
                           ", ".join(missing) + "): HDM and sentence-transformers encoders "
                           "unavailable", install_hint("learned"), {"missing": missing})
    torch = importlib.import_module("torch")
    device = "cuda" if torch.cuda.is_available() else "cpu"
    return CheckResult("learned", "learned extra", "ok", f"torch {torch.__version__} on {device}",
                       facts={"torch": torch.__version__, "device": device})


def check_faiss(ctx: DoctorContext) -> CheckResult:
    """The ``faiss`` extra (approximate indexes); without it PGMR search is exact, in NumPy."""
    if missing_modules("faiss"):
        return CheckResult("faiss", "FAISS", "missing", "not installed: PGMR search is exact "
                           "(NumPy), fine up to about a million labels", install_hint("faiss"))
    faiss = importlib.import_module("faiss")
    return CheckResult("faiss", "FAISS", "ok", f"faiss {getattr(faiss, '__version__', '?')}",
                       facts={"version": getattr(faiss, "__version__", None)})


Check = Callable[[DoctorContext], CheckResult]

#: The checks, in the order they are printed.
CHECKS: tuple[Check, ...] = (check_config, check_deductive, check_ace, check_mrs, check_wordnet,
                             check_labels, check_pgmr, check_stacking, check_hdm, check_kg,
                             check_learned, check_faiss)


def run_checks(config: str | Path | Config | None = None,
               checks: Sequence[Check] = CHECKS) -> DoctorReport:
    """Run ``checks`` on the configuration (a :class:`Config`, or a file added on top of the
    usual ones as by :func:`verifier.config.load_config`)."""
    if isinstance(config, Config):
        ctx = DoctorContext(config)
    else:
        try:
            ctx = DoctorContext(load_config(config))
        except (OSError, ValueError) as e:
            ctx = DoctorContext(Config(), str(e))
    out = []
    for check in checks:
        try:
            out.append(check(ctx))
        except Exception as e:  # noqa: BLE001 - one failing check must not hide the others
            name = check.__name__.removeprefix("check_")
            log.debug("check %s failed", name, exc_info=True)
            out.append(CheckResult(name, name, "broken", f"check failed: {type(e).__name__}: {e}"))
    return DoctorReport(tuple(out))


def format_report(report: DoctorReport) -> str:
    """One screen for people: a line per check, the fix under anything not ok."""
    width = max(len(r.title) for r in report.results)
    lines = []
    for r in report.results:
        lines.append(f"{r.title:<{width}}  {r.status:<7} {r.detail}")
        if r.fix and r.status != "ok":
            lines.append(f"{'':<{width}}  {'':<7} fix: {r.fix}")
    verdict = ("everything configured works" if not report.broken else
               f"{len(report.broken)} broken: " + ", ".join(r.title for r in report.broken))
    lines.append(f"\n{verdict} (exit code {report.exit_code})")
    return "\n".join(lines)
