"""Pattern readings (parsers.mrs.patterns): the shapes, their MRS, and the deductive verdicts
they give for questions that no parser has read (examples/chemistry only: no ../shared)."""

from __future__ import annotations

from pathlib import Path

import pytest

from parsers.mrs import translate_readings
from parsers.mrs.patterns import MAX_SPLITS, NAME_OF_DESCRIPTION, pattern_readings

from verifier.api import Verifier
from verifier.config import load_config
from verifier.logic import Literal, atoms

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "chemistry"


def _only(question: str):
    [t] = translate_readings(pattern_readings(question))
    assert t.ok, t
    return t, {a.pred: a for a in atoms(t.formula)}


def test_how_much_is_the_np_of_name():
    """"How much is the population of mexico city?" reads as "What is the population of ...?"
    (an amount, not a count)."""
    t, by = _only("How much is the population of mexico city ?")
    population = by["_population/nn_u_unknown"].args[0]
    assert by["_of_p"].args[1:] == (population, names_of(t)["mexico city"])
    assert by["_be_v_id"].args[1:] == (t.answer_vars[0], population)
    assert t.intent.kind == "select"


def test_copula_with_of_or_for():
    q = "Which is the Libraries.org ID for Bibliothèque nationale de France?"
    t, by = _only(q)
    assert t.intent.kind == "select" and len(t.answer_vars) == 1
    name = by["named"]
    assert name.args[1] == Literal("Bibliothèque nationale de France")
    ep = next(e for e in t.mrs.eps if e.pred == "named")
    assert q[ep.cfrom:ep.cto] == "Bibliothèque nationale de France"
    noun = next(e for e in t.mrs.eps if e.pred == "_id/nn_u_unknown")
    assert q[noun.cfrom:noun.cto] == "ID"
    # the other words are compound modifiers: the head's noun phrase spans them all
    from verifier.grounding import np_spans
    a, z = np_spans(t.mrs, q)[noun.iv]
    assert q[a:z] == "Libraries.org ID"
    assert {e.pred for e in t.mrs.eps} >= {"_libraries/nn_u_unknown", "_org/nn_u_unknown", "compound"}
    assert by["_for_p"].args[1:] == (noun_var(t, "_id/nn_u_unknown"), name.args[0])
    assert by["_be_v_id"].args[1] == t.answer_vars[0]


def noun_var(t, pred):
    return next(a.args[0] for a in atoms(t.formula) if a.pred == pred)


def _counted(question: str, pred: str):
    """The only pattern reading of a "how many" question, its EPs by predicate, and the
    variable of ``pred``, which must be what it counts."""
    t, by = _only(question)
    x = noun_var(t, pred)
    assert t.intent.kind == "count" and t.answer_vars == (x,)
    return t, by, x


def _names(question: str) -> set[str]:
    return {str(a.args[1]) for t in translate_readings(pattern_readings(question))
            for a in atoms(t.formula) if a.pred == "named"}


def test_title_words_that_do_not_make_a_name():
    # "on" before a month is a date, "and" joins two names
    assert not any("December" in n for n in _names("Who was elected rector of Leipzig University on December 2, 1409?"))
    assert '"Sonny and Cher"' not in _names("Who is the son of Sonny and Cher?")


def test_yes_no_value_questions_over_counts_and_possessives():
    t, by = _only("Are the number of platform tracks of the Times Square station equal to 1.2?")
    assert t.intent.kind == "ask" and "card" in by and "_of_p" in by
    assert {"_number/nn_u_unknown", "_platform/nn_u_unknown", "_tracks/nn_u_unknown"} <= set(by)
    t, by = _only("Is Graham Mink's total career points equal to 0?")
    assert by["named"].args[1] == Literal("Graham Mink") and by["poss"].args[2] == by["named"].args[0]


def test_one_reading_per_split_at_most_max():
    rs = pattern_readings("What is the Encyclopedia of Surfing ID of Kelly Slater?")
    names = sorted(str(a.args[1]) for t in translate_readings(rs) for a in atoms(t.formula) if a.pred == "named")
    assert names == ['"Kelly Slater"', '"Surfing ID of Kelly Slater"']
    assert len(pattern_readings("What is the a of b of c of d of e of f?")) <= MAX_SPLITS


@pytest.mark.parametrize("question", [
    "", "   ", None, "Who was born in 1879?", "What is the capital of France that has a river?",
    "What is the population of Paris in 2010 and 2011?", "What is the mass of benzene and ethanol?",
    "x" * 400,
])
def test_other_questions_have_no_pattern_reading(question):
    assert pattern_readings(question) == []


