"""Identity of the pattern readings (question shapes) before and after a change.

``dump`` writes, for every question of the shared corpora, the sorted SimpleMRS strings that
``parsers.mrs.patterns.pattern_readings`` gives (one JSON line per question); ``compare``
reads two dumps and prints the questions whose readings differ.

    PYTHONPATH=/work/main python bench/shapes_identity.py dump /work/notes/shapes_before.jsonl.gz
    PYTHONPATH=$PWD python bench/shapes_identity.py dump /tmp/shapes_after.jsonl.gz
    python bench/shapes_identity.py compare /work/notes/shapes_before.jsonl.gz /tmp/shapes_after.jsonl.gz

Sources: ``mrs/questions.jsonl.gz``, ``mrs/ood_sample.jsonl.gz``, ``mrs/chemistry.jsonl.gz``,
the LC-QuAD 2.0 test and train questions (with their paraphrases) and the questions of the
LLM predictions.  A missing source is skipped with a note.
"""

from __future__ import annotations

import argparse
import gzip
import json
import logging
import sys
from pathlib import Path
from typing import Iterator

log = logging.getLogger("shapes_identity")

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
if not SHARED.is_dir():
    SHARED = Path("/work/shared/data")


def _lines(path: Path) -> Iterator[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line:
                yield json.loads(line)


def questions() -> list[str]:
    """The distinct question texts of every source, in a fixed order."""
    seen: dict[str, None] = {}
    sources = [SHARED / "mrs" / n for n in ("questions.jsonl.gz", "ood_sample.jsonl.gz", "chemistry.jsonl.gz")]
    sources += [SHARED / "lcquad2" / n for n in ("test.jsonl", "train_subset.jsonl")]
    sources += sorted((SHARED / "llm_predictions").glob("*.jsonl"))
    for path in sources:
        if not path.is_file():
            log.warning("missing source %s", path)
            continue
        for row in _lines(path):
            texts = [row.get("question")] + list(row.get("paraphrases") or [])
            for t in texts:
                if isinstance(t, str) and t.strip():
                    seen.setdefault(t, None)
    return list(seen)


def dump(out: Path) -> None:
    """Write the sorted pattern readings of every question to ``out`` (gzip JSON lines)."""
    from parsers.mrs.patterns import pattern_readings

    qs = questions()
    with_reading = 0
    with gzip.open(out, "wt", encoding="utf-8") as f:
        for q in qs:
            readings = sorted(pattern_readings(q))
            with_reading += bool(readings)
            f.write(json.dumps({"question": q, "readings": readings}, ensure_ascii=False) + "\n")
    print(f"questions={len(qs)} with_pattern_reading={with_reading} -> {out}")


def compare(before: Path, after: Path, show: int = 10) -> int:
    """Print the differences between two dumps; returns their number."""
    a = {r["question"]: r["readings"] for r in _lines(before)}
    b = {r["question"]: r["readings"] for r in _lines(after)}
    diffs = [q for q in a if a[q] != b.get(q)] + [q for q in b if q not in a]
    for q in diffs[:show]:
        print(f"DIFF {q!r}\n  before: {a.get(q)}\n  after:  {b.get(q)}")
    print(f"questions={len(a)} with_pattern_reading={sum(bool(v) for v in a.values())} "
          f"differences={len(diffs)}")
    return len(diffs)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("out", type=Path)
    c = sub.add_parser("compare")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO)
    if args.cmd == "dump":
        dump(args.out)
        return 0
    return 1 if compare(args.before, args.after) else 0


if __name__ == "__main__":
    sys.exit(main())
