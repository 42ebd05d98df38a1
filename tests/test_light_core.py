"""The light core: without the optional extras (torch, transformers, tokenizers,
sentence-transformers, FAISS, pyoxigraph, Ray) the deductive path, PGMR with the weight-free
encoder, stacking, audits and reports work, and nothing imports torch; asking for a learned
signal gives one message naming the extra, exit code 2, no traceback.

Each check runs in a fresh interpreter whose ``sitecustomize`` (in a temporary folder put
first on ``PYTHONPATH``) makes importing the optional packages fail, as on a core install.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHEM = ROOT / "examples" / "chemistry"
BLOCKED = ("torch", "transformers", "tokenizers", "sentence_transformers", "faiss",
           "pyoxigraph", "ray")
INSTALL = "pip install 'sparql-verifier[learned]'"

_SITECUSTOMIZE = f"""
import sys

class _CoreOnly:
    '''Import hook: the optional extras are not installed.'''
    blocked = {BLOCKED!r}

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in self.blocked:
            raise ImportError(f"No module named {{name!r}} (blocked: core-only test)")
        return None

sys.meta_path.insert(0, _CoreOnly())
"""


@pytest.fixture(scope="module")
def core_env(tmp_path_factory) -> dict[str, str]:
    import os

    site = tmp_path_factory.mktemp("core-site")
    (site / "sitecustomize.py").write_text(_SITECUSTOMIZE)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(ROOT)])
    env["HOME"] = str(tmp_path_factory.mktemp("home"))
    env.pop("XDG_CACHE_HOME", None)
    return env


def _run(env: dict[str, str], code: str, *args: str, cwd: Path | None = None,
         timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], env=env,
                          cwd=cwd or ROOT, capture_output=True, text=True, timeout=timeout)


def test_the_blocker_blocks(core_env):
    r = _run(core_env, "import torch")
    assert r.returncode != 0 and "blocked: core-only test" in r.stderr


_CORE = """
import io, json, sys, contextlib
from pathlib import Path

tmp, chem = Path(sys.argv[1]), Path(sys.argv[2])
out = {}
import verifier.api, verifier.audit, verifier.stacking, verifier.pgmr, verifier.cli
from verifier import verify
from verifier.cli import main

# the deductive path on the example's cached MRS and labels
v = verify("What is the mass of benzene?", "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v }",
           config=str(chem / "verifier.toml"))
w = verify("What is the mass of benzene?", "SELECT ?v WHERE { ?v wdt:P2067 wd:Q2270 }",
           config=str(chem / "verifier.toml"))
out["verdicts"] = [v.verdict, w.verdict, v.decision, w.decision]

# PGMR with the weight-free encoder: build, save, load, search (exact search in NumPy)
from verifier.pgmr import HashedNgramEncoder, Memory, faiss_available
mem = Memory.from_labels_tsv(chem / "kg-labels.tsv", HashedNgramEncoder())
mem.save(tmp / "mem")
back = Memory.load(tmp / "mem")
out["faiss"] = faiss_available()
out["search"] = [c.id for c in back.search(["benzen"], kind="item", k=3)[0]]

# 'verifier check --help' and 'verifier check' on one pair
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    out["help_rc"] = main(["check", "--help"])
out["help"] = buf.getvalue()[:200]
buf = io.StringIO()
with contextlib.redirect_stdout(buf):
    out["check_rc"] = main(["check", "--config", str(chem / "verifier.toml"), "--json",
                            "What is the mass of benzene?", "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v }"])
out["check"] = json.loads(buf.getvalue())["decision"]

# stacking: train on the labelled pairs (deductive, PGMR, execution on the KG), then verify
cfg = tmp / "stack.toml"
cfg.write_text(f'[mrs]\\ncorpora = ["{chem / "mrs.jsonl.gz"}"]\\n'
               f'[grounding]\\nlabels = "{chem / "kg-labels.tsv"}"\\n'
               f'[pgmr]\\nlabels = "{chem / "kg-labels.tsv"}"\\nmemory = "{tmp / "mem"}"\\n'
               f'[kg]\\nfile = "{chem / "kg.ttl"}"\\n')
with contextlib.redirect_stdout(io.StringIO()):
    out["train_rc"] = main(["train", "stack", "--train", str(chem / "labelled.jsonl"),
                            "--config", str(cfg), "--compute", "--folds", "3",
                            "--out", str(tmp / "model.json")])
cfg.write_text(cfg.read_text() + f'[stacking]\\nmodel = "{tmp / "model.json"}"\\n')
s = verify("What is the mass of benzene?", "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v }",
           config=str(cfg))
out["stacked"] = sorted(s.signals)

# an audit of a few lines with its HTML and Markdown reports
lines = (chem / "querylog.jsonl").read_text().splitlines()[:6]
(tmp / "log.jsonl").write_text("\\n".join(lines) + "\\n")
with contextlib.redirect_stdout(io.StringIO()):
    out["audit_rc"] = main(["audit", str(tmp / "log.jsonl"), "--config", str(chem / "verifier.toml"),
                            "--workers", "1", "--report", str(tmp / "r.html"), "--no-progress",
                            "--quiet"])
    out["md_rc"] = main(["audit", "report", str(tmp / "log.jsonl"), "--report", str(tmp / "r.md")])