def test_two_noun_phrases_are_a_chain_never_one_thing():
    """ "the 3D film for the series of X": the film is for the series, the series is of X; the
    words of one phrase never make a name ("the location of Manhattan") or one noun phrase.
    (The other two readings are those of "the CLASS for the NP of NAME", tested below.)"""
    rs = translate_readings(pattern_readings("Which is the 3D film for the series of the Marvel Cinematic Universe?"))
    assert len(rs) == 3
    assert all(len([a for a in atoms(t.formula) if a.pred == "named"]) == 1 for t in rs)
    by = {a.pred: a for a in atoms(rs[0].formula)}
    film, series = by["_film/nn_u_unknown"].args[0], by["_series/nn_u_unknown"].args[0]
    assert by["_for_p"].args[1:] == (film, series) and by["_of_p"].args[1] == series
    assert "appos" not in by and by["named"].args[1] == Literal("the Marvel Cinematic Universe")
    # a property name ending in "of" + one noun is one noun phrase; the chain ("the place of
    # [the] birth of X") is the second reading, as a grammar gives one per attachment
    one, chain = translate_readings(pattern_readings("What is the place of birth of Barack Obama?"))
    assert {a.pred for a in atoms(one.formula)} >= {"_birth/nn_u_unknown", "_place/nn_u_unknown", "compound"}
    by = {a.pred: a for a in atoms(chain.formula)}
    place, birth = by["_place/nn_u_unknown"].args[0], by["_birth/nn_u_unknown"].args[0]
    assert "compound" not in by and by["_be_v_id"].args[1:] == (chain.answer_vars[0], place)
    assert [a.args[1:] for a in atoms(chain.formula) if a.pred == "_of_p"] == [(place, birth), (birth, by["named"].args[0])]
    # an identifier named after an institution stays one noun phrase (the other reading
    # splits at the first "of")
    assert len(pattern_readings("What is the Library of Congress authority ID of Kelly Slater?")) == 2


@pytest.mark.parametrize("question,noun", [
    ("Tell me gene whose name has the word vgf in it.", "_gene/nn_u_unknown"),
    ("What are the stellar evolution which start with the letter k", "_evolution/nn_u_unknown"),
    ("Give me a first-class city name, that starts with an alphabet 'm'.", "_city/nn_u_unknown"),
    ("TELL ME HISTORICAL EVENT WHOSE NAME HAS THE WORD WAR IN IT.", "_event/nn_u_unknown"),
    ("tell me activity that contains the word ventriloquism in their name", "_activity/nn_u_unknown"),
])
def test_name_restriction_asks_for_the_noun_phrase(question, noun):
    """The answer is what the noun phrase denotes; the restriction of its name is not in the MRS."""
    t, by = _only(question)
    assert t.intent.kind == "select" and by["_be_v_id"].args[2] == noun_var(t, noun)
    assert by["_be_v_id"].args[1] == t.answer_vars[0]
    assert not any(p.startswith(("_name/", "_word/", "_letter/")) for p in by)


@pytest.mark.parametrize("question", [
    "Tell me the radio network which contains the word nbc in their name and which has its headquarters in X.",
    "Which river starts with a glacier?",
    "Which river starts with glacial meltwater?",
    "What river in Loire has the highest Strahler number?",
    "Which city has the highest population in Europe?",
])
def test_name_restriction_with_other_constraints_has_no_pattern_reading(question):
    assert pattern_readings(question) == []


def test_two_hop_shape():
    """The answer is the NP1 of NAME1, which has an NP2 that is NAME2 (or a looked-up value)."""
    t, by = _only("What is the location of birth of Berthe Morisot with a twin city of Koszalin?")
    birth, city = noun_var(t, "_birth/nn_u_unknown"), noun_var(t, "_city/nn_u_unknown")
    assert by["_be_v_id"].args[1:] == (t.answer_vars[0], birth)
    assert by["_have_v_1"].args[1:] == (birth, city)
    names = {str(a.args[1]): a.args[0] for a in atoms(t.formula) if a.pred == "named"}
    assert by["_of_p"].args[1:] == (birth, names['"Berthe Morisot"'])
    assert by["appos"].args[1:] == (city, names['"Koszalin"'])
    t, by = _only("What is the gender of Phyllis Schlafly whose shortened name is Аял?")
    assert by["poss"].args[1:] == (noun_var(t, "_name/nn_u_unknown"), noun_var(t, "_gender/nn_u_unknown"))
    # LC-QuAD 2.0 writes the NP2 with "in" too: Cotta is one of the boroughs
    t, by = _only("What is the birth city of Augustus III of Poland, which has boroughs in Cotta?")
    names = {str(a.args[1]): a.args[0] for a in atoms(t.formula) if a.pred == "named"}
    borough = noun_var(t, "_boroughs/nn_u_unknown")
    assert by["_have_v_1"].args[1:] == (noun_var(t, "_city/nn_u_unknown"), borough)
    assert by["appos"].args[1:] == (borough, names['"Cotta"'])
    # a number is a value the query compares, not a name
    t, by = _only("What is the birthplace of Henry Mancini that has an acreage of 213.587?")
    assert "appos" not in by and [str(a.args[1]) for a in atoms(t.formula) if a.pred == "named"] == ['"Henry Mancini"']
    # "..., which is the same as NAME2": the NP1 is the same as NAME2 (_same_a_as), no NP2
    t, by = _only("What is the Christian name of Jean Rhys, which is the same as Jane?")
    name = noun_var(t, "_name/nn_u_unknown")
    names = {str(a.args[1]): a.args[0] for a in atoms(t.formula) if a.pred == "named"}
    assert by["_be_v_id"].args[1:] == (t.answer_vars[0], name)
    assert by["_of_p"].args[1:] == (name, names['"Jean Rhys"'])
    assert by["_same_a_as"].args[1:] == (name, names['"Jane"'])
    assert "_have_v_1" not in by and "appos" not in by


