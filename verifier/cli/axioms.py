"""``verifier axioms lint|test|show|induce``: check, explore and propose axiom packs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("axioms", help="lint, test and explore axiom templates and lexicons",
                       description="Axiom packs are folders with templates/, lexicons/, background/ "
                       "shapes/ and rewrites/ YAML files (the shipped pack is used when no folder is given).")
    s = p.add_subparsers(dest="axioms_command", metavar="ACTION")
    lint = s.add_parser("lint", help="report YAML, field, formula, placeholder, arity and reference errors "
                        "(question shapes, word lists and rewrite rules too)",
                        description="Lints the templates, lexicons and background axioms, the question "
                        "shapes (fields, regexes, fragments, word lists, builders), the word lists "
                        "(words/*.yaml) and the rewrite rules (rewrites/*.yaml: fields, EPs, variables, builtins). Exit code 1 when any error is found.")
    lint.add_argument("dirs", nargs="*", help="pack folders (default: the shipped pack)")
    lint.set_defaults(func=run_lint)
    test = s.add_parser("test", help="run every example embedded in the packs (shapes, word lists and rewrite rules too)",
                        description="The examples of the word lists (words/*.yaml), of the question "
                        "shapes and of the rewrite rules (rewrites/*.yaml) run first; then each example (question, sparql, expected verdict) is "
                        "verified; questions without an MRS (no cache entry, no ACE) are reported as skipped. "
                        "Exit code 1 when an example fails.")
    test.add_argument("dirs", nargs="*", help="pack folders (default: the shipped pack)")
    test.add_argument("--labels", help="KG labels for grounding (a TSV or a label store)")
    test.add_argument("--mrs", action="append", default=[], metavar="FILE", help="MRS corpus file(s)")
    test.add_argument("--given-only", action="store_true",
                      help="run only the template and lexicon examples of the packs given (e.g. an induced "
                      "pack checked with the labels it was induced with), not the shipped ones")
    test.set_defaults(func=run_test)
    show = s.add_parser("show", help="what a question predicate grounds to and which axioms it yields",
                        description="Example: verifier axioms show _mass_n_of --symbol wdt:P2067")
    show.add_argument("pred", help="an ERG predicate such as _mass_n_of or _benzene/nn_u_unknown")
    show.add_argument("--symbol", action="append", default=[], help="KG symbol(s) to link it to (default: best candidates)")
    show.add_argument("--labels", help="KG labels (a TSV or a label store)")
    show.add_argument("dirs", nargs="*", help="pack folders (default: the shipped pack)")
    show.set_defaults(func=run_show)
    ind = s.add_parser("induce", help="propose lexicon entries from (question, gold query) pairs with MRS",
                       description="Counts the content words of each question's MRS readings against the "
                       "properties, classes and values of its gold query, keeps the (word, symbol) pairs "
                       "with enough support and association (PMI, G2, precision: settings in "
                       "verifier/_data/induce.yaml), chooses each entry's template by the word's kind and "
                       "the symbol's kind (with --labels, the template that makes most supporting pairs "
                       "accepted), and writes a lexicon pack to review: word, template, symbol, support "
                       "and up to 3 examples, which `verifier axioms lint` and `verifier axioms test` "
                       "accept. Lines that are not JSON, lack a field, or whose query cannot be parsed are "
                       "counted and skipped. Exit code 2 on unusable input.")
    ind.add_argument("pairs", help="JSONL file of pairs (one object per line with a question and a SPARQL query)")
    ind.add_argument("--mrs", action="append", required=True, metavar="FILE",
                     help="MRS corpus file(s) holding the questions' readings (.jsonl or .jsonl.gz)")
    ind.add_argument("--out", required=True, metavar="PACK.yaml", help="where to write the proposed lexicon pack")
    ind.add_argument("--min-support", type=int, metavar="N", help="pairs needed per entry (default: settings)")
    ind.add_argument("--max", type=int, metavar="N", dest="max_entries", help="most entries proposed (default: settings)")
    ind.add_argument("--labels", help="KG labels (a TSV or a label store): skips words a label already names, "
                     "and lets each entry's template be chosen by verifying its supporting pairs")
    ind.add_argument("--no-check", action="store_true",
                     help="do not verify: first candidate template, examples unchecked")
    ind.add_argument("--settings", metavar="FILE", help="induction settings (default: verifier/_data/induce.yaml)")
    ind.add_argument("--pack", action="append", default=[], metavar="DIR",
                     help="further pack folders the proposals are checked with and compared to")
    ind.add_argument("--name", help="the lexicon's name (default: the output file's stem)")
    ind.add_argument("--question-field", default="question", help="field of the question (default: %(default)s)")
    ind.add_argument("--sparql-field", default="sparql", help="field of the gold query (default: %(default)s)")
    ind.add_argument("--json", action="store_true", help="print the summary as JSON")
    ind.set_defaults(func=run_induce)
    p.set_defaults(func=lambda a: (p.print_help(), 2)[1])


def _dirs(args):
    from verifier.axioms import default_pack_dirs

    return default_pack_dirs() + [d for d in args.dirs] if args.dirs else default_pack_dirs()


def _pack(args):
    """The pack of ``args.dirs`` (plus the shipped one), or None after printing why not."""
    from verifier.axioms import PackError, load_pack

    try:
        return load_pack(_dirs(args))
    except PackError as e:
        print(e)
        return None


def _shape_paths(args) -> list[Path]:
    """The shipped shape files and the ``shapes/`` folders of the packs given."""
    from parsers.mrs.shapes import default_shape_dirs

    return default_shape_dirs() + [Path(d) / "shapes" for d in args.dirs if (Path(d) / "shapes").is_dir()]


def _rule_paths(args) -> list[Path]:
    """The shipped rewrite rule files and the ``rewrites/`` folders of the packs given."""
    from verifier.rewrite import default_rule_dirs

    return default_rule_dirs() + [Path(d) / "rewrites" for d in args.dirs if (Path(d) / "rewrites").is_dir()]


def run_lint(args: argparse.Namespace) -> int:
    from parsers.mrs.shapes import BUILDERS, check_shapes
    from verifier.axioms import lint
    from verifier.deductive.rules import BUILTINS as RULE_BUILTINS
    from verifier.rewrite import check_rules
    from verifier.vocabulary import lint_words

    issues = list(lint(_dirs(args))) + list(lint_words(_dirs(args))) + list(check_shapes(_shape_paths(args), BUILDERS))
    issues += list(check_rules(_rule_paths(args), RULE_BUILTINS))
    for i in issues:
        print(i)
    errors = sum(1 for i in issues if i.severity == "error")
    print(f"{errors} error(s), {len(issues) - errors} warning(s)", file=sys.stderr)
    return 1 if errors else 0


def run_shape_examples(args) -> int:
    """Run the examples of the shape files; returns the number that failed."""
    from parsers.mrs.shapes import BUILDERS, ShapeError, load_shapes
    from parsers.mrs.shapes.examples import run_examples

    try:
        shape_set = load_shapes(_shape_paths(args), BUILDERS)
    except ShapeError as e:
        print(e)
        return 1
    results = run_examples(shape_set)
    for r in results:
        if not r.ok:
            print(f"FAIL shape {r.shape} ({r.file}): {r.question!r}: {r.message}")
    failed = sum(not r.ok for r in results)
    print(f"shape examples: {len(results) - failed} passed, {failed} failed")
    return failed


def run_rule_examples(args) -> int:
    """Run the examples of the rewrite rule files; returns the number that failed."""
    from verifier.axioms import PackError, default_pack_dirs, load_pack
    from verifier.deductive.rules import BUILTINS, example_apply
    from verifier.lexical import LabelIndex
    from verifier.rewrite import RuleError, load_rules
    from verifier.rewrite.examples import run_examples

    try:
        rules = load_rules(_rule_paths(args), BUILTINS)
        pack = load_pack(default_pack_dirs())
    except (RuleError, PackError) as e:
        print(e)
        return 1
    results = run_examples(rules, example_apply(pack, LabelIndex()))
    for r in results:
        if not r.ok:
            print(r)
    failed = sum(not r.ok for r in results)
    print(f"rewrite rule examples: {len(results) - failed} passed, {failed} failed")
    return failed


def _run_word_examples(args: argparse.Namespace) -> int:
    """Run the examples of the word lists; the number of failures (problems included)."""
    from verifier.vocabulary import run_word_examples

    ran, failures, problems = run_word_examples(_dirs(args))
    for p in problems:
        print(p)
    for f in failures:
        print(f"FAIL {f}")
    print(f"word lists: {ran - len(failures)} passed, {len(failures)} failed")
    return len(failures) + len(problems)


def run_test(args: argparse.Namespace) -> int:
    word_failures = _run_word_examples(args)
    shapes_failed = run_shape_examples(args)
    rules_failed = run_rule_examples(args)
    code = _run_pack_examples(args)
    return 1 if word_failures or shapes_failed or rules_failed or code else 0


def _run_pack_examples(args: argparse.Namespace) -> int:
    from verifier.api import Verifier
    from verifier.labels.configured import labels_from_file
    from verifier.lexical import LabelIndex
    from verifier.mrs_cache import MrsCorpus
    from verifier.resources import axioms_dir

    pack = _pack(args)
    if pack is None:
        return 1
    corpora = list(args.mrs)
    shipped = axioms_dir() / "examples"
    if (shipped / "mrs.jsonl.gz").exists():
        corpora.insert(0, str(shipped / "mrs.jsonl.gz"))
    if args.labels:
        labels = labels_from_file(args.labels)
    elif (shipped / "kg-labels.tsv").exists():
        labels = LabelIndex.from_labels_tsv(shipped / "kg-labels.tsv")
    else:
        labels = None
    v = Verifier(pack=pack, labels=labels, mrs=MrsCorpus(corpora))
    failed = skipped = passed = 0
    examples = pack.examples
    if getattr(args, "given_only", False):
        roots = [Path(d).resolve() for d in args.dirs]
        examples = [(o, ex) for o, ex in examples if ex.source is not None and any(
            r == Path(ex.source.file).resolve() or r in Path(ex.source.file).resolve().parents for r in roots)]
    for owner, ex in examples:
        r = v.verify(ex.question, ex.sparql, signals=("deductive",))  # examples state deductive verdicts
        got = r.verdict
        want = ex.verdict
        ok = got == want or (want in ("accept", "reject") and r.decision == want)
        if r.deductive is not None and r.deductive.best is None and got == "unknown" and want != "unknown":
            skipped += 1
            print(f"SKIP {owner} ({ex.source}): {ex.question!r}: {r.deductive.reason}")
            continue
        if ok:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {owner} ({ex.source}): {ex.question!r}\n     {ex.sparql}\n"
                  f"     expected {want}, got {got}: {r.explanation.splitlines()[-1] if r.explanation else ''}")
    print(f"{passed} passed, {failed} failed, {skipped} skipped (no MRS for the question)")
    return 1 if failed else 0


def run_show(args: argparse.Namespace) -> int:
    from parsers.mrs import predicate_info
    from verifier.grounding import Grounder, SymbolUse, Unit
    from verifier.labels.configured import labels_from_file
    from verifier.lexical import LabelIndex, content_keys
    from verifier.logic import Atom, Var
    from verifier.namespaces import wikidata_id

    pack = _pack(args)
    if pack is None:
        return 1
    info = predicate_info(args.pred)
    print(f"{args.pred}: lemma {info.lemma!r}, part of speech {info.pos}, sense {info.sense}, "
          f"{'abstract' if info.is_abstract else 'content'}{', unknown word' if info.is_unknown_word else ''}")
    labels = labels_from_file(args.labels) if args.labels else LabelIndex()
    g = Grounder(pack, labels)
    kind = {"n": "noun", "v": "verb", "a": "adjective", "p": "preposition"}.get(info.pos or "", "abstract")
    arity = {"verb": 3, "preposition": 3, "adjective": 2}.get(kind, 1)
    if kind == "noun" and (info.sense or "").split("-")[0] in ("of", "to"):  # _mass_n_of, _type_n_of-n
        kind, arity = "relational_noun", 2
    unit = Unit(Atom(args.pred, tuple(Var(f"a{i}") for i in range(arity))), kind, info.lemma, info.pos,
                content_keys(info.lemma), content_keys(info.lemma), info.lemma, Var("a0"))
    entries = pack.entries_for(info.lemma)
    for e in entries:
        print(f"  lexicon: '{info.lemma}' -> {', '.join(e.symbols)} via template {e.template} ({e.source})")
    symbols = list(args.symbol)
    if not symbols:
        symbols = [s for e in entries for s in e.symbols]
        for sid, score, name in g.alternatives(unit, "property") + g.alternatives(unit, "item"):
            symbols.append(("wdt:" if sid.startswith("P") else "wd:") + sid)
    if not symbols:
        print("  no candidate symbol (give --labels or --symbol)")
    for s in dict.fromkeys(symbols):
        wid = wikidata_id(s) or s
        skind = "property" if wid.startswith("P") else "item"
        sym = SymbolUse(s, wid, skind)
        # through the lexicon entry that names the symbol, found as the grounder finds it (its
        # template, and only it when the entry is exclusive), else through the templates for
        # a noun-shaped label
        entry = g.entry_for(info.lemma, sym, info.pos)
        link = g.make_link(unit, sym, g.label(wid), "noun", 1.0, 1.0, "shown", entry)
        print(f"  {s} ({g.label(wid)}):")
        if link is None:
            print("    no template applies")
            continue
        for a in link.axioms:
            print(f"    [{a.template}] {a.formula}")
    return 0


def _checker(pack, labels, corpus):
    """A :data:`verifier.axioms.induce.Checker` on one verifier: a trial pack gets a copy of it
    with the pack and its grounder swapped (the rest of the verifier's warm state, such as the
    stacking model and its signals, the rewrite rules and WordNet, does not depend on the pack
    and is not rebuilt per candidate)."""
    import copy

    from verifier.api import Verifier
    from verifier.config import load_config
    from verifier.grounding import Grounder

    # without the learned association links: they would hide what an entry adds (its word
    # may already be linked by the table learned from the same kind of pairs)
    base = Verifier(load_config().with_values("grounding", associations="none"), pack=pack, labels=labels,
                    mrs=corpus)
    current: dict[int, Verifier] = {id(pack): base}

    def with_pack(p) -> Verifier:
        v = copy.copy(base)
        v.pack = p
        v.grounder = Grounder(p, base.labels, base.wordnet, disabled_sources=base.grounder.disabled_sources)
        return v

    def check(p, question: str, sparql: str) -> tuple[bool, str]:
        v = current.get(id(p))
        if v is None:
            current.clear()
            current[id(pack)] = base
            v = current[id(p)] = with_pack(p)
        try:
            r = v.verify(question, sparql)
        except Exception as e:  # one pair never stops the induction
            print(f"warning: verifying {question!r} failed: {type(e).__name__}: {e}", file=sys.stderr)
            return False, "error"
        return r.decision == "accept", r.verdict

    return check


def run_induce(args: argparse.Namespace) -> int:
    import json

    from verifier.axioms import PackError, default_pack_dirs, load_pack
    from verifier.axioms.induce import (
        InduceError, align, associations, load_settings, pack_text, propose, read_pairs,
    )
    from verifier.mrs_cache import CorpusFormatError, MrsCorpus

    def say(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    for n, what in ((args.min_support, "--min-support"), (args.max_entries, "--max")):
        if n is not None and n < 1:
            say(f"error: {what} must be 1 or more")
            return 2
    out = Path(args.out)
    if out.is_dir() or not out.parent.is_dir():
        say(f"error: --out {out}: not a file in an existing folder")
        return 2
    try:
        settings = load_settings(args.settings, min_support=args.min_support, max_entries=args.max_entries)
        pairs, rc = read_pairs(args.pairs, question_field=args.question_field, sparql_field=args.sparql_field)
    except InduceError as e:
        say(f"error: {e}")
        return 2
    corpus = MrsCorpus()
    for f in args.mrs:
        try:
            corpus.load(f)
        except FileNotFoundError:
            say(f"error: --mrs {f}: no such file")
            return 2
        except CorpusFormatError as e:
            say(f"error: --mrs {e}")
            return 2
    try:
        pack = load_pack(default_pack_dirs(args.pack))
    except PackError as e:
        say(str(e))
        return 2
    labels = None
    if args.labels:
        from verifier.labels.configured import labels_from_file
        from verifier.labels.store import is_label_store
        from verifier.lexical import LabelIndex

        try:  # a TSV is read once and kept as a cache (as the benches do)
            labels = labels_from_file(args.labels) if is_label_store(args.labels) else LabelIndex.cached(args.labels)
        except (OSError, ValueError) as e:
            say(f"error: --labels {args.labels}: {e}")
            return 2
    say(f"{rc.pairs} pairs read from {args.pairs}; {len(corpus)} questions in the MRS corpus")
    step = max(500, len(pairs) // 10)  # progress on long work only
    aligned, ac = align(pairs, corpus.readings, settings,
                        progress=lambda i: i % step == 0 and say(f"  aligned {i}/{len(pairs)}"))
    assocs = associations(aligned, settings)
    check = None if args.no_check or labels is None else _checker(pack, labels, corpus)
    say(f"{len(assocs)} associations; " + ("checking each against its supporting pairs"
                                            if check else "not checked (no --labels, or --no-check)"))
    result = propose(assocs, pack, settings, labels=labels, check=check,
                     progress=lambda i, n: check is not None and n >= 20 and i % max(1, n // 10) == 0
                     and say(f"  checked {i}/{n}"))
    name = args.name or out.stem
    try:
        out.write_text(pack_text(result, name=name), encoding="utf-8")
    except OSError as e:
        say(f"error: cannot write {out}: {e}")
        return 2
    by_template: dict[str, int] = {}
    by_kind: dict[str, int] = {}
    for pr in result.proposals:
        by_template[pr.template] = by_template.get(pr.template, 0) + 1
        by_kind[pr.association.symbol.kind] = by_kind.get(pr.association.symbol.kind, 0) + 1
    summary = {
        "pairs_file": str(args.pairs), "out": str(out), "checked": check is not None,
        "lines": rc.lines, "pairs": rc.pairs, "bad_json": rc.bad_json, "missing_fields": rc.missing_fields,
        "duplicate_questions": rc.duplicates, "no_mrs": ac.no_mrs, "no_reading": ac.no_reading,
        "bad_sparql": ac.bad_sparql, "no_symbol": ac.no_symbol, "no_word": ac.no_word, "aligned": ac.aligned,
        "associations": result.associations, "skipped": dict(sorted(result.skipped.items())),
        "entries": len(result.proposals), "by_template": dict(sorted(by_template.items())),
        "by_symbol_kind": dict(sorted(by_kind.items())),
        "examples": sum(len(pr.examples) for pr in result.proposals),
    }
    if args.json:
        summary["proposals"] = [
            {"word": pr.association.word.lemma, "pos": pr.association.word.pos, "kind": pr.association.word.kind,
             "symbol": str(pr.association.symbol), "template": pr.template, "support": pr.association.support,
             "pmi": pr.association.pmi, "llr": pr.association.llr, "precision": pr.association.precision,
             "checked": pr.checked, "accepted_with": pr.accepted_with, "accepted_without": pr.accepted_without,
             "examples": len(pr.examples)} for pr in result.proposals]
        print(json.dumps(summary, indent=2))
        return 0
    rows = [("pairs read", rc.pairs), ("  lines not JSON objects", rc.bad_json),
            ("  lines missing a field", rc.missing_fields), ("  repeated questions", rc.duplicates),
            ("no MRS for the question", ac.no_mrs), ("no reading", ac.no_reading),
            ("SPARQL not parsed", ac.bad_sparql), ("no KG symbol in the query", ac.no_symbol),
            ("no content word", ac.no_word), ("pairs aligned", ac.aligned),
            ("associations above the thresholds", result.associations)]
    rows += [(f"  skipped: {k}", v) for k, v in sorted(result.skipped.items())]
    rows += [("entries proposed", len(result.proposals))]
    rows += [(f"  template {k}", v) for k, v in sorted(by_template.items())]
    rows += [(f"  symbol kind {k}", v) for k, v in sorted(by_kind.items())]
    rows += [("examples written", summary["examples"])]
    width = max(len(r[0]) for r in rows)
    for label, n in rows:
        print(f"{label:<{width}}  {n:>6}")
    print(f"wrote {out} ({len(result.proposals)} entries); review it, then: verifier axioms lint {out}; "
          f"verifier axioms test {out} --mrs FILE --labels FILE")
    return 0
