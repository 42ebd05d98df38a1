"""Pattern readings (parsers.mrs.patterns): the shapes, their MRS, and the deductive verdicts
they give for questions that no parser has read (examples/chemistry only: no ../shared)."""

from __future__ import annotations

from pathlib import Path

import pytest

from parsers.mrs import translate_readings
from parsers.mrs.patterns import MAX_SPLITS, NAME_OF_DESCRIPTION, pattern_readings
from parsers.mrs.shapes.engine import reader_of
from verifier.api import Verifier
from verifier.config import load_config
from verifier.logic import Atom, Literal, atoms

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "chemistry"
_what_np_did_name_readings = reader_of("what_np_did_name")


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


def test_who_possessive_and_have():
    t, by = _only("Who is the doctoral advisor of Carl Jung?")
    assert "person" in by and "_of_p" in by
    t, by = _only("What is Malmo's Swedish urban area code?")
    assert by["named"].args[1] == Literal("Malmo") and "poss" in by
    # "Who is NAME's NP?" (the copula shape also splits at "of": one more reading)
    [t] = [t for t in translate_readings(pattern_readings("Who is Prince George of Cambridge's parents?"))
           if any(a.pred == "poss" for a in atoms(t.formula))
           and Literal("Prince George of Cambridge") in {a.args[1] for a in atoms(t.formula) if a.pred == "named"}]
    by = {a.pred: a for a in atoms(t.formula)}
    assert by["named"].args[1] == Literal("Prince George of Cambridge")
    assert "person" in by and by["person"].args[0] == t.answer_vars[0]
    t, by = _only("Singin the Rain has what Discogs master ID?")
    assert by["_have_v_1"].args[2] == t.answer_vars[0]
    # a title may hold "in the" before a capitalised word
    t, by = _only("Singin' in the Rain has what Discogs master ID?")
    assert by["named"].args[1] == Literal("Singin' in the Rain")


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


@pytest.mark.parametrize("question,relation,noun,name", [
    ("What is the municipality of West Bengal which start with the letter titagarh", "_of_p",
     "_municipality/nn_u_unknown", "West Bengal"),
    ("Name an alcoholic beverage obtained by fermentation that starts with letter R",
     "_obtained/vbn_u_unknown", "_beverage/nn_u_unknown", "fermentation"),
    ('Name a skyscraper designed by Atkins that contains the word "Al" in its name',
     "_designed/vbn_u_unknown", "_skyscraper/nn_u_unknown", "Atkins"),
    ("Which is the video game series developed by n-Space and starts with the letter r?",
     "_developed/vbn_u_unknown", "_series/nn_u_unknown", "n-Space"),
])
def test_name_restriction_after_other_constraints_keeps_them(question, relation, noun, name):
    """A name test closing the question is set aside and the rest read by the other shapes:
    the answer is the noun phrase, still related to the name (the deductive check reads the
    name test from the question's words)."""
    t, by = _only(question)
    x = noun_var(t, noun)
    assert by["_be_v_id"].args[1:] == (t.answer_vars[0], x)
    rel, named = by[relation], by["named"]
    assert x in rel.args and named.args[0] in rel.args and named.args[1] == Literal(name)
    assert not any(p.startswith(("_name/", "_word/", "_letter/", "_start")) for p in by)


@pytest.mark.parametrize("question,adjective,direction,head", [
    ("Which tram system has the highest cruising speed?", "_high_a_1", "max", "_speed/nn_u_unknown"),
    ("Name the chemical substance with the lowest flash point ?", "_low_a_1", "min", "_point/nn_u_unknown"),
    ("What is the newspaper with the MAX publication interval?", "_max_a_1", "max", "_interval/nn_u_unknown"),
    ("Name the outer planet with the least amount of orbital eccentricity.", "_least_a_1", "min",
     "_eccentricity/nn_u_unknown"),
])
def test_superlative_shape(question, adjective, direction, head):
    t, by = _only(question)
    assert t.intent.kind == "superlative" and t.intent.direction == direction
    assert t.intent.predicate == adjective and t.intent.var == noun_var(t, head)
    have = by["_have_v_1"]
    assert have.args[1] == t.answer_vars[0] and have.args[2] == noun_var(t, head)


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


def test_relative_copula_with_a_second_noun_phrase():
    """"the NP1 [of NAME1] that is the NP2 of NAME2": the answer is the NP2 of NAME2."""
    t, by = _only("Which is the memoir that is the notable work of Hillary Clinton?")
    memoir, work = noun_var(t, "_memoir/nn_u_unknown"), noun_var(t, "_work/nn_u_unknown")
    bes = {a.args[1:] for a in atoms(t.formula) if a.pred == "_be_v_id"}
    assert bes == {(t.answer_vars[0], memoir), (memoir, work)}
    assert by["_of_p"].args[1:] == (work, noun_var(t, "named"))
    t, by = _only("Who is the eponym of Lake Eyre that also is the winner of the Founder's Medal?")
    eponym, winner = noun_var(t, "_eponym/nn_u_unknown"), noun_var(t, "_winner/nn_u_unknown")
    names = {str(a.args[1]): a.args[0] for a in atoms(t.formula) if a.pred == "named"}
    ofs = {a.args[1:] for a in atoms(t.formula) if a.pred == "_of_p"}
    assert ofs == {(eponym, names['"Lake Eyre"']), (winner, names['"the Founder\'s Medal"'])}
    # "... that has NAME2 as [its] NP2": the NP1's NP2 is NAME2 (as "whose NP2 is NAME2")
    t, by = _only("Which is the government organization that has Purdue University as parent organization?")
    org = noun_var(t, "_organization/nn_u_unknown")
    bes = {a.args[1:] for a in atoms(t.formula) if a.pred == "_be_v_id"}
    heads = [a.args[0] for a in atoms(t.formula) if a.pred == "_organization/nn_u_unknown"]
    assert len(heads) == 2
    cls, parent = (heads[0], heads[1]) if (t.answer_vars[0], heads[0]) in bes else (heads[1], heads[0])
    assert by["poss"].args[1:] == (parent, cls) and by["appos"].args[1:] == (parent, noun_var(t, "named"))
    # a number is no noun phrase: only the two-hop reading (population compared with 185170)
    [r] = pattern_readings("What is the determination method of Sabadell which has population as 185170?")
    assert "185170" not in r
    # a class named with "of" is read whole and as a chain
    assert len(pattern_readings("Which is the branch of chemistry that is the opposite of the organic chemisty?")) == 2


