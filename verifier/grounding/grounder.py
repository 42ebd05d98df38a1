"""The grounder: links the units of one reading to the symbols of one query.

:class:`Grounder` scores every symbol of the query against every unit, from the domain
lexicons (``axioms/lexicons``), the KG labels and aliases (:class:`~verifier.lexical.LabelIndex`)
and, when built, WordNet synonyms and derivations.  Each accepted link records why it was
made and its score, and the best alternative symbols for the same words (for diagnosis: a
query symbol beaten by an alternative is reported, not linked).

A grounder is shared (by readings, pairs and threads) and keeps no state of a call: what one
call of :meth:`Grounder.ground` knows of its reading and query is a
:class:`~verifier.grounding.context.GroundingContext`, made by the call and passed down.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import AbstractSet, Iterable, Mapping, Sequence

from verifier.axioms.model import LexiconEntry, Pack, Template
from verifier.grounding.associations import AssociationTable
from verifier.grounding.checks import (
    agent_base, coverage, doer_keys, doer_of_abstract, head_elsewhere, preposition_elsewhere, split_name,
)
from verifier.grounding.context import GroundingContext, frozen_mapping
from verifier.grounding.lexicon import LexiconIndex, SymbolNames
from verifier.grounding.links import (
    LINK_SOURCES, Axiom, Grounding, Link, bound_possessives, instantiate, without_superseded,
)
from verifier.grounding.numbers import number_value, with_written_sign
from verifier.grounding.scoring import MIN_COVERAGE, Scorer
from verifier.grounding.spans import SpanLinker, other_items_name
from verifier.grounding.symbols import CLASS_PROPS, SymbolUse, query_symbols
from verifier.grounding.templates import LinkMaker
from verifier.grounding.text import capitalised_words, find_words, label_written, question_tokens
from verifier.grounding.units import Unit, reading_verbs
from verifier.grounding.words import CARDINAL, IMPLIED_KEYS, THIRD_PERSON, UNKNOWN_WORD
from verifier.lexical import (
    LabelIndex, NameEntry, WordNetRelations, content_keys, initials, is_agentive, within_edits, words_of,
)
from verifier.limits import Deadline
from verifier.logic import IRI, Literal, Var, atoms
from verifier.namespaces import wikidata_id
from verifier.query import Query
from verifier.question_cues import surface_name_test

__all__ = ["CHARACTER_ROLE", "CONTAINERS", "Misspellings", "Grounder"]

#: *character role* (P453), the qualifier that names the character someone plays.
CHARACTER_ROLE = "P453"

#: Properties whose value contains their subject (located in the administrative territorial
#: entity, location, located in/on physical feature, country, continent): their aliases
#: "city", "state", "region" ... name the container, which "cities in X" does not
#: (:meth:`Grounder.without_class_word_aliases`).
CONTAINERS = frozenset({"P131", "P276", "P706", "P17", "P30"})


@dataclass(frozen=True)
class Misspellings:
    """The words of a reading that misspell a name of the query's symbols
    (:meth:`Grounder.misspellings`): per unit (by ``id``), the name keys its words stand for;
    per misspelt word key, the name keys it stands for."""

    by_unit: Mapping[int, AbstractSet[str]] = field(default_factory=lambda: frozen_mapping({}))
    fixes: Mapping[str, AbstractSet[str]] = field(default_factory=lambda: frozen_mapping({}))


class Grounder:
    """Links question units to query symbols (see the module docstring).

    ``labels``: KG labels and aliases (optional; without them only the lexicons ground);
    ``wordnet``: precomputed WordNet relations (optional); ``disabled_sources``: link sources
    (:data:`~verifier.grounding.links.LINK_SOURCES`) whose links are dropped, for measuring
    what each source adds (``[grounding] disabled_sources``); ``associations``: the learned
    word-symbol links of the ``association`` source (optional; see
    :mod:`verifier.grounding.associations`).
    """

    def __init__(self, pack: Pack, labels: LabelIndex | None = None,
                 wordnet: WordNetRelations | None = None, alternatives: int = 3,
                 disabled_sources: Iterable[str] = (),
                 associations: AssociationTable | None = None) -> None:
        self.disabled_sources = frozenset(disabled_sources)
        unknown = self.disabled_sources - set(LINK_SOURCES)
        if unknown:
            raise ValueError(f"unknown link sources {sorted(unknown)} (known: {', '.join(LINK_SOURCES)})")
        self.pack = pack
        self.labels = labels or LabelIndex()
        self.wordnet = wordnet
        self.associations = associations
        self.n_alternatives = alternatives
        self.lexicon = LexiconIndex(pack)
        self.names = SymbolNames(self.labels, self.lexicon)
        self.scorer = Scorer(self.labels, wordnet)
        self.maker = LinkMaker(pack, self.lexicon)
        self.spans = SpanLinker(self.names, self.maker)
        #: properties whose named objects are classes (instance of, and those of class templates)
        self.class_props: frozenset[str] = frozenset(CLASS_PROPS) | {
            wikidata_id(p) or p for t in pack.templates.values() for p in t.properties}

    # ---- names of a symbol
    def names_of(self, sym: SymbolUse, pos: str | None = None) -> list[NameEntry]:
        """KG labels and aliases of a symbol and the lexicon words for it (only the entries
        for part of speech ``pos`` when it is given: "record" the verb, not the noun)."""
        return self.names.names_of(sym, pos)

    def label(self, sym_id: str) -> str:
        """The KG label of a symbol, else its first lexicon word, else its id."""
        return self.names.label(sym_id)

    def unit_keys(self, u: Unit) -> set[str]:
        """The keys of a unit's words and, with WordNet, of their relations."""
        return self.scorer.unit_keys(u)

    def entry_for(self, name: str, sym: SymbolUse, pos: str | None = None) -> LexiconEntry | None:
        """The lexicon entry that gives ``sym`` the name ``name`` (see
        :meth:`verifier.grounding.lexicon.LexiconIndex.entry_for`)."""
        return self.lexicon.entry_for(name, sym, pos)

    def listed_prepositions(self, sym: SymbolUse, units: Iterable[Unit], *,
                            qualifier: bool = False) -> list[tuple[LexiconEntry, Unit, str]]:
        """(entry, unit, word) for each preposition among ``units`` that a lexicon entry lets
        stand for ``sym`` (see :meth:`verifier.grounding.lexicon.LexiconIndex.listed_prepositions`)."""
        return self.lexicon.listed_prepositions(sym, units, qualifier=qualifier)

    def templates_for(self, u: Unit, sym: SymbolUse, shape: str, entry: LexiconEntry | None,
                      only_entry: bool = False, ctx: GroundingContext | None = None) -> list[Template]:
        """The templates that link ``u`` to ``sym`` through a name of ``shape`` (outside a
        grounding unless ``ctx`` is given; see :meth:`verifier.grounding.templates.LinkMaker.templates_for`)."""
        return self.maker.templates_for(ctx or GroundingContext.empty(), u, sym, shape, entry, only_entry)

    def make_link(self, u: Unit, sym: SymbolUse, name: str, shape: str, score: float, cov: float,
                  reason: str, entry: LexiconEntry | None = None, *,
                  ctx: GroundingContext | None = None) -> Link | None:
        """The link of ``u`` to ``sym`` through ``name`` with its axioms, or None when no
        template applies (outside a grounding unless ``ctx`` is given: ``verifier axioms show``)."""
        return self.maker.make(ctx or GroundingContext.empty(), u, sym, name, shape, score, cov, reason, entry)

    def alternatives(self, u: Unit, kind: str = "property", k: int = 3) -> list[tuple[str, float, str]]:
        """The best ``k`` symbols of a kind for a unit (for explanations)."""
        return self.scorer.alternatives(u, kind, k)

    def lexical_support(self, sym: SymbolUse, units: list[Unit]) -> tuple[float, str, str] | None:
        """How well the question's words name a property, whatever their syntax (used for
        statement qualifiers): (coverage, matched name, the question words)."""
        supports = self.lexical_supports(sym, units)
        return supports[0] if supports else None

    def lexical_supports(self, sym: SymbolUse, units: list[Unit]) -> list[tuple[float, str, str]]:
        """Every name of a property that the question's words say (:meth:`lexical_support`),
        best covered first (the first found among equals)."""
        keys: set[str] = set()
        for u in units:
            keys |= set(u.keys) | set(u.np_keys)
        found: list[tuple[float, str, str]] = []
        for n in self.names_of(sym):
            # a name word matches the question's word, or its verb when it names the doer
            # ("winner" for "won"); not a stem that only looks like a doer ("electoral" ->
            # "elector" is no name for "elected")
            agents = doer_keys(n.name)
            matched = {k: {k} | ({agent_base(k)} if k in agents else set()) for k in n.keys}
            hit = sum(1 for k in n.keys if matched[k] & keys)
            cov = hit / len(n.keys) if n.keys else 0.0
            if cov >= MIN_COVERAGE:
                said = set().union(*matched.values())
                words = [u.text or u.lemma for u in units if said & (set(u.keys) | set(u.np_keys))]
                found.append((cov, n.name, ", ".join(dict.fromkeys(words))))
        return sorted(found, key=lambda f: -f[0])


    # ---- main entry
    def ground(self, units: list[Unit], query: Query, question: str = "",
               spans: Mapping[str, tuple[int, int]] | None = None, *,
               deadline: Deadline | None = None) -> Grounding:
        """The links of the reading's ``units`` to the symbols of ``query`` (``question``: the
        question's text; ``spans``: the character span of each noun phrase; ``deadline``: a
        :class:`verifier.limits.Deadline` checked after each symbol, which raises
        :class:`verifier.limits.DeadlineExceeded` once passed)."""
        g = Grounding(units=units)
        # literal objects of each property that the question writes (for $value templates)
        values: dict[str, list[Literal]] = {}
        # the query's properties, as written in lexicon entries (for entries with several ``via``)
        query_props = set()
        # the items the query gives as values of each property (for :meth:`_value_heads`)
        prop_values: dict[str, set[str]] = {}
        for a in atoms(query.pattern):
            wid = wikidata_id(a.pred)
            query_props.add(f"wdt:{wid}" if wid else a.pred)
            if wid and len(a.args) == 2 and isinstance(a.args[1], IRI):
                prop_values.setdefault(wid, set()).add(a.args[1].value)
            if wid and len(a.args) == 2 and isinstance(a.args[1], Literal) and question \
                    and a.args[1].lexical.casefold() in question.casefold():
                values.setdefault(wid, []).append(a.args[1])
        syms = sorted(query_symbols(query, self.class_props), key=lambda s_: s_.kind == "property")
        misspelt = self.misspellings(units, syms)
        if deadline is not None:
            deadline.check("grounding")
        ctx = GroundingContext(
            question=question,
            spans=frozen_mapping(spans or {}),
            values=frozen_mapping((k, tuple(v)) for k, v in values.items()),
            # prepositions and the word each modifies (for $nameprep templates)
            modifiers=frozenset((u.pred, u.atom.args[1]) for u in units
                                if u.kind == "preposition" and len(u.atom.args) > 1),
            verbs=reading_verbs(units),  # for ``match.verbs``
            query_props=frozenset(query_props),
            # characters the query names as a role (*character role*): a character is often
            # written by one of its names alone ("who plays meg in family guy?")
            roles=frozenset(wikidata_id(a.args[1].value) for a in atoms(query.pattern)
                            if wikidata_id(a.pred) == CHARACTER_ROLE and len(a.args) == 2
                            and isinstance(a.args[1], IRI)),
            fixes=misspelt.fixes,
        )
        near = misspelt.by_unit
        question_keys: set[str] = set()
        ukeys = {id(u): self.unit_keys(u) for u in units}
        acronyms = capitalised_words(units, question)
        for u in units:
            question_keys |= set(u.keys) | set(u.np_keys)
        # a noun counted by a number ("Does X have 3.2 masts?") says "number" ("number of masts")
        counted = {u.atom.args[1] for u in units if u.pred == CARDINAL and len(u.atom.args) > 1}
        if any(u.kind in ("noun", "relational_noun") and u.var in counted for u in units):
            question_keys.add("number")
        # items, classes and literals first: a word written as part of an item's name
        # ("... Second Edition on CD-ROM, Version 4.0") does not also name a property
        in_names: set[int] = set()
        for sym in syms:
            if deadline is not None:
                deadline.check("grounding")
            if sym.kind == "qualifier":
                continue  # qualifiers are checked lexically by the deductive layer
            if sym.kind == "literal":
                links = self._literal_links(ctx, sym, units)
            elif sym.kind in ("item", "class"):
                links = self.spans.links(ctx, sym, units)
                if sym.kind == "item":
                    in_names |= {id(l.unit) for l in links if l.names_item}
                if not links:
                    links = self._symbol_links(ctx, sym, units, ukeys, question_keys, g, near, acronyms)
                elif sym.kind == "item" and self.lexicon.valued_items.get(sym.id):
                    # the question names the item and a word elsewhere gives something it as a
                    # value through an entry of template noun_of_item_value ("the NFPA Health
                    # for DDT ... as NFPA 704: ...": the rating belongs to DDT's NFPA 704
                    # classification)
                    named = {id(l.unit) for l in links}
                    rest = [u for u in units if id(u) not in named and u.kind in ("noun", "relational_noun")
                            and set(u.keys) & self.lexicon.valued_items[sym.id]]
                    links += [l for l in self._symbol_links(ctx, sym, rest, ukeys, question_keys, g,
                                                            near, acronyms)
                              if l.entry is not None and l.entry.template == "noun_of_item_value"]
                if not links and sym.kind == "class" and self.associations is not None:
                    links = self._association_links(ctx, sym, [u for u in units if id(u) not in in_names])
            else:
                heads = self._value_heads(sym, g.links, prop_values)
                free = [u for u in units if id(u) not in in_names or id(u) in heads]
                links = self._symbol_links(ctx, sym, free, ukeys, question_keys, g, near, acronyms)
                links += self._preposition_links(ctx, sym, free)
                if not links and self.associations is not None:
                    # ... also a word that names an item the query gives as the property's value
                    # ("Did X perform indie rock?": genre; "Defense Minister": position held)
                    values_of = prop_values.get(wikidata_id(sym.symbol) or "", ())
                    valued = {id(l.unit) for l in g.links if l.names_item and l.symbol.symbol in values_of}
                    in_free = {id(u) for u in free}
                    links = self._association_links(
                        ctx, sym, free + [u for u in units if id(u) in valued and id(u) not in in_free])
            if self.disabled_sources:
                links = [l for l in links if l.source not in self.disabled_sources]
            if not links:
                g.unsupported.append(sym)
            g.links.extend(links)
        if "coreference" not in self.disabled_sources:
            self._pronoun_links(ctx, units, g)
        g.links = without_superseded(self.without_class_word_aliases(g.links))
        return g

    def _value_heads(self, sym: SymbolUse, links: Sequence[Link],
                     prop_values: Mapping[str, AbstractSet[str]]) -> set[int]:
        """The noun units that head a name of an item the query gives as a value of the
        property ``sym``, whose word is the last word of that name (and of the property's
        label or of one of its aliases: Wikidata names such values after the property,
        "King James Version" is a *version*, "weak interaction" an *interaction*).  Such a
        noun names the property as well as the item ("What written work has a King James
        version?": has edition or translation(x, King James Version)), although a word written
        as part of an item's name names no property otherwise.  Only when no other word names
        the item (the property would relate it to itself: "a mythological Greek character"
        read with "Greek" as the item too).  ``prop_values``: the items the query gives as
        values of each property (by Wikidata id)."""
        pid = wikidata_id(sym.symbol)
        if pid is None:
            return set()
        values = prop_values.get(pid, ())
        if not values:
            return set()
        prop_heads = {n.keys[-1] for n in self.labels.names.get(pid, ()) if n.keys}
        naming: dict[str, set[int]] = {}  # item -> the units that name it
        for l in links:
            if l.names_item:
                naming.setdefault(l.symbol.symbol, set()).add(id(l.unit))
        out: set[int] = set()
        for l in links:
            if not (l.names_item and l.symbol.symbol in values and l.unit.kind in ("noun", "relational_noun")):
                continue
            if len(naming[l.symbol.symbol]) > 1:
                continue  # another word names the item too ("Greek" of "a mythological Greek character")
            keys = content_keys(l.name)
            if keys and keys[-1] in l.unit.keys and keys[-1] in prop_heads:
                out.add(id(l.unit))
        return out

    def without_class_word_aliases(self, links: list[Link]) -> list[Link]:
        """The links without those to a property of containment (:data:`CONTAINERS`) made
        through a one-word alias that is a noun itself, when the noun also names a class the
        query uses: "cities" in "Give me all cities in New Jersey" names the class *city*;
        that "city" is also an alias of *located in the administrative territorial entity*
        would make the noun templates read "cities in New Jersey" as New Jersey located in the
        cities (and "what cities are in Oakland County" prove Oakland County located in the
        cities).  Other properties keep such links ("the home stadium for the Chicago Bears"
        is *home venue* through its alias "stadium"); so do a name reached through the noun's
        phrase (in "the capital city of X", "city" links *capital*), the property's label
        ("Which countries have more than ten caves?": *country* is the label of P17, and the
        caves' country is what is asked) and lexicon entries."""
        class_units = {id(l.unit) for l in links if l.symbol.kind == "class"}
        return [l for l in links if not (
            l.symbol.kind == "property" and l.entry is None and wikidata_id(l.symbol.symbol) in CONTAINERS
            and l.unit.kind in ("noun", "relational_noun") and id(l.unit) in class_units
            and len(words_of(l.name)) == 1 and set(content_keys(l.name)) <= set(l.unit.keys)
            and l.name.casefold() != self.label(l.symbol.id).casefold())]


    def misspellings(self, units: Sequence[Unit], syms: Sequence[SymbolUse]) -> Misspellings:
        """Name keys of the query's properties and classes that a word of the question
        misspells: a word the grammar does not know (an unknown-word predicate such as
        ``_subsidary/nn_u_unknown``) and WordNet does not list either, one edit away from a
        name word of at least five letters ("subsidary" for *subsidiary*, "bominated" for
        *nominated*; two edits from one of nine letters or more).  Without WordNet there is no
        dictionary to tell a typo from a rare word, and nothing is read as misspelt.

        An item's name may be misspelt the same way ("lroquois" for *Iroquois*, "Toranto" for
        *Toronto*, "Eduador" for *Ecuador*): a word of a name or of an unknown noun that no
        label or alias in the KG's labels has, WordNet does not list and no lexicon entry
        uses ("pakistani" is a demonym, not a slip for *Pakistan*), one edit from a
        name word of one of the query's items.  ``fixes`` holds, per misspelt key, the
        name keys it stands for (an item's name must cover the whole name phrase)."""
        if self.wordnet is None:
            return Misspellings()
        unknown = [u for u in units
                   if u.kind in ("noun", "relational_noun", "verb", "adjective") and UNKNOWN_WORD in u.pred
                   and len(u.lemma) >= 6 and u.lemma.casefold() not in self.wordnet.related]
        # name words of no KG name at all: the query's items are the only candidates
        unknown_ids = {id(u) for u in unknown}
        strange = {id(u): {k for k in u.keys if len(k) >= 5 and k not in self.labels.by_key
                           and k not in self.wordnet.related and k not in self.lexicon.keys}  # lexicon words are known words ("pakistani")
                   for u in units if u.kind == "named" or id(u) in unknown_ids}
        strange = {i: ks for i, ks in strange.items() if ks}
        if not unknown and not strange:  # most readings: no name keys to collect
            return Misspellings()
        name_keys = {k for s_ in syms if s_.kind in ("property", "class")
                     for n in self.names_of(s_) for k in n.keys if len(k) >= 5}
        item_keys = {k for s_ in syms if s_.kind == "item"
                     for n in self.names_of(s_) for k in n.keys if len(k) >= 5}
        misspelt: dict[str, set[str]] = {}
        for u in units:
            for k in u.keys:
                pools = ([name_keys] if id(u) in unknown_ids and k not in name_keys else []) + \
                    ([item_keys] if k in strange.get(id(u), ()) else [])
                near = {m for pool in pools for m in pool
                        if within_edits(k, m, 2 if min(len(k), len(m)) >= 9 else 1)}
                if near:
                    misspelt[k] = near
        # the word itself, and the head of its noun phrase ("the elCinaema ID": "ID" stands for
        # the phrase, whose words must name *elCinema person ID*)
        out: dict[int, set[str]] = {}
        for u in units:
            for k in set(u.keys) | set(u.np_keys):
                if k in misspelt:
                    out.setdefault(id(u), set()).update(misspelt[k])
        return Misspellings(frozen_mapping((i, frozenset(v)) for i, v in out.items()),
                            frozen_mapping((k, frozenset(v)) for k, v in misspelt.items()))

    def _association_links(self, ctx: GroundingContext, sym: SymbolUse, units: list[Unit]) -> list[Link]:
        """Links of a property or class that no other source links, from the learned
        association table (source ``association``, the learned confidence): a noun, verb or
        adjective of the question whose word goes with the symbol in the training pairs.  The
        link's templates are those that fit the word's kind and the shape of the symbol's
        names (its label's first), as for a label: the proof still has to relate the terms
        the way the query does."""
        table = self.associations
        if table is None or "association" in self.disabled_sources or sym.kind not in ("property", "class"):
            return []
        out: list[Link] = []
        for u in units:
            if u.kind not in ("noun", "relational_noun", "verb", "adjective"):
                continue
            conf = table.confidence(u.lemma, u.pos, sym.id)
            if conf is None:
                continue
            reason = f"association: '{u.text or u.lemma}' goes with {sym.id} in training pairs ({conf:.2f})"
            shapes = ("noun",) if sym.kind == "class" else tuple(dict.fromkeys(
                n.shape for n in sorted(self.names_of(sym), key=lambda n: not n.is_label)
                if n.shape not in ("prep", "lexicon"))) or ("noun",)
            for shape in shapes:
                link = self.maker.make(ctx, u, sym, u.lemma, shape, conf, 1.0, reason,
                                       source="association", confidence=conf)
                if link is not None:
                    out.append(link)
                    break
        return out

    def _preposition_links(self, ctx: GroundingContext, sym: SymbolUse, units: list[Unit]) -> list[Link]:
        """Prepositions that a lexicon entry (``pos: p``) lets stand for ``sym``: one link per
        preposition of the question whose word the entry lists.  Prepositions never link
        through KG labels."""
        out: list[Link] = []
        for e, u, word in self.lexicon.listed_prepositions(sym, units):
            reason = (f"lexicon {e.source.file.rsplit('/', 1)[-1] if e.source else ''}: "
                      f"'{word}' may stand for {sym.symbol}")
            link = self.maker.make(ctx, u, sym, word, "prep", 1.0, 1.0, reason, e)
            if link is not None:
                out.append(link)
        return out

    def _pronoun_links(self, ctx: GroundingContext, units: list[Unit], g: Grounding) -> None:
        """Third-person pronouns ("he", "it") corefer with the question's only named item, or,
        when it names none, with the only item a noun of it names ("What is the drug treatment
        for anxiety and how is it measured?": *anxiety*), unless the question tests a name
        ("... whose name has the word war in it": the pronoun is the answer's name)."""
        pronouns = [u for u in units if u.kind == "pronoun" and u.text.casefold() in THIRD_PERSON]
        t = self.pack.templates.get("pronoun_reference")
        if not pronouns or t is None:
            return
        items = {l.symbol.symbol: l for l in g.links if l.symbol.kind == "item" and l.unit.kind == "named"}
        if not items and not surface_name_test(ctx.question):
            nouns = {l.symbol.symbol: l for l in g.links if l.symbol.kind == "item" and l.unit.kind == "noun"}
            items = nouns if len(nouns) == 1 else {}
        if not items:
            return
        antecedents = {id(u): next(iter(items.values())) for u in pronouns} if len(items) == 1 else \
            bound_possessives(pronouns, units, g)
        for u in pronouns:
            item_link = antecedents.get(id(u))
            if item_link is None:
                continue
            f = instantiate(t, u, {"$item": item_link.symbol.symbol})
            g.links.append(Link(u, item_link.symbol, item_link.name, "noun", 1.0, 1.0,
                                f"'{u.text}' refers to '{item_link.unit.text}'", None,
                                (Axiom(f"pronoun_reference: {u.text} -> {item_link.symbol.symbol}", f,
                                       "pronoun_reference", "coreference"),),
                                "coreference", item_link.confidence))

    def _literal_links(self, ctx: GroundingContext, sym: SymbolUse, units: list[Unit]) -> list[Link]:
        """The units that write a literal of the query: a string's words, or a number."""
        question, spans = ctx.question, ctx.spans
        out = []
        lit = sym.term
        if isinstance(lit, Literal) and lit.kind == "string" and len(lit.lexical) >= 2 and question and spans:
            found = find_words(question_tokens(question), words_of(lit.lexical))
            if found is not None and found[0] >= 0.999:
                a, b = found[1], found[2]
                for var, (sa, sb) in spans.items():
                    if min(sb, b) - max(sa, a) <= 0:
                        continue
                    for u in units:
                        if isinstance(u.var, Var) and u.var.name == var and u.kind in ("noun", "named", "relational_noun"):
                            out.append(self.maker.make(ctx, u, sym, lit.lexical, "any", 1.0, 1.0,
                                                  f"the string '{lit.lexical}' is written in the question",
                                                  source="literal"))
                            break
            return [l for l in out if l is not None]
        for u in units:
            if u.kind == "number" and isinstance(lit, Literal):
                stated = with_written_sign(Literal(u.lemma), question).lexical
                a, b = number_value(stated), number_value(lit.lexical)
                same = (a == b) if a is not None and b is not None else u.lemma == lit.lexical
                if same:
                    out.append(self.maker.make(ctx, u, sym, u.lemma, "any", 1.0, 1.0, f"the number {u.lemma} is in the question",
                                               source="literal"))
        return [l for l in out if l is not None]

    def _symbol_links(self, ctx: GroundingContext, sym: SymbolUse, units: list[Unit], ukeys: dict,
                      question_keys: set[str], g: Grounding, near: Mapping[int, AbstractSet[str]] | None = None,
                      acronyms: dict[int, str] | None = None) -> list[Link]:
        """Links of ``sym`` from the words of ``units``; ``near`` holds, per unit, the name keys
        its misspelt words stand for (:meth:`misspellings`), ``acronyms`` the units the
        question writes in capitals (:func:`_capitalised_words`)."""
        names_by_pos = {p_: self.names_of(sym, p_) for p_ in {u.pos for u in units}}
        kind = sym.kind
        question = ctx.question
        # an identifier's name may be written without "ID" ("What is Museofile of X?" for P539
        # "Museofile ID"); not for the alternatives that could overrule it
        context = question_keys | IMPLIED_KEYS
        out: list[Link] = []
        for u in units:
            names = names_by_pos[u.pos]
            if kind == "property" and (u.kind in ("number", "preposition")
                                       or (u.kind == "named" and sym.id not in ctx.values)):
                continue  # a name names a property only next to a value ("InChIKey K")
            if kind in ("item", "class") and u.kind in ("verb", "preposition", "number"):
                if kind == "item" or u.kind != "verb":
                    continue
                # a verb names a class only through a lexicon entry that says so ("What should
                # you see in London?": a tourist attraction there)
                names = list(self.lexicon.names(sym.id, sym.symbol, u.pos))
                if not names:
                    continue
            direct = set(u.keys) | set(u.np_keys) | (near or {}).get(id(u), set())
            acronym = (acronyms or {}).get(id(u))
            if acronym:  # the question writes the word in capitals as the acronym of a name ("IDLH")
                direct |= {k for n in names if initials(n.name) == acronym for k in n.keys}
            wn = ukeys[id(u)] - direct
            thing = u.kind in ("noun", "relational_noun") and not is_agentive(u.lemma)
            if kind == "property":
                score, cov, n = self.scorer.score(names, direct, wn, context, thing_noun=thing)
                if n is None or cov < MIN_COVERAGE:
                    continue
            else:
                # a class may be named by a synonym ("Roman god" for *Roman deity*); an item
                # by its own name only
                score, cov, n = self.scorer.score(names, direct, wn if kind == "class" else set(), set(), 1.0)
                if (n is None or cov < 0.99) and u.np_keys:
                    # a demonym in the noun phrase writes its country's name inside a name of
                    # several words ("the Brazilian national soccer team": *Brazil national
                    # football team*); never the country alone ("russian people" is no Russia)
                    demonyms = self.names.demonym_keys()
                    dem = {k for d in u.np_keys for k in demonyms.get(d, ())} - direct
                    several = [m for m in names if set(m.keys) & dem and set(m.keys) - dem]
                    if several:
                        score, cov, n = self.scorer.score(several, direct | dem,
                                                    wn if kind == "class" else set(), set(), 1.0)
                if n is None or cov < 0.99 or (kind == "class" and split_name(u, n.name)):
                    continue
                if u.kind == "named":  # the whole name must be in the noun phrase and vice versa
                    cov2, _ = coverage(u.np_keys or u.keys, set(n.keys) | {
                        k for k in (u.np_keys or u.keys) if ctx.fixes.get(k, set()) & set(n.keys)})
                    if cov2 < 0.5:
                        continue
                    # ... and a part of it names no item when the whole noun phrase is another
                    # item's label ("Bart Simpson" is not *The Simpsons*)
                    if cov2 < 1.0 and u.text and other_items_name(self.labels, sym, u.text, n.keys):
                        continue
                elif kind == "item" and u.kind == "noun" and UNKNOWN_WORD in u.pred and u.text and \
                        other_items_name(self.labels, sym, u.text, n.keys):
                    continue  # an unknown word heading another item's name ("new york mets")
            # a lexicon entry says outright that the word names the symbol: another symbol's
            # label or alias does not overrule it ("position" -> position held, although
            # "position" is an alias of location)
            # nor does it overrule a label that the word's own phrase writes in full ("What
            # business publishes X": P123 publisher, although "publish" also names
            # publication date)
            entry = self.lexicon.entry_for(n.name, sym, u.pos)
            if entry is not None and (meant := self._sibling_written(entry, sym, question)):
                g.dominated.append((sym, u, n.name, score, meant, 1.0))
                continue
            if entry is None or entry.pos != u.pos:
                # the word itself is a lexicon word of the symbol for a template that only
                # lexicon entries use: that reading of the word is linked too, even when a
                # label or alias names the symbol better ("time" for *point in time* in "When
                # was the Battle of Gettysburg?", "lyrics" for *lyrics by* alias "lyricist"),
                # or when the better name has an entry of its own for no part of speech in
                # particular ("place" for *location*, whose label is a word of the entry
                # "location, place" for noun_of)
                own = next((m for m in names if m.name == u.lemma and not m.is_label), None)
                own_entry = self.lexicon.entry_for(own.name, sym, u.pos) if own is not None else None
                template = self.pack.templates.get(own_entry.template) if own_entry is not None else None
                if (template is not None and template.label_shapes == ("lexicon",)
                        and own_entry is not entry):
                    extra = self.maker.link_with_name(ctx, u, sym, own, score, cov, own_entry, only_entry=True)
                    if extra is not None:
                        out.append(extra)
            written = n.is_label and bool(n.keys) and (
                all(k in direct for k in n.keys)
                # ... or that the question writes word for word around the unit's words when
                # the reading splits it ("coat of arms" as "coat" and "arms"): "arms" alone is
                # an alias of *coat of arms image*, which must not overrule *coat of arms*
                or (len(n.keys) >= 2 and set(u.keys) <= set(n.keys)
                    and label_written(question, n.name)))
            # ... also when the unit's best name is an alias ("from work" for *present in
            # work*, in "the work present in the work of Confucius")
            if not written and entry is None and not n.is_label:
                label = self.labels.label(sym.id) or ""
                lkeys = content_keys(label)
                written = (len(lkeys) >= 2 and set(u.keys) <= set(lkeys)
                           and label_written(question, label))
            alt = (None if entry is not None or written
                   else self.scorer.dominating_alternative(sym, u, n, score, direct, wn, question_keys,
                                                     names))
            if alt is not None:
                g.dominated.append((sym, u, n.name, score, alt[0], alt[1]))
                continue
            if kind == "property" and entry is None and (head_elsewhere(u, n, units)
                                                         or preposition_elsewhere(u, n, names, question)
                                                         or doer_of_abstract(u, n)):
                continue
            link = self.maker.link_with_name(ctx, u, sym, n, score, cov, entry)
            if link is None and kind == "property":
                # no template fits the best name's shape for this kind of word ("educated at"
                # for the noun "education"): the best name of another shape may ("education")
                failed = {n.shape}
                while link is None:
                    rest = [m for m in names if m.shape not in failed]
                    score, cov, n = self.scorer.score(rest, direct, wn, question_keys, thing_noun=thing)
                    if n is None or cov < MIN_COVERAGE:
                        break
                    failed.add(n.shape)
                    link = self.maker.link_with_name(ctx, u, sym, n, score, cov)
            if link is not None:
                out.append(self._with_source(link, u, direct, wn))
        return out

    @staticmethod
    def _with_source(link: Link, u: Unit, direct: AbstractSet[str], wn: AbstractSet[str]) -> Link:
        """A label's or alias's link whose name is reached through WordNet's relations only
        (no name word is the unit's own, or one of the question's, word) or through a
        misspelt word: its source says so."""
        if link.source not in ("label", "alias"):
            return link
        keys = set(content_keys(link.name)) or set(words_of(link.name))
        own = set(u.keys) | set(u.np_keys)
        if keys & own or any(agent_base(k) in own for k in keys):
            return link
        if keys & set(wn):
            return replace(link, source="wordnet")
        if keys & set(direct):
            return replace(link, source="spelling", confidence=min(link.confidence, 0.8))
        return link

    def _sibling_written(self, entry: LexiconEntry, sym: SymbolUse, question: str) -> str | None:
        """Another symbol of a lexicon entry of several (ANY) that links ``sym``, when the
        question writes that one by its whole label and not ``sym``'s, both labels ending in
        the same word ("the official language of X" for the entry "language" -> official
        language, native language ...): it is meant."""
        if len(entry.symbols) < 2 or not question:
            return None
        label = self.labels.label(sym.id) or ""
        if label_written(question, label) or not words_of(label):
            return None
        for other in entry.symbols:
            wid = wikidata_id(other)
            if wid and wid != sym.id:
                olabel = self.labels.label(wid) or ""
                if (len(content_keys(olabel)) >= 2 and words_of(olabel)[-1] == words_of(label)[-1]
                        and label_written(question, olabel)):
                    return wid
        return None

