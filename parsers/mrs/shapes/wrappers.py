"""What wrappers do to texts and readings: blank a phrase, add EPs on a reading's main event.

Every wrapper is data (a shape's ``wrap`` in ``axioms/shapes/wrappers.yaml``), run by
:func:`parsers.mrs.shapes.template.run_wrapper`, which uses :func:`blanked_text` and
:func:`on_main_event` of this module (rewrites use :func:`blanked_text`'s idea too).
"""

from __future__ import annotations

from parsers.mrs.shapes.build import MAIN_LABEL

__all__ = ["blanked_text", "on_main_event"]


def blanked_text(text: str, *spans: tuple[int, int]) -> str:
    """``text`` with the characters of ``spans`` replaced by spaces, so that the spans of the
    rest keep their offsets."""
    for a, z in spans:
        text = text[:a] + " " * (z - a) + text[z:]
    return text


def on_main_event(reading: str, eps: str, hcons: str) -> str:
    """``reading`` with the EPs ``eps`` and the HCONS ``hcons`` added; in ``eps``, ``hMAIN``
    stands for the label of the main event ``e2`` (the reading unchanged when it has none)."""
    m = MAIN_LABEL.search(reading)
    head, sep, tail = reading.rpartition(" > HCONS: < ")
    if m is None or not sep or not tail.endswith(" > ]"):
        return reading
    return f"{head} {eps.replace('LBL: hMAIN ', f'LBL: {m.group(1)} ')}{sep}{tail[:-3]} {hcons} > ]"
