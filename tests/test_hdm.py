"""HDM models, features and detector, on a tiny T5 built from a config inside the test."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest
import torch

from verifier.hdm import (DetectorConfig, DetectorFileError, FeatureTable, GeneratorConfig,
                          HDMDetector, HDMReport, ModelNotFoundError, Pair, Scorer,
                          TrainConfig, best_threshold, build_seq2seq, build_tokenizer,
                          generate, hdm_signal, load_seq2seq, macro_f1, save_seq2seq,
                          to_generator_form, train_generator)
from verifier.hdm.features import activation_column, parse_activation_column

TINY = GeneratorConfig(d_model=32, num_layers=2, num_decoder_layers=2, num_heads=2, d_ff=64,
                       dropout=0.1, max_source_len=32, max_target_len=32)
PROPS = ["mass", "population", "capital", "author", "colour"]
ENTS = ["benzene", "paris", "france", "hamlet", "snow", "iron", "gold", "rome"]
PAIRS = [Pair(f"what is the {p} of {e}?",
              f"SELECT ?x WHERE {{ wd:starturi {e} enduri wdt:starturi {p} enduri ?x }}",
              f"{p}-{e}") for p in PROPS for e in ENTS]
FAST = TrainConfig(epochs=15, batch_size=8, lr=1e-2, warmup_steps=5, vocab_size=300,
                   min_frequency=1, dev_em_sample=0, seed=0)


@pytest.fixture(scope="module", autouse=True)
def one_thread():
    old = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(old)


@pytest.fixture(scope="module")
def trained(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("gen")
    train_generator(PAIRS[:32], PAIRS[32:], out, model_config=TINY, config=FAST, progress=False)
    return out


@pytest.fixture(scope="module")
def s2s(trained):
    return load_seq2seq(trained, "cpu")


@pytest.fixture(scope="module")
def table(s2s) -> FeatureTable:
    sc = Scorer(s2s, mc_trials=8, batch_size=16, seed=1)
    preds = generate(s2s, [p.question for p in PAIRS], num_beams=3, batch_size=16)
    return sc.score([p.question for p in PAIRS], [p.query for p in preds], [p.id for p in PAIRS])


def test_tokenizer_appends_eos_and_round_trips():
    tok = build_tokenizer([p.question for p in PAIRS] + [p.target for p in PAIRS],
                          vocab_size=300, min_frequency=1)
    ids = tok("what is the mass of benzene?")["input_ids"]
    assert ids[-1] == tok.eos_token_id == 1 and tok.pad_token_id == 0
    assert tok.decode(ids, skip_special_tokens=True).strip() == "what is the mass of benzene?"
    # unseen characters are still representable (byte level)
    assert tok.unk_token_id not in tok("Ünïcödé ∑ 42")["input_ids"]


def test_generator_config_validation():
    with pytest.raises(ValueError):
        GeneratorConfig(d_model=30, num_heads=4)
    with pytest.raises(ValueError):
        GeneratorConfig.from_dict({"d_model": 32, "bogus": 1})


def test_feature_columns_and_shapes(s2s, table):
    d, layers = 32, TINY.num_layers + 1
    assert table.columns[:3] == ("cs", "mcd_var", "mcd_mean")
    assert table.values.shape == (len(PAIRS), 3 + layers * 2 * d)
    assert table.columns[3] == "enc_l0_var_0" and table.columns[-1] == f"enc_l2_mean_{d - 1}"
    assert parse_activation_column("enc_l2_mean_7") == (2, "mean", 7)
    assert parse_activation_column("cs") is None
    assert table.layer_names() == ("enc_l0", "enc_l1", "enc_l2")
    rec = table.record(0)
    assert rec.activations.shape == (layers, 2 * d)
    assert rec.layer_names == ("enc_l0", "enc_l1", "enc_l2") and rec.pools == ("var", "mean")
    assert 0.0 < rec.cs <= 1.0 and rec.mcd_var >= 0.0
    assert np.isfinite(table.values).all()
    assert table.ids == tuple(p.id for p in PAIRS)


def test_pooling_is_over_real_tokens_only(s2s, table):
    """The pooled activations of one question equal a manual computation on that question
    alone (no padding), although it was scored in a padded batch."""
    q = PAIRS[5].question
    enc = s2s.encode_sources([q])
    with torch.no_grad():
        hs = s2s.model.get_encoder()(**enc, output_hidden_states=True).hidden_states
    for layer in (0, 2):
        h = hs[layer][0].double()
        var = table.values[5, table.index([activation_column(layer, "var", j) for j in range(32)])]
        mean = table.values[5, table.index([activation_column(layer, "mean", j)
                                            for j in range(32)])]
        np.testing.assert_allclose(mean, h.mean(0).numpy(), rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(var, h.var(0, unbiased=False).numpy(), rtol=1e-3, atol=1e-5)


def test_teacher_forced_scores_equal_beam_scores(s2s):
    preds = generate(s2s, [p.question for p in PAIRS], num_beams=4, batch_size=16)
    assert all(0.0 < p.confidence <= 1.0 for p in preds)
    assert any(p.token_ids and p.token_ids[-1] == s2s.eos_id for p in preds)
    sc = Scorer(s2s, mc_trials=0, batch_size=7)
    tf = sc.confidence_ids(s2s.source_ids([p.question for p in preds]),
                           [list(p.token_ids) for p in preds])
    np.testing.assert_allclose(tf, [p.confidence for p in preds], rtol=1e-4, atol=1e-6)
    # through text too, where re-tokenizing the output gives back the same tokens
    same = [k for k, p in enumerate(preds)
            if s2s.encode_targets([p.query])[0] == list(p.token_ids)]
    assert same
    tf_text = sc.confidence([preds[k].question for k in same], [preds[k].query for k in same])
    np.testing.assert_allclose(tf_text, [preds[k].confidence for k in same], rtol=1e-4)
    # and greedy search agrees with teacher forcing as well
    greedy = generate(s2s, [p.question for p in PAIRS[:6]], num_beams=1)
    tf_g = sc.confidence_ids(s2s.source_ids([p.question for p in greedy]),
                             [list(p.token_ids) for p in greedy])
    np.testing.assert_allclose(tf_g, [p.confidence for p in greedy], rtol=1e-4)


def test_bart_beam_and_greedy_scores_equal_teacher_forcing(s2s):
    """Same property for the BART family (decoder starts from </s>), untrained weights."""
    bart = build_seq2seq(dataclasses.replace(TINY, arch="bart", max_target_len=12),
                         s2s.tokenizer, "cpu", seed=2)
    assert bart.decoder_start_id == bart.eos_id
    qs = [p.question for p in PAIRS[:8]]
    sc = Scorer(bart, mc_trials=0)
    for beams in (3, 1):
        preds = generate(bart, qs, num_beams=beams, batch_size=4)
        assert all(bart.pad_id not in p.token_ids for p in preds)
        tf = sc.confidence_ids(bart.source_ids(qs), [list(p.token_ids) for p in preds])
        np.testing.assert_allclose(tf, [p.confidence for p in preds], rtol=1e-4)


def test_lowercasing_tokenizer():
    tok = build_tokenizer(["What is the Mass of Benzene?"] * 3, vocab_size=300,
                          min_frequency=1, lowercase=True)
    assert tok("BENZENE")["input_ids"] == tok("benzene")["input_ids"]
    assert tok.decode(tok("Mass")["input_ids"], skip_special_tokens=True).strip() == "mass"


def test_confidence_ranks_gold_above_corrupted(s2s):
    sc = Scorer(s2s, mc_trials=0)
    qs = [p.question for p in PAIRS[:10]]
    gold = sc.confidence(qs, [p.target for p in PAIRS[:10]])
    bad = sc.confidence(qs, ["ASK { ?a ?b ?c } LIMIT 99 benzene gold" for _ in qs])
    assert (gold > bad).mean() >= 0.9


def test_mc_dropout_variance(s2s, table, tmp_path):
    assert (table.column("mcd_var") > 0).all()
    # no dropout in the model -> the trials agree exactly
    nodrop = build_seq2seq(dataclasses.replace(TINY, dropout=0.0), s2s.tokenizer, "cpu", seed=0)
    t0 = Scorer(nodrop, mc_trials=5).score(["what is the mass of iron?"], ["SELECT ?x"])
    assert t0.column("mcd_var")[0] == pytest.approx(0.0, abs=1e-12)
    # scoring restores eval mode
    assert not s2s.model.training


def test_seeded_determinism(s2s, table, tmp_path):
    tok = s2s.tokenizer
    a = build_seq2seq(TINY, tok, "cpu", seed=5)
    b = build_seq2seq(TINY, tok, "cpu", seed=5)
    c = build_seq2seq(TINY, tok, "cpu", seed=6)
    for (_, x), (_, y), (_, z) in zip(a.model.state_dict().items(), b.model.state_dict().items(),
                                      c.model.state_dict().items()):
        assert torch.equal(x, y)
    assert any(not torch.equal(x, z) for x, z in zip(a.model.state_dict().values(),
                                                     c.model.state_dict().values()))
    qs, qq = [p.question for p in PAIRS[:12]], [p.target for p in PAIRS[:12]]
    t1 = Scorer(s2s, mc_trials=6, seed=3).score(qs, qq)
    t2 = Scorer(s2s, mc_trials=6, seed=3).score(qs, qq)
    t3 = Scorer(s2s, mc_trials=6, seed=4).score(qs, qq)
    np.testing.assert_array_equal(t1.values, t2.values)
    assert not np.array_equal(t1.column("mcd_var"), t3.column("mcd_var"))
    np.testing.assert_array_equal(t1.column("cs"), t3.column("cs"))
    y = np.arange(len(table)) % 2
    cfg = DetectorConfig(max_epochs=3, patience=2, seed=11)
    p1 = HDMDetector.fit(table, y, table, y, cfg).predict_proba(table)
    p2 = HDMDetector.fit(table, y, table, y, cfg).predict_proba(table)
    np.testing.assert_array_equal(p1, p2)


def test_training_resumes_exactly(tmp_path):
    cfg = dataclasses.replace(FAST, epochs=2)
    train_generator(PAIRS[:32], PAIRS[32:], tmp_path / "a", model_config=TINY, config=cfg,
                    progress=False)
    r1 = train_generator(PAIRS[:32], PAIRS[32:], tmp_path / "b", model_config=TINY,
                         config=cfg, progress=False, stop_after=5)
    assert r1.steps == 5
    with pytest.raises(FileExistsError):
        train_generator(PAIRS[:32], PAIRS[32:], tmp_path / "b", model_config=TINY, config=cfg,
                        progress=False)
    r2 = train_generator(PAIRS[:32], PAIRS[32:], tmp_path / "b", model_config=TINY,
                         config=cfg, progress=False, resume=True)
    assert r2.steps == 8
    a = load_seq2seq(tmp_path / "a", "cpu").model.state_dict()
    b = load_seq2seq(tmp_path / "b", "cpu").model.state_dict()
    for k in a:
        torch.testing.assert_close(a[k], b[k], rtol=1e-5, atol=1e-6)


def test_generator_save_load_round_trip(s2s, tmp_path):
    save_seq2seq(s2s, tmp_path / "m", TINY)
    back = load_seq2seq(tmp_path / "m", "cpu")
    enc = s2s.encode_sources(["what is the mass of gold?"])
    dec = torch.tensor([[0, 5, 6]])
    with torch.no_grad():
        x = s2s.model(**enc, decoder_input_ids=dec).logits
        y = back.model(**enc, decoder_input_ids=dec).logits
    torch.testing.assert_close(x, y)
    assert back.max_source_len == TINY.max_source_len
    with pytest.raises(ModelNotFoundError):
        load_seq2seq(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ModelNotFoundError):
        load_seq2seq(tmp_path / "empty")


def test_detector_save_load_and_column_checks(table, tmp_path):
    y = np.arange(len(table)) % 2
    det = HDMDetector.fit(table, y, table, y, DetectorConfig(max_epochs=4, patience=2))
    det.threshold = 0.4
    det.save(tmp_path / "d")
    back = HDMDetector.load(tmp_path / "d")
    np.testing.assert_array_equal(back.predict_proba(table), det.predict_proba(table))
    assert back.columns == det.columns and back.threshold == 0.4 and back.needs_mc
    # column order in the table does not matter, missing columns do
    shuffled = table.select(list(reversed(table.columns)))
    np.testing.assert_allclose(back.predict_proba(shuffled), det.predict_proba(table), rtol=1e-6)
    with pytest.raises(ValueError, match="does not match"):
        back.predict_proba(table.select([c for c in table.columns if c != "enc_l1_var_3"]))
    with pytest.raises(DetectorFileError):
        HDMDetector.load(tmp_path / "nowhere")
    (tmp_path / "d" / "hdm_detector.pt").unlink()
    with pytest.raises(DetectorFileError):
        HDMDetector.load(tmp_path / "d")
    with pytest.raises(ValueError):
        HDMDetector.fit(table, np.zeros(len(table)), table, y)  # one class only
    with pytest.raises(ValueError):
        DetectorConfig(feature_set="everything")


def test_detector_learns_a_separable_signal(table):
    """Label = low confidence score among 195 noise columns: the detector must find it."""
    rng = np.random.default_rng(0)
    n = 400
    cols = table.columns
    vals = rng.normal(size=(n, len(cols))).astype(np.float32)
    vals[:, 0] = rng.uniform(0, 1, n)
    vals[:, 1] = np.abs(vals[:, 1]) * 1e-3
    y = (vals[:, 0] < 0.4).astype(int)
    t = FeatureTable(cols, vals)
    train, dev = t.rows(range(300)), t.rows(range(300, n))

    def f1(fs: str) -> float:
        det = HDMDetector.fit(train, y[:300], dev, y[300:],
                              DetectorConfig(feature_set=fs, max_epochs=30, patience=10))
        return macro_f1(y[300:], det.predict(dev))

    assert f1("cs") > 0.95
    with_cs, act_only = f1("act+cs+mcd"), f1("act")
    assert with_cs > 0.7 and act_only < 0.65 and with_cs > act_only + 0.15


def test_metrics_against_sklearn():
    from sklearn.metrics import f1_score
    rng = np.random.default_rng(1)
    y, p = rng.integers(0, 2, 200), rng.integers(0, 2, 200)
    assert macro_f1(y, p) == pytest.approx(f1_score(y, p, average="macro"))
    s = rng.uniform(size=200)
    lab = (s < 0.3).astype(int)
    t = best_threshold(s, lab)
    assert macro_f1(lab, (s < t).astype(int)) == 1.0


def test_feature_table_save_load(table, tmp_path):
    table.save(tmp_path / "f.npz")
    back = FeatureTable.load(tmp_path / "f.npz")
    assert back.columns == table.columns and back.ids == table.ids
    np.testing.assert_array_equal(back.values, table.values)
    both = FeatureTable.concat([table, back])
    assert len(both) == 2 * len(table)


def test_hdm_signal_report(s2s, table):
    y = np.arange(len(table)) % 2
    det = HDMDetector.fit(table, y, table, y, DetectorConfig(max_epochs=2, patience=1))
    rep = hdm_signal(PAIRS[0].question, PAIRS[0].target, Scorer(s2s, mc_trials=4), det)
    assert isinstance(rep, HDMReport)
    assert 0.0 <= rep.probability <= 1.0 and 0.0 < rep.confidence <= 1.0
    assert rep.mc_variance >= 0.0 and rep.hallucination == (rep.probability >= det.threshold)
    assert "p=" in rep.explanation
    with pytest.raises(dataclasses.FrozenInstanceError):
        rep.probability = 0.0  # type: ignore[misc]
    with pytest.raises(ValueError):
        hdm_signal(" ", "SELECT", Scorer(s2s, mc_trials=0), det)


def test_to_generator_form_converts_sparql_through_a_memory():
    pgmr = pytest.importorskip("verifier.pgmr")
    mem = pgmr.Memory.build([pgmr.Symbol("Q2270", "benzene", pgmr.Kind.ITEM),
                             pgmr.Symbol("P2067", "mass", pgmr.Kind.PROPERTY)])
    q = "PREFIX wd: <http://www.wikidata.org/entity/>\nSELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v . }"
    assert to_generator_form(q, mem) == \
        "SELECT ?v WHERE { wd:starturi benzene enduri wdt:starturi mass enduri ?v . }"
    # already intermediate, or no memory: only compacted
    assert to_generator_form("SELECT ?v  WHERE { wd:starturi x enduri ?p ?v }", mem) == \
        "SELECT ?v WHERE { wd:starturi x enduri ?p ?v }"
    assert to_generator_form(q) == "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v . }"


COPY = dataclasses.replace(TINY, arch="bart", copy=True)


def test_copy_bart_scores_round_trip_and_normalised_logits(s2s, tmp_path):
    """The copy model's logits are log-probabilities; beam and greedy scores equal teacher
    forcing (source ids reach every decoding step); save / load round-trips."""
    model = build_seq2seq(COPY, s2s.tokenizer, "cpu", seed=3)
    qs = [p.question for p in PAIRS[:8]]
    enc = model.encode_sources(qs)
    dec = torch.tensor([[model.decoder_start_id, 5, 6]] * len(qs))
    with torch.no_grad():
        logits = model.model(**enc, decoder_input_ids=dec).logits
    torch.testing.assert_close(torch.logsumexp(logits, -1), torch.zeros(logits.shape[:2]),
                               atol=1e-4, rtol=0)
    sc = Scorer(model, mc_trials=0)
    for beams in (3, 1):
        preds = generate(model, qs, num_beams=beams, batch_size=4)
        tf = sc.confidence_ids(model.source_ids(qs), [list(p.token_ids) for p in preds])
        np.testing.assert_allclose(tf, [p.confidence for p in preds], rtol=1e-4)
    save_seq2seq(model, tmp_path / "c", COPY)
    back = load_seq2seq(tmp_path / "c", "cpu")
    assert type(back.model).__name__ == "CopyBartForConditionalGeneration"
    with torch.no_grad():
        torch.testing.assert_close(back.model(**enc, decoder_input_ids=dec).logits, logits)
    with pytest.raises(ValueError):
        GeneratorConfig(arch="t5", copy=True)


def test_copy_head_generalises_to_unseen_combinations(tmp_path):
    """Property/entity combinations never seen together: within 10 short epochs the copy
    model writes them all, a plain BART of the same size writes one query for everything
    (the bench's failure mode).  The model is selected on dev exact match."""
    train = [p for i, p in enumerate(PAIRS) if i % 5]
    dev = [p for i, p in enumerate(PAIRS) if not i % 5]
    cfg = dataclasses.replace(FAST, epochs=10, vocab_size=600, select_on="exact_match",
                              dev_em_sample=len(dev))
    res = train_generator(train, dev, tmp_path / "g", model_config=COPY, config=cfg,
                          progress=False)
    assert res.dev_exact_match is not None and res.dev_exact_match >= 0.75
    meta = json.loads((tmp_path / "g" / "hdm_generator.json").read_text())
    hist = meta["training"]["history"]
    assert len(hist) == res.epochs_run and meta["training"]["best_epoch"] == res.best_epoch
    assert max(h["dev_exact_match"] for h in hist) == res.dev_exact_match
    plain = train_generator(train, dev, tmp_path / "p", config=cfg, progress=False,
                            model_config=dataclasses.replace(COPY, copy=False))
    assert plain.dev_exact_match is not None and plain.dev_exact_match <= 0.5


def test_early_stopping_and_time_budget(tmp_path):
    # learning rate 0: the model never changes, no epoch beats the first one
    cfg = dataclasses.replace(FAST, epochs=6, lr=0.0, select_on="exact_match",
                              dev_em_sample=4, patience=2)
    res = train_generator(PAIRS[:16], PAIRS[32:36], tmp_path / "p", model_config=TINY,
                          config=cfg, progress=False)
    assert (res.epochs_run, res.best_epoch) == (3, 1)
    assert "no better dev exact_match" in (res.stopped_early or "")
    res = train_generator(PAIRS[:16], PAIRS[32:36], tmp_path / "b", model_config=TINY,
                          config=dataclasses.replace(FAST, epochs=5, time_budget=1e-3),
                          progress=False)
    assert res.epochs_run == 1 and "time budget" in (res.stopped_early or "")
    assert load_seq2seq(tmp_path / "b", "cpu").model is not None
    with pytest.raises(ValueError):
        TrainConfig(select_on="bleu")
    with pytest.raises(ValueError):
        TrainConfig(select_on="exact_match", dev_em_sample=0)
