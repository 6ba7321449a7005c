"""The lesson dashboard: the only part of k8sjobs that imports ipywidgets.

* :class:`Explorer` -- step through a Job's reconcile cycles (Step, Back, Play, Reset, a cycle
  slider), see every view of the trace update in place, edit the YAML, inject faults.
* :class:`ExplorerState` -- the same without widgets (what the Explorer shows; tests drive it).
* :class:`Exercise` -- predict, then reveal: a prediction checked by code against a run.

``ExplorerState`` and ``Exercise.check`` need no ipywidgets; the names are loaded lazily so
``from k8sjobs.widgets.state import ExplorerState`` works with the core dependencies alone.
"""

from __future__ import annotations

from typing import Any

_LAZY = {
    "Explorer": ("k8sjobs.widgets.explorer", "Explorer"),
    "ExplorerState": ("k8sjobs.widgets.state", "ExplorerState"),
    "Exercise": ("k8sjobs.widgets.exercise", "Exercise"),
    "Verdict": ("k8sjobs.widgets.exercise", "Verdict"),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        value = getattr(importlib.import_module(module), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'k8sjobs.widgets' has no attribute {name!r}")


__all__ = ["Exercise", "Explorer", "ExplorerState", "Verdict"]
