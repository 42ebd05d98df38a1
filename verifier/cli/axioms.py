"""``verifier axioms lint|test|show``: check and explore axiom packs."""

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
    test.set_defaults(func=run_test)
    show = s.add_parser("show", help="what a question predicate grounds to and which axioms it yields",
                        description="Example: verifier axioms show _mass_n_of --symbol wdt:P2067")
    show.add_argument("pred", help="an ERG predicate such as _mass_n_of or _benzene/nn_u_unknown")
    show.add_argument("--symbol", action="append", default=[], help="KG symbol(s) to link it to (default: best candidates)")
    show.add_argument("--labels", help="KG labels (a TSV or a label store)")
    show.add_argument("dirs", nargs="*", help="pack folders (default: the shipped pack)")
    show.set_defaults(func=run_show)
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
    for owner, ex in pack.examples:
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
