"""What the loaders of the rule files share: a YAML loader that records where each record is
written, and the problems found in a file, each with its file and line.

The shape files (:mod:`parsers.mrs.shapes`) and the rewrite rule files (:mod:`verifier.rewrite`)
are read with :class:`LineLoader` and report :class:`FileIssue` records, all of them at once,
through a :class:`FileIssuesError`.

>>> import yaml
>>> yaml.load("- name: a\\n  doc: b\\n", Loader=LineLoader)[0]["__line__"]
1
>>> str(FileIssue("r.yaml", 3, "examples", "at least one example is required"))
'r.yaml:3: error[examples]: at least one example is required'
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

__all__ = ["LineLoader", "FileIssue", "FileIssuesError", "IssueCollector", "example_records", "line_of", "read_yaml"]


class LineLoader(yaml.SafeLoader):
    """A safe loader that records the line of every mapping under ``__line__``."""


def _mapping(loader: LineLoader, node: yaml.MappingNode, deep: bool = False) -> dict:
    d = yaml.SafeLoader.construct_mapping(loader, node, deep=deep)
    d["__line__"] = node.start_mark.line + 1
    return d


LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def line_of(d: Any) -> int:
    """The line a record read by :class:`LineLoader` is written at (0 when not a mapping)."""
    return d.get("__line__", 0) if isinstance(d, dict) else 0


@dataclass(frozen=True)
class FileIssue:
    """A problem found in a file: where, which check (``code``) and what."""

    file: str
    line: int
    code: str
    message: str
    severity: str = "error"

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.severity}[{self.code}]: {self.message}"


class FileIssuesError(ValueError):
    """Files have errors; ``issues`` lists them all (``what`` names the kind of file)."""

    what = "files"

    def __init__(self, issues: tuple[FileIssue, ...]) -> None:
        self.issues = tuple(issues)
        super().__init__(f"{len(self.issues)} problem(s) in {self.what}:\n"
                         + "\n".join(str(i) for i in self.issues))


class IssueCollector:
    """The issues a loader finds, in the order found."""

    def __init__(self) -> None:
        self.issues: list[FileIssue] = []

    def add(self, file: str, line: int, code: str, message: str, severity: str = "error") -> None:
        self.issues.append(FileIssue(file, line, code, message, severity))


def read_yaml(path: Path, col: IssueCollector) -> tuple[bool, Any]:
    """``(True, data)``: the YAML file ``path`` read with :class:`LineLoader`; ``(False,
    None)`` when it cannot be read or parsed (the issue, at the line of the error, added to
    ``col``)."""
    try:
        return True, yaml.load(path.read_text(encoding="utf-8"), Loader=LineLoader)
    except (OSError, yaml.YAMLError) as e:
        mark = getattr(e, "problem_mark", None)
        col.add(str(path), mark.line + 1 if mark else 0, "yaml", str(e).splitlines()[0])
        return False, None


def example_records(raw: Any, file: str, line: int, what: str, col: IssueCollector, needs: str) -> list[dict]:
    """The records of an ``examples`` list (of the rule or shape ``what``, at ``line`` of
    ``file``) that are mappings with a string ``needs``; a value that is not a list, and each
    record that is not such a mapping, is reported to ``col``."""
    if not isinstance(raw, list):
        col.add(file, line, "examples", f"{what}: examples must be a list")
        return []
    out = []
    for ex in raw:
        if not isinstance(ex, dict) or not isinstance(ex.get(needs), str):
            col.add(file, line_of(ex) or line, "examples", f"{what}: an example needs a {needs}")
            continue
        out.append(ex)
    return out