def test_name_test_between_relative_pronoun_and_clause():
    """A name test between "that" and "and has NAME as its NP" is set aside; the rest is read
    (and "has the NAME as ..." takes the capitalised name after "the")."""
    t, by = _only('Tell me a first-class city that starts with the letter "m" and has the Seal of '
                  'Milwaukee as its coat of arms.')
    city = noun_var(t, "_city/nn_u_unknown")
    assert by["_be_v_id"].args[1:] == (t.answer_vars[0], city)
    names = {str(a.args[1]): a.args[0] for a in atoms(t.formula) if a.pred == "named"}
    arms = noun_var(t, "_arms/nn_u_unknown")
    assert by["poss"].args[1:] == (arms, city) and by["appos"].args[1:] == (arms, names['"Seal of Milwaukee"'])
    assert not any(p.startswith(("_letter/", "_start")) for p in by)
    t, by = _only("Which is the congregation that has the Catholic Church as parent organization?")
    assert '"Catholic Church"' in {str(a.args[1]) for a in atoms(t.formula) if a.pred == "named"}


def test_has_as_np_then_its_object():
    """"... that has as NP2 NAME2" (the object written after its "as" phrase) reads as "...
    that has NAME2 as NP2"; a name test closing the question is set aside even after a
    relative "that has ..." (the first "that" does not start the name test)."""
    t, by = _only("Tell me the modern language that has as grammatical person the second-person "
                  "singular and starts with the letter r?")
    language, person = noun_var(t, "_language/nn_u_unknown"), noun_var(t, "_person/nn_u_unknown")
    assert by["_be_v_id"].args[1:] == (t.answer_vars[0], language)
    names = {str(a.args[1]): a.args[0] for a in atoms(t.formula) if a.pred == "named"}
    assert by["poss"].args[1:] == (person, language)
    assert by["appos"].args[1:] == (person, names['"second-person singular"'])
    assert not any(p.startswith(("_letter/", "_start")) for p in by)
    # the name may start at a capital ("has as member Ryan Giggs"); a noun phrase that is no
    # plain noun phrase ("member of sports team" has two words after "of") gives no reading
    t, by = _only("Which is the club that has as member Ryan Giggs?")
    assert '"Ryan Giggs"' in {str(a.args[1]) for a in atoms(t.formula) if a.pred == "named"}
    assert pattern_readings("Which is the business that has as member of sports team Ryan Giggs?") == []


def test_lowercase_role_in_front_of_a_name_is_a_compound():
    """"the composer Pete Townshend": the name is "Pete Townshend", the role noun a compound
    modifier of it (as the ERG reads it), not part of the name."""
    t, by = _only("Which is the film of the composer Pete Townshend?")
    names = {str(a.args[1]): a.args[0] for a in atoms(t.formula) if a.pred == "named"}
    assert set(names) == {'"Pete Townshend"'}
    assert by["compound"].args[1:] == (names['"Pete Townshend"'], noun_var(t, "_composer/nn_u_unknown"))
    assert by["_of_p"].args[1:] == (noun_var(t, "_film/nn_u_unknown"), names['"Pete Townshend"'])


def test_superlative_with_a_whose_clause():
    """"the CLASS with the highest NP whose NP2 is NAME2": the CLASS's NP2 is NAME2."""
    t, by = _only("What is the village with the highest number of households whose country is India?")
    village, country = t.answer_vars[0], noun_var(t, "_country/nn_u_unknown")
    assert by["poss"].args[1:] == (country, village)
    assert by["appos"].args[1:] == (country, noun_var(t, "named"))
    assert "superl" in by and by["_have_v_1"].args[1] == village


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


def test_wh_object_shape():
    t, by = _only("What languages does Arthur Hailey speak?")
    assert t.answer_vars == (noun_var(t, "_languages/nn_u_unknown"),)
    name = noun_var(t, "named")
    assert by["_speak/vb_u_unknown"].args[1:] == (name, t.answer_vars[0])
    # a stranded preposition takes the answer
    t, by = _only("Which films did Mike Myers act in?")
    assert by["_in_p"].args[1:] == (by["_act/vb_u_unknown"].args[0], t.answer_vars[0])
    # ... also after the verb's object, a name; a preposition is never the verb itself
    t, by = _only("What position did Edgar of England succeed Eadwig in ?")
    succeed = by["_succeed/vb_u_unknown"]
    assert succeed.args[1:] == (names_of(t)["Edgar of England"], names_of(t)["Eadwig"])
    assert by["_in_p"].args[1:] == (succeed.args[0], t.answer_vars[0])
    assert not any("_in/vb_u_unknown" in r for r in pattern_readings("What position did Edgar of England succeed Eadwig in ?"))
    # ... and with the preposition in front of the noun phrase asked for, both names written as names
    t, by = _only("In what position will Maria Miller replace Theresa May?")
    replace = by["_replace/vb_u_unknown"]
    assert replace.args[1:] == (names_of(t)["Maria Miller"], names_of(t)["Theresa May"])
    assert by["_in_p"].args[1:] == (replace.args[0], t.answer_vars[0])
    assert not pattern_readings("In what subject did Linda Nochlin major while attending New York University?")


def test_when_become_shape():
    t, by = _only("When did Georg Simon Ohm become a member of the Royal Society?")
    name = {str(a.args[1]).strip('"'): a.args[0] for a in atoms(t.formula) if a.pred == "named"}
    member = noun_var(t, "_member/nn_u_unknown")
    assert by["_become_v_id"].args[1:] == (name["Georg Simon Ohm"], member)
    assert by["_of_p"].args[1:] == (member, name["the Royal Society"])
    assert by["loc_nonsp"].args[2] == t.answer_vars[0] and "time_n" in by
    t, by = _only("When was Glen McGrath a member of the Worcestershire County Cricket Club?")
    assert "_be_v_id" in by and "_become_v_id" not in by


def test_when_have_value_shape():
    """"When did NAME have a NP of NUMBER?": the time of NAME having the NP, whose value is
    the number."""
    t, by = _only("When did Portsmouth have a population of 248440?")
    portsmouth = noun_var(t, "named")
    population = noun_var(t, "_population/nn_u_unknown")
    assert by["_have_v_1"].args[1:] == (portsmouth, population)
    assert by["_of_p"].args[1:] == (population, by["card"].args[1]) and by["card"].args[2] == Literal("248440")
    assert by["loc_nonsp"].args[1:] == (by["_have_v_1"].args[0], t.answer_vars[0]) and "time_n" in by
    assert not pattern_readings("When did Portsmouth have a population of many?")


