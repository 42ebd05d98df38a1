"""The fast SimpleMRS reader agrees with PyDelphin; odd and malformed input."""

from __future__ import annotations

import gzip
import json
import os
import random
from pathlib import Path

import pytest
from delphin.codecs import simplemrs

from parsers.mrs import Mrs, MrsError, coerce_mrs, from_pydelphin, read_simplemrs, to_pydelphin
from parsers.mrs.simplemrs import read_simplemrs_fast
from parsers.mrs.structure import EP, role_order, var_type

SHARED = Path(os.environ.get("VERIFIER_SHARED", Path(__file__).resolve().parents[2] / "shared"))
MRS_DIR = SHARED / "data" / "mrs"

BENZENE = (
    '[ TOP: h0 INDEX: e2 [ e SF: ques TENSE: pres MOOD: indicative PROG: - PERF: - ] RELS: < '
    '[ thing<0:4> LBL: h4 ARG0: x3 [ x PERS: 3 NUM: sg ] ] [ which_q<0:4> LBL: h5 ARG0: x3 RSTR: h6 BODY: h7 ] '
    '[ _be_v_id<5:7> LBL: h1 ARG0: e2 ARG1: x3 ARG2: x8 [ x PERS: 3 NUM: sg IND: + ] ] '
    '[ _the_q<8:11> LBL: h9 ARG0: x8 RSTR: h10 BODY: h11 ] [ _mass_n_of<12:16> LBL: h12 ARG0: x8 ARG1: x13 [ x PERS: 3 NUM: sg ] ] '
    '[ udef_q<20:28> LBL: h14 ARG0: x13 RSTR: h15 BODY: h16 ] [ _benzene/nn_u_unknown<20:27> LBL: h17 ARG0: x13 ] > '
    'HCONS: < h0 qeq h1 h6 qeq h4 h10 qeq h12 h15 qeq h17 > ]'
)


def _key(m: Mrs):
    return (m.top, m.index, [(e.pred, e.label, e.args, e.carg, e.cfrom, e.cto, e.is_quantifier) for e in m.eps],
            [(h.hi, h.rel, h.lo) for h in m.hcons], {k: dict(v) for k, v in m.variables.items()},
            list(m.icons))


def test_reads_the_benzene_example() -> None:
    m = read_simplemrs(BENZENE)
    assert m.top == "h0" and m.index == "e2" and m.sentence_force == "ques"
    assert [e.pred for e in m.eps] == ["thing", "which_q", "_be_v_id", "_the_q", "_mass_n_of",
                                       "udef_q", "_benzene/nn_u_unknown"]
    mass = m.eps[4]
    assert mass.args == (("ARG0", "x8"), ("ARG1", "x13")) and (mass.cfrom, mass.cto) == (12, 16)
    assert m.eps[1].is_quantifier and not m.eps[0].is_quantifier
    assert m.properties("x8") == {"PERS": "3", "NUM": "sg", "IND": "+"}
    assert [(h.hi, h.lo) for h in m.hcons] == [("h0", "h1"), ("h6", "h4"), ("h10", "h12"), ("h15", "h17")]
    assert _key(m) == _key(from_pydelphin(simplemrs.decode(BENZENE)))


@pytest.mark.parametrize("text", [
    # quoted predicate with a colon, CARG with spaces and an escaped quote, ARG before ARG0
    '[ TOP: h0 INDEX: e2 [ e SF: ques ] RELS: < [ "_re:publica/jj_u_unknown"<0:9> LBL: h1 ARG0: e2 ARG1: x3 ] '
    '[ named<10:20> LBL: h4 ARG0: x3 CARG: "New \\"York\\" City" ] [ unknown<0:20> LBL: h1 ARG: x3 ARG0: e5 ] > '
    'HCONS: < h0 qeq h1 > ICONS: < e2 topic x3 > ]',
    # LTOP, no lnk, lnk on the MRS, _rel suffixes and upper case
    '[ <0:10> LTOP: h0 INDEX: e2 RELS: < [ "_Dog_n_1_rel" LBL: h1 ARG0: x3 ] [ _bark_v_1_rel LBL: h1 ARG0: e2 ARG1: x3 ] > HCONS: < > ]',
    # predicate with '>' inside quotes
    '[ TOP: h0 INDEX: e2 RELS: < [ "_end>/vb_u_unknown"<0:4> LBL: h1 ARG0: e2 ] > HCONS: < h0 qeq h1 > ]',
])
def test_odd_inputs_match_pydelphin(text: str) -> None:
    assert _key(read_simplemrs(text)) == _key(from_pydelphin(simplemrs.decode(text)))


def test_role_order_and_normalisation() -> None:
    m = read_simplemrs('[ TOP: h0 INDEX: e2 RELS: < [ "_Dog_n_1_rel"<0:3> LBL: h1 ARG: u4 ARG2: x5 ARG0: x3 ARG1: i6 ] > HCONS: < > ]')
    ep = m.eps[0]
    assert ep.pred == "_dog_n_1"
    assert [r for r, _ in ep.args] == ["ARG0", "ARG", "ARG1", "ARG2"]
    assert sorted(["BODY", "ARG1", "RSTR", "ARG0", "ARG", "L-INDEX"], key=role_order) == \
        ["ARG0", "ARG", "ARG1", "RSTR", "BODY", "L-INDEX"]
    assert var_type("x12") == "x" and var_type("e2") == "e" and var_type("Paris") == ""


@pytest.mark.parametrize("bad", [
    "", "[", "[ TOP: h0 RELS: < [ _dog_n_1<0:3> LBL: h1 ARG0: x3 ", "not an mrs",
    "[ TOP: h0 INDEX: e2 RELS: < [ _a_q LBL: h1 ARG0: x3 RSTR: ] > HCONS: < > ]",
    "[ TOP: h0 INDEX: e2 RELS: < > HCONS: < h0 qeq > ]",
])
def test_malformed_text_raises_mrs_error(bad: str) -> None:
    with pytest.raises(MrsError):
        read_simplemrs(bad)


def test_coerce_accepts_pydelphin_and_text_and_rejects_others() -> None:
    pm = simplemrs.decode(BENZENE)
    assert _key(coerce_mrs(pm)) == _key(coerce_mrs(BENZENE))
    m = coerce_mrs(BENZENE)
    assert coerce_mrs(m) is m
    back = from_pydelphin(to_pydelphin(m))
    assert _key(back) == _key(m)
    assert _key(read_simplemrs(Mrs(m.top, m.index, m.eps, m.hcons, m.variables, m.icons).to_simplemrs())) == _key(m)
    for bad in (None, 42, object(), b"[ ]"):
        with pytest.raises(MrsError):
            coerce_mrs(bad)


def test_ep_computes_quantifier_flag() -> None:
    assert EP("udef_q", "h1", (("ARG0", "x3"), ("RSTR", "h4"), ("BODY", "h5"))).is_quantifier
    assert not EP("_dog_n_1", "h1", (("ARG0", "x3"),)).is_quantifier


@pytest.mark.skipif(not (MRS_DIR / "questions.jsonl.gz").is_file(), reason="shared corpus absent")
def test_fast_reader_agrees_with_pydelphin_on_corpus_sample() -> None:
    readings = []
    with gzip.open(MRS_DIR / "questions.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            readings.extend(json.loads(line)["readings"])
    sample = random.Random(7).sample(readings, 300)
    for text in sample:
        fast = read_simplemrs_fast(text)  # the fast path itself must read every corpus MRS
        assert _key(fast) == _key(from_pydelphin(simplemrs.decode(text)))
