"""Training a seq2seq generator (question -> intermediate query): from a config with a
tokenizer built from the data, or fine-tuning a given checkpoint.

Seeded, with length-bucketed batches, linear warm-up/decay, a checkpoint at the end of every
epoch (and every ``checkpoint_every`` steps) and exact resumption from the last checkpoint.
The best model on dev is written to ``out_dir`` (``load_seq2seq(out_dir)``): the one with the
lowest dev loss, or (``TrainConfig.select_on="exact_match"``) the one with the highest greedy
exact match on the dev pairs, ties broken by dev loss.  Training stops early after
``patience`` epochs without a better model, or when the next epoch would overrun
``time_budget`` seconds.

Layout of ``out_dir``: the model and tokenizer files, ``hdm_generator.json`` (config, lengths,
training summary) and ``checkpoint/state.pt`` (model, optimiser, scheduler, RNG states,
position in the epoch).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import math
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import torch
import torch.nn.functional as F

from verifier.hdm.batching import bucketed_batches, pad_sources, pad_targets, sorted_batches
from verifier.hdm.data import Pair
from verifier.hdm.device import amp_dtype, autocast, pick_device, seed_everything
from verifier.hdm.seq2seq import (GeneratorConfig, Seq2Seq, build_seq2seq, load_seq2seq,
                                  save_seq2seq)
from verifier.hdm.tokenizer import build_tokenizer

__all__ = ["TrainConfig", "TrainResult", "train_generator", "normalize_query", "canonical_query",
           "exact_match"]

log = logging.getLogger(__name__)

CHECKPOINT_DIR = "checkpoint"
STATE_FILE = "state.pt"
TOKENIZER_DIR = "tokenizer"
#: model selection criteria of :class:`TrainConfig`
SELECT_ON: tuple[str, ...] = ("loss", "exact_match")


@dataclass(frozen=True)
class TrainConfig:
    """Optimisation settings.

    Attributes:
        epochs: passes over the training data.
        batch_size: pairs per step.
        lr / weight_decay: AdamW settings.
        warmup_steps: linear warm-up steps, then linear decay to 0.
        max_grad_norm: gradient clipping.
        label_smoothing: cross-entropy label smoothing.
        seed: seeds initialisation, data order and dropout.
        checkpoint_every: also checkpoint every this many steps (0: end of epoch only).
        vocab_size / min_frequency / lowercase: the tokenizer built from the data
            (from-scratch only; see :func:`~verifier.hdm.tokenizer.build_tokenizer`).
        dev_em_sample: the first so many dev pairs are decoded greedily for exact match
            (:func:`exact_match`): after every epoch with ``select_on="exact_match"``,
            otherwise once at the end (0: never).
        select_on: ``"loss"`` (lowest dev loss) or ``"exact_match"`` (highest dev exact match,
            ties broken by dev loss): which epoch's model is kept, and what ``patience``
            watches.
        patience: stop after so many epochs without a better model (0: run all ``epochs``).
            The learning-rate schedule still spans ``epochs``.
        time_budget: seconds for this training session (evaluation included): no new epoch
            starts when one more epoch as long as the last one would overrun it (0: no
            budget).  A safety cap for benches on shared machines: where it ends a run, the
            result depends on the machine's speed (the training summary records the reason).
    """

    epochs: int = 12
    batch_size: int = 32
    lr: float = 1e-3
    weight_decay: float = 0.01
    warmup_steps: int = 200
    max_grad_norm: float = 1.0
    label_smoothing: float = 0.0
    seed: int = 0
    checkpoint_every: int = 0
    vocab_size: int = 4000
    min_frequency: int = 2
    lowercase: bool = False
    dev_em_sample: int = 300
    select_on: str = "loss"
    patience: int = 0
    time_budget: float = 0.0

    def __post_init__(self) -> None:
        if self.select_on not in SELECT_ON:
            raise ValueError(f"select_on must be one of {SELECT_ON}, not {self.select_on!r}")
        if self.select_on == "exact_match" and self.dev_em_sample <= 0:
            raise ValueError("select_on='exact_match' needs dev_em_sample > 0")
        if self.patience < 0 or self.time_budget < 0:
            raise ValueError("patience and time_budget must be >= 0")


@dataclass(frozen=True)
class TrainResult:
    """Summary of a training run."""

    out_dir: Path
    epochs_run: int
    steps: int
    train_loss: float
    dev_loss: float
    best_dev_loss: float
    dev_exact_match: float | None
    seconds: float
    best_epoch: int = 0
    stopped_early: str | None = None


def normalize_query(q: str) -> str:
    """Whitespace-normalised query text."""
    return " ".join(q.split())


_VAR = re.compile(r"[?$][A-Za-z0-9_]\w*")


def canonical_query(q: str) -> str:
    """The form in which two queries are compared: whitespace collapsed, case-folded (labels
    are grounded case-insensitively; a lower-casing generator writes lower case) and variables
    renamed ``?v0, ?v1 ...`` in order of first occurrence (alpha-equivalence)."""
    names: dict[str, str] = {}
    return _VAR.sub(lambda m: names.setdefault(m.group(0), f"?v{len(names)}"),
                    " ".join(q.casefold().split()))


def exact_match(pred: str, gold: str) -> bool:
    """Predicted and gold query are equal up to :func:`canonical_query`."""
    return canonical_query(pred) == canonical_query(gold)


def _token_loss(s2s: Seq2Seq, src: Sequence[Sequence[int]], tgt: Sequence[Sequence[int]],
                label_smoothing: float = 0.0) -> tuple[torch.Tensor, int]:
    enc = pad_sources(src, s2s.pad_id, s2s.device)
    dec, labels, mask = pad_targets(tgt, s2s.pad_id, s2s.decoder_start_id, s2s.device)
    with autocast(s2s.device):
        logits = s2s.model(**enc, decoder_input_ids=dec).logits
    labels = labels.masked_fill(mask == 0, -100)
    n = int(mask.sum())
    loss = F.cross_entropy(logits.float().reshape(-1, logits.shape[-1]), labels.reshape(-1),
                           ignore_index=-100, label_smoothing=label_smoothing)
    return loss, n


@torch.inference_mode()
def _dev_loss(s2s: Seq2Seq, src: list[list[int]], tgt: list[list[int]], batch_size: int) -> float:
    if not src:
        return float("nan")
    s2s.model.eval()
    total, count = 0.0, 0
    for batch in sorted_batches([len(t) for t in tgt], batch_size * 2):
        loss, n = _token_loss(s2s, [src[i] for i in batch], [tgt[i] for i in batch])
        total += float(loss) * n
        count += n
    return total / max(count, 1)


def _exact_match_rate(s2s: Seq2Seq, pairs: Sequence[Pair], batch_size: int) -> float | None:
    """Share of ``pairs`` whose greedy output equals the target (:func:`exact_match`)."""
    if not pairs:
        return None
    from verifier.hdm.generation import generate
    preds = generate(s2s, [p.question for p in pairs], num_beams=1, batch_size=batch_size)
    return sum(exact_match(pr.query, p.target) for pr, p in zip(preds, pairs)) / len(pairs)


def _lr_lambda(warmup: int, total: int):
    def f(step: int) -> float:
        if warmup and step < warmup:
            return (step + 1) / warmup
        return max(0.0, (total - step) / max(1, total - warmup))
    return f


def _rng_state() -> dict[str, Any]:
    import random

    import numpy as np
    st: dict[str, Any] = {"torch": torch.get_rng_state(), "python": random.getstate(),
                          "numpy": np.random.get_state()}
    if torch.cuda.is_available():
        st["cuda"] = torch.cuda.get_rng_state_all()
    return st


def _set_rng_state(st: dict[str, Any]) -> None:
    import random

    import numpy as np
    torch.set_rng_state(st["torch"])
    random.setstate(st["python"])
    np.random.set_state(st["numpy"])
    if "cuda" in st and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(st["cuda"])


def train_generator(train: Sequence[Pair], dev: Sequence[Pair], out_dir: str | Path, *,
                    model_config: GeneratorConfig | None = None, init: str | None = None,
                    config: TrainConfig = TrainConfig(), resume: bool = False,
                    device: str | None = None, progress: bool = True,
                    stop_after: int | None = None) -> TrainResult:
    """Train a generator on ``train`` (question -> target), select on ``dev`` (loss or greedy
    exact match, :attr:`TrainConfig.select_on`), stop early by ``patience`` or
    ``time_budget``.

    Args:
        train / dev: the pairs.
        out_dir: output directory (model, tokenizer, checkpoint).
        model_config: architecture for a model trained from scratch (default
            :class:`GeneratorConfig`); ignored with ``init``.
        init: fine-tune this checkpoint (local directory or hub name) instead.
        config: optimisation settings.
        resume: continue from ``out_dir/checkpoint`` (error if there is none).
        device: ``"cpu"``, ``"cuda"`` ... (default: automatic).
        progress: show progress bars.
        stop_after: end this session after so many optimisation steps (a checkpoint is
            written; continue with ``resume=True``).  Does not change the schedule.

    Raises:
        FileExistsError: ``out_dir`` already holds a checkpoint and ``resume`` is false.
        FileNotFoundError: ``resume`` without a checkpoint.
        ValueError: no training pairs.
    """
    if not train:
        raise ValueError("no training pairs")
    out = Path(out_dir)
    ckpt_dir = out / CHECKPOINT_DIR
    state_path = ckpt_dir / STATE_FILE
    if resume and not state_path.is_file():
        raise FileNotFoundError(f"nothing to resume: {state_path} missing")
    if not resume and state_path.is_file():
        raise FileExistsError(f"{out} already holds a training run; pass resume=True "
                              "(--resume) or choose another directory")
    t0 = time.monotonic()
    dev_name = str(pick_device(device))
    seed_everything(config.seed)
    state: dict[str, Any] | None = None
    if resume:
        state = torch.load(state_path, map_location="cpu", weights_only=False)
        meta = state["meta"]
        if meta.get("init"):
            s2s = load_seq2seq(meta["init"], dev_name)
        else:
            from transformers import AutoTokenizer
            tok = AutoTokenizer.from_pretrained(str(ckpt_dir / TOKENIZER_DIR))
            s2s = build_seq2seq(GeneratorConfig.from_dict(meta["generator_config"]), tok, dev_name)
        s2s.model.load_state_dict(state["model"])
        gen_cfg = (GeneratorConfig.from_dict(meta["generator_config"])
                   if meta.get("generator_config") else None)
        saved_cfg = TrainConfig(**meta["train_config"])
        if saved_cfg != config:
            log.warning("resuming with the saved training config %s", saved_cfg)
            config = saved_cfg
    elif init:
        s2s = load_seq2seq(init, dev_name)
        gen_cfg = None
        meta = {"init": init, "generator_config": None}
    else:
        gen_cfg = model_config or GeneratorConfig()
        texts = [p.question for p in train] + [p.target for p in train]
        tok = build_tokenizer(texts, vocab_size=config.vocab_size,
                              min_frequency=config.min_frequency, lowercase=config.lowercase)
        gen_cfg = dataclasses.replace(gen_cfg, vocab_size=len(tok))
        s2s = build_seq2seq(gen_cfg, tok, dev_name, seed=config.seed)
        ckpt_dir.mkdir(parents=True, exist_ok=True)
        tok.save_pretrained(str(ckpt_dir / TOKENIZER_DIR))
        meta = {"init": None, "generator_config": gen_cfg.to_dict()}
    meta["train_config"] = dataclasses.asdict(config)

    src = s2s.source_ids([p.question for p in train])
    tgt = s2s.encode_targets([p.target for p in train])
    dsrc = s2s.source_ids([p.question for p in dev])
    dtgt = s2s.encode_targets([p.target for p in dev])
    lengths = [len(a) + len(b) for a, b in zip(src, tgt)]
    steps_per_epoch = math.ceil(len(train) / config.batch_size)
    total_steps = steps_per_epoch * config.epochs

    model = s2s.model
    decay = [p for n, p in model.named_parameters() if p.ndim >= 2]
    no_decay = [p for n, p in model.named_parameters() if p.ndim < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": config.weight_decay},
                             {"params": no_decay, "weight_decay": 0.0}], lr=config.lr)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, _lr_lambda(config.warmup_steps, total_steps))
    scaler = torch.amp.GradScaler("cuda") if amp_dtype(s2s.device) == torch.float16 else None
    epoch, step_in_epoch, global_step = 0, 0, 0
    best_key: tuple[float, float] | None = None
    best_dev, best_em, best_epoch, bad_epochs = float("inf"), None, 0, 0
    history: list[dict[str, Any]] = []
    stop_reason: str | None = None
    last_dev, last_train = float("nan"), float("nan")
    if state is not None:
        opt.load_state_dict(state["optimizer"])
        sched.load_state_dict(state["scheduler"])
        epoch, step_in_epoch = state["epoch"], state["step_in_epoch"]
        global_step, best_dev = state["global_step"], state["best_dev"]
        best_key = (tuple(state["best_key"]) if state.get("best_key")
                    else (0.0, -best_dev) if math.isfinite(best_dev) else None)
        best_em, best_epoch = state.get("best_em"), state.get("best_epoch", 0)
        bad_epochs, history = state.get("bad_epochs", 0), list(state.get("history", []))
        stop_reason = state.get("stop_reason")
        _set_rng_state(state["rng"])
        log.info("resuming at epoch %d step %d", epoch, step_in_epoch)

    def checkpoint() -> None:
        ckpt_dir.mkdir(parents=True, exist_ok=True)
        tmp = ckpt_dir / (STATE_FILE + ".tmp")
        torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(),
                    "scheduler": sched.state_dict(), "epoch": epoch,
                    "step_in_epoch": step_in_epoch, "global_step": global_step,
                    "best_dev": best_dev, "best_key": best_key, "best_em": best_em,
                    "best_epoch": best_epoch, "bad_epochs": bad_epochs, "history": history,
                    "stop_reason": stop_reason, "rng": _rng_state(), "meta": meta}, tmp)
        tmp.replace(state_path)

    em_pairs = list(dev)[: config.dev_em_sample] if config.dev_em_sample else []
    select_em = config.select_on == "exact_match" and bool(em_pairs)
    extra = {"train_pairs": len(train), "dev_pairs": len(dev), "init": meta.get("init")}
    session_steps = 0
    stopped = False
    while epoch < config.epochs and not stopped and stop_reason is None:
        epoch_start = time.monotonic()
        batches = bucketed_batches(lengths, config.batch_size, config.seed, epoch)
        model.train()
        bar = None
        if progress:
            from tqdm import tqdm
            bar = tqdm(total=len(batches), initial=step_in_epoch,
                       desc=f"epoch {epoch + 1}/{config.epochs}", unit="step")
        run_loss, run_n = 0.0, 0
        for b in range(step_in_epoch, len(batches)):
            batch = batches[b]
            loss, n = _token_loss(s2s, [src[i] for i in batch], [tgt[i] for i in batch],
                                  config.label_smoothing)
            opt.zero_grad(set_to_none=True)
            if scaler is not None:
                scaler.scale(loss).backward()
                scaler.unscale_(opt)
                torch.nn.utils.clip_grad_norm_(model.parameters(), config.max_grad_norm)
                scaler.step(opt)
                scaler.update()
            else:
                loss.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), config.max_grad_norm)
                opt.step()
            sched.step()
            global_step += 1
            step_in_epoch = b + 1
            run_loss += float(loss.detach()) * n
            run_n += n
            if bar is not None:
                bar.update(1)
                bar.set_postfix(loss=f"{run_loss / max(run_n, 1):.3f}")
            session_steps += 1
            if config.checkpoint_every and global_step % config.checkpoint_every == 0:
                checkpoint()
            if (stop_after is not None and session_steps >= stop_after
                    and step_in_epoch < len(batches)):
                stopped = True
                break
        if bar is not None:
            bar.close()
        if stopped:
            checkpoint()
            log.info("stopped after %d steps (epoch %d, step %d); resume to continue",
                     session_steps, epoch + 1, step_in_epoch)
            break
        last_train = run_loss / max(run_n, 1)
        last_dev = _dev_loss(s2s, dsrc, dtgt, config.batch_size)
        em = _exact_match_rate(s2s, em_pairs, config.batch_size * 2) if select_em else None
        epoch, step_in_epoch = epoch + 1, 0
        history.append({"epoch": epoch, "train_loss": last_train, "dev_loss": last_dev,
                        "dev_exact_match": em, "lr": sched.get_last_lr()[0],
                        "seconds": time.monotonic() - t0})
        log.info("epoch %d: train loss %.4f dev loss %.4f%s", epoch, last_train, last_dev,
                 f" dev exact match {em:.3f} ({len(em_pairs)} greedy)" if em is not None else "")
        key = (em if em is not None else 0.0, -last_dev)
        if not dev or best_key is None or key > best_key:
            best_key, best_dev, best_em, best_epoch, bad_epochs = key, last_dev, em, epoch, 0
            save_seq2seq(s2s, out, gen_cfg, extra={**extra, "epoch": epoch, "dev_loss": last_dev,
                                                   "dev_exact_match": em})
        else:
            bad_epochs += 1
        elapsed, last_epoch = time.monotonic() - t0, time.monotonic() - epoch_start
        if config.patience and bad_epochs >= config.patience and epoch < config.epochs:
            stop_reason = f"no better dev {config.select_on} for {bad_epochs} epochs"
        elif (config.time_budget and epoch < config.epochs
              and elapsed + last_epoch > config.time_budget):
            stop_reason = (f"time budget {config.time_budget:.0f}s: {elapsed:.0f}s used, "
                           f"the last epoch took {last_epoch:.0f}s")
        if stop_reason:
            log.info("early stop after epoch %d: %s (best epoch %d)", epoch, stop_reason,
                     best_epoch)
        checkpoint()
        if stop_after is not None and session_steps >= stop_after and epoch < config.epochs:
            stopped = True

    em = best_em
    if stopped:
        log.info("session ended early; resume to continue")
        return TrainResult(out, epoch, global_step, last_train, last_dev, best_dev, None,
                           time.monotonic() - t0, best_epoch, None)
    if dev and config.dev_em_sample and not select_em:
        best = load_seq2seq(out, dev_name)
        em = _exact_match_rate(best, em_pairs, config.batch_size * 2)
    seconds = time.monotonic() - t0
    summary = {**extra, "epochs_run": epoch, "steps": global_step, "train_loss": last_train,
               "dev_loss": last_dev, "best_dev_loss": best_dev, "best_epoch": best_epoch,
               "select_on": config.select_on, "dev_exact_match_greedy": em,
               "dev_exact_match_pairs": len(em_pairs), "stopped_early": stop_reason,
               "history": history, "seconds_last_session": seconds}
    meta_path = out / "hdm_generator.json"
    saved = json.loads(meta_path.read_text()) if meta_path.is_file() else {}
    saved["training"] = summary
    meta_path.write_text(json.dumps(saved, indent=2, sort_keys=True))
    return TrainResult(out, epoch, global_step, last_train, last_dev, best_dev, em, seconds,
                       best_epoch, stop_reason)
