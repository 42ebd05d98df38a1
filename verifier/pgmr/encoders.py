"""Text encoders for the PGMR memory, behind one small interface (:class:`Encoder`).

* :class:`HashedNgramEncoder`: the weight-free default.  Character 2-3-grams and words of the
  normalized text (NFKD, accents removed, case-folded) are hashed with keyed BLAKE2b into
  ``dim`` signed buckets (the "hashing trick", a sparse random projection), TF weighted,
  each block L2-normalized, mixed (words at weight 0.25) and L2-normalized again.
  Deterministic across processes and machines (no salted ``hash()``), needs no download,
  about 15-20k labels/s on one core.  The parameters were chosen on 3,000 random memory
  labels with typos / reordered words (not on benchmark questions): 2-3-grams with a light
  word block recover typo'd labels best while unrelated labels stay near cosine 0 (median
  0.04, 99th percentile 0.28); character unigrams would lift that floor to ~0.37.
* :class:`SentenceTransformerEncoder`: any sentence-transformers model by name (e.g.
  ``BAAI/bge-small-en-v1.5``, needs a network the first time) or local path; batched, on the
  GPU when one is present.

Every encoder returns L2-normalized float32 rows, so inner product is cosine similarity, and
has an ``identity`` string that is stored with a saved index and checked on load.
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass, field
from typing import Any, Protocol, Sequence, runtime_checkable

import numpy as np

from verifier.lexical import fold

__all__ = ["Encoder", "HashedNgramEncoder", "SentenceTransformerEncoder", "encoder_from_identity",
           "normalize_text"]

log = logging.getLogger(__name__)


@runtime_checkable
class Encoder(Protocol):
    """What the memory needs from an encoder."""

    @property
    def identity(self) -> str:
        """A string that names the encoder and every parameter that changes its vectors."""

    @property
    def dim(self) -> int:
        """Vector dimension."""

    @property
    def default_threshold(self) -> float:
        """Cosine below which a label is not grounded (refusal), calibrated per encoder."""

    def encode(self, texts: Sequence[str], *, batch_size: int = 4096,
               progress: bool = False) -> np.ndarray:
        """``(len(texts), dim)`` float32, rows L2-normalized (all-zero for empty text)."""


_WORD = re.compile(r"\w+")
_WS = re.compile(r"\s+")


def normalize_text(text: str) -> str:
    """NFKD, combining marks removed, case-folded (:func:`verifier.lexical.fold`), whitespace
    collapsed."""
    return _WS.sub(" ", fold(text)).strip()


def _l2_rows(m: np.ndarray) -> np.ndarray:
    n = np.linalg.norm(m, axis=1, keepdims=True)
    np.divide(m, n, out=m, where=n > 0)
    return m


@dataclass(frozen=True)
class HashedNgramEncoder:
    """Hashed character n-gram + word encoder (see the module docstring).

    Args:
        dim: number of hash buckets (vector dimension).
        ngrams: character n-gram sizes, taken over the text padded with one space each side.
        word_weight: weight of the word block relative to the character block.
        key: BLAKE2b key; changing it gives an independent projection.
    """

    dim: int = 256
    ngrams: tuple[int, ...] = (2, 3)
    word_weight: float = 0.25
    key: str = "pgmr-v1"
    _cache: dict[str, int] = field(default_factory=dict, init=False, repr=False,
                                   compare=False)
    _wcache: dict[str, int] = field(default_factory=dict, init=False, repr=False,
                                    compare=False)

    VERSION = 1
    CACHE_LIMIT = 2_000_000

    def __post_init__(self) -> None:
        if self.dim < 8:
            raise ValueError(f"dim must be at least 8, got {self.dim}")
        if not self.ngrams or min(self.ngrams) < 1:
            raise ValueError(f"bad n-gram sizes {self.ngrams}")

    @property
    def identity(self) -> str:
        ng = ",".join(map(str, self.ngrams))
        return (f"hashed-ngram/v{self.VERSION}?dim={self.dim}&ngrams={ng}"
                f"&word_weight={self.word_weight:g}&key={self.key}")

    @property
    def default_threshold(self) -> float:
        # above the 99th percentile of unrelated-label cosine (0.28), below the 1st
        # percentile of a label vs the same label with one typo (0.47)
        return 0.4

    def _code(self, feature: str) -> int:
        """Signed bucket of a feature: ``b + 1`` or ``-(b + 1)`` for bucket ``b``."""
        d = hashlib.blake2b(feature.encode("utf-8"), digest_size=8,
                            key=self.key.encode("utf-8")).digest()
        h = int.from_bytes(d, "little")
        b = h % self.dim + 1
        return b if (h >> 40) & 1 else -b

    def _lookup(self, feats: list[str], tag: str, cache: dict[str, int]) -> list[int]:
        codes = list(map(cache.get, feats))
        if None in codes:
            room = len(cache) < self.CACHE_LIMIT
            for j, c in enumerate(codes):
                if c is None:
                    c = codes[j] = self._code(tag + feats[j])
                    if room:
                        cache[feats[j]] = c
        return codes  # type: ignore[return-value]

    def _features(self, text: str) -> tuple[list[int], list[int]]:
        """Signed bucket codes of the character n-grams and of the words of ``text``."""
        t = normalize_text(text)
        if not t:
            return [], []
        padded = f" {t} "
        grams = [padded[i:i + n] for n in self.ngrams for i in range(len(padded) - n + 1)]
        chars = self._lookup(grams, "c", self._cache)
        words = self._lookup(_WORD.findall(t), "w", self._wcache) if self.word_weight else []
        return chars, words

    def _block(self, rows: list[int], codes: list[int], n: int) -> np.ndarray:
        code = np.asarray(codes, dtype=np.int64)
        flat = np.asarray(rows, dtype=np.int64) * self.dim + (np.abs(code) - 1)
        m = np.bincount(flat, weights=np.sign(code).astype(np.float64), minlength=n * self.dim)
        return _l2_rows(m.reshape(n, self.dim).astype(np.float32))

    def _encode_batch(self, texts: Sequence[str]) -> np.ndarray:
        n = len(texts)
        c_rows: list[int] = []
        c_codes: list[int] = []
        w_rows: list[int] = []
        w_codes: list[int] = []
        for r, text in enumerate(texts):
            chars, words = self._features(text)
            c_codes += chars
            c_rows += [r] * len(chars)
            w_codes += words
            w_rows += [r] * len(words)
        out = self._block(c_rows, c_codes, n)
        if self.word_weight:
            out += self.word_weight * self._block(w_rows, w_codes, n)
        return _l2_rows(out)

    def encode(self, texts: Sequence[str], *, batch_size: int = 4096,
               progress: bool = False) -> np.ndarray:
        """Encode ``texts`` (see :class:`Encoder`)."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        starts: Any = range(0, len(texts), batch_size)
        if progress and len(texts) > batch_size:
            from tqdm import tqdm

            starts = tqdm(starts, desc="encoding", unit="batch", mininterval=1.0)
        for s in starts:
            out[s:s + batch_size] = self._encode_batch(texts[s:s + batch_size])
        return out


