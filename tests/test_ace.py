"""ACE process management against a stand-in executable (tests/fixtures/mrs/fake_ace.py)
that speaks ACE's line protocol with canned output: parsing, n-best, two passes, hangs,
crashes, restarts, the pool, configuration, the provider, and ``verifier setup ace``."""

from __future__ import annotations

import bz2
import io
import json
import os
import sys
import tarfile
import time
from pathlib import Path

import pytest

from parsers.ace import AceConfig, AceError, AceParserPool, LazyAce
from parsers.mrs import translate_readings
from verifier.cli import main
from verifier.config import load_config
from parsers.ace_grammar import grammar_info, read_header, write_grammar_info
from verifier.mrs_cache import MrsCache, MrsProvider, grammar_identity

FAKE = Path(__file__).parent / "fixtures" / "mrs" / "fake_ace.py"


@pytest.fixture
def fake_ace(tmp_path: Path) -> tuple[Path, Path]:
    exe = tmp_path / "ace"
    exe.write_text(f"#!{sys.executable}\n" + FAKE.read_text(encoding="utf-8"), encoding="utf-8")
    exe.chmod(0o755)
    grammar = tmp_path / "erg.dat"
    grammar.write_bytes(b"not really a grammar")
    return exe, grammar


def _config(fake_ace, **kw) -> AceConfig:
    exe, grammar = fake_ace
    opts = dict(timeout=1.0, grace=0.5, pool_size=1, n=3)
    opts.update(kw)
    return AceConfig(str(exe), str(grammar), **opts)


def test_parse_n_best_and_translate(fake_ace) -> None:
    with AceParserPool(_config(fake_ace)) as pool:
        r = pool.parse("Is there\tbenzene?")
        assert r.status == "ok" and r.roots == "strict" and len(r.readings) == 3
        assert r.error is None and r.seconds >= 0
        res = translate_readings(r.readings)
        assert all(x.ok for x in res)
        assert str(res[0].formula).startswith("exists e2 x3. _be_v_there(e2, x3) & _is_n_1(x3)")
        assert pool.parse("   ").status == "error"


def test_fallback_pass(fake_ace) -> None:
    with AceParserPool(_config(fake_ace)) as pool:
        r = pool.parse("FRAGONLY please")
        assert r.status == "ok" and r.roots == "fallback"
        r = pool.parse("NOPARSE at all")
        assert r.status == "no-parse" and r.roots == "fallback" and r.readings == ()
    with AceParserPool(_config(fake_ace, fallback=False)) as pool:
        r = pool.parse("FRAGONLY please")
        assert r.status == "no-parse" and r.roots == "strict"


def test_hang_is_killed_and_process_restarted(fake_ace) -> None:
    with AceParserPool(_config(fake_ace, fallback=False)) as pool:
        pid = pool._all[0].pid
        t0 = time.monotonic()
        r = pool.parse("HANG forever")
        assert r.status == "timeout" and "timeout" in r.error
        assert time.monotonic() - t0 < 30  # bounded (no exact timing asserted)
        assert pool.restarts == 1 and pool._all[0].pid != pid
        assert pool.parse("Is there a dog?").status == "ok"  # the new process works


def test_crash_is_reported_and_process_restarted(fake_ace) -> None:
    # a sentence that kills ACE is sent once more to a new process (retries = 1), then
    # reported; no fallback pass follows a lost process
    with AceParserPool(_config(fake_ace)) as pool:
        for _ in range(2):
            r = pool.parse("CRASH now")
            assert r.status == "crash" and "exited with code 3" in r.error
            assert "crashed on each of 2 tries" in r.error and r.roots == "strict"
        assert pool.restarts == 4 and len(pool.workers) == 1
        ok = pool.parse("Is there a cat?")
        assert ok.status == "ok" and len(ok.readings) == 3
    with AceParserPool(_config(fake_ace, fallback=False, retries=0)) as pool:
        r = pool.parse("CRASH now")
        assert r.status == "crash" and "tries" not in r.error and pool.restarts == 1


def test_last_words_said_before_the_sentence_reach_the_crash_message(fake_ace) -> None:
    # the process says why on standard error at once, while still alive, and dies only later:
    # its words must not be lost to the next sentence's bookkeeping (a race seen in CI)
    exe, grammar = fake_ace
    grammar.write_bytes(b"DIE AFTER 0.4")
    with AceParserPool(_config(fake_ace, fallback=False, timeout=5.0)) as pool:
        time.sleep(0.2)  # the words are read before the sentence is sent
        r = pool.parse("Is there a dog?")
    assert r.status == "crash" and "this grammar image went away" in r.error, r.error
    assert "exited with code 4" in r.error


def test_pool_spreads_a_batch_over_processes(fake_ace) -> None:
    with AceParserPool(_config(fake_ace, pool_size=2, n=1)) as pool:
        qs = [f"SLOW 0.2 question {i}" for i in range(6)]
        res = pool.parse_batch(qs)
        assert [r.question for r in res] == qs and all(r.status == "ok" for r in res)
        pids = {r.readings[0].split('CARG: "P')[1].split('"')[0] for r in res}
        assert len(pids) == 2  # both processes were used
        assert pool.parse_batch([]) == []


