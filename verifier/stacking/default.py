"""The stacking model shipped with the package, and which model a configuration asks for.

``[stacking] model`` names a model file (``verifier train stack``); without it (and without
``$VERIFIER_STACKING``, read by :func:`verifier.config.load_config` when no file sets the
model) the shipped default model is used: ``verifier/_data/stacking/default-model.json``,
trained by ``bench/train_default_stack.py`` on shared training material only, on the
weight-free signals (deductive, PGMR with the weight-free encoder, query shape, consensus;
see ``docs/stacking.md``).  ``model = "none"`` (or ``off`` / ``false``) switches stacking off:
``verify()`` then returns the deductive decision and its fixed scores.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from verifier.config import OFF_VALUES, env_default

__all__ = ["DEFAULT_MODEL_PATH", "DEFAULT_NAME", "model_setting", "load_default_model"]

#: Where the shipped model lives (package data).
DEFAULT_MODEL_PATH = Path(__file__).resolve().parent.parent / "_data" / "stacking" / "default-model.json"
#: The value of ``[stacking] model`` that names the shipped model explicitly.
DEFAULT_NAME = "default"


def model_setting(cfg: Any) -> Path | None:
    """The model file the configuration asks for: ``None`` when stacking is switched off
    (``none``), the shipped model when nothing (or ``default``) is set and it exists.  A
    configuration without ``[stacking] model`` (e.g. ``Config({})`` built in code) reads
    ``$VERIFIER_STACKING``."""
    v = cfg.get("stacking", "model")
    if v is None:  # a configuration built in code: the variable still gives the default
        v = env_default("stacking", "model")
    if v is None or (isinstance(v, str) and v.strip().casefold() == DEFAULT_NAME):
        return DEFAULT_MODEL_PATH if DEFAULT_MODEL_PATH.is_file() else None
    if isinstance(v, bool) and not v:
        return None
    if isinstance(v, str) and (not v.strip() or v.strip().casefold() in OFF_VALUES):
        return None
    return Path(str(v))


def load_default_model() -> Any:
    """The shipped :class:`~verifier.stacking.model.StackingModel` (``None`` when the package
    was built without it)."""
    from verifier.stacking.model import StackingModel

    return StackingModel.load(DEFAULT_MODEL_PATH) if DEFAULT_MODEL_PATH.is_file() else None
