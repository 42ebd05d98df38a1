"""Correction: a title noun before a name ("illustrator Beatrix Potter") related by "of" / "for" /
"by" / "from" to a noun gets ``title_of`` (the role in which the name is related).

A pass of :data:`verifier.deductive.corrections.CORRECTIONS`: a plain function over a reading
(returns the reading itself or a :class:`verifier.deductive.reading.ReadingView`)."""

from __future__ import annotations

from verifier.logic import And, Atom, Var, atoms, map_atoms
from parsers.mrs import predicate_info
from verifier.deductive.reading import ReadingView

__all__ = ["role_titles"]


#: Prepositions through which a titled name ("illustrator Beatrix Potter") is related to the
#: noun it is of, for, by or from: :func:`role_titles`.
_TITLE_PREPOSITIONS = frozenset({"of", "for", "by", "from"})


def role_titles(reading, question: str):
    """A name with a noun before it as its title ("the translation for *illustrator Beatrix
    Potter*": ``compound(c, n, r) & _illustrator_n_of(r) & named(n, ...)``) that an "of",
    "for", "by" or "from" relates to a noun (``_for_p(m, w, n)``, ``w`` the translation) gets
    ``title_of(m, w, n)`` next to the preposition: template ``noun_title_of`` reads the title
    as the role in which the name is related to ``w`` (illustrator(w, n)).  Only a noun's
    variable is ``w``: a preposition attached to an event or to another preposition relates
    no noun; and the title is a bare noun written in lower case before the name ("Park" in
    "Park Geun-hye" is part of the name).  Returns the reading or a view of it."""
    m = getattr(reading, "mrs", None)
    if m is None or not question:
        return reading
    facts = list(atoms(reading.formula))
    named = {a.args[0] for a in facts if a.pred == "named" and a.args and isinstance(a.args[0], Var)}
    if not any(a.pred == "compound" and len(a.args) == 3 and a.args[1] in named for a in facts):
        return reading  # most readings: no name in a compound, nothing to read as a title
    starts: dict[str, int] = {}  # where the noun or name of each instance variable begins
    lower: set[str] = set()  # nouns written in lower case ("illustrator", not "Park" Geun-hye)
    for ep in m.eps:
        arg0 = dict(ep.args).get("ARG0")
        if arg0 and arg0.startswith("x") and (ep.pred == "named" or predicate_info(ep.pred).pos == "n"):
            starts.setdefault(arg0, ep.cfrom)
            if ep.pred != "named" and 0 <= ep.cfrom < len(question) and question[ep.cfrom].islower():
                lower.add(arg0)
    titled: set[Var] = set()
    uses: dict[Var, int] = {}  # how many predications each variable takes part in
    for a in facts:
        for t in set(a.args):
            if isinstance(t, Var):
                uses[t] = uses.get(t, 0) + 1
    for a in facts:
        # the title is written before the name ("Wembley Stadium" is a name, not a title) and
        # is a bare noun: its own predication and the compound, no modifier of its own
        # ("what type of political system does russia have?" parsed with the noun "doe",
        # modified by "political system", in a compound with Russia)
        if (a.pred == "compound" and len(a.args) == 3 and a.args[1] in named
                and isinstance(a.args[2], Var) and a.args[2].name.startswith("x")
                and a.args[2] not in named and uses.get(a.args[2]) == 2 and a.args[2].name in lower
                and starts.get(a.args[2].name, -1) >= 0
                and starts[a.args[2].name] < starts.get(a.args[1].name, -1)):
            titled.add(a.args[1])
    if not titled:
        return reading
    added: dict[Atom, Atom] = {}
    for a in facts:
        if (len(a.args) == 3 and a.args[2] in titled and isinstance(a.args[1], Var)
                and a.args[1].name.startswith("x") and a.args[1] != a.args[2]):
            info = predicate_info(a.pred)
            if info.pos == "p" and info.lemma in _TITLE_PREPOSITIONS:
                added[a] = Atom("title_of", a.args)
    if not added:
        return reading
    formula = map_atoms(reading.formula, lambda a: And((a, added[a])) if a in added else a)
    return ReadingView.of(reading, formula, set())
