"""A :class:`~verifier.lexical.LabelIndex` read from a label store instead of memory.

:class:`StoreLabelIndex` answers exactly as the in-memory index built from the same labels:
its ``names``, ``by_key``, ``labels``, ``kinds`` and ``descriptions`` are read-only mappings
that load rows of the store on demand (``by_key[key]`` reads that key's names from the key
table, in insertion order, and ``by_key[key][:n]`` only the first ``n``), kept in bounded LRU
caches; the methods of :class:`~verifier.lexical.LabelIndex` (``candidates``,
``labels_written_as``, ``proper_names_ending``) run unchanged on top of them.  Grounding,
explanations and reports therefore give the same verdicts with the store as with the TSV it
was imported from.

With an :class:`~verifier.labels.sync.OnDemand` fetcher, :meth:`StoreLabelIndex.ensure`
fetches the ids of a query that the store lacks before grounding (bounded in time; a failure
leaves them unlabelled).  Thread-safe: the store gives each thread its own connection and
the caches take a lock.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Iterable, Iterator, Mapping, Sequence

from verifier.labels.store import LabelStore, PutCounts
from verifier.lexical import LabelIndex, NameEntry
from verifier.pgmr.symbols import Kind, Symbol

__all__ = ["StoreLabelIndex", "CacheSizes"]

log = logging.getLogger(__name__)

_MISS = object()


class _Lru:
    """A bounded, thread-safe least-recently-used cache; ``weight(value)`` counts against
    ``capacity`` (1 per entry by default) and a value heavier than ``max_item`` is not kept."""

    def __init__(self, capacity: int, weight: Callable[[Any], int] = lambda v: 1,
                 max_item: int | None = None) -> None:
        self.capacity = capacity
        self.weight = weight
        self.max_item = max_item if max_item is not None else capacity
        self._data: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._total = 0
        self._lock = threading.Lock()

    def get(self, key: Hashable, default: Any = _MISS) -> Any:
        with self._lock:
            hit = self._data.get(key)
            if hit is None:
                return default
            self._data.move_to_end(key)
            return hit[0]

    def put(self, key: Hashable, value: Any) -> None:
        w = self.weight(value)
        if w > self.max_item or self.capacity <= 0:
            return
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self._total -= old[1]
            self._data[key] = (value, w)
            self._total += w
            while self._total > self.capacity and self._data:
                _, (_, ow) = self._data.popitem(last=False)
                self._total -= ow

    def pop(self, key: Hashable) -> None:
        with self._lock:
            old = self._data.pop(key, None)
            if old is not None:
                self._total -= old[1]

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self._total = 0


@dataclass(frozen=True)
class CacheSizes:
    """Bounds of the read caches: ids (their names, kind, description), names held in the
    per-key lists (a key with more names than ``key_list_max`` is re-read each time, only the
    slice asked for when it is a prefix), key counts, acronyms."""

    ids: int = 100_000
    key_names: int = 2_000_000
    key_list_max: int = 200_000
    key_counts: int = 200_000
    kinds: int = 1_000_000
    initials: int = 20_000


@dataclass(frozen=True)
class _Row:
    entries: tuple[NameEntry, ...]
    kind: str | None
    description: str


_ABSENT = _Row((), None, "")


class _View(Mapping):
    """A read-only mapping over the store (common plumbing)."""

    def __init__(self, index: "StoreLabelIndex") -> None:
        self._index = index

    def _value(self, key: str) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    def __getitem__(self, key: str) -> Any:
        v = self._value(key) if isinstance(key, str) else _MISS
        if v is _MISS:
            raise KeyError(key)
        return v

    def get(self, key: str, default: Any = None) -> Any:
        v = self._value(key) if isinstance(key, str) else _MISS
        return default if v is _MISS else v

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self._value(key) is not _MISS

    def __iter__(self) -> Iterator[str]:
        return (sid for sid in self._index.store.iter_ids() if sid in self)

    def __len__(self) -> int:
        return sum(1 for _ in self)


class _Names(_View):
    def _value(self, sid: str) -> Any:
        row = self._index.row(sid)
        return list(row.entries) if row.entries else _MISS

    def __iter__(self) -> Iterator[str]:
        return self._index.store.iter_ids()

    def __len__(self) -> int:
        return self._index.store.named_count()


class _Labels(_View):
    def _value(self, sid: str) -> Any:
        return next((e.name for e in self._index.row(sid).entries if e.is_label), _MISS)


class _Kinds(_View):
    def _value(self, sid: str) -> Any:
        return self._index.kind(sid) or _MISS


class _Descriptions(_View):
    def _value(self, sid: str) -> Any:
        return self._index.row(sid).description or _MISS


class _Keys(_View):
    def _value(self, key: str) -> Any:
        n = self._index.key_count(key)
        return KeyEntries(self._index, key, n) if n else _MISS

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self._index.key_count(key) > 0

    def __iter__(self) -> Iterator[str]:
        return self._index.store.iter_keys()


class KeyEntries(Sequence):
    """The names with one matching key, read from the store when first needed (a prefix
    slice ``[:n]`` reads only ``n``)."""

    def __init__(self, index: "StoreLabelIndex", key: str, count: int) -> None:
        self._index, self._key, self._count = index, key, count

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice) and i.start in (None, 0) and i.step in (None, 1) \
                and i.stop is not None and 0 <= i.stop < self._count:
            return self._index.key_list(self._key, i.stop)
        return self._index.key_list(self._key)[i]

    def __iter__(self) -> Iterator[NameEntry]:
        return iter(self._index.key_list(self._key))

    def __repr__(self) -> str:
        return f"KeyEntries({self._key!r}, {self._count} names)"


class StoreLabelIndex(LabelIndex):
    """The :class:`~verifier.lexical.LabelIndex` interface over a :class:`LabelStore`.

    ``on_demand`` (optional, an :class:`~verifier.labels.sync.OnDemand`) fetches absent ids in
    :meth:`ensure`.  Picklable: a copy reopens the store.
    """

    def __init__(self, store: LabelStore, *, on_demand: Any = None,
                 caches: CacheSizes = CacheSizes()) -> None:
        self.store = store
        self.on_demand = on_demand
        self.caches = caches
        self._rows = _Lru(caches.ids)
        self._kinds = _Lru(caches.kinds)
        self._key_lists = _Lru(caches.key_names, weight=len, max_item=caches.key_list_max)
        self._key_counts = _Lru(caches.key_counts)
        self._initials = _Lru(caches.initials)
        self.names = _Names(self)  # type: ignore[assignment]
        self.by_key = _Keys(self)  # type: ignore[assignment]
        self.labels = _Labels(self)  # type: ignore[assignment]
        self.kinds = _Kinds(self)  # type: ignore[assignment]
        self.descriptions = _Descriptions(self)  # type: ignore[assignment]
        self._by_initials = None

    def __getstate__(self) -> dict[str, Any]:
        return {"store": self.store, "on_demand": self.on_demand, "caches": self.caches}

    def __setstate__(self, state: Mapping[str, Any]) -> None:
        self.__init__(state["store"], on_demand=state["on_demand"], caches=state["caches"])  # type: ignore[misc]

    # -- reads (cached) ------------------------------------------------------------------------
    def row(self, sid: str) -> _Row:
        """Names, kind and description of an id (cached)."""
        hit = self._rows.get(sid)
        if hit is not _MISS:
            return hit
        ent = self.store.entity(sid)
        row = _ABSENT if ent is None else _Row(tuple(self.store.entries(sid)), ent.kind, ent.description)
        self._rows.put(sid, row)
        return row

    def kind(self, sid: str) -> str | None:
        """The kind of an id (cached, also filled by key look-ups)."""
        hit = self._kinds.get(sid)
        if hit is not _MISS:
            return hit
        k = self.row(sid).kind
        self._kinds.put(sid, k)
        return k

    def key_count(self, key: str) -> int:
        """How many names have matching key ``key`` (cached)."""
        n = self._key_counts.get(key)
        if n is _MISS:
            n = self.store.key_count(key)
            self._key_counts.put(key, n)
        return n

    def key_list(self, key: str, limit: int | None = None) -> list[NameEntry]:
        """The names with matching key ``key`` in insertion order (the first ``limit``)."""
        full = self._key_lists.get(key)
        if full is not _MISS:
            return list(full[:limit] if limit is not None else full)
        rows = self.store.key_entries(key, limit)
        for e, kind in rows:
            self._kinds.put(e.symbol, kind)
        entries = [e for e, _ in rows]
        if limit is None:
            self._key_lists.put(key, tuple(entries))
        return entries

    # -- the LabelIndex interface ------------------------------------------------------------
    def __contains__(self, symbol: str) -> bool:
        return symbol in self.names

    def __len__(self) -> int:
        return self.store.named_count()

    def label(self, symbol: str) -> str | None:
        return self.labels.get(symbol)

    def acronym_bearers(self, letters: str) -> set[str]:
        """Ids one of whose names has the acronym ``letters`` (from the store's acronym table)."""
        hit = self._initials.get(letters)
        if hit is _MISS:
            hit = frozenset(self.store.initials_bearers(letters))
            self._initials.put(letters, hit)
        return set(hit)

    def add(self, symbol: str, names: Iterable[str], kind: str = "item", description: str = "") -> None:
        """Store a symbol (replacing what the store had for it: unlike the in-memory index,
        names are not appended to earlier ones)."""
        names = [n for n in names if n and n.strip()]
        if not names:
            return
        sym = Symbol(symbol, names[0], Kind(kind), tuple(names[1:]), description)
        self.forget(self.store.put([sym], "add"), [symbol])

    # -- writes by others --------------------------------------------------------------------
    def forget(self, counts: PutCounts | None, ids: Iterable[str]) -> None:
        """Drop what a write changed from the caches: the ids, and the keys and acronyms of
        their old and new names."""
        for sid in ids:
            self._rows.pop(sid)
            self._kinds.pop(sid)
        if counts is not None:
            for k in counts.keys:
                self._key_lists.pop(k)
                self._key_counts.pop(k)
            for a in counts.letters:
                self._initials.pop(a)

    def ensure(self, ids: Iterable[str]) -> None:
        """Fetch the ids the store lacks through the on-demand fetcher, if any (bounded in
        time; never raises: ids that cannot be fetched stay unlabelled)."""
        if self.on_demand is None:
            return
        want = [i for i in dict.fromkeys(ids) if i and self.row(i) is _ABSENT]
        if not want:
            return
        try:
            counts = self.on_demand.fetch(want)
        except Exception as e:  # the record is verified without these labels
            log.warning("fetching labels of %s failed: %s", ", ".join(want[:5]), e)
            counts = None
        self.forget(counts, want)
