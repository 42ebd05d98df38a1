"""The test session runs in a home folder of its own.

Nothing the developer set up by hand can change a result: the user configuration
(``~/.config/verifier/verifier.toml``, e.g. from ``verifier setup ace``), a WordNet table
rebuilt into ``~/.cache/sparql-verifier`` (it replaces the shipped one), label caches, and the
``VERIFIER_*`` configuration variables are hidden from every test and from the processes the
tests start.  A test that needs something brings it (a file in ``tmp_path``, a configuration
naming it) or skips with a reason.  ``VERIFIER_SHARED`` (where ``../shared`` is) is kept.

The shipped default stacking model is switched off for the suite (``VERIFIER_STACKING=none``,
set after the variables are hidden, so the tests and the processes they start see it): most
tests check deductive decisions and their fixed scores.  A configuration file that names a
model still wins (the variable only gives the default); ``tests/test_stacking_default.py``
removes the variable to test the shipped model.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

_KEEP = {"VERIFIER_SHARED"}

_home = tempfile.mkdtemp(prefix="verifier-tests-home-")
atexit.register(shutil.rmtree, _home, ignore_errors=True)
os.environ["HOME"] = _home
for _name in [n for n in os.environ if n.startswith("VERIFIER_") and n not in _KEEP]:
    del os.environ[_name]
for _name in ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"):
    os.environ.pop(_name, None)
os.environ["VERIFIER_STACKING"] = "none"
