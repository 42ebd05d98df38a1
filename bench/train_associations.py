"""Learn the association link table (``verifier/_data/associations.json``) from paired
training data (issue 59, point 1).

Training material only: WikiWebQuestions train, QALD-10 train, QALD-7 train, the LC-QuAD 2.0
train subset and the seed-0 LC-QuAD 2.0 development sample (``bench/deductive_lcquad.py``);
questions of the shared LLM predictions are left out.  Each pair is aligned the way
``verifier axioms induce`` aligns it (:func:`verifier.axioms.induce.align`: the lemma and part
of speech of every content predicate of the question's cached MRS readings against the
properties and classes of the gold query), the (word, symbol) pairs that pass the induction
thresholds (:func:`verifier.axioms.induce.associations`, with the settings below) are kept,
minus those a shipped lexicon or a KG label or alias already links, and each gets the
confidence :func:`verifier.grounding.associations.association_confidence`.

    python bench/train_associations.py [--out verifier/_data/associations.json] [--min-support 3]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from train_confidence import LLM, SHARED, llm_questions  # noqa: E402

#: The training files (under ``../shared/data``).
TRAIN_FILES = ("wikiwebquestions/train.jsonl", "qald10/train.jsonl", "qald7/train.jsonl",
               "lcquad2/train_subset.jsonl")


def training_pairs() -> tuple[list, Counter]:
    """The training pairs (question, gold query), each question once, none of the LLM
    predictions', and how many came from each file."""
    from deductive_lcquad import load_pairs
    from verifier.axioms.induce import Pair

    held = llm_questions() if LLM.is_file() else set()
    seen: set[str] = set()
    out, per = [], Counter()

    def add(src: str, d: dict) -> None:
        q, s = d.get("question"), d.get("sparql")
        if isinstance(q, str) and isinstance(s, str) and q not in seen and q not in held:
            seen.add(q)
            out.append(Pair(str(d.get("id")), q, s))
            per[src] += 1

    for name in TRAIN_FILES:
        for line in (SHARED / name).open(encoding="utf-8"):
            if line.strip():
                add(name, json.loads(line))
    sample, _, _ = load_pairs(1000, 0)  # the seed-0 development sample
    for d in sample:
        add("lcquad2/test seed-0 sample", d)
    return out, per


def stated(sparql: str) -> set[str]:
    """The properties (``wdt:P…``) a query states as a triple's predicate: not only as a
    qualifier (``pq:``), and not instance of / subclass of."""
    from parsers.sparql import parse_query
    from verifier.logic import atoms
    from verifier.namespaces import wikidata_id

    out = set()
    for a in atoms(parse_query(sparql).pattern):
        pid = wikidata_id(a.pred.rstrip("*+"))
        if pid and pid.startswith("P") and not a.pred.startswith("pq:") and pid not in ("P31", "P279"):
            out.add(f"wdt:{pid}")
    return out


def main(argv=None) -> int:
    from verifier.axioms import default_pack_dirs, load_pack
    from verifier.axioms.induce import (
        AlignedPair, align, associations, label_names_word, load_settings, shipped_link,
    )
    from verifier.grounding.associations import (
        ASSOCIATIONS_PATH, AssociationEntry, AssociationTable, association_confidence,
    )
    from verifier.lexical import LabelIndex
    from verifier.mrs_cache import MrsCorpus
    from verifier.namespaces import wikidata_id

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ASSOCIATIONS_PATH))
    ap.add_argument("--min-support", type=int, default=3)
    ap.add_argument("--min-pmi", type=float, default=1.0)
    ap.add_argument("--min-llr", type=float, default=10.0)
    ap.add_argument("--min-precision", type=float, default=0.2)
    ap.add_argument("--max-symbols-per-word", type=int, default=3)
    ap.add_argument("--prior", type=float, default=1.0, help="pseudo-questions without the symbol")
    args = ap.parse_args(argv)
    if not SHARED.is_dir():
        print(f"shared data not found at {SHARED}", file=sys.stderr)
        return 2
    # nouns, verbs and adjectives (prepositions structure the question, they are not counted)
    settings = load_settings(min_support=args.min_support, min_pmi=args.min_pmi, min_llr=args.min_llr,
                             min_precision=args.min_precision,
                             max_symbols_per_word=args.max_symbols_per_word,
                             parts_of_speech={"n": "noun", "v": "verb", "a": "adjective"})
    pairs, per = training_pairs()
    corpus = MrsCorpus([SHARED / "mrs" / "questions.jsonl.gz"])
    aligned, counts = align(pairs, corpus.readings, settings)
    # the properties and classes of each query (items asked as values are not linked here);
    # a property only where the query states it (not as a qualifier, which the grounder does
    # not link, nor the class properties, which name no word of their own)
    aligned = [AlignedPair(a.pair, a.words, frozenset(
        s for s in a.symbols if s.kind == "class" or (s.kind == "property" and s.symbol in stated(a.pair.sparql))))
        for a in aligned]
    assocs = associations(aligned, settings)
    pack = load_pack(default_pack_dirs())
    labels = LabelIndex.cached(SHARED / "wikidata" / "labels.tsv")
    kept, skipped = [], Counter()
    for a in assocs:
        w, s = a.word, a.symbol
        if shipped_link(pack, w, s):
            skipped["lexicon"] += 1
        elif label_names_word(labels, w, s):
            skipped["label"] += 1
        else:
            kept.append(AssociationEntry(w.lemma, w.pos, wikidata_id(s.symbol) or s.symbol, s.kind, a.support,
                                         a.word_count, association_confidence(a.support, a.word_count, args.prior)))
    info = {
        "doc": ("Association links (issue 59): question words (lemma, part of speech of the MRS "
                "predicates) and the properties and classes of the gold queries of training pairs; "
                "written by bench/train_associations.py."),
        "trained_on": dict(sorted(per.items())),
        "aligned_pairs": counts.aligned,
        "settings": {"min_support": settings.min_support, "min_pmi": settings.min_pmi,
                     "min_llr": settings.min_llr, "min_precision": settings.min_precision,
                     "max_symbols_per_word": settings.max_symbols_per_word, "prior": args.prior},
        "skipped": dict(sorted(skipped.items())),
    }
    table = AssociationTable.of(kept, info)
    Path(args.out).write_text(json.dumps(table.to_json(), ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"{len(pairs)} pairs ({dict(per)}); {counts.aligned} aligned; {len(assocs)} associations; "
          f"skipped {dict(skipped)}; {len(table)} entries written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