def test_time_phrase_modifies_the_main_event():
    q = "What was the net profit of the State Grid Corporation of China in 2015?"
    [t, _] = translate_readings(pattern_readings(q))
    by = {a.pred: a for a in atoms(t.formula)}
    assert by["yofc"].args[1] == Literal("2015")
    assert by["_in_p_temp"].args[1] == by["_be_v_id"].args[0]  # the copula's event
    assert by["_in_p_temp"].args[2] == by["yofc"].args[0]
    ep = next(e for e in t.mrs.eps if e.pred == "_in_p_temp")
    assert q[ep.cfrom:ep.cto] == "in 2015"
    # at the start, and with a full date: the year is the value
    [t] = translate_readings(pattern_readings("In 1983, what award did the film E.T. win?"))
    assert {a.pred for a in atoms(t.formula)} >= {"_in_p_temp", "_win/vb_u_unknown"}
    [t] = translate_readings(pattern_readings("Who was the president of Calabria on 4/29/2014?"))
    assert Literal("2014") in {a.args[1] for a in atoms(t.formula) if a.pred == "yofc"}
    assert "_on_p_temp" in {a.pred for a in atoms(t.formula)}
    # a number that is not a year is no time
    assert pattern_readings("What is the boiling point of water in 100?") == []
    # a bare year at the end of a wh-question is "in YEAR"; not after "until", "equal to", "of"
    t, by = _only("who does jr smith play for 2012?")
    assert by["_in_p_temp"].args[1] == by["_play_v_1"].args[0] and by["yofc"].args[1] == Literal("2012")
    for q in ("What position did Adolfo Suárez hold until 1973?", "Is the population of Paris equal to 2012?",
              "What is the population of 2012?"):
        assert not any('CARG: "2012"' in r and "_in_p_temp" in r or "until" in q and "_in_p_temp" in r
                       for r in pattern_readings(q)), q
    # "until YEAR", "since YEAR": a bound of the main event's time (``_until_p``, ``_since_p``)
    t, by = _only("What position did Adolfo Suárez hold until 1973?")
    assert by["_until_p"].args[1] == by["_hold/vb_u_unknown"].args[0] and by["yofc"].args[1] == Literal("1973")
    assert t.intent.kind == "comparative"
    # the superlative with a time keeps both
    [t] = translate_readings(pattern_readings("Which city has the highest population in 2010?"))
    assert t.intent.kind == "superlative" and "yofc" in {a.pred for a in atoms(t.formula)}


def test_companion_modifies_the_main_event():
    """"together with NAME" at the end, and "NAME and NAME2 VERB together", put the companion
    on the main event (``_together+with_p``, as the ERG reads "together with"); the rest of
    the question is read by the other shapes."""
    q = "What award did Igor Tamm receive together with Pavel Cherenkov?"
    t, by = _only(q)
    receive = next(a for a in atoms(t.formula) if a.pred.startswith("_receive"))
    assert receive.args[1] == names_of(t)["Igor Tamm"]
    assert by["_together+with_p"].args[1:] == (receive.args[0], names_of(t)["Pavel Cherenkov"])
    ep = next(e for e in t.mrs.eps if e.pred == "_together+with_p")
    assert q[ep.cfrom:ep.cto] == "together with"
    t, by = _only("What award did Robin Williams and Christine Baranski receive together?")
    names = names_of(t)
    receive = next(a for a in atoms(t.formula) if a.pred.startswith("_receive"))
    assert receive.args[1] == names["Robin Williams"]  # the first name alone is the subject
    assert by["_together+with_p"].args[1:] == (receive.args[0], names["Christine Baranski"])
    # no companion without "together", nor a companion that is no name
    assert not any("_together+with_p" in r for r in pattern_readings("What award did Kanye West and Fergie win?"))
    assert not any("_together+with_p" in r
                   for r in pattern_readings("What award did Igor Tamm receive together with his wife?"))


def test_name_at_the_end_modifies_the_main_event():
    """"in|at|during NAME" at the end puts the name on the main event (``_in_p``, ``_at_p``);
    the rest of the question is read by the other shapes.  Not a time ("in 524 BC"), not words
    in lower case, not in a question written in capitals."""
    q = "What was Arthur Penn nominated for at the 12th Annual Tony Awards?"
    t, by = _only(q)
    nominate = next(a for a in atoms(t.formula) if a.pred.startswith("_nominate"))
    assert by["_at_p"].args[1:] == (nominate.args[0], names_of(t)["12th Annual Tony Awards"])
    ep = next(e for e in t.mrs.eps if e.pred == "_at_p")
    assert q[ep.cfrom:ep.cto] == "at the 12th Annual Tony Awards"
    t, by = _only("What is the position of Goh Chok Tong in the 13th Parliament of Singapore?")
    assert by["_in_p"].args[1:] == (by["_be_v_id"].args[0], names_of(t)["13th Parliament of Singapore"])
    assert "Goh Chok Tong" in names_of(t)
    t, by = _only("When did R. T. Rybak stop being the head of government for Minneapolis?")
    assert by["_for_p"].args[2] == names_of(t)["Minneapolis"]
    for q in ("What award did Milo of Croton receive in 524 BC?", "What is the position of Goh Chok Tong in office?",
              "WHAT IS THE POSITION OF GOH CHOK TONG IN THE 13TH PARLIAMENT OF SINGAPORE?"):
        assert not any('_in_p<' in r for r in pattern_readings(q)), q


def test_when_clause_modifies_the_main_event():
    """A clause "when PRONOUN ..." at the end is ``_when_x_subord`` on the main event, as the
    ERG reads it: a copula with a noun phrase, a passive with its doer, or a verb in the past
    with a name for its object; the rest is read by the other shapes."""
    t, by = _only("What position did Arthur Balfour hold when he replaced Edward Grey?")
    hold = next(a for a in atoms(t.formula) if a.pred.startswith("_hold"))
    replaced = by["_replaced/vbd_u_unknown"]
    assert by["_when_x_subord"].args[1:] == (hold.args[0], replaced.args[0])
    assert replaced.args[1] == by["pron"].args[0] and replaced.args[2] == names_of(t)["Edward Grey"]
    t, by = _only("what position did Harthacanute hold when he was replaced by Edward the confessor")
    replaced = by["_replaced/vbn_u_unknown"]  # the name is the doer, the pronoun undergoes it
    assert replaced.args[1:] == (names_of(t)["Edward the confessor"], by["pron"].args[0])
    ts = translate_readings(pattern_readings("Where did Sylvia Plath go to school when she was a literature major?"))
    go = [t for t in ts if "_go_v_1" in {a.pred for a in atoms(t.formula)}]
    assert go, ts
    by = {a.pred: a for a in atoms(go[0].formula)}
    assert by["_be_v_id"].args[1:] == (by["pron"].args[0], by["_major/nn_u_unknown"].args[0])
    assert by["_when_x_subord"].args[1] == by["_go_v_1"].args[0]
    # a clause that is no such clause, or a question no shape reads, gets no reading from it
    assert not any("_when_x_subord" in r for r in pattern_readings("What position did Arthur Balfour hold when he was 16?"))
    assert pattern_readings("Tell me about it when he replaced Edward Grey") == []


