"""The hallucination detection model (HDM) of Bacciu et al.

Architecture (:class:`HDMNet`): multi-head self-attention over the per-layer pooled encoder
activation vectors (one token per encoder layer, with a residual connection), flattened and
concatenated with the scalar features (confidence score, MC-dropout variance), then two
feed-forward layers (1024, 128) each with batch norm, ReLU and dropout, and a 2-way head.
Training (:meth:`HDMDetector.fit`): AdamW (lr 1e-3, weight decay 1e-3), batch 32, up to 100
epochs, early stopping on dev macro-F1 with a configurable patience; the best dev epoch is
kept.  Inputs are standardised with training statistics (``mcd_var`` log-transformed first).

Feature sets (the paper's ablation): ``cs``, ``act``, ``act+cs``, ``act+cs+mcd``.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import torch
from torch import nn

from verifier.hdm.device import pick_device
from verifier.hdm.features import POOLINGS, FeatureTable, parse_activation_column
from verifier.hdm.metrics import macro_f1

__all__ = ["DetectorConfig", "HDMNet", "HDMDetector", "FEATURE_SETS", "DetectorFileError"]

log = logging.getLogger(__name__)

#: feature set name -> scalar columns (activations are used when the name starts with "act")
FEATURE_SETS: dict[str, tuple[str, ...]] = {
    "cs": ("cs",),
    "act": (),
    "act+cs": ("cs",),
    "act+cs+mcd": ("cs", "mcd_var"),
}
CONFIG_FILE = "hdm_detector.json"
WEIGHTS_FILE = "hdm_detector.pt"
_LOG_COLUMNS = ("mcd_var",)


class DetectorFileError(ValueError):
    """A detector directory is missing, incomplete or inconsistent."""


@dataclass(frozen=True)
class DetectorConfig:
    """Detector hyper-parameters.

    Attributes:
        feature_set: one of :data:`FEATURE_SETS`.
        pools: activation poolings used (subset of ``("var", "mean")``).
        heads: attention heads (reduced to the largest divisor of the layer vector size).
        hidden: the two feed-forward sizes.
        dropout: dropout after each feed-forward layer.
        lr / weight_decay / batch_size / max_epochs / patience: training (early stopping on
            dev macro-F1).
        class_weight: ``"balanced"`` (inverse class frequency in the loss) or ``"none"``.
        seed: initialisation and batch order.
    """

    feature_set: str = "act+cs+mcd"
    pools: tuple[str, ...] = POOLINGS
    heads: int = 4
    hidden: tuple[int, int] = (1024, 128)
    dropout: float = 0.2
    lr: float = 1e-3
    weight_decay: float = 1e-3
    batch_size: int = 32
    max_epochs: int = 100
    patience: int = 50
    class_weight: str = "balanced"
    seed: int = 0

    def __post_init__(self) -> None:
        if self.feature_set not in FEATURE_SETS:
            raise ValueError(f"feature_set must be one of {sorted(FEATURE_SETS)}, "
                             f"not {self.feature_set!r}")
        if any(p not in POOLINGS for p in self.pools) or not self.pools:
            raise ValueError(f"pools must be a non-empty subset of {POOLINGS}")
        if self.class_weight not in ("balanced", "none"):
            raise ValueError("class_weight must be 'balanced' or 'none'")
        if self.batch_size < 2 or self.max_epochs < 1 or self.patience < 1:
            raise ValueError("batch_size >= 2, max_epochs >= 1 and patience >= 1 required")

    @property
    def uses_activations(self) -> bool:
        """Whether encoder activations are inputs."""
        return self.feature_set.startswith("act")

    def to_dict(self) -> dict[str, Any]:
        """JSON-serialisable dict."""
        d = dataclasses.asdict(self)
        d["pools"], d["hidden"] = list(self.pools), list(self.hidden)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "DetectorConfig":
        """Inverse of :meth:`to_dict`."""
        d = dict(d)
        d["pools"], d["hidden"] = tuple(d["pools"]), tuple(d["hidden"])
        return cls(**d)


def _heads_for(dim: int, wanted: int) -> int:
    return max(h for h in range(1, max(1, wanted) + 1) if dim % h == 0)


class HDMNet(nn.Module):
    """Attention over layer vectors + two feed-forward layers + 2-way head."""

    def __init__(self, n_layers: int, layer_dim: int, n_scalars: int, heads: int = 4,
                 hidden: Sequence[int] = (1024, 128), dropout: float = 0.2) -> None:
        super().__init__()
        self.n_layers, self.layer_dim, self.n_scalars = n_layers, layer_dim, n_scalars
        self.attn = (nn.MultiheadAttention(layer_dim, _heads_for(layer_dim, heads),
                                           batch_first=True) if n_layers else None)
        width = n_layers * layer_dim + n_scalars
        if width == 0:
            raise ValueError("the detector has no inputs")
        layers: list[nn.Module] = []
        for h in hidden:
            layers += [nn.Linear(width, h), nn.BatchNorm1d(h), nn.ReLU(), nn.Dropout(dropout)]
            width = h
        layers.append(nn.Linear(width, 2))
        self.ff = nn.Sequential(*layers)

    def forward(self, acts: torch.Tensor | None, scalars: torch.Tensor | None) -> torch.Tensor:
        """Logits ``[batch, 2]`` from activations ``[batch, layers, dim]`` and scalars
        ``[batch, n_scalars]`` (either may be ``None`` when unused)."""
        parts = []
        if self.attn is not None and acts is not None:
            a, _ = self.attn(acts, acts, acts, need_weights=False)
            parts.append((acts + a).flatten(1))
        if self.n_scalars and scalars is not None:
            parts.append(scalars)
        return self.ff(torch.cat(parts, dim=-1))


def _act_columns(columns: Sequence[str], pools: Sequence[str]) -> tuple[tuple[str, ...], int]:
    parsed = [(parse_activation_column(c), c) for c in columns]
    acts = [(p, c) for p, c in parsed if p is not None and p[1] in pools]
    if not acts:
        return (), 0
    acts.sort(key=lambda t: (t[0][0], pools.index(t[0][1]), t[0][2]))
    layers = sorted({p[0] for p, _ in acts})
    per_layer = len(acts) // len(layers)
    if per_layer * len(layers) != len(acts):
        raise ValueError("activation columns differ in number between layers")
    return tuple(c for _, c in acts), len(layers)


class HDMDetector:
    """A trained HDM with its input columns, normalisation and decision threshold.

    Build with :meth:`fit` or :meth:`load`; score with :meth:`predict_proba` (probability of
    hallucination per row of a :class:`FeatureTable`).
    """

    def __init__(self, config: DetectorConfig, scalar_columns: tuple[str, ...],
                 act_columns: tuple[str, ...], n_layers: int, mean: np.ndarray,
                 std: np.ndarray, net: HDMNet, threshold: float = 0.5,
                 info: dict[str, Any] | None = None) -> None:
        self.config = config
        self.scalar_columns = scalar_columns
        self.act_columns = act_columns
        self.n_layers = n_layers
        self.mean = mean.astype(np.float32)
        self.std = std.astype(np.float32)
        self.net = net.eval()
        self.threshold = float(threshold)
        self.info = dict(info or {})
        self._positions: dict[tuple[str, ...], np.ndarray] = {}  # column lookup cache

    @property
    def columns(self) -> tuple[str, ...]:
        """Input columns, scalars first, then activations (layer, pool, dim order)."""
        return self.scalar_columns + self.act_columns

    @property
    def needs_mc(self) -> bool:
        """Whether the detector reads the MC-dropout feature."""
        return any(c.startswith("mcd_") for c in self.scalar_columns)

    @property
    def device(self) -> torch.device:
        """Where the network lives."""
        return next(self.net.parameters()).device

    # -- inputs --------------------------------------------------------------------------

    @staticmethod
    def _raw(table: FeatureTable, columns: Sequence[str],
             cache: dict[tuple[str, ...], np.ndarray] | None = None) -> np.ndarray:
        pos = cache.get(table.columns) if cache is not None else None
        if pos is None:
            try:
                pos = table.index(columns)
            except KeyError as e:
                raise ValueError(f"the feature table does not match the detector's inputs: "
                                 f"{e.args[0]}") from None
            if cache is not None:
                cache.clear()
                cache[table.columns] = pos
        x = table.values[:, pos].astype(np.float32)
        for k, c in enumerate(columns):
            if c in _LOG_COLUMNS:
                x[:, k] = np.log(np.maximum(x[:, k], 0.0) + 1e-10)
        if np.isnan(x).any():
            bad = sorted({columns[k] for k in np.where(np.isnan(x).any(0))[0]})
            raise ValueError(f"NaN in feature columns {bad[:5]} (was MC dropout disabled?)")
        return x

    def _tensors(self, table: FeatureTable) -> tuple[torch.Tensor | None, torch.Tensor | None]:
        x = (self._raw(table, self.columns, self._positions) - self.mean) / self.std
        t = torch.from_numpy(x).to(self.device)
        ns = len(self.scalar_columns)
        sc = t[:, :ns] if ns else None
        acts = t[:, ns:].reshape(len(t), self.n_layers, -1) if self.n_layers else None
        return acts, sc

    # -- inference -----------------------------------------------------------------------

    @torch.inference_mode()
    def predict_proba(self, table: FeatureTable) -> np.ndarray:
        """Probability of hallucination for each row.

        Raises:
            ValueError: the table lacks columns the detector was trained on, or has NaNs.
        """
        if len(table) == 0:
            return np.zeros(0, dtype=np.float64)
        if self.net.training:
            self.net.eval()
        acts, sc = self._tensors(table)
        out = []
        for s in range(0, len(table), 1024):
            logits = self.net(acts[s:s + 1024] if acts is not None else None,
                              sc[s:s + 1024] if sc is not None else None)
            out.append(torch.softmax(logits.float(), -1)[:, 1].double().cpu())
        return torch.cat(out).numpy()

    def predict(self, table: FeatureTable) -> np.ndarray:
        """1 (hallucination) where the probability reaches :attr:`threshold`."""
        return (self.predict_proba(table) >= self.threshold).astype(int)

    # -- training ------------------------------------------------------------------------

    @classmethod
    def fit(cls, train: FeatureTable, y_train: Sequence[int], dev: FeatureTable,
            y_dev: Sequence[int], config: DetectorConfig = DetectorConfig(), *,
            device: str | None = None, progress: bool = False) -> "HDMDetector":
        """Train on ``train`` (labels 1 = hallucination), early-stop on ``dev`` macro-F1.

        Raises:
            ValueError: label/row mismatch, a single class in the training labels, or
                missing feature columns.
        """
        ytr = np.asarray(y_train, dtype=np.int64)
        ydv = np.asarray(y_dev, dtype=np.int64)
        if len(ytr) != len(train) or len(ydv) != len(dev):
            raise ValueError("labels and feature rows differ in number")
        if set(np.unique(ytr)) != {0, 1}:
            raise ValueError("training labels must contain both classes 0 and 1")
        scalars = FEATURE_SETS[config.feature_set]
        acts, n_layers = (_act_columns(train.columns, config.pools)
                          if config.uses_activations else ((), 0))
        if config.uses_activations and not acts:
            raise ValueError("feature set uses activations but the table has no enc_* columns")
        columns = tuple(scalars) + acts
        xtr = cls._raw(train, columns)
        mean = xtr.mean(0)
        std = xtr.std(0)
        std = np.where(std > 1e-6, std, 1.0).astype(np.float32)
        dev_t = pick_device(device)
        layer_dim = len(acts) // n_layers if n_layers else 0
        devices = [dev_t] if dev_t.type == "cuda" else []
        with torch.random.fork_rng(devices=devices):
            torch.manual_seed(config.seed)
            net = HDMNet(n_layers, layer_dim, len(scalars), config.heads, config.hidden,
                         config.dropout).to(dev_t)
            det = cls(config, tuple(scalars), acts, n_layers, mean, std, net)
            det._train(train, ytr, dev, ydv, progress)
        return det

    def _train(self, train: FeatureTable, ytr: np.ndarray, dev: FeatureTable, ydv: np.ndarray,
               progress: bool) -> None:
        cfg = self.config
        acts, sc = self._tensors(train)
        y = torch.from_numpy(ytr).to(self.device)
        counts = np.bincount(ytr, minlength=2).astype(np.float64)
        weight = (torch.tensor(len(ytr) / (2 * counts), dtype=torch.float32, device=self.device)
                  if cfg.class_weight == "balanced" else None)
        loss_fn = nn.CrossEntropyLoss(weight=weight)
        opt = torch.optim.AdamW(self.net.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
        gen = torch.Generator().manual_seed(cfg.seed)
        best_f1, best_epoch, best_state = -1.0, 0, None
        history: list[tuple[int, float, float]] = []
        bar = None
        if progress:
            from tqdm import tqdm
            bar = tqdm(total=cfg.max_epochs, desc="hdm", unit="epoch")
        for epoch in range(1, cfg.max_epochs + 1):
            self.net.train()
            perm = torch.randperm(len(y), generator=gen).to(self.device)
            total = 0.0
            for s in range(0, len(perm), cfg.batch_size):
                idx = perm[s:s + cfg.batch_size]
                if len(idx) < 2:  # batch norm needs two rows
                    continue
                logits = self.net(acts[idx] if acts is not None else None,
                                  sc[idx] if sc is not None else None)
                loss = loss_fn(logits, y[idx])
                opt.zero_grad(set_to_none=True)
                loss.backward()
                opt.step()
                total += float(loss.detach()) * len(idx)
            f1 = macro_f1(ydv, self.predict(dev)) if len(dev) else 0.0
            history.append((epoch, total / len(y), f1))
            if bar is not None:
                bar.update(1)
                bar.set_postfix(dev_f1=f"{f1:.3f}")
            if f1 > best_f1:
                best_f1, best_epoch = f1, epoch
                best_state = {k: v.detach().clone() for k, v in self.net.state_dict().items()}
            elif epoch - best_epoch >= cfg.patience:
                break
        if bar is not None:
            bar.close()
        if best_state is not None:
            self.net.load_state_dict(best_state)
        self.net.eval()
        self.info = {"best_epoch": best_epoch, "dev_macro_f1": best_f1,
                     "epochs_run": len(history), "train_rows": int(len(ytr)),
                     "history": [list(h) for h in history]}
        log.info("hdm: best dev macro-F1 %.4f at epoch %d", best_f1, best_epoch)

    # -- persistence ---------------------------------------------------------------------

    def save(self, out_dir: str | Path) -> Path:
        """Write ``hdm_detector.json`` and ``hdm_detector.pt`` to ``out_dir``."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        meta = {"format": 1, "config": self.config.to_dict(),
                "scalar_columns": list(self.scalar_columns),
                "act_columns": list(self.act_columns), "n_layers": self.n_layers,
                "layer_dim": self.net.layer_dim, "threshold": self.threshold,
                "info": self.info}
        (out / CONFIG_FILE).write_text(json.dumps(meta, indent=1))
        torch.save({"state_dict": {k: v.cpu() for k, v in self.net.state_dict().items()},
                    "mean": torch.from_numpy(self.mean), "std": torch.from_numpy(self.std)},
                   out / WEIGHTS_FILE)
        return out

    @classmethod
    def load(cls, model_dir: str | Path, device: str | None = None) -> "HDMDetector":
        """Read a detector written by :meth:`save`.

        Raises:
            DetectorFileError: missing directory/files or inconsistent contents.
        """
        d = Path(model_dir)
        if not d.is_dir():
            raise DetectorFileError(f"detector directory not found: {d}")
        for f in (CONFIG_FILE, WEIGHTS_FILE):
            if not (d / f).is_file():
                raise DetectorFileError(f"{d} is not an HDM detector ({f} missing)")
        meta = json.loads((d / CONFIG_FILE).read_text())
        if meta.get("format") != 1:
            raise DetectorFileError(f"unsupported detector format {meta.get('format')!r}")
        config = DetectorConfig.from_dict(meta["config"])
        scalars = tuple(meta["scalar_columns"])
        acts = tuple(meta["act_columns"])
        n_layers = int(meta["n_layers"])
        blob = torch.load(d / WEIGHTS_FILE, map_location="cpu", weights_only=True)
        mean, std = blob["mean"].numpy(), blob["std"].numpy()
        if len(mean) != len(scalars) + len(acts) or len(std) != len(mean):
            raise DetectorFileError(f"{d}: normalisation has {len(mean)} columns, the config "
                                    f"lists {len(scalars) + len(acts)}")
        net = HDMNet(n_layers, int(meta["layer_dim"]), len(scalars), config.heads,
                     config.hidden, config.dropout)
        try:
            net.load_state_dict(blob["state_dict"])
        except RuntimeError as e:
            raise DetectorFileError(f"{d}: weights do not match the configuration: {e}") from e
        net.to(pick_device(device))
        return cls(config, scalars, acts, n_layers, mean, std, net,
                   float(meta.get("threshold", 0.5)), meta.get("info"))
