"""The deductive verdict on the chemistry questions of the background paper (issue 4).

Uses only files of the repository (examples/chemistry: MRS extracts and labels), so it runs on
a fresh clone without ../shared and without ACE.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from verifier.api import Verifier
from verifier.config import load_config

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "chemistry"


@pytest.fixture(scope="module")
def verifier() -> Verifier:
    return Verifier(load_config(EXAMPLE / "verifier.toml"))


# (question, correct query, [(category, hallucinated query, words the diagnosis must contain)])
BACKGROUND = [
    ("What is the mass of benzene?", "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v . }", [
        ("wrong property", "SELECT ?v WHERE { wd:Q2270 wdt:P2102 ?v }", ["P2102", "boiling point"]),
        ("wrong entity", "SELECT ?v WHERE { wd:Q153 wdt:P2067 ?v }", ["Q153", "ethanol"]),
        ("swapped direction", "SELECT ?v WHERE { ?v wdt:P2067 wd:Q2270 }", ["wdt:P2067(", "wd:Q2270)"]),
    ]),
    ("Give me the benzene's toxicity.", "SELECT ?t WHERE { wd:Q2270 wdt:P2240 ?t }", [
        ("wrong property", "SELECT ?t WHERE { wd:Q2270 wdt:P2067 ?t }", ["P2067", "mass"]),
        ("wrong entity", "SELECT ?t WHERE { wd:Q283 wdt:P2240 ?t }", ["Q283", "water"]),
        ("swapped direction", "SELECT ?t WHERE { ?t wdt:P2240 wd:Q2270 }", ["wdt:P2240(", "wd:Q2270)"]),
    ]),
    ("What chemical compounds have less than 0.07 g/kg of solubility?",
     "SELECT ?c WHERE { ?c wdt:P31 wd:Q11173 ; wdt:P2177 ?s . FILTER(?s < 0.07) }", [
         ("wrong property", "SELECT ?c WHERE { ?c wdt:P31 wd:Q11173 ; wdt:P2054 ?s . FILTER(?s < 0.07) }", ["P2054"]),
         ("wrong entity", "SELECT ?c WHERE { ?c wdt:P31 wd:Q11344 ; wdt:P2177 ?s . FILTER(?s < 0.07) }", ["Q11344"]),
         ("swapped direction", "SELECT ?c WHERE { ?c wdt:P31 wd:Q11173 . ?s wdt:P2177 ?c . FILTER(?s < 0.07) }", ["P2177"]),
         ("wrong operator", "SELECT ?c WHERE { ?c wdt:P31 wd:Q11173 ; wdt:P2177 ?s . FILTER(?s > 0.07) }", ["> 0.07"]),
     ]),
    ("What is the electric dipole moment of the allyl alcohol?",
     'SELECT ?m WHERE { ?c rdfs:label "allyl alcohol"@en ; wdt:P2201 ?m }', [
         ("wrong property", 'SELECT ?m WHERE { ?c rdfs:label "allyl alcohol"@en ; wdt:P2067 ?m }', ["P2067", "mass"]),
         ("wrong entity", 'SELECT ?m WHERE { ?c rdfs:label "allyl amine"@en ; wdt:P2201 ?m }', ["allyl amine"]),
         ("swapped direction", 'SELECT ?m WHERE { ?c rdfs:label "allyl alcohol"@en . ?m wdt:P2201 ?c }', ["P2201"]),
     ]),
    ("What is the mass of the compound with InChIKey UHOVQNZJYSORNB-UHFFFAOYSA-N?",
     'SELECT ?m WHERE { ?c wdt:P235 "UHOVQNZJYSORNB-UHFFFAOYSA-N" ; wdt:P2067 ?m }', [
         ("wrong property", 'SELECT ?m WHERE { ?c wdt:P235 "UHOVQNZJYSORNB-UHFFFAOYSA-N" ; wdt:P2102 ?m }', ["P2102"]),
         ("wrong entity", 'SELECT ?m WHERE { ?c wdt:P235 "LFQSCWFLJHTTHZ-UHFFFAOYSA-N" ; wdt:P2067 ?m }', ["LFQSCWFLJHTTHZ"]),
         ("swapped direction", 'SELECT ?m WHERE { ?c wdt:P235 "UHOVQNZJYSORNB-UHFFFAOYSA-N" . ?m wdt:P2067 ?c }', ["P2067"]),
     ]),
]


@pytest.mark.parametrize("question,sparql", [(q, s) for q, s, _ in BACKGROUND], ids=[q for q, _, _ in BACKGROUND])
def test_correct_query_is_faithful(verifier, question, sparql):
    v = verifier.verify(question, sparql)
    assert v.verdict == "faithful", v.explanation
    assert v.decision == "accept"
    d = v.to_dict()["deductive"]
    assert d["links"] and d["proof"]["status"] == "proved" and d["proof"]["premises_used"]


@pytest.mark.parametrize("question,category,sparql,words",
                         [(q, c, s, w) for q, _, bad in BACKGROUND for c, s, w in bad],
                         ids=[f"{q[:30]}-{c}" for q, _, bad in BACKGROUND for c, _, _ in bad])
def test_hallucination_is_rejected_with_diagnosis(verifier, question, category, sparql, words):
    v = verifier.verify(question, sparql)
    assert v.decision == "reject", (category, v.explanation)
    assert v.verdict in ("unsupported", "weaker", "intent_mismatch")
    for w in words:
        assert w in v.explanation, (category, w, v.explanation)


def test_wrong_property_explanation_names_both_symbols(verifier):
    v = verifier.verify("What is the mass of benzene?", "SELECT ?v WHERE { wd:Q2270 wdt:P2102 ?v }")
    assert "P2102 (boiling point) is not supported" in v.explanation


def test_intent_mismatches(verifier):
    ask = verifier.verify("Is the density of gold greater than 19?", "SELECT ?d WHERE { wd:Q897 wdt:P2054 ?d }")
    assert ask.verdict == "intent_mismatch" and "yes or no" in ask.explanation
    count = verifier.verify("How many chemical compounds contain chlorine?",
                            "SELECT ?c WHERE { ?c wdt:P31 wd:Q11173 ; wdt:P527 wd:Q688 }")
    assert count.verdict == "intent_mismatch" and "how many" in count.explanation
    sup = verifier.verify("Which compound has the lowest boiling point?",
                          "SELECT ?c WHERE { ?c wdt:P31 wd:Q11173 ; wdt:P2102 ?b }")
    assert sup.verdict == "intent_mismatch"
    ok = verifier.verify("Which compound has the lowest boiling point?",
                         "SELECT ?c WHERE { ?c wdt:P31 wd:Q11173 ; wdt:P2102 ?b } ORDER BY ASC(?b) LIMIT 1")
    assert ok.verdict == "faithful", ok.explanation


def test_surface_force_of_questions_that_start_otherwise():
    from verifier.intent import _surface_force

    assert _surface_force("Which compound has the lowest boiling point?") == "select"
    assert _surface_force("Is the density of gold greater than 19?") == "ask"
    # a request asks for values
    assert _surface_force("I need to know the mass of benzene.") == "select"
    assert _surface_force("Please tell me the mass of benzene.") == "select"
    assert _surface_force("Can you tell me Unicode's IBM graphic character set global ID?") == "select"
    assert _surface_force("Can benzene dissolve in water?") == "ask"
    assert _surface_force("Whats the spore print color of Enikitake?") == "select"
    assert _surface_force("Get the country and the number of deaths of the pandemic.") == "select"
    assert _surface_force("Provide the mass of benzene.") == "select"
    assert _surface_force("Let me know the mass of benzene.") == "select"
    # a wh-word right after a fronted phrase, and a value to fill in after the copula
    assert _surface_force("On February 8, 1974, what position did Harold Wilson hold?") == "select"
    assert _surface_force("The ISOCAT id of morpheme is?") == "select"
    # otherwise the reading decides
    assert _surface_force("Benzene has a boiling point of 80?") is None
    assert _surface_force("Robert Hooke attended which university?") is None
    assert _surface_force("Is X the one who won?") == "ask"


def test_possessive_pronoun_binds_to_the_one_named_subject():
    """"Lindsey Vonn ended her marriage with Thomas Vonn": "her" is the verb's named subject;
    with two verbs whose named subjects differ, or a pronoun that is no possessive, nothing."""
    from verifier.grounding import Grounding, Link, SymbolUse, Unit
    from verifier.grounding.links import bound_possessives
    from verifier.logic import Atom, Literal, Var

    x, y, z, e, e2, p = (Var(n) for n in ("x", "y", "z", "e", "e2", "p"))

    def unit(atom, kind, text):
        return Unit(atom, kind, text, None, (), (), text, atom.args[0] if atom.args else None)

    vonn, thomas = unit(Atom("named", (x, Literal("Vonn"))), "named", "Vonn"), \
        unit(Atom("named", (y, Literal("Thomas"))), "named", "Thomas")
    her = unit(Atom("pron", (p,)), "pronoun", "her")
    she = unit(Atom("pron", (p,)), "pronoun", "she")
    end = unit(Atom("_end_v_cause", (e, x, z)), "verb", "end")
    g = Grounding(links=[Link(vonn, SymbolUse("wd:Q10068", "Q10068", "item"), "Vonn", "noun", 1, 1, ""),
                         Link(thomas, SymbolUse("wd:Q354865", "Q354865", "item"), "Thomas", "noun", 1, 1, "")])
    units = [vonn, thomas, her, she, end]
    bound = bound_possessives([her, she], units, g)
    assert {k: v.symbol.id for k, v in bound.items()} == {id(her): "Q10068"}
    meet = unit(Atom("_meet_v_1", (e2, y, x)), "verb", "meet")
    assert bound_possessives([her], units + [meet], g) == {}


def test_near_spelling_does_not_replace_an_exact_name(verifier):
    v = verifier.verify("What is the boiling point of ethanol?", "SELECT ?b WHERE { wd:Q14982 wdt:P2102 ?b }")
    assert v.decision == "reject" and "Q14982" in v.explanation


def test_bad_input_gives_clear_verdicts(verifier):
    assert verifier.verify("", "SELECT ?x WHERE { ?x ?p ?o }").decision == "abstain"
    bad = verifier.verify("What is the density of water?", "SELECT ?d WHERE { wd:Q283 wdt:P2054 ?d")
    assert bad.decision == "reject" and bad.error and "line 1" in bad.error
    unknown = verifier.verify("Switch on the lights in the lab!", "SELECT ?x WHERE { ?x wdt:P31 wd:Q11173 }")
    assert unknown.decision == "abstain" and "no parser" in unknown.explanation
    construct = verifier.verify("What is the mass of benzene?", "CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }")
    assert construct.decision == "abstain" and "CONSTRUCT" in construct.explanation


def test_verdict_json_is_serialisable(verifier):
    import json

    v = verifier.verify("What is the mass of benzene?", "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v }")
    d = json.loads(json.dumps(v.to_dict()))
    assert d["decision"] == "accept" and d["deductive"]["reading"] >= 0
    assert any(l["symbol"] == "wdt:P2067" for l in d["deductive"]["links"])


def test_repeated_noun_predicates_get_numbered_copies():
    """"In which year ... the Grammy Award for Album of the Year": the year inside the name
    and the year asked for are different instances, so a link axiom of one occurrence must
    not apply to the other; prepositions and verbs keep their names."""
    from types import SimpleNamespace

    from verifier.deductive import distinguish_repeated as _distinguish_repeated
    from verifier.logic import atoms
    from verifier.notation import parse_formula

    f = parse_formula('exists e1 e2 x5 x9 x37. _year_n_1(x5) & _in_p_temp(e1, x9, x5) & '
                      '_in_p_temp(e2, x37, x9) & named(x9, "Award") & _year_n_1(x37)')
    r = _distinguish_repeated(SimpleNamespace(formula=f, intent=None, answer_vars=()))
    preds = sorted(str(a) for a in atoms(r.formula))
    assert "_year_n_1(x5)" in preds and "_year_n_1~2(x37)" in preds
    assert sum(p.startswith("_in_p_temp(") for p in preds) == 2
    same = SimpleNamespace(formula=parse_formula("exists x. _year_n_1(x) & _year_n_1(x)"), intent=None)
    assert _distinguish_repeated(same) is same


def test_statement_patterns_are_read_as_direct_claims():
    """``p:P/ps:P`` is the direct claim ``wdt:P`` with the ``pq:`` qualifiers taken out; a
    statement whose ``p:`` and ``ps:`` properties differ claims both (so a hallucinated one
    must be supported too)."""
    from parsers.sparql import parse_query
    from verifier.qualifiers import normalize_statements

    head = ("PREFIX p: <http://www.wikidata.org/prop/> "
            "PREFIX ps: <http://www.wikidata.org/prop/statement/> "
            "PREFIX pq: <http://www.wikidata.org/prop/qualifier/> "
            "PREFIX wd: <http://www.wikidata.org/entity/> ")
    f, quals = normalize_statements(parse_query(
        head + "SELECT ?v WHERE { wd:Q1 p:P166 ?s . ?s ps:P166 wd:Q2 . ?s pq:P585 ?v }").pattern)
    assert str(f) == "wdt:P166(wd:Q1, wd:Q2)"
    assert [(q.prop, q.statement) for q in quals] == [("P585", "P166")]
    f, quals = normalize_statements(parse_query(
        head + "SELECT ?v WHERE { wd:Q1 p:P1411 ?s . ?s ps:P166 wd:Q2 . ?s pq:P585 ?v }").pattern)
    assert sorted(str(a) for a in f.args) == ["wdt:P1411(wd:Q1, wd:Q2)", "wdt:P166(wd:Q1, wd:Q2)"]


@pytest.mark.parametrize("question,limit,cut", [
    ("Which actors were born in Germany?", 100, True),
    ("What are the rural communes of Morocco?", 500, True),
    ("Give me all cosmonauts.", 10, True),
    ("What is the capital of France?", 1, False),          # one answer
    ("What was Pasha Angelina awarded?", 5, False),        # "was" is not a plural noun
    ("Name a movie directed by Francis Ford Coppola", 1, False),  # asks for one
    ("Give me some films by Ridley Scott.", 10, False),    # asks for some
    ("Who are the 100 oldest living tennis players?", 100, False),  # states the number
    ("what are the four nations of the uk?", 4, False),     # ... as a word
    ("what are the four nations of the uk?", 3, True),
    ("Which actors were born in Germany?", 4, True),
])
def test_a_limit_without_order_cuts_off_what_the_question_asks_for(question, limit, cut):
    from verifier.intent import _truncates_all

    assert bool(_truncates_all(question, limit)) is cut


LABEL_TEST = ("PREFIX wdt: <http://www.wikidata.org/prop/direct/> "
              "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> SELECT ?x WHERE { ?x wdt:P17 ?c . "
              "?x rdfs:label ?l . FILTER(LANG(?l) = 'en') FILTER(CONTAINS(LCASE(?l), 'roller coaster')) }")
VALUE_TEST = ("PREFIX wdt: <http://www.wikidata.org/prop/direct/> PREFIX wd: <http://www.wikidata.org/entity/> "
              "SELECT ?x WHERE { wd:Q1 wdt:P1082 ?v . FILTER(CONTAINS(?v, '30257.0')) }")


@pytest.mark.parametrize("question,sparql,left", [
    # a label test leaves G when the question says how the name is written ...
    ("Which roller coasters contain the word roller coaster in their name?", LABEL_TEST, 0),
    ("Give me things named roller coaster.", LABEL_TEST, 0),
    # ... not when its literal is only a word of the question: that asks for a class
    ("Get a list of roller coasters and their respective countries.", LABEL_TEST, 3),
    # a literal the question does not write stays whatever the question says
    ("Which things contain the word coaster in their name?", LABEL_TEST, 3),
    # a value test (LC-QuAD's CONTAINS for "equals") needs no such word
    ("What is the country of Colorado whose human population is 30257.0?", VALUE_TEST, 0),
])
def test_string_tests_leave_the_query_when_the_question_writes_them(question, sparql, left):
    """``take_lexical_filters`` takes out string tests whose literal the question writes (with
    the label and language conditions that only serve them); a test of a label needs words that
    speak of the name ("contains the word", "named")."""
    from parsers.sparql import parse_query
    from verifier.filters import take_lexical_filters
    from verifier.logic import atoms, subformulas, Eq

    f, notes = take_lexical_filters(parse_query(sparql).pattern, question)
    tests = [g for g in subformulas(f) if isinstance(g, Eq)] + \
        [a for a in atoms(f) if a.pred in ("contains", "rdfs:label")]
    assert len(tests) == left
    assert bool(notes) == (left == 0)


@pytest.mark.parametrize("question,expected", [
    ("Does the mean lifetime of the neutron equal 1056.24?", [("=", "1056.24")]),
    ("Is X equal to 5?", [("=", "5")]),
    ("Is the population more than 1,000?", [(">", "1000")]),
    ("Is it at least 3?", [(">=", "3")]),
    ("What is the equality of X?", []),
    ("Is the nominal GDP of the United States of America equal to 2.32687248e+13?",
     [("=", "2.32687248e+13")]),
    ("Is it true that the employment by economic sector of Amsterdam is 12250?", [("=", "12250")]),
    ("Is X more than 5 and is 7?", [(">", "5"), ("=", "7")]),
])
def test_surface_comparisons(question, expected):
    from verifier.filters import surface_comparisons

    assert [(op, lit.lexical) for op, lit in surface_comparisons(question)] == expected


@pytest.mark.parametrize("question,expected", [
    ("Tell me stock exchange whose name has the word sedex in it.", "name has the word"),
    ("What is a state of Malaysia that starts with the letter t.", "starts with the letter"),
    ("WHICH IS THE CITY OF INDONESIA THAT STARTS WITH Y", "STARTS WITH Y"),
    ('What sport discipline starts with the letter "u"?', "starts with the letter"),
    ("Give me examples that contain the word sorting", "contain the word"),
    ("tell  me activity that contains the word ventriloquism in their  name in it", "contains the word"),
    ("Which river starts with a glacier and ends in the sea?", None),
    ("When did the war start with France?", None),
    ("What is the word for love in French?", None),
])
def test_surface_name_test(question, expected):
    from verifier.intent import surface_name_test

    assert surface_name_test(question) == expected


@pytest.mark.parametrize("value,text,found", [
    ("166", "equal to -166?", False), ("-166", "equal to -166?", True), ("16", "is 166", False),
    ("48", "the 1947-48 Cypriot Cup", True), ("1.15e+11", "GDP of 1.15e+11?", True),
    ("1000", "1,000 people", True), ("0.1", "is 0.1?", True), ("pentecost", "Pentecost", True),
])
def test_numbers_are_found_as_numbers(value, text, found):
    from verifier.grounding import number_in_text

    assert number_in_text(value, text) is found


@pytest.mark.parametrize("value,text,found", [
    ("-524-0-0", "receive in 524 BC?", True), ("524-0-0", "receive in 524 BC?", False),
    ("-524-0-0", "receive in 524?", False), ("895-0-0", "belong to in 895 AD?", True),
    ("487-1-1", "die in 487?", True), ("487-3-1", "die in 487?", False),
    ("907-0-0", "in the year 1907?", False), ("-100-1-1", "born on -100-1-1?", True),
    ("Gesù Cristo", "known as Gesu Cristo?", True), ("štúrovo", "the word sturovo", True),
    ("štúrovo", "the word stirovo", False), ("ü", "with the letter U", False),
])
def test_dates_of_a_year_and_unaccented_strings_are_found(value, text, found):
    from verifier.filters import value_in_text

    assert value_in_text(value, text) is found


def test_lexicon_words_keep_their_part_of_speech():
    """A lexicon entry with ``pos: v`` ("record" -> record label) names the property for the
    verb only, not for the noun "record"."""
    from verifier.axioms import load_pack
    from verifier.grounding import Grounder, SymbolUse
    from verifier.axioms.loader import default_pack_dirs

    g = Grounder(load_pack(default_pack_dirs()))
    sym = SymbolUse("wdt:P264", "P264", "property")
    assert "record" in {n.name for n in g.names_of(sym, "v")}
    assert "record" not in {n.name for n in g.names_of(sym, "n")}
    assert "record" in {n.name for n in g.names_of(sym)}


def test_matching_keys_ignore_accents():
    from verifier.lexical import content_keys

    assert content_keys("Malmö") == content_keys("Malmo") == ("malmo",)
    assert content_keys("Médicos históricos doctor ID") == content_keys("Medicos historicos doctor ID")
    assert content_keys("Malmö") != content_keys("Malme")


def test_predicate_lemmas_that_are_also_irregular_forms():
    from verifier.lexical import content_keys, lemma_keys

    assert lemma_keys("found") == content_keys("founded") == ("found",)  # to found, not find
    assert content_keys("found") == ("find",)  # a question's word "found" is still "find"
    assert lemma_keys("develop") == content_keys("developer")


@pytest.mark.parametrize("question,label,found", [
    ("Where did Mikhail Lomonosov finish his education?", "Mikhail Vassilyevich Lomonosov", "Mikhail Lomonosov"),
    ("Name the doctoral advisor of Carl Gustav Jung.", "Carl Jung", "Carl Gustav Jung"),
    ("Who is William H. Johnson?", "William Johnson", "William H. Johnson"),
    ("Who is Carl Jung?", "Carl Gustav Jung", "Carl Jung"),
    ("Who founded the United States Army?", "United States Marine Army", None),     # not a person's name
    # any capitalised label: "British Territory" is taken for "British Dependent Territory"
    ("What is the British Territory of Hong Kong?", "British Dependent Territory", "British Territory"),
    ("Who is Carl Gustav Adolf Emil Jung?", "Carl Jung", None),                    # three middle words
    ("Who taught Carl and Jung?", "Carl Jung", None),                              # "and" is not a middle name
    ("When did Gordon S. Clinton start?", "Gordon Stanley Clinton", "Gordon S. Clinton"),  # initials
    ("When did Gordon T. Clinton start?", "Gordon Stanley Clinton", None),
    ("What is LNB ID of Ray Kurzweil ?", "Raymond Kurzweil", "Ray Kurzweil"),        # first name short
    ("What is LNB ID of Ra Kurzweil ?", "Raymond Kurzweil", None),                   # too short
    ("What is LNB ID of Rayburn Kurzweil ?", "Raymond Kurzweil", None),              # not a prefix
    ("What did ray kurzweil write?", "Raymond Kurzweil", None),                      # not capitalised
])
def test_middle_name_match(question, label, found):
    from verifier.grounding.text import middle_name_match, tokens
    from verifier.lexical import words_of

    m = middle_name_match(tokens(question), words_of(label), label, question)
    assert (question[m[1]:m[2]] if m else None) == found



@pytest.mark.parametrize("question,symbol,found", [
    ("where do the steelers play?", "Q1", "steelers"),                # a team's nickname
    ("Who owns the Pittsburgh Steelers?", "Q1", "Pittsburgh Steelers"),  # the whole name: not this rule
    # Barack's and Michelle's: the best known of them (the smaller id) only, as shared
    ("where was obama born?", "Q2", "obama"),
    ("where was obama born?", "Q3", None),
    ("where do the raiders play?", "Q13", "raiders"),                 # not *Tomb Raider* (singular)
    ("where do the giants play?", "Q15", "giants"),                   # not *gas giant* (not a name)
    ("Who was the wife of President Lincoln?", "Q5", "Lincoln"),      # after a title
    ("Who was the wife of Mary Lincoln?", "Q5", None),                # after another given name
    ("Where is Lincoln Center?", "Q5", None),                         # inside a longer name
    ("who played anakin skywalker in phantom menace?", "Q6", None),   # too little of a long name
    ("when did the lakers win the championship?", "Q11", "lakers"),
    ("who was the emperor before nero?", "Q4", None),                 # a common noun of the label
    ("When did princess Diana die?", "Q7", None),                     # a title after a comma
    ("where did laura ingalls wilder live?", "Q9", None),             # inside another item's label
    ("who owns the steelers football team?", "Q1", "steelers"),
])
def test_a_name_written_by_its_last_words_when_no_other_item_ends_so_or_best_known(question, symbol, found):
    from types import SimpleNamespace

    from verifier.grounding.spans import SpanLinker
    from verifier.grounding.text import find_words, tokens
    from verifier.lexical import words_of
    from verifier.lexical import LabelIndex

    idx = LabelIndex()
    for q, label in [("Q1", "Pittsburgh Steelers"), ("Q2", "Barack Obama"), ("Q3", "Michelle Obama"),
                     ("Q4", "Roman emperor"), ("Q5", "Abraham Lincoln"),
                     ("Q6", "Star Wars: Episode I – The Phantom Menace"), ("Q7", "Diana, Princess of Wales"),
                     ("Q8", "Holy Roman Emperor"), ("Q9", "Dan Ingalls"), ("Q10", "Laura Ingalls Wilder"),
                     ("Q11", "Los Angeles Lakers"), ("Q12", "Tomb Raider"), ("Q13", "Las Vegas Raiders"),
                     ("Q14", "gas giant"), ("Q15", "New York Giants")]:
        idx.add(q, [label])
    toks = tokens(question)
    n = idx.names[symbol][0]
    words = words_of(n.name)
    m = find_words(toks, words) or SpanLinker.sole_bearer_tail(
        SimpleNamespace(labels=idx), SimpleNamespace(id=symbol), toks, words, n, question)
    assert (question[m[1]:m[2]] if m else None) == found
    if m and found != n.name:
        assert m[0] == (0.75 if symbol in ("Q2", "Q13", "Q15") else 0.8)


@pytest.mark.parametrize("question,symbol,found", [
    ("where was tupac born?", "Q6107", "tupac"),             # the only item whose name begins so
    ("where did galileo go to school?", "Q307", "galileo"),  # before the satellite system (larger id)
    ("what is the net income of apple?", "Q312", None),      # the fruit, *apple*, is better known
    ("what did ellen play?", "Q483325", None),               # *Ellen Burstyn* is better known
    ("what did ellen play?", "Q211144", "ellen"),
    ("Who were the Teutonic Knights?", "Q48189", None),      # next to a capitalised word the name lacks
])
def test_a_label_written_by_its_first_word_when_best_known(question, symbol, found):
    from types import SimpleNamespace

    from verifier.grounding.spans import SpanLinker
    from verifier.grounding.text import tokens
    from verifier.lexical import words_of
    from verifier.lexical import LabelIndex

    idx = LabelIndex()
    for q, label in [("Q6107", "Tupac Shakur"), ("Q307", "Galileo Galilei"), ("Q1141", "Galileo Satellites"),
                     ("Q89", "apple"), ("Q312", "Apple Inc."), ("Q211144", "Ellen Burstyn"),
                     ("Q483325", "Ellen DeGeneres"), ("Q48189", "Teutonic Order")]:
        idx.add(q, [label])
    n = idx.names[symbol][0]
    toks = tokens(question)
    m = SpanLinker.best_known_first_word(SimpleNamespace(labels=idx), SimpleNamespace(id=symbol), toks,
                                         words_of(n.name), n, question)
    assert (question[m[1]:m[2]] if m else None) == found


@pytest.mark.parametrize("question,label,found", [
    ("who plays meg in family guy?", "Meg Griffin", "meg"),                      # a first name
    ("who played giles on buffy the vampire slayer?", "Rupert Giles", "giles"),  # a last name
    ("who plays jo in family guy?", "Jo Griffin", None),                         # too short
    ("who played lee in the film?", "Lee Harvey Oswald", "lee"),
    ("who played harvey in the film?", "Lee Harvey Oswald", None),                # not first or last
    ("who played john in the film?", "John Fitzgerald Kennedy Jr", None),         # four words
    ("who plays diana in wonder woman?", "Diana, Princess of Themyscira", None),  # a title after a comma
    ("who plays the doctor?", "the Doctor", None),                                # not a capitalised name
])
def test_a_character_written_by_its_first_or_last_name(question, label, found):
    from verifier.grounding.text import character_part, tokens
    from verifier.lexical import words_of

    m = character_part(tokens(question), words_of(label), label)
    assert (question[m[1]:m[2]] if m else None) == found
    if m:
        assert m[0] == 0.8


@pytest.mark.parametrize("question,label,found", [
    ("Where was Alexandre Dumsa born?", "Alexandre Dumas", "Alexandre Dumsa"),     # a typo
    ("Does aluminium-36 have 10.4 neutrons?", "aluminium-26", None),               # another number
    ("Does aluminum-26 have 10.4 neutrons?", "aluminium-26", "aluminum-26"),        # same number
    ("Who flew on Apollo 11?", "Apollo 12", None),
    # a possessive "'s" is not part of the name: exact, and a typo stays a near spelling
    ("What is Barack Obama's height?", "Barack Obama", "Barack Obama"),
    ("What is Quecha's Wikimedia language code?", "Quechua", "Quecha"),
    ("Who founded McDonald's?", "McDonald's", "McDonald"),
    # a Roman numeral written as a number, and only as the same number
    ("Which university has a Grade 1 listed building?", "Grade I listed building", "Grade 1 listed building"),
    ("Which university has a Grade 2 listed building?", "Grade I listed building", None),
    ("Who was Edward I of England?", "Edward I of England", "Edward I of England"),
])
def test_name_found_in_question(question, label, found):
    from verifier.grounding.text import find_words, tokens
    from verifier.lexical import words_of

    m = find_words(tokens(question), words_of(label))
    assert (question[m[1]:m[2]] if m else None) == found
    if found and label.casefold().startswith(found.casefold()):
        assert m[0] == 1.0


@pytest.mark.parametrize("question,label,found", [
    ("What series of films was produced by Mike Myers", "film series", "series of films"),
    ("What is the coordinate location of the mouth of the Orange River?", "river mouth", None),
    ("Where is the mouth of the river?", "river mouth", "mouth of the river"),
    ("What gene is associated with cirrhosis of the liver?", "liver cirrhosis", "cirrhosis of the liver"),
    ("What is the vaccine for influenza?", "influenza vaccine", "vaccine for influenza"),
    ("What films of the series are there?", "film series", None),       # head first only
    ("Who wrote the history of Germany?", "history of Germany", None),  # two words only
])
def test_two_word_name_written_with_of(question, label, found):
    from verifier.grounding.text import of_inversion, tokens
    from verifier.lexical import words_of

    m = of_inversion(tokens(question), words_of(label))
    assert (question[m[1]:m[2]] if m else None) == found


@pytest.mark.parametrize("a,b,k,within", [
    ("subsidari", "subsidiari", 1, True), ("bomin", "nomin", 1, True), ("counti", "countri", 1, True),
    ("elcinaema", "elcinema", 1, True), ("sonwrit", "songwrit", 1, True), ("abcdef", "abcxyz", 2, False),
    ("songwriterx", "sonwritr", 2, False), ("metallurgi", "metalurgy", 2, True),
])
def test_within_edits(a, b, k, within):
    from verifier.lexical import within_edits

    assert within_edits(a, b, k) is within


def test_an_unknown_word_one_edit_from_a_name_word_is_read_as_that_word():
    """A word that neither the grammar nor WordNet knows ("subsidary") names the property whose
    name it misspells; a word WordNet knows ("county") is no typo of "country", and without
    WordNet nothing is read as misspelt."""
    from verifier.axioms import load_pack
    from verifier.axioms.loader import default_pack_dirs
    from verifier.grounding import Grounder, SymbolUse, Unit
    from verifier.lexical import LabelIndex, WordNetRelations, content_keys
    from verifier.logic import Atom, Var

    labels = LabelIndex()
    labels.add("P355", ["child organization or unit", "subsidiary"], kind="property")
    labels.add("P17", ["country"], kind="property")
    syms = [SymbolUse("wdt:P355", "P355", "property"), SymbolUse("wdt:P17", "P17", "property")]

    def noun(word: str, pred: str) -> Unit:
        x = Var("x3")
        return Unit(Atom(pred, (x,)), "noun", word, "n", content_keys(word), content_keys(word), word, x)

    typo = noun("subsidary", "_subsidary/nn_u_unknown")
    county = noun("county", "_county/nn_u_unknown")
    known = noun("subsidary", "_subsidary_n_1")  # the grammar knows it: not a typo
    x = Var("x4")  # the head of "the subsidary company": its phrase has the typo
    head = Unit(Atom("_company_n_1", (x,)), "noun", "company", "n", ("compani",),
                content_keys("subsidary company"), "subsidary company", x)
    wn = WordNetRelations({"county": {"n": ["counti", "district"]}})
    g = Grounder(load_pack(default_pack_dirs()), labels, wn)
    assert g.misspellings([typo, county, head], syms).by_unit == {id(typo): {"subsidiari"}, id(head): {"subsidiari"}}
    assert g.misspellings([known, county], syms).by_unit == {}
    assert Grounder(load_pack(default_pack_dirs()), labels, None).misspellings([typo], syms).by_unit == {}


def test_explanation_names_other_items_with_the_same_label():
    """The proof cannot tell homonyms apart; the explanation lists the older described items
    that bear the name the question writes, so that a reader can."""
    from verifier.api import Verifier
    from verifier.lexical import LabelIndex

    labels = LabelIndex()
    labels.add("P1082", ["population"], kind="property")
    labels.add("Q1001817", ["Buenos Aires"], kind="item",
               description="district in Buenos Aires canton, Costa Rica")
    labels.add("Q1486", ["Buenos Aires"], kind="item",
               description="capital and largest city of Argentina")
    labels.add("Q999", ["Buenos Aires"], kind="item")  # no description: not worth listing
    labels.add("Q44754", ["Buenos Aires Province"], kind="item", description="province")
    v = Verifier(labels=labels).verify("What is the population of Buenos Aires?",
                                       "SELECT ?p WHERE { wd:Q1001817 wdt:P1082 ?p }")
    assert v.decision == "accept", v.explanation
    notes = [l for l in v.explanation.splitlines() if "also a name of" in l]
    assert notes == ["'Buenos Aires' is also a name of wd:Q1486 (Buenos Aires: capital and "
                     "largest city of Argentina)"], v.explanation
    # the capital itself: the district is younger (a higher number), not worth a note
    v = Verifier(labels=labels).verify("What is the population of Buenos Aires?",
                                       "SELECT ?p WHERE { wd:Q1486 wdt:P1082 ?p }")
    assert v.decision == "accept" and "also a name of" not in v.explanation, v.explanation


def test_an_alias_that_negates_the_label_is_left_out():
    """"not the same as" is an alias of *different from*; without its "not" (a stop word) it
    would let "the same as" name *different from*."""
    from verifier.lexical import LabelIndex

    idx = LabelIndex()
    idx.add("P1889", ["different from", "not the same as", "is not", "distinct from"], kind="property")
    idx.add("P460", ["said to be the same as", "the same as"], kind="property")
    idx.add("Q1", ["non-fiction"], kind="item")
    assert [e.name for e in idx.names["P1889"]] == ["different from", "distinct from"]
    assert {e.symbol for e in idx.candidates(["same"])} == {"P460"}
    assert [e.name for e in idx.names["Q1"]] == ["non-fiction"]  # the label itself may negate


def test_holiday_name_is_a_named_unit():
    """The ERG writes "Christmas", "Easter" as ``holiday`` with the name as CARG (like
    ``named``): the grounding links it as a name."""
    from parsers.mrs import translate_readings
    from verifier.grounding import question_units

    q = "What celebrates Christmas?"
    mrs = ('[ TOP: h0 INDEX: e2 [ e SF: ques ] RELS: < [ thing<0:4> LBL: h4 ARG0: x3 ] '
           '[ which_q<0:4> LBL: h5 ARG0: x3 RSTR: h6 BODY: h7 ] '
           '[ _celebrate_v_1<5:15> LBL: h8 ARG0: e2 ARG1: x3 ARG2: x9 ] '
           '[ holiday<16:25> LBL: h10 ARG0: x9 CARG: "Christmas" ] '
           '[ proper_q<16:25> LBL: h11 ARG0: x9 RSTR: h12 BODY: h13 ] > '
           'HCONS: < h0 qeq h8 h6 qeq h4 h12 qeq h10 > ]')
    [t] = [r for r in translate_readings([mrs]) if r.ok]
    named = [u for u in question_units(t, q) if u.kind == "named"]
    assert [(u.lemma, u.text) for u in named] == [("christmas", "Christmas")]


def test_wh_subject_of_a_finite_verb():
    """The wh-phrase is the subject of a finite verb followed by its object: the case in
    which a qualifier named by the verb reads *replaced by*."""
    from verifier.qualifiers import _wh_subject_of

    assert _wh_subject_of("replaced").match("Who replaced Viktor Orbán as Prime Minister?")
    assert _wh_subject_of("succeeded").match("Which king succeeded Louis XIV?")
    assert not _wh_subject_of("replace").match("Who did Viktor Orbán replace as Prime Minister?")
    assert not _wh_subject_of("replaced").match("Who was replaced by Viktor Orbán?")
    assert not _wh_subject_of("degree").match("What degree did Tom Hiddleston receive?")


def test_a_name_is_found_where_its_own_noun_phrase_is():
    from verifier.grounding.text import tightest_occurrence, tokens

    q = "Is Morgan Freeman's family name Freeman?"
    first, last = q.index("Freeman"), q.rindex("Freeman")
    spans = {"x3": (3, 17), "x9": (last, last + 7)}
    toks = tokens(q)
    assert tightest_occurrence(toks, q, first, first + 7, spans, {"x3", "x9"}) == (last, last + 7)
    # one occurrence, or no phrase of its own: the first place stays
    assert tightest_occurrence(toks, q, 3, 17, spans, {"x3", "x9"}) == (3, 17)
    assert tightest_occurrence(toks, q, first, first + 7, {"x3": (3, 17)}, {"x3"}) == (first, first + 7)


@pytest.mark.parametrize("name,letters", [
    ("immediately dangerous to life or health", "IDLH"), ("United States of America", "USA"),
    ("Massachusetts Institute of Technology", "MIT"), ("Los Angeles", "LA"), ("Paris", ""),
])
def test_initials_of_a_name(name, letters):
    from verifier.lexical import initials

    assert initials(name) == letters


def test_acronym_bearers():
    from verifier.lexical import LabelIndex

    idx = LabelIndex()
    for q, names in [("Q30", ["United States of America", "United States"]), ("Q9212", ["United States Army"]),
                     ("Q33486", ["USA"]), ("Q155223", ["National Basketball Association"])]:
        idx.add(q, names)
    assert idx.acronym_bearers("USA") == {"Q30", "Q9212"}
    assert idx.acronym_bearers("NBA") == {"Q155223"} and idx.acronym_bearers("XYZ") == set()


def test_an_acronym_is_matched_only_in_capitals():
    """... or in lower case in a question that writes no capitals at all (three letters or
    more, not a stop word: "who" is no *World Health Organization*)."""
    from verifier.grounding.text import acronym_match, tokens

    q = "Was Dick Van Dyke a citizen of the USA?"
    m = acronym_match(tokens(q), q, "United States of America")
    assert m and q[m[1]:m[2]] == "USA"
    q2 = "Did the usa team win?"
    assert acronym_match(tokens(q2), q2, "United States of America") is None
    q3 = "who does kris humphries play for in the nba?"
    m = acronym_match(tokens(q3), q3, "National Basketball Association")
    assert m and q3[m[1]:m[2]] == "nba"
    assert acronym_match(tokens(q3), q3, "World Health Organization") is None
    q4 = "what is the la times?"
    assert acronym_match(tokens(q4), q4, "Los Angeles") is None  # two letters


def test_having_count_answers_a_comparison_of_a_count():
    """"Which countries have more than two official languages?" is answered by GROUP BY ...
    HAVING (COUNT(?language) > 2) (or >= 3, or a comparison of the projected count); another
    operator or value is an intent mismatch that says so."""
    from types import SimpleNamespace

    from parsers.mrs.question import Intent
    from parsers.sparql import parse_query
    from verifier.intent import intent_check
    from verifier.logic import Literal

    q = "Which countries have more than two official languages?"
    reading = SimpleNamespace(intent=Intent("comparative", "select", op=">", value=Literal("2", "xsd:integer")),
                              sentence_force="ques")
    where = "WHERE { ?c wdt:P31 wd:Q6256 . ?c wdt:P37 ?l } GROUP BY ?c"
    for having in ("HAVING (COUNT(?l) > 2)", "HAVING (COUNT(?l) >= 3)", "HAVING (?n > 2)", "HAVING (2 < COUNT(?l))",
                   "HAVING (COUNT(DISTINCT ?l) > 2)"):
        assert intent_check(reading, parse_query(f"SELECT ?c (COUNT(?l) AS ?n) {where} {having}"), q) == (True, ""), having
    ok, why = intent_check(reading, parse_query(f"SELECT ?c (COUNT(?l) AS ?n) {where} HAVING (COUNT(?l) > 3)"), q)
    assert not ok and "HAVING compares a count" in why
    ok, why = intent_check(reading, parse_query(f"SELECT ?c (COUNT(?l) AS ?n) {where}"), q)
    assert not ok and why == "the question compares with a value but the query has no comparison"


def test_a_count_per_group_answers_how_many_of_each():
    """"How many items of each type ...?" is answered by a COUNT per group (GROUP BY ?type,
    with the group in the projection); without a COUNT it is not."""
    from types import SimpleNamespace

    from parsers.mrs.question import Intent
    from parsers.sparql import parse_query
    from verifier.intent import intent_check

    q = "What are the types of items with a NARA ID, with how many items of each type exist?"
    reading = SimpleNamespace(intent=Intent("count", "select"), sentence_force="ques")
    where = "WHERE { ?i wdt:P1225 ?id . ?i wdt:P31 ?t } GROUP BY ?t"
    assert intent_check(reading, parse_query(f"SELECT ?t (COUNT(?i) AS ?n) {where}"), q) == (True, "")
    ok, why = intent_check(reading, parse_query(f"SELECT ?t (SAMPLE(?i) AS ?n) {where}"), q)
    assert not ok and why == "the question asks how many but the query does not COUNT"


def test_names_of_properties_whose_value_counts_things():
    """A value of *population* (also *female / male population*), *member count*, *employees*
    or a "number of ..." property answers "how many" as a COUNT does; other quantities do
    not."""
    from verifier.intent import NUMBER_OF

    for name in ("number of children", "total number of episodes", "population", "member count",
                 "employees", "students count", "female population", "male population"):
        assert NUMBER_OF.match(name), name
    for name in ("area", "mass", "elevation above sea level", "count of", "population density",
                 "population growth rate", "tabular population"):
        assert not NUMBER_OF.match(name), name


def test_kind_of_view_keeps_the_kind_and_reads_the_copula_as_of():
    """"What kind of music did Lou Reed play?": the kind is the music, marked ``kind_of``; a
    pattern reading's compound "kind music" too; "What type of government is the Philippines?":
    the government of the Philippines, not the Philippines itself."""
    from types import SimpleNamespace

    from verifier.deductive import KIND_OF, kind_of_view as _kind_of_view
    from verifier.logic import Eq, Var, atoms, subformulas
    from verifier.notation import parse_formula

    def view(text, answer):
        return _kind_of_view(SimpleNamespace(formula=parse_formula(text), intent=None, answer_vars=(Var(answer),)))

    v = view('exists e2 x3 x9. _kind_n_of-n(x5, x9) & _music_n_1(x9) & named(x3, "Lou Reed") '
             '& _play_v_1(e2, x3, x5)', "x5")
    assert {a.pred: a.args for a in atoms(v.formula)}[KIND_OF] == (Var("x9"),)
    assert Eq(Var("x5"), Var("x9")) in set(subformulas(v.formula))
    v = view('exists e2 x8 e13 x14. _music/nn_u_unknown(x3) & _kind/nn_u_unknown(x8) & compound(e13, x3, x8) '
             '& named(x14, "john mayer") & _play/vb_u_unknown(e2, x14, x3)', "x3")
    preds = {a.pred: a.args for a in atoms(v.formula)}
    assert preds[KIND_OF] == (Var("x3"),) and "compound" not in preds and "_kind/nn_u_unknown" not in preds
    v = view('exists e2 x8 i13 x14. _type_n_of-n(x3, x8) & _government_n_of(x8, i13) & _be_v_id(e2, x3, x14) '
             '& named(x14, "the_Philippines")', "x3")
    preds = {a.pred: a.args for a in atoms(v.formula)}
    assert "_be_v_id" not in preds and preds["_of_p"] == (Var("e2"), Var("x3"), Var("x14"))
    # no kind noun, or the kind of a name ("the type of the Eiffel Tower"): no view
    assert view('exists e2 x3. _music_n_1(x5) & named(x3, "X") & _play_v_1(e2, x3, x5)', "x5") is None
    assert view('exists e2 x3. _type_n_of-n(x5, x3) & named(x3, "Eiffel Tower")', "x5") is None


def test_unknown_word_verbs_take_the_arity_the_axioms_give_the_verb():
    """A pattern reading's ``_go/vb_u_unknown(e, x, i)`` is the grammar's ``_go_v_1(e, x)``
    (the axioms use "go" without an object); a two-place ``_come/vb_u_unknown(e, x)`` is
    ``_come_v_1(e, x)`` (a background axiom names it); a three-place verb keeps its object."""
    from types import SimpleNamespace

    from verifier.axioms import default_pack_dirs, load_pack
    from verifier.deductive import known_verbs as _known_verbs
    from verifier.logic import atoms
    from verifier.notation import parse_formula

    pack = load_pack(default_pack_dirs())
    assert pack.template_verb_arities["_go_v_1"] == frozenset({2})
    assert "come" in pack.template_verbs
    f = parse_formula('exists e2 x8 i14 e15 e3 x9 e4 x10 x11. _go/vb_u_unknown(e2, x8, i14) & _to_p(e15, e2, x3) '
                      '& _come/vb_u_unknown(e3, x9) & _use/vb_u_unknown(e4, x10, x11)')
    got = {a.pred: a.args for a in atoms(_known_verbs(SimpleNamespace(formula=f, intent=None, answer_vars=()), pack).formula)}
    assert len(got["_go_v_1"]) == 2 and len(got["_come_v_1"]) == 2 and len(got["_use_v_1"]) == 3


def test_attachment_view_moves_phrases_onto_the_noun_phrase():
    """A phrase on a request verb ("Give me all cities *in New Jersey*") modifies the thing
    requested; a phrase on a name that is itself the object of a phrase on a noun ("cities
    in [New Jersey] *with more than ...*") modifies that noun; "by" (a passive's doer) and
    phrases on common nouns stay where they are."""
    from types import SimpleNamespace

    from verifier.deductive import attachment_view as _attachment_view
    from verifier.logic import Var, atoms
    from verifier.notation import parse_formula

    f = parse_formula('exists e2 x3 x9 e18 x19 e25 x26. pron(x3) & _give_v_1(e2, x3, x8, x9) & pron(x9) '
                      '& _city_n_1(x8) & _in_p_state(e18, e2, x19) & named(x19, "New Jersey") '
                      '& _with_p(e25, x19, x26) & _inhabitant_n_of(x26, i5) & _by_p(e30, e2, x19)')
    view = _attachment_view(SimpleNamespace(formula=f, intent=None, answer_vars=(Var("x8"),)))
    moved = {a.pred: a.args[1] for a in atoms(view.formula) if a.pred in ("_in_p_state", "_with_p", "_by_p")}
    assert moved == {"_in_p_state": Var("x8"), "_with_p": Var("x8"), "_by_p": Var("e2")}
    assert "modifier of the noun phrase" in view.note
    plain = parse_formula('exists e1 x2. _city_n_1(x1) & _in_p_loc(e1, x1, x2) & named(x2, "Ohio")')
    assert _attachment_view(SimpleNamespace(formula=plain, intent=None, answer_vars=(Var("x1"),))) is None


def test_an_exclusive_link_supersedes_the_words_other_links_to_what_its_axiom_names():
    """"win" linked through `verb_won_season` (exclusive) names *winner* in its axiom: the same
    word's link to *winner* through another template is dropped; another word's is kept."""
    from types import SimpleNamespace

    from verifier.grounding import Axiom, Link, SymbolUse, Unit
    from verifier.grounding.links import without_superseded
    from verifier.logic import Atom, Var

    e, x, y, s = Var("e"), Var("x"), Var("y"), Var("s")
    win = Unit(Atom("_win_v_1", (e, x, y)), "verb", "win", "v", ("win",), ("win",), "win", e)
    other = Unit(Atom("_winner_n_1", (x,)), "noun", "winner", "n", ("winner",), ("winner",), "winner", x)
    season_axiom = Axiom("verb_won_season", Atom("wdt:P1346", (s, x)), "verb_won_season", "lexicon")
    exclusive = SimpleNamespace(exclusive=True)
    season = Link(win, SymbolUse("wdt:P3450", "P3450", "property"), "win", "lexicon", 1.0, 1.0, "", exclusive,
                  (season_axiom,))
    agent = Link(win, SymbolUse("wdt:P1346", "P1346", "property"), "win", "verb", 1.0, 1.0, "", None, ())
    noun = Link(other, SymbolUse("wdt:P1346", "P1346", "property"), "winner", "noun", 1.0, 1.0, "", None, ())
    assert without_superseded([season, agent, noun]) == [season, noun]
    assert without_superseded([agent, noun]) == [agent, noun]


def test_a_name_word_no_label_has_one_edit_from_a_query_items_name_is_read_as_it():
    """"Toranto" is in no label and WordNet does not list it: it stands for the query item
    *Toronto*; "Hanson", a word of another item's label, is no typo of *Hansen*; a name word
    is only compared with the names of the query's items."""
    from verifier.axioms import load_pack
    from verifier.axioms.loader import default_pack_dirs
    from verifier.grounding import Grounder, SymbolUse, Unit
    from verifier.lexical import LabelIndex, WordNetRelations, content_keys
    from verifier.logic import Atom, Literal, Var

    labels = LabelIndex()
    labels.add("Q172", ["Toronto"], kind="item")
    labels.add("Q724095", ["James Edward Hansen"], kind="item")
    labels.add("Q5", ["Hanson"], kind="item")
    syms = [SymbolUse("wd:Q172", "Q172", "item"), SymbolUse("wd:Q724095", "Q724095", "item")]

    def named(name: str, var: str) -> Unit:
        x = Var(var)
        return Unit(Atom("named", (x, Literal(name))), "named", name.casefold(), "n",
                    content_keys(name), content_keys(name), name, x)

    typo, other = named("Toranto", "x3"), named("Hanson", "x4")
    g = Grounder(load_pack(default_pack_dirs()), labels, WordNetRelations({}))
    found = g.misspellings([typo, other], syms)
    assert found.by_unit == {id(typo): {"toronto"}}
    assert found.fixes == {"toranto": {"toronto"}}
    # no query item near it: nothing
    assert g.misspellings([typo], syms[1:]).by_unit == {}
    assert Grounder(load_pack(default_pack_dirs()), labels, None).misspellings([typo], syms).by_unit == {}
