"""sparql-verifier: does a SPARQL query mean what an English question asks?

>>> from verifier import verify
>>> verdict = verify("What is the mass of benzene?", "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v }")
>>> verdict.decision, verdict.score, verdict.explanation      # doctest: +SKIP

Submodules: ``logic`` (the IR), ``notation`` (its text form), ``query``, ``prover`` (Z3),
``axioms`` (templates and lexicons), ``grounding``, ``deductive`` (with ``intent``,
``qualifiers`` and ``filters``), ``consensus`` (candidate sets), ``api``; front ends live in the ``parsers`` package.
"""

__version__ = "0.1.0"
__all__ = ["verify", "verify_candidates", "Verdict", "Verifier", "__version__"]


def __getattr__(name: str):
    # imported lazily so that `verifier --help` and light submodules stay fast
    if name in ("verify", "verify_candidates", "Verdict", "Verifier"):
        from verifier import api

        return getattr(api, name)
    raise AttributeError(f"module 'verifier' has no attribute {name!r}")
