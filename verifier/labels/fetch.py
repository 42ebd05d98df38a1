"""Fetch English labels, aliases and descriptions of Wikidata ids over HTTP.

Two kinds of source, each asked ``batch`` ids per request:

* the Wikibase API (``wbgetentities``, ``props=labels|aliases|descriptions``,
  ``languages=en``; at most 50 ids a request), e.g. ``https://www.wikidata.org/w/api.php``;
* a SPARQL endpoint (a ``VALUES`` block with ``rdfs:label``, ``skos:altLabel`` and
  ``schema:description``, results as SPARQL JSON), e.g. ``https://query.wikidata.org/sparql``.

Requests carry a User-Agent naming the tool, are spaced to at most ``rate`` per second
(shared by all threads using one :class:`Fetcher`), time out after ``timeout`` seconds, and
are retried up to ``retries`` times on 429, 5xx, a Wikibase ``maxlag`` error, timeouts and
broken connections, waiting what ``Retry-After`` asks (else ``backoff`` seconds, doubled each
time, at most ``max_wait``).  A ``deadline`` bounds the whole fetch (used at verify time).
Uses only the standard library (urllib).
"""

from __future__ import annotations

import email.utils
import http.client
import json
import logging
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from verifier import __version__
from verifier.labels.dump import entity_symbol
from verifier.pgmr.symbols import Symbol

__all__ = ["FetchOptions", "FetchStats", "FetchResult", "FetchError", "Fetcher", "WIKIDATA_API",
           "WIKIDATA_SPARQL", "USER_AGENT", "parse_wbgetentities", "parse_sparql_results",
           "sparql_labels_query"]

log = logging.getLogger(__name__)

WIKIDATA_API = "https://www.wikidata.org/w/api.php"
WIKIDATA_SPARQL = "https://query.wikidata.org/sparql"
#: Wikimedia asks clients to name themselves (https://meta.wikimedia.org/wiki/User-Agent_policy);
#: ``[labels] user_agent`` adds a contact.
USER_AGENT = f"sparql-verifier/{__version__} (labels fetch; Python urllib)"
_ENTITY = "http://www.wikidata.org/entity/"


class FetchError(RuntimeError):
    """A request failed for good (retries spent, a 4xx answer, no time left)."""


@dataclass(frozen=True)
class FetchOptions:
    """Where and how to fetch (see the module documentation).  Exactly one of ``api`` and
    ``endpoint`` is used (``api`` first when both are given)."""

    api: str | None = None
    endpoint: str | None = None
    batch: int = 50
    timeout: float = 10.0
    retries: int = 4
    backoff: float = 1.0
    max_wait: float = 60.0
    rate: float = 5.0
    user_agent: str = USER_AGENT
    lang: str = "en"
    maxlag: int | None = 5

    @property
    def source(self) -> str:
        """``api:URL`` or ``sparql:URL`` (what the store records as the source)."""
        if self.api:
            return f"api:{self.api}"
        if self.endpoint:
            return f"sparql:{self.endpoint}"
        raise ValueError("no label source configured ([labels] api or endpoint)")


@dataclass
class FetchStats:
    """Counts of one or more fetches: HTTP requests made, retries, failed requests, and
    the error messages of the first few failures."""

    requests: int = 0
    retries: int = 0
    failures: int = 0
    errors: list[str] = field(default_factory=list)

    def note(self, message: str) -> None:
        self.failures += 1
        if len(self.errors) < 5:
            self.errors.append(message)


@dataclass(frozen=True)
class FetchResult:
    """The symbols found, the ids the source does not know (``missing``, or without an
    English name: ``no_english``) and the ids whose request failed (``failed``: ask again
    later)."""

    symbols: tuple[Symbol, ...] = ()
    missing: tuple[str, ...] = ()
    no_english: tuple[str, ...] = ()
    failed: tuple[str, ...] = ()


def sparql_labels_query(ids: Sequence[str], lang: str = "en") -> str:
    """The SPARQL query asking the English label, aliases and description of ``ids``."""
    values = " ".join(f"wd:{i}" for i in ids)
    return ("PREFIX wd: <http://www.wikidata.org/entity/>\n"
            "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n"
            "PREFIX skos: <http://www.w3.org/2004/02/skos/core#>\n"
            "PREFIX schema: <http://schema.org/>\n"
            "SELECT ?id ?p ?v WHERE {\n"
            f"  VALUES ?id {{ {values} }}\n"
            "  { ?id rdfs:label ?v BIND(\"label\" AS ?p) }\n"
            "  UNION { ?id skos:altLabel ?v BIND(\"alias\" AS ?p) }\n"
            "  UNION { ?id schema:description ?v BIND(\"description\" AS ?p) }\n"
            f"  FILTER(LANG(?v) = \"{lang}\")\n"
            "}")


