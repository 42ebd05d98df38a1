"""A subword tokenizer built from the training data with the ``tokenizers`` library.

Byte-level BPE (every input byte is representable, so there is no unknown token in practice),
shared between questions and target queries, wrapped as a ``transformers`` fast tokenizer
that appends ``</s>`` to every encoded text (T5 convention: ``<pad>`` = 0 is also the decoder
start token, ``</s>`` = 1, ``<unk>`` = 2).
"""

from __future__ import annotations

from typing import Iterable

__all__ = ["build_tokenizer", "SPECIAL_TOKENS"]

SPECIAL_TOKENS: tuple[str, ...] = ("<pad>", "</s>", "<unk>")


def build_tokenizer(texts: Iterable[str], vocab_size: int = 4000, min_frequency: int = 2,
                    lowercase: bool = False):
    """Train a byte-level BPE tokenizer on ``texts``.

    Args:
        texts: training texts (questions and target queries).
        vocab_size: target vocabulary size, special tokens and the 256 byte symbols included.
        min_frequency: minimum pair frequency for a merge.
        lowercase: lower-case every text before tokenizing (part of the saved tokenizer, so
            a model trained with it reads any casing and writes lower case; copying entity
            names from the question to the labels of the intermediate form then needs no
            case mapping, and PGMR grounding is case-insensitive anyway).

    Returns:
        A ``transformers`` fast tokenizer (``save_pretrained`` / ``AutoTokenizer`` compatible).
    """
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers
    from transformers import PreTrainedTokenizerFast

    if vocab_size < len(SPECIAL_TOKENS) + 256:
        raise ValueError(f"vocab_size {vocab_size} is too small for a byte-level BPE")
    tok = Tokenizer(models.BPE(unk_token="<unk>"))
    tok.normalizer = (normalizers.Sequence([normalizers.NFKC(), normalizers.Lowercase()])
                      if lowercase else normalizers.NFKC())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=True)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        min_frequency=min_frequency,
        special_tokens=list(SPECIAL_TOKENS),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator((t for t in texts if t), trainer)
    eos_id = tok.token_to_id("</s>")
    tok.post_processor = processors.TemplateProcessing(
        single="$A </s>", pair="$A </s> $B </s>", special_tokens=[("</s>", eos_id)])
    return PreTrainedTokenizerFast(
        tokenizer_object=tok, pad_token="<pad>", eos_token="</s>", unk_token="<unk>",
        clean_up_tokenization_spaces=False)
