"""``verifier audit export``: the stored results as JSONL or CSV, streamed in line order.

JSONL rows carry the JSON columns (``fields``, ``verdict_json``, ``timings``,
``unsupported``, ``reason_kinds``) as nested values and the log's path; CSV rows carry them
as JSON text, one column per store column (see :data:`verifier.audit.store.RESULT_COLUMNS`)
plus ``log``.  Both add ``consensus``: the record's consensus evidence when its question has
several candidates (:mod:`verifier.audit.grouping`), else null / empty.
"""

from __future__ import annotations

import csv
import json
from typing import IO, Any

from verifier.audit.store import RESULT_COLUMNS, AuditStore

__all__ = ["export", "EXPORT_FORMATS", "JSON_COLUMNS"]

EXPORT_FORMATS = ("jsonl", "csv")
JSON_COLUMNS = ("fields", "verdict_json", "timings", "unsupported", "reason_kinds")


def export(store: AuditStore, fmt: str, out: IO[str], *, where: str = "") -> int:
    """Write every result (optionally filtered by an SQL ``where`` on ``results``) to ``out``;
    returns the number of rows."""
    if fmt not in EXPORT_FORMATS:
        raise ValueError(f"unknown export format {fmt!r} (use {', '.join(EXPORT_FORMATS)})")
    paths = {l.log_id: l.path for l in store.logs()}
    n = 0
    writer = None
    if fmt == "csv":
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["log", *RESULT_COLUMNS, "consensus"])
    grouped = store.has_table("consensus") and store.db.execute("SELECT 1 FROM consensus LIMIT 1").fetchone()
    for row in store.iter_rows(RESULT_COLUMNS, where=where):
        cons = store.consensus(row["log_id"], row["line"]) if grouped else None
        if writer is not None:
            writer.writerow([paths.get(row["log_id"], ""), *[("" if row[c] is None else row[c]) for c in RESULT_COLUMNS],
                             json.dumps(cons, ensure_ascii=False) if cons is not None else ""])
        else:
            d: dict[str, Any] = {"log": paths.get(row["log_id"], "")}
            for c in RESULT_COLUMNS:
                v = row[c]
                d[c] = json.loads(v) if c in JSON_COLUMNS and isinstance(v, str) else v
            d["consensus"] = cons
            out.write(json.dumps(d, ensure_ascii=False) + "\n")
        n += 1
    return n
