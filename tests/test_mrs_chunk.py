"""Multiword names read as one name after parsing (parsers.mrs.chunk)."""

from parsers.mrs import translate_readings
from parsers.mrs.chunk import chunk_names, common_words, name_spans
from parsers.mrs.simplemrs import read_simplemrs
from verifier.logic import atoms

Q = "Where did Steve Jobs work?"


def _span(word: str, q: str = Q) -> str:
    a = q.index(word)
    return f"<{a}:{a + len(word)}>"


# a reading that takes "Jobs" for the noun "job" (written by hand, as a grammar without a
# gazetteer reads it): the name is "Steve" compounded with jobs
GARBLED = (
    "[ TOP: h0 INDEX: e2 [ e SF: ques ] RELS: < "
    f"[ loc_nonsp{_span('Where')} LBL: h1 ARG0: e3 ARG1: e2 ARG2: x4 ] "
    f"[ place_n{_span('Where')} LBL: h5 ARG0: x4 ] "
    f"[ which_q{_span('Where')} LBL: h6 ARG0: x4 RSTR: h7 BODY: h8 ] "
    f"[ udef_q{_span('Steve Jobs')} LBL: h9 ARG0: x10 RSTR: h11 BODY: h12 ] "
    f"[ compound{_span('Steve Jobs')} LBL: h13 ARG0: e14 ARG1: x10 ARG2: x15 ] "
    f"[ proper_q{_span('Steve')} LBL: h16 ARG0: x15 RSTR: h17 BODY: h18 ] "
    f"[ named{_span('Steve')} LBL: h19 ARG0: x15 CARG: \"Steve\" ] "
    f"[ _job_n_of{_span('Jobs')} LBL: h13 ARG0: x10 ARG1: i20 ] "
    f"[ _work_v_1<{Q.index('work')}:{len(Q)}> LBL: h1 ARG0: e2 ARG1: x10 ] "
    "> HCONS: < h0 qeq h1 h7 qeq h5 h11 qeq h13 h17 qeq h19 > ]")


def test_name_spans_finds_capitalised_multiword_names():
    q = "Who is the CEO of Advanced Micro Devices and of rock band X?"
    assert name_spans(q, ["Advanced Micro Devices", "rock band", "AMD"]) == [(18, 40)]
    # the longest of overlapping names; not in a question written in capitals
    assert name_spans("Who founded the Reed College library?", ["Reed College", "Reed"], 1) == [(16, 28)]
    assert name_spans("WHO FOUNDED REED COLLEGE?", ["Reed College"]) == []


def test_a_name_read_word_by_word_becomes_one_name():
    chunked = chunk_names(read_simplemrs(GARBLED), name_spans(Q, ["Steve Jobs"]), Q)
    assert chunked is not None
    preds = sorted(ep.pred for ep in chunked.eps)
    assert preds == ["_work_v_1", "loc_nonsp", "named", "place_n", "proper_q", "which_q"]
    [t] = [t for t in translate_readings([chunked]) if t.ok]
    named = [a for a in atoms(t.formula) if a.pred == "named"]
    work = [a for a in atoms(t.formula) if a.pred == "_work_v_1"]
    assert [str(a.args[1]) for a in named] == ['"Steve Jobs"']
    assert work[0].args[1] == named[0].args[0]  # the worker is the name


def test_unsafe_or_needless_chunks_leave_the_reading_alone():
    m = read_simplemrs(GARBLED)
    assert chunk_names(m, [], Q) is None
    # the name is already read as names: nothing to do
    two_names = GARBLED.replace("_job_n_of", "named").replace("ARG1: i20 ]", 'CARG: "Jobs" ]')
    assert chunk_names(read_simplemrs(two_names), name_spans(Q, ["Steve Jobs"]), Q) is None
    # a second variable of the name is used outside it (as by a garbled apposition): the
    # name's pieces play two roles, so one name cannot replace them
    a = Q.index("Where")
    crossing = GARBLED.replace(" > HCONS", f" [ appos<{a}:{len(Q)}> LBL: h1 ARG0: e21 ARG1: x4 ARG2: x15 ] > HCONS")
    assert chunk_names(read_simplemrs(crossing), name_spans(Q, ["Steve Jobs"]), Q) is None


def test_verify_tries_the_chunked_reading_first():
    """verify() adds the chunked reading (numbered after the grammar's and the pattern
    readings) and tries it before the grammar's; ``[deductive] chunk_names = false`` turns
    that off (pattern readings off here: "Where did NAME work?" is one of their shapes)."""
    from verifier.api import Verifier
    from verifier.lexical import LabelIndex

    labels = LabelIndex()
    labels.add("Q19837", ["Steve Jobs"], kind="item")
    labels.add("P937", ["work location", "place of work"], kind="property")

    class Readings:
        def readings(self, question):
            return [GARBLED] if question == Q else None

    v = Verifier(labels=labels, mrs=Readings())
    v.patterns = False  # the question also has a pattern reading, which would prove the query
    sparql = "SELECT ?p WHERE { wd:Q19837 wdt:P937 ?p }"
    r = v.verify(Q, sparql)
    assert r.decision == "accept" and r.deductive.best.reading_index == 1
    assert 'named(x10, "Steve Jobs")' in r.deductive.best.question_formula
    v.chunk_names = False
    r = v.verify(Q, sparql)
    assert r.deductive.best.reading_index == 0


G = "What gene is associated with Cancer?"
# "gene" read as the name "Gene" (as the corpus reads some lower-case words)
GENE_AS_NAME = (
    "[ TOP: h0 INDEX: e2 [ e SF: ques ] RELS: < "
    f"[ _which_q{_span('What', G)} LBL: h4 ARG0: x3 RSTR: h5 BODY: h6 ] "
    f"[ named{_span('gene', G)} LBL: h7 ARG0: x3 CARG: \"Gene\" ] "
    f"[ _associate_v_with{_span('associated', G)} LBL: h1 ARG0: e2 ARG1: i8 ARG2: x3 ARG3: x9 ] "
    f"[ proper_q{_span('Cancer', G)} LBL: h10 ARG0: x9 RSTR: h11 BODY: h12 ] "
    f"[ named{_span('Cancer', G)} LBL: h13 ARG0: x9 CARG: \"Cancer\" ] "
    "> HCONS: < h0 qeq h1 h5 qeq h7 h11 qeq h13 > ]")


def test_a_lower_case_word_read_as_a_name_becomes_a_noun():
    m = read_simplemrs(GENE_AS_NAME)
    c = common_words(m, G)
    preds = {ep.pred: ep for ep in c.eps}
    assert "_gene/nn_u_unknown" in preds and preds["_gene/nn_u_unknown"].carg is None
    # the capitalised name stays a name under its proper_q
    assert [ep.carg for ep in c.eps if ep.pred == "named"] == ["Cancer"]
    assert any(ep.pred == "proper_q" and ep.iv == "x9" for ep in c.eps)
    (r,) = translate_readings([c])
    assert "_gene/nn_u_unknown" in {a.pred for a in atoms(r.formula)}
    # nothing to change, or a question without capitals (its names are in lower case too)
    assert common_words(read_simplemrs(GARBLED), Q) is None
    assert common_words(m, G.lower()) is None
