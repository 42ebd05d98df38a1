"""Label store bench (issue 60, part 4): import a synthetic Wikidata dump, fetch ids from a
local stand-in of the Wikidata API.

1. Writes ``<out>/dump.json.gz``: a synthetic dump of ``--entities`` entities (default
   100,000) in the layout of Wikidata's ``latest-all.json.gz`` (a ``[`` line, one entity per
   line ending with ``,``, a ``]`` line), each with what a real entity line has: page
   metadata, labels, descriptions and aliases in English and 3-6 other languages (which the
   import skips), a few claims and sitelinks; 8% properties, 3% without any English name,
   1% lexemes.  Names are drawn from a vocabulary of English-like words (seed 0).
2. Times ``verifier labels import <dump>`` in a child process (``sys.executable -m
   verifier``, ``nice``): wall time, CPU time, and the child's peak memory
   (``resource.getrusage(RUSAGE_CHILDREN).ru_maxrss``); then the store's size, and a second
   import of the same file (everything replaced) to show that memory stays bounded.
3. Starts the local test server (``tests/labels_server.py``, 127.0.0.1) serving
   ``--fetch-ids`` ids (90% exist, 10% unknown), with one 429 (Retry-After: 1), one 500 and
   one time-out (the server answers after 3 s; the client waits 1 s) queued, and runs
   ``verifier labels fetch --ids-file ... --api ... --json`` twice: requests made, retries,
   cache hits, missing.
4. With ``--verdicts N`` and ``../shared`` present: verifies 2N LC-QuAD 2.0 pairs with the
   shared labels TSV and with a store imported from it, and counts differing verdicts.

Last line: ``entities=<n> import_s=<x> ids_per_s=<x> peak_rss_mb=<x> store_mb=<x>
fetch_requests=<n> fetch_retries=<n> cache_hits_second_run=<n>``

    nice python bench/labels_import.py [--entities 100000] [--fetch-ids 2000] [--out bench/out/labels]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

SHARED = Path(os.environ.get("VERIFIER_SHARED", ROOT.parent / "shared")) / "data"
LANGS = ["de", "fr", "es", "it", "nl", "ru", "ja", "pl", "sv", "zh"]
_SYLLABLES = ("an ar ba be bo ca ce chi co da de di do el en er fa fe fi ga ge gi go ha he "
              "hi in is ka ke ki ko la le li lo lu ma me mi mo mu na ne ni no or pa pe pi po "
              "ra re ri ro ru sa se si so ta te ti to tu va ve vi wa we ya yo za").split()
_ENGLISH = ("river mountain city county village school church station museum film album "
            "song novel species gene protein battle election party team club award prize "
            "company university hospital bridge lake island district province railway "
            "painting building airport festival journal magazine language family born died "
            "written directed played member founded located part of in the").split()


def _word(rng: random.Random) -> str:
    if rng.random() < 0.35:
        return rng.choice(_ENGLISH)
    return "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4)))


def _name(rng: random.Random, lo: int = 1, hi: int = 4) -> str:
    words = [_word(rng) for _ in range(rng.randint(lo, hi))]
    if rng.random() < 0.6:
        words[0] = words[0].capitalize()
    return " ".join(words)


def _mono(lang: str, value: str) -> dict:
    return {"language": lang, "value": value}


def synthetic_entity(i: int, rng: random.Random) -> dict:
    """Entity ``i`` of the synthetic dump (see the module documentation)."""
    r = rng.random()
    if r < 0.01:
        return {"type": "lexeme", "id": f"L{i}", "lemmas": {"en": _mono("en", _word(rng))},
                "lexicalCategory": "Q1084", "language": "Q1860"}
    prop = r < 0.09
    sid = f"P{i}" if prop else f"Q{i}"
    english = rng.random() >= 0.03
    langs = rng.sample(LANGS, rng.randint(3, 6))
    label = _name(rng, 1, 3) if prop else _name(rng)
    labels = {l: _mono(l, f"{label} ({l})") for l in langs}
    descs = {l: _mono(l, _name(rng, 3, 8)) for l in langs[:3]}
    aliases = {l: [_mono(l, _name(rng)) for _ in range(rng.randint(0, 2))] for l in langs[:2]}
    if english:
        labels["en"] = _mono("en", label)
        descs["en"] = _mono("en", _name(rng, 2, 9).lower())
        aliases["en"] = [_mono("en", _name(rng)) for _ in range(rng.choice((0, 1, 2, 2, 3, 4, 6)))]
    claims = {f"P{p}": [{"mainsnak": {"snaktype": "value", "property": f"P{p}", "datatype": "wikibase-item",
                                      "datavalue": {"value": {"entity-type": "item", "numeric-id": rng.randint(1, 10**7),
                                                              "id": f"Q{rng.randint(1, 10**7)}"},
                                                    "type": "wikibase-entityid"}},
                         "type": "statement", "id": f"{sid}$5E6E5C8E-{p:04d}", "rank": "normal"}]
              for p in rng.sample(range(1, 3000), rng.randint(2, 6))}
    ent = {"pageid": i + 100, "ns": 120 if prop else 0, "title": f"Property:{sid}" if prop else sid,
           "lastrevid": rng.randint(10**8, 2 * 10**9), "modified": "2026-11-01T12:00:00Z",
           "type": "property" if prop else "item", "id": sid, "labels": labels, "descriptions": descs,
           "aliases": aliases, "claims": claims}
    if prop:
        ent["datatype"] = "wikibase-item"
    else:
        ent["sitelinks"] = {f"{l}wiki": {"site": f"{l}wiki", "title": labels[l]["value"], "badges": []}
                            for l in langs[:2]}
    return ent


def write_dump(path: Path, n: int, seed: int = 0) -> None:
    rng = random.Random(seed)
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=6) as f:
        f.write("[\n")
        for i in range(1, n + 1):
            f.write(json.dumps(synthetic_entity(i, rng), ensure_ascii=False, separators=(",", ":")))
            f.write(",\n" if i < n else "\n")
        f.write("]\n")


def run_child(cmd: list[str], env: dict) -> tuple[subprocess.CompletedProcess, float, float, float]:
    """Run ``cmd`` niced; ``(result, wall s, cpu s, peak rss MB of the children so far)``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    res = subprocess.run(["nice", "-n", "5", *cmd], capture_output=True, text=True, env=env, cwd=ROOT)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if res.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)} failed ({res.returncode}):\n{res.stderr[-2000:]}")
    return res, wall, cpu, after.ru_maxrss / 1024


