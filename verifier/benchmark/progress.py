"""Progress bars that stay quiet in logs: ``tqdm`` refreshing at most every 30 s when
standard error is not a terminal."""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["progress_bar"]


def progress_bar(total: int, desc: str, enabled: bool = True) -> Any:
    """A ``tqdm`` bar over ``total`` items (disabled when ``enabled`` is false)."""
    from tqdm import tqdm

    tty = hasattr(sys.stderr, "isatty") and sys.stderr.isatty()
    return tqdm(total=total, desc=desc, unit="item", disable=not enabled, smoothing=0.05,
                mininterval=0.2 if tty else 30.0)
