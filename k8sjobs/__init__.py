"""k8sjobs: the Kubernetes Job controller, modelled faithfully, simulated, and shown.

The public API, for notebooks and scripts (``from k8sjobs import ...``):

* :class:`Run` — simulate a Job manifest to the end and keep every reconcile cycle;
  ``run.cycle(k)``, ``run.state_at(k)``, ``run.fork(k, "fail_pod", name=...)``.
* :class:`Simulation` — the engine itself, step by step, with faults and actions.
* :func:`load_job`, :func:`validate` — read and check a manifest as the API server would.
* :func:`render_trace` — stable text of a run; :func:`describe_job`, :func:`get_job` — what
  ``kubectl describe job`` and ``kubectl get job [-o yaml|json|jsonpath=...]`` print.
* :func:`explain` — what the Job controller does next with a real Job, and why: give it what
  ``kubectl get job,pods -l batch.kubernetes.io/job-name=NAME -o yaml`` printed (text or a
  path); :func:`load_snapshot` reads such a snapshot, :func:`example_snapshot` returns the
  ones lesson 15 uses, :func:`redact_snapshot` strips what may hold secrets before it is shared.
* :func:`set_language`, :func:`get_language` — the language of everything shown
  (``"en"``, ``"zh-CN"``, ``"zh-TW"``, ``"ru"``).
* :data:`VIEWS`, :func:`view_figure`, :func:`view_text` — pictures of a run and their
  text twins (need the ``viz`` extra: plotly, networkx; no numpy,
  so they also run in the browser with JupyterLite).
* :class:`Explorer`, :class:`Exercise` — the lesson dashboard and predict-then-reveal
  exercises (need the ``widgets`` extra: ipywidgets, anywidget).

The view and widget names are loaded lazily, so ``import k8sjobs`` works with the core
dependency (PyYAML) alone.
"""

from __future__ import annotations

from typing import Any

from .api.errors import DecodeError, FieldError, InvalidError
from .api.snapshot import Snapshot
from .i18n import LANGUAGES, get_language, set_language
from .sim import SimConfig, Simulation, SimulationError, load_job, validate
from .snapshot import (
    EXAMPLE_SNAPSHOTS,
    Explanation,
    Redaction,
    example_snapshot,
    explain,
    load_snapshot,
    redact_snapshot,
)
from .trace import Run, Trace, describe_job, get_job, render_trace

__version__ = "0.1.0"

_LAZY = {
    "VIEWS": ("k8sjobs.viz", "VIEWS"),
    "view_figure": ("k8sjobs.viz", "figure"),
    "view_text": ("k8sjobs.viz", "text"),
    "Explorer": ("k8sjobs.widgets", "Explorer"),
    "Exercise": ("k8sjobs.widgets", "Exercise"),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        try:
            value = getattr(importlib.import_module(module), attr)
        except ImportError as exc:
            extra = "widgets" if module.endswith("widgets") else "viz"
            raise ImportError(f"k8sjobs.{name} needs the '{extra}' extra: pip install 'k8sjobs[{extra}]' "
                              f"({exc})") from exc
        globals()[name] = value
        return value
    raise AttributeError(f"module 'k8sjobs' has no attribute {name!r}")


__all__ = [
    "DecodeError",
    "EXAMPLE_SNAPSHOTS",
    "Exercise",
    "Explanation",
    "Explorer",
    "FieldError",
    "InvalidError",
    "LANGUAGES",
    "Redaction",
    "Run",
    "SimConfig",
    "Simulation",
    "SimulationError",
    "Snapshot",
    "Trace",
    "VIEWS",
    "describe_job",
    "example_snapshot",
    "explain",
    "get_job",
    "get_language",
    "load_job",
    "load_snapshot",
    "redact_snapshot",
    "render_trace",
    "set_language",
    "validate",
    "view_figure",
    "view_text",
]