def test_passive_with_its_preposition_at_the_end():
    """"Who was X employed by?" asks for the doer; "What was X nominated for?" for the
    preposition's object, the name undergoing the verb."""
    t, by = _only("Who was Herbert von Karajan employed by?")
    assert by["_employed/vbn_u_unknown"].args[1:] == (t.answer_vars[0], names_of(t)["Herbert von Karajan"])
    t, by = _only("What was Dustin Lance Black nominated for?")
    assert by["_nominated/vbn_u_unknown"].args[2] == names_of(t)["Dustin Lance Black"]
    assert by["_for_p"].args[1:] == (by["_nominated/vbn_u_unknown"].args[0], t.answer_vars[0])
    # not a noun at the end ("What is Jacinda Ardern president of?"), nor a name in lower case
    assert pattern_readings("What is Jacinda Ardern president of?") == []
    assert not any("vbn_u_unknown" in r for r in pattern_readings("who was the king employed by?"))


def test_when_event_shape():
    t, by = _only("When was Tiger Woods nominated for a Best Male Golfer Espy Award?")
    assert t.answer_vars == (by["time_n"].args[0],) and by["loc_nonsp"].args[2] == t.answer_vars[0]
    verb = by["_nominated/vbn_u_unknown"]  # a passive: the name undergoes the verb
    assert verb.args[2] == by["named"].args[0] or {a.args[1] for a in atoms(t.formula) if a.pred == "named"}
    names = {str(a.args[1]): a.args[0] for a in atoms(t.formula) if a.pred == "named"}
    assert verb.args[2] == names['"Tiger Woods"'] and by["_for_p"].args[1:] == (verb.args[0], names['"Best Male Golfer Espy Award"'])
    # an active verb takes the other name as its object; a title may contain "in"
    t, by = _only("In which year did Ernest Rutherford win the Nobel Prize in Chemistry?")
    names = {str(a.args[1]): a.args[0] for a in atoms(t.formula) if a.pred == "named"}
    assert by["_win/vb_u_unknown"].args[1:] == (names['"Ernest Rutherford"'], names['"Nobel Prize in Chemistry"'])
    # two coordinated names and a verb without object: its coordinated subject
    t, by = _only("When did Leon Lai and Gaile Lok marry?")
    assert by["_marry/vb_u_unknown"].args[1] == by["_and_c"].args[0]
    # "When did X VERB the Y in Z?" is not "When was X the Y in Z?"
    assert all("_be_v_id" not in {a.pred for a in atoms(t.formula)} for t in
               translate_readings(pattern_readings("When did Ernest Rutherford win the Nobel Prize in Chemistry?")))
    # "get" before a participle is a passive: the name undergoes the verb
    t, by = _only("When did City of God get nominated for the Academy Award for Best Cinematography?")
    names = {str(a.args[1]): a.args[0] for a in atoms(t.formula) if a.pred == "named"}
    assert by["_nominated/vbn_u_unknown"].args[2] == names['"City of God"']
    assert "_get/vb_u_unknown" not in by


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


def test_is_it_true_that_a_statement():
    q = "Is it true that Robert de Niro was born in Greenwich Village?"
    t, by = _only(q)
    assert t.intent.kind == "ask"
    born = by["_born/vbn_u_unknown"]
    names = {a.args[1].lexical: a.args[0] for a in atoms(t.formula) if a.pred == "named"}
    assert born.args[2] == names["Robert de Niro"]  # the passive's undergoer
    assert by["_in_p"].args[1:] == (born.args[0], names["Greenwich Village"])
    t, by = _only("Is it true that Demi Moore knows Old English?")
    assert by["_knows/vb_u_unknown"].args[1:] == (names_of(t)["Demi Moore"], names_of(t)["Old English"])
    # a property's value asked about is another shape (not a verb between names)
    assert not any("/vb_u_unknown" in r for r in pattern_readings("Is it true that the duration of 666 equals 1?"))


def test_where_and_what_did_name_verb():
    t, by = _only("Where and what did Niels Bohr study?")
    study = by["_study/vb_u_unknown"]
    assert study.args[1] == names_of(t)["Niels Bohr"]
    place = noun_var(t, "place_n")
    assert by["loc_nonsp"].args[1:] == (study.args[0], place)
    assert set(t.answer_vars) == {place, study.args[2]}
    t, by = _only("Where and when did John Kenneth Galbraith study?")
    assert {a.args[2] for a in atoms(t.formula) if a.pred == "loc_nonsp"} == set(t.answer_vars)
    assert not any("place_n" in r for r in pattern_readings("Where and what did Bohr study and teach?"))


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


def test_underscored_name_copula():
    readings = translate_readings(pattern_readings("Was Warren_Beatty partner Diane Keaton and Isabelle Adjani?"))
    t = readings[0]
    names = names_of(t)
    assert set(names) == {"Warren Beatty", "Diane Keaton", "Isabelle Adjani"}
    equal = {a.args[2] for a in atoms(t.formula) if a.pred == "_be_v_id"}
    assert equal == {names["Diane Keaton"], names["Isabelle Adjani"]}  # distributed: two copulas
    assert all(a.args[2] == names["Warren Beatty"] for a in atoms(t.formula) if a.pred == "poss")
    # a lower-case value: one reading per length of the noun phrase ("hair", "hair color", ...)
    nps = [{a.pred for a in atoms(t.formula) if a.pred.endswith("nn_u_unknown")}
           for t in translate_readings(pattern_readings("Was Ron_Jeremy hair color brown hair?"))]
    assert {"_color/nn_u_unknown", "_hair/nn_u_unknown"} in nps


def test_when_did_name_stop_verbing():
    t, by = _only("When did Vladimir Lenin stop living in Podolsk?")
    living = by["_living/vb_u_unknown"]
    assert living.args[1] == names_of(t)["Vladimir Lenin"]
    assert by["_in_p"].args[1:] == (living.args[0], names_of(t)["Podolsk"])
    assert by["loc_nonsp"].args[1] == living.args[0]  # the time is the living's


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


def test_where_is_the_place_noun_of_a_name():
    """"Where is the headquarters of X [located]?" asks for the headquarters itself: read as
    "What is the headquarters of X?"; a noun that names no place keeps the "where"."""
    t, by = _only("Where is the headquarters of the National Rifle Association located?")
    hq = noun_var(t, "_headquarters/nn_u_unknown")
    assert by["_be_v_id"].args[1:] == (t.answer_vars[0], hq)
    assert by["_of_p"].args[1] == hq
    assert not any(a.pred.startswith("_locate") for a in atoms(t.formula))
    assert pattern_readings("Where is the tributary of Pine Hill located?") == []
    # "the landing from the Caribbean Sea" is a phrase, not a name
    # ... and "location of the" is no noun phrase ("of" + a determiner is no property name)
    assert pattern_readings("Where is the location of the landing from the Caribbean Sea?") == []
    assert pattern_readings("What is the location of the landing in the Caribbean Sea?") == []


