"""``verifier labels``: the label store (labels for any Wikidata id).

    verifier labels import latest-all.json.gz        # a Wikidata JSON dump (.json/.gz/.bz2) or a labels TSV
    verifier labels fetch Q42 P31 wd:Q2270           # fetch what the store lacks (API or SPARQL endpoint)
    verifier labels fetch --log querylog.jsonl       # ... every id of a query log
    verifier labels show Q42                         # what the store holds for an id
    verifier labels stats                            # sizes of the store
    verifier labels export --out labels.tsv          # the store as a labels TSV

The store is ``--store``, else ``[labels] store`` of verifier.toml, else
``~/.local/share/verifier/labels.sqlite``.  Fetching needs a source: ``--api URL`` (Wikibase
``wbgetentities``), ``--endpoint URL`` (SPARQL), ``--wikidata`` (the public API), or
``[labels] api`` / ``endpoint``.  See docs/labels.md.

Exit codes: 0 done, 1 some ids could not be fetched (asked again next time), 2 usage error.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Callable

from verifier.cli import EXIT_FAIL, EXIT_OK, UsageError


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``verifier labels``."""
    p = subparsers.add_parser("labels", help="the label store: import a Wikidata dump, fetch labels of ids",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="labels_command", metavar="ACTION")

    def common(sp: argparse.ArgumentParser, progress: bool = False) -> None:
        if progress:
            sp.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                            help="progress bar on stderr (default: when stderr is a terminal)")
        sp.add_argument("--store", help="the label store file (default: [labels] store, else "
                                        "~/.local/share/verifier/labels.sqlite)")
        sp.add_argument("--config", help="a verifier.toml to use in addition to the usual ones")
        sp.add_argument("--json", action="store_true", help="print the result as JSON")

    pi = sub.add_parser("import", help="import a Wikidata JSON dump or a labels TSV",
                        description="Stream a Wikidata JSON dump (the JSON array of "
                        "https://dumps.wikimedia.org/wikidatawiki/entities/, .json, .json.gz or "
                        ".json.bz2; English labels, aliases and descriptions of items and "
                        "properties) or a labels TSV (id, label, aliases joined by |, description; "
                        "header line) into the store, in batched transactions; memory stays "
                        "bounded. Ids already stored are replaced, so importing again is harmless; "
                        "an interrupted dump import resumes where it stopped (--restart: from the top).")
    pi.add_argument("files", nargs="+", metavar="FILE", help="dump or TSV file(s)")
    pi.add_argument("--format", default="auto", choices=("auto", "json", "tsv"),
                    help="file format (default: told by the first character)")
    pi.add_argument("--batch", type=int, default=2000, help="ids per transaction (default 2000)")
    pi.add_argument("--restart", action="store_true", help="do not resume an interrupted import")
    common(pi, progress=True)
    pi.set_defaults(func=_cmd_import)

    pf = sub.add_parser("fetch", help="fetch the labels of ids the store lacks",
                        description="Fetch English labels, aliases and descriptions of Wikidata ids "
                        "from the Wikibase API (wbgetentities, 50 ids a request) or a SPARQL endpoint, "
                        "into the store. Ids already stored are cache hits; ids the source does not "
                        "know are recorded and not asked again for --missing-ttl-days. Requests are "
                        "rate-limited, time out, and are retried on 429 / 5xx / time-outs (honouring "
                        "Retry-After).")
    pf.add_argument("ids", nargs="*", metavar="ID", help="ids: Q42, P31, wd:Q42, or Wikidata IRIs")
    pf.add_argument("--ids-file", action="append", default=[], metavar="FILE",
                    help="a text file of ids (whitespace or comma separated, # comments)")
    pf.add_argument("--log", action="append", default=[], metavar="LOG",
                    help="a query log (JSONL / CSV / TSV, gzip too): the ids of its queries")
    pf.add_argument("--sparql-field", default="sparql", help="the log's query field (default sparql)")
    pf.add_argument("--log-format", default="auto", choices=("auto", "jsonl", "csv", "tsv"))
    src = pf.add_mutually_exclusive_group()
    src.add_argument("--api", help="Wikibase API URL (e.g. https://www.wikidata.org/w/api.php)")
    src.add_argument("--endpoint", help="SPARQL endpoint URL (e.g. https://query.wikidata.org/sparql)")
    src.add_argument("--wikidata", action="store_true", help="the public Wikidata API")
    pf.add_argument("--rate", type=float, help="requests per second at most (default 5)")
    pf.add_argument("--timeout", type=float, help="seconds per request (default 10)")
    pf.add_argument("--retries", type=int, help="retries of a failed request (default 4)")
    pf.add_argument("--batch", type=int, help="ids per request (default 50, the API's maximum)")
    pf.add_argument("--missing-ttl-days", type=float,
                    help="ask again for ids a source did not know after this many days (default 30)")
    pf.add_argument("--refresh", action="store_true", help="fetch every id again, stored or not")
    common(pf, progress=True)
    pf.set_defaults(func=_cmd_fetch)

    ps = sub.add_parser("show", help="what the store holds for ids",
                        description="Print the stored label, aliases, description, kind and source "
                        "of ids, and the names grounding matches (with their keys).")
    ps.add_argument("ids", nargs="+", metavar="ID")
    common(ps)
    ps.set_defaults(func=_cmd_show)

    pt = sub.add_parser("stats", help="sizes of the store")
    common(pt)
    pt.set_defaults(func=_cmd_stats)

    pe = sub.add_parser("export", help="write the store as a labels TSV",
                        description="Write every stored id as a labels TSV (id, label, aliases, "
                        "description, kind), e.g. to build a PGMR memory: "
                        "'verifier pgmr build --labels FILE'.")
    pe.add_argument("--out", required=True, help="the TSV file to write")
    common(pe)
    pe.set_defaults(func=_cmd_export)
    p.set_defaults(func=lambda a: (p.print_help(sys.stderr), 2)[1])


