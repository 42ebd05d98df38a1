"""Plots of an audit summary as self-contained SVG (matplotlib, text drawn as paths).

Each function returns SVG text; :func:`svg_data_uri` turns it into a ``data:`` URI so the
HTML report embeds every plot in an ``<img>`` without any external file or font.  Only the
object-oriented matplotlib API is used (no pyplot state).
"""

from __future__ import annotations

import base64
import io
from typing import Sequence

from verifier.audit.summary import DECISIONS, AuditSummary

__all__ = ["decision_plot", "score_histogram", "symbols_plot", "model_plot", "svg_data_uri", "COLORS"]

COLORS = {"accept": "#2e7d32", "reject": "#c62828", "abstain": "#f9a825", "error": "#6d4c41",
          "input_error": "#8d6e63", "verify_error": "#4e342e"}
_RC = {"svg.fonttype": "path", "svg.hashsalt": "sparql-verifier-audit", "font.size": 9,
       "axes.spines.top": False, "axes.spines.right": False}


def _svg(fig) -> str:
    import matplotlib

    buf = io.StringIO()
    with matplotlib.rc_context(_RC):
        fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    return buf.getvalue()


def _figure(w: float, h: float):
    import matplotlib
    from matplotlib.figure import Figure

    with matplotlib.rc_context(_RC):
        fig = Figure(figsize=(w, h), dpi=100)
        ax = fig.add_subplot(1, 1, 1)
    return fig, ax


def _integer_axis(axis) -> None:
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))


def _empty(ax, text: str) -> None:
    ax.text(0.5, 0.5, text, ha="center", va="center", color="#777", transform=ax.transAxes)
    ax.set_xticks([])
    ax.set_yticks([])


def decision_plot(s: AuditSummary) -> str:
    """Bars of decisions (accept/reject/abstain/error) with the deductive verdicts inside."""
    import matplotlib

    with matplotlib.rc_context(_RC):
        fig, ax = _figure(5.6, 2.8)
        errs = s.by_status.get("input_error", 0) + s.by_status.get("verify_error", 0)
        labels = [*DECISIONS, "error"]
        values = [s.by_decision.get(d, 0) for d in DECISIONS] + [errs]
        bars = ax.bar(labels, values, color=[COLORS[k] for k in labels])
        for b, v in zip(bars, values):
            ax.annotate(f"{v:,}", (b.get_x() + b.get_width() / 2, b.get_height()), ha="center", va="bottom",
                        fontsize=8, xytext=(0, 2), textcoords="offset points")
        ax.set_ylabel("records")
        _integer_axis(ax.yaxis)
        ax.set_title("Decisions")
        ax.margins(y=0.15)
        return _svg(fig)


def score_histogram(s: AuditSummary) -> str:
    """Histogram of scores (10 bins over [0, 1])."""
    import matplotlib

    with matplotlib.rc_context(_RC):
        fig, ax = _figure(5.6, 2.8)
        if not any(s.score_histogram):
            _empty(ax, "no verified records")
        else:
            xs = [i / 10 for i in range(10)]
            cols = [COLORS["reject"] if x < 0.3 else COLORS["abstain"] if x < 0.7 else COLORS["accept"] for x in xs]
            ax.bar(xs, s.score_histogram, width=0.095, align="edge", color=cols)
            ax.set_xlim(0, 1)
            ax.set_xlabel("score (confidence that the query is faithful)")
            ax.set_ylabel("records")
            _integer_axis(ax.yaxis)
        ax.set_title("Score distribution")
        return _svg(fig)


def symbols_plot(s: AuditSummary, top: int = 12) -> str:
    """Horizontal bars of the KG symbols most often unsupported by the question."""
    import matplotlib

    items = sorted([*s.top_properties, *s.top_entities], key=lambda r: -r[2])[:top]
    with matplotlib.rc_context(_RC):
        fig, ax = _figure(5.6, max(2.2, 0.28 * len(items) + 0.9))
        if not items:
            _empty(ax, "no unsupported symbols")
        else:
            names = [_short(f"{i} {l}" if l and l != i else f"{i} (unknown id)") for i, l, _ in items][::-1]
            vals = [n for _, _, n in items][::-1]
            cols = ["#1565c0" if i.startswith("P") else "#6a1b9a" for i, _, _ in items][::-1]
            ax.barh(names, vals, color=cols)
            ax.set_xlabel("records (blue: properties, purple: entities)")
            _integer_axis(ax.xaxis)
        ax.set_title("Hallucinated symbols (unsupported by the question)")
        return _svg(fig)


def model_plot(s: AuditSummary, top: int = 12) -> str:
    """Stacked horizontal bars of decisions per model."""
    import matplotlib

    models = sorted(s.by_model.items(), key=lambda kv: -sum(kv[1].values()))[:top]
    with matplotlib.rc_context(_RC):
        fig, ax = _figure(5.6, max(2.2, 0.32 * len(models) + 1.0))
        if not models:
            _empty(ax, "no model field in the log")
        else:
            names = [_short(m) for m, _ in models][::-1]
            left = [0] * len(models)
            keys = [*DECISIONS, "input_error", "verify_error"]
            for k in keys:
                vals = [c.get(k, 0) for _, c in models][::-1]
                if any(vals):
                    ax.barh(names, vals, left=left, color=COLORS[k], label=k.replace("_", " "))
                    left = [a + b for a, b in zip(left, vals)]
            ax.legend(fontsize=7, frameon=False, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=5,
                      handlelength=1.0, columnspacing=0.8)
            ax.set_xlabel("records")
            _integer_axis(ax.xaxis)
        ax.set_title(f"Per model ({s.model_field})" if s.model_field else "Per model", pad=22 if models else 6)
        return _svg(fig)


def _short(text: str, n: int = 42) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def svg_data_uri(svg: str) -> str:
    """``data:image/svg+xml;base64,...`` of an SVG document."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")


def all_plots(s: AuditSummary) -> Sequence[tuple[str, str]]:
    """``(title, svg)`` of every plot of the report."""
    return [("Decisions", decision_plot(s)), ("Scores", score_histogram(s)),
            ("Hallucinated symbols", symbols_plot(s)), ("Per model", model_plot(s))]
