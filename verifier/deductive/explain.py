"""The explanation of a verdict, said to people."""

from __future__ import annotations

import re
from typing import Sequence

from verifier.grounding import Grounder, Link
from verifier.query import Query
from verifier.deductive.results import ReadingResult

__all__ = ["explain"]


def explain(best: ReadingResult, query: Query, grounder: Grounder) -> str:
    """The explanation of the best reading's verdict: a head line, the links, the weakest link
    with its source and confidence ("'wealthy' -> net worth (P2218), similarity 0.61"), the
    homonyms of linked names, the reason (or the notes of a faithful one)."""
    lines = []
    v = best.verdict
    head = {
        "faithful": "The query follows from the question",
        "weaker": "The query is weaker than the question",
        "unsupported": "The query says something the question does not support",
        "intent_mismatch": "The query does not answer the kind of question asked",
        "unknown": "No decision",
    }[v]
    lines.append(f"{head} (reading {best.reading_index}).")
    if best.links:
        linked = sorted({f"'{l.unit.text or l.unit.lemma}' -> {l.symbol.symbol} ({grounder.label(l.symbol.id)})"
                         for l in best.links})
        lines.append("Links: " + "; ".join(linked[:8]))
        weakest = best.weakest_link
        if weakest is not None:
            lines.append("Weakest link: " + weakest.describe(grounder.label(weakest.symbol.id)))
        lines += _homonym_notes(best.links, grounder)
    if v in ("unsupported", "intent_mismatch", "weaker", "unknown"):
        lines.append(best.reason)
    elif "; " in best.reason:  # how a view read the question, how qualifiers are named
        lines.append("Notes: " + best.reason.split("; ", 1)[1])
    return "\n".join(lines)


def _qid_number(symbol: str) -> int | None:
    """The number of a Wikidata item id (``Q1486`` -> 1486), None for anything else."""
    m = re.fullmatch(r"Q(\d+)", symbol)
    return int(m.group(1)) if m else None


def _homonym_notes(links: Sequence[Link], grounder: Grounder, *, per_item: int = 2,
                   max_lines: int = 3) -> list[str]:
    """A line per linked Wikidata item whose name, as matched in the question, is the label of
    older described items too: the proof cannot tell homonyms apart, a reader can ("'Buenos
    Aires' is also a name of wd:Q1486 (Buenos Aires: capital and largest city of Argentina)"
    when the query uses the district in Costa Rica).  At most ``per_item`` others per item and
    ``max_lines`` lines."""
    index = grounder.labels
    out: list[str] = []
    seen: set[tuple[str, str]] = set()
    for link in sorted(links, key=lambda l: (l.symbol.id, l.name)):
        if link.symbol.kind != "item" or not link.name or (link.symbol.id, link.name) in seen:
            continue
        seen.add((link.symbol.id, link.name))
        own = _qid_number(link.symbol.id)
        if own is None:
            continue
        # only described items that are older than the linked one (a lower Wikidata number:
        # usually the better known bearer of the name, "Buenos Aires" the capital before the
        # district of Costa Rica) are worth a reader's look; not the bands and films named
        # after a country
        others = sorted({e.symbol for e in index.labels_written_as(link.name)
                         if e.symbol != link.symbol.id and index.kinds.get(e.symbol) == "item"
                         and index.descriptions.get(e.symbol) and (_qid_number(e.symbol) or own) < own},
                        key=_qid_number)
        if not others:
            continue
        described = [f"wd:{o} ({index.label(o) or o}: {index.descriptions[o]})" for o in others[:per_item]]
        more = f" and {len(others) - per_item} more" if len(others) > per_item else ""
        out.append(f"'{link.name}' is also a name of " + "; ".join(described) + more)
        if len(out) >= max_lines:
            break
    return out