# --------------------------------------------------------------------------------------------


def _config(args: argparse.Namespace) -> Any:
    from verifier.config import load_config

    if args.config and not Path(args.config).is_file():
        raise UsageError(f"--config {args.config}: no such file")
    try:
        return load_config(args.config)
    except (OSError, ValueError) as e:
        raise UsageError(str(e))


def _store(args: argparse.Namespace, cfg: Any, *, create: bool) -> Any:
    from verifier.labels.configured import default_store_path
    from verifier.labels.store import LabelStore, LabelStoreError

    path = Path(args.store) if args.store else Path(cfg.get("labels", "store") or default_store_path())
    try:
        return LabelStore(path, create=create)
    except LabelStoreError as e:
        hint = "" if create else " ('verifier labels import FILE' or 'verifier labels fetch ID' creates one)"
        raise UsageError(f"{e}{hint}")


def _bar(enabled: bool | None, desc: str, unit: str, scale: bool) -> Callable[[int, int], None] | None:
    if not (enabled if enabled is not None else sys.stderr.isatty()):
        return None
    from tqdm import tqdm

    state: dict[str, Any] = {}

    def update(done: int, total: int) -> None:
        bar = state.get("bar")
        if bar is None:
            bar = state["bar"] = tqdm(total=total, unit=unit, unit_scale=scale, desc=desc, file=sys.stderr,
                                      dynamic_ncols=True, mininterval=0.5)
        bar.total = total
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    return update


def _cmd_import(args: argparse.Namespace) -> int:
    from verifier.labels.importer import ImportOptions, import_file

    if args.batch < 1:
        raise UsageError("--batch must be at least 1")
    for f in args.files:
        if not Path(f).is_file():
            raise UsageError(f"{f}: no such file")
    cfg = _config(args)
    summaries = []
    with _store(args, cfg, create=True) as store:
        for f in args.files:
            opts = ImportOptions(format=args.format, batch=args.batch, restart=args.restart,
                                 progress=_bar(args.progress, Path(f).name, "B", True))
            try:
                s = import_file(store, f, opts)
            except (OSError, ValueError, EOFError) as e:
                raise UsageError(f"{f}: {e}")
            summaries.append(s)
            if not args.json:
                resumed = f", resumed after line {s.resumed_from_line:,}" if s.resumed_from_line else ""
                total = " (with the interrupted run's)" if s.resumed_from_line else ""
                print(f"{f} ({s.format}{resumed}): {s.records:,} records read, skipped {s.no_english:,} "
                      f"without English name, {s.other_type:,} other entity types, {s.malformed:,} malformed; "
                      f"{s.stored:,} ids stored, {s.replaced:,} replaced{total}; {s.seconds:.1f} s")
        if args.json:
            print(json.dumps([s.to_dict() for s in summaries], indent=2))
        else:
            print(f"store {store.path}: {store.named_count():,} ids with names")
            if not args.store and not cfg.get("labels", "store"):
                print(f"to ground with it, add to verifier.toml:\n  [labels]\n  store = \"{store.path}\"")
    return EXIT_OK


def _collect_ids(args: argparse.Namespace) -> tuple[list[str], list[str]]:
    from verifier.audit.reader import FieldMap, LogFormatError, ReaderOptions
    from verifier.labels.ids import ids_from_file, ids_from_log, parse_id

    ids: list[str] = []
    bad: list[str] = []
    for w in args.ids:
        wid = parse_id(w)
        if wid:
            ids.append(wid)
        else:
            bad.append(w)
    for f in args.ids_file:
        if not Path(f).is_file():
            raise UsageError(f"--ids-file {f}: no such file")
        ids.extend(ids_from_file(f))
    opts = ReaderOptions(args.log_format, FieldMap(sparql=args.sparql_field))
    for f in args.log:
        if not Path(f).is_file():
            raise UsageError(f"--log {f}: no such file")
        try:
            ids.extend(ids_from_log(f, opts))
        except LogFormatError as e:
            raise UsageError(str(e))
    return list(dict.fromkeys(ids)), bad