def bench_fetch(out: Path, n_ids: int, env: dict) -> dict:
    from labels_server import LabelServer, entity_json

    rng = random.Random(1)
    ids = [f"Q{9_000_000 + i}" for i in range(n_ids)]
    exist = [i for i in ids if rng.random() < 0.9]
    (out / "ids.txt").write_text("\n".join(ids) + "\n")
    store = out / "fetch.sqlite"
    for p in (store, Path(f"{store}-wal"), Path(f"{store}-shm")):
        p.unlink(missing_ok=True)
    with LabelServer() as server:
        server.add({i: entity_json(i, _name(rng), [_name(rng)], _name(rng, 2, 6)) for i in exist})
        server.faults.extend([{"status": 429, "retry_after": "1"}, {"status": 500}, {"sleep": 3.0}])
        cmd = [sys.executable, "-m", "verifier", "labels", "fetch", "--ids-file", str(out / "ids.txt"),
               "--api", server.api, "--store", str(store), "--json", "--timeout", "1", "--rate", "50"]
        first, wall1, _, _ = run_child(cmd, env)
        second, wall2, _, _ = run_child(cmd, env)
        served = len(server.requests)
    a, b = json.loads(first.stdout), json.loads(second.stdout)
    print(f"fetch 1: {a['asked']:,} ids, {a['requests']} requests, {a['retries']} retries, "
          f"{a['cache_hits']} cache hits, fetched {a['fetched']:,}, missing {a['missing']:,}, "
          f"failed {a['failed']}, {wall1:.1f} s")
    print(f"fetch 2: {b['requests']} requests, {b['cache_hits']:,} cache hits, {b['known_missing']:,} "
          f"known missing, {wall2:.1f} s (server saw {served} requests in all)")
    return {"first": a, "second": b, "served": served}