def test_where_is_a_name():
    """"Where is Mount Whitney [located]?", "where is adam smith from?": the place of the name
    (``loc_nonsp``; the undergoer of ``_locate_v_1``; ``_from_p``), as the ERG reads them."""
    t, by = _only("where is whistler mountain located?")
    x = names_of(t)["whistler mountain"]
    assert by["loc_nonsp"].args[1:] == (x, noun_var(t, "place_n")) and noun_var(t, "place_n") == t.answer_vars[0]
    assert by["_locate_v_1"].args[2] == x
    t, by = _only("where is victoria beckham from?")
    assert by["_from_p"].args[1:] == (names_of(t)["victoria beckham"], t.answer_vars[0])
    t, by = _only("Where is Mount Whitney?")
    assert by["loc_nonsp"].args[1] == names_of(t)["Mount Whitney"]
    # a passive, an adverb or a phrase are other shapes
    for q in ("where was the gallipoli campaign waged?", "where is devon sawa now?", "where was tommy emmanuel born?",
              "where is the headquarters of the NRA located?"):
        assert not any("_from_p" in r or "_locate_v_1" in r for r in pattern_readings(q)), q
    # "the country of X" is X; without the copula only before "located"
    t, by = _only("where is the country of armenia?")
    assert by["loc_nonsp"].args[1] == names_of(t)["armenia"]
    t, by = _only("where great britain located?")
    assert by["_locate_v_1"].args[2] == names_of(t)["great britain"]
    t, by = _only("where indian ocean is located?")  # the copula after the name
    assert by["_locate_v_1"].args[2] == names_of(t)["indian ocean"]
    t, by = _only("where's the hudson river?")  # "where's"
    assert by["loc_nonsp"].args[1] == names_of(t)["hudson river"]
    assert pattern_readings("where obama born?") == []
    # before "located", a lowercase "N of NAME" may be a name (the labels decide); not with an
    # article, and not elsewhere
    t, by = _only("where is isthmus of panama located?")
    assert by["_locate_v_1"].args[2] == names_of(t)["isthmus of panama"]
    assert pattern_readings("where is the capital of the country located?") == []
    assert pattern_readings("where is isthmus of panama?") == []


def test_who_played_a_character_in_a_work():
    """"who played maxie jones on general hospital?": the person plays the character, the work
    on the verb's event (as the ERG reads "who plays jay adams in lords of dogtown?")."""
    t, by = _only("who played maxie jones on general hospital?")
    names = names_of(t)
    assert by["person"].args[0] == t.answer_vars[0]
    assert by["_play_v_1"].args[1:] == (t.answer_vars[0], names["maxie jones"])
    assert by["_on_p_state"].args[1:] == (by["_play_v_1"].args[0], names["general hospital"])
    t, by = _only("who voiced darth vader in the original star wars movies?")
    assert "_voice_v_1" in by and names_of(t)["original star wars"]
    assert pattern_readings("who played in the band with John Lennon?") == []
    # "who does the voice of X in Y?" as "who voices X in Y?"
    t, by = _only("who does the voice of kitt in knight rider?")
    assert by["_voice_v_1"].args[1:] == (t.answer_vars[0], names_of(t)["kitt"])
    assert by["_in_p_state"].args[2] == names_of(t)["knight rider"]


def test_married_to_place_in_and_films_starred_in():
    """Three informal shapes read as the ERG reads them: "who was judy garland married to?",
    "what county is sacramento located in?", "what films has gerard butler starred in?"."""
    t, by = _only("who is steve nash married to?")
    assert by["_married_a_1"].args[1] == names_of(t)["steve nash"]
    assert by["_to_p_state"].args[1:] == (by["_married_a_1"].args[0], t.answer_vars[0])
    from parsers.mrs.shapes.engine import reader_of  # the auxiliary left out before "been"
    _who_married_readings = reader_of("who_married")
    [t] = translate_readings(_who_married_readings("who tom cruise been married to?"))
    assert {a.pred: a for a in atoms(t.formula)}["_married_a_1"].args[1] == names_of(t)["tom cruise"]
    t, by = _only("what county is heathrow airport in?")
    assert by["_in_p_loc"].args[1:] == (names_of(t)["heathrow airport"], t.answer_vars[0])
    assert by["_county_n_of"].args[0] == t.answer_vars[0]
    t, by = _only("what county is stockton ca located in?")
    assert by["_locate_v_1"].args[2] == names_of(t)["stockton ca"]
    assert by["_in_p_state"].args[1:] == (by["_locate_v_1"].args[0], t.answer_vars[0])
    t, by = _only("what continent is greenland located?")  # "in" left out
    assert by["_in_p_state"].args[1:] == (by["_locate_v_1"].args[0], t.answer_vars[0])
    t, by = _only("what continent is south africa part of?")  # in what it is part of
    assert by["_in_p_loc"].args[1:] == (names_of(t)["south africa"], t.answer_vars[0])
    t, by = _only("what films has kristen stewart starred in?")
    assert by["_star_v_1"].args[1] == names_of(t)["kristen stewart"]
    assert by["_in_p_loc"].args[2] == noun_var(t, "_film_n_1") == t.answer_vars[0]
    # "been in" is no verb of this shape; test_what_films_has_name_been_in reads it
    assert not any("_star_v_1" in r or "/vbn_u_unknown" in r for r in pattern_readings("what movies have adam sandler been in?"))


def test_born_in_a_place_and_a_relative_without_an_apostrophe():
    t, by = _only("what city was selena gomez born in?")
    assert by["_born/vbn_u_unknown"].args[2] == names_of(t)["selena gomez"]
    assert by["_in_p_state"].args[2] == noun_var(t, "_city_n_of") == t.answer_vars[0]
    t, by = _only("what is bethenny frankel husband name?")
    assert by["poss"].args[1:] == (noun_var(t, "_husband/nn_u_unknown"), names_of(t)["bethenny frankel"])
    # ... and a person's names, party, net worth ("what is lil wayne real name?")
    t, by = _only("what is julia gillard party?")
    assert by["poss"].args[2] == names_of(t)["julia gillard"]
    assert any("poss" in r and '"lil wayne"' in r for r in pattern_readings("what is lil wayne real name?"))
    # only the nouns of relatives: another noun after a name is no possessive
    assert not any("poss" in r for r in pattern_readings("who is robert downey jr agent?"))


def test_time_zone_of_a_place():
    t, by = _only("what is the time zone in oklahoma city?")
    assert by["_in_p"].args[2] == names_of(t)["oklahoma city"]
    t, by = _only("what is brazil time zone?")
    assert by["poss"].args[2] == names_of(t)["brazil"]
    t, by = _only("what is nina dobrev nationality?")
    assert by["poss"].args[1:] == (noun_var(t, "_nationality/nn_u_unknown"), names_of(t)["nina dobrev"])
    ts = translate_readings(pattern_readings("what are the names of walt disney kids?"))
    assert any("walt disney" in names_of(t) and any(a.pred == "poss" and a.args[2] == names_of(t)["walt disney"]
                                                    for a in atoms(t.formula)) for t in ts)
    t, by = _only("what is yale university mascot?")
    assert by["poss"].args[1:] == (noun_var(t, "_mascot/nn_u_unknown"), names_of(t)["yale university"])


