"""A local stand-in for the Wikidata API and query service (no tests here).

:class:`LabelServer` listens on 127.0.0.1 (a free port, one thread per request) and answers

* ``GET /w/api.php?action=wbgetentities&ids=...`` as Wikidata does (``{"entities": ...}``,
  ``{"id": ..., "missing": ""}`` for unknown ids, the ``no-such-entity`` error for a
  malformed id), from the hand-written recorded answers in ``fixtures/labels/`` plus any
  entities added in the same JSON shape;
* ``POST /sparql`` (``query=`` with a ``VALUES ?id { wd:... }`` block) with SPARQL JSON
  results (``sparql_results.json`` rows, and rows made from the added entities).

``faults`` is a queue applied to the next requests, one each: ``{"status": 429,
"retry_after": "1"}``, ``{"status": 500}``, ``{"sleep": 2.0}`` (answer late: a client
time-out), ``{"json": "maxlag.json", "retry_after": "2"}``.  ``requests`` records every
request (path, ids, User-Agent).  Used by the label tests and ``bench/labels_import.py``.
"""

from __future__ import annotations

import copy
import json
import re
import threading
import time
import urllib.parse
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "labels"
_VALUES = re.compile(r"VALUES\s+\?id\s*\{([^}]*)\}")


def entity_json(sid: str, label: str, aliases: list[str] = (), description: str = "",
                lang: str = "en") -> dict[str, Any]:
    """An entity in the ``wbgetentities`` / dump JSON shape."""
    def mono(v: str) -> dict:
        return {"language": lang, "value": v}
    return {"type": "property" if sid.startswith("P") else "item", "id": sid,
            "labels": {lang: mono(label)} if label else {},
            "descriptions": {lang: mono(description)} if description else {},
            "aliases": {lang: [mono(a) for a in aliases]} if aliases else {}}


def entities_from_tsv(path: str | Path) -> dict[str, dict]:
    """The rows of a labels TSV as entities (as the API would serve them)."""
    out = {}
    for i, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines()):
        parts = line.split("\t")
        if i == 0 and parts[0] == "id" or len(parts) < 2:
            continue
        parts += [""] * (4 - len(parts))
        out[parts[0]] = entity_json(parts[0], parts[1], [a for a in parts[2].split("|") if a], parts[3])
    return out


class LabelServer:
    """See the module documentation.  Use as a context manager."""

    def __init__(self) -> None:
        recorded = json.loads((FIXTURES / "wbgetentities.json").read_text(encoding="utf-8"))["entities"]
        self.entities: dict[str, dict] = {}
        self.redirects: dict[str, str] = {}
        self.known_missing: set[str] = set()
        for key, ent in recorded.items():
            if "missing" in ent:
                self.known_missing.add(key)
                continue
            self.entities[key] = ent
            if isinstance(ent.get("redirects"), dict):
                self.redirects[ent["redirects"]["from"]] = key
        self.sparql_rows = json.loads((FIXTURES / "sparql_results.json").read_text(encoding="utf-8"))["results"]["bindings"]
        self.invalid = {"Q0"}
        self.faults: deque[dict] = deque()
        self.requests: list[dict] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    # -- life ----------------------------------------------------------------------------------
    def __enter__(self) -> "LabelServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    @property
    def api(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/w/api.php"

    @property
    def sparql(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/sparql"

    def add(self, entities: dict[str, dict]) -> None:
        """Serve these entities too (``wbgetentities`` JSON shape)."""
        self.entities.update(entities)

    # -- answers -------------------------------------------------------------------------------
    def _api_answer(self, ids: list[str]) -> dict:
        bad = next((i for i in ids if i in self.invalid), None)
        if bad is not None:
            err = json.loads((FIXTURES / "no_such_entity.json").read_text(encoding="utf-8"))
            err["error"]["id"] = bad
            return err
        out: dict[str, Any] = {}
        for i in ids:
            if i in self.redirects:
                out[self.redirects[i]] = self.entities[self.redirects[i]]
            elif i in self.entities:
                ent = copy.deepcopy(self.entities[i])
                ent.pop("redirects", None)
                out[i] = ent
            else:
                out[i] = {"id": i, "missing": ""}
        return {"entities": out, "success": 1}

    def _sparql_answer(self, ids: list[str]) -> dict:
        want = set(ids)
        rows = [r for r in self.sparql_rows if r["id"]["value"].rsplit("/", 1)[-1] in want]
        recorded = {r["id"]["value"].rsplit("/", 1)[-1] for r in rows}

        def row(sid: str, p: str, v: str) -> dict:
            return {"id": {"type": "uri", "value": f"http://www.wikidata.org/entity/{sid}"},
                    "p": {"type": "literal", "value": p},
                    "v": {"xml:lang": "en", "type": "literal", "value": v}}
        for sid in ids:
            ent = self.entities.get(sid)
            if sid in recorded or ent is None:
                continue
            for p, field in (("label", "labels"), ("description", "descriptions")):
                v = (ent.get(field) or {}).get("en")
                if v:
                    rows.append(row(sid, p, v["value"]))
            for a in (ent.get("aliases") or {}).get("en", []):
                rows.append(row(sid, "alias", a["value"]))
        return {"head": {"vars": ["id", "p", "v"]}, "results": {"bindings": rows}}

    def _handler(self) -> type:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def _reply(self, status: int, body: dict | None, headers: dict | None = None) -> None:
                data = json.dumps(body).encode() if body is not None else b"server error"
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json; charset=utf-8")
                    self.send_header("Content-Length", str(len(data)))
                    for k, v in (headers or {}).items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (time-out)
                    pass

            def _serve(self, ids: list[str], answer: Any) -> None:
                with server._lock:
                    server.requests.append({"path": self.path.split("?")[0], "ids": ids, "time": time.monotonic(),
                                            "user_agent": self.headers.get("User-Agent", "")})
                    fault = server.faults.popleft() if server.faults else None
                if fault:
                    if "sleep" in fault:
                        time.sleep(fault["sleep"])
                    elif "json" in fault:
                        body = json.loads((FIXTURES / fault["json"]).read_text(encoding="utf-8"))
                        return self._reply(200, body, {"Retry-After": fault.get("retry_after", "1")})
                    else:
                        hdr = {"Retry-After": fault["retry_after"]} if "retry_after" in fault else {}
                        return self._reply(fault["status"], None, hdr)
                self._reply(200, answer(ids))

            def do_GET(self) -> None:
                q = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
                if not self.path.startswith("/w/api.php") or q.get("action") != ["wbgetentities"]:
                    return self._reply(404, {"error": "not found"})
                self._serve(q.get("ids", [""])[0].split("|"), server._api_answer)

            def do_POST(self) -> None:
                n = int(self.headers.get("Content-Length", "0"))
                form = urllib.parse.parse_qs(self.rfile.read(n).decode())
                m = _VALUES.search(form.get("query", [""])[0])
                if not self.path.startswith("/sparql") or not m:
                    return self._reply(400, {"error": "bad query"})
                ids = [t.split(":", 1)[1] for t in m.group(1).split() if ":" in t]
                self._serve(ids, server._sparql_answer)

        return Handler
