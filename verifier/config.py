"""Configuration: ``verifier.toml`` plus environment variables.

Looked up in this order (later wins): built-in defaults, ``~/.config/verifier/verifier.toml``,
``./verifier.toml``, the file named by ``$VERIFIER_CONFIG``, then environment variables
(``VERIFIER_ACE``, ``VERIFIER_ERG``, ``VERIFIER_MRS_CACHE``, ``VERIFIER_LABELS``,
``VERIFIER_LABEL_STORE``); ``VERIFIER_STACKING`` gives ``[stacking] model`` when no file sets
it (``none`` switches the shipped default stacking model off).  Every
component reads its own section; unknown sections are kept so that extensions can add theirs.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

__all__ = ["Config", "load_config", "config_files", "PATH_KEYS", "NAME_OR_PATH_KEYS", "OFF_VALUES",
           "NAMED_VALUES", "env_default"]

#: Settings that hold file or folder paths: relative values are resolved against the folder
#: of the configuration file they come from.
PATH_KEYS = {
    "mrs": ("cache", "corpora"), "grounding": ("labels", "wordnet", "associations"), "axioms": ("dirs",),
    "ace": ("binary", "grammar"), "audit": ("store",),
    "stacking": ("model",), "pgmr": ("memory", "labels"), "hdm": ("model", "generator"),
    "kg": ("file",), "labels": ("store",), "rewrite": ("rules",), "deductive": ("confidence_model",),
}

#: Settings whose list may mix names and paths: only the values that look like files
#: (``.yaml`` / ``.yml``, or holding a ``/``) are resolved against the configuration's folder.
NAME_OR_PATH_KEYS = {"deductive": ("shapes",)}

_ENV = {
    "VERIFIER_ACE": ("ace", "binary"),
    "VERIFIER_ERG": ("ace", "grammar"),
    "VERIFIER_MRS_CACHE": ("mrs", "cache"),
    "VERIFIER_LABELS": ("grounding", "labels"),
    "VERIFIER_LABEL_STORE": ("labels", "store"),
}
#: Variables that give a setting only when no configuration file sets it.
_ENV_DEFAULTS = {
    "VERIFIER_STACKING": ("stacking", "model"),
    "VERIFIER_DEADLINE_CLOCK": ("limits", "deadline_clock"),
}


@dataclass(frozen=True)
class Config:
    """Parsed configuration: ``sections`` maps a section name to its settings."""

    sections: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    files: tuple[Path, ...] = ()

    def section(self, name: str) -> Mapping[str, Any]:
        """Settings of one section (empty when absent)."""
        return self.sections.get(name, {})

    def get(self, section: str, key: str, default: Any = None) -> Any:
        return self.sections.get(section, {}).get(key, default)

    def with_values(self, section: str, **values: Any) -> "Config":
        """A copy with some settings of ``section`` replaced (``None`` values are ignored)."""
        merged = {k: dict(v) for k, v in self.sections.items()}
        merged.setdefault(section, {}).update({k: v for k, v in values.items() if v is not None})
        return Config(merged, self.files)


def config_files(cwd: Path | None = None, environ: Mapping[str, str] | None = None) -> list[Path]:
    """Configuration files that exist, in the order they are applied."""
    env = os.environ if environ is None else environ
    cands = [Path.home() / ".config" / "verifier" / "verifier.toml",
             (cwd or Path.cwd()) / "verifier.toml"]
    if env.get("VERIFIER_CONFIG"):
        cands.append(Path(env["VERIFIER_CONFIG"]))
    return [p for p in cands if p.is_file()]


def load_config(path: str | Path | None = None, *, environ: Mapping[str, str] | None = None,
                cwd: Path | None = None) -> Config:
    """Load the configuration; ``path`` adds one more file on top of the usual ones.

    A malformed TOML file raises ``ValueError`` naming the file and the position.
    """
    env = os.environ if environ is None else environ
    files = config_files(cwd, env)
    if path is not None:
        files.append(Path(path))
    sections: dict[str, dict[str, Any]] = {}
    for f in files:
        try:
            data = tomllib.loads(f.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as e:
            raise ValueError(f"{f}: {e}") from None
        for name, values in data.items():
            if isinstance(values, dict):
                sections.setdefault(name, {}).update(_resolve_paths(name, values, f.parent))
    for var, (sec, key) in _ENV.items():
        if env.get(var):
            sections.setdefault(sec, {})[key] = env[var]
    for var, (sec, key) in _ENV_DEFAULTS.items():
        if env.get(var):
            sections.setdefault(sec, {}).setdefault(key, env[var])
    return Config(sections, tuple(files))


def env_default(section: str, key: str, environ: Mapping[str, str] | None = None) -> str | None:
    """The value the environment gives ``[section] key`` when no file sets it (the variable of
    ``_ENV_DEFAULTS``), for a configuration built in code that :func:`load_config` never read;
    None without one."""
    env = os.environ if environ is None else environ
    for var, where in _ENV_DEFAULTS.items():
        if where == (section, key) and env.get(var):
            return env[var]
    return None


#: Values of a path setting that turn the part off (``[grounding] wordnet = "none"``): kept as
#: they are, not resolved against the file's folder.
OFF_VALUES = frozenset({"none", "off", "false"})
#: Names a path setting may hold instead of a path (kept as they are): ``[stacking] model =
#: "default"`` is the shipped model.
NAMED_VALUES: Mapping[tuple[str, str], frozenset[str]] = {("stacking", "model"): frozenset({"default"})}


def _path_like(v: Any) -> bool:
    return isinstance(v, str) and (v.endswith((".yaml", ".yml")) or "/" in v)


def _resolve_paths(section: str, values: dict[str, Any], base: Path) -> dict[str, Any]:
    out = dict(values)
    for key in NAME_OR_PATH_KEYS.get(section, ()):
        v = out.get(key)
        items = [v] if isinstance(v, str) else v if isinstance(v, list) else []
        resolved = [str(base / x) if _path_like(x) and not Path(x).is_absolute() else x for x in items]
        if items:
            out[key] = resolved[0] if isinstance(v, str) else resolved
    for key in PATH_KEYS.get(section, ()):
        v = out.get(key)
        if isinstance(v, str) and v.strip().casefold() in OFF_VALUES | NAMED_VALUES.get((section, key), set()):
            continue
        if isinstance(v, str) and v:
            out[key] = str(base / v) if not Path(v).is_absolute() else v
        elif isinstance(v, list):
            out[key] = [str(base / x) if isinstance(x, str) and not Path(x).is_absolute() else x for x in v]
    return out