@dataclass(frozen=True)
class SentenceTransformerEncoder:
    """A sentence-transformers model (name on the Hugging Face hub, or local folder).

    Use :meth:`load`.  ``prefix`` is prepended to every text (some models want an instruction;
    label-to-label retrieval with BGE works best without one).
    """

    name: str
    model: Any = field(repr=False, compare=False)
    device: str = "cpu"
    prefix: str = ""
    threshold: float = 0.75

    @classmethod
    def load(cls, name_or_path: str, *, device: str | None = None, prefix: str = "",
             threshold: float = 0.75) -> "SentenceTransformerEncoder":
        """Load the model; ``device`` defaults to ``cuda`` when available, else ``cpu``.

        Raises ``ValueError`` naming the model when it cannot be loaded (no network and not
        cached, or not a sentence-transformers folder), and
        :class:`verifier.extras.MissingExtraError` without the ``learned`` extra.
        """
        from verifier.extras import require

        require("learned", f"the sentence-transformers encoder {name_or_path!r}",
                ("torch", "sentence_transformers"))
        import torch
        from sentence_transformers import SentenceTransformer

        if device is None:
            device = "cuda" if torch.cuda.is_available() else "cpu"
        try:
            model = SentenceTransformer(name_or_path, device=device)
        except Exception as e:  # noqa: BLE001 - many failure modes (network, files, config)
            raise ValueError(f"cannot load sentence-transformers model {name_or_path!r}: {e}"
                             ) from None
        model.eval()
        return cls(name_or_path, model, device, prefix, threshold)

    @property
    def dim(self) -> int:
        get = getattr(self.model, "get_embedding_dimension", None) or getattr(
            self.model, "get_sentence_embedding_dimension")
        d = get()
        if d is None:  # pragma: no cover - models without a pooling dimension
            d = int(self.model.encode(["x"]).shape[1])
        return int(d)

    @property
    def identity(self) -> str:
        pfx = f"&prefix={self.prefix}" if self.prefix else ""
        return f"sentence-transformers?model={self.name}&dim={self.dim}{pfx}"

    @property
    def default_threshold(self) -> float:
        return self.threshold

    def encode(self, texts: Sequence[str], *, batch_size: int = 256,
               progress: bool = False) -> np.ndarray:
        """Encode ``texts`` in batches (see :class:`Encoder`)."""
        if not len(texts):
            return np.zeros((0, self.dim), dtype=np.float32)
        inputs = [self.prefix + t for t in texts]
        vecs = self.model.encode(inputs, batch_size=min(batch_size, 1024),
                                 show_progress_bar=progress, convert_to_numpy=True,
                                 normalize_embeddings=True)
        vecs = np.ascontiguousarray(vecs, dtype=np.float32)
        empty = [i for i, t in enumerate(texts) if not t.strip()]
        vecs[empty] = 0.0
        return vecs


def encoder_from_identity(identity: str, *, device: str | None = None) -> Encoder:
    """Rebuild the encoder named by ``identity`` (as stored with a saved index).

    Raises ``ValueError`` for an identity this version cannot rebuild.
    """
    name, _, query = identity.partition("?")
    params = dict(kv.split("=", 1) for kv in query.split("&") if "=" in kv)
    if name.startswith("hashed-ngram/v"):
        if name != f"hashed-ngram/v{HashedNgramEncoder.VERSION}":
            raise ValueError(f"encoder {identity!r} was made by another version of "
                             f"HashedNgramEncoder (this one is v{HashedNgramEncoder.VERSION})")
        try:
            return HashedNgramEncoder(
                dim=int(params["dim"]), ngrams=tuple(int(x) for x in params["ngrams"].split(",")),
                word_weight=float(params["word_weight"]), key=params["key"])
        except (KeyError, ValueError) as e:
            raise ValueError(f"malformed encoder identity {identity!r}: {e}") from None
    if name == "sentence-transformers" and "model" in params:
        enc = SentenceTransformerEncoder.load(params["model"], device=device,
                                              prefix=params.get("prefix", ""))
        if enc.identity != identity:
            raise ValueError(f"model {params['model']!r} loaded as {enc.identity!r}, "
                             f"expected {identity!r}")
        return enc
    raise ValueError(f"unknown encoder identity {identity!r}")
