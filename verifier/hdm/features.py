"""Hallucination features of (question, query) pairs, independent of who wrote the query.

A :class:`Scorer` wraps a seq2seq model and, for each pair, computes

* ``cs``: the confidence score, ``exp(mean token log P(query | question))`` by teacher forcing
  (the n-th root of the sequence probability; equal to the beam score of
  :func:`verifier.hdm.generation.generate` for the model's own output);
* ``mcd_var`` / ``mcd_mean``: variance and mean of ``cs`` over ``mc_trials`` forward passes
  with dropout switched on (Monte Carlo dropout);
* ``enc_l{i}_{pool}_{j}``: encoder activations pooled over the question's tokens, for every
  layer ``i`` (``l0`` = embedding output, ``l1`` ... ``lL`` = output of encoder block ``i``;
  for T5 the last one is after the final layer norm), ``pool`` in ``var`` (population
  variance, as in Bacciu et al.) and ``mean``, ``j`` the hidden dimension.

The result is a :class:`FeatureTable` (named columns, float32 matrix) that the detector
selects its inputs from by name.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np
import torch

from verifier.hdm.batching import pad_sources, pad_targets, sorted_batches
from verifier.hdm.device import autocast
from verifier.hdm.seq2seq import Seq2Seq

__all__ = ["FeatureTable", "FeatureRecord", "Scorer", "POOLINGS", "activation_column",
           "parse_activation_column", "SCALAR_COLUMNS"]

log = logging.getLogger(__name__)

POOLINGS: tuple[str, ...] = ("var", "mean")
SCALAR_COLUMNS: tuple[str, ...] = ("cs", "mcd_var", "mcd_mean")
_ACT_RE = re.compile(r"^enc_l(\d+)_([a-z]+)_(\d+)$")


def activation_column(layer: int, pool: str, dim: int) -> str:
    """Column name of one pooled activation: ``enc_l{layer}_{pool}_{dim}``."""
    return f"enc_l{layer}_{pool}_{dim}"


def parse_activation_column(name: str) -> tuple[int, str, int] | None:
    """``(layer, pool, dim)`` of an activation column name, ``None`` for other columns."""
    m = _ACT_RE.match(name)
    return (int(m.group(1)), m.group(2), int(m.group(3))) if m else None


@dataclass(frozen=True)
class FeatureRecord:
    """Features of one pair.

    Attributes:
        cs: confidence score (teacher forcing).
        mcd_var / mcd_mean: Monte Carlo dropout variance / mean of ``cs`` (NaN if not run).
        activations: ``[layers, len(pools) * hidden]`` pooled encoder activations, rows in
            ``layer_names`` order, each row the pools concatenated in ``pools`` order.
        layer_names: ``("enc_l0", "enc_l1", ...)``.
        pools: pooling names.
    """

    cs: float
    mcd_var: float
    mcd_mean: float
    activations: np.ndarray = field(repr=False)
    layer_names: tuple[str, ...] = ()
    pools: tuple[str, ...] = POOLINGS


@dataclass(frozen=True)
class FeatureTable:
    """Named feature columns for ``len(ids)`` pairs (``values``: ``[rows, columns]``)."""

    columns: tuple[str, ...]
    values: np.ndarray = field(repr=False)
    ids: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.values.ndim != 2 or self.values.shape[1] != len(self.columns):
            raise ValueError(f"values of shape {self.values.shape} do not match "
                             f"{len(self.columns)} columns")
        if self.ids and len(self.ids) != self.values.shape[0]:
            raise ValueError("ids and rows differ in number")
        if len(set(self.columns)) != len(self.columns):
            raise ValueError("duplicate column names")

    def __len__(self) -> int:
        return int(self.values.shape[0])

    def index(self, names: Sequence[str]) -> np.ndarray:
        """Column positions of ``names``.

        Raises:
            KeyError: some names are not columns of the table (all of them are listed).
        """
        pos = {c: i for i, c in enumerate(self.columns)}
        missing = [n for n in names if n not in pos]
        if missing:
            more = f" (and {len(missing) - 5} more)" if len(missing) > 5 else ""
            raise KeyError(f"feature columns missing: {missing[:5]}{more}")
        return np.asarray([pos[n] for n in names], dtype=np.int64)

    def select(self, names: Sequence[str]) -> "FeatureTable":
        """The table restricted to (and ordered as) ``names``."""
        return FeatureTable(tuple(names), self.values[:, self.index(names)], self.ids)

    def column(self, name: str) -> np.ndarray:
        """One column as a vector."""
        return self.values[:, self.index([name])[0]]

    def rows(self, idx: Sequence[int] | np.ndarray) -> "FeatureTable":
        """The given rows."""
        idx = np.asarray(idx, dtype=np.int64)
        ids = tuple(self.ids[i] for i in idx) if self.ids else ()
        return FeatureTable(self.columns, self.values[idx], ids)

    @property
    def activation_columns(self) -> tuple[str, ...]:
        """The ``enc_*`` columns, in table order."""
        return tuple(c for c in self.columns if parse_activation_column(c))

    def layer_names(self) -> tuple[str, ...]:
        """Encoder layers present, ``("enc_l0", ...)``."""
        layers = sorted({parse_activation_column(c)[0] for c in self.activation_columns})
        return tuple(f"enc_l{i}" for i in layers)

    def record(self, i: int) -> FeatureRecord:
        """The features of row ``i`` as a :class:`FeatureRecord`."""
        row = self.values[i]
        get = {c: k for k, c in enumerate(self.columns)}
        acts = [(parse_activation_column(c), k) for c, k in get.items()
                if parse_activation_column(c)]
        layers = sorted({a[0] for a, _ in acts})
        pools = tuple(p for p in POOLINGS if any(a[1] == p for a, _ in acts))
        dims = sorted({a[2] for a, _ in acts})
        mat = np.zeros((len(layers), len(pools) * len(dims)), dtype=np.float32)
        for (layer, pool, dim), k in acts:
            mat[layers.index(layer), pools.index(pool) * len(dims) + dims.index(dim)] = row[k]
        nan = float("nan")
        return FeatureRecord(
            cs=float(row[get["cs"]]) if "cs" in get else nan,
            mcd_var=float(row[get["mcd_var"]]) if "mcd_var" in get else nan,
            mcd_mean=float(row[get["mcd_mean"]]) if "mcd_mean" in get else nan,
            activations=mat, layer_names=tuple(f"enc_l{i}" for i in layers), pools=pools)

    @staticmethod
    def concat(tables: Iterable["FeatureTable"]) -> "FeatureTable":
        """Rows of several tables with the same columns."""
        ts = list(tables)
        if not ts:
            raise ValueError("nothing to concatenate")
        for t in ts[1:]:
            if t.columns != ts[0].columns:
                raise ValueError("tables have different columns")
        ids = tuple(i for t in ts for i in t.ids) if all(t.ids for t in ts) else ()
        return FeatureTable(ts[0].columns, np.concatenate([t.values for t in ts]), ids)

    def save(self, path: str | Path) -> None:
        """Write to a ``.npz`` file."""
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(p, columns=np.asarray(self.columns), values=self.values,
                            ids=np.asarray(self.ids))

    @classmethod
    def load(cls, path: str | Path) -> "FeatureTable":
        """Read a table written by :meth:`save`."""
        p = Path(path)
        if not p.is_file():
            raise FileNotFoundError(f"no such feature file: {p}")
        with np.load(p, allow_pickle=False) as z:
            return cls(tuple(str(c) for c in z["columns"]), z["values"],
                       tuple(str(i) for i in z["ids"]))


class Scorer:
    """Computes :class:`FeatureTable` rows for (question, query) pairs with one seq2seq model.

    Args:
        s2s: the model (its dropout rate is what Monte Carlo dropout uses).
        mc_trials: Monte Carlo dropout passes (0 disables ``mcd_*``; NaN then).
        pools: activation poolings, a subset of :data:`POOLINGS`.
        batch_size: pairs per forward pass (MC dropout runs ``batch_size * mc_trials`` rows
            per pass, in chunks of ``mc_chunk`` rows).
        seed: seeds the dropout masks (per batch), so scores are reproducible.
    """

    def __init__(self, s2s: Seq2Seq, *, mc_trials: int = 30, pools: Sequence[str] = POOLINGS,
                 batch_size: int = 32, seed: int = 0, mc_chunk: int = 256) -> None:
        bad = [p for p in pools if p not in POOLINGS]
        if bad:
            raise ValueError(f"unknown pooling {bad}; choose from {POOLINGS}")
        if mc_trials < 0 or batch_size < 1:
            raise ValueError("mc_trials must be >= 0 and batch_size >= 1")
        self.s2s = s2s
        self.mc_trials = int(mc_trials)
        self.pools = tuple(pools)
        self.batch_size = int(batch_size)
        self.seed = int(seed)
        self.mc_chunk = max(1, int(mc_chunk))

    @property
    def layer_names(self) -> tuple[str, ...]:
        """``enc_l0`` (embeddings) ... ``enc_lL``."""
        return tuple(f"enc_l{i}" for i in range(self.s2s.num_encoder_layers + 1))

    @property
    def columns(self) -> tuple[str, ...]:
        """Column names of the tables this scorer produces."""
        d = self.s2s.hidden_size
        acts = tuple(activation_column(layer, pool, j)
                     for layer in range(len(self.layer_names)) for pool in self.pools
                     for j in range(d))
        return SCALAR_COLUMNS + acts

    # -- teacher forcing ---------------------------------------------------------------------

    def _token_logprobs(self, enc: dict[str, torch.Tensor], tgt: Sequence[Sequence[int]],
                        hidden: bool) -> tuple[torch.Tensor, torch.Tensor, tuple | None]:
        s2s = self.s2s
        dec, labels, mask = pad_targets(tgt, s2s.pad_id, s2s.decoder_start_id, s2s.device)
        with autocast(s2s.device):
            out = s2s.model(**enc, decoder_input_ids=dec, output_hidden_states=hidden,
                            return_dict=True)
        logits = out.logits.float()
        # fused log-softmax + gather (much cheaper than materialising log_softmax)
        tok = -torch.nn.functional.cross_entropy(
            logits.reshape(-1, logits.shape[-1]), labels.reshape(-1),
            reduction="none").view(labels.shape)
        hs = out.encoder_hidden_states if hidden else None
        return tok, mask, hs

    @staticmethod
    def _mean_logprob(tok: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        m = mask.to(tok.dtype)
        return (tok * m).sum(-1) / m.sum(-1).clamp_min(1.0)

    @torch.inference_mode()
    def confidence_ids(self, source_ids: Sequence[Sequence[int]],
                       target_ids: Sequence[Sequence[int]]) -> np.ndarray:
        """Teacher-forced confidence of token-id targets (``exp`` of the mean token
        log-probability over the target tokens, end-of-sequence included)."""
        if len(source_ids) != len(target_ids):
            raise ValueError("sources and targets differ in number")
        model = self.s2s.model
        was = model.training
        model.eval()
        out = np.zeros(len(source_ids), dtype=np.float64)
        try:
            for batch in sorted_batches([len(t) for t in target_ids], self.batch_size):
                enc = pad_sources([source_ids[i] for i in batch], self.s2s.pad_id, self.s2s.device)
                tok, mask, _ = self._token_logprobs(enc, [target_ids[i] for i in batch], False)
                out[batch] = torch.exp(self._mean_logprob(tok, mask)).double().cpu().numpy()
        finally:
            model.train(was)
        return out

    def confidence(self, questions: Sequence[str], queries: Sequence[str]) -> np.ndarray:
        """Teacher-forced confidence score of each query given its question."""
        return self.confidence_ids(self.s2s.source_ids(questions),
                                   self.s2s.encode_targets(queries))

    # -- all features ------------------------------------------------------------------------

    def _pool(self, hs: tuple, attn: torch.Tensor) -> torch.Tensor:
        m = attn.unsqueeze(-1).float()
        n = m.sum(1).clamp_min(1.0)
        rows = []
        for h in hs:
            h = h.float()
            mean = (h * m).sum(1) / n
            parts = []
            for pool in self.pools:
                if pool == "mean":
                    parts.append(mean)
                else:
                    parts.append((((h - mean.unsqueeze(1)) * m) ** 2).sum(1) / n)
            rows.append(torch.cat(parts, dim=-1))
        return torch.stack(rows, dim=1)  # [B, layers, pools*d]

    def _mc(self, enc: dict[str, torch.Tensor], tgt: Sequence[Sequence[int]],
            batch_no: int) -> tuple[np.ndarray, np.ndarray]:
        model = self.s2s.model
        n, trials = len(tgt), self.mc_trials
        rep_src = {k: v.repeat_interleave(trials, dim=0) for k, v in enc.items()}
        rep_tgt = [t for t in tgt for _ in range(trials)]
        cs = torch.empty(n * trials, dtype=torch.float64)
        devices = [self.s2s.device] if self.s2s.device.type == "cuda" else []
        with torch.random.fork_rng(devices=devices):
            torch.manual_seed(self.seed * 1_000_003 + batch_no)
            model.train()
            try:
                for s in range(0, n * trials, self.mc_chunk):
                    sl = slice(s, s + self.mc_chunk)
                    part = {k: v[sl] for k, v in rep_src.items()}
                    tok, mask, _ = self._token_logprobs(part, rep_tgt[sl], False)
                    cs[sl] = torch.exp(self._mean_logprob(tok, mask)).double().cpu()
            finally:
                model.eval()
        cs = cs.view(n, trials).numpy()
        return cs.var(axis=1), cs.mean(axis=1)

    @torch.inference_mode()
    def score(self, questions: Sequence[str], queries: Sequence[str],
              ids: Sequence[str] | None = None, *, progress: bool = False) -> FeatureTable:
        """Features of each (question, query) pair, in input order.

        An empty query is scored as the bare end-of-sequence token.
        """
        if len(questions) != len(queries):
            raise ValueError("questions and queries differ in number")
        if ids is not None and len(ids) != len(questions):
            raise ValueError("ids and questions differ in number")
        s2s = self.s2s
        src = s2s.source_ids(questions)
        tgt = s2s.encode_targets(queries)
        cols = self.columns
        values = np.full((len(questions), len(cols)), np.nan, dtype=np.float32)
        model = s2s.model
        was = model.training
        model.eval()
        bar = None
        if progress:
            from tqdm import tqdm
            bar = tqdm(total=len(questions), desc="features", unit="pair")
        try:
            batches = sorted_batches([len(a) + len(b) for a, b in zip(src, tgt)], self.batch_size)
            for bno, batch in enumerate(batches):
                enc = pad_sources([src[i] for i in batch], s2s.pad_id, s2s.device)
                btgt = [tgt[i] for i in batch]
                tok, mask, hs = self._token_logprobs(enc, btgt, True)
                cs = torch.exp(self._mean_logprob(tok, mask)).cpu().numpy()
                acts = self._pool(hs, enc["attention_mask"]).flatten(1).cpu().numpy()
                values[batch, 0] = cs
                if self.mc_trials:
                    var, mean = self._mc(enc, btgt, bno)
                    values[batch, 1] = var
                    values[batch, 2] = mean
                values[batch, len(SCALAR_COLUMNS):] = acts
                if bar is not None:
                    bar.update(len(batch))
        finally:
            if bar is not None:
                bar.close()
            model.train(was)
        return FeatureTable(cols, values, tuple(str(i) for i in ids) if ids is not None else ())

    def score_one(self, question: str, query: str) -> FeatureRecord:
        """Features of a single pair."""
        return self.score([question], [query]).record(0)