def bench_verdicts(out: Path, n: int) -> None:
    """Store vs TSV verdicts on 2n LC-QuAD 2.0 pairs."""
    from verifier.api import Verifier
    from verifier.config import Config
    from verifier.labels.importer import import_file
    from verifier.labels.index import StoreLabelIndex
    from verifier.labels.store import LabelStore
    from verifier.lexical import LabelIndex
    from verifier.mrs_cache import MrsCorpus

    tsv = SHARED / "wikidata" / "labels.tsv"
    path = out / "shared.sqlite"
    for p in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        p.unlink(missing_ok=True)
    store = LabelStore(path)
    s = import_file(store, tsv)
    print(f"shared labels.tsv -> store: {s.stored:,} ids in {s.seconds:.1f} s, "
          f"{path.stat().st_size / 1e6:.1f} MB")
    recs = [json.loads(l) for l in (SHARED / "lcquad2" / "test.jsonl").read_text().splitlines()[:n]]
    pairs = [(r["question"], r["sparql"]) for r in recs]
    pairs += [(recs[i]["question"], recs[(i + 1) % len(recs)]["sparql"]) for i in range(len(recs))]
    mrs = MrsCorpus([SHARED / "mrs" / "questions.jsonl.gz"])
    out_rows = []
    for labels in (LabelIndex.from_labels_tsv(tsv), StoreLabelIndex(store)):
        v = Verifier(Config({}), labels=labels, mrs=mrs)
        t0 = time.perf_counter()
        out_rows.append([(x.decision, x.score, x.explanation) for x in (v.verify(q, s, signals=("deductive",)) for q, s in pairs)])
        print(f"  {type(labels).__name__}: {len(pairs)} pairs in {time.perf_counter() - t0:.1f} s")
    diff = sum(a != b for a, b in zip(*out_rows))
    print(f"verdicts: {len(pairs)} pairs, {diff} differ between the TSV and the store")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--entities", type=int, default=100_000)
    ap.add_argument("--fetch-ids", type=int, default=2000)
    ap.add_argument("--verdicts", type=int, default=0, help="LC-QuAD records for the store-vs-TSV check")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "labels")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HOME": str(args.out / "home")}

    dump = args.out / "dump.json.gz"
    t0 = time.perf_counter()
    write_dump(dump, args.entities)
    raw = sum(1 for _ in gzip.open(dump, "rb"))
    print(f"dump: {args.entities:,} entities, {dump.stat().st_size / 1e6:.1f} MB gzip, {raw:,} lines, "
          f"written in {time.perf_counter() - t0:.1f} s")

    store = args.out / "dump.sqlite"
    for p in (store, Path(f"{store}-wal"), Path(f"{store}-shm")):
        p.unlink(missing_ok=True)
    cmd = [sys.executable, "-m", "verifier", "labels", "import", str(dump), "--store", str(store), "--json"]
    res, wall, cpu, rss = run_child(cmd, env)
    s = json.loads(res.stdout)[0]
    size = sum(p.stat().st_size for p in (store, Path(f"{store}-wal")) if p.exists()) / 1e6
    print(f"import: {s['records']:,} entities read, {s['stored']:,} stored, {s['no_english']:,} without "
          f"English name, {s['other_type']:,} lexemes; {wall:.1f} s wall, {cpu:.1f} s CPU, "
          f"{s['stored'] / wall:,.0f} ids/s, peak RSS {rss:.0f} MB, store {size:.1f} MB")
    res2, wall2, cpu2, rss2 = run_child(cmd, env)
    s2 = json.loads(res2.stdout)[0]
    print(f"re-import: {s2['replaced']:,} replaced, {wall2:.1f} s wall, {cpu2:.1f} s CPU, "
          f"peak RSS (either run) {rss2:.0f} MB")

    f = bench_fetch(args.out, args.fetch_ids, env)
    if args.verdicts and (SHARED / "lcquad2" / "test.jsonl").is_file():
        bench_verdicts(args.out, args.verdicts)
    print(f"entities={args.entities} import_s={wall:.1f} ids_per_s={s['stored'] / wall:.0f} "
          f"peak_rss_mb={rss:.0f} store_mb={size:.1f} fetch_requests={f['first']['requests']} "
          f"fetch_retries={f['first']['retries']} cache_hits_second_run={f['second']['cache_hits']}")


if __name__ == "__main__":
    main()
