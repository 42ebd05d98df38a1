"""Batched beam search with a confidence score per prediction, and several candidates per
question (beam search or sampling) for candidate sets.

The confidence score (CS) is the length-normalised sequence probability, the n-th root of
``P(y | x)`` over the ``n`` generated tokens (end-of-sequence included): beam search with
``length_penalty=1`` ranks hypotheses by ``log P(y | x) / n``, so ``CS = exp(score)``.
:meth:`verifier.hdm.features.Scorer.confidence` computes the same number by teacher forcing
for a query generated elsewhere.
"""

from __future__ import annotations

import dataclasses
import logging
import math
from dataclasses import dataclass
from typing import Callable, Sequence

import torch

from verifier.hdm.batching import pad_sources, sorted_batches
from verifier.hdm.device import autocast
from verifier.hdm.seq2seq import Seq2Seq

__all__ = ["Prediction", "generate", "generate_candidates"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Prediction:
    """One generated query.

    Attributes:
        question: the input question.
        query: the generated text (intermediate form for a PGMR generator).
        confidence: length-normalised sequence probability, ``exp(log_prob)``.
        log_prob: mean token log-probability of the output (the beam score).
        token_ids: generated token ids (end-of-sequence included, start token excluded).
        sparql: ``query`` grounded to KG identifiers (when a memory was given), else ``None``.
        id: identifier of the input.
        rank: position among the candidates of its question (0 = best; see
            :func:`generate_candidates`).
    """

    question: str
    query: str
    confidence: float
    log_prob: float
    token_ids: tuple[int, ...] = ()
    sparql: str | None = None
    id: str = ""
    rank: int = 0


def _strip(seq: Sequence[int], start_id: int, pad_id: int, eos_id: int) -> tuple[int, ...]:
    out: list[int] = []
    for k, t in enumerate(seq):
        if k == 0 and t == start_id:
            continue
        if t == pad_id and t != eos_id:
            break
        out.append(int(t))
        if t == eos_id:
            break
    return tuple(out)


@torch.inference_mode()
def generate(s2s: Seq2Seq, questions: Sequence[str], *, num_beams: int = 4,
             batch_size: int = 32, max_new_tokens: int | None = None,
             ids: Sequence[str] | None = None, ground: Callable[[str], str | None] | None = None,
             progress: bool = False) -> list[Prediction]:
    """Beam-search a query for each question, in input order.

    Args:
        s2s: the generator.
        questions: input questions.
        num_beams: beam width (1 = greedy).
        batch_size: questions per batch (batches are formed by length).
        max_new_tokens: generation limit (default: the model's ``max_target_len``).
        ids: identifiers carried into the predictions.
        ground: maps a generated query to SPARQL (e.g. PGMR grounding through a memory).
        progress: show a progress bar.
    """
    return [c[0] for c in generate_candidates(s2s, questions, n=1, num_beams=num_beams, batch_size=batch_size,
                                              max_new_tokens=max_new_tokens, ids=ids, ground=ground,
                                              progress=progress)]


@torch.inference_mode()
def generate_candidates(s2s: Seq2Seq, questions: Sequence[str], *, n: int = 1, num_beams: int = 4,
                        sample: bool = False, temperature: float = 1.0, top_p: float = 1.0,
                        seed: int | None = None, batch_size: int = 32, max_new_tokens: int | None = None,
                        ids: Sequence[str] | None = None, ground: Callable[[str], str | None] | None = None,
                        progress: bool = False) -> list[list[Prediction]]:
    """``n`` candidate queries for each question, in input order, each list best first (by
    ``log_prob``; ``Prediction.rank`` is the position), for candidate sets
    (:mod:`verifier.consensus`).

    Beam search (default) returns the ``n`` best hypotheses of ``max(num_beams, n)`` beams,
    scored by the beam score (mean token log-probability); ``sample`` draws ``n`` queries by
    sampling (``temperature``, ``top_p``; ``seed`` seeds torch's generator first, for
    reproducible draws), each scored by the mean log-probability of its tokens under the
    model's own distribution (as greedy decoding is).  Sampled candidates may repeat.  Other
    arguments as for :func:`generate`."""
    from transformers import GenerationConfig

    if ids is not None and len(ids) != len(questions):
        raise ValueError("ids and questions differ in length")
    if num_beams < 1 or n < 1:
        raise ValueError("num_beams and n must be >= 1")
    beams = 1 if sample else max(num_beams, n)
    by_logits = beams == 1  # greedy or sampling: score the tokens under the raw distribution
    model = s2s.model
    was_training = model.training
    model.eval()
    extra = dict(do_sample=True, temperature=temperature, top_p=top_p, top_k=0) if sample else dict(do_sample=False)
    gcfg = GenerationConfig(
        max_new_tokens=max_new_tokens or s2s.max_target_len, num_beams=beams,
        num_return_sequences=n, length_penalty=1.0,
        early_stopping=True if beams > 1 else False,
        decoder_start_token_id=s2s.decoder_start_id, eos_token_id=s2s.eos_id,
        pad_token_id=s2s.pad_id, bos_token_id=None, forced_bos_token_id=None,
        forced_eos_token_id=None, suppress_tokens=[s2s.pad_id],
        return_dict_in_generate=True, output_scores=not by_logits, output_logits=by_logits, **extra)
    if sample and seed is not None:
        torch.manual_seed(seed)
    src = s2s.source_ids(questions)
    results: list[list[Prediction] | None] = [None] * len(questions)
    batches = sorted_batches([len(s) for s in src], batch_size)
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=len(questions), desc="generate", unit="q")
    try:
        for batch in batches:
            enc = pad_sources([src[i] for i in batch], s2s.pad_id, s2s.device)
            with autocast(s2s.device):
                out = model.generate(**enc, generation_config=gcfg)
            seqs = out.sequences.tolist()
            if not by_logits:
                scores = out.sequences_scores.float().tolist()
            else:  # the model's own distribution (raw logits, before suppressing <pad>)
                steps = torch.stack([torch.log_softmax(lg.float(), -1) for lg in out.logits], 1)
                gen = out.sequences[:, -steps.shape[1]:]
                trans = steps.gather(-1, gen.unsqueeze(-1)).squeeze(-1)
                scores = []
            for k, i in enumerate(batch):
                cands = []
                for r in range(k * n, (k + 1) * n):
                    toks = _strip(seqs[r], s2s.decoder_start_id, s2s.pad_id, s2s.eos_id)
                    if not by_logits:
                        lp = float(scores[r])
                    else:
                        m = max(1, len(toks))
                        lp = float(trans[r, :m].float().sum()) / m
                    text = s2s.decode(toks)
                    cands.append(Prediction(
                        question=questions[i], query=text, confidence=math.exp(lp), log_prob=lp,
                        token_ids=toks, sparql=ground(text) if ground else None,
                        id=str(ids[i]) if ids is not None else ""))
                cands.sort(key=lambda p: -p.log_prob)
                results[i] = [dataclasses.replace(p, rank=j) for j, p in enumerate(cands)]
            if bar is not None:
                bar.update(len(batch))
    finally:
        if bar is not None:
            bar.close()
        model.train(was_training)
    return [r for r in results if r is not None]
