"""PGMR grounding: a memory of KG symbols with an embedding index, the ``starturi … enduri``
intermediate form, grounding it back to SPARQL, and the grounding signal for verification.

Public API::

    Memory.from_labels_tsv(path) / Memory.from_rdf(path) / Memory.build(symbols, encoder)
    Memory.save(dir) / Memory.load(dir)
    to_intermediate(sparql, memory) -> str
    ground(intermediate, memory, k=5, threshold=None) -> GroundingResult
    grounding_signal(question, sparql, memory, priors=None) -> GroundingReport
    GroundingReport.features() -> dict[str, float]      (for the stacked verifier)
    estimate_priors(training_pairs, memory) -> SupportPriors   (statistics + fitted model)

See ``docs/pgmr.md``.
"""

from verifier.pgmr.calibrate import SupportPriors
from verifier.pgmr.encoders import (Encoder, HashedNgramEncoder, SentenceTransformerEncoder,
                                    encoder_from_identity)
from verifier.pgmr.estimate import estimate_priors
from verifier.pgmr.index import ExactIndex, IndexSpec, VectorIndex, faiss_available
from verifier.pgmr.intermediate import (GroundingResult, IntermediateForm, IntermediateSyntaxError,
                                        LabelGrounding, ground, ground_many, intermediate_form,
                                        markers, to_intermediate, uri_set)
from verifier.pgmr.loaders import LoadReport, read_labels_tsv, read_rdf
from verifier.pgmr.memory import Candidate, Memory
from verifier.pgmr.metrics import RoundTripMetrics, roc_auc, round_trip_metrics
from verifier.pgmr.signal import (GroundingReport, IdentifierSupport, Unexplained,
                                  grounding_decision, grounding_signal, grounding_signals)
from verifier.pgmr.symbols import Kind, Symbol, SymbolTable

__all__ = [
    "Encoder", "HashedNgramEncoder", "SentenceTransformerEncoder", "encoder_from_identity",
    "IndexSpec", "VectorIndex", "ExactIndex", "faiss_available", "Memory", "Candidate", "Kind", "Symbol", "SymbolTable",
    "LoadReport", "read_labels_tsv", "read_rdf",
    "to_intermediate", "intermediate_form", "IntermediateForm", "IntermediateSyntaxError",
    "markers", "ground", "ground_many", "GroundingResult", "LabelGrounding", "uri_set",
    "grounding_signal", "grounding_signals", "grounding_decision", "GroundingReport", "IdentifierSupport", "Unexplained",
    "SupportPriors", "estimate_priors", "RoundTripMetrics", "round_trip_metrics", "roc_auc",
]