def _cmd_fetch(args: argparse.Namespace) -> int:
    from verifier.labels.configured import fetch_options, missing_ttl
    from verifier.labels.fetch import WIKIDATA_API, Fetcher
    from verifier.labels.sync import DAY, fetch_into

    cfg = _config(args)
    ids, bad = _collect_ids(args)
    if bad:
        raise UsageError("not Wikidata ids: " + ", ".join(bad[:5]))
    if not ids:
        raise UsageError("no ids given (arguments, --ids-file or --log)")
    source: dict[str, Any] = {}
    if args.api or args.endpoint or args.wikidata:  # the command line replaces the configured source
        source = {"api": args.api or (WIKIDATA_API if args.wikidata else ""), "endpoint": args.endpoint or ""}
    opts = fetch_options(cfg, **source, rate=args.rate, timeout=args.timeout, retries=args.retries,
                         batch=args.batch)
    if opts is None:
        raise UsageError("no label source: give --api URL, --endpoint URL or --wikidata, or set "
                         "[labels] api / endpoint in verifier.toml")
    try:
        fetcher = Fetcher(opts)
    except ValueError as e:
        raise UsageError(str(e))
    ttl = args.missing_ttl_days * DAY if args.missing_ttl_days is not None else missing_ttl(cfg)
    with _store(args, cfg, create=True) as store:
        s = fetch_into(store, fetcher, ids, refresh=args.refresh, missing_ttl=ttl,
                       progress=_bar(args.progress, "fetch", "id", False))
        if args.json:
            print(json.dumps({"store": str(store.path), "source": opts.source, **s.to_dict()}, indent=2))
        else:
            print(f"{s.asked:,} ids: {s.cache_hits:,} already stored (cache hits), {s.known_missing:,} "
                  f"known missing; fetched {s.fetched:,}, missing {s.missing:,}, without English name "
                  f"{s.no_english:,}, failed {s.failed:,}")
            print(f"{s.requests:,} requests to {opts.source}, {s.retries:,} retries, {s.seconds:.1f} s")
            for e in s.errors:
                print(f"  error: {e}", file=sys.stderr)
    return EXIT_FAIL if s.failed else EXIT_OK


def _cmd_show(args: argparse.Namespace) -> int:
    from verifier.labels.ids import parse_id

    cfg = _config(args)
    out = []
    with _store(args, cfg, create=False) as store:
        for w in args.ids:
            wid = parse_id(w) or w
            ent = store.entity(wid)
            names = store.entries(wid)
            known = store.known([wid])[1]
            out.append({"id": wid, "found": ent is not None, "missing": bool(known),
                        **({"kind": ent.kind, "label": ent.label, "aliases": list(ent.aliases),
                            "description": ent.description, "source": ent.source,
                            "fetched_at": ent.fetched_at} if ent else {}),
                        "names": [{"name": e.name, "keys": list(e.keys), "shape": e.shape,
                                   "label": e.is_label} for e in names]})
    if args.json:
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return EXIT_OK
    for d in out:
        if not d["found"]:
            print(f"{d['id']}: {'recorded missing' if d['missing'] else 'not in the store'}")
            continue
        print(f"{d['id']} ({d['kind']}, from {d['source']}): {d['label']}")
        if d["description"]:
            print(f"  description: {d['description']}")
        if d["aliases"]:
            print(f"  aliases: {' | '.join(d['aliases'])}")
        for n in d["names"]:
            print(f"  name {n['name']!r}: keys {' '.join(n['keys'])}, shape {n['shape']}")
    return EXIT_OK


def _cmd_stats(args: argparse.Namespace) -> int:
    cfg = _config(args)
    with _store(args, cfg, create=False) as store:
        st = store.stats()
    if args.json:
        print(json.dumps(st.to_dict(), indent=2))
        return EXIT_OK
    print(f"store {st.path}: {st.size_bytes / 1e6:.1f} MB")
    print(f"  ids {st.entities:,} ({st.named:,} with names), names {st.names:,}, recorded missing {st.missing:,}")
    for src, n in sorted(st.sources.items(), key=lambda x: -x[1]):
        print(f"  from {src}: {n:,}")
    for i in st.imports:
        state = "done" if i.get("finished") else f"interrupted after line {i.get('lines_done'):,}"
        print(f"  import {i['source']} ({i['format']}): {state}")
    return EXIT_OK


def _cmd_export(args: argparse.Namespace) -> int:
    cfg = _config(args)
    out = Path(args.out)
    n = 0
    with _store(args, cfg, create=False) as store:
        tmp = out.with_name(out.name + ".part")
        with tmp.open("w", encoding="utf-8") as f:
            f.write("id\tlabel\taliases\tdescription\tkind\n")
            for s in store.symbols():
                f.write("\t".join((s.id, s.label, "|".join(a.replace("|", "/") for a in s.aliases),
                                   s.description, s.kind.value)) + "\n")
                n += 1
        tmp.replace(out)
    if args.json:
        print(json.dumps({"out": str(out), "ids": n}))
    else:
        print(f"wrote {n:,} ids to {out}")
    return EXIT_OK