def test_what_time_is_it_in_a_place():
    """"what time is it in texas?", "what time is kansas in?", "what timezone are the
    bahamas?": read as "What time zone is NAME in?" (``_in_p`` of the name and the zone);
    plain "time" without "in" or "now" is left to the grammar ("what time is the super
    bowl?" asks when an event is)."""
    for q, name in [("what times is it in texas?", "texas"), ("what time is kansas in?", "kansas"),
                    ("what time is nebraska now?", "nebraska"), ("what timezone are the bahamas?", "bahamas"),
                    ("what is the actual current local time now in uk?", "uk"),
                    ("what time zones are there in the us?", "us"),
                    ("where is the time zone in florida?", "florida")]:
        [t] = [t for t in translate_readings(pattern_readings(q)) if "_timezone/nn_u_unknown" in str(t.formula)]
        by = {a.pred: a for a in atoms(t.formula)}
        zone = noun_var(t, "_timezone/nn_u_unknown")
        assert by["_in_p"].args[1:] == (names_of(t)[name], zone), q
        assert list(t.answer_vars) == [zone], q
    for q in ["what time is the super bowl?", "what time is it?", "What is the standard time in Genoa?"]:
        assert not any("_timezone/nn_u_unknown" in r for r in pattern_readings(q)), q


def test_what_did_name_verb_in_the_past():
    """"what did copernicus invented?": one reading per base form the spelling allows, the
    verb an unknown word with the name as its subject and "what" as its object."""
    rs = translate_readings(pattern_readings("what did copernicus invented?"))
    verbs = {a.pred: a for t in rs for a in atoms(t.formula) if a.pred.endswith("/vb_u_unknown")}
    assert set(verbs) == {"_invent/vb_u_unknown", "_invente/vb_u_unknown"}
    t = next(t for t in rs if "_invent/vb_u_unknown" in str(t.formula))
    by = {a.pred: a for a in atoms(t.formula)}
    assert by["_invent/vb_u_unknown"].args[1:] == (names_of(t)["copernicus"], t.answer_vars[0])
    t, by = _only("what did james madison wrote?")
    assert "_write/vb_u_unknown" in by
    assert not any("vb_u_unknown" in r for r in pattern_readings("what did the beatles do?"))


def test_places_to_see_and_a_copula_left_out():
    """"what are some places to visit in barcelona?" as "What should you see in X?" (the verb's
    object the answer, the place on its event); "who the voice of X?" as "who is the voice of
    X?"."""
    t, by = _only("what are some places to visit in barcelona?")
    assert by["_visit_v_1"].args[2] == t.answer_vars[0]
    assert by["_in_p_state"].args[1:] == (by["_visit_v_1"].args[0], names_of(t)["barcelona"])
    rs = pattern_readings("who the voice of peter griffin?")
    assert rs and all("_be_v_id" in r for r in rs)
    assert pattern_readings("what are some places in barcelona?") == []
    # "on a map" says nothing more than where: the words are set aside
    assert pattern_readings("where is burundi located on a map?") == pattern_readings("where is burundi located?")


def test_married_too_is_read_as_married_to():
    t, by = _only("who is keyshia cole married too?")
    assert by["_married_a_1"].args[1] == names_of(t)["keyshia cole"]
    assert by["_to_p_state"].args[1:] == (by["_married_a_1"].args[0], t.answer_vars[0])


def test_plays_for_dies_of_and_married():
    """"who does X play for?", "what did X die of / from?", "who did X marry?", read as the
    ERG reads them; none of them with a phrase for a name."""
    t, by = _only("who has tom brady played for?")
    assert by["_play_v_1"].args[1] == names_of(t)["tom brady"]
    assert by["_for_p"].args[1:] == (by["_play_v_1"].args[0], t.answer_vars[0])
    t, by = _only("what clubs has peter crouch played for?")
    assert by["_for_p"].args[2] == noun_var(t, "_club_n_1") == t.answer_vars[0]
    t, by = _only("what did lucille ball die of?")
    assert by["_die_v_of"].args[1:] == (names_of(t)["lucille ball"], t.answer_vars[0])
    t, by = _only("what did robin gibb died from?")
    assert by["_die_v_1"].args[1] == names_of(t)["robin gibb"]
    assert by["_from_p"].args[1:] == (by["_die_v_1"].args[0], t.answer_vars[0])
    t, by = _only("who did axl rose marry?")
    assert by["_marry_v_1"].args[1:] == (names_of(t)["axl rose"], t.answer_vars[0])
    # "married" and "end up marrying" after "did", as questions write them
    for q, name in [("who did adam sandler married?", "adam sandler"),
                    ("who did draco malloy end up marrying?", "draco malloy")]:
        t, by = _only(q)
        assert by["_marry_v_1"].args[1:] == (names_of(t)[name], t.answer_vars[0]), q
    assert pattern_readings("who did the king of france marry?") == []
    assert pattern_readings("who does messi play with?") == []


def test_who_did_name_play_in_a_work():
    """"who did X play in Y?" asks for the character (the object of ``_play_v_1``); "who is
    playing X on Y?" for the actor, like "who played X in Y?"."""
    t, by = _only("who did kat graham play in parent trap?")
    assert by["_play_v_1"].args[1:] == (names_of(t)["kat graham"], t.answer_vars[0])
    assert by["_in_p_state"].args[2] == names_of(t)["parent trap"]
    t, by = _only("who is playing jason morgan on general hospital?")
    assert by["_play_v_1"].args[1:] == (t.answer_vars[0], names_of(t)["jason morgan"])
    assert pattern_readings("who did the actor play in the movie?") == []


def test_where_did_name_go_to_school():
    """"where did X went to school?" (which the ERG does not parse) read as it reads "where did
    X go to high school?"."""
    t, by = _only("where did barack obama went to school?")
    assert by["_go_v_1"].args[1] == names_of(t)["barack obama"]
    assert by["_to_p_dir"].args[2] == noun_var(t, "_school_n_1")
    assert by["loc_nonsp"].args[2] == noun_var(t, "place_n") == t.answer_vars[0]
    t, by = _only("where ulysses s grant go to high school?")
    assert "_high_a_1" in by and by["_go_v_1"].args[1] == names_of(t)["ulysses s grant"]
    # "attend" is read as "go to"
    [t] = [t for t in translate_readings(pattern_readings("where did kobe bryant attend high school?"))
           if "_go_v_1" in {a.pred for a in atoms(t.formula)}]
    by = {a.pred: a for a in atoms(t.formula)}
    assert by["_go_v_1"].args[1] == names_of(t)["kobe bryant"]
    assert by["_to_p_dir"].args[2] == noun_var(t, "_school_n_1") and "_high_a_1" in by


