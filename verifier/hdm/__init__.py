"""HDM: hallucination detection over a seq2seq model (Bacciu et al., background doc section 2).

* :mod:`~verifier.hdm.seq2seq`: build / load / save a T5 or BART model and tokenizer;
* :mod:`~verifier.hdm.train_generator`: train a small generator (question -> PGMR
  intermediate query) from a config, or fine-tune a checkpoint;
* :mod:`~verifier.hdm.generation`: batched beam search with confidence scores;
* :mod:`~verifier.hdm.features`: :class:`Scorer` -> :class:`FeatureTable` (confidence score by
  teacher forcing, MC-dropout variance, pooled encoder activations per layer);
* :mod:`~verifier.hdm.detector`: :class:`HDMDetector` (attention + feed-forward classifier);
* :mod:`~verifier.hdm.report`: :func:`hdm_signal` -> :class:`HDMReport` for the verifier.

See ``docs/hdm.md``.  Needs the ``learned`` extra (torch, transformers, tokenizers): without
it importing this package raises :class:`verifier.extras.MissingExtraError` naming the extra.
"""

from verifier.extras import require

require("learned", "HDM (the learned hallucination detector)", ("torch", "transformers", "tokenizers"))

from verifier.hdm.data import Pair, read_pairs, read_questions
from verifier.hdm.detector import FEATURE_SETS, DetectorConfig, DetectorFileError, HDMDetector
from verifier.hdm.device import pick_device, seed_everything, set_cpu_threads
from verifier.hdm.features import FeatureRecord, FeatureTable, Scorer
from verifier.hdm.generation import Prediction, generate
from verifier.hdm.metrics import best_threshold, macro_f1
from verifier.hdm.seq2seq import (GeneratorConfig, ModelNotFoundError, Seq2Seq, build_seq2seq,
                                  load_seq2seq, save_seq2seq)
from verifier.hdm.report import HDMReport, hdm_signal, load_hdm, to_generator_form
from verifier.hdm.tokenizer import build_tokenizer
from verifier.hdm.train_generator import TrainConfig, TrainResult, exact_match, train_generator

__all__ = [
    "Pair", "read_pairs", "read_questions", "FEATURE_SETS", "DetectorConfig",
    "DetectorFileError", "HDMDetector", "pick_device", "seed_everything", "set_cpu_threads",
    "FeatureRecord", "FeatureTable", "Scorer", "Prediction", "generate", "best_threshold",
    "macro_f1", "GeneratorConfig", "ModelNotFoundError", "Seq2Seq", "build_seq2seq",
    "load_seq2seq", "save_seq2seq", "HDMReport", "hdm_signal", "load_hdm", "to_generator_form", "build_tokenizer",
    "TrainConfig", "TrainResult", "exact_match", "train_generator",
]
