"""KG labels for any Wikidata id: a SQLite label store, filled by importing a Wikidata JSON
dump or a labels TSV and by fetching ids from the Wikibase API or a SPARQL endpoint, read by
grounding through the :class:`~verifier.lexical.LabelIndex` interface.

Modules, one concept each:

* :mod:`~verifier.labels.store` — the SQLite store (entities, indexed names, matching keys,
  acronyms, missing ids, imports);
* :mod:`~verifier.labels.index` — :class:`StoreLabelIndex`, the ``LabelIndex`` over a store
  (lazy rows, LRU caches, on-demand fetches);
* :mod:`~verifier.labels.dump` — streaming reader of Wikidata JSON dumps (plain, gzip, bzip2);
* :mod:`~verifier.labels.importer` — dump or TSV into the store, batched and resumable;
* :mod:`~verifier.labels.fetch` — HTTP fetches (``wbgetentities`` or SPARQL) with time-outs,
  retries and a rate limit;
* :mod:`~verifier.labels.sync` — fetch what the store lacks, cache misses, on-demand fetches;
* :mod:`~verifier.labels.ids` — ids from words, files, SPARQL queries and query logs;
* :mod:`~verifier.labels.configured` — the labels a configuration names.

See ``docs/labels.md``.
"""

from __future__ import annotations

__all__ = ["LabelStore", "StoreLabelIndex", "import_file", "fetch_into", "configured_labels"]


def __getattr__(name: str):
    if name == "LabelStore":
        from verifier.labels.store import LabelStore

        return LabelStore
    if name == "StoreLabelIndex":
        from verifier.labels.index import StoreLabelIndex

        return StoreLabelIndex
    if name == "import_file":
        from verifier.labels.importer import import_file

        return import_file
    if name == "fetch_into":
        from verifier.labels.sync import fetch_into

        return fetch_into
    if name == "configured_labels":
        from verifier.labels.configured import configured_labels

        return configured_labels
    raise AttributeError(f"module 'verifier.labels' has no attribute {name!r}")
