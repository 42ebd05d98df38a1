"""Rebuild axioms/examples/{mrs.jsonl.gz,kg-labels.tsv}: the MRS readings and KG labels of the
examples embedded in the shipped axiom packs, extracted from ../shared (so that
`verifier axioms test` runs without ../shared and without ACE).

    python bench/make_pack_example_extracts.py
"""

import gzip
import io
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared" / "data"

from verifier.axioms import load_pack  # noqa: E402

# the shipped pack and the optional packs of axioms/packs (their examples run with them on)
pack = load_pack([ROOT / "axioms", *sorted(p for p in (ROOT / "axioms" / "packs").glob("*") if p.is_dir())])
questions = {ex.question for _, ex in pack.examples}
ids = {m for _, ex in pack.examples for m in re.findall(r"\b([PQ]\d+)\b", ex.sparql)}
out = ROOT / "axioms" / "examples"
out.mkdir(exist_ok=True)
found = {}
for name in ("questions", "chemistry"):
    with gzip.open(SHARED / "mrs" / f"{name}.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            if d["question"] in questions and d["readings"]:
                found.setdefault(d["question"], d)
# mtime 0 and no file name in the gzip header: the same examples give the same bytes
with open(out / "mrs.jsonl.gz", "wb") as raw, \
        gzip.GzipFile(filename="", fileobj=raw, mode="wb", mtime=0) as gz, \
        io.TextIOWrapper(gz, encoding="utf-8") as f:
    for q in sorted(found):
        f.write(json.dumps(found[q], ensure_ascii=False) + "\n")
rows = [line for line in (SHARED / "wikidata" / "labels.tsv").open(encoding="utf-8")
        if line.startswith("id\t") or line.split("\t", 1)[0] in ids]
(out / "kg-labels.tsv").write_text("".join(rows), encoding="utf-8")
print(f"{len(found)} of {len(questions)} example questions have MRS; {len(rows) - 1} labels; "
      f"missing MRS: {sorted(questions - set(found))}")
