"""A seq2seq model (T5 or BART family) and its tokenizer, bundled with the device they run on.

Three ways to get one:

* :func:`build_seq2seq`: a fresh, randomly initialised model from a :class:`GeneratorConfig`
  (no pretrained weights needed) over a tokenizer built from the data;
* :func:`load_seq2seq` on a directory written by :func:`save_seq2seq` (or by
  ``save_pretrained``);
* :func:`load_seq2seq` on a hub name (``"t5-small"``) for users with a network.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Sequence

import torch

from verifier.hdm.device import pick_device

__all__ = ["GeneratorConfig", "Seq2Seq", "build_seq2seq", "load_seq2seq", "save_seq2seq",
           "META_FILE", "ModelNotFoundError"]

log = logging.getLogger(__name__)

META_FILE = "hdm_generator.json"


class ModelNotFoundError(FileNotFoundError):
    """A model directory is missing or does not hold a seq2seq model."""


@dataclass(frozen=True)
class GeneratorConfig:
    """Architecture of a small seq2seq generator trained from scratch.

    Attributes:
        arch: ``"t5"`` or ``"bart"``.
        d_model: hidden size.
        num_layers / num_decoder_layers: encoder / decoder depth.
        num_heads: attention heads (must divide ``d_model``).
        d_ff: feed-forward size.
        dropout: dropout rate (also what Monte Carlo dropout switches on at inference).
        vocab_size: tokenizer vocabulary size (set from the tokenizer when building).
        max_source_len / max_target_len: truncation lengths in tokens.
        copy: BART only: add a copy head (pointer-generator,
            :mod:`verifier.hdm.copy_bart`) that can emit a question token directly; a
            model trained from scratch then learns to copy entity names within a few epochs
            instead of ignoring its input for thousands of steps.
    """

    arch: Literal["t5", "bart"] = "t5"
    d_model: int = 192
    num_layers: int = 2
    num_decoder_layers: int = 2
    num_heads: int = 4
    d_ff: int = 768
    dropout: float = 0.1
    vocab_size: int = 4000
    max_source_len: int = 64
    max_target_len: int = 128
    copy: bool = False

    def __post_init__(self) -> None:
        if self.arch not in ("t5", "bart"):
            raise ValueError(f"arch must be 't5' or 'bart', not {self.arch!r}")
        if self.copy and self.arch != "bart":
            raise ValueError("the copy head exists for arch 'bart' only")
        if self.d_model % self.num_heads:
            raise ValueError(f"num_heads {self.num_heads} does not divide d_model {self.d_model}")
        if min(self.d_model, self.num_layers, self.num_decoder_layers, self.d_ff,
               self.vocab_size, self.max_source_len, self.max_target_len) <= 0:
            raise ValueError("sizes must be positive")
        if not 0.0 <= self.dropout < 1.0:
            raise ValueError("dropout must be in [0, 1)")

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "GeneratorConfig":
        """Build from a dict (unknown keys are an error)."""
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(d) - names
        if unknown:
            raise ValueError(f"unknown generator config keys: {sorted(unknown)}")
        return cls(**d)

    @classmethod
    def from_json(cls, path: str | Path) -> "GeneratorConfig":
        """Read a JSON config file."""
        return cls.from_dict(json.loads(Path(path).read_text()))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable dict."""
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class Seq2Seq:
    """A seq2seq model, its tokenizer, the device and the truncation lengths.

    ``model`` is a ``transformers`` encoder-decoder (``T5ForConditionalGeneration``,
    ``BartForConditionalGeneration`` ...) already moved to ``device``.
    """

    model: Any
    tokenizer: Any
    device: torch.device
    max_source_len: int = 64
    max_target_len: int = 128

    @property
    def pad_id(self) -> int:
        """Padding token id."""
        return int(self.tokenizer.pad_token_id)

    @property
    def eos_id(self) -> int:
        """End-of-sequence token id."""
        return int(self.tokenizer.eos_token_id)

    @property
    def decoder_start_id(self) -> int:
        """The token the decoder starts from."""
        start = self.model.config.decoder_start_token_id
        return int(start if start is not None else self.pad_id)

    @property
    def num_encoder_layers(self) -> int:
        """Number of encoder blocks."""
        cfg = self.model.config
        for name in ("num_layers", "encoder_layers"):
            if getattr(cfg, name, None):
                return int(getattr(cfg, name))
        raise AttributeError("cannot tell the number of encoder layers")

    @property
    def hidden_size(self) -> int:
        """Encoder hidden size."""
        cfg = self.model.config
        return int(getattr(cfg, "d_model", None) or cfg.hidden_size)

    def encode_sources(self, questions: Sequence[str]) -> dict[str, torch.Tensor]:
        """Tokenize questions (padded, truncated) into ``input_ids`` / ``attention_mask`` on
        the device."""
        enc = self.tokenizer(list(questions), padding=True, truncation=True,
                             max_length=self.max_source_len, return_tensors="pt")
        return {"input_ids": enc["input_ids"].to(self.device),
                "attention_mask": enc["attention_mask"].to(self.device)}

    def source_ids(self, questions: Sequence[str]) -> list[list[int]]:
        """Token ids of questions (with the end-of-sequence token, truncated, unpadded)."""
        enc = self.tokenizer(list(questions), truncation=True, max_length=self.max_source_len)
        return [list(ids) for ids in enc["input_ids"]]

    def encode_targets(self, queries: Sequence[str]) -> list[list[int]]:
        """Token ids of target queries (with the end-of-sequence token, unpadded)."""
        enc = self.tokenizer(list(queries), truncation=True, max_length=self.max_target_len)
        return [list(ids) for ids in enc["input_ids"]]

    def decode(self, ids: Sequence[int]) -> str:
        """Text of generated ids (special tokens dropped, outer spaces stripped)."""
        return self.tokenizer.decode(list(ids), skip_special_tokens=True).strip()


