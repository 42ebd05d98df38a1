"""Device selection, mixed precision and seeding for the HDM models.

CUDA is used automatically when available (with bf16 autocast when the GPU supports it,
fp16 otherwise); everything also runs on CPU in float32.
"""

from __future__ import annotations

import contextlib
import logging
import os
import random
from typing import ContextManager

import numpy as np
import torch

__all__ = ["pick_device", "autocast", "amp_dtype", "seed_everything", "set_cpu_threads"]

log = logging.getLogger(__name__)


def pick_device(prefer: str | None = None) -> torch.device:
    """The device to run on: ``prefer`` if given (``"cpu"``, ``"cuda"``, ``"cuda:1"``),
    else CUDA when available, else CPU.

    Raises:
        ValueError: ``prefer`` names CUDA but no CUDA device is available.
    """
    if prefer:
        dev = torch.device(prefer)
        if dev.type == "cuda" and not torch.cuda.is_available():
            raise ValueError(f"device {prefer!r} requested but CUDA is not available")
        return dev
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def amp_dtype(device: torch.device) -> torch.dtype | None:
    """The autocast dtype for ``device``: bf16 on GPUs that support it, fp16 on other GPUs,
    ``None`` (plain float32) on CPU."""
    if device.type != "cuda":
        return None
    return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16


def autocast(device: torch.device) -> ContextManager[object]:
    """A mixed-precision context on CUDA, a no-op context on CPU."""
    dtype = amp_dtype(device)
    if dtype is None:
        return contextlib.nullcontext()
    return torch.autocast(device_type=device.type, dtype=dtype)


def seed_everything(seed: int) -> None:
    """Seed Python, NumPy and torch (CPU and CUDA) random number generators."""
    random.seed(seed)
    np.random.seed(seed % (2**32))
    torch.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed_all(seed)


def set_cpu_threads(n: int | None = None) -> int:
    """Set the number of intra-op CPU threads (``n``, else ``$HDM_THREADS``, else 1) and
    return it.  One thread by default: on a shared machine several OpenMP threads spin
    against other processes and small models get many times slower, not faster."""
    if n is None:
        env = os.environ.get("HDM_THREADS")
        n = int(env) if env else 1
    n = max(1, int(n))
    torch.set_num_threads(n)
    log.debug("torch threads: %d", n)
    return n
