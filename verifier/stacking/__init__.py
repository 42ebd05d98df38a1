"""The stacked verifier: one calibrated decision from the deductive, PGMR, HDM and execution
evidence (design and figures: ``docs/stacking.md``).

* :mod:`~verifier.stacking.features`: feature vector with missingness indicators;
* :mod:`~verifier.stacking.execution`: running queries on a local KG or an endpoint;
* :mod:`~verifier.stacking.model`: logistic regression + calibration + operating points;
* :mod:`~verifier.stacking.runtime`: the signals of one pair and the stacked verdict
  (used by ``verifier.api.Verifier``: the shipped default model unless ``[stacking] model``
  names another or ``none``);
* :mod:`~verifier.stacking.signal`: ``benchmark_signal`` for ``verifier eval --signals stacked``;
* :mod:`~verifier.stacking.default`: the shipped default model and which model a
  configuration asks for (``[stacking] model``, ``none`` switches stacking off).
"""

from verifier.stacking.features import FEATURE_NAMES, Evidence, feature_vector
from verifier.stacking.model import (OperatingPoint, StackingModel,
                                     expected_calibration_error, fit_stacker)

__all__ = ["FEATURE_NAMES", "Evidence", "feature_vector", "OperatingPoint", "StackingModel",
           "fit_stacker", "expected_calibration_error", "benchmark_signal"]


def benchmark_signal(options):  # noqa: ANN001 - SignalOptions, imported lazily
    """``verifier eval --signals stacked`` (see :mod:`verifier.stacking.signal`)."""
    from verifier.stacking.signal import benchmark_signal as _bs

    return _bs(options)
