"""The KG labels a configuration names, as one :class:`~verifier.lexical.LabelIndex`.

``[grounding] labels`` (a labels TSV, or a label store file) comes first: a project's own
labels win over a user-wide store.  Otherwise ``[labels] store`` (a label store, see
:mod:`verifier.labels.store`); with ``[labels] api`` or ``endpoint`` and no store, the default
store (:func:`default_store_path`).  With a source configured, ids a query uses that the
store lacks are fetched while verifying (``[labels] on_demand``, on by default).  The
``[labels]`` settings are listed in ``docs/configuration.md``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from verifier.labels.fetch import USER_AGENT, WIKIDATA_API, WIKIDATA_SPARQL, FetchOptions
from verifier.labels.index import StoreLabelIndex
from verifier.labels.store import LabelStore, is_label_store
from verifier.labels.sync import DAY, OnDemand
from verifier.lexical import LabelIndex
from verifier.pgmr.loaders import LoadReport, read_labels_tsv
from verifier.pgmr.symbols import Kind, Symbol

__all__ = ["configured_labels", "store_path", "default_store_path", "fetch_options",
           "missing_ttl", "open_index", "labels_from_file", "read_labels"]

def default_store_path() -> Path:
    """Where a store goes when none is named: ``$XDG_DATA_HOME/verifier/labels.sqlite``
    (default ``~/.local/share``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "verifier" / "labels.sqlite"


def _url(value: Any, wikidata: str) -> str | None:
    if not value:
        return None
    v = str(value).strip()
    return wikidata if v.casefold() == "wikidata" else v


def fetch_options(cfg: Any, **overrides: Any) -> FetchOptions | None:
    """The ``[labels]`` fetch settings (``overrides`` win; ``None`` values are ignored), or
    ``None`` when no ``api`` or ``endpoint`` is given.  ``"wikidata"`` stands for the public
    API / query service."""
    sec = dict(cfg.section("labels")) if cfg is not None else {}
    sec.update({k: v for k, v in overrides.items() if v is not None})
    api = _url(sec.get("api"), WIKIDATA_API)
    endpoint = _url(sec.get("endpoint"), WIKIDATA_SPARQL)
    if not api and not endpoint:
        return None
    maxlag = sec.get("maxlag", 5)
    return FetchOptions(api=api, endpoint=None if api else endpoint,
                        batch=int(sec.get("batch", 50)), timeout=float(sec.get("timeout", 10.0)),
                        retries=int(sec.get("retries", 4)), backoff=float(sec.get("backoff", 1.0)),
                        max_wait=float(sec.get("max_wait", 60.0)), rate=float(sec.get("rate", 5.0)),
                        user_agent=str(sec.get("user_agent") or USER_AGENT),
                        maxlag=None if maxlag in (None, "", "none", 0) else int(maxlag))


def missing_ttl(cfg: Any) -> float:
    """Seconds before an id a source did not know is asked again (``[labels]
    missing_ttl_days``, default 30)."""
    return float(cfg.get("labels", "missing_ttl_days", 30) if cfg is not None else 30) * DAY


def store_path(cfg: Any) -> Path | None:
    """The store a configuration names (``[labels] store``), else the default store when a
    fetch source is configured, else ``None``."""
    p = cfg.get("labels", "store") if cfg is not None else None
    if p:
        return Path(p).expanduser()
    return default_store_path() if fetch_options(cfg) is not None else None


def open_index(path: str | Path, cfg: Any = None, *, create: bool = False) -> StoreLabelIndex:
    """A :class:`StoreLabelIndex` over the store at ``path``, fetching on demand when the
    configuration names a source and ``[labels] on_demand`` is not false."""
    store = LabelStore(path, create=create)
    opts = fetch_options(cfg)
    demand = None
    if opts is not None and bool(cfg.get("labels", "on_demand", True)):
        demand = OnDemand(store, opts, budget=float(cfg.get("labels", "budget", 5.0)),
                          max_ids=int(cfg.get("labels", "max_ids", 200)),
                          cooldown=float(cfg.get("labels", "cooldown", 60.0)),
                          missing_ttl=missing_ttl(cfg))
    return StoreLabelIndex(store, on_demand=demand)


def labels_from_file(path: str | Path, cfg: Any = None) -> LabelIndex:
    """The labels of a file given on a command line (``--labels``): a label store (fetching
    on demand as ``cfg`` says) or a labels TSV."""
    if is_label_store(path):
        return open_index(path, cfg)
    return LabelIndex.from_labels_tsv(path)


def read_labels(path: str | Path, *, class_ids: Any = ()) -> LoadReport:
    """The symbols of a labels TSV or of a label store (every stored id, in id order): what a
    PGMR memory is built from (``[pgmr] labels``, ``verifier pgmr build --labels``)."""
    if not is_label_store(path):
        return read_labels_tsv(path, class_ids=class_ids)
    classes = frozenset(class_ids)
    with LabelStore(path, create=False) as store:
        symbols = tuple(s if s.id not in classes or s.kind is not Kind.ITEM
                        else Symbol(s.id, s.label, Kind.CLASS, s.aliases, s.description)
                        for s in store.symbols())
    return LoadReport(symbols, len(symbols), 0, str(path))


def configured_labels(cfg: Any) -> LabelIndex:
    """The labels grounding reads (see the module documentation); an empty index when none
    are configured."""
    tsv = cfg.get("grounding", "labels") if cfg is not None else None
    if tsv:
        if is_label_store(tsv):
            return open_index(tsv, cfg)
        return LabelIndex.cached(tsv)
    path = store_path(cfg)
    if path is None:
        return LabelIndex()
    # a store that is filled by fetching may start empty; one that is only read must exist
    return open_index(path, cfg, create=fetch_options(cfg) is not None)