def test_what_films_has_name_been_in():
    """"what movies has billy burke been in?": the name is in the films asked for."""
    t, by = _only("what movies has billy burke been in?")
    assert by["_in_p_loc"].args[1:] == (names_of(t)["billy burke"], noun_var(t, "_movie_n_of"))
    assert list(t.answer_vars) == [noun_var(t, "_movie_n_of")]
    t, by = _only("what other movies is liam hemsworth in?")
    assert by["_in_p_loc"].args[1] == names_of(t)["liam hemsworth"]
    assert not any("_in_p_loc" in r and "_movie_n_of" in r for r in pattern_readings("what movies has the war been in?"))
    # "been" or the auxiliary left out; not a name that ends in a verb of another shape
    for q, name in (("what movies has angelina jolie in?", "angelina jolie"),
                    ("what movies gerard butler in?", "gerard butler")):
        t, by = _only(q)
        assert by["_in_p_loc"].args[1:] == (names_of(t)[name], noun_var(t, "_movie_n_of")), q
    assert not any("_in_p_loc" in r and "_movie_n_of" in r
                   for r in pattern_readings("what movies has tom hanks starred in?"))


def test_what_np_did_name_without_the_verb():
    """"what college did peyton manning?": the verb left out after the name, read as the
    college of the name; not when a verb, a pronoun or a preposition follows."""
    [t] = translate_readings(_what_np_did_name_readings("what college did peyton manning?"))
    by = {a.pred: a for a in atoms(t.formula)}
    college = by["_college/nn_u_unknown"].args[0]
    assert by["_of_p"].args[1:] == (college, names_of(t)["peyton manning"])
    assert by["_be_v_id"].args[1:] == (t.answer_vars[0], college)
    for q in ("what college did matt lauer attend?", "what language do they denmark?",
              "what team did john madden play football for?", "what language do pakistani people talk?",
              "what team does ladainian tomlinson play 4?"):
        assert _what_np_did_name_readings(q) == [], q


def test_currency_in_a_place_without_article_or_copula():
    """"what is currency in dominican republic?", "what the currency in argentina?": the
    currency in the place, as "what is the currency in X?" reads."""
    for q, name in (("what is currency in dominican republic?", "dominican republic"),
                    ("what the currency in argentina?", "argentina")):
        t, by = _only(q)
        assert by["_in_p"].args[1:] == (by["_currency/nn_u_unknown"].args[0], names_of(t)[name]), q
        assert by["_be_v_id"].args[2] == by["_currency/nn_u_unknown"].args[0], q


def test_what_language_people_speak():
    """"what language people speak in afghanistan?", "what does russian people speak?": the
    people (of a demonym) speak the answer, in the place after "in"."""
    t, by = _only("what language people speak in afghanistan?")
    speak = by["_speak_v_to"]
    assert speak.args[1:] == (noun_var(t, "_people_n_of"), noun_var(t, "_language_n_1"))
    assert by["_in_p_state"].args[1:] == (speak.args[0], names_of(t)["afghanistan"])
    t, by = _only("what does russian people speak?")
    assert by["_russian/jj_u_unknown"].args[1] == by["_speak_v_to"].args[1] == noun_var(t, "_people_n_of")
    assert pattern_readings("what do the people do?") == []
    # "they" (or its slip "the") as the people; the place before the verb or without "in"
    for q, place in (("what language do the speak in pakistan?", "pakistan"),
                     ("what language do people in czech republic speak?", "czech republic"),
                     ("what do they speak iceland?", "iceland")):
        [t] = [t for t in translate_readings(pattern_readings(q)) if "_speak_v_to" in {a.pred for a in atoms(t.formula)}]
        by = {a.pred: a for a in atoms(t.formula)}
        assert by["_speak_v_to"].args[1] == noun_var(t, "_people_n_of"), q
        assert by["_in_p_state"].args[1:] == (by["_speak_v_to"].args[0], names_of(t)[place]), q


def test_what_countries_do_people_speak_a_language():
    """"what countries do people speak portuguese?": people speak the language in the
    countries asked for, as the ERG reads "In which countries do people speak Japanese?"."""
    [t] = [t for t in translate_readings(pattern_readings("what countries do people speak portuguese?"))
           if "_country_n_of" in {a.pred for a in atoms(t.formula)}]
    by = {a.pred: a for a in atoms(t.formula)}
    speak = by["_speak_v_to"]
    assert speak.args[1:] == (noun_var(t, "_people_n_of"), names_of(t)["portuguese"])
    assert by["_in_p_state"].args[1:] == (speak.args[0], noun_var(t, "_country_n_of"))
    assert list(t.answer_vars) == [noun_var(t, "_country_n_of")]
    from parsers.mrs.shapes.engine import reader_of
    _what_countries_speak_readings = reader_of("what_countries_speak")

    assert _what_countries_speak_readings("what countries do people speak in?") == []


def test_what_do_they_call_their_money():
    """"what do australia call their money?" and "what do you call money in brazil?" read as the
    money of (in) the place; "what team is ronaldinho on?" as the team of the name."""
    from parsers.mrs.shapes.engine import reader_of
    _call_money_readings = reader_of("call_money")
    _what_np_is_name_readings = reader_of("what_np_is_name")

    [t] = translate_readings(_call_money_readings("what do australia call their money?"))
    by = {a.pred: a for a in atoms(t.formula)}
    money = by["_of_p"].args[1]
    assert by["_of_p"].args[2] == names_of(t)["australia"] and by["_be_v_id"].args[1:] == (t.answer_vars[0], money)
    [t] = translate_readings(_call_money_readings("what do you call money in brazil?"))
    by = {a.pred: a for a in atoms(t.formula)}
    assert by["_in_p"].args[2] == names_of(t)["brazil"]
    assert _call_money_readings("what do they call their money?") == []
    [t] = translate_readings(_what_np_is_name_readings("what team is ronaldinho on?"))
    by = {a.pred: a for a in atoms(t.formula)}
    assert by["_of_p"].args[2] == names_of(t)["ronaldinho"]


def test_in_which_np_did_name_verb():
    """"In which films directed by Garry Marshall was Julia Roberts starring?": the name does
    the verb in the thing asked for (the preposition on the verb's event), which the other name
    directed (a reduced relative, the NP its object); the preposition may also come last."""
    q = "In which films directed by Garry Marshall was Julia Roberts starring?"
    [t] = [t for t in translate_readings(pattern_readings(q)) if "_starring/vbg_u_unknown" in str(t.formula)]
    by = {a.pred: a for a in atoms(t.formula)}
    films, names = noun_var(t, "_films/nn_u_unknown"), names_of(t)
    assert list(t.answer_vars) == [films]
    assert by["_directed/vbn_u_unknown"].args[1:] == (names["Garry Marshall"], films)
    assert by["_starring/vbg_u_unknown"].args[1] == names["Julia Roberts"]
    assert by["_in_p"].args[1:] == (by["_starring/vbg_u_unknown"].args[0], films)
    t, by = _only("In which military conflicts did Lawrence of Arabia participate?")
    assert by["_in_p"].args[1:] == (by["_participate/vb_u_unknown"].args[0], t.answer_vars[0])
    t, by = _only("Which films directed by Garry Marshall did Julia Roberts appear in?")
    assert by["_in_p"].args[1:] == (by["_appear/vb_u_unknown"].args[0], t.answer_vars[0])
    assert by["_directed/vbn_u_unknown"].args[2] == t.answer_vars[0]
    for q in ["At what university did Rosalind Franklin study physical chemistry?",  # the verb is not last
              "In which country was Mozart born?",  # a passive, not "was X VERBing"
              "In which films did Julia Roberts starring?"]:
        assert not any("_u_unknown" in r and "_in_p " in r.replace("<", " ") for r in pattern_readings(q)
                       if "vbg_u_unknown" in r or "/vb_u_unknown" in r), q


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


