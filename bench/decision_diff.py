"""Decision diff between two per-item outputs of a bench (before / after a change).

Reads two JSONL files written by a bench's ``--out`` (``bench/deductive_lcquad.py``,
``bench/deductive_datasets.py``, ...) and pairs their records by a key (``id`` and
``category`` by default, ``sparql`` added when present, so that several queries of one item
stay apart).  Prints the decision changes by kind (``accept->reject`` ...), the changed
items with their reasons (``--show N``), and a last line
``items=<n> identical=<n> changed=<n> only_before=<n> only_after=<n>``.

    python bench/decision_diff.py BEFORE.jsonl AFTER.jsonl [--key id,category] [--show 20]

Exit code 0 when every decision is identical, 1 when some changed, 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path


def load(path: Path, key: tuple[str, ...]) -> dict[tuple, dict]:
    """Records of ``path`` by key; a repeated key keeps the first record."""
    out: dict[tuple, dict] = {}
    with path.open(encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                d = json.loads(line)
            except json.JSONDecodeError as e:
                raise ValueError(f"{path}:{n}: not JSON ({e})") from None
            out.setdefault(tuple(str(d.get(k, "")) for k in key), d)
    return out


def diff(before: dict[tuple, dict], after: dict[tuple, dict]) -> tuple[list[tuple], Counter]:
    """Keys whose decision differs, and the changes counted by ``old->new``."""
    changed = [k for k in before if k in after
               and before[k].get("decision") != after[k].get("decision")]
    kinds = Counter(f"{before[k].get('decision')}->{after[k].get('decision')}" for k in changed)
    return changed, kinds


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before", type=Path)
    ap.add_argument("after", type=Path)
    ap.add_argument("--key", default="id,category,sparql",
                    help="comma-separated fields that identify a record (missing fields "
                         "count as empty; default %(default)s)")
    ap.add_argument("--show", type=int, default=20, help="changed records to print")
    args = ap.parse_args(argv)
    key = tuple(k.strip() for k in args.key.split(",") if k.strip())
    try:
        before, after = load(args.before, key), load(args.after, key)
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    changed, kinds = diff(before, after)
    for kind, n in kinds.most_common():
        print(f"{n:6}  {kind}")
    for k in changed[: args.show]:
        b, a = before[k], after[k]
        print(f"- {' | '.join(k)[:120]}\n    before: {b.get('decision')} {str(b.get('reason', ''))[:100]}"
              f"\n    after:  {a.get('decision')} {str(a.get('reason', ''))[:100]}")
    common = sum(1 for k in before if k in after)
    print(f"items={common} identical={common - len(changed)} changed={len(changed)} "
          f"only_before={len(before.keys() - after.keys())} only_after={len(after.keys() - before.keys())}")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