def test_memory_limit_is_applied(fake_ace) -> None:
    with AceParserPool(_config(fake_ace, memory_limit_mb=2048)) as pool:
        pid = pool._all[0].pid
        limits = Path(f"/proc/{pid}/limits")
        if not limits.exists():
            pytest.skip("no /proc")
        line = next(l for l in limits.read_text().splitlines() if l.startswith("Max address space"))
        assert str(2048 * 1024 * 1024) in line


def test_missing_binary_or_grammar(tmp_path: Path, fake_ace) -> None:
    exe, grammar = fake_ace
    with pytest.raises(AceError):
        AceParserPool(AceConfig(str(tmp_path / "no-ace"), str(grammar)))
    with pytest.raises(AceError):
        AceParserPool(AceConfig(str(exe), str(tmp_path / "no.dat")))
    lazy = LazyAce(AceConfig(str(tmp_path / "no-ace"), str(grammar)))
    r = lazy.parse("Is there a dog?")
    assert r.status == "error" and "not found" in r.error


def test_config_from_environment_and_toml(tmp_path: Path, fake_ace) -> None:
    exe, grammar = fake_ace
    assert AceConfig.from_config(load_config(environ={}, cwd=tmp_path)) is None
    cfg = load_config(environ={"VERIFIER_ACE": str(exe), "VERIFIER_ERG": str(grammar)}, cwd=tmp_path)
    ac = AceConfig.from_config(cfg)
    assert ac is not None and ac.binary == str(exe) and ac.timeout == 10.0 and ac.n == 5
    (tmp_path / "verifier.toml").write_text(
        f'[ace]\nbinary = "{exe}"\ngrammar = "{grammar}"\ntimeout = 3\npool_size = 2\nn = 1\n'
        'memory_limit_mb = 0\nfallback = false\n', encoding="utf-8")
    ac = AceConfig.from_config(load_config(environ={}, cwd=tmp_path))
    assert (ac.timeout, ac.pool_size, ac.n, ac.memory_limit_mb, ac.fallback) == (3.0, 2, 1, 0, False)
    assert ac.cmdargs(ac.roots)[:2] == ["-n", "1"] and "-r" in ac.cmdargs(ac.roots)
    (tmp_path / "verifier.toml").write_text(f'[ace]\nbinary = "{exe}"\ngrammar = "{grammar}"\ntimeout = "x"\n')
    with pytest.raises(ValueError):
        AceConfig.from_config(load_config(environ={}, cwd=tmp_path))


def test_provider_calls_ace_once_and_caches(fake_ace) -> None:
    lazy = LazyAce(_config(fake_ace))
    prov = MrsProvider(MrsCache(":memory:"), ace=lazy)
    a = prov.lookup("Is there a mouse?")
    assert a.status == "ok" and a.source == "ace" and len(a.readings) == 3
    b = prov.lookup("Is there   a mouse?")
    assert b.source == "cache" and b.readings == a.readings
    assert b.grammar.startswith("erg.dat:")
    prov.close()


def _archive(tmp_path: Path, fake_ace) -> tuple[str, str]:
    exe, _ = fake_ace
    tgz = tmp_path / "ace-0.9.34-x86-64.tar.gz"
    with tarfile.open(tgz, "w:gz") as tar:
        tar.add(exe, arcname="ace-0.9.34/ace")
        info = tarfile.TarInfo("ace-0.9.34/README")
        data = b"ACE"
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    erg = tmp_path / "erg-2018-x86-64-0.9.34.dat.bz2"
    erg.write_bytes(bz2.compress(b"grammar image"))
    return tgz.as_uri(), erg.as_uri()


def test_setup_ace_installs_from_urls(tmp_path: Path, fake_ace, monkeypatch, capsys) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for v in ("VERIFIER_ACE", "VERIFIER_ERG", "VERIFIER_CONFIG"):
        monkeypatch.delenv(v, raising=False)
    monkeypatch.chdir(tmp_path)
    ace_url, erg_url = _archive(tmp_path, fake_ace)
    dest = tmp_path / "install"
    rc = main(["setup", "ace", "--dest", str(dest), "--ace-url", ace_url, "--erg-url", erg_url,
               "--write-config"])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert (dest / "ace").is_file() and os.access(dest / "ace", os.X_OK)
    assert (dest / "erg-2018-x86-64-0.9.34.dat").read_bytes() == b"grammar image"
    assert "installed ACE version 0.9.34" in out
    assert "grammar identity: erg-2018-x86-64-0.9.34.dat:" in out and "family: erg" in out
    cfg = (tmp_path / "home" / ".config" / "verifier" / "verifier.toml").read_text()
    assert "[ace]" in cfg and str(dest / "ace") in cfg
    # the written configuration is picked up
    ac = AceConfig.from_config(load_config(environ={}, cwd=tmp_path))
    assert ac is not None and ac.grammar.endswith(".dat")
    # a second run finds the installation
    assert main(["setup", "ace", "--dest", str(dest), "--ace-url", ace_url, "--erg-url", erg_url]) == 0
    assert "already installed" in capsys.readouterr().out


