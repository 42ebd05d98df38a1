"""Structure of the packages ``verifier`` and ``parsers``: no import cycles, no private names
imported across modules, front ends above the IR layer only, no module over 800 lines.

The checks read the source with :mod:`ast` (nothing is imported).  Every ``import`` counts,
wherever it is: at the top of a module, inside a function (a lazy import), or under
``if TYPE_CHECKING:``.  A lazy import does not remove a dependency, it only hides it.

The rules (``docs/architecture.md``, "Layers and imports"):

* **no cycle**: the module import graph is acyclic.  A package's ``__init__`` importing its
  own submodules to re-export their names is not a dependency of the package on itself:
  those edges are left out, and ``from package import name`` counts as an import of the
  submodule the package re-exports ``name`` from;
* **no private import**: ``from m import _x`` (a single leading underscore, ``_x`` not a
  module) is not allowed across modules; what two modules share is public and documented;
* **layers**: a module of ``parsers/`` (the front ends) imports from ``verifier/`` only the
  IR layer, :data:`IR_LAYER`; the IR layer imports nothing from ``parsers/`` and nothing
  from ``verifier/`` outside itself;
* **size**: every module has at most :data:`MAX_LINES` lines.

The deductive core is being restructured (issue 58); :data:`ALLOWED_CYCLES`,
:data:`ALLOWED_PRIVATE` and :data:`ALLOWED_LONG` list what it still does against the rules
(and :data:`ALLOWED_LAYER` one import of the label index, outside the core).
The lists only shrink: an entry that no longer occurs fails :func:`test_allow_lists_are_not_stale`
until it is removed.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("verifier", "parsers")
MAX_LINES = 800

#: What a front end (``parsers/``) may import from ``verifier/``: the logic IR and its helpers.
IR_LAYER = frozenset({
    "verifier.logic",        # the IR: terms, formulas, their printed form
    "verifier.normal_form",  # canonical and order-normal forms of formulas
    "verifier.notation",     # the parser of the text notation
    "verifier.query",        # a SPARQL query as IR (pattern plus solution modifiers)
    "verifier.namespaces",   # IRI prefixes
    "verifier.resources",    # shipped data files (grammars)
    "verifier.datafiles",    # reading rule files: the line-recording YAML loader, file issues
    "verifier.lexical",      # English word forms (stems, base forms, stop words)
    "verifier.vocabulary",   # the English word lists as data (axioms/words), which lexical reads
    "verifier.identity",     # an object as a cache key by identity (the memos of formulas)
})

# ---- the deductive core under restructuring (issue 58): to be emptied by that work --------
#: Import cycles still present, each as the set of its modules.
ALLOWED_CYCLES: tuple[frozenset[str], ...] = ()
#: Private names still imported across modules, as ``importer <- module.name``.
ALLOWED_PRIVATE = frozenset({
})
#: Imports across the layers still present, as ``importer -> target``.
ALLOWED_LAYER = frozenset({
    # LabelIndex.from_labels_tsv / .cached (the KG label index, read by grounding) read
    # labels.tsv with the PGMR loader; the word forms that front ends use need neither
    "verifier.lexical -> verifier.pgmr.loaders",
})
#: Modules still over MAX_LINES (paths relative to the repository root).
ALLOWED_LONG = frozenset({
})


# --------------------------------------------------------------------------------------------
# The scanner
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Import:
    """One imported thing: ``target`` is a module of the scanned packages; ``name`` the name
    taken from it when that name is not itself a module (``None`` otherwise)."""

    importer: str
    target: str
    name: str | None
    line: int


@dataclass(frozen=True)
class Scan:
    """Modules (dotted name -> file) and every import among them."""

    root: Path
    modules: Mapping[str, Path]
    imports: tuple[Import, ...]

    def is_package(self, module: str) -> bool:
        return self.modules[module].name == "__init__.py"


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _project_module(dotted: str, modules: Mapping[str, Path]) -> str | None:
    """The longest prefix of ``dotted`` that is a scanned module (``None``: not ours)."""
    while dotted:
        if dotted in modules:
            return dotted
        dotted = dotted.rpartition(".")[0]
    return None


def _raw_imports(tree: ast.AST, module: str, is_package: bool) -> Iterable[tuple[str, str | None, int]]:
    """``(module, name or None, line)`` of every import statement anywhere in the tree."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, None, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                if node.level > 1:
                    up = up[: len(up) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            for alias in node.names:
                yield base, alias.name, node.lineno


def scan(root: Path, packages: Iterable[str] = PACKAGES) -> Scan:
    """Read every module of ``packages`` under ``root`` and resolve its imports.

    ``from m import n`` is an import of module ``m.n`` when that is a module, else of name
    ``n`` of ``m``; when ``m`` is a package whose ``__init__`` re-exports ``n`` from one of
    its submodules, the import is resolved to that submodule (following re-exports of
    re-exports).
    """
    files = [f for p in packages if (root / p).is_dir() for f in sorted((root / p).rglob("*.py"))]
    modules = {_module_name(f, root): f for f in files}
    trees = {m: ast.parse(f.read_text(encoding="utf-8"), str(f)) for m, f in modules.items()}
    raw = {m: list(_raw_imports(t, m, modules[m].name == "__init__.py")) for m, t in trees.items()}

    # names a package takes from its own submodules: package -> {name: submodule}
    reexports: dict[str, dict[str, str]] = {}
    for m, items in raw.items():
        if modules[m].name != "__init__.py":
            continue
        for mod, name, _ in items:
            src = _project_module(mod, modules)
            if name is not None and src is not None and src.startswith(m + "."):
                reexports.setdefault(m, {})[name] = src

    def resolve(mod: str, name: str | None) -> tuple[str, str | None] | None:
        if name is not None and f"{mod}.{name}" in modules:
            return f"{mod}.{name}", None
        target = _project_module(mod, modules)
        if target is None:
            return None
        seen = set()
        while name is not None and name in reexports.get(target, {}) and target not in seen:
            seen.add(target)
            target = reexports[target][name]
        return target, name

    imports = []
    for m, items in raw.items():
        for mod, name, line in items:
            r = resolve(mod, name)
            if r is not None and r[0] != m:
                imports.append(Import(m, r[0], r[1], line))
    return Scan(root, modules, tuple(imports))


def import_graph(s: Scan) -> dict[str, set[str]]:
    """Module -> modules it imports, without a package's imports of its own submodules."""
    graph: dict[str, set[str]] = {m: set() for m in s.modules}
    for imp in s.imports:
        if s.is_package(imp.importer) and imp.target.startswith(imp.importer + "."):
            continue  # a re-export
        graph[imp.importer].add(imp.target)
    return graph


def cycles(graph: Mapping[str, Iterable[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[v] = min(low[v], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.add(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.append(frozenset(comp))
    return found


def private_imports(s: Scan) -> set[str]:
    """``importer <- module.name`` for every private name imported from another module."""
    return {f"{i.importer} <- {i.target}.{i.name}" for i in s.imports
            if i.name and i.name.startswith("_") and not i.name.startswith("__")}


def layer_violations(s: Scan, front: str = "parsers", core: str = "verifier",
                     allowed: frozenset[str] = IR_LAYER) -> set[str]:
    """Imports breaking the layers, as ``importer -> target``: a front-end module importing a
    ``core`` module outside ``allowed``; an ``allowed`` module importing a front-end module or
    a ``core`` module outside ``allowed`` (the layer is closed, so what a front end reaches
    through it is in it too)."""
    def inside(module: str, package: str) -> bool:
        return module == package or module.startswith(package + ".")

    bad = set()
    for i in s.imports:
        if inside(i.importer, front) and inside(i.target, core) and i.target not in allowed:
            bad.add(f"{i.importer} -> {i.target}")
        if i.importer in allowed and (inside(i.target, front)
                                      or inside(i.target, core) and i.target not in allowed):
            bad.add(f"{i.importer} -> {i.target}")
    return bad


def long_modules(s: Scan, limit: int = MAX_LINES) -> dict[str, int]:
    """Path (relative to the root, ``/``-separated) -> line count, for modules over ``limit``."""
    out = {}
    for f in s.modules.values():
        n = len(f.read_text(encoding="utf-8").splitlines())
        if n > limit:
            out[f.relative_to(s.root).as_posix()] = n
    return out


# --------------------------------------------------------------------------------------------
# The scanner on small synthetic packages
# --------------------------------------------------------------------------------------------


def _write(root: Path, files: Mapping[str, str]) -> Path:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return root


def test_scanner_finds_a_cycle_through_a_lazy_import(tmp_path):
    root = _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "import pkg.b\n",
        "pkg/b.py": "def f():\n    from pkg.a import g\n    return g\n",
        "pkg/c.py": "from pkg import a\n",
    })
    assert cycles(import_graph(scan(root, ["pkg"]))) == [frozenset({"pkg.a", "pkg.b"})]


def test_scanner_counts_type_checking_imports(tmp_path):
    root = _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/c.py": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                     "    from pkg.d import D\n"),
        "pkg/d.py": "from pkg.c import C\n",
    })
    assert cycles(import_graph(scan(root, ["pkg"]))) == [frozenset({"pkg.c", "pkg.d"})]


def test_a_reexport_is_not_a_cycle_but_a_detour_through_it_is(tmp_path):
    files = {
        "pkg/__init__.py": "from pkg.e import E\nfrom pkg.f import F\n",
        "pkg/e.py": "from pkg.f import F\nE = 1\n",
        "pkg/f.py": "F = 2\n",
        "other/__init__.py": "",
        "other/g.py": "from pkg import E\nimport pkg\n",
    }
    s = scan(_write(tmp_path, files), ["pkg", "other"])
    assert cycles(import_graph(s)) == []
    # the name imported from the package counts as an import of the module defining it
    assert Import("other.g", "pkg.e", "E", 1) in s.imports
    # a sibling reaching a name through the package is a real cycle: f -> e -> f
    _write(tmp_path, {"pkg/f.py": "def f():\n    from pkg import E\n    return E\nF = 2\n"})
    assert cycles(import_graph(scan(tmp_path, ["pkg", "other"]))) == [frozenset({"pkg.e", "pkg.f"})]


def test_scanner_finds_private_imports_but_not_modules_or_dunders(tmp_path):
    root = _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/_impl.py": "X = 1\n",
        "pkg/h.py": "def _x():\n    return 1\n__version__ = '1'\n",
        "pkg/i.py": ("from pkg import _impl\nfrom pkg.h import __version__\n"
                     "def f():\n    from .h import _x\n    return _x\n"),
    })
    assert private_imports(scan(root, ["pkg"])) == {"pkg.i <- pkg.h._x"}