def test_class_for_the_np_of_name_has_both_readings():
    """LC-QuAD 2.0 writes "the CLASS that is the NP of NAME" and "the CLASS whose NP is NAME"
    alike: "Which is the CLASS for the NP of NAME?" gets the chain and both readings."""
    rs = translate_readings(pattern_readings("Which is the currency for the country of Biafra?"))
    assert len(rs) == 3 and all(t.ok for t in rs)
    chain, is_, has = ({a.pred: a for a in atoms(t.formula)} for t in rs)
    assert "_for_p" in chain and "appos" not in chain
    cur = is_["_currency/nn_u_unknown"].args[0]
    country = is_["_country/nn_u_unknown"].args[0]
    assert is_["appos"].args[1:] == (cur, country) and is_["_of_p"].args[1:] == (country, is_["named"].args[0])
    cur = has["_currency/nn_u_unknown"].args[0]
    country = has["_country/nn_u_unknown"].args[0]
    assert has["poss"].args[1:] == (country, cur) and has["appos"].args[1:] == (country, has["named"].args[0])
    # only "for" links the class: "the child body of the parent body of X" stays one chain
    assert len(pattern_readings("What is the child body of the parent body of Miranda?")) == 1


def test_relative_clause_shape():
    """An active verb's subject is the NP, a passive's doer the name after "by"."""
    t, by = _only("Which is the talent agency that represents Ronald Reagan?")
    agency = noun_var(t, "_agency/nn_u_unknown")
    name = noun_var(t, "named")
    assert by["_represents/vbz_u_unknown"].args[1:] == (agency, name)
    # another preposition than "by": the NP undergoes the participle, the name is the
    # preposition's; an NP VERBing PREP NAME does the verb; "someone" is a person
    t, by = _only("Name a codex written in Old English.")
    codex, name = noun_var(t, "_codex/nn_u_unknown"), noun_var(t, "named")
    verb = by["_written/vbn_u_unknown"]
    assert verb.args[2] == codex and by["_in_p"].args[1:] == (verb.args[0], name)
    t, by = _only("Name someone working in Vancouver")
    verb = by["_working/vbg_u_unknown"]
    assert verb.args[1] == noun_var(t, "person") and by["_in_p"].args[1:] == (verb.args[0], noun_var(t, "named"))
    # not a participle ("component"), a time ("beginning in 1974"): no relative clause
    assert not any("vbn_u_unknown" in r or "vbg_u_unknown" in r for q in (
        "Which is the cell component for cholesterol?", "Who was Jonathan Pryce's partner beginning in 1974?")
        for r in pattern_readings(q))
    assert by["_be_v_id"].args[1:] == (t.answer_vars[0], agency)
    t, by = _only("Which is the book that is published by Rolling Stone?")
    name = noun_var(t, "named")
    assert by["_published/vbn_u_unknown"].args[1:] == (name, noun_var(t, "_book/nn_u_unknown"))
    assert pattern_readings("Which is the category that contains the dress?") == []


def test_relative_clause_with_a_past_verb_or_a_preposition():
    """"the person that created X": the NP did the verb to the name; "the co-founder who works
    for X": the name is the verb's preposition's; a time after the verb is no name."""
    t, by = _only("Who is the person that created Twitter?")
    assert by["_created/vbd_u_unknown"].args[1:] == (noun_var(t, "_person/nn_u_unknown"), noun_var(t, "named"))
    t, by = _only("Who is the co-founder who works for Rosita Boisseau?")
    verb = by["_works/vbz_u_unknown"]
    assert verb.args[1] == noun_var(t, "_founder/nn_u_unknown")
    assert by["_for_p"].args[1:] == (verb.args[0], noun_var(t, "named"))
    assert pattern_readings("Who is the partner of Ben Affleck who died at 1999-0-0?") == []
    # "What was NAME VERBed in ...?" asks about the name: no noun phrase "Pasha Angelina"
    # that was awarded in a "name" "the year 1947"
    assert pattern_readings("What was Pasha Angelina awarded in the year 1947?") == []


def test_relative_clause_on_the_np_of_a_name():
    """"the NP1 of NAME1 that VERBs NAME2": NP1, which is of NAME1, does the verb to NAME2."""
    t, by = _only("What is the position of Benedict XVI that replaces John Paul II?")
    position = noun_var(t, "_position/nn_u_unknown")
    names = {a.args[1].lexical: a.args[0] for a in atoms(t.formula) if a.pred == "named"}
    assert by["_of_p"].args[1:] == (position, names["Benedict XVI"])
    assert by["_replaces/vbz_u_unknown"].args[1:] == (position, names["John Paul II"])
    assert by["_be_v_id"].args[1:] == (t.answer_vars[0], position)
    # a time after the verb is still no name
    assert pattern_readings("Who is the partner of Ben Affleck who died at 1999-0-0?") == []


def test_lowercase_role_in_front_of_a_name_is_a_compound():
    """"the composer Pete Townshend": the name is "Pete Townshend", the role noun a compound
    modifier of it (as the ERG reads it), not part of the name."""
    t, by = _only("Which is the film of the composer Pete Townshend?")
    names = {str(a.args[1]): a.args[0] for a in atoms(t.formula) if a.pred == "named"}
    assert set(names) == {'"Pete Townshend"'}
    assert by["compound"].args[1:] == (names['"Pete Townshend"'], noun_var(t, "_composer/nn_u_unknown"))
    assert by["_of_p"].args[1:] == (noun_var(t, "_film/nn_u_unknown"), names['"Pete Townshend"'])


