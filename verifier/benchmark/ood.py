"""Out-of-domain dataset: SNIPS task-oriented utterances paired with SPARQL queries.

Utterances come from ``ood/utterances_with_intent.tsv`` (``ood/utterances.txt`` when the TSV
is absent), de-duplicated by :func:`~verifier.benchmark.ontology_split.normalize_question`,
never equal to a KGQA question.  Taken: every utterance with a reading in the MRS sample
(``mrs/ood_sample.jsonl.gz``, so the deductive signal has readings to work with) plus
``extra`` more, seeded.  Each gets a query (label 0, category ``out_of_domain``):

* ``generated`` (when possible, half of the time): a word span of the utterance that is
  exactly the label of an item in ``wikidata/labels.tsv`` (at least 4 characters, starting
  with a capital letter in the utterance) gives ``SELECT ?x WHERE { wd:Q wdt:P ?x . }`` with
  ``P`` the property most used with that item in the gold queries (else a frequent one); this
  is the hard case where the query does mention something the utterance names;
* ``sampled``: a random gold query.

As controls, the same number of gold pairs (label 1, category ``gold``) are added.  All
queries are written with :func:`parsers.sparql_generate.generate` (one layout).
"""

from __future__ import annotations

import csv
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from verifier.benchmark.gold import GoldPair, has_mrs
from verifier.benchmark.ontology_split import normalize_question
from verifier.benchmark.plausible import CorpusStats, id_key, ranked
from verifier.benchmark.records import BenchRecord

__all__ = ["Utterance", "load_utterances", "build_ood_dataset", "label_index", "OOD_TSV",
           "OOD_TXT"]

OOD_TSV = "ood/utterances_with_intent.tsv"
OOD_TXT = "ood/utterances.txt"
_WORD = re.compile(r"[\w'’.\-]+")


@dataclass(frozen=True)
class Utterance:
    """An out-of-domain utterance and its SNIPS intent (``unknown`` without the TSV)."""

    text: str
    intent: str = "unknown"


def load_utterances(data_dir: str | Path) -> list[Utterance]:
    """Utterances in file order (first occurrence of each normalised text)."""
    base = Path(data_dir)
    out: list[Utterance] = []
    seen: set[str] = set()
    if (base / OOD_TSV).is_file():
        with (base / OOD_TSV).open(encoding="utf-8", newline="") as f:
            rows = [(r["utterance"], r["intent"]) for r in csv.DictReader(f, delimiter="\t")]
    elif (base / OOD_TXT).is_file():
        rows = [(ln, "unknown") for ln in (base / OOD_TXT).read_text(encoding="utf-8").splitlines()]
    else:
        raise FileNotFoundError(f"no out-of-domain utterances under {base / 'ood'}")
    for text, intent in rows:
        text = (text or "").strip()
        k = normalize_question(text)
        if k and k not in seen:
            seen.add(k)
            out.append(Utterance(text, intent))
    return out


def label_index(labels: Mapping[str, str]) -> dict[str, str]:
    """Case-folded item label -> item id (the smallest id when labels collide)."""
    out: dict[str, str] = {}
    for ident in sorted((i for i in labels if i.startswith("Q")), key=id_key):
        out.setdefault(labels[ident].casefold(), ident)
    return out


def _mention(text: str, index: Mapping[str, str], max_words: int = 4) -> tuple[str, str] | None:
    """The longest (then leftmost) capitalised word span of ``text`` that is an item label."""
    toks = [(m.start(), m.end()) for m in _WORD.finditer(text)]
    for n in range(min(max_words, len(toks)), 0, -1):
        for i in range(len(toks) - n + 1):
            span = text[toks[i][0]:toks[i + n - 1][1]]
            if len(span) >= 4 and span[0].isupper() and span.casefold() in index:
                return span, index[span.casefold()]
    return None


def build_ood_dataset(utterances: Sequence[Utterance], gold: Sequence[GoldPair],
                      gold_texts: Mapping[str, str], stats: CorpusStats, *, seed: int = 0,
                      extra: int = 1000, ood_mrs: frozenset[str] = frozenset(),
                      question_mrs: frozenset[str] = frozenset(),
                      labels_index: Mapping[str, str] | None = None,
                      verify: Callable[[Sequence[str]], Mapping[str, bool]] | None = None
                      ) -> tuple[list[BenchRecord], dict[str, Any]]:
    """The out-of-domain records (module docstring) and statistics.

    ``gold_texts`` maps gold ids to their regenerated query text (only those pairs are
    sampled); ``ood_mrs`` / ``question_mrs`` are the MRS indexes for ``has_mrs``;
    ``verify(ids)`` says which regenerated texts are proved equivalent to their gold query
    (controls are only taken among those; default: all).
    """
    rng = random.Random(f"{seed}:out_of_domain")
    kgqa = {normalize_question(p.question) for p in gold}
    pool = [u for u in utterances if normalize_question(u.text) not in kgqa]
    in_mrs = [u for u in pool if u.text in ood_mrs]
    rest = [u for u in pool if u.text not in ood_mrs]
    chosen = in_mrs + rng.sample(rest, min(extra, len(rest)))
    sampled_gold = sorted(gold_texts)
    idx = labels_index or {}
    frequent = ranked(stats.prop_count)[:20] or ["P31"]
    records: list[BenchRecord] = []
    modes = {"generated": 0, "sampled": 0}
    for k, u in enumerate(chosen):
        m = _mention(u.text, idx) if idx else None
        if m is not None and rng.random() < 0.5:
            span, item = m
            props = ranked(stats.entity_props.get(item, {})) or [rng.choice(frequent)]
            prop = props[0]
            sparql = f"SELECT ?x WHERE {{ wd:{item} wdt:{prop} ?x . }}"
            detail = {"mode": "generated", "span": span, "item": item, "property": prop,
                      "item_label": stats.labels.get(item), "property_label": stats.labels.get(prop)}
        else:
            gid = rng.choice(sampled_gold)
            sparql, detail = gold_texts[gid], {"mode": "sampled", "from_gold": gid}
        modes[detail["mode"]] += 1
        records.append(BenchRecord(
            id=f"ood-{k:05d}", question=u.text, sparql=sparql, gold_sparql=None, label=0,
            category="out_of_domain", source=f"snips/{u.intent}", detail=detail,
            has_mrs=u.text in ood_mrs, extra={"intent": u.intent}))
    by_id = {p.id: p for p in gold}
    order = rng.sample(sampled_gold, len(sampled_gold))
    controls: list[str] = []
    pos = 0
    while len(controls) < len(chosen) and pos < len(order):
        batch = order[pos:pos + len(chosen) - len(controls)]
        pos += len(batch)
        ok = verify(batch) if verify is not None else {i: True for i in batch}
        controls += [i for i in batch if ok.get(i)]
    for gid in sorted(controls):
        p = by_id[gid]
        records.append(BenchRecord(
            id=f"control-{gid}", question=p.question, sparql=gold_texts[gid],
            gold_sparql=p.sparql, label=1, category="gold", source=p.source, detail={},
            has_mrs=has_mrs(p.question, question_mrs),
            extra={"gold_id": gid, "dataset": p.dataset, "split": p.split}))
    stats_out = {"utterances": len(pool), "with_mrs_reading": len(in_mrs),
                 "out_of_domain": len(chosen), "controls": len(controls), **modes}
    return records, stats_out