def parse_wbgetentities(data: Mapping[str, Any], asked: Sequence[str], lang: str = "en") -> FetchResult:
    """Read a ``wbgetentities`` answer for the ids ``asked``.  A redirected id is named by
    its target's names; an id absent from the answer counts as missing."""
    entities = data.get("entities")
    if not isinstance(entities, dict):
        raise FetchError(f"not a wbgetentities answer: {str(data)[:200]}")
    found: dict[str, Symbol] = {}
    missing, no_english = [], []
    for key, ent in entities.items():
        if not isinstance(ent, dict):
            continue
        redirect = ent.get("redirects") if isinstance(ent.get("redirects"), dict) else {}
        names = [key, *([redirect["from"]] if isinstance(redirect.get("from"), str) else [])]
        if "missing" in ent:
            missing.extend(names)
            continue
        sym = entity_symbol(ent, lang)
        if isinstance(sym, str):
            no_english.extend(names)
            continue
        for n in names:
            found[n] = Symbol(n, sym.label, sym.kind, sym.aliases, sym.description)
    asked_set = set(asked)
    absent = [i for i in asked if i not in found and i not in missing and i not in no_english]
    return FetchResult(tuple(s for i, s in found.items() if i in asked_set),
                       tuple(i for i in dict.fromkeys(missing + absent) if i in asked_set),
                       tuple(i for i in dict.fromkeys(no_english) if i in asked_set))


def parse_sparql_results(data: Mapping[str, Any], asked: Sequence[str]) -> FetchResult:
    """Read the SPARQL JSON results of :func:`sparql_labels_query`; an id without any row
    has no English name there (or does not exist: a SPARQL endpoint does not tell)."""
    try:
        bindings = data["results"]["bindings"]
    except (KeyError, TypeError):
        raise FetchError(f"not SPARQL JSON results: {str(data)[:200]}") from None
    rows: dict[str, dict[str, list[str]]] = {}
    for b in bindings:
        try:
            iri, p, v = b["id"]["value"], b["p"]["value"], b["v"]["value"]
        except (KeyError, TypeError):
            continue
        sid = iri[len(_ENTITY):] if iri.startswith(_ENTITY) else iri
        vals = rows.setdefault(sid, {}).setdefault(p, [])
        if v not in vals:
            vals.append(v)
    symbols = []
    for sid in asked:
        r = rows.get(sid)
        if not r:
            continue
        ent = {"id": sid, "type": "property" if sid.startswith("P") else "item",
               "labels": {"x": {"value": (r.get("label") or [""])[0]}},
               "aliases": {"x": [{"value": a} for a in r.get("alias", [])]},
               "descriptions": {"x": {"value": (r.get("description") or [""])[0]}}}
        sym = entity_symbol(ent, "x")
        if isinstance(sym, Symbol):
            symbols.append(sym)
    got = {s.id for s in symbols}
    return FetchResult(tuple(symbols), (), tuple(i for i in asked if i not in got))


def _retry_after(headers: Any, now: float) -> float | None:
    """Seconds a ``Retry-After`` header asks to wait (a number or an HTTP date)."""
    v = headers.get("Retry-After") if headers is not None else None
    if not v:
        return None
    v = v.strip()
    if v.isdigit():
        return float(v)
    try:
        when = email.utils.parsedate_to_datetime(v)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - now)


class _Retry(Exception):
    def __init__(self, message: str, wait: float | None = None) -> None:
        super().__init__(message)
        self.wait = wait