@pytest.mark.parametrize("question", [
    "What is the blood group of the person married to Hillary Clinton?",  # a phrase before "to"
    "Name the collective pseudonym that refers to the Coen brothers.",   # a preposition first
    "What area of engineering did James Watt do field work in?",          # an auxiliary
    "Name the chemical compound used in the drug to treat allergic rhinitis.",  # "to" + verb
    "Tell me the size of the population of Monufia Governorate according to the census?",
])
def test_phrases_are_not_read_as_names(question):
    names = [a.args[1] for t in translate_readings(pattern_readings(question)) for a in atoms(t.formula)
             if a.pred == "named"]
    assert not any(n.lexical.split()[0] in ("to", "for") or " to " in n.lexical or " do " in n.lexical
                   or n.lexical.startswith("the person") for n in names), names
    # titles capitalise the words around "to"
    assert pattern_readings("What is the name of the film script for Mr. Smith Goes to Washington?")


def test_how_many_shape():
    t, by = _only("How many positions are held by Helmut Schmidt?")
    positions = noun_var(t, "_positions/nn_u_unknown")
    assert t.intent.kind == "count" and t.intent.var == positions and t.answer_vars == (positions,)
    name = noun_var(t, "named")
    assert by["_held/vbn_u_unknown"].args[1:] == (name, positions)
    t, by = _only("how many academic degrees does ernest rutherford have?")
    assert t.intent.kind == "count" and by["_have_v_1"].args[2] == noun_var(t, "_degrees/nn_u_unknown")
    # "are there for|of NAME": the preposition relates the counted NP to the name
    t, by, editors = _counted("How many editors are there for Vogue?", "_editors/nn_u_unknown")
    assert by["_for_p"].args[1:] == (editors, noun_var(t, "named")) and by["_be_v_there"].args[1:] == (editors,)
    assert _only("How many depictions are of Osiris?")[1]["_of_p"].args[2] is not None
    # "NAME has how many NP?": "how many" in place
    t, by = _only("Zhu De had how many conflicts?")
    assert t.intent.kind == "count" and by["_have_v_1"].args[2] == noun_var(t, "_conflicts/nn_u_unknown")
    # "How many NP are PARTICIPLE PREP NAME?": the preposition relates the NP to the name
    t, by, ingredients = _counted("How many ingredients are used for Pumpkin Pie?", "_ingredients/nn_u_unknown")
    assert by["_for_p"].args[1:] == (ingredients, noun_var(t, "named"))
    assert by["_used/vbn_u_unknown"].args[2] == ingredients
    # "How many are PARTICIPLE by|PREP NAME?": what undergoes the verb is counted
    t, by, counted = _counted("How many were founded by the Soviet Union?", "generic_entity")
    assert by["_founded/vbn_u_unknown"].args[1:] == (noun_var(t, "named"), counted)
    t, by = _only("How many are dedicated to Basil of Caesarea?")
    counted = by["generic_entity"].args[0]
    assert by["_dedicated/vbn_u_unknown"].args[2] == counted and by["_to_p"].args[1] == by["_dedicated/vbn_u_unknown"].args[0]
    assert not pattern_readings("How many are located in 1990?")  # a value is no name
    # "How many NP VERB in|on|at PLACE?": the counted NP does the verb, placed by the
    # preposition; the place is a name or a noun phrase of a name
    t, by, people = _counted("How many people live in Poland?", "_people/nn_u_unknown")
    live = by["_live/vb_u_unknown"]
    assert live.args[1:] == (people,) and by["_in_p"].args[1:] == (live.args[0], noun_var(t, "named"))
    t, by, people = _counted("How many people live in the capital of Australia?", "_people/nn_u_unknown")
    capital = noun_var(t, "_capital/nn_u_unknown")
    assert by["_in_p"].args[2] == capital and by["_of_p"].args[1:] == (capital, noun_var(t, "named"))
    assert not pattern_readings("How many people are in Poland?")  # a copula is no such verb
    # not a located NP ("in", "on" ...), nor an NP with its own "of"
    assert not pattern_readings("How many residents are there in Yekaterinburg?")
    assert not pattern_readings("How many directors of photography are there for Triumph of the Will?")


def test_np_of_all_np_with_a_name():
    """"Give me the NP1 of all NP2 PREP NAME": a chain of two noun phrases, the second
    related to the name by its preposition; the answer is the NP1."""
    t, by = _only("Give me the capitals of all countries in Africa.")
    capitals, countries = noun_var(t, "_capitals/nn_u_unknown"), noun_var(t, "_countries/nn_u_unknown")
    assert by["_of_p"].args[1:] == (capitals, countries)
    assert by["_in_p"].args[1:] == (countries, noun_var(t, "named"))
    assert by["_be_v_id"].args[1:] == (t.answer_vars[0], capitals)
    # (the chain shape reads "all actors" as a compound as well)
    readings = translate_readings(pattern_readings("Give me the birthdays of all actors of the television show Charmed."))
    [t] = [t for t in readings if not any(a.pred == "_all/nn_u_unknown" for a in atoms(t.formula))]
    actors, charmed = noun_var(t, "_actors/nn_u_unknown"), noun_var(t, "named")
    ofs = {a.args[1:] for a in atoms(t.formula) if a.pred == "_of_p"}
    assert ofs == {(noun_var(t, "_birthdays/nn_u_unknown"), actors), (actors, charmed)}
    assert not pattern_readings("Give me the capitals of all countries that border France.")


