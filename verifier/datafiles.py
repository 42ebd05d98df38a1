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

import yaml

__all__ = ["LineLoader", "FileIssue", "FileIssuesError"]


class LineLoader(yaml.SafeLoader):
    """A safe loader that records the line of every mapping under ``__line__``."""


def _mapping(loader: LineLoader, node: yaml.MappingNode, deep: bool = False) -> dict:
    d = yaml.SafeLoader.construct_mapping(loader, node, deep=deep)
    d["__line__"] = node.start_mark.line + 1
    return d


LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


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
