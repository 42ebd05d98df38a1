"""Import a Wikidata JSON dump or a labels TSV into a label store, streaming.

:func:`import_file` reads the file one record at a time (:func:`verifier.labels.dump.read_dump`
or :func:`verifier.pgmr.loaders.iter_labels_tsv`) and stores batches of ``batch`` ids, each in
one transaction that also records how far the import got.  An interrupted import of a dump
resumes after its last committed line when run again on the same unchanged file
(``restart=True`` starts over); a TSV is read again from the top.  Storing an id again
replaces it, so importing twice leaves the same store.  Memory stays bounded by one batch.
"""

from __future__ import annotations

import logging
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from verifier.labels.dump import DumpCounts, read_dump, sniff_format
from verifier.labels.store import ImportState, LabelStore, PutCounts
from verifier.pgmr.loaders import TsvCounts, iter_labels_tsv
from verifier.pgmr.symbols import Symbol

__all__ = ["ImportOptions", "ImportSummary", "import_file", "FORMATS"]

log = logging.getLogger(__name__)

FORMATS = ("auto", "json", "tsv")


@dataclass(frozen=True)
class ImportOptions:
    """``format`` (``auto``: told by the first character), ``batch`` (ids per transaction),
    ``restart`` (ignore an interrupted import of the same file), ``lang`` (language of the
    names taken from a dump), ``progress`` (called as ``progress(done_bytes, total_bytes)``
    after every batch)."""

    format: str = "auto"
    batch: int = 2000
    restart: bool = False
    lang: str = "en"
    progress: Callable[[int, int], None] | None = None


@dataclass(frozen=True)
class ImportSummary:
    """What an import did: records read (by this run), ids stored (new) and replaced (with
    those of the interrupted run it resumed), records skipped (no English name, not an item or
    property, malformed), where it resumed, time, and the store's size afterwards."""

    source: str
    format: str
    records: int
    stored: int
    replaced: int
    no_english: int
    other_type: int
    malformed: int
    resumed_from_line: int
    seconds: float
    store: str
    store_named: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def import_file(store: LabelStore, path: str | Path, options: ImportOptions = ImportOptions()) -> ImportSummary:
    """Import ``path`` into ``store`` (see the module documentation)."""
    src = Path(path)
    if not src.is_file():
        raise FileNotFoundError(f"{src}: no such file")
    if options.format not in FORMATS:
        raise ValueError(f"unknown format {options.format!r} (use {', '.join(FORMATS)})")
    if options.batch < 1:
        raise ValueError("the batch size must be at least 1")
    fmt = sniff_format(src) if options.format == "auto" else options.format
    st = src.stat()
    key = str(src.resolve())
    prev = store.import_state(key)
    start = 0
    if (fmt == "json" and not options.restart and prev is not None and prev.finished is None
            and prev.size == st.st_size and prev.mtime == st.st_mtime and prev.format == fmt):
        start = prev.lines_done
        log.info("resuming the import of %s after line %d", src, start)
    t0 = time.perf_counter()
    started = time.time()
    source = f"{'dump' if fmt == 'json' else 'tsv'}:{src.name}"
    dump_counts, tsv_counts = DumpCounts(), TsvCounts()
    records: Iterator[tuple[int, Symbol]]
    if fmt == "json":
        records = read_dump(src, dump_counts, lang=options.lang, start_line=start)
    else:
        records = ((i, s) for i, s in enumerate(iter_labels_tsv(src, counts=tsv_counts), 1))
    totals = dict(prev.counts) if start and prev is not None else {}
    stored = int(totals.get("stored", 0))
    replaced = int(totals.get("replaced", 0))

    def position() -> int:
        return dump_counts.position if fmt == "json" else tsv_counts.bytes_read

    def state(lines: int, finished: float | None, new: PutCounts | None = None) -> ImportState:
        counts = {"stored": stored + (new.stored if new else 0), "replaced": replaced + (new.replaced if new else 0)}
        return ImportState(key, st.st_size, st.st_mtime, fmt, lines, counts, started, finished)

    store.bump_generation()
    store.record_import(state(start, None))
    batch: list[Symbol] = []

    def flush() -> None:
        nonlocal stored, replaced
        lines = dump_counts.lines if fmt == "json" else 0
        counts = store.put(batch, source, checkpoint=lambda new: state(lines, None, new))
        stored, replaced = stored + counts.stored, replaced + counts.replaced
        batch.clear()
        if options.progress is not None:
            options.progress(position(), st.st_size)

    for _, sym in records:
        batch.append(sym)
        if len(batch) >= options.batch:
            flush()
    if batch:
        flush()
    lines_done = dump_counts.lines if fmt == "json" else tsv_counts.records
    store.record_import(state(lines_done, time.time()))
    store.bump_generation()
    if options.progress is not None:
        options.progress(st.st_size, st.st_size)
    records_read = (dump_counts.entities if fmt == "json" else tsv_counts.records)
    return ImportSummary(
        str(src), fmt, records_read, stored, replaced,
        dump_counts.no_english, dump_counts.other_type,
        dump_counts.errors if fmt == "json" else tsv_counts.skipped,
        start, round(time.perf_counter() - t0, 3), str(store.path), store.named_count())
