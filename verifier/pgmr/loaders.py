"""Read KG symbols from the shared ``labels.tsv`` and from RDF files.

* :func:`read_labels_tsv`: ``id<TAB>label<TAB>aliases<TAB>description`` with aliases joined by
  ``|`` (header line optional; an optional fifth column ``kind`` is honoured).  Malformed lines
  are counted, skipped and reported in one warning.
* :func:`read_rdf`: any RDF file; ``rdfs:label`` / ``skos:prefLabel`` give labels,
  ``skos:altLabel`` aliases, ``schema:description`` descriptions (English or untagged
  literals).  Kinds come from ``rdf:type`` (properties, classes), ``rdfs:subClassOf`` /
  ``wdt:P279`` (classes) and the Wikidata id letter.  Parsed with pyoxigraph when installed
  (much faster on large files), else rdflib.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator

from verifier.namespaces import WIKIDATA_PREFIXES
from verifier.pgmr.symbols import Kind, Symbol, id_rank, kind_of_wikidata_id

__all__ = ["LoadReport", "TsvCounts", "read_labels_tsv", "iter_labels_tsv", "read_rdf",
           "identifier_of_iri"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class LoadReport:
    """What a loader read: the symbols, and how many input records it had to skip."""

    symbols: tuple[Symbol, ...]
    records: int
    skipped: int
    source: str


_WD_ENTITY = WIKIDATA_PREFIXES["wd"]
_WD_PROP_NS = tuple(sorted((WIKIDATA_PREFIXES[p] for p in (
    "wdt", "wdtn", "p", "ps", "psv", "psn", "pq", "pqv", "pqn", "pr", "prv", "wdno")), key=len,
    reverse=True))


def identifier_of_iri(iri: str) -> str:
    """Memory identifier of a full IRI: the Wikidata id for Wikidata entity and property IRIs
    (``http://www.wikidata.org/prop/direct/P31`` -> ``P31``), else the IRI itself."""
    for ns in (_WD_ENTITY, *_WD_PROP_NS):
        if iri.startswith(ns):
            local = iri[len(ns):]
            if kind_of_wikidata_id(local) is not None:
                return local
    return iri


def _parse_kind(text: str, identifier: str) -> Kind | None:
    text = text.strip().lower()
    if text:
        try:
            return Kind(text)
        except ValueError:
            return None
    return kind_of_wikidata_id(identifier) or Kind.ITEM


def read_labels_tsv(path: str | Path, *, class_ids: Iterable[str] = ()) -> LoadReport:
    """Read a labels TSV file (see the module docstring).

    ``class_ids`` marks items as :attr:`Kind.CLASS`.  Raises ``FileNotFoundError`` for a
    missing file.  A line is malformed when it has fewer than 2 or more than 5 fields, an
    empty id or label, or an unknown kind; such lines are skipped and counted.
    """
    counts = TsvCounts()
    symbols = tuple(iter_labels_tsv(path, class_ids=class_ids, counts=counts))
    return LoadReport(symbols, counts.records, counts.skipped, str(Path(path)))


@dataclass
class TsvCounts:
    """What :func:`iter_labels_tsv` read so far (owned by the caller): records, skipped
    (malformed) records, the first malformed line numbers and the bytes read."""

    records: int = 0
    skipped: int = 0
    first_bad: list[int] = field(default_factory=list)
    bytes_read: int = 0


def iter_labels_tsv(path: str | Path, *, class_ids: Iterable[str] = (),
                    counts: TsvCounts | None = None) -> Iterator[Symbol]:
    """The symbols of a labels TSV file one at a time, in file order (what
    :func:`read_labels_tsv` collects; the file is streamed, never read whole).  ``counts``
    is updated as lines are read; malformed lines are reported in one warning at the end."""
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"labels file not found: {p}")
    classes = frozenset(class_ids)
    st = counts if counts is not None else TsvCounts()
    columns = ("id", "label", "aliases", "description", "kind")
    with p.open("rb") as raw:
        for lineno, data in enumerate(raw, 1):
            st.bytes_read += len(data)
            line = data.decode("utf-8", errors="replace").rstrip("\r\n")
            if not line.strip():
                continue
            parts = line.split("\t")
            if lineno == 1 and parts[0].strip().lower() == "id":
                columns = tuple(c.strip().lower() for c in parts)
                continue
            st.records += 1
            row = dict(zip(columns, (x.strip() for x in parts))) if 2 <= len(parts) <= 5 else {}
            ident, label = row.get("id", ""), row.get("label", "")
            kind = _parse_kind(row.get("kind", ""), ident) if ident else None
            if not ident or not label or kind is None:
                st.skipped += 1
                if len(st.first_bad) < 5:
                    st.first_bad.append(lineno)
                continue
            if ident in classes and kind is Kind.ITEM:
                kind = Kind.CLASS
            aliases = tuple(a.strip() for a in row.get("aliases", "").split("|") if a.strip())
            yield Symbol(ident, label, kind, aliases, row.get("description", ""))
    if st.skipped:
        log.warning("%s: skipped %d malformed line(s) of %d (first: line %s)", p, st.skipped,
                    st.records, ", ".join(map(str, st.first_bad[:5])))


_RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
_RDFS = "http://www.w3.org/2000/01/rdf-schema#"
_SKOS = "http://www.w3.org/2004/02/skos/core#"
_OWL = "http://www.w3.org/2002/07/owl#"
_LABEL_PREDS = frozenset({_RDFS + "label", _SKOS + "prefLabel"})
_ALIAS_PREDS = frozenset({_SKOS + "altLabel"})
_DESC_PREDS = frozenset({"http://schema.org/description", "https://schema.org/description"})
_PROPERTY_TYPES = frozenset({
    "http://www.w3.org/1999/02/22-rdf-syntax-ns#Property", _OWL + "ObjectProperty",
    _OWL + "DatatypeProperty", _OWL + "AnnotationProperty", "http://wikiba.se/ontology#Property",
})
_CLASS_TYPES = frozenset({_RDFS + "Class", _OWL + "Class"})
_SUBCLASS = frozenset({_RDFS + "subClassOf", WIKIDATA_PREFIXES["wdt"] + "P279"})
_INSTANCE = frozenset({_RDF_TYPE, WIKIDATA_PREFIXES["wdt"] + "P31"})


@dataclass(slots=True)
class _Acc:
    labels: list[tuple[int, str]]
    aliases: list[str]
    descriptions: list[tuple[int, str]]


def _lang_rank(lang: str | None, want: str) -> int | None:
    """0 exact language, 1 regional variant, 2 untagged; None for other languages."""
    if not lang:
        return 2
    lang = lang.lower()
    if lang == want:
        return 0
    if lang.startswith(want + "-"):
        return 1
    return None


def _triples_oxigraph(path: Path) -> Iterator[tuple[str, str, object, str | None, bool]]:
    import pyoxigraph as ox

    for q in ox.parse(path=str(path), lenient=True):
        s, p, o = q.subject, q.predicate, q.object
        if not isinstance(s, ox.NamedNode):
            continue
        if isinstance(o, ox.Literal):
            yield s.value, p.value, o.value, o.language, True
        elif isinstance(o, ox.NamedNode):
            yield s.value, p.value, o.value, None, False


def _triples_rdflib(path: Path) -> Iterator[tuple[str, str, object, str | None, bool]]:
    import rdflib
    from rdflib.util import guess_format

    g = rdflib.Graph()
    g.parse(str(path), format=guess_format(str(path)) or "turtle")
    for s, p, o in g:
        if not isinstance(s, rdflib.URIRef):
            continue
        if isinstance(o, rdflib.Literal):
            yield str(s), str(p), str(o), o.language, True
        elif isinstance(o, rdflib.URIRef):
            yield str(s), str(p), str(o), None, False


def read_rdf(path: str | Path, *, lang: str = "en", backend: str = "auto") -> LoadReport:
    """Read symbols from an RDF file (format from the file extension).

    ``backend`` is ``"auto"`` (pyoxigraph if installed, else rdflib), ``"oxigraph"`` or
    ``"rdflib"``.  Subjects without a label in ``lang`` (or untagged) take their first alias
    as label; subjects with neither are skipped and counted.  Among several labels the one
    with the best language match, then the lexicographically smallest, wins; the others
    become aliases (so the result does not depend on triple order).
    """
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"RDF file not found: {p}")
    if backend == "auto":
        try:
            import pyoxigraph  # noqa: F401
            backend = "oxigraph"
        except ImportError:  # pragma: no cover - pyoxigraph is an optional extra
            backend = "rdflib"
    if backend not in ("oxigraph", "rdflib"):
        raise ValueError(f"unknown RDF backend {backend!r} (auto, oxigraph, rdflib)")
    triples = _triples_oxigraph(p) if backend == "oxigraph" else _triples_rdflib(p)
    want = lang.lower()
    acc: dict[str, _Acc] = defaultdict(lambda: _Acc([], [], []))
    props: set[str] = set()
    classes: set[str] = set()
    try:
        for s, pred, o, o_lang, is_lit in triples:
            if is_lit:
                if pred in _LABEL_PREDS or pred in _ALIAS_PREDS or pred in _DESC_PREDS:
                    rank = _lang_rank(o_lang, want)
                    text = " ".join(str(o).split())
                    if rank is None or not text:
                        continue
                    a = acc[s]
                    if pred in _LABEL_PREDS:
                        a.labels.append((rank, text))
                    elif pred in _ALIAS_PREDS:
                        a.aliases.append(text)
                    else:
                        a.descriptions.append((rank, text))
            elif pred == _RDF_TYPE and o in _PROPERTY_TYPES:
                props.add(s)
            elif pred == _RDF_TYPE and o in _CLASS_TYPES:
                classes.add(s)
            elif pred in _SUBCLASS:
                classes.add(s)
                classes.add(str(o))
            elif pred in _INSTANCE:
                classes.add(str(o))
    except SyntaxError as e:
        raise ValueError(f"{p}: malformed RDF: {e}") from None
    symbols: list[Symbol] = []
    skipped = 0
    for iri, a in acc.items():
        ident = identifier_of_iri(iri)
        labels = [t for _, t in sorted(set(a.labels))]
        aliases = sorted(set(a.aliases))
        if not labels and not aliases:
            skipped += 1
            continue
        label = labels[0] if labels else aliases[0]
        rest = [x for x in (*labels[1:], *aliases) if x != label]
        kind = kind_of_wikidata_id(ident)
        if iri in props:
            kind = Kind.PROPERTY
        elif kind is None:
            kind = Kind.ITEM
        if kind is Kind.ITEM and iri in classes:
            kind = Kind.CLASS
        desc = min(a.descriptions)[1] if a.descriptions else ""
        symbols.append(Symbol(ident, label, kind, tuple(dict.fromkeys(rest)), desc))
    symbols.sort(key=lambda s: id_rank(s.id))
    if skipped:
        log.warning("%s: %d subject(s) with descriptions but no %s label were skipped", p,
                    skipped, lang)
    return LoadReport(tuple(symbols), len(acc), skipped, str(p))