class Fetcher:
    """Fetches names from one source (see the module documentation).  ``sleep`` and
    ``clock`` (seconds, monotonic) can be replaced, e.g. to record the waits."""

    def __init__(self, options: FetchOptions, *, sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if not options.api and not options.endpoint:
            raise ValueError("no label source configured ([labels] api or endpoint)")
        if options.batch < 1 or (options.api and options.batch > 50):
            raise ValueError("the batch size must be between 1 and 50 (the API's limit)")
        self.options = options
        self._sleep = sleep
        self._clock = clock
        self._lock = threading.Lock()
        self._next_slot = 0.0

    def __getstate__(self) -> dict[str, Any]:
        return {"options": self.options}

    def __setstate__(self, state: Mapping[str, Any]) -> None:
        self.__init__(state["options"])  # type: ignore[misc]

    def fetch(self, ids: Sequence[str], *, deadline: float | None = None,
              stats: FetchStats | None = None,
              on_batch: Callable[[FetchResult], None] | None = None) -> FetchResult:
        """Fetch ``ids`` in batches; ``deadline`` (on ``clock``) stops early, leaving the
        rest as failed; ``on_batch`` receives each batch's result as it comes."""
        st = stats if stats is not None else FetchStats()
        todo = list(dict.fromkeys(ids))
        symbols: list[Symbol] = []
        missing: list[str] = []
        no_english: list[str] = []
        failed: list[str] = []
        n = self.options.batch
        for i in range(0, len(todo), n):
            part = todo[i:i + n]
            if deadline is not None and self._clock() >= deadline:
                res = FetchResult(failed=tuple(part))
            else:
                try:
                    res = self._batch(part, deadline, st)
                except FetchError as e:
                    st.note(str(e))
                    log.warning("label fetch of %d id(s) failed: %s", len(part), e)
                    res = FetchResult(failed=tuple(part))
            symbols.extend(res.symbols)
            missing.extend(res.missing)
            no_english.extend(res.no_english)
            failed.extend(res.failed)
            if on_batch is not None:
                on_batch(res)
        return FetchResult(tuple(symbols), tuple(missing), tuple(no_english), tuple(failed))

    # -- one batch -----------------------------------------------------------------------------
    def _batch(self, ids: list[str], deadline: float | None, st: FetchStats) -> FetchResult:
        o = self.options
        if o.api:
            bad: list[str] = []
            while ids:
                params = {"action": "wbgetentities", "format": "json", "ids": "|".join(ids),
                          "props": "labels|aliases|descriptions", "languages": o.lang}
                if o.maxlag is not None:
                    params["maxlag"] = str(o.maxlag)
                sep = "&" if "?" in o.api else "?"
                data = self._json(urllib.request.Request(o.api + sep + urllib.parse.urlencode(params)),
                                  deadline, st)
                err = data.get("error") if isinstance(data, dict) else None
                if isinstance(err, dict) and err.get("code") == "no-such-entity" and err.get("id") in ids:
                    # a malformed or unknown id fails the whole request: drop it, ask again
                    bad.append(err["id"])
                    ids = [i for i in ids if i != err["id"]]
                    continue
                if isinstance(err, dict):
                    raise FetchError(f"API error {err.get('code')}: {str(err.get('info'))[:200]}")
                res = parse_wbgetentities(data, ids, o.lang)
                return FetchResult(res.symbols, res.missing + tuple(bad), res.no_english)
            return FetchResult(missing=tuple(bad))
        body = urllib.parse.urlencode({"query": sparql_labels_query(ids, o.lang)}).encode()
        req = urllib.request.Request(o.endpoint or "", data=body, method="POST", headers={
            "Content-Type": "application/x-www-form-urlencoded",
            "Accept": "application/sparql-results+json"})
        return parse_sparql_results(self._json(req, deadline, st), ids)

    def _json(self, req: urllib.request.Request, deadline: float | None, st: FetchStats) -> Any:
        """The JSON answer of ``req``, with rate limit, time-outs and retries."""
        o = self.options
        req.add_header("User-Agent", o.user_agent)
        attempt = 0
        while True:
            self._wait_turn()
            timeout = o.timeout
            if deadline is not None:
                timeout = min(timeout, deadline - self._clock())
                if timeout <= 0:
                    raise FetchError("the time allowed for fetching labels is spent")
            st.requests += 1
            try:
                return self._once(req, timeout)
            except _Retry as e:
                why, wait = str(e), e.wait
            attempt += 1
            if attempt > o.retries:
                raise FetchError(f"{why} (after {o.retries} retries)")
            delay = min(o.max_wait, wait if wait is not None else o.backoff * 2 ** (attempt - 1))
            if deadline is not None and self._clock() + delay >= deadline:
                raise FetchError(f"{why} (no time left to retry)")
            st.retries += 1
            log.info("label fetch: %s; retrying in %.1f s", why, delay)
            self._sleep(delay)

    def _once(self, req: urllib.request.Request, timeout: float) -> Any:
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                body = r.read()
                headers = r.headers
        except urllib.error.HTTPError as e:
            wait = _retry_after(e.headers, time.time())
            if e.code == 429 or 500 <= e.code < 600:
                raise _Retry(f"HTTP {e.code} from {req.full_url[:80]}", wait) from None
            raise FetchError(f"HTTP {e.code} from {req.full_url[:80]}: {e.reason}") from None
        except (OSError, http.client.HTTPException) as e:  # time-outs, refused or cut connections
            raise _Retry(f"{type(e).__name__}: {e}") from None
        try:
            data = json.loads(body)
        except ValueError:
            raise _Retry(f"an answer that is not JSON from {req.full_url[:80]}") from None
        err = data.get("error") if isinstance(data, dict) else None
        if isinstance(err, dict) and err.get("code") == "maxlag":
            raise _Retry("the API is lagged (maxlag)", _retry_after(headers, time.time()) or 5.0)
        return data

    def _wait_turn(self) -> None:
        """Space requests to at most ``rate`` per second."""
        rate = self.options.rate
        if rate <= 0:
            return
        with self._lock:
            now = self._clock()
            slot = max(now, self._next_slot)
            self._next_slot = slot + 1.0 / rate
        if slot > now:
            self._sleep(slot - now)
