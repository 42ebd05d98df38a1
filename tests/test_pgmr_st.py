"""The sentence-transformers encoder with a tiny model built from a config (no download)."""

from __future__ import annotations

import os

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

import numpy as np  # noqa: E402
import pytest  # noqa: E402

st = pytest.importorskip("sentence_transformers")
transformers = pytest.importorskip("transformers")
torch = pytest.importorskip("torch")

from verifier.pgmr import (Kind, Memory, SentenceTransformerEncoder, Symbol,  # noqa: E402
                           encoder_from_identity, ground)

try:  # sentence-transformers >= 6
    from sentence_transformers.sentence_transformer.modules import Pooling, Transformer
except ImportError:  # older releases
    from sentence_transformers.models import Pooling, Transformer


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    """A 1-layer BERT with a character-level WordPiece vocabulary, wrapped in Transformer +
    mean Pooling and saved as a sentence-transformers folder."""
    root = tmp_path_factory.mktemp("tiny")
    chars = "abcdefghijklmnopqrstuvwxyz0123456789"
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *chars, *(f"##{c}" for c in chars)]
    hf = root / "hf"
    hf.mkdir()
    (hf / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    tok = transformers.BertTokenizerFast(vocab_file=str(hf / "vocab.txt"), do_lower_case=True)
    tok.save_pretrained(str(hf))
    torch.manual_seed(0)
    cfg = transformers.BertConfig(vocab_size=len(vocab), hidden_size=32, num_hidden_layers=1,
                                  num_attention_heads=2, intermediate_size=64,
                                  max_position_embeddings=64)
    transformers.BertModel(cfg).save_pretrained(str(hf))
    word = Transformer(str(hf), max_seq_length=32)
    dim = (word.get_embedding_dimension() if hasattr(word, "get_embedding_dimension")
           else word.get_word_embedding_dimension())
    pool = Pooling(dim, pooling_mode="mean")
    out = root / "st"
    st.SentenceTransformer(modules=[word, pool], device="cpu").save(str(out))
    return out


def test_encoder_shapes_norms_identity(tiny_model):
    enc = SentenceTransformerEncoder.load(str(tiny_model), device="cpu")
    assert enc.dim == 32
    v = enc.encode(["benzene", "Benzene", "mass", ""], batch_size=2)
    assert v.shape == (4, 32) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v[:3], axis=1), 1.0, atol=1e-5)
    assert not v[3].any()
    assert float(v[0] @ v[1]) == pytest.approx(1.0, abs=1e-5)     # lower-casing tokenizer
    assert enc.identity == f"sentence-transformers?model={tiny_model}&dim=32"
    again = encoder_from_identity(enc.identity, device="cpu")
    assert np.allclose(again.encode(["mass"]), enc.encode(["mass"]), atol=1e-6)


def test_memory_with_st_encoder_grounds_and_checks_identity(tiny_model, tmp_path):
    enc = SentenceTransformerEncoder.load(str(tiny_model), device="cpu")
    mem = Memory.build([Symbol("P2067", "mass", Kind.PROPERTY),
                        Symbol("P31", "instance of", Kind.PROPERTY),
                        Symbol("Q2270", "benzene", Kind.ITEM),
                        Symbol("Q5", "human", Kind.ITEM)], enc)
    res = ground("SELECT ?v { wd:starturi benzene enduri wdt:starturi mass enduri ?v }", mem,
                 threshold=0.0)
    assert res.sparql == "SELECT ?v { wd:Q2270 wdt:P2067 ?v }"
    mem.save(tmp_path / "idx")
    loaded = Memory.load(tmp_path / "idx")                   # encoder rebuilt from identity
    assert loaded.encoder.identity == enc.identity
    from verifier.pgmr import HashedNgramEncoder

    with pytest.raises(ValueError, match="sentence-transformers"):
        Memory.load(tmp_path / "idx", encoder=HashedNgramEncoder(dim=32))


def test_unknown_model_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="cannot load sentence-transformers model"):
        SentenceTransformerEncoder.load(str(tmp_path / "no-such-model"))