def test_setup_ace_without_network_explains(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    rc = main(["setup", "ace", "--dest", str(tmp_path / "d"), "--ace-url", (tmp_path / "nope.tgz").as_uri(),
               "--erg-url", (tmp_path / "nope.dat.bz2").as_uri()])
    err = capsys.readouterr().err
    assert rc == 1
    assert "VERIFIER_ACE" in err and "VERIFIER_ERG" in err and "nope.tgz: no such file" in err
    # a network that does not answer (nothing listens on the loopback discard port)
    rc = main(["setup", "ace", "--dest", str(tmp_path / "d"), "--ace", "http://127.0.0.1:9/ace.tar.gz",
               "--erg", str(tmp_path / "nope.dat"), "--timeout", "5"])
    err = capsys.readouterr().err
    assert rc == 1 and "download failed" in err and "verifier setup ace --ace FILE --erg FILE" in err
    assert main(["setup", "ace", "--dry-run", "--dest", str(tmp_path / "d")]) == 0
    out = capsys.readouterr().out
    assert "erg-2025-x86-64-0.9.34.dat.bz2" in out and "as ace and erg-2025-x86-64-0.9.34.dat" in out
    assert main(["setup"]) == 2


_HEADER = b"frozen grammar file: ace |0.9.34| grammar |/src/erg;;ERG (2099)|" + b"\0" * 64


def _compress(data: bytes, kind: str) -> bytes:
    import gzip
    import lzma

    return {"xz": lzma.compress, "bz2": bz2.compress, "gz": gzip.compress, "plain": lambda d: d}[kind](data)


@pytest.mark.parametrize("kind", ["xz", "bz2", "gz", "plain"])
def test_setup_ace_installs_local_files(kind: str, tmp_path: Path, fake_ace, monkeypatch, capsys) -> None:
    """--ace / --erg take paths and file:// URLs of compressed or plain files (recognised by
    content); the grammar's identity and header version are recorded and printed."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    exe, _ = fake_ace
    suffix = "" if kind == "plain" else "." + kind
    ace_src = tmp_path / f"ace-bin{suffix}"
    ace_src.write_bytes(_compress(exe.read_bytes(), kind))
    image = _HEADER + os.urandom(2048)
    erg_src = tmp_path / f"my-grammar.dat{suffix}"
    erg_src.write_bytes(_compress(image, kind))
    dest = tmp_path / "install"
    erg_arg = erg_src.as_uri() if kind in ("xz", "gz") else str(erg_src)
    rc = main(["setup", "ace", "--ace", str(ace_src), "--erg", erg_arg, "--dest", str(dest), "--json"])
    cap = capsys.readouterr()
    assert rc == 0, cap.err
    res = json.loads(cap.out)
    assert (dest / "ace").read_bytes() == exe.read_bytes() and os.access(dest / "ace", os.X_OK)
    assert res["grammar"] == str(dest / "my-grammar.dat")
    assert (dest / "my-grammar.dat").read_bytes() == image
    assert res["grammar_version"] == "ERG (2099)" and res["family"] == "erg"
    assert res["identity"] == grammar_identity(dest / "my-grammar.dat")
    assert res["ace_version"] == "ACE version 0.9.34"
    # the record beside the image answers grammar_info without reading the image again
    rec = json.loads(Path(res["record"]).read_text())
    assert rec["sha256"] == res["sha256"] and rec["version"] == "ERG (2099)"
    assert grammar_info(dest / "my-grammar.dat").version == "ERG (2099)"


def test_setup_ace_refuses_an_image_of_another_ace(tmp_path: Path, fake_ace, monkeypatch, capsys) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    exe, _ = fake_ace
    old = tmp_path / "erg-old.dat"
    old.write_bytes(_HEADER.replace(b"0.9.34", b"0.9.30"))
    rc = main(["setup", "ace", "--ace", str(exe), "--erg", str(old), "--dest", str(tmp_path / "d")])
    err = capsys.readouterr().err
    assert rc == 1 and "compiled for ACE 0.9.30" in err


def test_grammar_records_follow_the_file(tmp_path: Path) -> None:
    g = tmp_path / "erg.dat"
    g.write_bytes(_HEADER + b"x" * 100)
    info = grammar_info(g)
    assert (info.version, info.ace_version, info.family) == ("ERG (2099)", "0.9.34", "erg")
    write_grammar_info(info)
    assert grammar_info(g) == info
    g.write_bytes(_HEADER + b"y" * 101)  # another image under the same name
    assert grammar_info(g).identity != info.identity
    assert read_header(tmp_path / "erg.dat")[1] == "ERG (2099)"
    (tmp_path / "plain.dat").write_bytes(b"no header")
    assert read_header(tmp_path / "plain.dat") == (None, None)