def test_coordinated_yes_no_is_written_distributed():
    """"Did X VERB [PREP] A and B?": one verb per conjunct, both with X as subject."""
    t, _ = _only("Did Garth Brooks record with Big Machine Records and Decca?")
    assert t.intent.kind == "ask"
    names = {str(a.args[1]).strip('"'): a.args[0] for a in atoms(t.formula) if a.pred == "named"}
    verbs = [a for a in atoms(t.formula) if a.pred == "_record/vb_u_unknown"]
    withs = [a for a in atoms(t.formula) if a.pred == "_with_p"]
    assert len(verbs) == 2 and {v.args[1] for v in verbs} == {names["Garth Brooks"]}
    assert {w.args[2] for w in withs} == {names["Big Machine Records"], names["Decca"]}
    assert {w.args[1] for w in withs} == {v.args[0] for v in verbs}
    t, _ = _only("Did Shivaji marry both Soyarabai as well as Putalabai?")
    objects = {a.args[2] for a in atoms(t.formula) if a.pred == "_marry/vb_u_unknown"}
    assert objects == {a.args[0] for a in atoms(t.formula) if a.pred == "named"
                       and a.args[1] != Literal("Shivaji")}
    # a passive: the name is the verb's second argument
    t, _ = _only("Was Neil Young nominated for the Juno Award and the Polaris Prize?")
    young = next(a.args[0] for a in atoms(t.formula) if a.pred == "named" and a.args[1] == Literal("Neil Young"))
    assert {a.args[2] for a in atoms(t.formula) if a.pred == "_nominated/vbn_u_unknown"} == {young}
    # "of" inside a name is not the verb; lower-case names are beyond the shape
    t, _ = _only("Did Lawrence of Arabia fight in Aqaba and Medina?")
    assert any(a.pred == "_fight/vb_u_unknown" for a in atoms(t.formula))
    assert pattern_readings("Is Tyler Perry a songwriter and TV director?") == []


def test_coordinated_copula_has_one_noun_phrase_per_conjunct():
    """"Were A and B siblings of X?": A is a sibling of X and B is one; one noun phrase for
    both would make A and B the same thing."""
    t, _ = _only("Were Agrippina the Elder and Octavia the Elder siblings of Augustus?")
    names = {str(a.args[1]).strip('"'): a.args[0] for a in atoms(t.formula) if a.pred == "named"}
    assert set(names) == {"Agrippina the Elder", "Octavia the Elder", "Augustus"}
    copulas = [a for a in atoms(t.formula) if a.pred == "_be_v_id"]
    assert {c.args[1] for c in copulas} == {names["Agrippina the Elder"], names["Octavia the Elder"]}
    assert len({c.args[2] for c in copulas}) == 2
    ofs = [a for a in atoms(t.formula) if a.pred == "_of_p"]
    assert {o.args[1] for o in ofs} == {c.args[2] for c in copulas} and {o.args[2] for o in ofs} == {names["Augustus"]}
    t, _ = _only("Was Edward VI of England a sibling of Lady Jane Grey and Mary I of England?")
    names = {str(a.args[1]).strip('"'): a.args[0] for a in atoms(t.formula) if a.pred == "named"}
    assert {a.args[1] for a in atoms(t.formula) if a.pred == "_be_v_id"} == {names["Edward VI of England"]}
    assert {a.args[2] for a in atoms(t.formula) if a.pred == "_of_p"} == {names["Lady Jane Grey"], names["Mary I of England"]}
    t, _ = _only("Was Anderson Silva's sport taekwondo and judo?")
    assert len([a for a in atoms(t.formula) if a.pred == "poss"]) == 2


def test_yes_no_value_shape():
    t, by = _only("Is the albedo of 1437 Diomedes equal to .024?")
    albedo = noun_var(t, "_albedo/nn_u_unknown")
    assert t.intent.kind == "ask" and by["_of_p"].args[1] == albedo
    assert by["_be_v_id"].args[1:] == (albedo, by["card"].args[0])


def test_when_become_shape():
    t, by = _only("When did Georg Simon Ohm become a member of the Royal Society?")
    name = {str(a.args[1]).strip('"'): a.args[0] for a in atoms(t.formula) if a.pred == "named"}
    member = noun_var(t, "_member/nn_u_unknown")
    assert by["_become_v_id"].args[1:] == (name["Georg Simon Ohm"], member)
    assert by["_of_p"].args[1:] == (member, name["the Royal Society"])
    assert by["loc_nonsp"].args[2] == t.answer_vars[0] and "time_n" in by
    t, by = _only("When was Glen McGrath a member of the Worcestershire County Cricket Club?")
    assert "_be_v_id" in by and "_become_v_id" not in by


