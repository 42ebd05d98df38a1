"""Optional parts of the toolkit and the extras that install them.

The core (``pip install sparql-verifier``) is the deductive path, PGMR with the weight-free
encoder, stacking, audits and reports; it never imports torch.  The learned signals (the HDM
generator and detector, sentence-transformers encoders) need the ``learned`` extra, FAISS's
approximate indexes the ``faiss`` extra, RDF knowledge graphs on disk the ``kg`` extra and
the Ray audit engine the ``distributed`` extra.

:func:`require` imports the modules of an extra and raises :class:`MissingExtraError` (an
``ImportError``) with one sentence naming the extra to install when one is missing; the
command line reports it as a usage error (exit code 2).
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

__all__ = ["Extra", "EXTRAS", "MissingExtraError", "require", "missing_modules", "install_hint",
           "configured_needs", "require_configured"]


@dataclass(frozen=True, slots=True)
class Extra:
    """An optional dependency group of ``pyproject.toml``: its name, the modules it
    provides and what it is for (one phrase)."""

    name: str
    modules: tuple[str, ...]
    purpose: str


EXTRAS: Mapping[str, Extra] = MappingProxyType({e.name: e for e in (
    Extra("learned", ("torch", "transformers", "tokenizers", "sentence_transformers"),
          "the HDM generator and detector and sentence-transformers encoders"),
    Extra("faiss", ("faiss",), "approximate (HNSW / IVF) PGMR indexes over large memories"),
    Extra("kg", ("pyoxigraph",), "fast loading and querying of RDF knowledge graphs"),
    Extra("distributed", ("ray",), "the Ray audit engine"),
)})


class MissingExtraError(ImportError):
    """A feature was asked for whose extra is not installed; the message names the
    command that installs it."""


def install_hint(extra: str) -> str:
    """The command that installs ``extra``."""
    return f"pip install 'sparql-verifier[{extra}]'"


def missing_modules(extra: str, modules: tuple[str, ...] | None = None) -> list[str]:
    """The modules of ``extra`` (or the given subset) that cannot be imported."""
    out = []
    for m in modules if modules is not None else EXTRAS[extra].modules:
        try:
            importlib.import_module(m)
        except ImportError:
            out.append(m)
    return out


def require(extra: str, what: str, modules: tuple[str, ...] | None = None) -> None:
    """Import the modules of ``extra`` (or the given subset), or raise
    :class:`MissingExtraError` saying that ``what`` needs the extra and how to install it."""
    missing = missing_modules(extra, modules)
    if missing:
        raise MissingExtraError(
            f"{what} needs the '{extra}' extra ({EXTRAS[extra].purpose}), which is not "
            f"installed (missing: {', '.join(missing)}): {install_hint(extra)}")


_HDM_MODULES = ("torch", "transformers", "tokenizers")


def configured_needs(cfg: Any) -> list[tuple[str, str, tuple[str, ...]]]:
    """``(extra, what, modules)`` for each part of the configuration ``cfg`` (a
    :class:`verifier.config.Config`) that needs an extra: the HDM detector of a stacking
    model (``[hdm] model``) and a PGMR memory built with a sentence-transformers encoder."""
    from verifier.stacking.default import model_setting

    stacked = model_setting(cfg) is not None
    out = []
    if stacked and cfg.get("hdm", "model"):
        out.append(("learned", "[hdm] model (the HDM detector)", _HDM_MODULES))
    memory = cfg.get("pgmr", "memory")
    meta = Path(str(memory)) / "meta.json" if memory else None
    if stacked and meta is not None and meta.is_file():
        try:
            encoder = str(json.loads(meta.read_text(encoding="utf-8")).get("encoder", ""))
        except (OSError, ValueError):
            encoder = ""
        if encoder.startswith("sentence-transformers"):
            out.append(("learned", f"[pgmr] memory {memory} (a sentence-transformers encoder)",
                        ("torch", "sentence_transformers")))
    return out


def require_configured(cfg: Any) -> None:
    """Raise :class:`MissingExtraError` for the first configured part whose extra is not
    installed (:func:`configured_needs`); a command calls this before starting work."""
    for extra, what, modules in configured_needs(cfg):
        require(extra, what, modules)
