"""Reading JSONL data files (one JSON object per line) with file and line in every error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

__all__ = ["DataError", "read_jsonl"]


class DataError(ValueError):
    """Malformed input data (with file and line)."""


def read_jsonl(path: str | Path) -> Iterator[tuple[int, dict]]:
    """``(line number, object)`` for every non-blank line of a JSONL file.

    Raises ``FileNotFoundError`` for a missing file and :class:`DataError` for a line that is
    not a JSON object.
    """
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"no such file: {p}")
    with p.open(encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                raise DataError(f"{p}:{n}: invalid JSON: {e}") from e
            if not isinstance(obj, dict):
                raise DataError(f"{p}:{n}: expected a JSON object")
            yield n, obj