def test_what_year_and_get_passive_of_a_one_place_event():
    """"what year was kevin durant drafted?" asks for the time of the passive event, like
    "when"; "did X get drafted" is the same passive, "get" no part of the name."""
    for q in ("what year was kevin durant drafted?", "In which year was Kevin Durant drafted?",
              "what year did kevin durant get drafted?", "when did kevin durant get drafted?"):
        readings = translate_readings(pattern_readings(q))
        t = next(t for t in readings if "_drafted/vbn_u_unknown" in {a.pred for a in atoms(t.formula)})
        by = {a.pred: a for a in atoms(t.formula)}
        assert by["_drafted/vbn_u_unknown"].args[2] == names_of(t)["kevin durant" if q.islower() or "did" in q
                                                                   else "Kevin Durant"], q
        assert by["loc_nonsp"].args[2] == noun_var(t, "time_n") == t.answer_vars[0], q
    # "get" before a word that is no participle stays a verb of its own
    assert not any("vbn_u_unknown" in r for r in pattern_readings("when did kevin durant get up?"))


def test_passive_after_the_copula_is_not_a_noun_phrase():
    # "nominated" is no noun: reading it as "the nominated for X" made "Who was nominated for
    # X?" accept "X was nominated for who".  It is a passive: the answer was nominated, the
    # name is the preposition's (and with "by" the doer)
    for q in ("Who was nominated for King of the Hill?", "Who was nominated for King of the Hill in 1998?"):
        t, by = _only(q)
        assert "_be_v_id" not in by and by["_nominated/vbn_u_unknown"].args[2] == t.answer_vars[0]
        assert by["_for_p"].args[1:] == (by["_nominated/vbn_u_unknown"].args[0], noun_var(t, "named"))
    t, by = _only("Which is broadcasted by NTV?")
    assert by["_broadcasted/vbn_u_unknown"].args[1:] == (noun_var(t, "named"), t.answer_vars[0])
    assert len(pattern_readings("Who was elected rector of Leipzig University?")) == 1
    assert len(pattern_readings("What is the speed of light?")) == 1


def test_reduced_relative_shape():
    t, by = _only("Name a movie directed by Francis Ford Coppola")
    name = noun_var(t, "named")
    assert by["_directed/vbn_u_unknown"].args[1:] == (name, noun_var(t, "_movie/nn_u_unknown"))


def test_request_reads_as_what_is():
    """"Name / Tell me / Give me the NP of NAME" asks what "What is the NP of NAME?" asks."""
    t, by = _only("Name the doctoral advisor of Carl Gustav Jung.")
    advisor = noun_var(t, "_advisor/nn_u_unknown")
    assert by["_be_v_id"].args[1:] == (t.answer_vars[0], advisor)
    assert by["_of_p"].args[1] == advisor and by["named"].args[1] == Literal("Carl Gustav Jung")
    assert all(e.cfrom >= 0 for e in t.mrs.eps)
    # "Define / Enlist / Identify / Specify the NP of NAME" too
    t, by = _only("Define twinning of staurolite.")
    assert by["_be_v_id"].args[1:] == (t.answer_vars[0], noun_var(t, "_twinning/nn_u_unknown"))
    assert by["named"].args[1] == Literal("staurolite")


def test_what_is_in_the_reads_as_what_is_the():
    """LC-QuAD 2.0 writes "What is in the NP of NAME?" for "What is the NP of NAME?"."""
    rs = translate_readings(pattern_readings("what is in the Encyclopedia of Surfing ID of Kelly Slater?"))
    names = {str(a.args[1]) for t in rs for a in atoms(t.formula) if a.pred == "named"}
    assert '"Kelly Slater"' in names
    assert pattern_readings("What is in Paris?") == []


def test_the_name_of_a_description_is_read_as_the_description():
    q = "What is the name of the chemical compound that treats chickenpox?"
    first = translate_readings(pattern_readings(q))[0]
    preds = {a.pred for a in atoms(first.formula)}
    assert not any(p.startswith("_name") for p in preds)
    treats = next(a for a in atoms(first.formula) if a.pred == "_treats/vbz_u_unknown")
    compound = noun_var(first, "_compound/nn_u_unknown")
    assert treats.args[1] == compound  # the compound treats, not its name
    # only the name of a description: the name of a proper name stays a name
    assert NAME_OF_DESCRIPTION.match("Give me the name of a painting created by Rembrandt")
    assert not NAME_OF_DESCRIPTION.match("What is the name of Paris?")
    assert not NAME_OF_DESCRIPTION.match("What is the name of the Eiffel Tower?")


