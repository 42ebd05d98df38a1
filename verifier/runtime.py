"""Process-level settings of a warm verifier: what loading leaves behind for the garbage collector.

A verifier holds large read-only data once it is loaded: the KG's label index (about 110,000
name entries and 250,000 lists for the shared Wikidata labels), lexicons, axiom packs, MRS
corpora.  CPython's cyclic garbage collector walks every object of its oldest generation in a
full collection, and it starts one whenever enough objects have survived since the last: with
the label index loaded that is 650,000 objects and about 0.35 s of CPU, spent inside whichever
pair happens to allocate the object that tips the count (a few pairs in every 600 of the LLM
predictions).  None of that data ever becomes garbage while the verifier lives.

:func:`settle` runs one full collection (so that garbage of the loading is freed, not kept)
and then moves every object still alive into the permanent generation (:func:`gc.freeze`),
which later collections do not walk.  :class:`verifier.api.Verifier` calls it at the end of
its construction when ``[runtime] freeze_loaded`` is true (the default).  The cost: objects
alive at that moment that later become cyclic garbage are not collected; set the key false in
a process that builds and drops many large object graphs before its verifier.
"""

from __future__ import annotations

import gc
import logging
import time

__all__ = ["settle", "freeze_setting"]

log = logging.getLogger(__name__)


def freeze_setting(value: object) -> bool:
    """``[runtime] freeze_loaded`` read as a boolean (``true`` when not set); anything but a
    boolean is an error naming the key."""
    if value is None:
        return True
    if isinstance(value, bool):
        return value
    raise ValueError(f"[runtime] freeze_loaded must be true or false, not {value!r}")


def settle() -> int:
    """Collect the garbage of loading, then move every live object out of the collector's
    generations (:func:`gc.freeze`); returns how many objects are frozen in all.  Calling it
    again freezes what was created since (cheap: frozen objects are not walked again)."""
    t0 = time.process_time()
    gc.collect()
    gc.freeze()
    frozen = gc.get_freeze_count()
    log.debug("runtime.settle: %d objects frozen in %.0f ms", frozen, (time.process_time() - t0) * 1000)
    return frozen
