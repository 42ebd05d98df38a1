"""Audits of query logs: ``verifier audit LOG [LOG...]``.

Modules, one concept each:

* :mod:`~verifier.audit.reader` — streaming JSONL/CSV/TSV reader (gzip too), bad lines as
  error records;
* :mod:`~verifier.audit.store` — the SQLite store (WAL, batched transactions, unique
  ``(log, line)``);
* :mod:`~verifier.audit.identity` — fingerprints of logs, axiom packs and configuration;
* :mod:`~verifier.audit.engines` — the scheduler (chunks, back-pressure, crash isolation),
  with :mod:`~verifier.audit.local_engine` (worker processes) and
  :mod:`~verifier.audit.ray_engine` (Ray actors);
* :mod:`~verifier.audit.work` — what a worker does with one record;
* :mod:`~verifier.audit.runner` — the pipeline, resume and change detection;
* :mod:`~verifier.audit.summary`, :mod:`~verifier.audit.conditions`,
  :mod:`~verifier.audit.export`, :mod:`~verifier.audit.entries`,
  :mod:`~verifier.audit.plots`, :mod:`~verifier.audit.report_html`,
  :mod:`~verifier.audit.report_md` — what comes out.

See ``docs/audit.md``.
"""

from __future__ import annotations

__all__ = ["AuditOptions", "AuditOutcome", "AuditConflict", "run_audit", "AuditStore", "summarize"]


def __getattr__(name: str):
    if name in ("AuditOptions", "AuditOutcome", "AuditConflict", "run_audit"):
        from verifier.audit import runner

        return getattr(runner, name)
    if name == "AuditStore":
        from verifier.audit.store import AuditStore

        return AuditStore
    if name == "summarize":
        from verifier.audit.summary import summarize

        return summarize
    raise AttributeError(f"module 'verifier.audit' has no attribute {name!r}")