def test_scanner_finds_layer_violations_and_long_modules(tmp_path):
    root = _write(tmp_path, {
        "core/__init__.py": "",
        "core/ir.py": "def f():\n    import front.p\n    from core import helper\n",
        "core/helper.py": "",
        "core/engine.py": "from core.ir import f\n" + "x = 1\n" * 20,
        "front/__init__.py": "",
        "front/p.py": "from core.ir import f\nfrom core import engine\n",
    })
    s = scan(root, ["core", "front"])
    assert layer_violations(s, "front", "core", frozenset({"core.ir"})) == {
        "front.p -> core.engine", "core.ir -> front.p", "core.ir -> core.helper"}
    assert long_modules(s, 20) == {"core/engine.py": 21}


# --------------------------------------------------------------------------------------------
# The rules on this repository
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def repo() -> Scan:
    return scan(ROOT)


def test_no_import_cycles(repo):
    found = cycles(import_graph(repo))
    bad = [sorted(c) for c in found if not any(c <= allowed for allowed in ALLOWED_CYCLES)]
    assert not bad, f"import cycles: {bad}"


def test_no_private_names_imported_across_modules(repo):
    bad = private_imports(repo) - ALLOWED_PRIVATE
    assert not bad, f"private names imported across modules: {sorted(bad)}"


def test_front_ends_import_only_the_ir_layer(repo):
    bad = layer_violations(repo) - ALLOWED_LAYER
    assert not bad, f"imports across the layers: {sorted(bad)}"


def test_ir_layer_modules_exist(repo):
    assert IR_LAYER <= set(repo.modules)


def test_modules_are_at_most_800_lines(repo):
    bad = {p: n for p, n in long_modules(repo).items() if p not in ALLOWED_LONG}
    assert not bad, f"modules over {MAX_LINES} lines: {bad}"


def test_allow_lists_are_not_stale(repo):
    found = cycles(import_graph(repo))
    stale = [sorted(c) for c in ALLOWED_CYCLES if not any(f <= c for f in found)]
    stale += sorted(ALLOWED_PRIVATE - private_imports(repo))
    stale += sorted(ALLOWED_LAYER - layer_violations(repo))
    stale += sorted(ALLOWED_LONG - set(long_modules(repo)))
    assert not stale, f"fixed, remove from the allow-lists of tests/test_structure.py: {stale}"
