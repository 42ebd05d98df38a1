"""Execution evidence: run the query on a knowledge graph and describe the answer.

Two back ends, both optional (the stacked verifier treats "not configured" as a missing
signal):

* :class:`LocalKG`: a Turtle / N-Triples file loaded into pyoxigraph (optional import; rdflib
  is the fallback).  Queries run in a worker thread with a per-query timeout: pyoxigraph
  cannot be interrupted, so a query that exceeds the timeout is reported as ``timeout`` and
  its thread is left to finish in the background (daemon thread).
* :class:`Endpoint`: a SPARQL endpoint over HTTP (``urllib``, JSON results, timeout).

Queries that omit the Wikidata prefixes (``wd:``, ``wdt:`` ...; the Wikidata Query Service
declares them implicitly) get ``PREFIX`` lines for the prefixes they use
(:func:`with_prefixes`).  Nothing raises: a malformed query, an unsupported feature (e.g. the
``wikibase:label`` service on a local store), a network error or a timeout is an
:class:`ExecutionResult` with ``status`` ``error`` / ``timeout``.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
import urllib.parse
import urllib.request
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

__all__ = ["ExecutionResult", "Executor", "LocalKG", "Endpoint", "with_prefixes",
           "executor_from_config", "answers_digest"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ExecutionResult:
    """Outcome of running one query.

    ``status``: ``ok``, ``error``, ``timeout`` or ``skipped`` (no query); ``n_answers``:
    solutions of a SELECT (capped at ``max_rows`` of the executor); ``boolean``: the answer
    of an ASK query; ``sample``: up to 3 solutions as text, for explanations; ``answers``: a
    digest of the solutions read (:func:`answers_digest`; "" when unknown), so that candidates
    that returned the same answers can be told (:mod:`verifier.consensus.answers`).
    """

    status: str
    n_answers: int = 0
    boolean: bool | None = None
    error: str | None = None
    seconds: float = 0.0
    sample: tuple[str, ...] = ()
    backend: str = ""
    answers: str = ""

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["sample"] = list(self.sample)
        return d

    def describe(self) -> str:
        """One readable sentence."""
        if self.status == "ok":
            if self.boolean is not None:
                return f"Executed on the {self.backend}: ASK answered {str(self.boolean).lower()}."
            if self.n_answers == 0:
                return f"Executed on the {self.backend}: the answer is empty."
            s = f" (e.g. {', '.join(self.sample)})" if self.sample else ""
            return f"Executed on the {self.backend}: {self.n_answers} answer(s){s}."
        if self.status == "timeout":
            return f"Execution on the {self.backend} timed out after {self.seconds:.1f} s."
        if self.status == "skipped":
            return "Not executed (no query)."
        return f"Execution on the {self.backend} failed: {self.error}."


class Executor(Protocol):
    """Anything that runs a SPARQL query (see :class:`LocalKG`, :class:`Endpoint`)."""

    def run(self, sparql: str | None) -> ExecutionResult:
        """Run ``sparql``; never raises."""


def _prefixes() -> dict[str, str]:
    from verifier.namespaces import WIKIDATA_PREFIXES

    return dict(WIKIDATA_PREFIXES)


_DECLARED = re.compile(r"(?im)^\s*PREFIX\s+([A-Za-z][\w.-]*)?:\s*<")
_USED = re.compile(r"(?<![\w<:/#?$])([A-Za-z][\w-]*):(?=[A-Za-z0-9_])")


def with_prefixes(sparql: str) -> str:
    """``sparql`` with ``PREFIX`` lines added for the Wikidata prefixes it uses without
    declaring them (string literals and IRIs in angle brackets are not scanned)."""
    declared = {m.group(1) or "" for m in _DECLARED.finditer(sparql)}
    body = re.sub(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|<[^<>\s]*>|#[^\n]*', " ", sparql)
    known = _prefixes()
    used = [p for p in dict.fromkeys(m.group(1) for m in _USED.finditer(body))
            if p in known and p not in declared]
    if not used:
        return sparql
    return "".join(f"PREFIX {p}: <{known[p]}>\n" for p in used) + sparql


def answers_digest(rows: Any) -> str:
    """A digest of a multiset of solutions, each a sequence of term texts (``None`` for an
    unbound variable): equal for the same answers in any order, of rows and of the values in
    a row (so renamed or reordered variables do not matter).

    >>> answers_digest([["a", "1"], ["b", None]]) == answers_digest([[None, "b"], ["1", "a"]])
    True
    """
    import hashlib

    lines = sorted("\t".join(sorted("" if v is None else str(v) for v in row)) for row in rows)
    return hashlib.sha1("\n".join(lines).encode("utf-8")).hexdigest()[:16]


def _term_text(t: Any) -> str:
    v = getattr(t, "value", None)
    s = str(v if v is not None else t)
    return s.rsplit("/", 1)[-1] if s.startswith("http") else s[:60]


class LocalKG:
    """A Turtle / N-Triples file in an in-memory store (pyoxigraph, else rdflib)."""

    def __init__(self, path: str | Path, *, timeout: float = 5.0, max_rows: int = 1000) -> None:
        self.path = Path(path)
        self.timeout = float(timeout)
        self.max_rows = int(max_rows)
        fmt = "nt" if self.path.suffix in (".nt", ".ntriples") else "ttl"
        t0 = time.perf_counter()
        try:
            import pyoxigraph as ox

            self._store = ox.Store()
            mime = "application/n-triples" if fmt == "nt" else "text/turtle"
            with open(self.path, "rb") as f:
                if hasattr(ox, "RdfFormat"):  # pyoxigraph >= 0.4
                    self._store.bulk_load(f, format=ox.RdfFormat.N_TRIPLES if fmt == "nt"
                                          else ox.RdfFormat.TURTLE)
                else:
                    self._store.bulk_load(f, mime)
            self.backend = "pyoxigraph"
            self.size = len(self._store)
        except ImportError:
            import rdflib

            self._store = rdflib.Graph()
            self._store.parse(str(self.path), format="nt" if fmt == "nt" else "turtle")
            self.backend = "rdflib"
            self.size = len(self._store)
        log.info("loaded %d triples from %s into %s in %.2f s", self.size, self.path,
                 self.backend, time.perf_counter() - t0)

    def _query(self, text: str) -> tuple[int, bool | None, tuple[str, ...], str]:
        if self.backend == "pyoxigraph":
            res = self._store.query(text)
            if isinstance(res, bool) or type(res).__name__ == "QueryBoolean":
                return 0, bool(res), (), ""
            rows = []
            for sol in res:
                rows.append([sol[i] for i in range(len(res.variables))] if hasattr(res, "variables")
                            else list(sol))
                if len(rows) >= self.max_rows:
                    break
        else:
            res = self._store.query(text)
            if res.type == "ASK":
                return 0, bool(res.askAnswer), (), ""
            rows = [list(r) for r in list(res)[: self.max_rows]]
        sample = tuple(", ".join(_term_text(v) for v in r if v is not None) for r in rows[:3])
        digest = answers_digest([[None if v is None else str(v) for v in r] for r in rows])
        return len(rows), None, sample, digest

    def run(self, sparql: str | None) -> ExecutionResult:
        """Run one query with the timeout (module docstring)."""
        if not sparql or not sparql.strip():
            return ExecutionResult("skipped", backend="knowledge graph")
        text = with_prefixes(sparql)
        box: dict[str, Any] = {}

        def work() -> None:
            try:
                box["out"] = self._query(text)
            except Exception as e:  # noqa: BLE001 - any failure is evidence, not a crash
                box["err"] = f"{type(e).__name__}: {str(e).splitlines()[0][:300] if str(e) else ''}"

        t0 = time.perf_counter()
        th = threading.Thread(target=work, daemon=True, name="kg-query")
        th.start()
        th.join(self.timeout)
        dt = time.perf_counter() - t0
        where = f"local knowledge graph ({self.path.name})"
        if th.is_alive():
            return ExecutionResult("timeout", seconds=dt, error=f"timeout after {self.timeout} s",
                                   backend=where)
        if "err" in box:
            return ExecutionResult("error", error=box["err"], seconds=dt, backend=where)
        n, boolean, sample, digest = box["out"]
        return ExecutionResult("ok", n, boolean, None, dt, sample, where, digest)


class Endpoint:
    """A SPARQL endpoint (HTTP GET, ``application/sparql-results+json``)."""

    def __init__(self, url: str, *, timeout: float = 10.0, max_rows: int = 1000,
                 user_agent: str = "sparql-verifier/0.1 (stacked verifier execution check)") -> None:
        self.url = url
        self.timeout = float(timeout)
        self.max_rows = int(max_rows)
        self.user_agent = user_agent

    def run(self, sparql: str | None) -> ExecutionResult:
        """Run one query (module docstring)."""
        if not sparql or not sparql.strip():
            return ExecutionResult("skipped", backend="endpoint")
        where = f"endpoint {self.url}"
        req = urllib.request.Request(
            self.url + ("&" if "?" in self.url else "?") + urllib.parse.urlencode(
                {"query": with_prefixes(sparql), "format": "json"}),
            headers={"Accept": "application/sparql-results+json", "User-Agent": self.user_agent})
        t0 = time.perf_counter()
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                data = json.loads(resp.read().decode("utf-8"))
        except TimeoutError:
            return ExecutionResult("timeout", seconds=time.perf_counter() - t0,
                                   error=f"timeout after {self.timeout} s", backend=where)
        except Exception as e:  # noqa: BLE001 - network / HTTP / JSON errors are evidence
            dt = time.perf_counter() - t0
            status = "timeout" if "timed out" in str(e) else "error"
            return ExecutionResult(status, error=f"{type(e).__name__}: {str(e)[:300]}",
                                   seconds=dt, backend=where)
        dt = time.perf_counter() - t0
        if "boolean" in data:
            return ExecutionResult("ok", 0, bool(data["boolean"]), None, dt, (), where)
        rows = (data.get("results") or {}).get("bindings") or []
        rows = rows[: self.max_rows]
        sample = tuple(", ".join(_term_text(v.get("value", "")) for v in r.values()) for r in rows[:3])
        names = sorted({k for r in rows for k in r})
        digest = answers_digest([[(r.get(k) or {}).get("value") for k in names] for r in rows])
        return ExecutionResult("ok", len(rows), None, None, dt, sample, where, digest)


def executor_from_config(kg_file: str | Path | None = None, endpoint: str | None = None, *,
                         timeout: float = 5.0) -> Executor | None:
    """A :class:`LocalKG` for ``kg_file``, else an :class:`Endpoint` for ``endpoint``, else
    ``None``; a KG file that cannot be loaded is logged and gives ``None``."""
    if kg_file:
        try:
            return LocalKG(kg_file, timeout=timeout)
        except Exception as e:  # noqa: BLE001
            log.warning("cannot load the knowledge graph %s: %s", kg_file, e)
            return None
    if endpoint:
        return Endpoint(endpoint, timeout=timeout)
    return None
