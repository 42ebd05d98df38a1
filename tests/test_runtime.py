"""verifier.runtime: what loading leaves for the garbage collector."""

from __future__ import annotations

import gc
import weakref

import pytest

from verifier.config import Config
from verifier.runtime import freeze_setting, settle


class _Node:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only the cyclic collector frees it


def test_settle_frees_the_garbage_of_loading_and_freezes_the_rest():
    garbage = _Node()
    gone = weakref.ref(garbage)
    del garbage
    kept = [_Node() for _ in range(100)]
    before = gc.get_freeze_count()
    frozen = settle()
    assert gone() is None  # collected before freezing, not kept forever
    assert frozen == gc.get_freeze_count() >= before + len(kept)
    # frozen objects are no longer in any generation the collector walks
    assert not any(o is kept[0] for o in gc.get_objects())


@pytest.mark.parametrize("value,expected", [(None, True), (True, True), (False, False)])
def test_freeze_setting(value, expected):
    assert freeze_setting(value) is expected


def test_freeze_setting_refuses_a_non_boolean():
    with pytest.raises(ValueError, match=r"\[runtime\] freeze_loaded"):
        freeze_setting("yes")


def test_a_verifier_freezes_what_it_loaded_unless_told_not_to():
    from verifier.api import Verifier

    gc.unfreeze()
    Verifier(Config({"runtime": {"freeze_loaded": False}, "stacking": {"model": "none"}}))
    assert gc.get_freeze_count() == 0
    v = Verifier(Config({"stacking": {"model": "none"}}))
    assert gc.get_freeze_count() > 0
    assert not any(o is v.pack for o in gc.get_objects())
