"""Scores of a symbol's names for a question unit, and the other symbols that the unit's words
name better (the alternatives that overrule a link, and those shown in explanations)."""

from __future__ import annotations

import threading
from typing import Iterable

from verifier.grounding.checks import agent_base, anchored_keys, by_score_then_id, coverage, doer_keys
from verifier.grounding.symbols import SymbolUse
from verifier.grounding.units import Unit
from verifier.lexical import LabelIndex, NameEntry, WordNetRelations, label_shape

__all__ = ["MIN_COVERAGE", "DOMINANCE_MARGIN", "Scorer"]

#: The share of a property name's words that a unit's words must say.
MIN_COVERAGE = 0.66
#: How much better another symbol must score to overrule a link.
DOMINANCE_MARGIN = 0.02
#: Alternatives cached (per unit predicate and keys) before the cache is cleared.
_ALT_CACHE_LIMIT = 5000


class Scorer:
    """Scores names for units, with the KG labels (``labels``) and, when built, WordNet's
    relations (``wordnet``).  Keeps a cache of the alternatives per unit words (values that
    depend on the labels alone)."""

    def __init__(self, labels: LabelIndex, wordnet: WordNetRelations | None = None) -> None:
        self.labels = labels
        self.wordnet = wordnet
        self._alt_cache: dict = {}
        self._lock = threading.Lock()

    def unit_keys(self, u: Unit) -> set[str]:
        """The keys of a unit's words and, with WordNet, of their relations."""
        keys = set(u.keys)
        if self.wordnet is not None and u.kind not in ("named", "number"):
            keys |= self.wordnet.keys_for(u.lemma, u.pos if u.pos in ("n", "v", "a") else None)
        return keys

    def score(self, names: Iterable[NameEntry], direct: set[str], wn: set[str],
               context: set[str], wn_weight: float = 0.6,
               thing_noun: bool = False) -> tuple[float, float, NameEntry | None]:
        """Best (score, coverage, name) of a symbol's names for one unit.

        A name word counts 1.0 when the unit itself says it (or its agent noun: develop ->
        developer), 0.9 when another word of the question does, 0.6 through WordNet; a name
        needs at least one word from the unit.  The score adds 0.05 per question word that
        any of the symbol's names explains, so that "place of birth" beats "date of birth"
        for "where ... born" although both have the alias "born ...".  With ``thing_noun``
        (a noun that does not name a doer) neither its verb stem nor WordNet's relations reach
        a name's doer word: "inventions" (stem "invent") is related to "inventor", but an
        invention is what the inventor makes, so the noun does not stand for the inventor's
        role.
        """
        best: tuple[float, float, NameEntry | None] = (0.0, 0.0, None)
        explained: set[str] = set()
        for n in names:
            total, anchored = 0.0, False
            hits = []
            doers = doer_keys(n.name) if thing_noun else frozenset()
            for k in n.keys:
                if k in direct or (agent_base(k) in direct and k not in doers):
                    w, anchored = 1.0, True
                elif k in wn and k not in doers:
                    w, anchored = wn_weight, True
                elif k in context:
                    w = 0.9
                else:
                    continue
                total += w
                if k in context or k in direct:
                    hits.append(k)
            if not anchored:
                continue
            explained.update(hits)  # only names that the unit itself anchors explain words
            cov = total / len(n.keys)
            # among equally good names prefer the label, then names shaped like the label
            # (Wikidata aliases are sometimes phrased in the inverse direction)
            if best[2] is None or (cov, self.name_rank(n)) > (best[1], self.name_rank(best[2])):
                best = (cov, cov, n)
        if best[2] is None:
            return best
        return (best[1] + 0.05 * len(explained), best[1], best[2])

    def name_rank(self, n: NameEntry) -> tuple[int, int]:
        """Rank among equally good names: a label first, then names shaped like the label."""
        label = self.labels.label(n.symbol)
        return (1 if n.is_label else 0, 1 if label and label_shape(label) == n.shape else 0)

    def dominating_alternative(self, sym: SymbolUse, u: Unit, n: NameEntry, score: float,
                                direct: set[str], wn: set[str], question_keys: set[str],
                                names: Iterable[NameEntry] = ()) -> tuple[str, float, str, frozenset[str]] | None:
        """Another symbol that the unit's words name better than ``sym`` (through its name
        ``n`` with ``score``), or None.  The best other symbol overrules it when it scores
        higher, unless its name accounts for only some of the unit's words that a name of
        ``sym`` (``n`` or one of ``names``) accounts for ("the highest Strahler number":
        *issue*, alias "number", does not overrule *maximum Strahler number*); and for a
        property named by some of the unit's own words (not only through WordNet), any other
        property whose name accounts for all of them and more does ("number" does not name
        *issue* there)."""
        alts = [a for a in self.alternatives_for(sym, u, direct, wn, question_keys) if a[0] != sym.id]
        if not alts:
            return None
        # the most of the unit's words that any name of ``sym`` says: *located in the
        # administrative territorial entity* is best named "territory" for the noun phrase
        # "administrative territorial entity", but its alias of those three words says as much
        # as *located in the present-day administrative territorial entity* does
        own = max((anchored_keys(m, direct) for m in (n, *names)), key=len)
        best = alts[0]
        if best[1] > score + DOMINANCE_MARGIN and not best[3] < own:
            return best
        if sym.kind == "property" and own:
            return next((a for a in alts if a[3] > own), None)
        return None

    def alternatives_for(self, sym: SymbolUse, u: Unit, direct: set[str], wn: set[str],
                          question_keys: set[str]) -> tuple[tuple[str, float, str, frozenset[str]], ...]:
        """The symbols of ``sym``'s kind that the unit's words name, best first (id, score,
        name, and the keys of that name that the unit's words say: :func:`anchored_keys`)."""
        kind = "property" if sym.kind == "property" else "item"
        # what the scores depend on: ``direct`` also holds the keys a misspelt word stands for,
        # which depend on the query's symbols, not on the unit alone
        cache_key = (u.pred, frozenset(direct), frozenset(wn), kind, frozenset(question_keys))
        per_symbol = self._alt_cache.get(cache_key)
        if per_symbol is None:
            by_symbol: dict[str, list[NameEntry]] = {}
            for n in self.labels.candidates(direct, kind=kind, limit=400):
                by_symbol.setdefault(n.symbol, []).append(n)
            per_symbol = []
            for sid in by_symbol:
                ns = self.labels.names.get(sid, by_symbol[sid])  # all its names, not only the ones found
                if kind == "property":
                    score, cov, best = self.score(ns, direct, wn, question_keys)
                    ok = best is not None and cov >= MIN_COVERAGE
                else:
                    score, cov, best = self.score(ns, direct, set(), set())
                    ok = best is not None and cov >= 0.99
                if ok:
                    per_symbol.append((sid, score, best.name, anchored_keys(best, direct)))
            # ties in id order (P131 before P13802): the candidates come in hash order, and the
            # explanation must not name a different alternative from one run to the next
            per_symbol = tuple(sorted(per_symbol, key=by_score_then_id))
            with self._lock:
                if len(self._alt_cache) > _ALT_CACHE_LIMIT:  # reused across readings and queries
                    self._alt_cache.clear()
                self._alt_cache[cache_key] = per_symbol
        return per_symbol

    def alternatives(self, u: Unit, kind: str = "property", k: int = 3) -> list[tuple[str, float, str]]:
        """The best ``k`` symbols of a kind for a unit (for explanations)."""
        keys = self.unit_keys(u)
        scored = {}
        for n in self.labels.candidates(keys, kind=kind):
            cov, hit = coverage(n.keys, keys | set(u.np_keys))
            if cov >= MIN_COVERAGE:
                s = cov + 0.1 * hit
                if s > scored.get(n.symbol, (0, ""))[0]:
                    scored[n.symbol] = (s, n.name)
        return sorted(((sid, s, nm) for sid, (s, nm) in scored.items()), key=by_score_then_id)[:k]

    # ---- templates
