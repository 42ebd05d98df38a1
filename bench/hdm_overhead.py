#!/usr/bin/env python
"""HDM overhead bench (issue 8): cost of the detector on top of the scorer's forward pass.

Per example: (time to pool the encoder activations over tokens + time of the HDM detector,
normalisation included) / (time of the scorer's teacher-forced forward pass that produces the
confidence score and the hidden states).  Monte Carlo dropout is not counted on either side
(it is 30 more forward passes, so it would only lower the ratio).

Model: the bench generator (``bench/out/hdm/generator``, or ``--model``) when present, else a
model of the same configuration built from the config with a tokenizer trained on the
questions (timings do not depend on the weights).  Inputs: questions and gold queries of
LC-QuAD 2.0 from ``../shared/data`` when present, synthetic text otherwise.  Median over
``--repeats`` timed runs after a warm-up, at batch size ``--batch-size`` (main figure) and 1.

Last line: ``overhead_ratio=<x>`` (batched); goal <= 0.05.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _texts(data: Path, n: int) -> tuple[list[str], list[str]]:
    from verifier.hdm.data import compact_query

    f = data / "lcquad2" / "test.jsonl"
    if f.is_file():
        rows = [json.loads(line) for line, _ in zip(f.open(), range(n))]
        return [r["question"] for r in rows], [compact_query(r["sparql"]) for r in rows]
    qs = [f"what is the property {k} of the entity number {k * 7}?" for k in range(n)]
    return qs, [f"SELECT ?x WHERE {{ wd:Q{k} wdt:P{k % 50} ?x }}" for k in range(n)]


def main() -> int:
    ap = argparse.ArgumentParser(description="HDM overhead ratio")
    ap.add_argument("--model", default=str(ROOT / "bench" / "out" / "hdm" / "generator"))
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()

    import numpy as np
    import torch

    from verifier.hdm import (DetectorConfig, FeatureTable, GeneratorConfig, HDMDetector,
                              Scorer, build_seq2seq, build_tokenizer, load_seq2seq)
    from verifier.hdm.batching import pad_sources

    torch.set_num_threads(args.threads)
    qs, gold = _texts(Path(args.data), 256)
    if (Path(args.model) / "config.json").is_file():
        s2s = load_seq2seq(args.model, "cpu")
        origin = f"trained generator {args.model}"
    else:
        tok = build_tokenizer(qs + gold, vocab_size=4000, min_frequency=1)
        cfg = GeneratorConfig(d_model=128, num_layers=2, num_decoder_layers=2, num_heads=4,
                              d_ff=512, max_target_len=96)
        s2s = build_seq2seq(cfg, tok, "cpu", seed=0)
        origin = "generator config d_model 128, 2+2 layers (random weights)"
    scorer = Scorer(s2s, mc_trials=0, batch_size=args.batch_size)
    cols = scorer.columns
    rng = np.random.default_rng(0)
    fake = FeatureTable(cols, rng.normal(size=(64, len(cols))).astype(np.float32))
    y = np.arange(64) % 2
    det = HDMDetector.fit(fake, y, fake, y, DetectorConfig(feature_set="act+cs+mcd",
                                                           max_epochs=1, patience=1))

    def measure(bs: int) -> tuple[float, float, float]:
        src = s2s.source_ids(qs[:bs])
        tgt = s2s.encode_targets(gold[:bs])
        fwd, pool, detect = [], [], []
        for rep in range(args.repeats + 2):
            with torch.inference_mode():
                enc = pad_sources(src, s2s.pad_id, s2s.device)
                t0 = time.perf_counter()
                tok, mask, hs = scorer._token_logprobs(enc, tgt, True)
                cs = torch.exp(scorer._mean_logprob(tok, mask)).numpy()
                t1 = time.perf_counter()
                acts = scorer._pool(hs, enc["attention_mask"]).flatten(1).numpy()
                t2 = time.perf_counter()
            vals = np.zeros((bs, len(cols)), dtype=np.float32)
            vals[:, 0] = cs
            vals[:, 3:] = acts
            t3 = time.perf_counter()
            det.predict_proba(FeatureTable(cols, vals))
            t4 = time.perf_counter()
            if rep >= 2:  # warm-up
                fwd.append((t1 - t0) / bs)
                pool.append((t2 - t1) / bs)
                detect.append((t4 - t3) / bs)
        return statistics.median(fwd), statistics.median(pool), statistics.median(detect)

    print(f"model: {origin}; {len(cols)} feature columns; detector "
          f"{sum(p.numel() for p in det.net.parameters()):,} parameters; threads {args.threads}")
    ratios = {}
    for bs in (args.batch_size, 1):
        f, p, d = measure(bs)
        ratios[bs] = (p + d) / f
        print(f"batch {bs:3d}: scorer forward {f * 1e3:8.3f} ms/example, pooling "
              f"{p * 1e3:7.3f} ms, detector {d * 1e3:7.3f} ms -> ratio {ratios[bs]:.4f}")
    print(f"overhead_ratio={ratios[args.batch_size]:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
