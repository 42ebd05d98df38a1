"""Identity of the rewrite rules (corrections and views of a reading) before and after a change.

``dump`` writes, for every reading of the shared MRS corpus (``mrs/questions.jsonl.gz``,
``ood_sample.jsonl.gz``, ``chemistry.jsonl.gz``), what each correction makes of it in turn
(the formula, answers and note after each correction that changed it) and what each view
makes of it (the view, and the view once corrected), one JSON line per reading; it works
with the deductive core before rewrite rules were data (``verifier.deductive.corrections.
CORRECTIONS``, ``verifier.deductive.views.VIEWS``) and after (``verifier.deductive.rules``).
``compare`` reads two dumps and prints the first differences, how many readings differ in
what the proofs see (the reading after all its corrections, its views corrected), and
``rules=<n> readings=<n> fired=<n> differences=<n>`` (``fired``: corrections and views that
changed a reading, in the second dump; ``differences``: readings on which any rule's step
differs).

    git archive main | tar -x -C /tmp/main-snapshot
    PYTHONPATH=/tmp/main-snapshot python bench/rewrite_identity.py dump /tmp/rewrite_before.jsonl.gz
    PYTHONPATH=$PWD python bench/rewrite_identity.py dump /tmp/rewrite_after.jsonl.gz
    python bench/rewrite_identity.py compare /tmp/rewrite_before.jsonl.gz /tmp/rewrite_after.jsonl.gz
"""

from __future__ import annotations

import argparse
import gzip
import json
import logging
import sys
from pathlib import Path
from typing import Iterator

log = logging.getLogger("rewrite_identity")

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
if not SHARED.is_dir():
    SHARED = Path("/work/shared/data")
CORPORA = ("questions.jsonl.gz", "ood_sample.jsonl.gz", "chemistry.jsonl.gz")


def _lines(path: Path) -> Iterator[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def _rules():
    """The corrections and the views (each with ``name``, ``make``, ``applies``) of the code on
    the path."""
    try:
        from verifier.deductive.rules import CORRECTIONS, VIEWS
    except ImportError:  # the deductive core before the rules were data
        from verifier.deductive.corrections import CORRECTIONS
        from verifier.deductive.views import VIEWS
    return CORRECTIONS, VIEWS


def _key(r) -> list | None:
    if r is None:
        return None
    return [str(r.formula), [v.name for v in r.answer_vars], getattr(r, "note", "")]


def dump(out: Path, limit: int | None, only: set[str] | None = None) -> None:
    from parsers.mrs import translate_readings
    from parsers.mrs.simplemrs import coerce_mrs
    from verifier.axioms import default_pack_dirs, load_pack
    from verifier.deductive.corrections import CorrectionInputs
    from verifier.lexical import LabelIndex

    corrections, views = _rules()
    pack, labels = load_pack(default_pack_dirs()), LabelIndex()
    n = 0
    with gzip.open(out, "wt", encoding="utf-8") as f:
        for name in CORPORA:
            path = SHARED / "mrs" / name
            if not path.is_file():
                log.warning("missing corpus %s", path)
                continue
            for row in _lines(path):
                if limit is not None and n >= limit:
                    break
                q = row.get("question") or ""
                if only is not None and q not in only:
                    continue
                parsed = []
                for s in row.get("readings") or []:
                    try:
                        parsed.append(coerce_mrs(s))
                    except Exception:
                        parsed.append(s)
                try:
                    readings = [r for r in translate_readings(parsed) if getattr(r, "ok", False)]
                except Exception as e:
                    log.warning("no translation of %r: %s", q[:60], e)
                    continue
                inputs = CorrectionInputs(q, pack, labels)
                for r in readings:
                    n += 1
                    steps, cur = [], r
                    for c in corrections:
                        try:
                            nxt = c.apply(cur, inputs)
                        except Exception as e:
                            steps.append([c.name, f"raised {type(e).__name__}"])
                            continue
                        changed = nxt is not cur and _key(nxt) != _key(cur)
                        steps.append([c.name, _key(nxt) if changed else None])
                        cur = nxt
                    vs = []
                    for v in views:
                        if not v.applies(q):
                            vs.append([v.name, "-", "-"])  # not tried for this question
                            continue
                        try:
                            view = v.make(r)
                        except Exception as e:
                            vs.append([v.name, f"raised {type(e).__name__}", None])
                            continue
                        corrected = view
                        if view is not None:
                            for c in corrections:
                                corrected = c.apply(corrected, inputs)
                        vs.append([v.name, _key(view), _key(corrected)])
                    start = _key(r)
                    f.write(json.dumps({"q": q, "i": r.reading_index, "steps": steps, "views": vs,
                                        "start": start},
                                       ensure_ascii=False) + "\n")
    print(f"readings={n} -> {out}")


def _final(d: dict) -> tuple:
    """What the proofs see of a dumped reading: the reading after its last correction that
    changed it (as translated when none did), and each view
    with the view corrected."""
    changed = [s[1] for s in d["steps"] if s[1] is not None]
    return (d["q"], d["i"], json.dumps(changed[-1] if changed else d.get("start")),
            json.dumps([v for v in d["views"] if v[1] != "-"]))


def compare(before: Path, after: Path, show: int) -> int:
    a, b = list(_lines(before)), list(_lines(after))
    names: set[str] = set()
    fired = differences = final_differences = 0
    shown = 0
    for x, y in zip(a, b):
        names |= {s[0] for s in y["steps"]} | {v[0] for v in y["views"]}
        for d in (x, y):  # views not tried for the question (marked "-", or left out by older dumps)
            d["views"] = [v for v in d["views"] if v[1] != "-"]
        fired += sum(1 for s in y["steps"] if s[1] is not None) + sum(1 for v in y["views"] if v[1] not in (None, "-"))
        if _final(x) != _final(y):
            final_differences += 1
        if (x["q"], x["i"], x["steps"], x["views"]) != (y["q"], y["i"], y["steps"], y["views"]):
            differences += 1
            if shown < show:
                shown += 1
                print(f"DIFF {y['q']!r} reading {y['i']}")
                for s1, s2 in zip(x["steps"] + x["views"], y["steps"] + y["views"]):
                    if s1 != s2:
                        print(f"  before: {s1}\n  after:  {s2}")
    differences += abs(len(a) - len(b))
    print(f"corrected readings and views that differ (what the proofs see): {final_differences}")
    print(f"rules={len(names)} readings={len(b)} fired={fired} differences={differences}")
    return 1 if differences else 0


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(message)s")
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("out", type=Path)
    d.add_argument("--limit", type=int, help="at most this many readings")
    d.add_argument("--questions", type=Path, help="only the questions of this file (one a line)")
    c = sub.add_parser("compare")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    c.add_argument("--show", type=int, default=10, help="differences printed")
    args = p.parse_args(argv)
    if args.cmd == "dump":
        only = set(args.questions.read_text(encoding="utf-8").splitlines()) if args.questions else None
        dump(args.out, args.limit, only)
        return 0
    return compare(args.before, args.after, args.show)


if __name__ == "__main__":
    sys.exit(main())
