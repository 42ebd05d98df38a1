"""Fill a label store from a fetcher: only the ids it lacks, storing each batch as it comes.

:func:`fetch_into` is ``verifier labels fetch``: ids already stored are cache hits, ids a
source said it does not know are not asked again before ``missing_ttl`` seconds have passed
(``refresh`` asks everything again).  :class:`OnDemand` is the bounded version used while
verifying: at most ``max_ids`` ids and ``budget`` seconds per query, and after a failure no
fetch for ``cooldown`` seconds, so that an unreachable endpoint costs one time-out, not one
per record.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Iterable, Mapping

from verifier.labels.fetch import Fetcher, FetchOptions, FetchResult, FetchStats
from verifier.labels.store import LabelStore, PutCounts

__all__ = ["FetchSummary", "fetch_into", "OnDemand", "DAY"]

log = logging.getLogger(__name__)

DAY = 86400.0


@dataclass
class FetchSummary:
    """What :func:`fetch_into` did: ids asked, cache hits (already stored), ids skipped
    because a source said recently that it does not know them, ids fetched and stored,
    recorded missing (unknown, or without an English name), failed (asked again next
    time), HTTP requests and retries, seconds, first errors."""

    asked: int = 0
    cache_hits: int = 0
    known_missing: int = 0
    fetched: int = 0
    missing: int = 0
    no_english: int = 0
    failed: int = 0
    requests: int = 0
    retries: int = 0
    seconds: float = 0.0
    errors: list[str] = field(default_factory=list)
    put: PutCounts = field(default_factory=PutCounts, repr=False)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("put")
        return d


def fetch_into(store: LabelStore, fetcher: Fetcher, ids: Iterable[str], *, refresh: bool = False,
               missing_ttl: float = 30 * DAY, deadline: float | None = None,
               progress: Callable[[int, int], None] | None = None) -> FetchSummary:
    """Fetch the ids of ``ids`` that ``store`` lacks and store them (see the module
    documentation); ``progress(done, total)`` after each batch."""
    t0 = time.perf_counter()
    want = list(dict.fromkeys(i for i in ids if i))
    out = FetchSummary(asked=len(want))
    if refresh:
        todo = want
    else:
        stored, missing = store.known(want, missing_since=time.time() - missing_ttl)
        out.cache_hits, out.known_missing = len(stored), len(missing)
        todo = [i for i in want if i not in stored and i not in missing]
    stats = FetchStats()
    source = fetcher.options.source
    done = 0

    def keep(res: FetchResult) -> None:
        nonlocal done
        if res.symbols:
            counts = store.put(res.symbols, source)
            out.put.stored += counts.stored
            out.put.replaced += counts.replaced
            out.put.keys |= counts.keys
            out.put.letters |= counts.letters
        if res.missing:
            store.mark_missing(res.missing, source, "missing")
        if res.no_english:
            store.mark_missing(res.no_english, source, "no English name")
        out.fetched += len(res.symbols)
        out.missing += len(res.missing)
        out.no_english += len(res.no_english)
        out.failed += len(res.failed)
        done += len(res.symbols) + len(res.missing) + len(res.no_english) + len(res.failed)
        if progress is not None:
            progress(done, len(todo))

    if todo:
        fetcher.fetch(todo, deadline=deadline, stats=stats, on_batch=keep)
    out.requests, out.retries, out.errors = stats.requests, stats.retries, list(stats.errors)
    out.seconds = round(time.perf_counter() - t0, 3)
    return out


class OnDemand:
    """Bounded fetches of absent ids while verifying (see the module documentation)."""

    def __init__(self, store: LabelStore, options: FetchOptions, *, budget: float = 5.0,
                 max_ids: int = 200, cooldown: float = 60.0, missing_ttl: float = 30 * DAY,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.options = options
        self.budget = budget
        self.max_ids = max_ids
        self.cooldown = cooldown
        self.missing_ttl = missing_ttl
        self.fetcher = Fetcher(options, clock=clock)
        self._clock = clock
        self._paused_until = 0.0
        self._lock = threading.Lock()

    def __getstate__(self) -> dict[str, Any]:
        return {"store": self.store, "options": self.options, "budget": self.budget,
                "max_ids": self.max_ids, "cooldown": self.cooldown, "missing_ttl": self.missing_ttl}

    def __setstate__(self, state: Mapping[str, Any]) -> None:
        self.__init__(state["store"], state["options"], budget=state["budget"],  # type: ignore[misc]
                      max_ids=state["max_ids"], cooldown=state["cooldown"],
                      missing_ttl=state["missing_ttl"])

    def fetch(self, ids: Iterable[str]) -> PutCounts | None:
        """Fetch and store the absent ``ids`` (at most ``max_ids``) within ``budget`` seconds;
        ``None`` while paused after a failure."""
        now = self._clock()
        with self._lock:
            if now < self._paused_until:
                return None
        summary = fetch_into(self.store, self.fetcher, list(ids)[: self.max_ids],
                             missing_ttl=self.missing_ttl, deadline=now + self.budget)
        if summary.failed:
            with self._lock:
                self._paused_until = self._clock() + self.cooldown
            log.warning("labels of %d id(s) could not be fetched from %s (%s); they stay unlabelled, "
                        "and no label is fetched for %.0f s", summary.failed, self.options.source,
                        "; ".join(summary.errors[:1]) or "no time left", self.cooldown)
        return summary.put
