"""Deductive verdicts on benchmark questions with the shared MRS corpus and Wikidata labels
(skipped when ../shared/data is absent): structure and lexicon cases that the chemistry
example does not cover."""

from __future__ import annotations

from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
pytestmark = [pytest.mark.shared,
              pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/data not available")]


@pytest.fixture(scope="module")
def verifier():
    from verifier.api import Verifier
    from verifier.lexical import LabelIndex
    from verifier.mrs_cache import MrsCorpus

    return Verifier(labels=LabelIndex.cached(SHARED / "wikidata" / "labels.tsv"),
                    mrs=MrsCorpus([SHARED / "mrs" / "questions.jsonl.gz"]))


#: "in <year>": the query's statement started before the next year and ended in the year or later
_IN_YEAR = ("SELECT ?x WHERE { wd:Q15180 p:P6 ?p . ?p ps:P6 ?x . ?p pq:P580 ?y . ?p pq:P582 ?z . "
            "FILTER ((?y < \"%s-01-01T00:00:00Z\"^^xsd:dateTime) && (?z >= \"%s-01-01T00:00:00Z\"^^xsd:dateTime)) }")

#: Robert Shaw's spouses with a time qualifier in a year
_SHAW = ("SELECT ?obj WHERE { wd:Q313727 p:P26 ?s . ?s ps:P26 ?obj . ?s pq:%s ?x "
         "filter ( contains ( YEAR ( ?x ) , '%s' ) ) }")
#: a statement of a person's with a qualifier whose value is an item
_QUALIFIED = "SELECT ?obj WHERE {{ wd:{0} p:{1} ?s . ?s ps:{1} ?obj . ?s pq:{2} wd:{3} }}"

CASES = [
    # a coordination's "of" modifier distributes over the conjuncts
    ("What are the sex and the occupation of Merlin?",
     "SELECT ?a ?b WHERE { wd:Q188044 wdt:P21 ?a . wd:Q188044 wdt:P106 ?b }", "faithful"),
    ("What are the sex and the occupation of Merlin?",
     "SELECT ?a ?b WHERE { ?a wdt:P21 wd:Q188044 . wd:Q188044 wdt:P106 ?b }", "unsupported"),
    # "in" stands for country / continent / located in ... (ANY), in the right direction
    ("Give me all soccer clubs in Spain.",
     "SELECT ?c WHERE { ?c wdt:P31 wd:Q476028 ; wdt:P17 wd:Q29 . }", "faithful"),
    ("Give me all soccer clubs in Spain.",
     "SELECT ?c WHERE { ?c wdt:P31 wd:Q476028 . wd:Q29 wdt:P17 ?c . }", "unsupported"),
    ("Give me all soccer clubs in Spain.",
     "SELECT ?c WHERE { ?c wdt:P31 wd:Q476028 ; wdt:P38 wd:Q29 . }", "unsupported"),
    ("How many countries are there in Europe?",
     "SELECT (COUNT(?c) AS ?n) WHERE { ?c wdt:P30 wd:Q46 ; wdt:P31 wd:Q6256 . }", "faithful"),
    # lexicon words for "position held"
    ("Harold Wilson was elected in what year and to what position?",
     "SELECT ?year ?pos WHERE { wd:Q128956 p:P39 ?s . ?s ps:P39 ?pos . ?s pq:P2715 ?year . }",
     "faithful"),
    ("Harold Wilson was elected in what year and to what position?",
     "SELECT ?year ?pos WHERE { wd:Q128956 p:P166 ?s . ?s ps:P166 ?pos . ?s pq:P2715 ?year . }",
     "unsupported"),
    # a noun naming the value of a classifying property (classifier_noun), through the copula
    # and over a coordination ("X is a Y and a Z")
    ("Is George Orwell a poet and war correspondent?",
     "ASK WHERE { wd:Q3335 wdt:P106 wd:Q49757 . wd:Q3335 wdt:P106 wd:Q164236 }", "faithful"),
    ("Is George Orwell a poet and war correspondent?",
     "ASK WHERE { wd:Q3335 wdt:P106 wd:Q49757 . wd:Q3335 wdt:P106 wd:Q36180 }", "unsupported"),
    ("Was the dictator, Fidel Castro, the Prime Minister of Italy?",
     "ASK WHERE { wd:Q11256 wdt:P39 wd:Q796897 }", "faithful"),
    ("Was the dictator, Fidel Castro, the Prime Minister of Italy?",
     "ASK WHERE { wd:Q11256 wdt:P108 wd:Q796897 }", "unsupported"),
    # a value of a classifying property written as a proper name ("as Abbasid Caliph")
    ("When did Al-Mansur end his rule as Abbasid Caliph?",
     "SELECT ?t WHERE { wd:Q31066 p:P39 ?s . ?s ps:P39 wd:Q28541943 . ?s pq:P582 ?t }", "faithful"),
    ("When did Al-Mansur end his rule as Abbasid Caliph?",
     "SELECT ?t WHERE { wd:Q28541943 p:P39 ?s . ?s ps:P39 wd:Q31066 . ?s pq:P582 ?t }", "unsupported"),
    ("When did Al-Mansur end his rule as Abbasid Caliph?",
     "SELECT ?t WHERE { wd:Q31066 p:P39 ?s . ?s ps:P39 wd:Q28541943 . ?s pq:P580 ?t }", "unsupported"),
    # "Which is the CLASS for the NP of NAME?": the CLASS that is the NP of NAME, or whose NP
    # is NAME (LC-QuAD 2.0 writes both so); the NP still has to name the property
    ("Which is the currency for the country of Biafra?",
     "SELECT ?c WHERE { ?c wdt:P17 wd:Q178469 . ?c wdt:P31 wd:Q8142 }", "faithful"),
    ("Which is the business cluster for the capital of Karnataka?",
     "SELECT ?c WHERE { wd:Q1185 wdt:P36 ?c . ?c wdt:P31 wd:Q745456 }", "faithful"),
    ("Which is the currency for the country of Biafra?",
     "SELECT ?c WHERE { ?c wdt:P38 wd:Q178469 . ?c wdt:P31 wd:Q8142 }", "unsupported"),
    ("Which is the business cluster for the capital of Karnataka?",
     "SELECT ?c WHERE { wd:Q1185 wdt:P36 ?c . ?c wdt:P31 wd:Q4830453 }", "unsupported"),
    # "follow" names religion / political ideology, follower first; possessive names
    ("Which ideology is followed by the political party of Christian Emil Stoud Platou?",
     "SELECT ?i WHERE { wd:Q3376485 wdt:P102 ?X . ?X wdt:P1142 ?i }", "faithful"),
    ("Which ideology is followed by the political party of Christian Emil Stoud Platou?",
     "SELECT ?i WHERE { wd:Q3376485 wdt:P102 ?X . ?i wdt:P1142 ?X }", "unsupported"),
    ("What is Quecha's Wikimedia language code?",
     "SELECT ?c WHERE { wd:Q5218 wdt:P424 ?c }", "faithful"),
    ("Is Tyler Perry a songwriter and TV director?",
     "ASK WHERE { wd:Q686301 wdt:P106 wd:Q753110 . wd:Q686301 wdt:P106 wd:Q2059704 }", "faithful"),
    # a name used as a noun (named_n: "the 2004 Summer Olympics")
    ("Did Neymar participate in the 2004 Summer Olympics?",
     "ASK WHERE { wd:Q142794 wdt:P1344 wd:Q8558 }", "faithful"),
    ("Did Neymar participate in the 2004 Summer Olympics?",
     "ASK WHERE { wd:Q142794 wdt:P1344 wd:Q8567 }", "unsupported"),
    # an unknown word over an instance is a noun whatever its tag ("ether/CC")
    ("Is the ceiling exposure limit of chloromethyl methyl ether greater than 0.0?",
     "ASK WHERE { wd:Q158539 wdt:P2405 ?obj filter ( ?obj > 0.0 ) }", "faithful"),
    # lexicon words of the wikidata pack ("sign with" a label; "floors")
    ("Did Lynyrd Skynyrd sign with MCA Inc.?", "ASK WHERE { wd:Q158462 wdt:P264 wd:Q304509 }",
     "faithful"),
    ("Did Lynyrd Skynyrd sign with MCA Inc.?", "ASK WHERE { wd:Q304509 wdt:P264 wd:Q158462 . }",
     "unsupported"),
    ("Did Lynyrd Skynyrd sign with MCA Inc.?", "ASK WHERE { wd:Q158462 wdt:P1056 wd:Q304509 . }",
     "unsupported"),
    ("Are the upper floors of the svalbard global seed vault 1",
     "ASK WHERE { wd:Q201013 wdt:P1101 ?obj filter ( ?obj = 1 ) }", "faithful"),
    ("Are the upper floors of the svalbard global seed vault 1",
     "ASK WHERE { ?obj wdt:P1101 wd:Q201013 . FILTER (?obj = 1) }", "unsupported"),
    # a negative number: the parser reads "-166" as 166, the sign is in the text
    ("Is the standard enthalpy of formation of acetaldehyde equal to -166?",
     "ASK WHERE { wd:Q61457 wdt:P3078 ?obj filter ( ?obj = -166 ) }", "faithful"),
    ("Is the standard enthalpy of formation of acetaldehyde equal to -166?",
     "ASK WHERE { wd:Q61457 wdt:P3078 ?obj filter ( ?obj = 166 ) }", "unsupported"),
    # no template fits the label's shape ("has edition or translation") for the noun
    # "edition": its alias "edition" (a noun) links it, in the right direction
    ("When did the edition of Oresteia air?",
     "SELECT ?answer WHERE { wd:Q249769 wdt:P747 ?X . ?X wdt:P577 ?answer }", "faithful"),
    ("When did the edition of Oresteia air?",
     "SELECT ?answer WHERE { ?X wdt:P747 wd:Q249769 . ?X wdt:P577 ?answer . }", "unsupported"),
    # words of an item's written name do not also name a property of the query
    ("Does the TY scale go over 1080?",
     "ASK WHERE { wd:Q1306202 wdt:P1752 ?obj filter ( ?obj > 1080.0 ) }", "faithful"),
    ("Does the TY scale go over 1080?",
     "ASK WHERE { ?obj wdt:P1752 wd:Q1306202 . FILTER (?obj > 1080.0) }", "unsupported"),
    # a prepositional phrase on the identity copula restricts the equated noun ("Which is
    # the ... ID for X": the parser attaches "for X" to "is")
    ("Which is the ESPN.com NFL player ID for Kurt Warner?",
     "SELECT ?answer WHERE { wd:Q945750 wdt:P3686 ?answer }", "faithful"),
    ("Which is the ESPN.com NFL player ID for Kurt Warner?",
     "SELECT ?answer WHERE { ?answer wdt:P3686 wd:Q945750 }", "unsupported"),
    ("Which is the ESPN.com NFL player ID for Kurt Warner?",
     "SELECT ?answer WHERE { wd:Q945750 wdt:P3685 ?answer }", "unsupported"),
    # the ERG reads the written "ID" as the state of Idaho; the question means the noun
    ("Which is the KMDb person ID for Jeff Bridges?",
     "SELECT ?answer WHERE { wd:Q174843 wdt:P1649 ?answer }", "faithful"),
    ("Which is the KMDb person ID for Jeff Bridges?",
     "SELECT ?answer WHERE { ?answer wdt:P1649 wd:Q174843 }", "unsupported"),
    # a modifier of a verb with an object is not the verb's property value ("when" is not
    # the award); a qualifier that repeats its statement's property is not supported
    ("When did Bob Woodward receive the award Worth Bingham Prize?",
     "SELECT ?value WHERE { wd:Q312782 p:P166 ?s . ?s ps:P166 wd:Q8037157 . ?s pq:P585 ?value }",
     "faithful"),
    ("WHEN DID yOKO oNO receive an Emmy?",
     "SELECT ?value1 ?obj WHERE { wd:Q117012 p:P166 ?s . ?s ps:P166 ?obj . ?s pq:P166 ?value1 . }",
     "unsupported"),
    # a symmetric relation with a coordinated subject (lexicon entries with the reciprocal
    # templates next to the transitive ones); the query may state it in either direction
    ("When did Usher and Tameka Foster divorce?",
     "SELECT ?value WHERE { wd:Q165911 p:P26 ?s . ?s ps:P26 wd:Q3788039 . ?s pq:P582 ?value }",
     "faithful"),
    ("When did Usher and Tameka Foster divorce?",
     "SELECT ?value WHERE { wd:Q3788039 p:P26 ?s . ?s ps:P26 wd:Q165911 . ?s pq:P582 ?value }",
     "faithful"),
    ("When did Usher and Tameka Foster divorce?",
     "SELECT ?value WHERE { wd:Q165911 p:P40 ?s . ?s ps:P40 wd:Q3788039 . ?s pq:P582 ?value }",
     "unsupported"),
    ("When did Rufina Pukhova and Kim Philby get married?",
     "SELECT ?value WHERE { wd:Q296313 p:P26 ?s . ?s ps:P26 wd:Q7377949 . ?s pq:P580 ?value }",
     "faithful"),
    # a lexicon word ("award" -> award received) is not overruled by another property whose
    # label or alias fits the word as well
    ("When was Fedor Tokarev awarded the Order of Suvorov, 2nd class?",
     "SELECT ?value WHERE { wd:Q535597 p:P166 ?s . ?s ps:P166 wd:Q21292821 . ?s pq:P585 ?value }",
     "faithful"),
    ("When was Fedor Tokarev awarded the Order of Suvorov, 2nd class?",
     "SELECT ?value WHERE { wd:Q535597 p:P166 ?s . ?s ps:P1877 wd:Q21292821 . ?s pq:P585 ?value }",
     "unsupported"),
    # the possessive "'s" that the corpus parses as an unknown verb is read as a possessive
    ("What is Noam Chomsky's Quora username?",
     "SELECT ?answer WHERE { wd:Q9049 wdt:P4411 ?answer }", "faithful"),
    ("What is Noam Chomsky's Quora username?",
     "SELECT ?answer WHERE { ?answer wdt:P4411 wd:Q9049 }", "unsupported"),
    ("Is Jupiter's apparent magnitude equal to -1.6?",
     "ASK WHERE { wd:Q319 wdt:P1215 ?obj filter ( ?obj = -1.6 ) }", "faithful"),
    ("Is Jupiter's apparent magnitude equal to -1.6?",
     "ASK WHERE { ?obj wdt:P1215 wd:Q319 . FILTER (?obj = -1.6) }", "unsupported"),
    ("was Anderson silva's sport taekwondo and judo?",
     "ASK WHERE { wd:Q356871 wdt:P641 wd:Q36389 . wd:Q11420 wdt:P641 wd:Q356871 . }",
     "unsupported"),
    # one item whose name the parser reads as a coordination ("Astronomy and Astrophysics")
    ("What is ERA Journal ID of Astronomy and Astrophysics ?",
     "SELECT ?answer WHERE { wd:Q752075 wdt:P1058 ?answer }", "faithful"),
    ("What is ERA Journal ID of Astronomy and Astrophysics ?",
     "SELECT ?answer WHERE { ?answer wdt:P1058 wd:Q752075 }", "unsupported"),
    # a verb template needs the arguments it relates to be expressed: "the Elo rating of
    # Riya Shah" parsed as "rating Riya Shah" does not say that something has Elo rating X
    ("Is the Elo rating of  Riya Shah equal to 1284?",
     "ASK WHERE { wd:Q28478815 wdt:P1087 ?obj . FILTER (?obj = 1284) }", "faithful"),
    ("Is the Elo rating of  Riya Shah equal to 1284?",
     "ASK WHERE { ?obj wdt:P1087 wd:Q28478815 . FILTER (?obj = 1284) }", "unsupported"),
    # "equal" as a verb states the value ("Does X equal 1056.24?")
    ("Does the mean lifetime of the neutron equal 1056.24?",
     "ASK WHERE { wd:Q2348 wdt:P2645 ?obj filter ( ?obj = 1056.24 ) }", "faithful"),
    ("Does the mean lifetime of the neutron equal 1056.24?",
     "ASK WHERE { wd:Q2348 wdt:P2645 ?obj filter ( ?obj > 1056.24 ) }", "unsupported"),
    # a reading that compares a named item itself with the number proves too much
    ("Is the gross tonnage of the MV Loch Ranza less than 164.8?",
     "ASK WHERE { wd:Q6719754 wdt:P1093 ?obj . FILTER (?obj < 164.8) }", "faithful"),
    ("Is the gross tonnage of the MV Loch Ranza less than 164.8?",
     "ASK WHERE { ?obj wdt:P1093 wd:Q6719754 . FILTER (?obj < 164.8) }", "unsupported"),
    # a month in a date is part of the value, not a name the query ignores
    ("What position did John McEwen hold on the 19th December 1967?",
     "SELECT ?obj WHERE { wd:Q23386 p:P39 ?s . ?s ps:P39 ?obj . "
     "?s pq:P580 ?x filter ( contains ( YEAR ( ?x ) , '1967' ) ) }", "faithful"),
    ("What position did John McEwen hold on the 19th December 1967?",
     "SELECT ?obj WHERE { wd:Q484876 p:P39 ?s . ?s ps:P39 ?obj . "
     "?s pq:P580 ?x . FILTER (CONTAINS(YEAR(?x), \"1967\")) }", "unsupported"),
    # a question written without accents names an item whose label has them ("Malmö")
    ("What is Malmo's Swedish urban area code?",
     "SELECT ?x WHERE { wd:Q2211 wdt:P775 ?x }", "faithful"),
    ("What is Malmo's Swedish urban area code?",
     "SELECT ?x WHERE { ?x wdt:P775 wd:Q2211 }", "unsupported"),
    # a counted noun says "number": "have 3.2 masts" for P1099 "number of masts"
    ("Does the Dundonald have 3.2 masts?",
     "ASK WHERE { wd:Q5314887 wdt:P1099 ?obj filter ( ?obj = 3.2 ) }", "faithful"),
    ("Does the Dundonald have 3.2 masts?",
     "ASK WHERE { wd:Q5314887 wdt:P1100 ?obj filter ( ?obj = 3.2 ) }", "unsupported"),
    # KG value types: a sibling is human, so the query may say ?obj wdt:P31 wd:Q5 ...
    ("Name the sibling of Jon Voight",
     "SELECT ?obj WHERE { wd:Q167520 wdt:P3373 ?obj . ?obj wdt:P31 wd:Q5 }", "faithful"),
    ("Name the sibling of Jon Voight",
     "SELECT ?obj WHERE { wd:Q167520 wdt:P3373 ?obj . ?obj wdt:P527 wd:Q5 }", "unsupported"),
    # ... but that is KG knowledge, not a constraint the question states: a query without
    # it does not drop anything ("When did X and Y divorce?" with a spouse statement)
    ("When did Usher and Tameka Foster divorce?",
     "SELECT ?value WHERE { wd:Q165911 p:P26 ?s . ?s ps:P26 wd:Q3788039 . ?s pq:P582 ?value }",
     "faithful"),
    # the place where someone received an education is where they were educated
    ("Where did Mikhail Skobelev receive his education in 1861?",
     "SELECT ?obj WHERE { wd:Q57173 p:P69 ?s . ?s ps:P69 ?obj . "
     "?s pq:P580 ?x filter ( contains ( YEAR ( ?x ) , '1861' ) ) }", "faithful"),
    ("Where did Mikhail Skobelev receive his education in 1861?",
     "SELECT ?obj WHERE { wd:Q57173 p:P69 ?s . ?obj ps:P69 ?s . "
     "?s pq:P580 ?x . FILTER (CONTAINS(YEAR(?x), \"1861\")) }", "unsupported"),
    # a label written in full by the word's own phrase is not overruled by another
    # property's alias ("publishes": P123 publisher, although "publish" also names P577)
    ("What business publishes The New York Times",
     "SELECT ?obj WHERE { wd:Q9684 wdt:P123 ?obj . ?obj wdt:P31 wd:Q4830453 }", "faithful"),
    ("What business publishes The New York Times",
     "SELECT ?obj WHERE { wd:Q9684 wdt:P31 ?obj . ?obj wdt:P31 wd:Q4830453 }", "unsupported"),
    # an identifier named without "ID" (P539 "Museofile ID")
    ("What is Museofile of Musée d'Orsay ?", "SELECT ?a WHERE { wd:Q23402 wdt:P539 ?a }", "faithful"),
    ("What is Museofile of Musée d'Orsay ?", "SELECT ?a WHERE { wd:Q23402 wdt:P5021 ?a }", "unsupported"),
    ("What is Museofile of Musée d'Orsay ?", "SELECT ?a WHERE { ?a wdt:P539 wd:Q23402 }", "unsupported"),
    # spelling variants: "adviser" names P184 "doctoral advisor"
    ("Who is the doctoral adviser of Grigori Perelman ?",
     "SELECT ?obj WHERE { wd:Q117346 wdt:P184 ?obj . ?obj wdt:P31 wd:Q5 }", "faithful"),
    ("Who is the doctoral adviser of Grigori Perelman ?",
     "SELECT ?obj WHERE { wd:Q117346 wdt:P276 ?obj . ?obj wdt:P31 wd:Q5 }", "unsupported"),
    # pattern readings: a long identifier name the grammar parses as appositions
    ("Which is the Irish Rugby Football Union men's player ID for Brian O'Driscoll?",
     "SELECT ?a WHERE { wd:Q912889 wdt:P3848 ?a }", "faithful"),
    ("Which is the Irish Rugby Football Union men's player ID for Brian O'Driscoll?",
     "SELECT ?a WHERE { ?a wdt:P3848 wd:Q912889 }", "unsupported"),
    # "X became Y": X is Y from then on; "when" with "become" asks for the start time
    ("When did Austen Chamberlain become a Member of the 36th Parliament of the United Kingdom?",
     "SELECT ?v WHERE { wd:Q188999 p:P39 ?s . ?s ps:P39 wd:Q41582591 . ?s pq:P580 ?v }", "faithful"),
    ("When did Austen Chamberlain become a Member of the 36th Parliament of the United Kingdom?",
     "SELECT ?v WHERE { wd:Q188999 p:P39 ?s . ?s ps:P39 wd:Q41582591 . ?s pq:P582 ?v }", "unsupported"),
    ("When did Austen Chamberlain become a Member of the 36th Parliament of the United Kingdom?",
     "SELECT ?v WHERE { wd:Q188999 p:P39 ?s . ?s ps:P39 wd:Q41582591 . ?s pq:P1075 ?v }", "unsupported"),
    # "when" names both start and end time; "divorce" asks for the end only
    ("When did Usher and Tameka Foster divorce?",
     "SELECT ?value WHERE { wd:Q165911 p:P26 ?s . ?s ps:P26 wd:Q3788039 . ?s pq:P580 ?value }",
     "unsupported"),
    # "Geeta Dutt and Guru Dutt": the word "Dutt" names two people; its name axioms hold only
    # within their own names (the corpus reading once proved this query from the contradiction
    # that the two are one bearer of "Dutt"; no word names the spouse property)
    ("When was the end of the partnership between Geeta Dutt and Guru Dutt?",
     "SELECT ?v WHERE { wd:Q470416 p:P26 ?s . ?s ps:P26 wd:Q149136 . ?s pq:P582 ?v }", "unsupported"),
    # "celebrated in X" is public holiday(X, ...) (an exclusive lexicon entry)
    ("What public holidays are celebrated in Barcelona?",
     "SELECT ?obj WHERE { wd:Q1492 wdt:P832 ?obj . ?obj wdt:P31 wd:Q1197685 }", "faithful"),
    ("What public holidays are celebrated in Barcelona?",
     "SELECT ?obj WHERE { ?obj wdt:P832 wd:Q1492 . ?obj wdt:P31 wd:Q1197685 }", "unsupported"),
    # a chain of two noun phrases (pattern reading)
    ("What is the child body of the parent body of the Miranda Rights?",
     "SELECT ?a WHERE { wd:Q3352 wdt:P397 ?X . ?X wdt:P398 ?a }", "faithful"),
    ("What is the child body of the parent body of the Miranda Rights?",
     "SELECT ?a WHERE { wd:Q3352 wdt:P397 ?X . ?a wdt:P398 ?X }", "unsupported"),
    # the verb "found" (_found_v_1) is not "find": it names P112 "founded by"
    ("Who founded International Red Cross and Red Crescent Movement ?",
     "SELECT ?x WHERE { wd:Q7178 wdt:P112 ?x }", "faithful"),
    ("Who founded International Red Cross and Red Crescent Movement ?",
     "SELECT ?x WHERE { ?x wdt:P112 wd:Q7178 }", "unsupported"),
    # an imperative "Name" and the spelling of a label ("starts with letter S") name no item
    ("Name the chemical compound used in the drug to treat allergic rhinitis.",
     "SELECT ?obj WHERE { wd:Q272436 wdt:P2176 ?obj . ?obj wdt:P31 wd:Q11173 }", "faithful"),
    ("Name the chemical compound used in the drug to treat allergic rhinitis.",
     "SELECT ?obj WHERE { wd:Q18216 wdt:P2176 ?obj . ?obj wdt:P31 wd:Q11173 }", "unsupported"),
    ("Name a kind of leather that starts with letter S",
     "SELECT ?sbj ?l WHERE { ?sbj wdt:P31 wd:Q286 . ?sbj rdfs:label ?l . "
     "FILTER ( STRSTARTS ( lcase ( ?l ) , 's' ) ) . FILTER ( lang ( ?l ) = 'en' ) }", "faithful"),
    # "physically interacts with" is symmetric (KG background): either direction is right
    ("Which protein interacts with codeine?",
     "SELECT ?obj WHERE { wd:Q174723 wdt:P129 ?obj . ?obj wdt:P31 wd:Q8054 }", "faithful"),
    ("Which protein interacts with codeine?",
     "SELECT ?obj WHERE { wd:Q174723 wdt:P129 ?obj . ?obj wdt:P527 wd:Q8054 }", "unsupported"),
    # a reading whose copula equates two named items proves anything: no decision
    ("Busan and Rishon LeZion were the twinned administrative body of Saint Petersburg, Is it true?",
     "ASK WHERE { wd:Q656 wdt:P190 wd:Q16520 . wd:Q201051 wdt:P190 wd:Q656 . }", "unknown"),
    # the corpus parses a passive's "by" phrase as a modifier of the verb or of its noun: the
    # doer is the verb's first argument
    ("What is the position held by Warren G. Harding whose electoral district is Ohio?",
     "SELECT ?obj WHERE { wd:Q35286 p:P39 ?s . ?s ps:P39 ?obj . ?s pq:P768 wd:Q1397 }", "faithful"),
    ("Which is the website that is owned by Pinterest?",
     "SELECT ?obj WHERE { wd:Q255381 wdt:P1830 ?obj . ?obj wdt:P31 wd:Q35127 }", "faithful"),
    ("Which is the website that is owned by Pinterest?",
     "SELECT ?obj WHERE { ?obj wdt:P1830 wd:Q255381 . ?obj wdt:P31 wd:Q35127 }", "unsupported"),
    ("Which aircraft family is operated by EasyJet?",
     "SELECT ?obj WHERE { ?obj wdt:P121 wd:Q191551 . ?obj wdt:P31 wd:Q15056993 }", "unsupported"),
    # lexicon: "designed by" names the architect
    ("What steel bridge was designed by the architect Isambard Kingdom Brunel?",
     "SELECT ?sbj WHERE { ?sbj wdt:P84 wd:Q207380 . ?sbj wdt:P31 wd:Q12042110 }", "faithful"),
    ("What steel bridge was designed by the architect Isambard Kingdom Brunel?",
     "SELECT ?sbj WHERE { wd:Q207380 wdt:P84 ?sbj . ?sbj wdt:P31 wd:Q12042110 }", "unsupported"),
    # "as" names a position its verb's subject holds (the passive's subject is its object)
    ("When was James Callaghan elected as a Member of the 40th Parliament of the United Kingdom?",
     "SELECT ?v WHERE { wd:Q9576 p:P39 ?s . ?s ps:P39 wd:Q41582603 . ?s pq:P580 ?v }", "faithful"),
    ("When was James Callaghan elected as a Member of the 40th Parliament of the United Kingdom?",
     "SELECT ?v WHERE { wd:Q41582603 p:P39 ?s . ?s ps:P39 wd:Q9576 . ?s pq:P580 ?v }", "unsupported"),
    # a restriction on the answer's name must be tested by the query
    ("Tell me stock exchange whose name has the word sedex in it.",
     "SELECT DISTINCT ?sbj ?sbj_label WHERE { ?sbj wdt:P31 wd:Q11691 . ?sbj rdfs:label ?sbj_label . "
     "FILTER ( CONTAINS ( lcase ( ?sbj_label ) , 'sedex' ) ) . FILTER ( lang ( ?sbj_label ) = 'en' ) } LIMIT 25",
     "faithful"),
    ("Tell me stock exchange whose name has the word sedex in it.",
     "SELECT DISTINCT ?sbj WHERE { ?sbj wdt:P31 wd:Q11691 }", "intent_mismatch"),
    ("What is a state of Malaysia that starts with the letter t.",
     "SELECT DISTINCT ?sbj WHERE { ?sbj wdt:P31 wd:Q15063586 }", "intent_mismatch"),
    # superlative pattern reading; the ORDER BY must sort the way the superlative says
    ("Name the chemical substance with the lowest flash point ?",
     "SELECT ?ent WHERE { ?ent wdt:P31 wd:Q79529 . ?ent wdt:P2128 ?obj } ORDER BY ASC(?obj) LIMIT 5", "faithful"),
    ("Name the chemical substance with the lowest flash point ?",
     "SELECT ?ent WHERE { ?ent wdt:P31 wd:Q79529 . ?ent wdt:P2128 ?obj } ORDER BY DESC(?obj) LIMIT 5",
     "intent_mismatch"),
    ("Name the chemical substance with the lowest flash point ?",
     "SELECT ?ent WHERE { ?ent wdt:P31 wd:Q79529 . ?ent wdt:P2102 ?obj } ORDER BY ASC(?obj) LIMIT 5", "unsupported"),
    ("Which airline has the highest total revenue?",
     "SELECT ?ent WHERE { ?ent wdt:P31 wd:Q46970 . ?ent wdt:P2139 ?obj } ORDER BY ASC(?obj) LIMIT 5",
     "intent_mismatch"),
    # a context qualifier (statement is subject of, for work) whose value the question names
    ("What was Morgan Freeman nominated for in the 32nd Tony Awards?",
     "SELECT ?obj WHERE { wd:Q48337 p:P1411 ?s . ?s ps:P1411 ?obj . ?s pq:P805 wd:Q4635113 }", "faithful"),
    ("What was Morgan Freeman nominated for in the 32nd Tony Awards?",
     "SELECT ?obj WHERE { wd:Q48337 p:P1411 ?s . ?s ps:P1411 ?obj . ?s pq:P805 wd:Q4635303 }", "unsupported"),
    ("What was Rick Baker nominated for for Coming to America?",
     "SELECT ?obj WHERE { wd:Q495321 p:P1411 ?s . ?s ps:P1411 ?obj . ?s pq:P1686 wd:Q493755 }", "faithful"),
    ("What was Rick Baker nominated for for Coming to America?",
     "SELECT ?obj WHERE { wd:Q495321 p:P1411 ?s . ?s ps:P1411 ?obj . ?s pq:P166 wd:Q493755 }", "unsupported"),
    # a name written over several noun phrases is linked to them, not to a phrase around the
    # whole sentence; labels with a middle name
    ("Is it true that the number of participants of the 1947-48 Cypriot Cup equals to 5?",
     "ASK WHERE { wd:Q27924 wdt:P1132 ?obj filter ( ?obj = 5 ) }", "faithful"),
    ("Is it true that the number of participants of the 1947-48 Cypriot Cup equals to 5?",
     "ASK WHERE { wd:Q29 wdt:P1132 ?obj filter ( ?obj = 5 ) }", "unsupported"),
    # a number compared on a triple's subject is not the value the question states
    ("Is the number of the Red Cross Society of China's volunteers less than 1358400?",
     "ASK WHERE { ?obj wdt:P6125 wd:Q908277 . FILTER (?obj < 1358400.0) }", "unsupported"),
    ("Is the number of the Red Cross Society of China's volunteers less than 1358400?",
     "ASK WHERE { wd:Q908277 wdt:P6125 ?obj filter ( ?obj < 1358400.0 ) }", "faithful"),
    ("What was the position held by Alec Douglas-Home that replaces  Michael Stewart, Baron Stewart of Fulham?",
     "SELECT ?obj WHERE { wd:Q128976 p:P39 ?s . ?s ps:P39 ?obj . ?s pq:P1365 wd:Q333773 }", "faithful"),
    # two-hop pattern reading: "the NP1 of NAME1 with a NP2 of NAME2"
    ("What is the location of birth of Berthe Morisot with a twin city of Koszalin?",
     "SELECT ?answer WHERE { wd:Q105320 wdt:P19 ?answer . ?answer wdt:P190 wd:Q62868 }", "faithful"),
    ("What is the location of birth of Berthe Morisot with a twin city of Koszalin?",
     "SELECT ?answer WHERE { ?answer wdt:P19 wd:Q105320 . ?answer wdt:P190 wd:Q62868 }", "unsupported"),
    ("What is the birthplace of Henry Mancini that has an acreage of 213.587?",
     "SELECT ?answer WHERE { wd:Q185928 wdt:P19 ?answer . ?answer wdt:P2046 ?x FILTER ( contains ( ?x , '213.587' ) ) }",
     "faithful"),
    ("What is the birthplace of Henry Mancini that has an acreage of 213.587?",
     "SELECT ?answer WHERE { wd:Q185928 wdt:P19 ?answer . ?answer wdt:P2046 ?x FILTER ( contains ( ?x , '213.5' ) ) }",
     "unsupported"),
    # relative-clause pattern reading
    ("Which is the talent agency that represents Ronald Reagan?",
     "SELECT ?sbj WHERE { ?sbj wdt:P1268 wd:Q9960 . ?sbj wdt:P31 wd:Q5354754 }", "faithful"),
    ("Which is the talent agency that represents Ronald Reagan?",
     "SELECT ?sbj WHERE { wd:Q9960 wdt:P1268 ?sbj . ?sbj wdt:P31 wd:Q5354754 }", "unsupported"),
    # "how many" pattern reading
    ("How many positions are held by Helmut Schmidt?",
     "SELECT (COUNT(?obj) AS ?value) { wd:Q2516 wdt:P39 ?obj }", "faithful"),
    ("How many positions are held by Helmut Schmidt?",
     "SELECT (COUNT(?obj) AS ?value) { ?obj wdt:P39 wd:Q2516 }", "unsupported"),
    ("How many positions are held by Helmut Schmidt?", "SELECT ?obj { wd:Q2516 wdt:P39 ?obj }",
     "intent_mismatch"),
    ("How many editors are there for Vogue magazine?",
     "SELECT (COUNT(?obj) AS ?value) { wd:Q154008 wdt:P98 ?obj }", "faithful"),
    ("How many editors are there for Vogue magazine?",
     "SELECT (COUNT(?obj) AS ?value) { ?obj wdt:P98 wd:Q154008 }", "unsupported"),
    # "a part of Y" (a place): part of, country or located in (ANY)
    ("When did Surat become part of Bombay State?",
     "SELECT ?value WHERE { wd:Q4629 p:P131 ?s . ?s ps:P131 wd:Q2627082 . ?s pq:P580 ?value }", "faithful"),
    ("When did Surat become part of Bombay State?",
     "SELECT ?value WHERE { wd:Q2627082 p:P131 ?s . ?s ps:P131 wd:Q4629 . ?s pq:P580 ?value }", "unsupported"),
    ("When did Surat become part of Bombay State?",
     "SELECT ?value WHERE { wd:Q4629 p:P19 ?s . ?s ps:P19 wd:Q2627082 . ?s pq:P580 ?value }", "unsupported"),
    # "How long ...?" asks for a span: its start and its end answer it ("married" is no start)
    ("How long were Charles Boyer and Pat Paterson married?",
     "SELECT ?value1 ?value2 WHERE { wd:Q105987 p:P26 ?s . ?s ps:P26 wd:Q3368580 . ?s pq:P582 ?value1 . "
     "?s pq:P580 ?value2 }", "faithful"),
    ("How long were Charles Boyer and Pat Paterson married?",
     "SELECT ?value1 ?value2 WHERE { wd:Q105987 p:P26 ?s . ?s ps:P26 wd:Q3368580 . ?s pq:P582 ?value1 . "
     "?s pq:P2715 ?value2 }", "unsupported"),
    # "achieve" an award, like "receive", "win", "earn"
    ("When did Edward O. Wilson achieve the Kew International Medal?",
     "SELECT ?value WHERE { wd:Q211029 p:P166 ?s . ?s ps:P166 wd:Q53619124 . ?s pq:P585 ?value }", "faithful"),
    ("When did Edward O. Wilson achieve the Kew International Medal?",
     "SELECT ?value WHERE { wd:Q211029 p:P1411 ?s . ?s ps:P1411 wd:Q53619124 . ?s pq:P585 ?value }", "unsupported"),
    # "a moon of Uranus": parent astronomical body(moon, Uranus)
    ("Name a natural satellite of Uranus.", "SELECT ?sbj WHERE { ?sbj wdt:P397 wd:Q324 . ?sbj wdt:P31 wd:Q2537 }",
     "faithful"),
    ("Name a natural satellite of Uranus.", "SELECT ?sbj WHERE { wd:Q324 wdt:P397 ?sbj . ?sbj wdt:P31 wd:Q2537 }",
     "unsupported"),
    # "volume": volume as quantity, or the volume of a book (a word both labels use)
    ("What is the volume of the Dead Sea?", "SELECT ?answer WHERE { wd:Q23883 wdt:P2234 ?answer }", "faithful"),
    ("What is the volume of the Dead Sea?", "SELECT ?answer WHERE { wd:Q23883 wdt:P2046 ?answer }", "unsupported"),
    # "leave" a team / a position: the membership's end time; "graduate" ends an education
    ("When did Lev Yashin leave FC Dinamo Moscow?",
     "SELECT ?value WHERE { wd:Q167828 p:P54 ?s . ?s ps:P54 wd:Q17497 . ?s pq:P582 ?value }", "faithful"),
    ("When did Lev Yashin leave FC Dinamo Moscow?",
     "SELECT ?value WHERE { wd:Q167828 p:P54 ?s . ?s ps:P54 wd:Q17497 . ?s pq:P580 ?value }", "unsupported"),
    ("When did Ossie Davis graduate from Howard University?",
     "SELECT ?value WHERE { wd:Q515632 p:P69 ?s . ?s ps:P69 wd:Q1068752 . ?s pq:P582 ?value }", "faithful"),
    ("When did Ossie Davis graduate from Howard University?",
     "SELECT ?value WHERE { wd:Q515632 p:P69 ?s . ?s ps:P69 wd:Q1068752 . ?s pq:P580 ?value }", "unsupported"),
    # "X played ROLE in WORK": cast member(WORK, X), the role the character role qualifier
    ("Who plays Bill Potts on Doctor Who?",
     "SELECT ?obj WHERE { wd:Q34316 p:P161 ?s . ?s ps:P161 ?obj . ?s pq:P453 wd:Q23908728 }", "faithful"),
    ("Who plays Bill Potts on Doctor Who?",
     "SELECT ?obj WHERE { ?obj p:P161 ?s . ?s ps:P161 wd:Q34316 . ?s pq:P453 wd:Q23908728 }", "unsupported"),
    ("Which character did Graham Chapman play in Monty Python and the Holy Grail?",
     "SELECT ?value WHERE { wd:Q25043 p:P161 ?s . ?s ps:P161 wd:Q24962 . ?s pq:P453 ?value }", "faithful"),
    ("Which character did Graham Chapman play in Monty Python and the Holy Grail?",
     "SELECT ?value WHERE { wd:Q25043 p:P57 ?s . ?s ps:P57 wd:Q24962 . ?s pq:P453 ?value }", "unsupported"),
    # "When did NAME have a NP of NUMBER?": the point in time of the statement with that value
    ("When did Portsmouth have a population of 248440?",
     "SELECT ?value WHERE { wd:Q72259 p:P1082 ?s . ?s ps:P1082 ?x filter ( contains ( ?x , '248440' ) ) . "
     "?s pq:P585 ?value }", "faithful"),
    ("When did Portsmouth have a population of 248440?",
     "SELECT ?value WHERE { wd:Q72259 p:P2046 ?s . ?s ps:P2046 ?x filter ( contains ( ?x , '248440' ) ) . "
     "?s pq:P585 ?value }", "unsupported"),
    ("When did Portsmouth have a population of 248440?",
     "SELECT ?value WHERE { wd:Q72259 p:P1082 ?s . ?s ps:P1082 ?x filter ( contains ( ?x , '248441' ) ) . "
     "?s pq:P585 ?value }", "unsupported"),
    ("How many were founded by the Soviet Union?",
     "SELECT (COUNT(?sub) AS ?value) { ?sub wdt:P112 wd:Q15180 }", "faithful"),
    ("How many were founded by the Soviet Union?",
     "SELECT (COUNT(?sub) AS ?value) { wd:Q15180 wdt:P112 ?sub }", "unsupported"),
    ("How many doctoral advisors are determined for Gottfried Wilhelm Leibniz?",
     "SELECT (COUNT(?obj) AS ?value) { wd:Q9047 wdt:P184 ?obj }", "faithful"),
    ("How many doctoral advisors are determined for Gottfried Wilhelm Leibniz?",
     "SELECT (COUNT(?obj) AS ?value) { ?obj wdt:P184 wd:Q9047 }", "unsupported"),
    ("Zhu De had how many conflicts?",
     "SELECT (COUNT(?obj) AS ?value) { wd:Q22513 wdt:P607 ?obj }", "faithful"),
    ("Zhu De had how many conflicts?", "SELECT ?obj { wd:Q22513 wdt:P607 ?obj }", "intent_mismatch"),
    # an ordinal before its noun is part of the noun phrase ("first performance")
    ("Which is the date of first performance for Tannhäuser?",
     "select distinct ?answer where { wd:Q560619 wdt:P1191 ?answer }", "faithful"),
    ("Which is the date of first performance for Tannhäuser?",
     "select distinct ?answer where { wd:Q560619 wdt:P577 ?answer }", "unsupported"),
    # "how many" is answered by a COUNT or by the value of a "number of ..." property
    ("How many children does Barack Obama have?", "SELECT ?n WHERE { wd:Q76 wdt:P1971 ?n }", "faithful"),
    # "depicting" is the verb *depicts*, "depiction of" its noun: what depicts Osiris
    ("How many depictions are there of Osiris?",
     "SELECT (COUNT(?sub) AS ?value) { ?sub wdt:P180 wd:Q46491 }", "faithful"),
    ("How many depictions are there of Osiris?",
     "SELECT (COUNT(?sub) AS ?value) { wd:Q46491 wdt:P180 ?sub }", "unsupported"),
    # pattern reading of a name restriction (the grammar reads "gene" as a name)
    ("Tell me gene whose name has the word vgf in it.",
     "SELECT DISTINCT ?sbj ?sbj_label WHERE { ?sbj wdt:P31 wd:Q7187 . ?sbj rdfs:label ?sbj_label . "
     "FILTER ( CONTAINS ( lcase ( ?sbj_label ) , 'vgf' ) ) . FILTER ( lang ( ?sbj_label ) = 'en' ) } LIMIT 25",
     "faithful"),
    ("Tell me gene whose name has the word vgf in it.",
     "SELECT DISTINCT ?sbj ?sbj_label WHERE { ?sbj wdt:P31 wd:Q8054 . ?sbj rdfs:label ?sbj_label . "
     "FILTER ( CONTAINS ( lcase ( ?sbj_label ) , 'vgf' ) ) . FILTER ( lang ( ?sbj_label ) = 'en' ) } LIMIT 25",
     "unsupported"),
    ("Tell me gene whose name has the word vgf in it.",
     "SELECT DISTINCT ?sbj ?sbj_label WHERE { ?sbj wdt:P31 wd:Q7187 . ?sbj rdfs:label ?sbj_label . "
     "FILTER ( CONTAINS ( lcase ( ?sbj_label ) , 'abc' ) ) . FILTER ( lang ( ?sbj_label ) = 'en' ) } LIMIT 25",
     "unsupported"),
    # coordinated yes/no pattern reading: "Did X VERB A and B?" means both
    ("Did Garth Brooks record with Big Machine Records and Decca?",
     "ASK { wd:Q216288 wdt:P264 wd:Q2902300 . wd:Q216288 wdt:P264 wd:Q557632 }", "faithful"),
    ("Did Garth Brooks record with Big Machine Records and Decca?",
     "ASK { wd:Q216288 wdt:P264 wd:Q2902300 . wd:Q557632 wdt:P264 wd:Q216288 }", "unsupported"),
    ("Did Garth Brooks record with Big Machine Records and Decca?",
     "ASK { wd:Q216288 wdt:P264 wd:Q2902300 }", "weaker"),
    # "What NP does NAME VERB?" pattern reading; "speak" -> languages spoken
    ("What languages do Arthur Hailey speak?", "SELECT ?answer { wd:Q249544 wdt:P1412 ?answer }", "faithful"),
    ("What languages do Arthur Hailey speak?", "SELECT ?answer { ?answer wdt:P1412 wd:Q249544 }", "unsupported"),
    # "When did X become a NP of Y?": the start of the statement; "member" and "citizen" are
    # the subject of their property
    ("When did Mark Rothko become a citizen of the United States?",
     "SELECT ?value { wd:Q160149 p:P27 ?s . ?s ps:P27 wd:Q30 . ?s pq:P580 ?value }", "faithful"),
    ("When did Mark Rothko become a citizen of the United States?",
     "SELECT ?value { wd:Q160149 p:P27 ?s . ?s ps:P27 wd:Q30 . ?s pq:P582 ?value }", "unsupported"),
    ("When did Georg Simon Ohm become a member of the Royal Society?",
     "SELECT ?value { wd:Q1585 p:P463 ?s . ?s ps:P463 wd:Q123885 . ?s pq:P580 ?value }", "faithful"),
    ("When did Georg Simon Ohm become a member of the Royal Society?",
     "SELECT ?value { wd:Q123885 p:P463 ?s . ?s ps:P463 wd:Q1585 . ?s pq:P580 ?value }", "unsupported"),
    # reduced relative: "Name a NP VERBed by NAME"
    ("Name a movie directed by Francis Ford Coppola",
     "SELECT DISTINCT ?sbj { ?sbj wdt:P57 wd:Q56094 . ?sbj wdt:P31 wd:Q11424 }", "faithful"),
    ("Name a movie directed by Francis Ford Coppola",
     "SELECT DISTINCT ?sbj { wd:Q56094 wdt:P57 ?sbj . ?sbj wdt:P31 wd:Q11424 }", "unsupported"),
    # a query that drops the kind of thing the question asks for is weaker: not every work
    # of hers is a book; "languages" is said by the property (languages spoken ...) itself
    ("Give me all books written by Danielle Steel.",
     "SELECT DISTINCT ?uri WHERE { ?uri wdt:P31 wd:Q571 . ?uri wdt:P50 wd:Q72653 . }", "faithful"),
    ("Give me all books written by Danielle Steel.",
     "SELECT ?book WHERE { ?book wdt:P50 wd:Q72653 . }", "weaker"),
    ("In which city did John F. Kennedy die?", "SELECT ?place WHERE { wd:Q9696 wdt:P20 ?place . }", "weaker"),
    ("In which city did John F. Kennedy die?",
     "SELECT ?place WHERE { wd:Q9696 wdt:P20 ?place . ?place wdt:P31 wd:Q515 }", "faithful"),
    # "Name the NP of NAME" reads as "What is the NP of NAME?" (the corpus readings make the
    # answer one of the named items)
    ("Name the doctoral advisor of Carl Gustav Jung.",
     "SELECT ?obj WHERE { wd:Q41532 wdt:P184 ?obj . ?obj wdt:P31 wd:Q5 }", "faithful"),
    ("Name the doctoral advisor of Carl Gustav Jung.",
     "SELECT ?obj WHERE { ?obj wdt:P184 wd:Q41532 . ?obj wdt:P31 wd:Q5 }", "unsupported"),
    # yes/no copula over two names: one noun phrase per conjunct
    ("Was Edward VI of England a sibling of Lady Jane Grey and Mary I of England?",
     "ASK { wd:Q83229 wdt:P3373 wd:Q162356 . wd:Q83229 wdt:P3373 wd:Q82674 }", "faithful"),
    # "Is the NP of NAME equal to VALUE?"
    ("Is the albedo of 1437 Diomedes equal to .024?",
     "ASK { wd:Q139165 wdt:P4501 ?obj filter ( ?obj = 0.024 ) }", "faithful"),
    ("Is the albedo of 1437 Diomedes equal to .024?",
     "ASK { wd:Q139165 wdt:P4501 ?obj filter ( ?obj = 0.25 ) }", "unsupported"),
    ("Is the albedo of 1437 Diomedes equal to .024?",
     "ASK { wd:Q139165 wdt:P2067 ?obj filter ( ?obj = 0.024 ) }", "unsupported"),
    # premises that contradict each other prove anything: a word in two names ("England" in
    # Edward VI of England and Mary I of England, "Poniatowski") names each item only within its
    # own name, and no reading of these proves the query from contradicting premises (the
    # relatives' query is proved from consistent ones, through verb_passive_reciprocal: see
    # the cases at the end, where a spouse or another relative is not)
    ("Was Edward VI of England a sibling of Lady Jane Grey and Mary I of England?",
     "ASK { wd:Q83229 wdt:P3373 wd:Q162356 . wd:Q83229 wdt:P26 wd:Q82674 }", "unsupported"),
    # ... while the pattern reading "Does NAME have N NP?" proves it, with consistent premises
    ("Are there 1.942 employees at Fu Jen Catholic University?",
     "ASK WHERE { wd:Q685664 wdt:P1128 ?obj filter ( ?obj = 1.942 ) }", "faithful"),
    ("Are there 1.942 employees at Fu Jen Catholic University?",
     "ASK WHERE { wd:Q685664 wdt:P1128 ?obj filter ( ?obj = 2 ) }", "unsupported"),
    ("Are there 1.942 employees at Fu Jen Catholic University?",
     "ASK WHERE { wd:Q685664 wdt:P2196 ?obj filter ( ?obj = 1.942 ) }", "unsupported"),
    # a time bound ("until 1975") written as the year of the statement's end time: "until"
    # names the end, whatever the verb ("married" alone would name a start), and the year must
    # be the question's
    ("Who was Robert Shaw married to until 1975?", _SHAW % ("P582", "1975"), "faithful"),
    ("Who was Robert Shaw married to until 1975?", _SHAW % ("P580", "1975"), "unsupported"),
    ("Who was Robert Shaw married to until 1975?", _SHAW % ("P582", "1976"), "intent_mismatch"),
    # ... also in a pattern reading ("until 1973" on the main event)
    ("What position did Adolfo Suárez hold until 1973?",
     "SELECT ?obj WHERE { wd:Q214367 p:P39 ?s . ?s ps:P39 ?obj . ?s pq:P582 ?x filter ( contains ( YEAR ( ?x ) , '1973' ) ) }",
     "faithful"),
    ("What position did Adolfo Suárez hold until 1973?",
     "SELECT ?obj WHERE { wd:Q214367 p:P39 ?s . ?s ps:P39 ?obj . ?s pq:P580 ?x filter ( contains ( YEAR ( ?x ) , '1973' ) ) }",
     "unsupported"),
    # "together with", and "NAME and NAME2 ... together", name the qualifier *together with*,
    # whose value is the companion
    ("What award did Robin Williams and Christine Baranski receive together?",
     _QUALIFIED.format("Q83338", "P166", "P1706", "Q229134"), "faithful"),
    ("What award was received by Igor Tamm together with Pavel Cherenkov?",
     _QUALIFIED.format("Q155759", "P166", "P1706", "Q76970"), "faithful"),
    ("What award was received by Igor Tamm together with Pavel Cherenkov?",
     _QUALIFIED.format("Q155759", "P166", "P1706", "Q5593"), "unsupported"),
    ("What award was received by Igor Tamm together with Pavel Cherenkov?",
     _QUALIFIED.format("Q155759", "P1411", "P1706", "Q76970"), "unsupported"),
    ("What award was received by Igor Tamm together with Pavel Cherenkov?",
     _QUALIFIED.format("Q155759", "P166", "P1327", "Q76970"), "unsupported"),
    # a when-clause names a qualifier of the main statement: "replaced by" (the clause's doer),
    # "replaces" (its object), "academic major" (its noun phrase); not the other one
    ("Who was Herbert von Karajan employed by when he was replaced by Paul van Kempen?",
     _QUALIFIED.format("Q154895", "P108", "P1366", "Q529444"), "faithful"),
    ("Who was Herbert von Karajan employed by when he was replaced by Paul van Kempen?",
     _QUALIFIED.format("Q154895", "P108", "P1365", "Q529444"), "unsupported"),
    ("Who was Herbert von Karajan employed by when he was replaced by Paul van Kempen?",
     _QUALIFIED.format("Q154895", "P1416", "P1366", "Q529444"), "unsupported"),
    ("What position did Arthur Balfour hold when he replaced Edward Grey, 1st Viscount Grey of Fallodon?",
     _QUALIFIED.format("Q19008", "P39", "P1365", "Q335187"), "faithful"),
    ("What position did Arthur Balfour hold when he replaced Edward Grey, 1st Viscount Grey of Fallodon?",
     _QUALIFIED.format("Q19008", "P39", "P1366", "Q335187"), "unsupported"),
    ("Where did Sylvia Plath go to school when she was a literature major?",
     _QUALIFIED.format("Q133054", "P69", "P812", "Q8242"), "faithful"),
    ("Where did Sylvia Plath go to school when she was a literature major?",
     _QUALIFIED.format("Q133054", "P69", "P512", "Q8242"), "unsupported"),
    # "how much" of what a passive verb says was done asks how many things were
    ("how much was solved by leonhard euler?",
     "SELECT ( COUNT ( ?sub ) AS ?value ) { ?sub wdt:P1136 wd:Q7604 }", "faithful"),
    ("how much was solved by leonhard euler?",
     "SELECT ( COUNT ( ?sub ) AS ?value ) { wd:Q7604 wdt:P1136 ?sub }", "unsupported"),
    ("How much is the Russian ruble?",
     "SELECT ( COUNT ( ?sub ) AS ?value ) { ?sub wdt:P38 wd:Q41044 }", "intent_mismatch"),
    # "grand-children", which the grammar reads as "grand" and "children", is child twice
    ("How many grand-children did Jacques Cousteau have?",
     "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { wd:Q83233 wdt:P40/wdt:P40 ?x }", "faithful"),
    ("How many grand-children did Jacques Cousteau have?",
     "SELECT (COUNT(DISTINCT ?x) AS ?n) WHERE { wd:Q83233 wdt:P40 ?x }", "unsupported"),
    # ... while an exclusive entry that takes its property once leaves the word's label link
    # to it ("style of art": the *art* entry is for what someone does, the label *genre* still
    # answers "what style of art is X?")
    ("what style of art is salvador dali?", "SELECT DISTINCT ?x WHERE { wd:Q5577 wdt:P136 ?x . }", "faithful"),
    # a role noun written before a name as its title says in which role the name is related
    # to the noun it is of or for ("the translation for illustrator Beatrix Potter")
    ("Which is the film of the composer Pete Townshend?",
     "select distinct ?sbj where { ?sbj wdt:P86 wd:Q26933 . ?sbj wdt:P31 wd:Q11424 }", "faithful"),
    ("Which is the film of the composer Pete Townshend?",
     "select distinct ?obj where { wd:Q26933 wdt:P86 ?obj . ?obj wdt:P31 wd:Q11424 }", "unsupported"),
    ("Which is the translation for illustrator Beatrix Potter?",
     "select distinct ?sbj where { ?sbj wdt:P110 wd:Q214565 . ?sbj wdt:P31 wd:Q3331189 }", "faithful"),
    ("Which is the translation for illustrator Beatrix Potter?",
     "select distinct ?sbj where { wd:Q214565 wdt:P110 ?sbj . ?sbj wdt:P31 wd:Q3331189 }", "unsupported"),
    # ... not the words before a noun that a name follows, nor a noun after the name
    ("What is the Paris Faculty of Science ID for Professor Henri Poincare?",
     "select distinct ?answer where { ?answer wdt:P5541 wd:Q81082 }", "unsupported"),
    ("What is in the category of Wembley Stadium?",
     "select distinct ?answer where { ?answer wdt:P115 wd:Q128468 }", "unsupported"),
    # ... nor a class before a name ("the movie Toy Story")
    ("What is the PORT film ID for the movie Toy Story?",
     "SELECT DISTINCT ?answer WHERE { ?answer wdt:P905 wd:Q171048 . }", "unsupported"),
    # ... nor a noun with modifiers of its own ("political system does" before "russia")
    ("what type of political system does russia have?",
     "SELECT DISTINCT ?x WHERE { ?x wdt:P122 wd:Q159 . }", "unsupported"),
    # a demonym writes its country's name inside a name of several words ("the Brazilian
    # national soccer team" is *Brazil national football team*), not the country alone
    ("Until what year was Zico a member of the Brazilian national soccer team?",
     "SELECT ?value WHERE { wd:Q47526 p:P54 ?s . ?s ps:P54 wd:Q83459 . ?s pq:P582 ?value }", "faithful"),
    ("Until what year was Zico a member of the Brazilian national soccer team?",
     "SELECT ?value WHERE { wd:Q47526 p:P54 ?s . ?s ps:P54 wd:Q155 . ?s pq:P582 ?value }", "unsupported"),
    # a name split in two whose part the parse puts in apposition to the noun asked for says
    # nothing of that noun ("the blood group ..., Clinton")
    ("What is the blood group of the person married to Hillary Clinton?",
     "SELECT ?answer WHERE { wd:Q6294 wdt:P26 ?X . ?X wdt:P1853 ?answer }", "faithful"),
    ("What is the blood group of the person married to Hillary Clinton?",
     "SELECT ?answer WHERE { wd:Q6294 wdt:P1853 ?answer }", "unsupported"),
    # ... while an apposition the question writes stays ("the dictator, Fidel Castro,")
    ("Was the dictator, Fidel Castro, the Prime Minister of Italy?",
     "ASK WHERE { wd:Q11256 wdt:P39 wd:Q796897 }", "faithful"),
    # "Define the NP of NAME" asks what "What is the NP of NAME?" asks
    ("Define twinning of staurolite.", "select distinct ?answer where { wd:Q413380 wdt:P537 ?answer }", "faithful"),
    ("Define twinning of staurolite.", "select distinct ?answer where { ?answer wdt:P537 wd:Q413380 }", "unsupported"),
    # "Is it true that NAME has N NP?" as "Does NAME have N NP?" (the grammar splits the name)
    ("Is it true that the California Dreams Tour has 3.6 representations?",
     "ASK WHERE { wd:Q857494 wdt:P5027 ?obj filter ( ?obj = 3.6 ) }", "faithful"),
    ("Is it true that the California Dreams Tour has 3.6 representations?",
     "ASK WHERE { wd:Q857494 wdt:P5027 ?obj filter ( ?obj = 36 ) }", "unsupported"),
    ("Is it true that the California Dreams Tour has 3.6 representations?",
     "ASK WHERE { wd:Q857494 wdt:P1110 ?obj filter ( ?obj = 3.6 ) }", "unsupported"),
    # a preposition alone names no qualifier's property ("in" is not work location, "by" not
    # author); a date after it names a time qualifier
    ("What award was Arthur M. Schlesinger nominated for in 1961?",
     "SELECT ?obj WHERE { wd:Q435195 p:P1411 ?s . ?s ps:P1411 ?obj . ?s pq:P585 ?x filter ( contains ( YEAR ( ?x ) , '1961' ) ) }",
     "faithful"),
    ("What award was Arthur M. Schlesinger nominated for in 1961?",
     "SELECT ?obj WHERE { wd:Q435195 p:P1411 ?s . ?s ps:P1411 ?obj . ?s pq:P937 ?x . FILTER (CONTAINS(YEAR(?x), \"1961\")) }",
     "unsupported"),
    # ... and a query that drops the time is weaker: it answers with every nomination
    ("What award was Arthur M. Schlesinger nominated for in 1961?",
     "SELECT ?obj WHERE { wd:Q435195 p:P1411 ?s . ?s ps:P1411 ?obj . }", "weaker"),
    ("who won the fa cup in 2008?", "SELECT DISTINCT ?x WHERE { wd:Q925056 wdt:P1346 ?x . }", "weaker"),
    # ... but a year that describes an item the query names itself is no constraint it drops
    ("What are the main subjects of the scientific paper titled \"Neue Cyclocephalen (Col. Dyn.)\" published in 1923?",
     "SELECT ?s WHERE { wd:Q116738730 wdt:P921 ?s . }", "faithful"),
    ("What position did Ferdinand Marcos hold when he was replaced by Corazon Aquino?",
     "SELECT ?obj WHERE { wd:Q1463 p:P39 ?s . ?s ps:P39 ?obj . ?s pq:P1366 wd:Q1480 }", "faithful"),
    ("What position did Ferdinand Marcos hold when he was replaced by Corazon Aquino?",
     "SELECT ?obj WHERE { wd:Q1463 p:P39 ?s . ?s ps:P39 ?obj . ?s pq:P50 wd:Q1480 . }", "unsupported"),
    # ... but not a word for a value ("what year")
    ("Harold Wilson was elected in what year and to what position?",
     "SELECT ?year ?pos WHERE { wd:Q128956 p:P39 ?s . ?s ps:P39 ?pos . ?s pq:P2715 ?year . }", "faithful"),
    # "parents" are the subjects of child (P40); "play as" a position; "date" an unmarried partner
    ("Who is Prince George of Cambridge's parents?",
     "SELECT ?p WHERE { ?p wdt:P40 wd:Q13590412 . ?p wdt:P31 wd:Q5 }", "faithful"),
    ("Who is Prince George of Cambridge's parents?",
     "SELECT ?p WHERE { wd:Q13590412 wdt:P40 ?p . ?p wdt:P31 wd:Q5 }", "unsupported"),
    ("Did Zinedine Zidane play as a midfielder?", "ASK WHERE { wd:Q1835 wdt:P413 wd:Q193592 }", "faithful"),
    ("Did Zinedine Zidane play as a midfielder?", "ASK WHERE { wd:Q1835 wdt:P106 wd:Q193592 }", "unsupported"),
    ("Is Jennifer Lopez date Alex Rodriguez?", "ASK WHERE { wd:Q40715 wdt:P451 wd:Q558664 }", "faithful"),
    ("Is Jennifer Lopez date Alex Rodriguez?", "ASK WHERE { wd:Q40715 wdt:P26 wd:Q558664 }", "unsupported"),
    # a time at the end or the start of the question names a time qualifier with its year
    ("What was the net profit of the State Grid Corporation of China in 2015?",
     "SELECT ?v WHERE { wd:Q209078 p:P2295 ?s . ?s ps:P2295 ?v . ?s pq:P585 ?t "
     "FILTER ( contains ( YEAR ( ?t ) , '2015' ) ) }", "faithful"),
    ("What was the net profit of the State Grid Corporation of China in 2015?",
     "SELECT ?v WHERE { wd:Q209078 p:P2295 ?s . ?s ps:P2295 ?v . ?s pq:P585 ?t "
     "FILTER ( contains ( YEAR ( ?t ) , '2016' ) ) }", "unsupported"),
    ("In 1983, what award did the film \"E.T. The Extra-Terrestrial\" win?",
     "SELECT ?a WHERE { wd:Q11621 p:P166 ?s . ?s ps:P166 ?a . ?s pq:P585 ?t "
     "FILTER ( contains ( YEAR ( ?t ) , '1983' ) ) }", "faithful"),
    # the time of an event between two names is its statement's time qualifier, not a value
    # of its property; "marry" with a coordinated subject is reciprocal (the verb's entries,
    # not the adjective's) and begins the marriage
    ("When was Tiger Woods nominated for a Best Male Golfer Espy Award?",
     "SELECT ?t WHERE { wd:Q10993 p:P1411 ?s . ?s ps:P1411 wd:Q4896729 . ?s pq:P585 ?t }", "faithful"),
    ("When was Tiger Woods nominated for a Best Male Golfer Espy Award?",
     "SELECT ?t WHERE { wd:Q10993 p:P166 ?s . ?s ps:P166 wd:Q4896729 . ?s pq:P585 ?t }", "unsupported"),
    # ... and "when" asks for a time, not for what he was nominated for
    ("When was Tiger Woods nominated for a Best Male Golfer Espy Award?",
     "SELECT ?t WHERE { wd:Q10993 wdt:P1411 ?t }", "intent_mismatch"),
    ("When did Leon Lai and Gaile Lok marry?",
     "SELECT ?t WHERE { wd:Q16836 p:P26 ?s . ?s ps:P26 wd:Q5517183 . ?s pq:P580 ?t }", "faithful"),
    ("When did Leon Lai and Gaile Lok marry?",
     "SELECT ?t WHERE { wd:Q16836 p:P26 ?s . ?s ps:P26 wd:Q5517183 . ?s pq:P582 ?t }", "unsupported"),
    # "involved in" an event, "released for" a platform
    ("Which Democratic Republic country was involved in the Cuban Missile Crisis?",
     "SELECT ?c WHERE { ?c wdt:P793 wd:Q128160 . ?c wdt:P31 wd:Q5255892 }", "faithful"),
    ("Which Democratic Republic country was involved in the Cuban Missile Crisis?",
     "SELECT ?c WHERE { wd:Q128160 wdt:P793 ?c . ?c wdt:P31 wd:Q5255892 }", "unsupported"),
    ("When was Grand Theft Auto III released for Xbox?",
     "SELECT ?t WHERE { wd:Q149106 p:P400 ?s . ?s ps:P400 wd:Q132020 . ?s pq:P577 ?t }", "faithful"),
    ("When was Grand Theft Auto III released for Xbox?",
     "SELECT ?t WHERE { wd:Q149106 p:P178 ?s . ?s ps:P178 wd:Q132020 . ?s pq:P577 ?t }", "unsupported"),
    # "starts with" restricts the start of the name: CONTAINS does not say so
    ("What are the war deity which start with the letter zalmoxis",
     "SELECT DISTINCT ?sbj ?sbj_label WHERE { ?sbj wdt:P31 wd:Q41863069 . ?sbj rdfs:label ?sbj_label . "
     "FILTER ( STRSTARTS ( lcase ( ?sbj_label ) , 'zalmoxis' ) ) . FILTER ( lang ( ?sbj_label ) = 'en' ) } LIMIT 25",
     "faithful"),
    ("What are the war deity which start with the letter zalmoxis",
     "SELECT DISTINCT ?sbj ?sbj_label WHERE { ?sbj wdt:P31 wd:Q41863069 . ?sbj rdfs:label ?sbj_label . "
     "FILTER ( CONTAINS ( lcase ( ?sbj_label ) , 'zalmoxis' ) ) . FILTER ( lang ( ?sbj_label ) = 'en' ) } LIMIT 25",
     "intent_mismatch"),
    # "replaced by" and "replaces" name the two directions of replacement (the qualifier's
    # names must say "by" exactly when the question does); "together with" is no passive
    ("What position that Kurt Georg Kiesinger held was replaced by Hans Ehard?",
     "SELECT ?p WHERE { wd:Q2512 p:P39 ?s . ?s ps:P39 ?p . ?s pq:P1366 wd:Q67597 }", "faithful"),
    ("What position that Kurt Georg Kiesinger held was replaced by Hans Ehard?",
     "SELECT ?p WHERE { wd:Q2512 p:P39 ?s . ?s ps:P39 ?p . ?s pq:P1365 wd:Q67597 }", "unsupported"),
    ("What was the position held by Alec Douglas-Home that replaces  Michael Stewart, Baron Stewart of Fulham?",
     "SELECT ?p WHERE { wd:Q128976 p:P39 ?s . ?s ps:P39 ?p . ?s pq:P1365 wd:Q333773 }", "faithful"),
    ("What was the position held by Alec Douglas-Home that replaces  Michael Stewart, Baron Stewart of Fulham?",
     "SELECT ?p WHERE { wd:Q128976 p:P39 ?s . ?s ps:P39 ?p . ?s pq:P1366 wd:Q333773 }", "unsupported"),
    # ... and with the answer as the verb's subject the statement is the replaced one's:
    # "Who replaced X as Y?" asks for X's *replaced by*; "as Y" is X's position
    ("Who replaced Lee Kuan Yew as the Prime Minister of Singapore?",
     "SELECT ?value WHERE { wd:Q131248 p:P39 ?s . ?s ps:P39 wd:Q866756 . ?s pq:P1366 ?value }", "faithful"),
    ("Who replaced Lee Kuan Yew as the Prime Minister of Singapore?",
     "SELECT ?value WHERE { wd:Q131248 p:P39 ?s . ?s ps:P39 wd:Q866756 . ?s pq:P1365 ?value }", "unsupported"),
    ("Who replaced Lee Kuan Yew as the Prime Minister of Singapore?",
     "SELECT ?value WHERE { wd:Q131248 p:P39 ?s . ?s ps:P39 wd:Q6581097 . ?s pq:P1366 ?value }", "unsupported"),
    ("When and with whom did Mairead Maguire win an award as Carl von Ossietzky Medaille",
     "SELECT ?w ?t WHERE { wd:Q157655 p:P166 ?s . ?s ps:P166 wd:Q605151 . ?s pq:P1706 ?w . ?s pq:P585 ?t }",
     "faithful"),
    # ... and a passive is not a noun phrase: the nominee is the subject of nominated for
    ("Who was nominated for King of the Hill in 1998?",
     "SELECT ?n WHERE { wd:Q1135966 p:P1411 ?s . ?s ps:P1411 ?n . ?s pq:P585 ?t "
     "FILTER ( contains ( YEAR ( ?t ) , '1998' ) ) }", "unsupported"),
    # a proper name written whole inside a longer label ("The Daily Show" of "The Daily Show
    # with Trevor Noah"; "Shivaji" below), but not a part of a longer name ("Teutonic" of "Teutonic Knights"
    # inside "Teutonic Order"); a numbered instance ("33rd Tony Awards") is tested above
    ("What is language for The Daily Show?",
     "SELECT ?a ?b WHERE { wd:Q824192 wdt:P364 ?a . wd:Q824192 wdt:P407 ?b }", "faithful"),
    ("Please tell me the Teutonic Knights' chivalric order.",
     "SELECT ?answer WHERE { wd:Q48189 wdt:P550 ?answer }", "unsupported"),

    # "when" of a state: its start and its end time answer it (not the end when the question
    # says it began)
    ("When was Glen McGrath a member of the Worcestershire County Cricket Club?",
     "SELECT ?a ?b WHERE { wd:Q1392178 p:P54 ?s . ?s ps:P54 wd:Q2725667 . ?s pq:P580 ?a . ?s pq:P582 ?b }",
     "faithful"),
    ("When did Seoul become a sister city with Tokyo?",
     "SELECT ?v WHERE { wd:Q8684 p:P190 ?s . ?s ps:P190 wd:Q1490 . ?s pq:P582 ?v }", "unsupported"),
    # a phrase on "become" restricts its complement; a phrase on another phrase restricts
    # that one's noun ("in Oregon" attached to "for")
    ("When did Seoul become a sister city with Tokyo?",
     "SELECT ?v WHERE { wd:Q8684 p:P190 ?s . ?s ps:P190 wd:Q1490 . ?s pq:P580 ?v }", "faithful"),
    ("What is the minimum age for compulsory education in Oregon?",
     "SELECT ?answer WHERE { wd:Q824 wdt:P3270 ?answer }", "faithful"),
    ("What is the minimum age for compulsory education in Oregon?",
     "SELECT ?answer WHERE { ?answer wdt:P3270 wd:Q824 }", "unsupported"),
    # a relative clause the parse left without a head is about the answer
    ("Who are the writers of the Sermon on the Mount, whose personal name is Emmanuel?",
     "SELECT ?answer WHERE { wd:Q51640 wdt:P50 ?answer . ?answer wdt:P735 wd:Q18001873 }", "faithful"),
    ("Who are the writers of the Sermon on the Mount, whose personal name is Emmanuel?",
     "SELECT ?answer WHERE { ?answer wdt:P50 wd:Q51640 . ?answer wdt:P735 wd:Q18001873 }", "unsupported"),
    # the object of a verb of getting names a property of its subject; "opposite of" is
    # symmetric
    ("What award did Saroj Khan achieve for working on Guru?",
     "SELECT ?a WHERE { wd:Q3473673 p:P166 ?s . ?s ps:P166 ?a . ?s pq:P1686 wd:Q1393668 }", "faithful"),
    ("What is the equivalent of hubris, the antonym of humility?",
     "SELECT ?answer WHERE { wd:Q735766 wdt:P460 ?answer . ?answer wdt:P461 wd:Q1186677 }", "faithful"),
    ("What is the equivalent of hubris, the antonym of humility?",
     "SELECT ?answer WHERE { wd:Q735766 wdt:P460 ?answer . ?answer wdt:P1889 wd:Q1186677 }", "unsupported"),
    # start and end time qualifiers: named by a start or end verb with a year of the question;
    # a time span asks for both ends
    ("Where did Mikhail Lomonosov finish his education in 1736?",
     "SELECT ?obj WHERE { wd:Q58720 p:P69 ?s . ?s ps:P69 ?obj . ?s pq:P582 ?x "
     "filter ( contains ( YEAR ( ?x ) , '1736' ) ) }", "faithful"),
    ("Where did Mikhail Lomonosov finish his education in 1736?",
     "SELECT ?obj WHERE { wd:Q58720 p:P69 ?s . ?s ps:P69 ?obj . ?s pq:P580 ?x "
     "filter ( contains ( YEAR ( ?x ) , '1736' ) ) }", "unsupported"),
    ("In which year range did Mehmed the Conqueror gained power as the sultan of the Ottoman Empire ?",
     "SELECT ?value1 ?value2 WHERE { wd:Q34503 p:P39 ?s . ?s ps:P39 wd:Q15315411 . ?s pq:P582 ?value1 . "
     "?s pq:P580 ?value2 }", "faithful"),
    # "..., which is the same as NAME2" (a pattern reading): said to be the same as
    ("What is the Christian name of Jean Rhys, which is the same as Jane?",
     "SELECT ?answer WHERE { wd:Q230598 wdt:P735 ?answer . ?answer wdt:P460 wd:Q1682564 }", "faithful"),
    ("What is the Christian name of Jean Rhys, which is the same as Jane?",
     "SELECT ?answer WHERE { wd:Q230598 wdt:P735 ?answer . ?answer wdt:P1889 wd:Q1682564 }", "unsupported"),
    # reduced relative clauses with a preposition (pattern readings); "written in" a language
    ("Name a codex written in Old English.",
     "SELECT ?sbj WHERE { ?sbj wdt:P407 wd:Q42365 . ?sbj wdt:P31 wd:Q213924 }", "faithful"),
    ("Name a codex written in Old English.",
     "SELECT ?sbj WHERE { ?sbj wdt:P495 wd:Q42365 . ?sbj wdt:P31 wd:Q213924 }", "unsupported"),
    ("Name someone working in Vancouver",
     "SELECT ?sbj WHERE { ?sbj wdt:P937 wd:Q24639 . ?sbj wdt:P31 wd:Q5 }", "faithful"),
    ("Name someone working in Vancouver",
     "SELECT ?sbj WHERE { ?sbj wdt:P19 wd:Q24639 . ?sbj wdt:P31 wd:Q5 }", "unsupported"),
    # "why did he resign" asks for the end cause
    ("When was George Reid elected as Member of the 30th parliament of the UK and why did he resign",
     "SELECT ?value1 ?value2 WHERE { wd:Q23352 p:P39 ?s . ?s ps:P39 wd:Q41582581 . ?s pq:P1534 ?value1 . "
     "?s pq:P2715 ?value2 }", "faithful"),
    ("When was George Reid elected as Member of the 30th parliament of the UK and why did he resign",
     "SELECT ?value1 ?value2 WHERE { wd:Q23352 p:P39 ?s . ?s ps:P39 wd:Q41582581 . ?s pq:P1366 ?value1 . "
     "?s pq:P2715 ?value2 }", "unsupported"),
    # a rate label ("beats per minute") is a noun, had by what it is of
    ("Which cover version has the highest beats per minute?",
     "SELECT ?ent WHERE { ?ent wdt:P31 wd:Q155171 . ?ent wdt:P1725 ?obj } ORDER BY DESC ( ?obj ) LIMIT 5",
     "faithful"),
    ("Which cover version has the highest beats per minute?",
     "SELECT ?ent WHERE { ?ent wdt:P31 wd:Q155171 . ?ent wdt:P2047 ?obj } ORDER BY DESC ( ?obj ) LIMIT 5",
     "unsupported"),
    # "start as a member of Y": the member's memberships are the subject's
    ("What year did Michael Lauudrup start as a member of Real Madrid C.F.?",
     "SELECT ?value WHERE { wd:Q188720 p:P54 ?s . ?s ps:P54 wd:Q8682 . ?s pq:P580 ?value }", "faithful"),
    ("What year did Michael Lauudrup start as a member of Real Madrid C.F.?",
     "SELECT ?value WHERE { wd:Q8682 p:P54 ?s . ?s ps:P54 wd:Q188720 . ?s pq:P580 ?value }", "unsupported"),
    # *issue* (alias "number") names fewer words of "the highest Strahler number" than
    # *maximum Strahler number*: it does not overrule it
    ("What river in Loire has the highest Strahler number?",
     "SELECT ?ent WHERE { ?ent wdt:P31 wd:Q4022 . ?ent wdt:P1548 ?obj . ?ent wdt:P131 wd:Q12569 } "
     "ORDER BY DESC ( ?obj ) LIMIT 5", "faithful"),
    ("What river in Loire has the highest Strahler number?",
     "SELECT ?ent WHERE { ?ent wdt:P31 wd:Q4022 . ?ent wdt:P433 ?obj . ?ent wdt:P131 wd:Q12569 } "
     "ORDER BY DESC ( ?obj ) LIMIT 5", "unsupported"),
    # ... but a property the unit's words name only through WordNet ("office" ~ "position")
    # is not overruled by every property that has the word itself
    ("What is the office of the head of the organization and the seat of the Commonwealth of Nations?",
     "SELECT ?a ?b WHERE { wd:Q7785 wdt:P2388 ?a . wd:Q7785 wdt:P159 ?b }", "faithful"),
    # "the field of profession for X": a chain of two noun phrases as well as one name
    ("What is the field of profession for Robert A. Heinlein?",
     "SELECT ?answer WHERE { wd:Q123078 wdt:P106 ?X . ?X wdt:P425 ?answer }", "faithful"),
    ("What is the field of profession for Robert A. Heinlein?",
     "SELECT ?answer WHERE { ?X wdt:P106 wd:Q123078 . ?X wdt:P425 ?answer }", "unsupported"),
    # "which has boroughs in Cotta": Cotta is one of its boroughs (contains the administrative
    # territorial entity, which Wikidata also calls "has boroughs")
    ("What is the birth city of Augustus III of Poland, which has boroughs in Cotta?",
     "SELECT ?answer WHERE { wd:Q53438 wdt:P19 ?answer . ?answer wdt:P150 wd:Q383195 }", "faithful"),
    ("What is the birth city of Augustus III of Poland, which has boroughs in Cotta?",
     "SELECT ?answer WHERE { wd:Q53438 wdt:P19 ?answer . wd:Q383195 wdt:P150 ?answer }", "unsupported"),
    # "elected" names the qualifier *elected in*, not *electoral district* ("electoral" only
    # stems like the doer noun "elector")
    ("What position does Jeremy Corbyn hold and when was he elected?",
     "SELECT ?value1 ?obj WHERE { wd:Q291169 p:P39 ?s . ?s ps:P39 ?obj . ?s pq:P2715 ?value1 . }",
     "faithful"),
    ("What position does Jeremy Corbyn hold and when was he elected?",
     "SELECT ?value1 ?obj WHERE { wd:Q291169 p:P39 ?s . ?s ps:P39 ?obj . ?s pq:P768 ?value1 . }",
     "unsupported"),
    # sorting by the class of the answer answers no superlative
    ("Name the ship class with the slow speed which is named after Mærsk Mc-Kinney Møller?",
     "SELECT ?ent WHERE { ?ent wdt:P31 wd:Q559026 . ?ent wdt:P31 ?obj . ?ent wdt:P138 wd:Q14493958 . } "
     "ORDER BY ASC(?obj) LIMIT 5", "intent_mismatch"),
    # "the NP1 of NAME1 that is the NP2 of NAME2": the answer is both
    ("Who is the eponym of Lake Eyre that also is the winner of the Founder's Medal?",
     "SELECT ?answer WHERE { wd:Q179970 wdt:P138 ?answer . ?answer wdt:P166 wd:Q26268774 }", "faithful"),
    ("Who is the eponym of Lake Eyre that also is the winner of the Founder's Medal?",
     "SELECT ?answer WHERE { ?answer wdt:P138 wd:Q179970 . ?answer wdt:P166 wd:Q26268774 }", "unsupported"),
    ("Which is the memoir that is the notable work of Hillary Clinton?",
     "SELECT ?obj WHERE { wd:Q6294 wdt:P800 ?obj . ?obj wdt:P31 wd:Q112983 }", "faithful"),
    ("Which is the memoir that is the notable work of Hillary Clinton?",
     "SELECT ?obj WHERE { ?obj wdt:P800 wd:Q6294 . ?obj wdt:P31 wd:Q112983 }", "unsupported"),
    # "the person that created X": the person did it
    ("Who is the person that created Twitter?",
     "SELECT ?answer WHERE { wd:Q918 wdt:P170 ?answer }", "faithful"),
    ("Who is the person that created Twitter?",
     "SELECT ?answer WHERE { ?answer wdt:P170 wd:Q918 }", "unsupported"),
    # "the conviction for X": what X was convicted of (the alias "conviction", not the
    # participle's label "convicted of" read as a relational noun)
    ("Which is the conviction for Sirhan Sirhan?", "SELECT ?answer WHERE { wd:Q297112 wdt:P1399 ?answer }",
     "faithful"),
    ("Which is the conviction for Sirhan Sirhan?", "SELECT ?answer WHERE { ?answer wdt:P1399 wd:Q297112 }",
     "unsupported"),
    # "For what film did X receive Y?": the answer is what the award was for (*for work*)
    ("For what film did Clark Gable receive the Academy Award for Best Actor?",
     "SELECT ?value WHERE { wd:Q71243 p:P166 ?s . ?s ps:P166 wd:Q103916 . ?s pq:P1686 ?value }", "faithful"),
    ("For what film did Clark Gable receive the Academy Award for Best Actor?",
     "SELECT ?value WHERE { wd:Q71243 p:P166 ?s . ?s ps:P166 wd:Q103916 . ?s pq:P805 ?value }", "unsupported"),
    # "the NP1 of NAME1 that VERBs NAME2": the statement's qualifier is the relative verb's
    ("What is the position of Benedict XVI that replaces John Paul II?",
     "SELECT ?obj WHERE { wd:Q2494 p:P39 ?s . ?s ps:P39 ?obj . ?s pq:P1365 wd:Q989 }", "faithful"),
    ("What is the position of Benedict XVI that replaces John Paul II?",
     "SELECT ?obj WHERE { ?obj p:P39 ?s . ?s ps:P39 wd:Q2494 . ?s pq:P1365 wd:Q989 }", "unsupported"),
    # a noun whose property name is the noun and a preposition: in the name's direction
    ("Which is the enclave within Oromia Region?", "SELECT ?answer WHERE { ?answer wdt:P501 wd:Q202107 }",
     "faithful"),
    ("Which is the enclave within Oromia Region?", "SELECT ?answer WHERE { wd:Q202107 wdt:P501 ?answer }",
     "unsupported"),
    # ... but only with that preposition on the noun: "the equivalent *of* hubris" keeps the
    # reading it had before that template (a name of P460 ending in another preposition would
    # otherwise take the word and fit nothing)
    ("What is the equivalent of hubris, the antonym of humility?",
     "SELECT ?answer WHERE { wd:Q735766 wdt:P460 ?answer . ?answer wdt:P461 wd:Q1186677 }", "faithful"),
    # a degree received at / from a place is an education there (educated at); the degree
    # is the statement's qualifier, not a place of education
    ("What degree did Jawaharlal Nehru receive from Trinity College and what was his major?",
     "SELECT ?value1 ?value2 WHERE { wd:Q1047 p:P69 ?s . ?s ps:P69 wd:Q332342 . ?s pq:P812 ?value1 . "
     "?s pq:P512 ?value2 }", "faithful"),
    ("What degree did Jawaharlal Nehru receive from Trinity College and what was his major?",
     "SELECT ?value1 ?value2 WHERE { wd:Q332342 p:P69 ?s . ?s ps:P69 wd:Q1047 . ?s pq:P812 ?value1 . "
     "?s pq:P512 ?value2 }", "unsupported"),
    # "X's marriage with Y", "the marriage of X and Y": spouse; "her" is the subject, the one
    # named item that is a verb's subject, though the question names two
    ("When did Lindsey Vonn end her marriage with Thomas Vonn?",
     "SELECT ?value WHERE { wd:Q10068 p:P26 ?s . ?s ps:P26 wd:Q354865 . ?s pq:P582 ?value }", "faithful"),
    ("When did Lindsey Vonn end her marriage with Thomas Vonn?",
     "SELECT ?value WHERE { wd:Q10068 p:P40 ?s . ?s ps:P40 wd:Q354865 . ?s pq:P582 ?value }", "unsupported"),
    ("When did the marriage of Jessica Lange and Paco Grande start and end?",
     "SELECT ?value1 ?value2 WHERE { wd:Q173585 p:P26 ?s . ?s ps:P26 wd:Q22673626 . ?s pq:P582 ?value1 . "
     "?s pq:P580 ?value2 }", "faithful"),
    ("Who is the consort of Mia Hamm, who is a member of the team Trenton Thunder?",
     "SELECT ?answer WHERE { wd:Q222086 wdt:P26 ?answer . ?answer wdt:P54 wd:Q3526064 }", "faithful"),
    ("Who is the consort of Mia Hamm, who is a member of the team Trenton Thunder?",
     "SELECT ?answer WHERE { wd:Q222086 wdt:P40 ?answer . ?answer wdt:P54 wd:Q3526064 }", "unsupported"),
    # "The X of Y is?" asks for the value
    ("The ISOCAT id of morpheme is?", "SELECT ?answer WHERE { wd:Q43249 wdt:P2263 ?answer }", "faithful"),
    ("The ISOCAT id of morpheme is?", "ASK WHERE { wd:Q43249 wdt:P2263 ?answer }", "intent_mismatch"),
    # a request that starts with "I need to know" asks for values
    ("I need to know Northern Dancer's Czech Jockey Club horse ID.",
     "SELECT ?answer WHERE { wd:Q1969034 wdt:P4472 ?answer }", "faithful"),
    ("I need to know Northern Dancer's Czech Jockey Club horse ID.",
     "ASK WHERE { wd:Q1969034 wdt:P4472 ?answer }", "intent_mismatch"),
    # "the name of a description" is answered by the thing described
    ("What is the name of the chemical compound that treats chickenpox?",
     "SELECT ?c WHERE { ?c wdt:P2175 wd:Q44727 . ?c wdt:P31 wd:Q11173 }", "faithful"),
    ("What is the name of the chemical compound that treats chickenpox?",
     "SELECT ?c WHERE { wd:Q44727 wdt:P2175 ?c . ?c wdt:P31 wd:Q11173 }", "unsupported"),
    ("What is the name of the capital city of South Australia",
     "SELECT ?c WHERE { wd:Q35715 wdt:P36 ?c . ?c wdt:P31 wd:Q515 }", "faithful"),
    ("What is the name of the capital city of South Australia",
     "SELECT ?c WHERE { ?c wdt:P36 wd:Q35715 . ?c wdt:P31 wd:Q515 }", "unsupported"),
    # a label's "(DEPRECATED)" note is no part of its name
    ("Who is the commander of Battle of Verdum?",
     "SELECT ?p WHERE { ?p wdt:P598 wd:Q130847 . ?p wdt:P31 wd:Q5 }", "faithful"),
    ("Who is the commander of Battle of Verdum?",
     "SELECT ?p WHERE { wd:Q130847 wdt:P598 ?p . ?p wdt:P31 wd:Q5 }", "unsupported"),
    # "measured by": measurement scale, in the doer's direction
    ("Name the state function measured by kelvin units that starts with letter T",
     "SELECT ?s WHERE { ?s wdt:P31 wd:Q230937 . ?s wdt:P1880 wd:Q11579 . ?s rdfs:label ?l . "
     "FILTER(STRSTARTS(LCASE(?l), 't')) }", "faithful"),
    ("Name the state function measured by kelvin units that starts with letter T",
     "SELECT ?s WHERE { ?s wdt:P31 wd:Q230937 . wd:Q11579 wdt:P1880 ?s . ?s rdfs:label ?l . "
     "FILTER(STRSTARTS(LCASE(?l), 't')) }", "unsupported"),
    # the subject reading of "award" stays next to the recipient one
    ("When was Fedor Tokarev awarded the Order of Suvorov, 2nd class?",
     "SELECT ?t WHERE { wd:Q535597 p:P166 ?s . ?s ps:P166 wd:Q21292821 . ?s pq:P585 ?t }", "faithful"),
    ("When was Fedor Tokarev awarded the Order of Suvorov, 2nd class?",
     "SELECT ?t WHERE { wd:Q21292821 p:P166 ?s . ?s ps:P166 wd:Q535597 . ?s pq:P585 ?t }", "unsupported"),
    # a two-word class name written "H of M" ("series of films" for film series)
    ("What series of films was produced by Mike Myers",
     "select distinct ?sbj where { ?sbj wdt:P162 wd:Q185724 . ?sbj wdt:P31 wd:Q24856 }", "faithful"),
    ("What series of films was produced by Mike Myers",
     "select distinct ?sbj where { ?sbj wdt:P162 wd:Q185724 . ?sbj wdt:P31 wd:Q11424 }", "unsupported"),
    # "X won Y" read from the award's side: winner(Y, X)
    ("Which Drama Desk Award did Lena Horne win?",
     "select distinct ?sbj where { ?sbj wdt:P1346 wd:Q112307 . ?sbj wdt:P31 wd:Q682154 }", "faithful"),
    ("Which Drama Desk Award did Lena Horne win?",
     "select distinct ?sbj where { wd:Q112307 wdt:P1346 ?sbj . ?sbj wdt:P31 wd:Q682154 }", "unsupported"),
    # the family name is the last word, not the end of the person's name
    ("Is Morgan Freeman's family name Freeman?", "ASK WHERE { wd:Q48337 wdt:P734 wd:Q9014839 }", "faithful"),
    # ... and a name inside a longer name is not taken for it
    ("Was Roman Empire followed by Western Roman Empire?",
     "ASK WHERE { wd:Q2277 wdt:P156 wd:Q42834 }", "faithful"),
    # a word in capitals names what it abbreviates
    ("Is the IDLH of the graphite less than 1500?",
     "ASK WHERE { wd:Q5309 wdt:P2129 ?obj filter ( ?obj < 1500.0 ) }", "faithful"),
    ("Is the IDLH of the graphite less than 1500?",
     "ASK WHERE { wd:Q5309 wdt:P2128 ?obj filter ( ?obj < 1500.0 ) }", "unsupported"),
    # a projected variable that nothing binds is no answer; COUNT(*) over one variable counts it
    ("When did the Ming dynasty dissolve?",
     "SELECT ?ming ?end WHERE { wd:Q9903 wdt:P576 ?end . }", "faithful"),
    ("How many countries are there in Europe?",
     "SELECT (COUNT(*) AS ?n) WHERE { ?c wdt:P30 wd:Q46 ; wdt:P31 wd:Q6256 . }", "faithful"),
    # "when" of an event: its point in time or start time, not its end
    ("When was the Battle of Gettysburg?", "SELECT ?t WHERE { wd:Q33132 wdt:P580 ?t }", "faithful"),
    ("When was the Battle of Gettysburg?", "SELECT ?t WHERE { wd:Q33132 wdt:P582 ?t }", "unsupported"),
    # "adopt" a currency
    ("Which countries adopted the Euro?",
     "SELECT ?c WHERE { ?c wdt:P31 wd:Q6256 ; wdt:P38 wd:Q4916 . }", "faithful"),
    ("Which countries adopted the Euro?",
     "SELECT ?c WHERE { ?c wdt:P31 wd:Q6256 . wd:Q4916 wdt:P38 ?c . }", "unsupported"),
    # a comparison of a count in HAVING
    ("Which countries have more than two official languages?",
     "SELECT ?c WHERE { ?c wdt:P31 wd:Q6256 ; wdt:P37 ?l } GROUP BY ?c HAVING (COUNT(?l) > 2)", "faithful"),
    ("Which countries have more than two official languages?",
     "SELECT ?c WHERE { ?c wdt:P31 wd:Q6256 ; wdt:P37 ?l } GROUP BY ?c HAVING (COUNT(?l) > 5)",
     "intent_mismatch"),
    # the noun of a property name after the name's verb or preposition: its "of" gives the value
    ("What is located in the administrative territorial entity of Nicaragua?",
     "SELECT ?a WHERE { ?a wdt:P131 wd:Q811 }", "faithful"),
    ("What is located in the administrative territorial entity of Nicaragua?",
     "SELECT ?a WHERE { wd:Q811 wdt:P131 ?a }", "unsupported"),
    ("What is the municipality of the Netherlands that contains settlement of Amsterdam?",
     "SELECT ?a WHERE { ?a wdt:P1383 wd:Q727 . ?a wdt:P31 wd:Q2039348 }", "faithful"),
    ("What is the municipality of the Netherlands that contains settlement of Amsterdam?",
     "SELECT ?a WHERE { wd:Q727 wdt:P1383 ?a . ?a wdt:P31 wd:Q2039348 }", "unsupported"),
    # an abbreviation names only what it spells: "U.S." is not the item "A.U.S.A."
    ("Was U.S. president Jackson involved in a war?", "ASK { wd:Q11817 wdt:P607 ?w }", "faithful"),
    # a comparative between two items compares their values of the property it grades
    ("Is Lake Baikal bigger than the Great Bear Lake?",
     "ASK { wd:Q5513 wdt:P2046 ?a . wd:Q5525 wdt:P2046 ?b . FILTER(?a > ?b) }", "faithful"),
    ("Is Lake Baikal bigger than the Great Bear Lake?",
     "ASK { wd:Q5513 wdt:P2046 ?a . wd:Q5525 wdt:P2046 ?b . FILTER(?a < ?b) }", "unsupported"),
    ("Is Lake Baikal bigger than the Great Bear Lake?",
     "ASK { wd:Q5525 wdt:P2046 ?a . wd:Q5513 wdt:P2046 ?b . FILTER(?a > ?b) }", "unsupported"),
    ("Is Lake Baikal bigger than the Great Bear Lake?",
     "ASK { wd:Q5513 wdt:P2043 ?a . wd:Q5525 wdt:P2043 ?b . FILTER(?a > ?b) }", "unsupported"),
    ("Was the Cuban Missile Crisis earlier than the Bay of Pigs Invasion?",
     "ASK { wd:Q128160 wdt:P585 ?a . wd:Q191721 wdt:P585 ?b . FILTER(?a < ?b) }", "faithful"),
    ("Was the Cuban Missile Crisis earlier than the Bay of Pigs Invasion?",
     "ASK { wd:Q128160 wdt:P585 ?a . wd:Q191721 wdt:P585 ?b . FILTER(?a > ?b) }", "unsupported"),
    # "X is a type of Y": a chain of parent taxon (or subclass of), not one step
    ("Are tree frogs a type of amphibian?", "ASK { wd:Q53696 wdt:P171* wd:Q10908 }", "faithful"),
    ("Are tree frogs a type of amphibian?", "ASK { wd:Q10908 wdt:P171* wd:Q53696 }", "unsupported"),
    ("Are tree frogs a type of amphibian?", "ASK { wd:Q53696 wdt:P171 wd:Q10908 }", "unsupported"),
    # a "daughter" is female: a query may say so, and may not say male
    ("Who is the daughter of Robert Kennedy married to?",
     "SELECT ?s WHERE { wd:Q25310 wdt:P40 ?d . ?d wdt:P21 wd:Q6581072 . ?d wdt:P26 ?s }", "faithful"),
    ("Who is the daughter of Robert Kennedy married to?",
     "SELECT ?s WHERE { wd:Q25310 wdt:P40 ?d . ?d wdt:P21 wd:Q6581097 . ?d wdt:P26 ?s }", "unsupported"),
    # "the NP1 of all NP2 PREP NAME" (a pattern reading: the corpus reads "all" as a pronoun);
    # the question's one answer may be any column of the query, the others extra information
    ("Give me the capitals of all countries in Africa.",
     "SELECT ?country ?capital WHERE { ?country wdt:P30 wd:Q15 ; wdt:P31 wd:Q6256 ; wdt:P36 ?capital . }",
     "faithful"),
    ("Give me the capitals of all countries in Africa.",
     "SELECT ?country ?capital WHERE { ?country wdt:P30 wd:Q15 ; wdt:P31 wd:Q6256 . ?capital wdt:P36 ?country . }",
     "unsupported"),
    ("Give me the capitals of all countries in Africa.",  # name columns do not count
     "SELECT ?country ?countryLabel ?capital ?capitalLabel WHERE { ?country wdt:P31 wd:Q6256 ; "
     "wdt:P30 wd:Q15 ; wdt:P36 ?capital . ?country rdfs:label ?countryLabel . "
     "?capital rdfs:label ?capitalLabel . }", "faithful"),
    ("Give me the birthdays of all actors of the television show Charmed.",
     "SELECT ?actor ?birthday WHERE { wd:Q162371 wdt:P161 ?actor . ?actor wdt:P569 ?birthday . }", "faithful"),
    ("Give me the birthdays of all actors of the television show Charmed.",
     "SELECT ?actor ?birthday WHERE { ?actor wdt:P161 wd:Q162371 . ?actor wdt:P569 ?birthday . }", "unsupported"),
    ("Give me the birthdays of all actors of the television show Charmed.",
     "SELECT ?actor ?date WHERE { wd:Q162371 wdt:P161 ?actor . ?actor wdt:P570 ?date . }", "unsupported"),
    # ... but a name column never answers alone ("starts with" must not make "start time" the
    # answer's property)
    ("Name a kind of leather that starts with letter S",
     "SELECT DISTINCT ?sbj ?sbj_label WHERE { ?sbj wdt:P580 wd:Q286 . ?sbj rdfs:label ?sbj_label . "
     "FILTER (STRSTARTS(LCASE(?sbj_label), 's')) FILTER (LANG(?sbj_label) = 'en') } LIMIT 25", "unsupported"),
    # "How many people live in X?" asks for the population of X (a pattern reading: the
    # corpus's readings attach "in X" to "how")
    ("How many people live in the capital of Australia?",
     "SELECT DISTINCT ?n WHERE { wd:Q408 wdt:P36 ?c . ?c wdt:P1082 ?n . }", "faithful"),
    ("How many people live in the capital of Australia?",
     "SELECT DISTINCT ?n WHERE { ?c wdt:P36 wd:Q408 . ?c wdt:P1082 ?n . }", "unsupported"),
    ("How many people live in the capital of Australia?",
     "SELECT DISTINCT ?n WHERE { wd:Q408 wdt:P36 ?c . ?c wdt:P1128 ?n . }", "unsupported"),
    ("How many people lived in Argenteuil in 1856?",
     "SELECT ?obj WHERE { wd:Q181946 p:P1082 ?s . ?s ps:P1082 ?obj . ?s pq:P585 ?x "
     "FILTER(CONTAINS(YEAR(?x), '1856')) }", "faithful"),
    ("How many people lived in Argenteuil in 1856?",
     "SELECT ?obj WHERE { wd:Q181946 p:P1082 ?s . ?s ps:P1082 ?obj . ?s pq:P585 ?x "
     "FILTER(CONTAINS(YEAR(?x), '1865')) }", "unsupported"),
    # ... also with each capital next to its population (the population column answers); a
    # value that counts nothing does not
    ("How many people live in the capital of Australia?",
     "SELECT ?c ?n WHERE { wd:Q408 wdt:P36 ?c . ?c wdt:P1082 ?n . }", "faithful"),
    ("How many people live in the capital of Australia?",
     "SELECT ?c ?a WHERE { wd:Q408 wdt:P36 ?c . ?c wdt:P2046 ?a . }", "intent_mismatch"),
    # a river flows through the places it is in (verb_through_place); a verb linked through a
    # name that ends in a preposition ("flows into", the mouth) needs that preposition
    ("Through which countries does the Yenisei river flow?",
     "SELECT ?c WHERE { wd:Q78707 wdt:P17 ?c }", "faithful"),
    ("Through which countries does the Yenisei river flow?",
     "SELECT ?c WHERE { wd:Q78707 wdt:P403 ?c }", "unsupported"),
    ("Which rivers flow into the North Sea?",
     "SELECT ?r WHERE { ?r wdt:P403 wd:Q1693 }", "faithful"),
    # "movie" is Wikidata's "film": a movie character is a *film character*
    ("Name a movie character performed by Al Pacino",
     "SELECT ?c WHERE { ?c wdt:P175 wd:Q41163 . ?c wdt:P31 wd:Q15773347 }", "faithful"),
    ("Name a movie character performed by Al Pacino",
     "SELECT ?c WHERE { ?c wdt:P175 wd:Q41163 . ?c wdt:P31 wd:Q5 }", "unsupported"),
    # a superlative adjective grades a thing through a property the lexicon names for it
    # ("high": height, elevation above sea level); the ORDER BY key is some value of it
    ("What is the highest mountain in Germany?",
     "SELECT ?uri WHERE { ?uri wdt:P31 wd:Q8502 . ?uri wdt:P2044 ?e . ?uri wdt:P17 wd:Q183 } "
     "ORDER BY DESC(?e) LIMIT 1", "faithful"),
    ("What is the highest mountain in Germany?",
     "SELECT ?uri WHERE { ?uri wdt:P31 wd:Q8502 . ?uri wdt:P2046 ?e . ?uri wdt:P17 wd:Q183 } "
     "ORDER BY DESC(?e) LIMIT 1", "unsupported"),
    ("What is the highest mountain in Germany?",
     "SELECT ?uri WHERE { ?uri wdt:P31 wd:Q8502 . ?uri wdt:P2044 ?e . ?uri wdt:P17 wd:Q183 } "
     "ORDER BY ASC(?e) LIMIT 1", "intent_mismatch"),
    # "how ADJ is X" asks for the value of the property the adjective grades
    ("How tall is Michael Jordan?", "SELECT ?h WHERE { wd:Q41421 wdt:P2048 ?h }", "faithful"),
    ("How tall is Michael Jordan?", "SELECT ?h WHERE { wd:Q41421 wdt:P2067 ?h }", "unsupported"),
    ("How tall is Michael Jordan?", "SELECT ?h WHERE { ?h wdt:P2048 wd:Q41421 }", "unsupported"),
    # an instance of a subclass of film is a film: instance of / subclass of* answers "films"
    ("Give me all Danish films.",
     "SELECT ?uri WHERE { ?uri wdt:P31/wdt:P279* wd:Q11424 . ?uri wdt:P495 wd:Q35 }", "faithful"),
    ("Give me all Danish films.",
     "SELECT ?uri WHERE { ?t wdt:P279* wd:Q11424 . ?uri wdt:P31 ?t . ?uri wdt:P495 wd:Q35 }", "faithful"),
    ("Give me all Danish films.",
     "SELECT ?uri WHERE { ?uri wdt:P279* wd:Q11424 . ?uri wdt:P495 wd:Q35 }", "unsupported"),
    ("Give me all Danish films.",
     "SELECT ?uri WHERE { ?uri wdt:P31/wdt:P279* wd:Q5 . ?uri wdt:P495 wd:Q35 }", "unsupported"),
    # "X starred in Y": Y has X as a cast member (the lexicon's star / act entries)
    ("what films has gerard butler starred in?",
     "SELECT ?x WHERE { ?x wdt:P161 wd:Q169982 . ?x wdt:P31/wdt:P279* wd:Q11424 }", "faithful"),
    ("what films has gerard butler starred in?",
     "SELECT ?x WHERE { wd:Q169982 wdt:P161 ?x . ?x wdt:P31/wdt:P279* wd:Q11424 }", "unsupported"),
    # the reading splits a name the question writes ("molly" a name, "ringwald" an unknown
    # adjective): a query that drops it still ignores what the question names
    ("what movies is molly ringwald in?", "SELECT ?x WHERE { ?x wdt:P31/wdt:P279* wd:Q11424 }", "weaker"),
    # "where is X?": a place of X itself (place_of, the lexicon's ANY list of "where" properties)
    ("where is mount whitney?", "SELECT ?x WHERE { wd:Q235539 wdt:P131 ?x }", "faithful"),
    ("where is mount whitney?", "SELECT ?x WHERE { ?x wdt:P131 wd:Q235539 }", "unsupported"),
    ("where was the battle of shiloh?", "SELECT ?x WHERE { wd:Q943277 wdt:P276 ?x }", "faithful"),
    ("where is somalia located?", "SELECT ?x WHERE { wd:Q1045 wdt:P30 ?x }", "faithful"),
    # ... not in a reading that leaves "born" attached to nothing ("where was Bach, born")
    ("Where was Bach born?", "SELECT ?x WHERE { wd:Q1339 wdt:P17 ?x }", "unsupported"),
    # "battle of" is no prefix that names *Battle of Yarmouk*
    ("where was the battle of shiloh?", "SELECT ?x WHERE { wd:Q194226 wdt:P276 ?x }", "unsupported"),
    # "what college": higher education institution (colleges and universities are subclasses);
    # "go to college": educated at the college gone to, which is where
    ("what college did matt lauer attend?",
     "SELECT ?x WHERE { wd:Q1100609 wdt:P69 ?x . ?x wdt:P31/wdt:P279* wd:Q38723 }", "faithful"),
    ("where did lee corso go to college?",
     "SELECT ?x WHERE { wd:Q6513335 wdt:P69 ?x . ?x wdt:P31/wdt:P279* wd:Q38723 }", "faithful"),
    ("where did lee corso go to college?",
     "SELECT ?x WHERE { wd:Q6513335 wdt:P69 ?x . ?x wdt:P31/wdt:P279* wd:Q5 }", "unsupported"),
    ("what year did edgar allan poe go to college?",
     "SELECT ?x WHERE { wd:Q16867 p:P69 ?p . ?p ps:P69 ?y . ?p pq:P580 ?x . "
     "?y wdt:P31/wdt:P279* wd:Q38723 }", "faithful"),
    # "X played / appeared in Y": cast member(Y, X)
    ("what movies did madonna appear in?",
     "SELECT ?x WHERE { ?x wdt:P161 wd:Q1744 . ?x wdt:P31/wdt:P279* wd:Q11424 }", "faithful"),
    # a query that drops "movies" is weaker, though an alias of cast member ("film starring")
    # has the word: only the label counts
    ("what movies did angelina jolie star in?", "SELECT ?x WHERE { ?x wdt:P161 wd:Q13909 }", "weaker"),
    # "individuals" says no more than "people" about the answer
    ("Who are the distinct individuals who were born in Almería Province and died in a Nazi "
     "concentration camp?", "SELECT DISTINCT ?p WHERE { ?p wdt:P19 wd:Q81802 ; wdt:P20 ?d . "
     "?d wdt:P31 wd:Q328468 }", "faithful"),
    ("what movies did madonna appear in?",
     "SELECT ?x WHERE { wd:Q1744 wdt:P161 ?x . ?x wdt:P31/wdt:P279* wd:Q11424 }", "unsupported"),
    ("what is the political system of nigeria?", "SELECT ?x WHERE { wd:Q1033 wdt:P122 ?x }", "faithful"),
    ("what is the money of spain called?", "SELECT ?x WHERE { wd:Q29 wdt:P38 ?x }", "faithful"),
    ("who is the leader of japan?", "SELECT ?x WHERE { wd:Q17 wdt:P6 ?x }", "faithful"),
    ("who is the leader of japan?", "SELECT ?x WHERE { ?x wdt:P6 wd:Q17 }", "unsupported"),
    # names the shared labels lack (axioms/lexicons/names.yaml)
    ("Give me the currency of China.", "SELECT ?x WHERE { wd:Q148 wdt:P38 ?x }", "faithful"),
    ("Give me the currency of China.", "SELECT ?x WHERE { wd:Q17 wdt:P38 ?x }", "unsupported"),
    # what a place uses or speaks (noun_used_in_place, verb_people_place)
    ("what currency is used in hungary?", "SELECT ?x WHERE { wd:Q28 wdt:P38 ?x }", "faithful"),
    ("what currency is used in hungary?", "SELECT ?x WHERE { ?x wdt:P38 wd:Q28 }", "unsupported"),
    ("what currency do they accept in kenya?", "SELECT ?x WHERE { ?x wdt:P38 wd:Q114 }", "unsupported"),
    ("what currency does thailand use?", "SELECT ?x WHERE { wd:Q869 wdt:P38 ?x }", "faithful"),
    ("what currency does thailand use?", "SELECT ?x WHERE { wd:Q869 wdt:P37 ?x }", "unsupported"),
    ("what do you speak in singapore?", "SELECT ?x WHERE { wd:Q334 wdt:P37 ?x }", "faithful"),
    ("what do you speak in singapore?", "SELECT ?x WHERE { wd:Q334 wdt:P38 ?x }", "unsupported"),
    ("what language do people speak in iran?", "SELECT ?x WHERE { wd:Q794 wdt:P2936 ?x }", "faithful"),
    ("what language do brazil speak?", "SELECT ?x WHERE { wd:Q155 wdt:P37 ?x }", "faithful"),
    # a statement that held in the year the question writes: its start at or before it, its
    # end at or after it
    ("who was the leader of the soviet union in 1945?", _IN_YEAR % (1946, 1945), "faithful"),
    ("who was the leader of the soviet union in 1945?", _IN_YEAR % (1947, 1946), "unsupported"),
    ("who was the leader of the soviet union in 1945?", _IN_YEAR.replace("<", ">") % (1946, 1945),
     "unsupported"),
    ("who was the leader of the soviet union in 1945?",
     "SELECT ?x WHERE { wd:Q15180 p:P6 ?p . ?p ps:P6 ?x . ?p pq:P580 ?y . "
     "FILTER (?y < \"1946-01-01T00:00:00Z\"^^xsd:dateTime) }", "unsupported"),
    ("who was the leader of the soviet union in 1945?",
     "SELECT ?x WHERE { wd:Q15180 p:P6 ?p . ?p ps:P6 ?x . ?p pq:P580 ?y . ?p pq:P582 ?z . "
     "FILTER ((YEAR(?y) <= 1945) && (YEAR(?z) >= 1945)) }", "faithful"),
    # "play" as cast member or voice actor, in a work or in some work (verb_object_role)
    ("who played emperor palpatine?",
     "SELECT ?x WHERE { ?p p:P161 ?y . ?y ps:P161 ?x . ?y pq:P453 wd:Q51770 }", "faithful"),
    # ... the character's name is still what the question asks about
    ("who played emperor palpatine?", "SELECT ?x WHERE { ?p p:P161 ?y . ?y ps:P161 ?x }", "weaker"),
    # a search engine's name at the end of a question names nothing the query must use
    ("what language do they speak in iceland wikipedia?", "SELECT ?x WHERE { wd:Q189 wdt:P37 ?x }",
     "faithful"),
    ("who plays stewie griffin on family guy?",
     "SELECT ?x WHERE { wd:Q5930 p:P725 ?p . ?p ps:P725 ?x . ?p pq:P453 wd:Q837909 }", "faithful"),
    ("who plays stewie griffin on family guy?",
     "SELECT ?x WHERE { ?x p:P725 ?p . ?p ps:P725 wd:Q5930 . ?p pq:P453 wd:Q837909 }", "unsupported"),
    ("what movies does matt damon play in?",
     "SELECT ?x WHERE { ?x wdt:P161 wd:Q175535 . ?x wdt:P31/wdt:P279* wd:Q11424 }", "faithful"),
    # "what did X do?": occupation (activity_of, through the lexicon word "activity")
    ("what does tim gunn do for a living?", "SELECT ?x WHERE { wd:Q978646 wdt:P106 ?x }", "faithful"),
    ("what does tim gunn do for a living?", "SELECT ?x WHERE { wd:Q978646 wdt:P27 ?x }", "unsupported"),
    ("what did robert koch do?", "SELECT ?x WHERE { ?x wdt:P106 wd:Q37193 }", "unsupported"),
    # what to see or do in a place: a tourist attraction there (verb_sight_in_place,
    # activity_in_place); a place the query leaves out is a name it ignores
    ("what can you visit in london?",
     "SELECT ?x WHERE { ?x wdt:P31/wdt:P279* wd:Q570116 . ?x wdt:P131 wd:Q84 }", "faithful"),
    ("what can you visit in london?", "SELECT ?x WHERE { ?x wdt:P31/wdt:P279* wd:Q570116 }", "weaker"),
    ("what is there to do in palm springs?",
     "SELECT ?x WHERE { ?x wdt:P31/wdt:P279* wd:Q570116 . ?x wdt:P131 wd:Q488004 }", "faithful"),
    ("what is there to do in palm springs?",
     "SELECT ?x WHERE { ?x wdt:P31/wdt:P279* wd:Q570116 . wd:Q488004 wdt:P131 ?x }", "unsupported"),
    # a yes/no value question over a count named "number of W W" or a possessive
    ("Are the number of platform tracks of the Times Square station equal to 1.2?",
     "ASK { wd:Q960355 wdt:P1103 ?obj FILTER(?obj = 1.2) }", "faithful"),
    ("Are the number of platform tracks of the Times Square station equal to 1.2?",
     "ASK { wd:Q960355 wdt:P1103 ?obj FILTER(?obj > 1.2) }", "unsupported"),
    ("Is Graham Mink's total career points equal to 0?",
     "ASK { wd:Q1541940 wdt:P6544 ?obj FILTER(?obj = 0) }", "faithful"),
    ("Is Graham Mink's total career points equal to 0?",
     "ASK { wd:Q1541940 wdt:P6544 ?obj FILTER(?obj = 10) }", "unsupported"),
    # the currency as the value of what it is for (noun_value_for, lexicon only)
    ("Which is the micronation for the renminbi currency?",
     "SELECT ?s WHERE { ?s wdt:P38 wd:Q39099 . ?s wdt:P31 wd:Q188443 }", "faithful"),
    ("Which is the micronation for the renminbi currency?",
     "SELECT ?s WHERE { wd:Q39099 wdt:P38 ?s . ?s wdt:P31 wd:Q188443 }", "unsupported"),
    ('What is the Deezer ID for the album "Kind of Blue"?',
     "SELECT ?x WHERE { ?x wdt:P2723 wd:Q283221 }", "unsupported"),
    # a first name written short, a long name's distinctive tail
    ("What is LNB ID of Ray Kurzweil ?", "SELECT ?x WHERE { wd:Q298341 wdt:P1368 ?x }", "faithful"),
    ("What is LNB ID of Ray Kurzweil ?", "SELECT ?x WHERE { ?x wdt:P1368 wd:Q298341 }", "unsupported"),
    ("What is the manufacturer of F-16 Fighting Falcon?", "SELECT ?x WHERE { wd:Q100026 wdt:P176 ?x }",
     "faithful"),
    # ... not a title after a comma: "Duke of Cambridge" names no *Prince William, Duke of Cambridge*
    ("When did Prince William become a Duke of Cambridge?",
     "SELECT ?v WHERE { wd:Q36812 p:P97 ?s . ?s ps:P97 wd:Q836810 . ?s pq:P580 ?v }", "faithful"),
    # "state" and "book" name any of their classes (lexicon, ANY)
    ("what state was theodore roosevelt from?",
     "SELECT ?x WHERE { wd:Q33866 p:P19 ?p . ?p ps:P19 ?x . ?x wdt:P31 wd:Q107390 . }", "faithful"),
    ("what books did aristotle wrote?",
     "SELECT ?x WHERE { ?x wdt:P31/wdt:P279* wd:Q47461344 . ?x wdt:P50 wd:Q868 . }", "faithful"),
    ("what books did aristotle wrote?",
     "SELECT ?x WHERE { ?x wdt:P31/wdt:P279* wd:Q47461344 . wd:Q868 wdt:P50 ?x . }", "unsupported"),
    # a name within a linked class's name is accounted for ("United States states")
    ("What is the largest state in the United States?",
     "SELECT ?uri WHERE { ?uri wdt:P31 wd:Q35657 . ?uri wdt:P2046 ?area . } ORDER BY DESC(?area) LIMIT 1",
     "faithful"),
    # a query without any item drops the names the question writes
    ("what movies does tupac act in?", "SELECT ?x WHERE { ?x wdt:P31/wdt:P279* wd:Q11424 . }", "weaker"),
    ("in which city was president kennedy killed?", "SELECT ?x WHERE { ?p wdt:P131 ?x . }", "weaker"),
    # ... and so does one without an item for a name of two words the question writes (the
    # character, though no label in the shared file names it)
    ("who plays riley finn on buffy the vampire slayer?",
     "SELECT ?x WHERE { wd:Q183513 p:P161 ?p . ?p ps:P161 ?x . }", "weaker"),
    # ... but a word of a linked property's names is no name ("URL", an alias of official website)
    ('Which items have an official website URL that contains the string "twitter"?',
     'SELECT ?item WHERE { ?item wdt:P856 ?w . FILTER(CONTAINS(LCASE(STR(?w)), "twitter")) }', "faithful"),
    ("who played maxie jones on general hospital?",
     "SELECT ?x WHERE { wd:Q1136370 p:P161 ?p . ?p ps:P161 ?x . ?p pq:P453 wd:Q6795519 . }", "faithful"),
    ("where was the battle of antietam creek?", "SELECT ?x WHERE { wd:Q719252 wdt:P276 ?x . }", "faithful"),
    ("where is whistler mountain located?", "SELECT ?x WHERE { wd:Q2063471 wdt:P131 ?x . }", "faithful"),
    ("where is whistler mountain located?", "SELECT ?x WHERE { ?x wdt:P131 wd:Q2063471 . }", "unsupported"),
    # a person's name that the parse splits into a name and an unknown noun ("kane") names
    # no occupation; a position whose word the parse does not know still does
    ("who is chelsea kane?", "SELECT ?x WHERE { ?x wdt:P106 wd:Q205794 . }", "unsupported"),
    ("who is michelle obama?", "SELECT ?x WHERE { ?x wdt:P106 wd:Q13133 . }", "unsupported"),
    # the passive "money is used in X" with the alias *used money* of currency: the place is
    # the subject; the active "what kind of money does X use?" keeps the verb's subject
    ("what money is used in ukraine?", "SELECT ?x WHERE { wd:Q212 wdt:P38 ?x . }", "faithful"),
    ("what money is used in ukraine?", "SELECT ?x WHERE { ?x wdt:P38 wd:Q212 . }", "unsupported"),
    ("what kind of money does chile use?", "SELECT ?x WHERE { wd:Q298 wdt:P38 ?x . }", "faithful"),
    # each alternative of a property alternation must be something the question names
    ("who are betty white's parents?", "SELECT ?x WHERE { wd:Q373895 wdt:P22|wdt:P25 ?x . }", "faithful"),
    ("who are betty white's parents?", "SELECT ?x WHERE { wd:Q373895 wdt:P1059|wdt:P25 ?x . }",
     "unsupported"),
    # "die of" is cause of death; place and date of death say "died in", "died on"
    ("what did gerald ford die of?", "SELECT ?x WHERE { wd:Q9582 wdt:P509 ?x . }", "faithful"),
    ("what did gerald ford die of?", "SELECT ?x WHERE { wd:Q9582 wdt:P20 ?x . }", "unsupported"),
    ("what did gerald ford die of?", "SELECT ?x WHERE { wd:Q9582 wdt:P570 ?x . }", "unsupported"),
    # a lexicon word of several properties ("language") with one of them written in full
    ("what is the official language in china?", "SELECT ?x WHERE { wd:Q148 wdt:P37 ?x . }", "faithful"),
    ("what is the official language in china?", "SELECT ?x WHERE { wd:Q148 wdt:P103 ?x . }",
     "unsupported"),
    # "government" is not the doer "governor" (an alias of head of government)
    ("what kind of government is china?", "SELECT ?x WHERE { wd:Q148 wdt:P122 ?x . }", "faithful"),
    ("what kind of government is china?", "SELECT ?x WHERE { wd:Q148 wdt:P6 ?x . }", "unsupported"),
    # a region written after a place says which place is meant ("london england"); the
    # place itself is not to be dropped
    ("what time zone is it in london england?", "SELECT ?x WHERE { wd:Q84 wdt:P421 ?x . }", "faithful"),
    ("who was governor of texas in 2003?",
     _IN_YEAR.replace("wd:Q15180 p:P6 ?p . ?p ps:P6 ?x", "?x p:P39 ?p . ?p ps:P39 wd:Q5589725")
     % ("2004", "2003"), "faithful"),
    # an alternative of an alternation that the question relates the other way round: the
    # parents' *child* is X, not X's child
    ("who are paul revere's parents?", "SELECT ?x WHERE { wd:Q327071 wdt:P22|wdt:P40 ?x . }",
     "unsupported"),
    ("who are paul revere's parents?", "SELECT ?x WHERE { wd:Q327071 wdt:P22|wdt:P25 ?x . }", "faithful"),
    # "what kind / type of N" is answered with the N (the currency, not a kind of currency)
    ("what type of currency is used in the united kingdom?", "SELECT ?x WHERE { wd:Q145 wdt:P38 ?x . }",
     "faithful"),
    ("what type of currency is used in the united kingdom?", "SELECT ?x WHERE { ?x wdt:P38 wd:Q145 . }",
     "unsupported"),
    ("what kind of currency does cuba use?", "SELECT ?x WHERE { wd:Q241 wdt:P38 ?x . }", "faithful"),
    ("what kind of currency does cuba use?", "SELECT ?x WHERE { wd:Q241 wdt:P37 ?x . }", "unsupported"),
    # ... not "form": "the legal form of sole proprietorship" is no sole proprietorship
    ("Which is the legal form of sole proprietorship?", "SELECT ?x WHERE { ?x wdt:P31 wd:Q2912172 . }",
     "unsupported"),
    # ... and "government" in "government system" is not the doer "governor"
    ("what kind of government system does canada have?", "SELECT ?x WHERE { wd:Q16 wdt:P6 ?x . }",
     "unsupported"),
    # a pattern reading's unknown-word verb "use" read as the grammar's _use_v_1
    ("what currency does senegal use?", "SELECT ?x WHERE { wd:Q1041 wdt:P38 ?x . }", "faithful"),
    ("what currency does senegal use?", "SELECT ?x WHERE { ?x wdt:P38 wd:Q1041 . }", "unsupported"),
    # the people of a country, said by a demonym, speak / use what the country has
    ("what do egyptians speak?", "SELECT ?x WHERE { wd:Q79 wdt:P37 ?x . }", "faithful"),
    ("what do egyptians speak?", "SELECT ?x WHERE { wd:Q79 wdt:P103 ?x . }", "unsupported"),
    ("what language do australian people speak?", "SELECT ?x WHERE { wd:Q408 wdt:P37 ?x . }", "faithful"),
    ("what money do japanese use?", "SELECT ?x WHERE { wd:Q17 wdt:P38 ?x . }", "faithful"),
    ("what money do japanese use?", "SELECT ?x WHERE { ?x wdt:P38 wd:Q17 . }", "unsupported"),
    # "X is in a time zone"
    ("what timezone is minneapolis in?", "SELECT ?x WHERE { wd:Q36091 wdt:P421 ?x . }", "faithful"),
    ("what timezone is minneapolis in?", "SELECT ?x WHERE { ?x wdt:P421 wd:Q36091 . }", "unsupported"),
    # a form of government that a country has or uses
    ("what form of government does greece use?", "SELECT ?x WHERE { wd:Q41 wdt:P122 ?x . }", "faithful"),
    ("what form of government does greece use?", "SELECT ?x WHERE { ?x wdt:P122 wd:Q41 . }", "unsupported"),
    # a place named inside a longer place name is not that place ("new mexico")
    ("what timezone is new mexico currently in?", "SELECT ?x WHERE { wd:Q1522 wdt:P421 ?x . }", "faithful"),
    ("what timezone is new mexico currently in?", "SELECT ?x WHERE { wd:Q96 wdt:P421 ?x . }", "unsupported"),
    # ... but a title is part of the name it stands before
    ("what school did sir isaac newton go to?", "SELECT ?x WHERE { wd:Q935 wdt:P69 ?x . }", "faithful"),
    ("where was saint paul from?", "SELECT ?x WHERE { wd:Q9200 wdt:P19 ?x . }", "faithful"),
    # where a river begins and ends
    ("where does the jordan river begin?", "SELECT ?x WHERE { wd:Q40059 wdt:P885 ?x . }", "faithful"),
    ("where does the jordan river begin?", "SELECT ?x WHERE { wd:Q40059 wdt:P403 ?x . }", "unsupported"),
    ("where does the shannon river end?", "SELECT ?x WHERE { wd:Q192820 wdt:P403 ?x . }", "faithful"),
    # the class *river* for "the jordan river" ignores the name
    ("where does the jordan river begin?", "SELECT ?x WHERE { wd:Q4022 wdt:P885 ?x . }", "weaker"),
    # "company" names company or business (ANY)
    ("Which company developed Skype?", "SELECT ?x WHERE { wd:Q40984 wdt:P178 ?x . ?x wdt:P31 wd:Q4830453 . }",
     "faithful"),
    ("Which company developed Skype?", "SELECT ?x WHERE { wd:Q40984 wdt:P178 ?x . ?x wdt:P31 wd:Q431289 . }",
     "unsupported"),
    # the currency one takes to a country
    ("what currency should i take to jamaica?", "SELECT ?x WHERE { wd:Q766 wdt:P38 ?x . }", "faithful"),
    ("what currency should i take to jamaica?", "SELECT ?x WHERE { ?x wdt:P38 wd:Q766 . }", "unsupported"),
    # "located" on a continent
    ("what continent is mexico located on?", "SELECT ?x WHERE { wd:Q96 wdt:P30 ?x . }", "faithful"),
    ("what continent is mexico located on?", "SELECT ?x WHERE { ?x wdt:P30 wd:Q96 . }", "unsupported"),
    # "does the voice of X": voice actor(X, who)
    ("Who does the voice of Bart Simpson?", "SELECT ?x WHERE { wd:Q5480 wdt:P725 ?x . }", "faithful"),
    ("Who does the voice of Bart Simpson?", "SELECT ?x WHERE { ?x wdt:P725 wd:Q5480 . }", "unsupported"),
    # a part of a name is no item when the whole name is another item's label
    ("Who does the voice of Bart Simpson?", "SELECT ?x WHERE { wd:Q886 wdt:P725 ?x . }", "unsupported"),
    ("who is ellen albertini dow?", "SELECT ?x WHERE { wd:Q458512 wdt:P106 ?x . }", "faithful"),
    # "who is NAME?" asks what NAME does (occupation), in that direction, of that person
    ("who was louis riel?", "SELECT ?x WHERE { wd:Q313691 wdt:P106 ?x . }", "faithful"),
    ("who was louis riel?", "SELECT ?x WHERE { ?x wdt:P106 wd:Q313691 . }", "unsupported"),
    ("who was louis riel?", "SELECT ?x WHERE { wd:Q313691 wdt:P27 ?x . }", "unsupported"),
    ("who was louis riel?", "SELECT ?x WHERE { wd:Q42 wdt:P106 ?x . }", "unsupported"),
    ("who is chelsea kane?", "SELECT ?x WHERE { wd:Q205794 wdt:P106 ?x . }", "faithful"),
    # ... only when nothing else is said ("married too" read as a subordinate clause)
    ("who was betty white married too?", "SELECT ?x WHERE { wd:Q373895 wdt:P106 ?x . }", "unsupported"),
    # ... and when a second question follows, that question says what is asked of the person
    ("who was joseph pulitzer and what did he do?", "SELECT ?x WHERE { wd:Q173417 wdt:P106 ?x . }",
     "faithful"),
    ("who was joseph pulitzer and what did he do?", "SELECT ?x WHERE { wd:Q173417 wdt:P27 ?x . }",
     "unsupported"),
    # "X has diplomatic relations with Y"
    ("How many countries have diplomatic relations with Burkina Faso?",
     "SELECT (COUNT(?x) AS ?n) WHERE { ?x wdt:P530 wd:Q965 . }", "faithful"),
    ("How many countries have diplomatic relations with Burkina Faso?",
     "SELECT (COUNT(?x) AS ?n) WHERE { ?x wdt:P47 wd:Q965 . }", "unsupported"),
    # "beside" / "next to" a country: shares border with
    ("what country is beside france?", "SELECT ?x WHERE { wd:Q142 wdt:P47 ?x . }", "faithful"),
    ("what country is beside france?", "SELECT ?x WHERE { wd:Q142 wdt:P530 ?x . }", "unsupported"),
    # a prepositional phrase the grammar attaches to the request verb or to a name modifies the
    # noun phrase ("cities in [New Jersey] with more than 100000 inhabitants")
    ("Give me all cities in New Jersey with more than 100000 inhabitants.",
     "SELECT ?c WHERE { ?c wdt:P31 wd:Q515 ; wdt:P131 wd:Q1408 ; wdt:P1082 ?p . FILTER(?p > 100000) }", "faithful"),
    ("Give me all cities in New Jersey with more than 100000 inhabitants.",
     "SELECT ?c WHERE { ?c wdt:P31 wd:Q515 ; wdt:P131 wd:Q1408 ; wdt:P2046 ?p . FILTER(?p > 100000) }",
     "unsupported"),
    ("Give me all cities in New Jersey with more than 100000 inhabitants.",
     "SELECT ?c WHERE { ?c wdt:P31 wd:Q515 . wd:Q1408 wdt:P131 ?c . ?c wdt:P1082 ?p . FILTER(?p > 100000) }",
     "unsupported"),
    # a query's closure (located in, at any depth) states the relation the question states
    ("what state is toronto in?",
     "SELECT ?x WHERE { wd:Q172 wdt:P131+ ?x . ?x wdt:P31/wdt:P279* wd:Q107390 . }", "faithful"),
    ("what state is toronto in?",
     "SELECT ?x WHERE { ?x wdt:P131+ wd:Q172 . ?x wdt:P31/wdt:P279* wd:Q107390 . }", "unsupported"),
    # "a list of N" asks for the N
    ("Give me a list of all lakes in Denmark.",
     "SELECT DISTINCT ?uri WHERE { ?uri wdt:P31 wd:Q23397 . ?uri wdt:P17 wd:Q35 . }", "faithful"),
    ("Give me a list of all lakes in Denmark.",
     "SELECT DISTINCT ?uri WHERE { ?uri wdt:P31 wd:Q23397 . wd:Q35 wdt:P17 ?uri . }", "unsupported"),
    # "cities" names the class *city*; that "city" is also an alias of *located in* says nothing
    ("what cities are in oakland county michigan?",
     "SELECT ?x WHERE { ?x wdt:P31/wdt:P279* wd:Q515 . ?x wdt:P131 wd:Q498024 . }", "faithful"),
    ("what cities are in oakland county michigan?",
     "SELECT ?x WHERE { ?x wdt:P31/wdt:P279* wd:Q515 . wd:Q498024 wdt:P131 ?x . }", "unsupported"),
    # "Y make up X": X has part Y ("made up of" is a passive)
    ("what countries make up continental europe?",
     "SELECT ?x WHERE { wd:Q46 wdt:P527+ ?x . ?x wdt:P31/wdt:P279* wd:Q6256 . }", "faithful"),
    ("what countries make up continental europe?",
     "SELECT ?x WHERE { ?x wdt:P527+ wd:Q46 . ?x wdt:P31/wdt:P279* wd:Q6256 . }", "unsupported"),
    # a kind of N that X plays / does is X's genre or movement (noun_kind_made_by), but the
    # music X composed is X's works, not kinds of music (WikiWebQuestions' gold query for it
    # asks for the genre)
    ("what style of music did jimi hendrix play?", "SELECT ?x WHERE { wd:Q5928 wdt:P136 ?x . }", "faithful"),
    ("what style of music did jimi hendrix play?", "SELECT ?x WHERE { ?x wdt:P136 wd:Q5928 . }", "unsupported"),
    ("what style of music did jimi hendrix play?", "SELECT ?x WHERE { wd:Q5928 wdt:P264 ?x . }", "unsupported"),
    ("what style of art did vincent van gogh do?", "SELECT ?x WHERE { wd:Q5582 wdt:P135 ?x . }", "faithful"),
    ("what style of art did vincent van gogh do?", "SELECT ?x WHERE { wd:Q5582 wdt:P1303 ?x . }", "unsupported"),
    ("what music did antonio vivaldi compose?", "SELECT ?x WHERE { wd:Q1340 wdt:P136 ?x . }", "unsupported"),
    # the kind of N a named thing is, is its N; "X has N now"
    ("what type of government is the philippines?", "SELECT ?x WHERE { wd:Q928 wdt:P122 ?x . }", "faithful"),
    ("what type of government is the philippines?", "SELECT ?x WHERE { ?x wdt:P122 wd:Q928 . }", "unsupported"),
    ("what type of government is the philippines?", "SELECT ?x WHERE { wd:Q928 wdt:P36 ?x . }", "unsupported"),
    ("what kind of government does spain have now?", "SELECT ?x WHERE { wd:Q29 wdt:P122 ?x . }", "faithful"),
    ("what kind of government does spain have now?", "SELECT ?x WHERE { ?x wdt:P122 wd:Q29 . }", "unsupported"),
    # being in a film is being in its cast (noun_cast_in), and "movies" still says films
    ("what movies has michael clarke duncan been in?",
     "SELECT ?x WHERE { ?x wdt:P161 wd:Q483148 . ?x wdt:P31/wdt:P279* wd:Q11424 . }", "faithful"),
    ("what movies has michael clarke duncan been in?",
     "SELECT ?x WHERE { wd:Q483148 wdt:P161 ?x . ?x wdt:P31/wdt:P279* wd:Q11424 . }", "unsupported"),
    ("what movies has michael clarke duncan been in?", "SELECT ?x WHERE { ?x wdt:P161 wd:Q483148 . }", "weaker"),
    ("what movies did madonna appear in?", "SELECT ?x WHERE { ?x wdt:P161 wd:Q1744 . }", "weaker"),
    # a team written by its nickname, a composer by his surname alone
    ("where do the broncos play?", "SELECT ?x WHERE { wd:Q223507 wdt:P115 ?x . }", "faithful"),
    ("where do the broncos play?", "SELECT ?x WHERE { wd:Q223507 wdt:P159 ?x . }", "unsupported"),
    # where someone grew up, was raised or comes from: place of birth or residence ("grow up",
    # "come from" as phrasal verbs of a pattern reading; "come from" is "from")
    ("where did rihanna grow up?", "SELECT ?x WHERE { wd:Q36844 wdt:P19 ?x . }", "faithful"),
    ("where did rihanna grow up?", "SELECT ?x WHERE { ?x wdt:P19 wd:Q36844 . }", "unsupported"),
    ("where did rihanna grow up?", "SELECT ?x WHERE { wd:Q36844 wdt:P20 ?x . }", "unsupported"),
    ("where was selena gomez raised?", "SELECT ?x WHERE { wd:Q83287 wdt:P19 ?x . }", "faithful"),
    ("what is george washington's hometown?", "SELECT ?x WHERE { wd:Q23 wdt:P19 ?x . }", "faithful"),
    ("where did morgan freeman come from?", "SELECT ?x WHERE { wd:Q48337 wdt:P19 ?x . }", "faithful"),
    ("where did morgan freeman come from?", "SELECT ?x WHERE { ?x wdt:P19 wd:Q48337 . }", "unsupported"),
    ("where did morgan freeman come from?", "SELECT ?x WHERE { wd:Q48337 wdt:P20 ?x . }", "unsupported"),
    # a pattern reading of "What NP has NAME been in?" (no grammar reading of it)
    ("what movies has chris colfer been in?",
     "SELECT ?x WHERE { ?x wdt:P161 wd:Q211566 . ?x wdt:P31/wdt:P279* wd:Q11424 . }", "faithful"),
    ("what movies has chris colfer been in?",
     "SELECT ?x WHERE { wd:Q211566 wdt:P161 ?x . ?x wdt:P31/wdt:P279* wd:Q11424 . }", "unsupported"),
    # a pattern reading of "what language (do) people speak in X?", "what does DEMONYM people speak?"
    ("what language people speak in afghanistan?", "SELECT ?x WHERE { wd:Q889 wdt:P37 ?x . }", "faithful"),
    ("what language people speak in afghanistan?", "SELECT ?x WHERE { wd:Q889 wdt:P38 ?x . }", "unsupported"),
    ("what does russian people speak?", "SELECT ?x WHERE { wd:Q159 wdt:P37 ?x . }", "faithful"),
    ("what does russian people speak?", "SELECT ?x WHERE { wd:Q159 wdt:P38 ?x . }", "unsupported"),
    # what someone is known for: notable work, occupation or field of work
    ("what was william faulkner known for?", "SELECT ?x WHERE { wd:Q38392 wdt:P106 ?x . }", "faithful"),
    ("what was william faulkner known for?", "SELECT ?x WHERE { ?x wdt:P106 wd:Q38392 . }", "unsupported"),
    ("what was william faulkner known for?", "SELECT ?x WHERE { wd:Q38392 wdt:P19 ?x . }", "unsupported"),
    # an organisation "in" a place has its headquarters there
    ("Give me all companies in Munich.",
     "SELECT DISTINCT ?uri WHERE { ?type wdt:P279* wd:Q4830453 . ?uri wdt:P31 ?type . ?uri wdt:P159 wd:Q1726 . }",
     "faithful"),
    # a pattern reading's unknown-word "go" has no object, as the grammar's _go_v_1
    ("what school did sergio romo go to?", "SELECT ?x WHERE { wd:Q3041597 wdt:P69 ?x . }", "faithful"),
    ("what school did sergio romo go to?", "SELECT ?x WHERE { ?x wdt:P69 wd:Q3041597 . }", "unsupported"),
    # the time of a place is the time zone it is in (a pattern reading, "What time zone is X in?")
    ("what time is it in lake havasu city arizona?", "SELECT ?x WHERE { wd:Q79435 wdt:P421 ?x . }", "faithful"),
    ("what time is it in lake havasu city arizona?", "SELECT ?x WHERE { ?x wdt:P421 wd:Q79435 . }", "unsupported"),
    ("what time is nebraska now?", "SELECT ?x WHERE { wd:Q1553 wdt:P421 ?x . }", "faithful"),
    ("what is the current time in nigeria lagos?", "SELECT ?x WHERE { wd:Q8673 wdt:P421 ?x . }", "faithful"),
    ("what is the current time in nigeria lagos?", "SELECT ?x WHERE { wd:Q8673 wdt:P17 ?x . }", "weaker"),
    ("what time is it in lake havasu city arizona?", "SELECT ?x WHERE { wd:Q23397 wdt:P421 ?x . }", "unsupported"),
    ("where is the time zone in florida?", "SELECT ?x WHERE { wd:Q812 wdt:P421 ?x . }", "faithful"),
    # a character the query names as a role may be written by its first or last name alone
    ("who plays meg in family guy?",
     "SELECT ?x WHERE { wd:Q5930 p:P725 ?p . ?p ps:P725 ?x . ?p pq:P453 wd:Q908772 . }", "faithful"),
    ("who plays meg in family guy?",
     "SELECT ?x WHERE { wd:Q5930 p:P725 ?p . ?p ps:P725 ?x . ?p pq:P453 wd:Q853073 . }", "unsupported"),
    ("who played giles on buffy the vampire slayer?",
     "SELECT ?x WHERE { wd:Q183513 p:P161 ?p . ?p ps:P161 ?x . ?p pq:P453 wd:Q2340312 . }", "faithful"),
    ("who played giles on buffy the vampire slayer?",
     "SELECT ?x WHERE { ?x p:P161 ?p . ?p ps:P161 wd:Q183513 . ?p pq:P453 wd:Q2340312 . }", "unsupported"),
    # "who did X married?": the pattern reading of "who did X marry?"
    ("who did adam sandler married?", "SELECT ?x WHERE { wd:Q132952 wdt:P26 ?x . }", "faithful"),
    ("who did adam sandler married?", "SELECT ?x WHERE { wd:Q132952 wdt:P40 ?x . }", "unsupported"),
    # a verb in the past after "did", read as its base form ("invented", "grew up")
    ("what did copernicus invented?", "SELECT ?x WHERE { ?x wdt:P61 wd:Q619 . }", "faithful"),
    ("what did copernicus invented?", "SELECT ?x WHERE { wd:Q619 wdt:P61 ?x . }", "unsupported"),
    ("where did dolly parton grew up?", "SELECT ?x WHERE { wd:Q180453 wdt:P19 ?x . }", "faithful"),
    ("where did dolly parton grew up?", "SELECT ?x WHERE { wd:Q180453 wdt:P20 ?x . }", "unsupported"),
    # the team a player is on; "who does X play for now?"
    ("what team is chris paul on?", "SELECT ?x WHERE { wd:Q46040 wdt:P54 ?x . }", "faithful"),
    ("what team is chris paul on?", "SELECT ?x WHERE { ?x wdt:P54 wd:Q46040 . }", "unsupported"),
    ("who does allen iverson play for now?", "SELECT ?x WHERE { wd:Q190094 wdt:P54 ?x . }", "faithful"),
    ("who does allen iverson play for now?", "SELECT ?x WHERE { ?x wdt:P54 wd:Q190094 . }", "unsupported"),
    # "what kind of NP does NAME have today?"; a property noun after a name without "'s"
    ("what kind of government does the united states have today?", "SELECT ?x WHERE { wd:Q30 wdt:P122 ?x . }", "faithful"),
    ("what kind of government does the united states have today?", "SELECT ?x WHERE { ?x wdt:P122 wd:Q30 . }", "unsupported"),
    ("what is nina dobrev nationality?", "SELECT ?x WHERE { wd:Q183439 wdt:P27 ?x . }", "faithful"),
    ("what is nina dobrev nationality?", "SELECT ?x WHERE { ?x wdt:P27 wd:Q183439 . }", "unsupported"),
    ("what are the names of walt disney kids?", "SELECT ?x WHERE { wd:Q8704 wdt:P40 ?x . }", "faithful"),
    ("what are the names of walt disney kids?", "SELECT ?x WHERE { ?x wdt:P40 wd:Q8704 . }", "unsupported"),
    # the voice of a character in a work: voice actor of the work, the character its qualifier
    ("who does the voice of lois in family guy?",
     "SELECT ?x WHERE { wd:Q5930 p:P725 ?p . ?p ps:P725 ?x . ?p pq:P453 wd:Q853073 . }", "faithful"),
    ("who does the voice of lois in family guy?",
     "SELECT ?x WHERE { ?x p:P725 ?p . ?p ps:P725 wd:Q5930 . ?p pq:P453 wd:Q853073 . }", "unsupported"),
    ("who does the voice of lois in family guy?",
     "SELECT ?x WHERE { wd:Q5930 p:P725 ?p . ?p ps:P725 ?x . ?p pq:P453 wd:Q908772 . }", "unsupported"),
    # "who the voice of X?" (no copula before "the"); "what are some places to visit in X?"
    ("who the voice of jack skellington?",
     "SELECT ?x WHERE { ?p p:P725 ?y . ?y ps:P725 ?x . ?y pq:P453 wd:Q2708262 . }", "faithful"),
    ("who the voice of jack skellington?",
     "SELECT ?x WHERE { ?x p:P725 ?y . ?y ps:P725 ?p . ?y pq:P453 wd:Q2708262 . }", "unsupported"),
    ("what are some places to visit in barcelona?",
     "SELECT ?x WHERE { ?x wdt:P31/wdt:P279* wd:Q570116 . ?x wdt:P131 wd:Q1492 . }", "faithful"),
    ("what are some places to visit in barcelona?",
     "SELECT ?x WHERE { ?x wdt:P31/wdt:P279* wd:Q570116 . wd:Q1492 wdt:P131 ?x . }", "unsupported"),
    # the team a racing driver drives for; "where is X located on a map?" asks where X is
    ("who did ayrton senna drive for?", "SELECT ?x WHERE { wd:Q10490 wdt:P54 ?x . }", "faithful"),
    ("who did ayrton senna drive for?", "SELECT ?x WHERE { ?x wdt:P54 wd:Q10490 . }", "unsupported"),
    ("where is burundi located on a map?", "SELECT ?x WHERE { wd:Q967 wdt:P625 ?x . }", "faithful"),
    ("where is burundi located on a map?", "SELECT ?x WHERE { wd:Q967 wdt:P2044 ?x . }", "unsupported"),
    # ... the word that names the casting names the character role, as a qualifier only
    ("Who is the voice dubber of the Futurama: The Beast with a Billion Bucks series?",
     "SELECT ?answer WHERE { wd:Q1419091 wdt:P179 ?X . ?X wdt:P453 ?answer . }", "unsupported"),
    # a surname or nickname shared by several items names the best known of them (smallest id)
    ("what political party was lincoln?", "SELECT ?x WHERE { wd:Q91 wdt:P102 ?x . }", "faithful"),
    ("what political party was lincoln?", "SELECT ?x WHERE { wd:Q215062 wdt:P102 ?x . }", "unsupported"),
    ("where was obama born?", "SELECT ?x WHERE { wd:Q76 wdt:P19 ?x . }", "faithful"),
    ("where was obama born?", "SELECT ?x WHERE { wd:Q13133 wdt:P19 ?x . }", "unsupported"),
    ("where was dr luther king jr born?", "SELECT ?x WHERE { wd:Q9554 wdt:P19 ?x . }", "unsupported"),  # not the phrase's end
    # an acronym in lower case; one that labels other items too names the best known of them
    ("on which continent is the usa located?", "SELECT ?x WHERE { wd:Q30 wdt:P30 ?x . }", "faithful"),
    ("on which continent is the usa located?", "SELECT ?x WHERE { ?x wdt:P30 wd:Q30 . }", "unsupported"),
    # ... and not another item with the same acronym (United States Army)
    ("on which continent is the usa located?", "SELECT ?x WHERE { wd:Q9212 wdt:P30 ?x . }", "unsupported"),
    # short names of the names lexicon
    ("what type of currency does the us have?", "SELECT ?x WHERE { wd:Q30 wdt:P38 ?x . }", "faithful"),
    ("what type of currency does the us have?", "SELECT ?x WHERE { wd:Q145 wdt:P38 ?x . }", "unsupported"),
    # a first name alone names the best known bearer, not inside another item's name
    ("where was tupac born?", "SELECT ?x WHERE { wd:Q6107 wdt:P19 ?x . }", "faithful"),
    ("who are richard pryor children?", "SELECT ?x WHERE { wd:Q1511 wdt:P40 ?x . }", "unsupported"),
    # a possessive inside a name slot ("the name of walt disney's son": the son)
    ("what is the name of walt disney's son?", "SELECT ?x WHERE { wd:Q8704 wdt:P40 ?x . }", "faithful"),
    ("what is the name of walt disney's son?", "SELECT ?x WHERE { ?x wdt:P40 wd:Q8704 . }", "unsupported"),
    # a shared name inside another item's label after an article: not that item
    ("what year did the new york mets start?", "SELECT ?x WHERE { wd:Q692417 wdt:P571 ?x . }", "faithful"),
    ("what year did the new york mets start?", "SELECT ?x WHERE { wd:Q1384 wdt:P571 ?x . }", "unsupported"),
    # "what was X famous for?"; "who did X sign with?"
    ("what was elijah mccoy famous for?", "SELECT ?x WHERE { wd:Q1329419 wdt:P800 ?x . }", "faithful"),
    ("what was elijah mccoy famous for?", "SELECT ?x WHERE { wd:Q1329419 wdt:P19 ?x . }", "unsupported"),
    ("who did jeremy lin sign with?", "SELECT ?x WHERE { wd:Q309590 wdt:P54 ?x . }", "faithful"),
    ("who did jeremy lin sign with?", "SELECT ?x WHERE { ?x wdt:P54 wd:Q309590 . }", "unsupported"),
    # "what form of government does X?" ("have" left out)
    ("what form of government does mexico?", "SELECT ?x WHERE { wd:Q96 wdt:P122 ?x . }", "faithful"),
    ("what form of government does mexico?", "SELECT ?x WHERE { ?x wdt:P122 wd:Q96 . }", "unsupported"),
    # a relational noun after a name without "'s" ("who was X teacher?", "who is the ravens coach?")
    ("who was leonardo da vinci teacher?", "SELECT ?x WHERE { wd:Q762 wdt:P1066 ?x . }", "faithful"),
    ("who was leonardo da vinci teacher?", "SELECT ?x WHERE { ?x wdt:P1066 wd:Q762 . }", "unsupported"),
    ("what was eli whitney job?", "SELECT ?x WHERE { wd:Q280930 wdt:P106 ?x . }", "faithful"),
    # an invention is what its inventor made: "inventions" is not the inventor's role, although
    # its stem is the verb of "inventor" and WordNet relates them
    ("what were some inventions of leonardo da vinci?", "SELECT ?x WHERE { ?x wdt:P61 wd:Q762 }", "faithful"),
    ("what were some inventions of leonardo da vinci?", "SELECT ?x WHERE { wd:Q762 wdt:P61 ?x }", "unsupported"),
    ("what inventions did robert hooke made?", "SELECT ?x WHERE { ?x wdt:P61 wd:Q46830 }", "faithful"),
    ("what inventions did robert hooke made?", "SELECT ?x WHERE { wd:Q46830 wdt:P61 ?x }", "unsupported"),
    ("what was nicolaus copernicus discovery?", "SELECT ?x WHERE { ?x wdt:P61 wd:Q619 }", "faithful"),
    ("who was neptune discovered by?", "SELECT ?x WHERE { wd:Q332 wdt:P61 ?x }", "faithful"),
    # ... nor is an address its addressee (a noun's verb stem does not reach a doer's name)
    ("What is the address of James Madison?", "SELECT ?x WHERE { wd:Q11813 wdt:P1817 ?x }", "unsupported"),
    # "where is the country of X?": the place noun before "of" is X itself; "in" left out
    ("where is the country of armenia?", "SELECT ?x WHERE { wd:Q399 wdt:P30 ?x . }", "faithful"),
    ("where is the country of armenia?", "SELECT ?x WHERE { ?x wdt:P30 wd:Q399 . }", "unsupported"),
    ("where is the nation of greece located?", "SELECT ?x WHERE { wd:Q41 wdt:P30 ?x . }", "faithful"),
    ("where is the nation of greece located?", "SELECT ?x WHERE { wd:Q41 wdt:P31 ?x . }", "unsupported"),
    ("what continent is greenland located?", "SELECT ?x WHERE { wd:Q4148644 wdt:P30 ?x . }", "faithful"),
    ("what continent is greenland located?", "SELECT ?x WHERE { ?x wdt:P30 wd:Q4148644 . }", "unsupported"),
    ("what continent is south africa part of?", "SELECT ?x WHERE { wd:Q258 wdt:P30 ?x . }", "faithful"),
    ("what continent is south africa part of?", "SELECT ?x WHERE { ?x wdt:P30 wd:Q258 . }", "unsupported"),
    # "share a border with"; the garbled reading "which [thing] states [that] ..." relates nothing
    ("which states share borders with virginia?", "SELECT ?x WHERE { wd:Q1370 wdt:P47 ?x . }", "faithful"),
    ("which states share borders with virginia?", "SELECT ?x WHERE { ?x wdt:P17 wd:Q1370 . }", "unsupported"),
    ("which states share borders with virginia?", "SELECT ?x WHERE { ?x wdt:P150 wd:Q1370 . }", "unsupported"),
    # a language comes from the kind it is a subclass of; a person from a place
    ("where does the spanish language come from?", "SELECT ?x WHERE { wd:Q1321 wdt:P279 ?x . }", "faithful"),
    ("where does the spanish language come from?", "SELECT ?x WHERE { ?x wdt:P279 wd:Q1321 . }", "unsupported"),
    ("where is the portuguese language derived from?", "SELECT ?x WHERE { wd:Q5146 wdt:P279 ?x . }", "faithful"),
    # "In which NP VERBed by NAME1 was NAME2 VERBing?": the pattern reading of the reduced relative
    ("In which films directed by Garry Marshall was Julia Roberts starring?",
     "SELECT ?f WHERE { ?f wdt:P31 wd:Q11424 . ?f wdt:P57 wd:Q315087 . ?f wdt:P161 wd:Q40523 . }", "faithful"),
    ("In which films directed by Garry Marshall was Julia Roberts starring?",
     "SELECT ?f WHERE { ?f wdt:P31 wd:Q11424 . ?f wdt:P57 wd:Q40523 . ?f wdt:P161 wd:Q315087 . }", "unsupported"),
    ("In which films directed by Garry Marshall was Julia Roberts starring?",
     "SELECT ?f WHERE { ?f wdt:P31 wd:Q11424 . ?f wdt:P58 wd:Q315087 . ?f wdt:P161 wd:Q40523 . }", "unsupported"),
    ("what characters does seth macfarlane voice?",
     "SELECT ?x WHERE { ?y p:P725 ?p . ?p ps:P725 wd:Q188492 . ?p pq:P453 ?x . }", "faithful"),
    # a singular subject is no team's nickname ("work" ends labels too)
    ("What is the work done by David MCCullough that won him the Pulitzer Prize for Biography or Autobiography?",
     "SELECT ?value WHERE { wd:Q374610 p:P166 ?s . ?s ps:P166 wd:Q285117 . ?s pq:P1686 ?value }", "faithful"),
    # winning a competition held season by season is winning one of its seasons, at the
    # season's point in time; "win" then makes no other link to *winner*
    ("what years have the dodgers won the world series?",
     "SELECT ?x WHERE { ?y wdt:P3450 wd:Q265538 . ?y wdt:P1346 wd:Q334634 . ?y wdt:P585 ?x . }", "faithful"),
    ("what years have the dodgers won the world series?",
     "SELECT ?x WHERE { ?y wdt:P3450 wd:Q265538 . wd:Q334634 wdt:P1346 ?y . ?y wdt:P585 ?x . }", "unsupported"),
    ("what years have the dodgers won the world series?",
     "SELECT ?x WHERE { ?y wdt:P3450 wd:Q265538 . ?y wdt:P1923 wd:Q334634 . ?y wdt:P585 ?x . }", "unsupported"),
    ("what years have the dodgers won the world series?",
     "SELECT ?x WHERE { ?y wdt:P3450 wd:Q265538 . ?y wdt:P1346 wd:Q334634 . ?y wdt:P582 ?x . }", "unsupported"),
    # ... and a query without the winner, for a winner written as a lower-case nickname that
    # no link uses, answers for any winner
    ("what years have the giants won the world series?",
     "SELECT ?x WHERE { ?y wdt:P3450 wd:Q265538 . ?y wdt:P585 ?x . }", "weaker"),
    ("in what years did the new york yankees win the world series?",
     "SELECT ?x WHERE { ?y wdt:P3450 wd:Q265538 . ?y wdt:P1346 wd:Q213417 . ?y wdt:P585 ?x . }", "faithful"),
    # an identifier written as its acronym after the name ("X ISIN" for "X's ISIN")
    ("What is Advanced Micro Devices ISIN?", "SELECT ?a WHERE { wd:Q128896 wdt:P946 ?a }", "faithful"),
    ("What is Advanced Micro Devices ISIN?", "SELECT ?a WHERE { wd:Q128896 wdt:P1278 ?a }", "unsupported"),
    # a progressive after "where was": the verb's place
    ("Where was Voyager 1 travelling?", "SELECT ?a WHERE { wd:Q48469 wdt:P1444 ?a }", "faithful"),
    ("Where was Voyager 1 travelling?", "SELECT ?a WHERE { ?a wdt:P1444 wd:Q48469 }", "unsupported"),
    # a count held by a name after "[had] by"
    ("Is the number of races by Alan Staley more than 1.2?",
     "ASK WHERE { wd:Q4707818 wdt:P1350 ?obj filter ( ?obj > 1.2 ) }", "faithful"),
    ("Are the number of children had by Catherine Keener equal to 0.8?",
     "ASK WHERE { wd:Q230378 wdt:P1971 ?obj filter ( ?obj = 0.8 ) }", "faithful"),
    ("Are the number of children had by Catherine Keener equal to 0.8?",
     "ASK WHERE { wd:Q230378 wdt:P1350 ?obj filter ( ?obj = 0.8 ) }", "unsupported"),
    # a verb read without its object whose "by" phrase names the doer
    ("What officially opened by Franz Beckenbauer?", "SELECT ?a WHERE { ?a wdt:P542 wd:Q4457 }", "faithful"),
    # two answers: the column order that states all the question does ("what time" is the
    # statement's start time, not a second place of work)
    ("Where and what time did William Michael Rossetti Work?",
     "SELECT ?value1 ?obj WHERE { wd:Q719428 p:P937 ?s . ?s ps:P937 ?obj . ?s pq:P580 ?value1 . }", "faithful"),
    ("Where and what time did William Michael Rossetti Work?",
     "SELECT ?value1 ?obj WHERE { ?obj p:P937 ?s . ?s ps:P937 wd:Q719428 . ?s pq:P580 ?value1 . }", "unsupported"),
    # a relative after a capitalised possessive
    ("In which school did Obama's wife study?", "SELECT ?u WHERE { wd:Q76 wdt:P26/wdt:P69 ?u . }", "faithful"),
    ("In which school did Obama's wife study?", "SELECT ?u WHERE { wd:Q76 wdt:P69 ?u . }", "unsupported"),
    # a demonym on a relational noun says whose it is ("the Polish national anthem")
    ("Who wrote the lyrics for the Polish national anthem?",
     "SELECT ?u WHERE { wd:Q36 wdt:P85/wdt:P676 ?u . }", "faithful"),
    ("Who wrote the lyrics for the Polish national anthem?",
     "SELECT ?u WHERE { ?a wdt:P85 wd:Q36 . ?a wdt:P676 ?u . }", "unsupported"),
    # a kinship noun for a property taken twice
    ("Give me the grandchildren of Bruce Lee.",
     "SELECT ?u WHERE { wd:Q16397 wdt:P40 ?c . ?c wdt:P40 ?u . }", "faithful"),
    ("Give me the grandchildren of Bruce Lee.", "SELECT ?u WHERE { wd:Q16397 wdt:P40 ?u . }", "unsupported"),
    # a compound modifier the parse hangs on an adjective's event ("a feminine grammatical
    # gender") modifies the adjective's noun; a value noun before a property noun that
    # something has is the property's value
    ("What is the language used by Esther Bubley that has a feminine grammatical gender?",
     "SELECT ?answer WHERE { wd:Q3058959 wdt:P1412 ?answer . ?answer wdt:P5109 wd:Q1775415 }", "faithful"),
    ("What is the language used by Esther Bubley that has a feminine grammatical gender?",
     "SELECT ?answer WHERE { wd:Q3058959 wdt:P1412 ?answer . wd:Q1775415 wdt:P5109 ?answer }", "unsupported"),
    ("What is the language used by Esther Bubley that has a feminine grammatical gender?",
     "SELECT ?answer WHERE { wd:Q3058959 wdt:P1412 ?answer . ?answer wdt:P5109 wd:Q499327 }", "unsupported"),
    # a relative clause the parse leaves without a head is also read as about the noun right
    # before its pronoun ("the team that ..."), and "played for" parsed as "play" with a
    # predicated "for" phrase is "play" modified by it
    ("What is the sports league of the team that Willie Williams played for?",
     "SELECT ?answer WHERE { wd:Q21063582 wdt:P54 ?X . ?X wdt:P118 ?answer }", "faithful"),
    ("What is the sports league of the team that Willie Williams played for?",
     "SELECT ?answer WHERE { ?X wdt:P54 wd:Q21063582 . ?X wdt:P118 ?answer }", "unsupported"),
    ("What is the sports league of the team that Willie Williams played for?",
     "SELECT ?answer WHERE { wd:Q21063582 wdt:P54 ?X . ?X wdt:P17 ?answer }", "unsupported"),
    ("Who is the domestic partner of the painters that made Portrait after a Costume Ball (Portrait of "
     "Madame Dietz-Monnin)?", "SELECT ?answer WHERE { wd:Q20268393 wdt:P170 ?X . ?X wdt:P451 ?answer }",
     "faithful"),
    ("Who is the domestic partner of the painters that made Portrait after a Costume Ball (Portrait of "
     "Madame Dietz-Monnin)?", "SELECT ?answer WHERE { ?X wdt:P170 wd:Q20268393 . ?X wdt:P451 ?answer }",
     "unsupported"),
    # the head word of a value's name that is a name of the property relating it names the
    # property too ("a King James version": has edition or translation, alias "version")
    ("What written work has a King James version?",
     "SELECT ?sbj WHERE { ?sbj wdt:P747 wd:Q623398 . ?sbj wdt:P31 wd:Q47461344 }", "faithful"),
    ("What written work has a King James version?",
     "SELECT ?sbj WHERE { wd:Q623398 wdt:P747 ?sbj . ?sbj wdt:P31 wd:Q47461344 }", "unsupported"),
    ("What written work has a King James version?",
     "SELECT ?sbj WHERE { ?sbj wdt:P655 wd:Q623398 . ?sbj wdt:P31 wd:Q47461344 }", "unsupported"),
    # the possessive "'s" parsed as an unknown verb without its possessed noun: the noun
    # written after it
    ("What space agency's official language is Hebrew?",
     "SELECT ?sbj WHERE { ?sbj wdt:P37 wd:Q9288 . ?sbj wdt:P31 wd:Q17505024 }", "faithful"),
    ("What space agency's official language is Hebrew?",
     "SELECT ?sbj WHERE { wd:Q9288 wdt:P37 ?sbj . ?sbj wdt:P31 wd:Q17505024 }", "unsupported"),
    ("What space agency's official language is Hebrew?",
     "SELECT ?sbj WHERE { ?sbj wdt:P103 wd:Q9288 . ?sbj wdt:P31 wd:Q17505024 }", "unsupported"),
    # a value's head word names its property only when no other word names the item: the
    # item's own name word would relate it to itself
    ("Tell me the name of a mythological Greek character that starts with the letter t.",
     "SELECT ?sbj WHERE { ?sbj wdt:P674 wd:Q22988604 . ?sbj rdfs:label ?sbj_label . "
     "FILTER (STRSTARTS(LCASE(?sbj_label), \"t\")) FILTER (LANG(?sbj_label) = \"en\") } LIMIT 25", "unsupported"),
    # "X with N": N names a property of X, as "X has N" does
    ("Name an isotope of neutronium with weak interaction that contains the word \"neutron\" in its name",
     "SELECT DISTINCT ?sbj ?sbj_label WHERE { ?sbj wdt:P31 wd:Q12525553 . ?sbj wdt:P517 wd:Q11418 . "
     "?sbj rdfs:label ?sbj_label . FILTER ( CONTAINS ( lcase ( ?sbj_label ) , 'neutron' ) ) . "
     "FILTER ( lang ( ?sbj_label ) = 'en' ) } LIMIT 25", "faithful"),
    ("Name an isotope of neutronium with weak interaction that contains the word \"neutron\" in its name",
     "SELECT DISTINCT ?sbj ?sbj_label WHERE { ?sbj wdt:P31 wd:Q12525553 . wd:Q11418 wdt:P517 ?sbj . "
     "?sbj rdfs:label ?sbj_label . FILTER ( CONTAINS ( lcase ( ?sbj_label ) , 'neutron' ) ) . "
     "FILTER ( lang ( ?sbj_label ) = 'en' ) } LIMIT 25", "unsupported"),
    ("What is the elected office with the longest term length?",
     "SELECT ?ent WHERE { ?ent wdt:P31 wd:Q17279032 . ?ent wdt:P2097 ?obj } ORDER BY DESC ( ?obj ) LIMIT 5",
     "faithful"),
    ("What is the elected office with the longest term length?",
     "SELECT ?ent WHERE { ?ent wdt:P31 wd:Q17279032 . ?ent wdt:P2098 ?obj } ORDER BY DESC ( ?obj ) LIMIT 5",
     "unsupported"),
    # "with" parsed as the subordinator of an absolute clause is the preposition on the noun
    ("What is the river with the lowest slope that is located in Malyn Raion?",
     "SELECT ?ent WHERE { ?ent wdt:P31 wd:Q4022 . ?ent wdt:P4184 ?obj . ?ent wdt:P131 wd:Q2620713 } "
     "ORDER BY ASC ( ?obj ) LIMIT 5", "faithful"),
    ("What is the river with the lowest slope that is located in Malyn Raion?",
     "SELECT ?ent WHERE { ?ent wdt:P31 wd:Q4022 . ?ent wdt:P4184 ?obj . wd:Q2620713 wdt:P131 ?ent } "
     "ORDER BY ASC ( ?obj ) LIMIT 5", "unsupported"),
    ("What is the river with the lowest slope that is located in Malyn Raion?",
     "SELECT ?ent WHERE { ?ent wdt:P31 wd:Q4022 . ?ent wdt:P2044 ?obj . ?ent wdt:P131 wd:Q2620713 } "
     "ORDER BY ASC ( ?obj ) LIMIT 5", "unsupported"),
    # "the same as": said to be the same as, from the "as" phrase's subject to its object
    ("What is the forename of John Ames Mitchell that is said to be the same as Jógvan?",
     "SELECT ?answer WHERE { wd:Q6218902 wdt:P735 ?answer . ?answer wdt:P460 wd:Q1715025 }", "faithful"),
    ("What is the forename of John Ames Mitchell that is said to be the same as Jógvan?",
     "SELECT ?answer WHERE { wd:Q6218902 wdt:P735 ?answer . ?answer wdt:P1889 wd:Q1715025 }", "unsupported"),
    # "that is VERBed by X" given as an elided copula with a subordinated participle: the
    # relative's head is the participle's object
    ("Where does Shirley Chisholm work that is bordered by Arlington County?",
     "SELECT ?answer WHERE { wd:Q239657 wdt:P937 ?answer . ?answer wdt:P47 wd:Q107126 }", "faithful"),
    ("Where does Shirley Chisholm work that is bordered by Arlington County?",
     "SELECT ?answer WHERE { wd:Q239657 wdt:P937 ?answer . ?answer wdt:P131 wd:Q107126 }", "unsupported"),
    ("Where does Shirley Chisholm work that is bordered by Arlington County?",
     "SELECT ?answer WHERE { ?answer wdt:P937 wd:Q239657 . ?answer wdt:P47 wd:Q107126 }", "unsupported"),
    # "when" answered by a qualifier of the statement the verb names (*elected in*): the time
    # is the statement's, not a value of *position held*
    ("When was John Hume elected as Member of the 49th Parliament of the United Kingdom and what ceased the position?",
     "SELECT ?value1 ?value2 WHERE { wd:Q193630 p:P39 ?s . ?s ps:P39 wd:Q41582621 . ?s pq:P2715 ?value1 . "
     "?s pq:P1534 ?value2 }", "faithful"),
    ("When was John Hume elected as Member of the 49th Parliament of the United Kingdom and what ceased the position?",
     "SELECT ?value1 ?value2 WHERE { wd:Q41582621 p:P39 ?s . ?s ps:P39 wd:Q193630 . ?s pq:P2715 ?value1 . "
     "?s pq:P1534 ?value2 }", "unsupported"),
    # ... but not with one qualifier for both answers (they would be the same)
    ("When was John Hume elected as Member of the 49th Parliament of the United Kingdom and what ceased the position?",
     "SELECT ?value1 ?value2 WHERE { wd:Q193630 p:P39 ?s . ?s ps:P39 wd:Q41582621 . ?s pq:P2715 ?value1 . "
     "?s pq:P2715 ?value2 }", "unsupported"),
    ("Winston Churchill was elected to what position and when?",
     "SELECT ?value1 ?obj WHERE { wd:Q8016 p:P39 ?s . ?s ps:P39 ?obj . ?s pq:P2715 ?value1 . }", "faithful"),
    # an item "in" a series is part of it; "What precedes and follows X" names *follows* by
    # "precede" and *followed by* by "follow" (the wh-phrase is the subject of both verbs)
    ("What precedes and follows Jeremiah in the Nevi'im?",
     "SELECT ?value1 ?value2 WHERE { wd:Q131590 p:P179 ?s . ?s ps:P179 wd:Q216383 . ?s pq:P155 ?value1 . "
     "?s pq:P156 ?value2 }", "faithful"),
    ("What precedes and follows Jeremiah in the Nevi'im?",
     "SELECT ?value1 ?value2 WHERE { wd:Q216383 p:P179 ?s . ?s ps:P179 wd:Q131590 . ?s pq:P155 ?value1 . "
     "?s pq:P156 ?value2 }", "unsupported"),
    ("What precedes and follows Jeremiah in the Nevi'im?",
     "SELECT ?value1 ?value2 WHERE { wd:Q131590 p:P179 ?s . ?s ps:P179 wd:Q216383 . ?s pq:P155 ?value1 . "
     "?s pq:P1545 ?value2 }", "unsupported"),
    # ... only with a verb of order, and naming no qualifier (WikiWebQuestions perturbations)
    ("what division did the baltimore colts play in?", "SELECT DISTINCT ?x WHERE { wd:Q193753 wdt:P179 ?x . }",
     "unsupported"),
    ("who plays young john winchester in supernatural?",
     'PREFIX wd: <http://www.wikidata.org/entity/> PREFIX p: <http://www.wikidata.org/prop/> PREFIX ps: <http://www.wikidata.org/prop/statement/> PREFIX pq: <http://www.wikidata.org/prop/qualifier/> SELECT DISTINCT ?x WHERE { wd:Q130585 p:P161 ?p . ?p ps:P161 ?x . ?p pq:P179 wd:Q1088616 . }',
     "unsupported"),
    ("Who preceded and who succeeded Clovis I as king of Franks?",
     "SELECT ?value1 ?value2 WHERE { wd:Q82339 p:P97 ?s . ?s ps:P97 wd:Q22923081 . ?s pq:P156 ?value1 . "
     "?s pq:P155 ?value2 }", "faithful"),
    # moving from a place ends a residence there, moving to one starts it
    ("Where did Hugo Pratt move from on August 20, 1995?",
     "SELECT ?obj WHERE { wd:Q12113 p:P551 ?s . ?s ps:P551 ?obj . ?s pq:P582 ?x "
     "filter ( contains ( YEAR ( ?x ) , '1995' ) ) }", "faithful"),
    ("Where did Hugo Pratt move from on August 20, 1995?",
     "SELECT ?obj WHERE { wd:Q12113 p:P551 ?s . ?s ps:P551 ?obj . ?s pq:P580 ?x "
     "filter ( contains ( YEAR ( ?x ) , '1995' ) ) }", "unsupported"),
    ("Where did Hugo Pratt move from on August 20, 1995?",
     "SELECT ?obj WHERE { wd:Q12113 p:P19 ?s . ?s ps:P19 ?obj . ?s pq:P582 ?x "
     "filter ( contains ( YEAR ( ?x ) , '1995' ) ) }", "unsupported"),
    # "monetary award" / "monetary prize" name prize money; the amount "received by X" is the
    # qualifier of X's *award received* statement, not an award itself
    ("Which monetary prize amount was received by Theodor Mommsen?",
     "SELECT ?value1 ?obj WHERE { wd:Q25351 p:P166 ?s . ?s ps:P166 ?obj . ?s pq:P2121 ?value1 . }", "faithful"),
    ("Which monetary prize amount was received by Theodor Mommsen?",
     "SELECT ?value1 ?obj WHERE { wd:Q25351 p:P166 ?s . ?s ps:P166 ?obj . ?s pq:P1706 ?value1 . }", "unsupported"),
    ("Which monetary prize amount was received by Theodor Mommsen?",
     "SELECT ?value1 ?obj WHERE { wd:Q25351 p:P1411 ?s . ?s ps:P1411 ?obj . ?s pq:P2121 ?value1 . }", "unsupported"),
    # ... a qualifier that no noun of the answer names ("where" as the object of "study")
    ("Where did Joseph Goebbels study?",
     "SELECT ?value1 ?obj WHERE { wd:Q41749 p:P69 ?s . ?s ps:P69 ?obj . ?s pq:P276 ?value1 . }", "weaker"),
    ("When did Ernest Rutherford win the Nobel Prize in Chemistry and how much was his monetary award?",
     "SELECT ?value1 ?value2 WHERE { wd:Q9123 p:P166 ?s . ?s ps:P166 wd:Q44585 . ?s pq:P585 ?value1 . "
     "?s pq:P2121 ?value2 }", "faithful"),
    ("When did Ernest Rutherford win the Nobel Prize in Chemistry and how much was his monetary award?",
     "SELECT ?value1 ?value2 WHERE { wd:Q9123 p:P166 ?s . ?s ps:P166 wd:Q44585 . ?s pq:P585 ?value1 . "
     "?s pq:P1706 ?value2 }", "unsupported"),
    # a date before the year 1000 that the query tests as a string of its year ("-524-0-0")
    ("What award did Milo of Croton receive in 524 BC?",
     "SELECT ?obj WHERE { wd:Q338948 p:P166 ?s . ?s ps:P166 ?obj . ?s pq:P585 ?x "
     "filter ( contains ( ?x , '-524-0-0' ) ) }", "faithful"),
    ("What award did Milo of Croton receive in 524 BC?",
     "SELECT ?obj WHERE { wd:Q338948 p:P166 ?s . ?s ps:P166 ?obj . ?s pq:P585 ?x "
     "filter ( contains ( ?x , '524-0-0' ) ) }", "unsupported"),
    ("What award did Milo of Croton receive in 524 BC?",
     "SELECT ?obj WHERE { wd:Q338948 p:P1411 ?s . ?s ps:P1411 ?obj . ?s pq:P585 ?x "
     "filter ( contains ( ?x , '-524-0-0' ) ) }", "unsupported"),
    ("What country did Prague belong to in 895 AD?",
     "SELECT ?obj WHERE { wd:Q1085 p:P17 ?s . ?s ps:P17 ?obj . ?s pq:P580 ?x "
     "filter ( contains ( ?x , '895-0-0' ) ) }", "faithful"),
    ("What country did Prague belong to in 895 AD?",
     "SELECT ?obj WHERE { wd:Q1085 p:P17 ?s . ?s ps:P17 ?obj . ?s pq:P580 ?x "
     "filter ( contains ( ?x , '896-0-0' ) ) }", "unsupported"),
    # a string written without its accents
    ("Tell me town whose name has the word sturovo in it.",
     "SELECT DISTINCT ?sbj ?sbj_label WHERE { ?sbj wdt:P31 wd:Q3957 . ?sbj rdfs:label ?sbj_label . "
     "FILTER ( CONTAINS ( lcase ( ?sbj_label ) , 'štúrovo' ) ) . FILTER ( lang ( ?sbj_label ) = 'en' ) } LIMIT 25",
     "faithful"),
    ("Tell me town whose name has the word sturovo in it.",
     "SELECT DISTINCT ?sbj ?sbj_label WHERE { ?sbj wdt:P31 wd:Q3957 . ?sbj rdfs:label ?sbj_label . "
     "FILTER ( CONTAINS ( lcase ( ?sbj_label ) , 'štúrová' ) ) . FILTER ( lang ( ?sbj_label ) = 'en' ) } LIMIT 25",
     "unsupported"),
    # a name at the end modifies the main event: the ceremony of a nomination
    ("What was Arthur Penn nominated for at the 12th Annual Tony Awards?",
     _QUALIFIED.format("Q41136", "P1411", "P805", "Q4548936"), "faithful"),
    ("What was Arthur Penn nominated for at the 12th Annual Tony Awards?",
     _QUALIFIED.format("Q41136", "P166", "P805", "Q4548936"), "unsupported"),
    ("What was Arthur Penn nominated for at the 12th Annual Tony Awards?",
     _QUALIFIED.format("Q41136", "P1411", "P805", "Q7640207"), "unsupported"),
    # *parliamentary term* places a statement in a term, as a context qualifier
    ("What is the position of Goh Chok Tong in the 13th Parliament of Singapore?",
     _QUALIFIED.format("Q313300", "P39", "P2937", "Q20967954"), "faithful"),
    ("What is the position of Goh Chok Tong in the 13th Parliament of Singapore?",
     _QUALIFIED.format("Q313300", "P39", "P2937", "Q21050525"), "unsupported"),
    ("What is the position of Goh Chok Tong in the 13th Parliament of Singapore?",
     _QUALIFIED.format("Q313300", "P463", "P2937", "Q20967954"), "unsupported"),
    # "X succeeded / replaced Y in Z": both held Z; Y's statement is *replaced by* X
    ("What position did Edgar of England succeed Eadwig in ?",
     _QUALIFIED.format("Q191203", "P39", "P1366", "Q192925"), "faithful"),
    ("What position did Edgar of England succeed Eadwig in ?",
     _QUALIFIED.format("Q191203", "P39", "P1365", "Q192925"), "unsupported"),
    ("What position did Edgar of England succeed Eadwig in ?",
     _QUALIFIED.format("Q192925", "P39", "P1366", "Q191203"), "unsupported"),
    ("Michael Poniatowski replaced Jacques Chirac in what position?",
     _QUALIFIED.format("Q2105", "P39", "P1366", "Q3310623"), "faithful"),
    ("Michael Poniatowski replaced Jacques Chirac in what position?",
     _QUALIFIED.format("Q2105", "P39", "P1365", "Q3310623"), "unsupported"),
    # ... with the preposition in front ("In what position will X replace Y?")
    ("In what position will Maria Miller replace Theresa May?",
     _QUALIFIED.format("Q264766", "P39", "P1366", "Q334261"), "faithful"),
    ("In what position will Maria Miller replace Theresa May?",
     _QUALIFIED.format("Q264766", "P39", "P1365", "Q334261"), "unsupported"),
    ("In what position will Maria Miller replace Theresa May?",
     _QUALIFIED.format("Q334261", "P39", "P1366", "Q264766"), "unsupported"),
    # "was replaced by Y", with the verb given as its lemma, is *replaced by*, not *replaces*
    ("What position that Kurt Georg Kiesinger held was replaced by Hans Ehard?",
     _QUALIFIED.format("Q2512", "P39", "P1365", "Q67597"), "unsupported"),
    # "What followed after X received Y?" asks what came after: *followed by*, not *follows*
    ("What followed after Kristen Steward received the Golden Raspberry Award for Worst Actress?",
     "SELECT ?value WHERE { wd:Q126599 p:P166 ?s . ?s ps:P166 wd:Q602866 . ?s pq:P155 ?value }", "unsupported"),
    # a relative clause whose auxiliary is left out before a participle and its "by" phrase is
    # a passive still: the philosophical movement is practised by atheists
    ("what is philosophical movement that practiced by atheist and which contains the word atheism in their name",
     "SELECT DISTINCT ?sbj ?sbj_label WHERE { ?sbj wdt:P31 wd:Q2915955 . ?sbj wdt:P3095 wd:Q13211738 . "
     "?sbj rdfs:label ?sbj_label . FILTER ( CONTAINS ( lcase ( ?sbj_label ) , 'atheism' ) ) . "
     "FILTER ( lang ( ?sbj_label ) = 'en' ) } LIMIT 25", "faithful"),
    ("what is philosophical movement that practiced by atheist and which contains the word atheism in their name",
     "SELECT DISTINCT ?sbj ?sbj_label WHERE { ?sbj wdt:P31 wd:Q2915955 . wd:Q13211738 wdt:P3095 ?sbj . "
     "?sbj rdfs:label ?sbj_label . FILTER ( CONTAINS ( lcase ( ?sbj_label ) , 'atheism' ) ) . "
     "FILTER ( lang ( ?sbj_label ) = 'en' ) } LIMIT 25", "unsupported"),
    # a place that celebrates a holiday has it as a public holiday
    ("What Islamic republic celebrates the holiday Nowruz?",
     "SELECT DISTINCT ?sbj WHERE { ?sbj wdt:P832 wd:Q483236 . ?sbj wdt:P31 wd:Q672729 }", "faithful"),
    ("What Islamic republic celebrates the holiday Nowruz?",
     "SELECT DISTINCT ?sbj WHERE { wd:Q483236 wdt:P832 ?sbj . ?sbj wdt:P31 wd:Q672729 }", "unsupported"),
    # a verb whose object is a coordination holds of each conjunct ...
    ('Give me a state in Australia that starts with an "S" and that celebrates Christmas and other holidays.',
     "SELECT DISTINCT ?sbj ?sbj_label WHERE { ?sbj wdt:P31 wd:Q5852411 . ?sbj wdt:P832 wd:Q19809 . "
     "?sbj rdfs:label ?sbj_label . FILTER ( STRSTARTS ( lcase ( ?sbj_label ) , 's' ) ) . "
     "FILTER ( lang ( ?sbj_label ) = 'en' ) } LIMIT 25", "faithful"),
    ('Give me a state in Australia that starts with an "S" and that celebrates Christmas and other holidays.',
     "SELECT DISTINCT ?sbj ?sbj_label WHERE { ?sbj wdt:P31 wd:Q5852411 . ?sbj wdt:P1830 wd:Q19809 . "
     "?sbj rdfs:label ?sbj_label . FILTER ( STRSTARTS ( lcase ( ?sbj_label ) , 's' ) ) . "
     "FILTER ( lang ( ?sbj_label ) = 'en' ) } LIMIT 25", "unsupported"),
    ("Is Abu Dhabi a twinned administrative body with Madrid and Brisbane?",
     "ASK WHERE { wd:Q1519 wdt:P190 wd:Q2807 . wd:Q1519 wdt:P190 wd:Q34932 }", "faithful"),
    ("Is Abu Dhabi a twinned administrative body with Madrid and Brisbane?",
     "ASK WHERE { wd:Q1519 wdt:P190 wd:Q2807 . wd:Q1519 wdt:P47 wd:Q34932 }", "unsupported"),
    # a string written without its accents is written, but a letter is its own: "the letter U"
    # is no 'ü'
    ("What are the philosophical concept which start with the letter U",
     "SELECT DISTINCT ?sbj ?sbj_label WHERE { ?sbj wdt:P31 wd:Q33104279 . ?sbj rdfs:label ?sbj_label . "
     "FILTER ( STRSTARTS ( lcase ( ?sbj_label ) , 'ü' ) ) . FILTER ( lang ( ?sbj_label ) = 'en' ) } LIMIT 25",
     "unsupported"),
    # ... but an "and" written inside a label coordinates nothing (a garbled reading makes
    # "journal" a verb whose object is "ID of Astronomy" and "Astrophysics")
    ("What is ERA Journal ID of Astronomy and Astrophysics ?",
     "SELECT DISTINCT ?answer WHERE { wd:Q752075 wdt:P1058 ?answer }", "faithful"),
    ("What is ERA Journal ID of Astronomy and Astrophysics ?",
     "SELECT DISTINCT ?answer WHERE { ?answer wdt:P1058 wd:Q752075 . }", "unsupported"),
    # ... nor over coordinated answers, each aligned with a column of its own ("hair color"
    # names *eye color* too, weakly: distributed, "has" would relate it to Naomi Campbell)
    ("Naomi Cambell has what eye color and hair color?",
     "SELECT ?ans_1 ?ans_2 WHERE { wd:Q199369 wdt:P1340 ?ans_1 . wd:Q199369 wdt:P1340 ?ans_2 . }", "unsupported"),
    # "A and B are related" (a passive with a coordinated undergoer): each is a relative of
    # the other; "how" asks for the kinship qualifier (verb_passive_reciprocal)
    ("How are Stanisław August Poniatowski and Józef Poniatowski related?",
     "SELECT ?k WHERE { wd:Q54019 p:P1038 ?s . ?s ps:P1038 wd:Q154382 . ?s pq:P1039 ?k }", "faithful"),
    ("How are Stanisław August Poniatowski and Józef Poniatowski related?",
     "SELECT ?k WHERE { wd:Q154382 p:P1038 ?s . ?s ps:P1038 wd:Q54019 . ?s pq:P1039 ?k }", "faithful"),
    ("How are Stanisław August Poniatowski and Józef Poniatowski related?",
     "SELECT ?k WHERE { wd:Q54019 p:P26 ?s . ?s ps:P26 wd:Q154382 . ?s pq:P1039 ?k }", "unsupported"),
    ("How are Stanisław August Poniatowski and Józef Poniatowski related?",
     "SELECT ?k WHERE { wd:Q54019 p:P1038 ?s . ?s ps:P1038 wd:Q822372 . ?s pq:P1039 ?k }", "unsupported"),
    # ... and "A and B were married": spouse (not child; "in what year" asks for no end cause)
    ("In what year were Gloria Macapagal-Arroyo and Jose Miguel Arroyo married?",
     "SELECT ?t WHERE { wd:Q123665 p:P26 ?s . ?s ps:P26 wd:Q46340 . ?s pq:P580 ?t }", "faithful"),
    ("In what year were Gloria Macapagal-Arroyo and Jose Miguel Arroyo married?",
     "SELECT ?t WHERE { wd:Q123665 p:P40 ?s . ?s ps:P40 wd:Q46340 . ?s pq:P580 ?t }", "unsupported"),
    ("In what year were Gloria Macapagal-Arroyo and Jose Miguel Arroyo married?",
     "SELECT ?t WHERE { wd:Q123665 p:P26 ?s . ?s ps:P26 wd:Q46340 . ?s pq:P1534 ?t }", "unsupported"),
    # the answer is a noun naming a relation between two parties (noun_relation_between): the
    # item the statement is the subject of (P805, "Kyrgyzstan–Saudi Arabia relations") ...
    ("What is the diplomatic relationship between Saudi Arabia and Kyrgyzstan?",
     "SELECT ?v WHERE { wd:Q851 p:P530 ?s . ?s ps:P530 wd:Q813 . ?s pq:P805 ?v }", "faithful"),
    # ... not another qualifier of the statement
    ("What is the diplomatic relationship between Saudi Arabia and Kyrgyzstan?",
     "SELECT ?v WHERE { wd:Q851 p:P530 ?s . ?s ps:P530 wd:Q813 . ?s pq:P580 ?v }", "unsupported"),
    ("What is the diplomatic relationship between Saudi Arabia and Kyrgyzstan?",
     "SELECT ?v WHERE { wd:Q851 p:P530 ?s . ?s ps:P530 wd:Q813 . ?s pq:P642 ?v }", "unsupported"),
    # ... nor for a noun that names the statement's value, not the relation ("spouse")
    ("Who is the spouse of Cary Grant?",
     "SELECT ?v WHERE { wd:Q83410 p:P26 ?s . ?s ps:P26 ?obj . ?s pq:P805 ?v }", "unsupported"),
    # "the N for which NAME was a M", parsed as an embedded question "which NAME was a M" under
    # "for": NAME is M for the N (and NAME is no answer)
    ("Which is the film for which Akira Kurosawa was a film editor?",
     "SELECT DISTINCT ?sbj WHERE { ?sbj wdt:P1040 wd:Q8006 . ?sbj wdt:P31 wd:Q11424 }", "faithful"),
    ("Which is the film for which Akira Kurosawa was a film editor?",
     "SELECT DISTINCT ?sbj WHERE { wd:Q8006 wdt:P1040 ?sbj . ?sbj wdt:P31 wd:Q11424 }", "unsupported"),
    ("Which is the film for which Akira Kurosawa was a film editor?",
     "SELECT DISTINCT ?sbj WHERE { ?sbj wdt:P57 wd:Q8006 . ?sbj wdt:P31 wd:Q11424 }", "unsupported"),
    # "how is X measured?" asks what X is measured by (template verb_manner_means); "it" refers
    # to the only item a noun names when the question names none
    ("What is the drug treatment for Anxiety and how is it measured?",
     "SELECT ?ans_1 ?ans_2 WHERE { wd:Q154430 wdt:P1880 ?ans_1 . wd:Q154430 wdt:P2176 ?ans_2 }", "faithful"),
    ("What is the drug treatment for Anxiety and how is it measured?",
     "SELECT ?ans_1 ?ans_2 WHERE { ?ans_1 wdt:P1880 wd:Q154430 . wd:Q154430 wdt:P2176 ?ans_2 }", "unsupported"),
    ("What is the drug treatment for Anxiety and how is it measured?",
     "SELECT ?ans_1 ?ans_2 WHERE { wd:Q154430 wdt:P1542 ?ans_1 . wd:Q154430 wdt:P2176 ?ans_2 }", "unsupported"),
    # ... but not the "it" of a name test, which is the answer's name (a wrong property took
    # "in it" as "in historical event")
    ("TELL ME HISTORICAL EVENT WHOSE NAME HAS THE WORD WAR IN IT.",
     "SELECT DISTINCT ?sbj ?sbj_label WHERE { ?sbj wdt:P131 wd:Q13418847 . ?sbj rdfs:label ?sbj_label . "
     "FILTER (CONTAINS(LCASE(?sbj_label), \"war\")) FILTER (LANG(?sbj_label) = \"en\") } LIMIT 25", "unsupported"),
    # "has as NP NAME" is "has NAME as NP" (the object written last), and a property labelled
    # "has N" is named by its noun N ("grammatical person" for *has grammatical person*)
    ("Tell me the modern language that has as grammatical person the second-person singular and "
     "starts with the letter r?",
     "SELECT DISTINCT ?sbj WHERE { ?sbj wdt:P31 wd:Q1288568 . ?sbj wdt:P5110 wd:Q51929369 . "
     "?sbj rdfs:label ?sbj_label . FILTER ( STRSTARTS ( lcase ( ?sbj_label ) , 'r' ) ) . "
     "FILTER ( lang ( ?sbj_label ) = 'en' ) } LIMIT 25", "faithful"),
    ("Tell me the modern language that has as grammatical person the second-person singular and "
     "starts with the letter r?",
     "SELECT DISTINCT ?sbj WHERE { ?sbj wdt:P31 wd:Q1288568 . wd:Q51929369 wdt:P5110 ?sbj . "
     "?sbj rdfs:label ?sbj_label . FILTER ( STRSTARTS ( lcase ( ?sbj_label ) , 'r' ) ) . "
     "FILTER ( lang ( ?sbj_label ) = 'en' ) } LIMIT 25", "unsupported"),
    # "A and B begin / end their relationship": "their" on the object of a verb whose subject is
    # a coordination refers to the coordination (background axioms), and "relationship" names
    # *unmarried partner* as the relation of its two parties (noun_relation_between and its
    # relational variant)
    ("When did Eddie Murphy and Melanie Brown begin their relationship?",
     "SELECT ?value WHERE { wd:Q43874 p:P451 ?s . ?s ps:P451 wd:Q236005 . ?s pq:P580 ?value }", "faithful"),
    ("When did Eddie Murphy and Melanie Brown begin their relationship?",
     "SELECT ?value WHERE { wd:Q43874 p:P26 ?s . ?s ps:P26 wd:Q236005 . ?s pq:P580 ?value }", "unsupported"),
    ("When did Eddie Murphy and Melanie Brown begin their relationship?",
     "SELECT ?value WHERE { wd:Q43874 p:P451 ?s . ?s ps:P451 wd:Q236005 . ?s pq:P582 ?value }", "unsupported"),
    ("When did Albert Camus and Catherine Sellers end their relationship?",
     "SELECT ?value WHERE { wd:Q34670 p:P451 ?s . ?s ps:P451 wd:Q2942060 . ?s pq:P582 ?value }", "faithful"),
    ("When did Albert Camus and Catherine Sellers end their relationship?",
     "SELECT ?value WHERE { wd:Q34670 p:P451 ?s . ?s ps:P451 wd:Q2942060 . ?s pq:P580 ?value }", "unsupported"),
    ("When did Albert Camus and Catherine Sellers end their relationship?",
     "SELECT ?value WHERE { wd:Q34670 p:P1038 ?s . ?s ps:P1038 wd:Q2942060 . ?s pq:P582 ?value }", "unsupported"),
    # *female population* (as *population*) answers "how many" without a COUNT; *male
    # population* does not name the females, and a time answers no "how many"
    ("How many females out of the population of 440636 in Liberec Region are there?",
     "SELECT ?value WHERE { wd:Q193266 p:P1082 ?s . ?s ps:P1082 ?x filter ( contains ( ?x , '440636' ) ) . "
     "?s pq:P1539 ?value }", "faithful"),
    ("How many females out of the population of 440636 in Liberec Region are there?",
     "SELECT ?value WHERE { wd:Q193266 p:P1082 ?s . ?s ps:P1082 ?x filter ( contains ( ?x , '440636' ) ) . "
     "?s pq:P1540 ?value }", "unsupported"),
    ("How many females out of the population of 440636 in Liberec Region are there?",
     "SELECT ?value WHERE { wd:Q193266 p:P1082 ?s . ?s ps:P1082 ?x filter ( contains ( ?x , '440636' ) ) . "
     "?s pq:P585 ?value }", "intent_mismatch"),
    # "X has a N with Y", N a relational noun whose complement is the "with" phrase
    # (template relational_noun_have_with): N(X, Y)
    ("What chemical compounds have a significant interaction with cocaine?",
     "SELECT DISTINCT ?sbj WHERE { ?sbj wdt:P769 wd:Q41576 . ?sbj wdt:P31 wd:Q11173 }", "faithful"),
    ("What chemical compounds have a significant interaction with cocaine?",
     "SELECT DISTINCT ?sbj WHERE { wd:Q41576 wdt:P769 ?sbj . ?sbj wdt:P31 wd:Q11173 }", "unsupported"),
    ("What chemical compounds have a significant interaction with cocaine?",
     "SELECT DISTINCT ?sbj WHERE { ?sbj wdt:P129 wd:Q41576 . ?sbj wdt:P31 wd:Q11173 }", "unsupported"),
    # ... and "with Y" hung on "have" rather than on the noun (noun_relation_between)
    ("The Empire of Japan had diplomatic relations with what historical country?",
     "SELECT DISTINCT ?obj WHERE { wd:Q188712 wdt:P530 ?obj . ?obj wdt:P31 wd:Q3024240 }", "faithful"),
    ("The Empire of Japan had diplomatic relations with what historical country?",
     "SELECT DISTINCT ?obj WHERE { wd:Q188712 wdt:P190 ?obj . ?obj wdt:P31 wd:Q3024240 }", "unsupported"),
    # a relative clause opened by "where" after a noun is about that noun (the parse left it
    # without a head; "where" is its own predication)
    ("What is the population of the city where Jack Sarfatti was born?",
     "SELECT ?answer WHERE { wd:Q726815 wdt:P19 ?X . ?X wdt:P1082 ?answer }", "faithful"),
    ("What is the population of the city where Jack Sarfatti was born?",
     "SELECT ?answer WHERE { wd:Q726815 wdt:P20 ?X . ?X wdt:P1082 ?answer }", "unsupported"),
    ("What is the population of the city where Jack Sarfatti was born?",
     "SELECT ?answer WHERE { ?X wdt:P19 wd:Q726815 . ?X wdt:P1082 ?answer }", "unsupported"),
    # a property's name written solid in Wikidata is also named by its words apart
    # ("live journal ID" for *LiveJournal ID*)
    ("what is live journal ID for mikhail prokhorov?",
     "SELECT DISTINCT ?answer WHERE { wd:Q233581 wdt:P3258 ?answer }", "faithful"),
    ("what is live journal ID for mikhail prokhorov?",
     "SELECT DISTINCT ?answer WHERE { ?answer wdt:P3258 wd:Q233581 }", "unsupported"),
    ("what is live journal ID for mikhail prokhorov?",
     "SELECT DISTINCT ?answer WHERE { wd:Q233581 wdt:P2002 ?answer }", "unsupported"),
    # "How did X die?" asks the manner of death (template verb_manner_subject, lexicon "die"
    # -> manner of death, exclusive: "where did X die?" is no manner)
    ("How did the actress of Spartacus die?",
     "SELECT ?answer WHERE { wd:Q108297 wdt:P161 ?X . ?X wdt:P1196 ?answer }", "faithful"),
    ("How did the actress of Spartacus die?",
     "SELECT ?answer WHERE { wd:Q108297 wdt:P161 ?X . ?answer wdt:P1196 ?X }", "unsupported"),
    ("How did the actress of Spartacus die?",
     "SELECT ?answer WHERE { wd:Q108297 wdt:P161 ?X . ?X wdt:P20 ?answer }", "unsupported"),
    ("Where was Woodrow Wilson born, and where did he die?",
     "SELECT ?ans_1 ?ans_2 WHERE { wd:Q34296 wdt:P1196 ?ans_1 . wd:Q34296 wdt:P19 ?ans_2 . }", "unsupported"),
]


def test_who_is_name_says_how_it_was_read(verifier):
    v = verifier.verify("who was louis riel?", "SELECT ?x WHERE { wd:Q313691 wdt:P106 ?x . }")
    assert v.decision == "accept" and "read as what NAME does" in v.deductive.reason
    assert "read as what NAME does" in v.deductive.explanation  # said to people too
    # a count of the occupations answers another question
    v = verifier.verify("who was louis riel?", "SELECT (COUNT(?x) AS ?n) WHERE { wd:Q313691 wdt:P106 ?x . }")
    assert v.decision == "reject" and v.deductive.verdict == "intent_mismatch"


def test_married_to_is_not_married_in(verifier):
    # "married to" names the spouse; *place of marriage*'s "married in" needs "in" (the
    # question has no MRS in the corpus: its pattern reading reads "married" as an adjective)
    q = "who is steve nash married to?"
    assert verifier.verify(q, "SELECT ?x WHERE { wd:Q192955 wdt:P26 ?x . }").decision == "accept"
    v = verifier.verify(q, "SELECT ?x WHERE { wd:Q192955 wdt:P2842 ?x . }")
    assert v.decision != "accept" and "P2842" in v.deductive.reason


def test_a_long_names_tail_must_be_distinctive(verifier):
    # two words of six ("Fighting Falcon") are too little of *General Dynamics F-16 Fighting Falcon*
    v = verifier.verify("What is the manufacturer of Fighting Falcon?",
                        "SELECT ?x WHERE { wd:Q100026 wdt:P176 ?x }")
    assert v.deductive is not None and "Q100026" in v.deductive.reason and "no word" in v.deductive.reason


@pytest.mark.parametrize("question,sparql,verdict", [c for c in CASES if c[1]],
                         ids=[f"{c[0][:40]}-{c[2]}" for c in CASES if c[1]])
def test_verdicts_on_benchmark_questions(verifier, question, sparql, verdict):
    v = verifier.verify(question, sparql)
    assert v.deductive is not None and v.deductive.verdict == verdict, v.deductive.reason


def test_superlative_word_inside_a_linked_name_asks_for_no_ordering(verifier):
    # "Best" is part of the award's name: no ORDER BY is missing (the reading's trouble is the
    # nomination's arguments, not an ordering)
    v = verifier.verify("When was Tiger Woods nominated for a Best Male Golfer Espy Award?",
                        "SELECT ?t WHERE { wd:Q10993 p:P1411 ?s . ?s ps:P1411 wd:Q4896729 . "
                        "?s pq:P585 ?t }")
    assert v.deductive.verdict != "intent_mismatch" and "superlative" not in v.deductive.reason
    # a superlative that no name contains still needs ORDER BY with LIMIT
    v = verifier.verify("What river in Loire has the highest Strahler number?",
                        "SELECT ?r WHERE { ?r wdt:P31 wd:Q4022 ; wdt:P1548 ?n ; wdt:P131 wd:Q12569 }")
    assert v.deductive.verdict == "intent_mismatch" and "superlative" in v.deductive.reason



def test_as_well_as_is_a_coordination_not_a_comparison(verifier):
    # "as well as" reads like the comparative "as ADJ as"; it asks for no comparison (and
    # "Shivaji" is written whole inside the label "Shivaji Bhonsle I" of Q239505)
    v = verifier.verify("Did Shivaji marry both Soyarabai as well as Putalabai?",
                        "ASK WHERE { wd:Q239505 wdt:P26 wd:Q7572005 . wd:Q239505 wdt:P26 wd:Q7262174 }")
    assert "compares" not in v.deductive.reason and v.deductive.verdict == "faithful"


def test_a_label_the_question_writes_is_not_blamed_on_an_alternative(verifier):
    # "public holidays" writes the label *public holiday* word for word, although the reading
    # splits it ("public" + "holidays"): the explanation of the wrong entity names the entity,
    # not *place of publication* as a better property for "public"
    v = verifier.verify("What public holidays are celebrated in Barcelona?",
                        "SELECT ?obj WHERE { wd:Q483236 wdt:P832 ?obj . ?obj wdt:P31 wd:Q1197685 }")
    assert v.decision == "reject"
    assert "Q483236" in v.deductive.reason and "P291" not in v.deductive.reason


def test_a_number_inside_a_title_is_no_comparison(verifier):
    # "after The Jazz Giants '56": the year is part of the album's title, so "after" compares
    # nothing (a reading makes '56 a year of the title's head noun)
    v = verifier.verify("The album after The Jazz Giants '56 featured what musician?",
                        "SELECT ?answer WHERE { wd:Q7743037 wdt:P156 ?X . ?X wdt:P175 ?answer }")
    assert v.deductive.verdict != "intent_mismatch" and "compares" not in v.deductive.reason
    # a year that heads no name is still a comparison
    v = verifier.verify("How is a Gregorian date written prior to 1584",
                        "SELECT ?obj WHERE { wd:Q200262 p:P571 ?s . ?s ps:P571 ?obj . ?s pq:P31 wd:Q26961029 }")
    assert v.deductive.verdict == "intent_mismatch" and "compar" in v.deductive.reason


def test_a_misspelt_word_names_the_property_it_misspells(verifier):
    """"subsidary" (an unknown word, not in WordNet) is read as "subsidiary" (child
    organization); needs the WordNet table, the dictionary that tells a typo from a rare word."""
    if verifier.wordnet is None:
        pytest.skip("WordNet relations not built (verifier setup wordnet)")
    q = "which is the  parent organisation and the  subsidary of metro-godwyn-mayer?"
    gold = "SELECT ?ans_1 ?ans_2 WHERE { wd:Q179200 wdt:P749 ?ans_1 . wd:Q179200 wdt:P355 ?ans_2 }"
    assert verifier.verify(q, gold).verdict == "faithful"
    wrong = "SELECT ?ans_1 ?ans_2 WHERE { wd:Q179200 wdt:P749 ?ans_1 . wd:Q922169 wdt:P355 ?ans_2 }"
    assert verifier.verify(q, wrong).verdict == "unsupported"


def test_a_misspelt_name_names_the_query_item_it_misspells(verifier):
    """"eduador" is in no label and not in WordNet: it names *Ecuador*, the query's item;
    another country there is not named by it."""
    if verifier.wordnet is None:
        pytest.skip("WordNet relations not built (verifier setup wordnet)")
    q = "which is the secular state with the highest total reserves whose diplomatic relation is eduador?"
    gold = ("select ?ent where { ?ent wdt:P31 wd:Q859563 . ?ent wdt:P2134 ?obj . ?ent wdt:P530 wd:Q736 }"
            " ORDER BY DESC ( ?obj ) LIMIT 5")
    assert verifier.verify(q, gold).verdict == "faithful"
    wrong = gold.replace("wd:Q736", "wd:Q739")  # Colombia
    assert verifier.verify(q, wrong).decision == "reject"


@pytest.mark.timeout(600)
def test_a_query_whose_diagnosis_hung_the_solver_gets_a_verdict(verifier):
    """Diagnosing this SPINACH query atom by atom (thirteen filters over a variable property)
    hung z3 for minutes in ``Solver.push``, outside the check's timeout; each atom is now
    checked under an assumption literal instead, and the pair gets its verdict."""
    q = 'What are the 20 most common properties, excluding external IDs, for television series on Moroccan Arabic Wikipedia (https://ary.wikipedia.org/), and what percentage of television series have each property?'
    sparql = 'PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\nPREFIX wd: <http://www.wikidata.org/entity/>\nPREFIX wdt: <http://www.wikidata.org/prop/direct/>\nSELECT ?property ?propertyLabel ( COUNT( ?tvseries ) AS ?count ) ( ( COUNT( ?tvseries ) * 100.0 ) / 77175 AS ?percentage ) WHERE {\n  ?tvseries wdt:P31 wd:Q5398426 .\n  ?tvseries ?property ?value .\n  FILTER ( ! STRSTARTS( STR( ?property ) , "http://www.wikidata.org/prop/direct/P31" ) ) FILTER ( ! STRSTARTS( STR( ?property ) , "http://www.wikidata.org/prop/direct/P18" ) ) FILTER ( ! STRSTARTS( STR( ?property ) , "http://www.wikidata.org/prop/direct/P214" ) ) FILTER ( ! STRSTARTS( STR( ?property ) , "http://www.wikidata.org/prop/direct/P244" ) ) FILTER ( ! STRSTARTS( STR( ?property ) , "http://www.wikidata.org/prop/direct/P227" ) ) FILTER ( ! STRSTARTS( STR( ?property ) , "http://www.wikidata.org/prop/direct/P268" ) ) FILTER ( ! STRSTARTS( STR( ?property ) , "http://www.wikidata.org/prop/direct/P269" ) ) FILTER ( ! STRSTARTS( STR( ?property ) , "http://www.wikidata.org/prop/direct/P345" ) ) FILTER ( ! STRSTARTS( STR( ?property ) , "http://www.wikidata.org/prop/direct/P123" ) ) FILTER ( ! STRSTARTS( STR( ?property ) , "http://www.wikidata.org/prop/direct/P856" ) ) FILTER ( ! STRSTARTS( STR( ?property ) , "http://www.wikidata.org/prop/direct/P11871" ) ) FILTER ( ! STRSTARTS( STR( ?property ) , "http://www.wikidata.org/prop/direct/P4835" ) ) FILTER ( ! STRSTARTS( STR( ?property ) , "http://www.wikidata.org/prop/direct/P6643" ) ) OPTIONAL {\n    ?property rdfs:label ?propertyLabel FILTER ( LANG( ?propertyLabel ) = "en" )\n  }\n}\nGROUP BY ?property ?propertyLabel\nHAVING ( COUNT( ?tvseries ) > 1000 )\nORDER BY DESC ( ?count )\nLIMIT 20'
    v = verifier.verify(q, sparql)
    assert v.decision == "reject" and v.verdict == "unsupported"


def test_an_alias_that_says_all_the_words_keeps_the_property(verifier):
    # "administrative territorial entity" is an alias of *located in the administrative
    # territorial entity* (P131): *located in the present-day administrative territorial
    # entity* (P3842), whose name says those words and more, does not overrule it (and the
    # noun restating the name takes the value with its "of": the pair is faithful)
    v = verifier.verify("What is located in the administrative territorial entity of Nicaragua?",
                        "SELECT ?answer WHERE { ?answer wdt:P131 wd:Q811 }")
    assert v.deductive is not None and "P3842" not in v.deductive.reason, v.deductive.reason
    assert v.deductive.verdict == "faithful", v.deductive.reason


def test_a_label_written_with_an_article_is_not_overruled(verifier):
    # "present in the work" writes the label *present in work* (P1441), articles aside, although
    # the unit's best name is the alias "from work": *work location* (P937) does not overrule it
    v = verifier.verify("Which is the work present in the work of Confucius?",
                        "SELECT ?obj WHERE { wd:Q4604 wdt:P1441 ?obj . ?obj wdt:P31 wd:Q386724 }")
    assert v.deductive is not None and "P937" not in v.deductive.reason, v.deductive.reason


def test_how_many_is_answered_by_a_count_or_a_number_of_value(verifier):
    """"How many children does X have?": *number of children* answers it, the children
    themselves (without COUNT) do not."""
    v = verifier.verify("How many children does Barack Obama have?", "SELECT ?n WHERE { wd:Q76 wdt:P1971 ?n }")
    assert v.decision == "accept"
    v = verifier.verify("How many children does Barack Obama have?", "SELECT ?n WHERE { wd:Q76 wdt:P40 ?n }")
    assert v.decision != "accept" and "does not COUNT" in v.deductive.reason


def test_a_prefixed_word_names_the_whole_word(verifier):
    # the ERG splits "coextensive" into _co-_a_with + _extensive_a_1: the label
    # "coextensive with" is still written in the question
    q = "South Australia is coextensive with which constituency of the Australian Senate?"
    gold = "SELECT ?x WHERE { ?x wdt:P3403 wd:Q35715 . ?x wdt:P31 wd:Q56648990 }"
    reason = verifier.verify(q, gold).deductive.reason
    assert "Q56648990" in reason and "P3403" not in reason  # only the class name is not written


def test_a_class_named_by_a_synonym(verifier):
    """"Roman god" names the class *Roman deity* through WordNet ("god" ~ "deity"); the
    more general class *deity* leaves "Roman" unsaid.  Needs the WordNet table."""
    if verifier.wordnet is None:
        pytest.skip("WordNet relations not built (verifier setup wordnet)")
    q = "What Roman god was worshiped by Christians?"
    gold = "select distinct ?sbj where { ?sbj wdt:P1049 wd:Q5043 . ?sbj wdt:P31 wd:Q11688446 }"
    assert verifier.verify(q, gold).deductive.verdict == "faithful"
    other = "select distinct ?sbj where { ?sbj wdt:P1049 wd:Q5043 . ?sbj wdt:P31 wd:Q178885 }"  # deity
    assert verifier.verify(q, other).deductive.verdict == "unsupported"


def test_a_negation_is_read_through_its_kg_reading(verifier):
    """"do not have an English label" is ``~(exists l. rdfs:label(x, l) & lang(l) = "en")``
    (background axioms for labels in a language): the query that says so is faithful, one
    that tests another language is not, and a reading that keeps the negation finds that a
    query without it drops it."""
    q = "Which scholarly articles published in the journal Geosphere do not have an English label?"
    no_label = ("SELECT ?a WHERE { ?a wdt:P1433 wd:Q15817086 . FILTER NOT EXISTS { ?a rdfs:label ?l . "
                'FILTER ( LANG( ?l ) = "%s" ) } }')
    v = verifier.verify(q, no_label % "en")
    assert v.deductive.verdict == "faithful", v.deductive.reason
    v = verifier.verify(q, no_label % "fr")
    assert v.decision != "accept" and '"fr"' in v.deductive.reason
    v = verifier.verify(q, "SELECT ?a WHERE { ?a wdt:P1433 wd:Q15817086 . }")
    dropped = [r for r in v.deductive.readings if r.verdict == "weaker" and "drops constraints" in r.reason]
    assert dropped and 'lang(' in dropped[0].reason


def test_a_negation_with_a_word_no_link_explains_gets_no_kg_reading(verifier):
    """The negation's KG reading needs every content word of it: "do not have a label" alone
    (no language) would say less than the question's "English label"."""
    from verifier.deductive import negation_kg_readings
    from verifier.grounding import Unit
    from verifier.logic import Atom, Exists, Literal, Not, Var, conj

    x, y, e, m, z = (Var(n) for n in ("x3", "x28", "e2", "e33", "x34"))
    have = Atom("_have_v_1", (e, x, y))
    label = Atom("_label_n_1", (y,))
    english = Atom("named", (z, Literal("English")))
    ax = verifier.pack.background
    axioms = [f for _, f, _ in ax]

    class R:  # a reading: "x does not have an English label"
        formula = conj(Atom("_article_n_of", (x, Var("i9"))),
                       Not(Exists((e, y, m, z), conj(have, label, Atom("compound", (m, y, z)), english))))
    units = [Unit(label, "noun", "label", "n", ("label",), ("label",), "label", y),
             Unit(english, "named", "english", None, ("english",), ("english",), "English", z)]
    (k,) = negation_kg_readings(R, axioms, units).values()
    assert 'lang(' in str(k) and "rdfs:label(x3" in str(k)
    # "a red label": "red" adds nothing to the KG reading, so the negation gets none
    red = Atom("_red_a_1", (Var("e40"), y))
    R.formula = conj(Atom("_article_n_of", (x, Var("i9"))),
                     Not(Exists((e, y, m, z), conj(have, label, red, Atom("compound", (m, y, z)), english))))
    units.append(Unit(red, "adjective", "red", "a", ("red",), ("red",), "red", Var("e40")))
    assert negation_kg_readings(R, axioms, units) == {}


def test_the_highest_place_is_the_highest_point(verifier):
    v = verifier.verify("What is the highest place of the Urals?",
                        "SELECT ?p WHERE { wd:Q35600 wdt:P610 ?p . }")
    assert v.decision == "accept", v.deductive.reason
    v = verifier.verify("What is the highest place of the Urals?",
                        "SELECT ?p WHERE { wd:Q35600 wdt:P1589 ?p . }")  # lowest point
    assert v.decision != "accept"


def test_an_optional_answer_column_the_question_asks_for_is_checked(verifier):
    """An answer column bound only in an OPTIONAL group is still what the question asks for:
    "the occupation" answered by ``OPTIONAL { X wdt:P19 ?b }`` (place of birth) is not
    supported; a column beyond the question's answers stays extra information."""
    q = "What are the sex and the occupation of Merlin?"
    ok = "SELECT ?a ?b WHERE { wd:Q188044 wdt:P21 ?a . OPTIONAL { wd:Q188044 wdt:P106 ?b } }"
    assert verifier.verify(q, ok).decision == "accept"
    bad = "SELECT ?a ?b WHERE { wd:Q188044 wdt:P21 ?a . OPTIONAL { wd:Q188044 wdt:P19 ?b } }"
    v = verifier.verify(q, bad)
    assert v.decision != "accept" and "P19" in v.deductive.reason
    extra = "SELECT ?a ?b WHERE { wd:Q188044 wdt:P21 ?a . OPTIONAL { wd:Q188044 wdt:P19 ?b } }"
    assert verifier.verify("What is the sex of Merlin?", extra).decision == "accept"


def test_a_reading_that_makes_a_noun_of_an_item_that_item_proves_nothing(verifier):
    """Readings of "The writers of The Large Scale Structure of Space-Time hold what
    specialty?" that put "writers" in apposition to words of the title make the book its own
    writer, from which either direction of *author* follows; they are undecided, so the
    swapped query is not accepted, while the reading that keeps the title whole accepts the
    gold query ("X holds N": N is a property of X)."""
    q = "The writers of The Large Scale Structure of Space-Time hold what specialty?"
    gold = "SELECT ?a WHERE { wd:Q7745497 wdt:P50 ?x . ?x wdt:P101 ?a }"
    assert verifier.verify(q, gold).decision == "accept"
    v = verifier.verify(q, "SELECT ?a WHERE { ?x wdt:P50 wd:Q7745497 . ?x wdt:P101 ?a }")
    assert v.decision != "accept"
    assert any("a noun of an item that item itself" in r.reason for r in v.deductive.readings)


def test_a_preposition_a_lexicon_entry_lists_names_a_qualifier(verifier):
    """"after Y" stands for *replaces* Y (lexicon entry with ``pos: p``), also as a statement
    qualifier, which a preposition otherwise never names; "before" would be *replaced by*."""
    q = "What position did Theodore Roosevelt hold after William McKinley?"
    s = "SELECT ?p WHERE { wd:Q33866 p:P39 ?s . ?s ps:P39 ?p . ?s pq:%s wd:Q35041 }"
    v = verifier.verify(q, s % "P1365")
    assert v.decision == "accept" and "named by 'after'" in v.deductive.reason
    assert verifier.verify(q, s % "P1366").decision != "accept"


def test_a_time_qualifier_that_orders_statements_is_named_by_first(verifier):
    """"first" keeps the earliest statement: the start time that only orders the statements
    (ORDER BY ASC with LIMIT) is named by it; ordered the other way it is not."""
    q = "who was johnny cash's first wife?"
    s = "SELECT ?x WHERE { wd:Q42775 p:P26 ?p . ?p ps:P26 ?x . ?p pq:P580 ?y . } ORDER BY %s(?y) LIMIT 1"
    v = verifier.verify(q, s % "ASC")
    assert v.decision == "accept" and "named by 'first'" in v.deductive.reason
    assert verifier.verify(q, s % "DESC").decision == "reject"


def test_a_label_test_needs_a_question_that_speaks_of_the_name(verifier):
    """A string test of a label whose literal is only a word of the question ("a list of
    roller coasters" answered by labels containing "roller coaster") is not supported, and the
    explanation says so first; "contains the word world in their name" is."""
    head = ("PREFIX wdt: <http://www.wikidata.org/prop/direct/> PREFIX wd: <http://www.wikidata.org/entity/> "
            "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> ")
    v = verifier.verify("Get a list of roller coasters and their respective countries, if available.",
                        head + "SELECT ?x ?c WHERE { ?x rdfs:label ?l . FILTER(LANG(?l) = 'en') "
                        "FILTER(CONTAINS(LCASE(?l), 'roller coaster')) ?x wdt:P17 ?c }")
    assert v.decision == "reject"
    assert v.deductive.reason.startswith("contains(") and "does not speak of the name" in v.deductive.reason
    ok = verifier.verify("Which song that contains the word world in their name",
                         head + "SELECT ?s ?l WHERE { ?s wdt:P31 wd:Q7366 . ?s rdfs:label ?l . "
                         "FILTER(CONTAINS(LCASE(?l), 'world')) FILTER(LANG(?l) = 'en') }")
    assert ok.decision == "accept"


def test_a_limit_that_cuts_off_the_answers_is_an_intent_mismatch(verifier):
    """ "Which actors were born in Germany?" asks for all of them: the same query with
    ``LIMIT 100`` (and no ORDER BY) returns some, and is rejected with that reason."""
    head = "PREFIX wdt: <http://www.wikidata.org/prop/direct/> PREFIX wd: <http://www.wikidata.org/entity/> "
    q = "Which actors were born in Germany?"
    body = "SELECT ?a WHERE { ?a wdt:P106 wd:Q33999 ; wdt:P19 wd:Q183 }"
    assert verifier.verify(q, head + body).decision == "accept"
    v = verifier.verify(q, head + body + " LIMIT 100")
    assert v.decision == "reject" and v.deductive.verdict == "intent_mismatch"
    assert "LIMIT 100" in v.deductive.reason


def test_a_demonym_read_as_a_name_in_a_compound_says_it_of_the_noun(verifier):
    """ "What Italian ferry ...?" parsed as compound(ferry, "Italian"): the ferry's country is
    Italy (the query's other atoms fail for reasons of their own), not France."""
    head = "PREFIX wdt: <http://www.wikidata.org/prop/direct/> PREFIX wd: <http://www.wikidata.org/entity/> "
    q = "What Italian ferry has the lowest weight in tonnes ?"

    def country_atom(country):
        v = verifier.verify(q, head + f"SELECT ?e WHERE {{ ?e wdt:P31 wd:Q25653 . ?e wdt:P17 wd:{country} . "
                                      "?e wdt:P1093 ?w } ORDER BY ASC(?w) LIMIT 5")
        [d] = [d for d in v.deductive.best.diagnosis if "P17" in d.atom]
        return d

    assert country_atom("Q38").entailed
    assert not country_atom("Q142").entailed


def test_the_pair_budget_counts_solver_work_not_the_clock(verifier, monkeypatch):
    """A slow or loaded machine makes a pair slower, not different: the budget of a pair is
    the solver work of its readings, so a clock that runs fast changes nothing (only many
    times the budget of wall-clock time stops a pair)."""
    import time as _time

    import verifier.deductive.pipeline as deductive

    q = "Robert Hooke attended which university with a Grade 1 listed building?"
    s = "SELECT ?answer WHERE { wd:Q46830 wdt:P69 ?answer . ?answer wdt:P1435 wd:Q15700818 }"
    normal = verifier.verify(q, s).deductive
    assert len(normal.readings) > 1 and all(r.work > 0 for r in normal.readings)
    real = _time.perf_counter
    calls = [0]

    def fast_clock():  # each look at the clock finds 3 s more gone
        calls[0] += 1
        return real() + 3.0 * calls[0]

    monkeypatch.setattr(deductive.time, "perf_counter", fast_clock)
    slow = verifier.verify(q, s).deductive
    assert calls[0] > 0
    assert [(r.verdict, r.reason) for r in slow.readings] == [(r.verdict, r.reason) for r in normal.readings]
    monkeypatch.setattr(deductive.time, "perf_counter", real)
    # a budget smaller than the first reading's work stops after it
    old = verifier.budget_ms
    try:
        verifier.budget_ms = 0.001  # at least 1 ms: 3,000 units of work
        assert len(verifier.verify(q, s).deductive.readings) == 1
    finally:
        verifier.budget_ms = old


def test_a_pairs_work_does_not_depend_on_what_was_checked_before(verifier):
    """Each pair's checks run in a Z3 context of their own: checked again after other pairs,
    every reading does the same work and gets the same verdict (so an audit's verdicts do
    not depend on which worker met which pair first)."""
    q = "Robert Hooke attended which university with a Grade 1 listed building?"
    s = "SELECT ?answer WHERE { wd:Q46830 wdt:P69 ?answer . ?answer wdt:P1435 wd:Q15700818 }"
    first = [(r.verdict, r.reason, r.work) for r in verifier.verify(q, s).deductive.readings]
    for q2, s2 in [("Give me all soccer clubs in Spain.", "SELECT ?c WHERE { ?c wdt:P31 wd:Q476028 ; wdt:P17 wd:Q29 . }"),
                   ("What are the sex and the occupation of Merlin?",
                    "SELECT ?a ?b WHERE { wd:Q188044 wdt:P21 ?a . wd:Q188044 wdt:P106 ?b }")]:
        verifier.verify(q2, s2)
    assert [(r.verdict, r.reason, r.work) for r in verifier.verify(q, s).deductive.readings] == first


def test_a_place_and_its_region_written_as_one_name(verifier):
    # "london england" read as one name (the time-zone pattern): London's time zone is asked.
    # The name's words also write England's label, which the check does not tell from the
    # place it only disambiguates ("texas san antonio" writes the region first): a query about
    # England is accepted too, a known limit (docs/deductive.md, "Stop 47").
    v = verifier.verify("what time zone is it in london england?", "SELECT ?x WHERE { wd:Q84 wdt:P421 ?x . }")
    assert v.decision == "accept"
    v = verifier.verify("what time zone is it in london england?", "SELECT ?x WHERE { ?x wdt:P421 wd:Q84 . }")
    assert v.decision == "reject"


def test_a_name_written_by_its_last_words_is_explained_so(verifier):
    v = verifier.verify("where do the broncos play?", "SELECT ?x WHERE { wd:Q223507 wdt:P115 ?x . }")
    assert v.decision == "accept"
    why = [l["why"] for l in v.to_dict()["deductive"]["links"] if l["symbol"] == "wd:Q223507"]
    assert why and "by its last words, 'broncos'" in why[0]