out["html"] = (tmp / "r.html").stat().st_size
out["md"] = (tmp / "r.md").read_text()[:300]
# verifier doctor: the deductive path works, the learned extra is reported missing
from verifier.doctor import run_checks
rep = run_checks(chem / "verifier.toml")
out["doctor"] = {r.name: [r.status, r.fix] for r in rep.results}
out["doctor_rc"] = rep.exit_code
out["modules"] = sorted(m for m in sys.modules if m.split(".")[0] in {blocked})
print(json.dumps(out))
""".replace("{blocked}", repr(set(BLOCKED)))


@pytest.fixture(scope="module")
def core_run(core_env, tmp_path_factory) -> tuple[Path, dict]:
    tmp = tmp_path_factory.mktemp("core")
    r = _run(core_env, _CORE, str(tmp), str(CHEM))
    assert r.returncode == 0, r.stderr[-3000:]
    return tmp, json.loads(r.stdout.strip().splitlines()[-1])


def test_core_works_without_the_extras_and_never_imports_torch(core_run):
    _, out = core_run
    assert out["modules"] == []                       # no torch, transformers, faiss ...
    assert out["faiss"] is False
    assert out["verdicts"] == ["faithful", "unsupported", "accept", "reject"]
    assert out["search"][0] == "Q2270"                # "benzen" -> benzene
    assert out["help_rc"] == 0 and "usage: verifier check" in out["help"]
    assert out["check_rc"] == 0 and out["check"] == "accept"
    assert out["train_rc"] == 0
    assert {"deductive", "pgmr", "execution", "stacked"} <= set(out["stacked"])
    assert out["audit_rc"] in (0, 1) and out["md_rc"] == 0
    assert out["html"] > 10_000 and out["md"].startswith("#")
    assert out["doctor_rc"] == 0 and out["doctor"]["deductive"][0] == "ok"
    assert out["doctor"]["learned"] == ["missing", INSTALL]
    assert out["doctor"]["faiss"] == ["missing", "pip install 'sparql-verifier[faiss]'"]


def _cli(env: dict[str, str], *argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return _run(env, "import sys\nfrom verifier.cli import main\nsys.exit(main(sys.argv[1:]))",
                *argv, cwd=cwd)


def _assert_needs_learned(r: subprocess.CompletedProcess) -> None:
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    assert INSTALL in r.stderr and "Traceback" not in r.stderr
    assert len([l for l in r.stderr.splitlines() if INSTALL in l]) == 1, r.stderr


def test_learned_commands_name_the_extra(core_env, tmp_path):
    data = tmp_path / "pairs.jsonl"
    data.write_text('{"question": "q", "target": "t"}\n')
    _assert_needs_learned(_cli(core_env, "train", "generator", "--train", str(data),
                               "--dev", str(data), "--out", str(tmp_path / "g")))
    _assert_needs_learned(_cli(core_env, "train", "hdm", "--model", str(tmp_path),
                               "--train", str(data), "--dev", str(data),
                               "--out", str(tmp_path / "d")))
    _assert_needs_learned(_cli(core_env, "generate", "--model", str(tmp_path),
                               "--out", str(tmp_path / "o.jsonl"), str(data)))
    _assert_needs_learned(_cli(core_env, "pgmr", "build", "--labels", str(CHEM / "kg-labels.tsv"),
                               "--encoder", "st:BAAI/bge-small-en-v1.5",
                               "--out", str(tmp_path / "m")))


def test_a_configured_hdm_model_names_the_extra(core_env, core_run, tmp_path):
    """A stacking model with ``[hdm] model`` configured: 'verifier check' and 'verifier
    audit' stop with the message instead of leaving HDM out silently."""
    model = core_run[0] / "model.json"
    (tmp_path / "det").mkdir()
    cfg = tmp_path / "hdm.toml"
    cfg.write_text(f'[mrs]\ncorpora = ["{CHEM / "mrs.jsonl.gz"}"]\n'
                   f'[grounding]\nlabels = "{CHEM / "kg-labels.tsv"}"\n'
                   f'[stacking]\nmodel = "{model}"\n'
                   f'[hdm]\nmodel = "{tmp_path / "det"}"\ngenerator = "{tmp_path}"\n')
    _assert_needs_learned(_cli(core_env, "check", "--config", str(cfg),
                               "What is the mass of benzene?",
                               "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v }"))
    log = tmp_path / "log.jsonl"
    log.write_text((CHEM / "querylog.jsonl").read_text().splitlines()[0] + "\n")
    _assert_needs_learned(_cli(core_env, "audit", str(log), "--config", str(cfg),
                               "--workers", "1", "--no-progress", "--quiet"))