def test_where_or_when_of_a_one_place_event():
    """"Where did Boethius die?", "where was andy todd born?": the answer is the place (or
    time) of the name's event, active (the name is its subject) or passive (its undergoer)."""
    t, by = _only("Where did Boethius die?")
    die = by["_die/vb_u_unknown"]
    assert die.args[1] == names_of(t)["Boethius"]
    assert by["loc_nonsp"].args[1:] == (die.args[0], noun_var(t, "place_n")) == (die.args[0], t.answer_vars[0])
    t, by = _only("when was andy todd born?")
    born = by["_born/vbn_u_unknown"]
    assert born.args[2] == names_of(t)["andy todd"]
    assert by["loc_nonsp"].args[2] == noun_var(t, "time_n") == t.answer_vars[0]
    # not a located thing, nor a phrase with an article for a name
    assert not any("_locate" in r and "vbn_u_unknown" in r for r in pattern_readings("Where is Paris located?"))
    assert not any("place_n" in r for r in pattern_readings("Where did the war end?"))
    # a phrasal verb: the particle is not the verb, and "from" says where the place is
    t, by = _only("where did rihanna grow up?")
    assert by["_grow/vb_u_unknown"].args[1] == names_of(t)["rihanna"]
    t, by = _only("where did morgan freeman come from?")
    assert by["_come/vb_u_unknown"].args[1] == names_of(t)["morgan freeman"]
    assert by["_from_p_dir"].args[1:] == (by["_come/vb_u_unknown"].args[0], t.answer_vars[0])
    # the auxiliary left out, before "come from" only; "X language" is a noun phrase, not a name
    t, by = _only("where marie curie come from?")
    assert by["_come/vb_u_unknown"].args[1] == names_of(t)["marie curie"]
    assert pattern_readings("where the latin language come from?") == []
    assert pattern_readings("where marie curie live?") == []
    # "the" before a name of two words is not part of it
    t, by = _only("where does the atlanta braves play?")
    assert by["_play/vb_u_unknown"].args[1] == names_of(t)["atlanta braves"]


def test_who_verbed_name():
    """"Who directed the film kishen kanhaiya": a person who did the verb to the name (a leading
    "the" left out); a present tense ("Who plays the piano?") and the copula are other shapes."""
    t, by = _only("Who directed the film kishen kanhaiya")
    verb = by["_directed/vbd_u_unknown"]
    assert verb.args[1] == t.answer_vars[0] == noun_var(t, "person")
    assert verb.args[2] == names_of(t)["film kishen kanhaiya"]
    assert pattern_readings("who plays the piano?") == []
    assert pattern_readings("Who is Barack Obama?") == []


def test_what_np_is_name():
    """"what gender is michel gauthier?" reads as "What is the gender of michel gauthier?"
    ("classified as" / "from" at the end too); a name with an article or ending in a
    preposition or participle belongs to other shapes."""
    t, by = _only("what gender is michel gauthier?")
    gender = noun_var(t, "_gender/nn_u_unknown")
    assert by["_be_v_id"].args[1:] == (t.answer_vars[0], gender)
    assert by["_of_p"].args[1:] == (gender, names_of(t)["michel gauthier"])
    t, by = _only("What genre is srđan branković classified as")
    assert by["_of_p"].args[2] == names_of(t)["srđan branković"]
    for q in ("What river is the longest?", "Which country is Paris the capital of?",
              "What film is directed by Spielberg?",
              # a possessor and its noun, whose value is the name
              "What space agency's official language is Hebrew?", "Which star's moon is Omega Nebula?"):
        assert pattern_readings(q) == [], q


def test_is_there_a_np_called_name():
    """"Is there a video game called Battle Chess?" asks whether Battle Chess is a video game
    (a yes/no question); a name in lower case is no name."""
    t, by = _only("Is there a video game called Battle Chess?")
    assert t.intent.kind == "ask" and not t.answer_vars
    assert by["_be_v_id"].args[1:] == (names_of(t)["Battle Chess"], noun_var(t, "_game/nn_u_unknown"))
    assert pattern_readings("Is there a video game called battle chess?") == []


def test_is_names_np_one_value():
    t, by = _only("Is Axl Rose's voice type a mezzo-soprano?")
    names = names_of(t)
    x_np = noun_var(t, "_type/nn_u_unknown")
    assert by["poss"].args[1:] == (x_np, names["Axl Rose"])
    assert by["_be_v_id"].args[1:] == (x_np, names["mezzo-soprano"])
    t, by = _only("Is Anderson Cooper's mother Gloria Vanderbilt?")
    assert by["_be_v_id"].args[2] == names_of(t)["Gloria Vanderbilt"]


def names_of(t):
    return {a.args[1].lexical: a.args[0] for a in atoms(t.formula) if a.pred == "named"}


def test_quotes_in_names_are_escaped():
    [t] = translate_readings(pattern_readings('What is the title of "The \\"Best\\" Of"?'))
    assert t.ok


@pytest.fixture(scope="module")
def verifier() -> Verifier:
    return Verifier(load_config(EXAMPLE / "verifier.toml"))


# a question the example MRS extracts do not have: only the pattern reading reads it
QUESTION = "What is the flash point of methanol?"


@pytest.mark.parametrize("sparql,verdict,why", [
    ("SELECT ?v WHERE { wd:Q14982 wdt:P2128 ?v }", "faithful", ""),
    # without a grammar reading, a pattern reading that does not prove the query decides
    # nothing: it says why
    ("SELECT ?v WHERE { ?v wdt:P2128 wd:Q14982 }", "unknown", "does not relate"),  # swapped
    ("SELECT ?v WHERE { wd:Q14982 wdt:P2102 ?v }", "unknown", "P2102"),   # wrong property
    ("SELECT ?v WHERE { wd:Q49546 wdt:P2128 ?v }", "unknown", "Q49546"),  # wrong entity
    ("ASK WHERE { wd:Q14982 wdt:P2128 ?v }", "unknown", "ASK query"),
])
def test_pattern_reading_confirms_without_a_parser(verifier, sparql, verdict, why):
    assert verifier.mrs.readings(QUESTION) is None
    v = verifier.verify(QUESTION, sparql)
    assert v.deductive.verdict == verdict, v.deductive.reason
    assert why in v.deductive.reason
    if verdict == "unknown":
        assert v.decision == "abstain" and "pattern readings do not prove" in v.deductive.reason


