"""Association links: question words linked to KG symbols by statistics learned from paired
training data (the ``association`` link source).

The table (:class:`AssociationTable`) maps a question word, the lemma and part of speech of a
content predicate of the question's readings, to the properties and classes that the gold
queries of the training questions with that word use markedly more often than by chance
(``verifier axioms induce``'s counting and thresholds, :mod:`verifier.axioms.induce`),
without the pairs that a shipped lexicon or a KG label or alias already links.  Each entry's
confidence is the smoothed share of the word's training questions whose gold query has the
symbol (:func:`association_confidence`).  The shipped table
(``verifier/_data/associations.json``) is data, written by ``bench/train_associations.py``
from the training splits only (docs/confidence.md says which).  The source is off unless
``[grounding] associations`` is ``"default"`` (the shipped table) or names a file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

__all__ = ["ASSOCIATIONS_PATH", "AssociationEntry", "AssociationTable", "association_confidence",
           "load_associations", "configured_associations"]

#: The shipped table.
ASSOCIATIONS_PATH = Path(__file__).resolve().parents[1] / "_data" / "associations.json"


def association_confidence(support: int, word_count: int, prior: float = 1.0) -> float:
    """The confidence of a learned link: the share of the word's training questions whose
    gold query has the symbol, smoothed with ``prior`` pseudo-questions without it (a support
    discount: 3 of 3 gives 0.75, 30 of 30 about 0.97 with the default prior of 1)."""
    if support <= 0 or word_count <= 0:
        return 0.0
    return max(0.0, min(1.0, support / (word_count + prior)))


@dataclass(frozen=True)
class AssociationEntry:
    """One learned link: the word (``lemma``, part of speech ``pos``) names ``symbol`` (a
    Wikidata id, ``P…`` or ``Q…``) of ``kind`` (``property`` or ``class``), seen together in
    ``support`` of the ``word_count`` training pairs with the word; ``confidence`` in [0, 1]."""

    lemma: str
    pos: str
    symbol: str
    kind: str
    support: int
    word_count: int
    confidence: float


@dataclass(frozen=True)
class AssociationTable:
    """The learned links by word: ``entries`` maps (lemma, part of speech) to its entries;
    ``info`` says what the table was trained on."""

    entries: Mapping[tuple[str, str], tuple[AssociationEntry, ...]] = field(default_factory=dict)
    info: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, entries: Iterable[AssociationEntry], info: Mapping[str, Any] | None = None) -> "AssociationTable":
        """A table of ``entries`` (for tests and the trainer)."""
        by_word: dict[tuple[str, str], list[AssociationEntry]] = {}
        for e in entries:
            by_word.setdefault((e.lemma.casefold(), e.pos), []).append(e)
        return cls({k: tuple(sorted(v, key=lambda e: -e.confidence)) for k, v in by_word.items()},
                   dict(info or {}))

    def __len__(self) -> int:
        return sum(len(v) for v in self.entries.values())

    def confidence(self, lemma: str, pos: str | None, symbol: str) -> float | None:
        """The confidence that the word names ``symbol`` (a Wikidata id), None when the table
        has no such link."""
        for e in self.entries.get((lemma.casefold(), pos or ""), ()):
            if e.symbol == symbol:
                return e.confidence
        return None

    def to_json(self) -> dict[str, Any]:
        """The table as the JSON object :func:`load_associations` reads."""
        rows = [[e.lemma, e.pos, e.symbol, e.kind, e.support, e.word_count, round(e.confidence, 4)]
                for k in sorted(self.entries) for e in self.entries[k]]
        return {**self.info, "columns": ["lemma", "pos", "symbol", "kind", "support", "word_count",
                                         "confidence"], "entries": rows}


def load_associations(path: str | Path | None = None) -> AssociationTable:
    """The table of a JSON file (default: the shipped one).  Raises ``ValueError`` when the
    file is not such a table; rows that are not well formed are skipped."""
    p = Path(path) if path is not None else ASSOCIATIONS_PATH
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise ValueError(f"{p}: cannot read the association table: {e}") from None
    if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
        raise ValueError(f"{p}: an association table is a JSON object with a list of entries")
    out = []
    for row in data["entries"]:
        if not (isinstance(row, list) and len(row) == 7):
            continue
        lemma, pos, symbol, kind, support, count, conf = row
        if not (isinstance(lemma, str) and isinstance(pos, str) and isinstance(symbol, str)
                and kind in ("property", "class") and isinstance(conf, (int, float))):
            continue
        out.append(AssociationEntry(lemma, pos, symbol, kind, int(support), int(count),
                                    max(0.0, min(1.0, float(conf)))))
    info = {k: v for k, v in data.items() if k not in ("entries", "columns")}
    return AssociationTable.of(out, info)


#: Values of ``[grounding] associations`` that turn the table off (the default).
_OFF = frozenset({"none", "off", "false"})
#: Values of ``[grounding] associations`` that name the shipped table.
_SHIPPED = frozenset({"default", "shipped", "on", "true"})


def configured_associations(setting: str | Path | bool | None) -> AssociationTable | None:
    """The table ``[grounding] associations`` names: none when unset (the source is off by
    default: on the measuring sets it changed no decision, docs/confidence.md) or for
    ``"none"`` / ``"off"`` / ``"false"``; the shipped one for ``"default"`` (``"shipped"``,
    ``"on"``, ``true``); else the file's (a missing or bad file raises ``ValueError``)."""
    if setting is None or setting == "" or setting is False:
        return None
    if setting is True or str(setting).casefold() in _SHIPPED:
        return load_associations()
    if str(setting).casefold() in _OFF:
        return None
    return load_associations(setting)