def build_seq2seq(config: GeneratorConfig, tokenizer: Any, device: torch.device | str | None = None,
                  seed: int | None = None) -> Seq2Seq:
    """A randomly initialised model of ``config`` over ``tokenizer`` (seeded if ``seed``).

    T5 starts decoding from ``<pad>``; BART from ``</s>`` (its padding embedding is fixed
    at zero).  With ``config.copy`` the model is a
    :class:`~verifier.hdm.copy_bart.CopyBartForConditionalGeneration`."""
    from transformers import BartConfig, BartForConditionalGeneration, T5Config, T5ForConditionalGeneration

    dev = pick_device(str(device) if device is not None else None)
    vocab = len(tokenizer)
    pad, eos = int(tokenizer.pad_token_id), int(tokenizer.eos_token_id)
    if seed is not None:
        torch.manual_seed(seed)
    if config.arch == "t5":
        mcfg = T5Config(
            vocab_size=vocab, d_model=config.d_model, d_kv=config.d_model // config.num_heads,
            d_ff=config.d_ff, num_layers=config.num_layers,
            num_decoder_layers=config.num_decoder_layers, num_heads=config.num_heads,
            dropout_rate=config.dropout, feed_forward_proj="relu", tie_word_embeddings=True,
            pad_token_id=pad, eos_token_id=eos, decoder_start_token_id=pad)
        model = T5ForConditionalGeneration(mcfg)
    else:
        config_cls, model_cls = BartConfig, BartForConditionalGeneration
        if config.copy:
            from verifier.hdm.copy_bart import CopyBartConfig, CopyBartForConditionalGeneration
            config_cls, model_cls = CopyBartConfig, CopyBartForConditionalGeneration
        mcfg = config_cls(
            vocab_size=vocab, d_model=config.d_model, encoder_layers=config.num_layers,
            decoder_layers=config.num_decoder_layers, encoder_attention_heads=config.num_heads,
            decoder_attention_heads=config.num_heads, encoder_ffn_dim=config.d_ff,
            decoder_ffn_dim=config.d_ff, dropout=config.dropout,
            attention_dropout=config.dropout, activation_dropout=config.dropout,
            max_position_embeddings=max(config.max_source_len, config.max_target_len) + 2,
            pad_token_id=pad, eos_token_id=eos, bos_token_id=None, decoder_start_token_id=eos,
            forced_bos_token_id=None, forced_eos_token_id=None)
        model = model_cls(mcfg)
    model.to(dev).eval()
    return Seq2Seq(model, tokenizer, dev, config.max_source_len, config.max_target_len)


def save_seq2seq(s2s: Seq2Seq, out_dir: str | Path, config: GeneratorConfig | None = None,
                 extra: dict[str, Any] | None = None) -> Path:
    """Write model, tokenizer and ``hdm_generator.json`` (lengths, config, ``extra``) to
    ``out_dir``; returns the directory."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    s2s.model.save_pretrained(out)
    s2s.tokenizer.save_pretrained(out)
    meta: dict[str, Any] = {"max_source_len": s2s.max_source_len,
                            "max_target_len": s2s.max_target_len}
    if config is not None:
        meta["generator_config"] = config.to_dict()
    if extra:
        meta.update(extra)
    (out / META_FILE).write_text(json.dumps(meta, indent=2, sort_keys=True))
    return out


def _looks_like_path(name: str) -> bool:
    return name.startswith((".", "/", "~")) or Path(name).expanduser().exists() or name.count("/") > 1


def load_seq2seq(name_or_dir: str | Path, device: torch.device | str | None = None,
                 max_source_len: int | None = None, max_target_len: int | None = None) -> Seq2Seq:
    """Load a seq2seq model and tokenizer from a local directory or a hub name.

    Raises:
        ModelNotFoundError: a local path that does not exist or holds no model.
    """
    from transformers import AutoModelForSeq2SeqLM, AutoTokenizer

    import verifier.hdm.copy_bart  # noqa: F401  (registers the copy model with the auto classes)

    dev = pick_device(str(device) if device is not None else None)
    name = str(name_or_dir)
    meta: dict[str, Any] = {}
    local = Path(name).expanduser()
    if _looks_like_path(name):
        if not local.is_dir():
            raise ModelNotFoundError(f"model directory not found: {name}")
        if not (local / "config.json").is_file():
            raise ModelNotFoundError(f"{name} holds no model (config.json missing)")
        if (local / META_FILE).is_file():
            meta = json.loads((local / META_FILE).read_text())
        name = str(local)
    tokenizer = AutoTokenizer.from_pretrained(name)
    model = AutoModelForSeq2SeqLM.from_pretrained(name)
    if not model.config.is_encoder_decoder:
        raise ModelNotFoundError(f"{name} is not an encoder-decoder model")
    model.to(dev).eval()
    return Seq2Seq(model, tokenizer, dev,
                   int(max_source_len or meta.get("max_source_len", 64)),
                   int(max_target_len or meta.get("max_target_len", 128)))
