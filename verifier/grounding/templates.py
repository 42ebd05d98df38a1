"""Links made through templates: the templates that fit a unit, a symbol and the shape of the
matched name, and the axioms they instantiate (:class:`LinkMaker`)."""

from __future__ import annotations

import logging
from functools import lru_cache

from verifier.axioms.model import LexiconEntry, Pack, Template
from verifier.grounding.checks import class_via_ok, kind_fits, kind_ok, other_preposition, preposition_preds
from verifier.grounding.context import GroundingContext
from verifier.grounding.lexicon import LexiconIndex
from verifier.grounding.links import Axiom, Link, instantiate
from verifier.grounding.symbols import SymbolUse
from verifier.grounding.units import Unit
from verifier.identity import Same
from verifier.lexical import NameEntry
from verifier.logic import Term
from verifier.namespaces import wikidata_id

__all__ = ["LinkMaker"]

log = logging.getLogger(__name__)


class LinkMaker:
    """Makes the link of a unit to a symbol through a name: chooses the templates (the lexicon
    entry's, then every template that fits) and instantiates them.  Holds the pack and its
    lexicon index only; what a call knows of its reading and query comes in a
    :class:`~verifier.grounding.context.GroundingContext`."""

    def __init__(self, pack: Pack, lexicon: LexiconIndex) -> None:
        self.pack = pack
        self.lexicon = lexicon

    def link_with_name(self, ctx: GroundingContext, u: Unit, sym: SymbolUse, n: NameEntry, score: float,
                        cov: float, entry: LexiconEntry | None = None, only_entry: bool = False) -> Link | None:
        """The link of a unit to a symbol through one of its names (None: no template fits);
        ``entry``: the lexicon entry of that name, when the caller has looked it up;
        ``only_entry``: through that entry's templates only."""
        if entry is None:
            entry = self.lexicon.entry_for(n.name, sym)
        reason = (f"lexicon {entry.source.file.rsplit('/', 1)[-1] if entry and entry.source else ''}: "
                  f"'{n.name}' -> {sym.symbol}" if entry else
                  f"{'label' if n.is_label else 'alias'} '{n.name}' of {sym.id} matches '{u.text or u.lemma}'")
        source = "lexicon" if entry else "label" if n.is_label else "alias"
        return self.make(ctx, u, sym, n.name, n.shape, score, cov, reason, entry, only_entry,
                         source=source, confidence=1.0 if entry else min(1.0, cov))

    def make(self, ctx: GroundingContext, u: Unit, sym: SymbolUse, name: str, shape: str, score: float, cov: float,
              reason: str, entry: LexiconEntry | None = None, only_entry: bool = False, *,
              source: str | None = None, confidence: float = 1.0) -> Link | None:
        """The link of ``u`` to ``sym`` through ``name`` (of ``shape``) with the axioms of every
        template that applies, or None when none does; ``entry``: the lexicon entry of the
        name; ``only_entry``: through that entry's templates only; ``source`` and
        ``confidence``: see :class:`~verifier.grounding.links.Link` (``source`` defaults to
        "lexicon" with an entry, else "label")."""
        if sym.kind == "property" and shape == "prep" and u.kind == "verb" \
                and other_preposition(name, u, ctx.modifiers):
            return None  # "flow through X" is not "flows into" (mouth of the watercourse)
        templates = self.templates_for(ctx, u, sym, shape, entry, only_entry)
        # an entry's value properties: the one it names, or of several (ANY) those that the
        # query uses (a property the query does not use has nothing to prove); all of them
        # when it uses none (``verifier axioms show``, which grounds no query)
        vias: tuple[str | None, ...] = (None,)
        if entry is not None and entry.via:
            vias = tuple(v for v in entry.via if v in ctx.query_props) or entry.via
        axioms = []
        for t, via in ((t, v) for t in templates for v in vias):
            bindings: dict[str, str | Term] = {}
            if sym.kind == "property":
                bindings["$prop"] = f"wdt:{sym.id}" if wikidata_id(sym.symbol) else sym.symbol
            elif sym.kind == "item":
                bindings["$item"] = f"wd:{sym.id}"
            elif sym.kind == "class":
                bindings["$class"] = f"wd:{sym.id}"
                if sym.via:
                    bindings["$prop"] = sym.via
            elif sym.kind == "literal" and sym.term is not None:
                bindings["$value"] = sym.term
            if via is not None:
                bindings["$prop"] = via
            if sym.kind == "property" and ctx.values.get(sym.id):
                bindings["$value"] = ctx.values[sym.id][0]
            if sym.kind == "property" and shape == "prep":
                # only when the question puts that preposition on this word ("the enclave
                # within X"): else the word's other names may fit ("the equivalent of X")
                bindings["$nameprep"] = tuple(p for p in preposition_preds(name, u.lemma)
                                              if (p, u.var) in ctx.modifiers)
            try:
                f = instantiate(t, u, bindings)
            except ValueError as e:
                log.debug("template %s not applicable: %s", t.name, e)
                continue
            axioms.append(Axiom(f"{t.name}: {u.pred} -> {sym.symbol}" + (f" via {via}" if len(vias) > 1 else ""),
                                f, t.name, reason))
        if not axioms:
            return None
        return Link(u, sym, name, shape, score, cov, reason, entry, tuple(axioms),
                    source or ("lexicon" if entry is not None else "label"), max(0.0, min(1.0, confidence)))

    def admits(self, ctx: GroundingContext, t: Template, u: Unit) -> bool:
        """Whether the template's match admits the unit's arguments and the verbs of its
        reading (``match.verbs``)."""
        return t.match.admits(u.atom.args) and t.match.admits_verbs(ctx.verbs)

    def templates_for(self, ctx: GroundingContext, u: Unit, sym: SymbolUse, shape: str, entry: LexiconEntry | None,
                       only_entry: bool = False) -> list[Template]:
        """The entry's template (when a lexicon made the link) and every template that fits
        the unit's kind, the symbol's kind and the name's shape (not with ``only_entry``)."""
        first: list[Template] = []
        shape_from_entry = False
        siblings = self.lexicon.siblings(entry)
        for e in siblings:
            t = self.pack.templates.get(e.template)
            if t is not None and t not in first and kind_ok(t, u) and self.admits(ctx, t, u):
                shapes = [s_ for s_ in t.label_shapes if s_ not in ("any", "lexicon")]
                if shapes and not shape_from_entry:  # the entry's template fixes the shape
                    shape, shape_from_entry = shapes[0], True
                first.append(t)
        if only_entry or any(e.exclusive for e in siblings):
            return first  # possibly none: this use of the word does not fit the entry
        out = []
        for t in _templates_of_kind(Same(self.pack), sym.kind, u.kind):
            if t.links == "class" and not class_via_ok(t, sym):
                continue
            if entry is not None and not t.through_lexicon:
                continue  # the entry says how its word reads
            if "any" not in t.label_shapes and shape not in t.label_shapes:
                continue
            if not t.match.names(u.pred):
                continue
            if not self.admits(ctx, t, u):
                continue
            if t not in first:
                out.append(t)
        return first + sorted(out, key=lambda t: -t.priority)




#: the ``links`` of the templates that link a symbol of each kind
_LINKS = {"property": ("property", "inverse_property"), "item": ("item",), "class": ("class",),
          "literal": ("literal",)}


@lru_cache(maxsize=256)
def _templates_of_kind(pack: Same, sym_kind: str, unit_kind: str) -> tuple[Template, ...]:
    """The templates of ``pack.obj``, in order, that link a symbol of ``sym_kind`` and apply
    to a unit of ``unit_kind`` (the tests of :meth:`LinkMaker.templates_for` that depend on
    nothing else)."""
    links = _LINKS[sym_kind]
    return tuple(t for t in pack.obj.templates.values() if t.links in links and kind_fits(t.match.kind, unit_kind))