def test_patterns_can_be_switched_off():
    cfg = load_config(EXAMPLE / "verifier.toml").with_values("deductive", patterns=False)
    v = Verifier(cfg).verify(QUESTION, "SELECT ?v WHERE { wd:Q14982 wdt:P2128 ?v }")
    assert v.deductive.verdict == "unknown"


def test_a_crashing_pattern_shape_loses_no_record(verifier, monkeypatch):
    """A bug in a pattern shape is logged; the grammar's readings still decide."""
    import parsers.mrs.patterns as patterns

    def crash(question):
        raise RuntimeError("shape bug")

    monkeypatch.setattr(patterns, "pattern_readings", crash)
    v = verifier.verify("What is the mass of benzene?", "SELECT ?m WHERE { wd:Q2270 wdt:P2067 ?m }")
    assert v.decision == "accept" and v.deductive.verdict == "faithful"
    v = verifier.verify(QUESTION, "SELECT ?v WHERE { wd:Q14982 wdt:P2128 ?v }")
    assert v.deductive.verdict == "unknown" and v.error is None


def test_what_kind_of_np_does_name_without_a_verb():
    """"what form of government does mexico?": "have" left out, read as "What form of
    government does Mexico have?"; not when a verb ends the question or the would-be name is
    a clause."""
    t, by = _only("what form of government does mexico?")
    assert by["_have_v_1"].args[1:] == (names_of(t)["mexico"], t.answer_vars[0])
    assert not any("_have_v_1" in r for r in pattern_readings("what kind of money do they use in aruba?"))
    rs = pattern_readings("what kind of government does italy have?")
    assert len(rs) == 1 and "_have_v_1" in rs[0]


def test_a_name_with_a_possessive_noun():
    """"walt disney's son" in a name slot is the son (a noun) of Walt Disney (poss), as the
    ERG reads a possessive; "What is the name of X's son?" asks for the son."""
    rs = translate_readings(pattern_readings("what is the name of walt disney's son?"))
    t = next(t for t in rs if "_son/nn_u_unknown" in str(t.formula) and "_name/nn_u_unknown" not in str(t.formula))
    by = {a.pred: a for a in atoms(t.formula)}
    son = noun_var(t, "_son/nn_u_unknown")
    assert by["poss"].args[1:] == (son, names_of(t)["walt disney"])
    assert not any("poss" in r for r in pattern_readings("Who founded McDonald's?"))


def test_an_acronym_after_a_name_is_its_possessed_noun():
    """"What is Advanced Micro Devices ISIN?": an identifier written as its acronym after the
    name, without "'s", read as the possessive; a lowercase word is no acronym there."""
    from parsers.mrs.shapes.questions import possessive_readings as _possessive_readings
    rs = translate_readings(_possessive_readings("What is Advanced Micro Devices ISIN?"))
    [t] = rs
    by = {a.pred: a for a in atoms(t.formula)}
    assert by["poss"].args[1:] == (noun_var(t, "_isin/nn_u_unknown"), names_of(t)["Advanced Micro Devices"])
    assert _possessive_readings("What is Advanced Micro Devices isin?") == []


def test_where_was_name_verbing():
    """"Where was Voyager 1 travelling?": a progressive, the verb's place (not a name that
    ends in "travelling"); a word that only looks like a progressive is not one."""
    from parsers.mrs.shapes.events import wh_event_alone_readings as _wh_event_alone_readings
    [t] = translate_readings(_wh_event_alone_readings("Where was Voyager 1 travelling?"))
    by = {a.pred: a for a in atoms(t.formula)}
    assert by["_travelling/vbg_u_unknown"].args[1] == names_of(t)["Voyager 1"]
    assert by["loc_nonsp"].args[1:] == (by["_travelling/vbg_u_unknown"].args[0], t.answer_vars[0])
    assert _wh_event_alone_readings("Where was the painting?") == []


def test_a_count_held_by_a_name_in_a_yes_no_question():
    """"Is the number of races by Alan Staley more than 1.2?", "Are the number of children had
    by Catherine Keener equal to 0.8?": the count's holder after "[had] by", read as "of"."""
    from parsers.mrs.shapes.yes_no import ask_value_readings as _ask_value_readings
    for q, noun, name in [("Is the number of races by Alan Staley more than 1.2?", "_races/nn_u_unknown", "Alan Staley"),
                          ("Are the number of children had by Catherine Keener equal to 0.8?",
                           "_children/nn_u_unknown", "Catherine Keener")]:
        ts = translate_readings(_ask_value_readings(q))
        t = next(t for t in ts if any(a.pred == "_of_p" and a.args[2] == names_of(t).get(name) for a in atoms(t.formula)))
        assert any(a.pred == noun for a in atoms(t.formula)), q
        assert t.intent.kind == "ask"


