"""Rebuild the extracts of this example from ../shared (not needed to run the example).

* mrs.jsonl.gz: the MRS readings of the query log's questions, from
  shared/data/mrs/chemistry.jsonl.gz; "Give me the benzene's toxicity." has no reading there
  and gets the ERG-style MRS written by hand for tests/fixtures/mrs/golden.yaml.
* kg-labels.tsv: the rows of shared/data/wikidata/labels.tsv for the identifiers of the log.

    python examples/chemistry/make_extracts.py
"""

import gzip
import json
import re
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SHARED = REPO.parent / "shared" / "data"

log = [json.loads(line) for line in (HERE / "querylog.jsonl").open(encoding="utf-8")]
questions = {d["question"] for d in log if d["question"]}
ids = {m for d in log for m in re.findall(r"\b([PQ]\d+)\b", d["sparql"])} | {"P31", "P279", "Q5"}

golden = {g["question"]: g["mrs"] for g in yaml.safe_load((REPO / "tests/fixtures/mrs/golden.yaml").read_text())}
out = []
with gzip.open(SHARED / "mrs" / "chemistry.jsonl.gz", "rt", encoding="utf-8") as f:
    for line in f:
        d = json.loads(line)
        if d["question"] in questions:
            if not d["readings"] and d["question"] in golden:
                d = {**d, "readings": [golden[d["question"]]], "roots": "hand-written (ERG style)"}
            out.append(d)
with gzip.open(HERE / "mrs.jsonl.gz", "wt", encoding="utf-8") as f:
    for d in out:
        f.write(json.dumps(d, ensure_ascii=False) + "\n")

rows = [line for line in (SHARED / "wikidata" / "labels.tsv").open(encoding="utf-8")
        if line.split("\t", 1)[0] in ids or line.startswith("id\t")]
(HERE / "kg-labels.tsv").write_text("".join(rows), encoding="utf-8")
print(f"{len(out)} questions with MRS, {len(rows) - 1} labels")
