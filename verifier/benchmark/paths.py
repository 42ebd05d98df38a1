"""Default locations: the shared data folder and the benchmark output folder."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["REPO_ROOT", "default_data_dir", "default_out_dir", "DATA_ENV"]

REPO_ROOT = Path(__file__).resolve().parents[2]
#: environment variable naming the shared data folder
DATA_ENV = "VERIFIER_BENCH_DATA"


def default_data_dir() -> Path:
    """``$VERIFIER_BENCH_DATA`` or ``<repo>/../shared/data``."""
    env = os.environ.get(DATA_ENV)
    return Path(env) if env else REPO_ROOT.parent / "shared" / "data"


def default_out_dir() -> Path:
    """``<repo>/bench/out/datasets`` (git-ignored)."""
    return REPO_ROOT / "bench" / "out" / "datasets"