def test_known_for_and_who_did_verb():
    """"what was gregor mendel known for?" (and "famous for") as the ERG reads "known for":
    the passive ``_know_v_1`` of the name, "for" on its event; "who did X sign with?": the
    name's verb, "who" after the preposition (or its object without one); not a passive
    ("who did X get shot by?") or a shape of its own ("who did X marry?")."""
    for q in ["what was gregor mendel known for?", "what was elijah mccoy famous for?"]:
        t, by = _only(q)
        assert by["_know_v_1"].args[2] == next(iter(names_of(t).values()))
        assert by["_for_p"].args[1:] == (by["_know_v_1"].args[0], t.answer_vars[0])
    t, by = _only("who did jeremy lin sign with?")
    assert by["_sign/vb_u_unknown"].args[1] == names_of(t)["jeremy lin"]
    assert by["_with_p"].args[1:] == (by["_sign/vb_u_unknown"].args[0], t.answer_vars[0])
    _who_did_verb_readings = reader_of("who_did_verb")
    assert _who_did_verb_readings("who did ronald reagan get shot by?") == []
    assert _who_did_verb_readings("who did adam sandler marry?") == []


def test_an_acronym_after_a_name_is_its_possessed_noun():
    """"What is Advanced Micro Devices ISIN?": an identifier written as its acronym after the
    name, without "'s", read as the possessive; a lowercase word is no acronym there."""
    _possessive_readings = reader_of("possessive")
    rs = translate_readings(_possessive_readings("What is Advanced Micro Devices ISIN?"))
    [t] = rs
    by = {a.pred: a for a in atoms(t.formula)}
    assert by["poss"].args[1:] == (noun_var(t, "_isin/nn_u_unknown"), names_of(t)["Advanced Micro Devices"])
    assert _possessive_readings("What is Advanced Micro Devices isin?") == []


def test_where_was_name_verbing():
    """"Where was Voyager 1 travelling?": a progressive, the verb's place (not a name that
    ends in "travelling"); a word that only looks like a progressive is not one."""
    _wh_event_alone_readings = reader_of("wh_event_alone")
    [t] = translate_readings(_wh_event_alone_readings("Where was Voyager 1 travelling?"))
    by = {a.pred: a for a in atoms(t.formula)}
    assert by["_travelling/vbg_u_unknown"].args[1] == names_of(t)["Voyager 1"]
    assert by["loc_nonsp"].args[1:] == (by["_travelling/vbg_u_unknown"].args[0], t.answer_vars[0])
    assert _wh_event_alone_readings("Where was the painting?") == []


def test_a_count_held_by_a_name_in_a_yes_no_question():
    """"Is the number of races by Alan Staley more than 1.2?", "Are the number of children had
    by Catherine Keener equal to 0.8?": the count's holder after "[had] by", read as "of"."""
    _ask_value_readings = reader_of("ask_value")
    for q, noun, name in [("Is the number of races by Alan Staley more than 1.2?", "_races/nn_u_unknown", "Alan Staley"),
                          ("Are the number of children had by Catherine Keener equal to 0.8?",
                           "_children/nn_u_unknown", "Catherine Keener")]:
        ts = translate_readings(_ask_value_readings(q))
        t = next(t for t in ts if any(a.pred == "_of_p" and a.args[2] == names_of(t).get(name) for a in atoms(t.formula)))
        assert any(a.pred == noun for a in atoms(t.formula)), q
        assert t.intent.kind == "ask"


def test_a_relative_after_a_capitalised_possessive():
    """"In which school did Obama's wife study?": with capitals, a possessive before a relative
    noun is read as the ERG reads a possessive (the wife of Obama); other nouns stay in the name
    ("What is the discography for Justin Timberlake's discography?")."""
    t, by = _only("In which school did Obama's wife study?")
    wife = noun_var(t, "_wife/nn_u_unknown")
    assert by["poss"].args[1:] == (wife, names_of(t)["Obama"])
    assert by["_study/vb_u_unknown"].args[1] == wife
    assert not any("poss" in r for r in pattern_readings("Which album did Justin Timberlake's band record?"))


def test_what_did_name_verb_with_a_stranded_preposition():
    """"what did corey haim act in?": the verb as written, "what" the object of the stranded
    preposition on the verb's event."""
    t, by = _only("what did corey haim act in?")
    assert by["_act/vb_u_unknown"].args[1] == names_of(t)["corey haim"]
    assert by["_in_p"].args[1:] == (by["_act/vb_u_unknown"].args[0], t.answer_vars[0])
    assert _only("what did kellie martin play on?")[1]["_on_p"].args[2] == _only("what did kellie martin play on?")[0].answer_vars[0]


def test_are_there_n_np_at_name():
    """"Are there 1.942 employees at Fu Jen Catholic University?" as "Does NAME have N NP?":
    ``_have_v_1`` of the name and the counted noun phrase, ``card`` on it, a yes/no question."""
    t, by = _only("Are there 1.942 employees at Fu Jen Catholic University?")
    employees = noun_var(t, "_employees/nn_u_unknown")
    assert by["_have_v_1"].args[1:] == (names_of(t)["Fu Jen Catholic University"], employees)
    assert by["card"].args[1] == employees and by["card"].args[2] == Literal("1.942")
    assert t.intent.kind == "ask"
    # the name first: "Is it true that NAME has N NP?", "Does NAME have N NP?"
    for q in ("Is it true that the California Dreams Tour has 3.6 representations?",
              "Does the California Dreams Tour have 3.6 representations?"):
        t, by = _only(q)
        representations = noun_var(t, "_representations/nn_u_unknown")
        assert by["_have_v_1"].args[1:] == (names_of(t)["California Dreams Tour"], representations), q
        assert by["card"].args[1] == representations and by["card"].args[2] == Literal("3.6"), q
        assert t.intent.kind == "ask", q
    assert not any("_have_v_1" in r for r in pattern_readings("Does the California Dreams Tour have representations?"))
    assert pattern_readings("Are there 3 people in the room, or more?") == [] or all(
        "_have_v_1" not in r for r in pattern_readings("Are there 3 people in the room, or more?"))
