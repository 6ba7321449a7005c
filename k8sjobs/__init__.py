"""k8sjobs: the Kubernetes Job controller, modelled faithfully, simulated, and shown.

The public API, for notebooks and scripts (``from k8sjobs import ...``):

* :class:`Run` — simulate a Job manifest to the end and keep every reconcile cycle;
  ``run.cycle(k)``, ``run.state_at(k)``, ``run.fork(k, "fail_pod", name=...)``.
* :class:`Simulation` — the engine itself, step by step, with faults and actions.
* :func:`load_job`, :func:`validate` — read and check a manifest (a Job, or for
  :func:`validate` also a CronJob) as the API server would.
* :func:`render_trace` — stable text of a run; :func:`describe_job`, :func:`get_job` — what
  ``kubectl describe job`` and ``kubectl get job [-o yaml|json|jsonpath=...]`` print.
* :func:`explain` — what the Job controller does next with a real Job, and why: give it what
  ``kubectl get job,pods -l batch.kubernetes.io/job-name=NAME -o yaml`` printed (text or a
  path); :func:`load_snapshot` reads such a snapshot, :func:`example_snapshot` returns the
  ones lesson 15 uses, :func:`redact_snapshot` strips what may hold secrets before it is shared.
* :func:`say_schedule` — a CronJob's schedule in words in the current language
  (``say_schedule("30 2 * * *", "Asia/Shanghai")``: ``at 02:30 every day, Asia/Shanghai``).
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

import json as _json
import os as _os
import sys as _sys
from typing import Any

from . import i18n as _i18n
from .api.errors import DecodeError, FieldError, InvalidError
from .api.snapshot import Snapshot
from .i18n import LANGUAGES, get_language
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
from .trace.schedule_words import say_schedule

__version__ = "0.1.0"

SITE_LESSONS = "site_lessons.json"
"""In the JupyterLite site's wheel only (tools/lite.py writes it): ``{"<lang>/<lesson>.ipynb": build id}``
of every lesson the site ships (``metadata.k8sjobs.build``, tools/build_lessons.py)."""


def set_language(language: str) -> str:
    """Choose the language of everything shown from now on; returns its tag
    (:func:`k8sjobs.i18n.set_language`: ``"en"``, ``"zh-CN"``, ``"zh-TW"``, ``"ru"``).

    In the browser version of the lessons (JupyterLite), a lesson the learner changed is a copy
    the browser keeps, and it hides a newer lesson the site ships. Every lesson calls this in
    its first cell: there it also prints :func:`older_copy_notice` when the lesson was opened
    from such an older copy (one file read, nothing in a normal Jupyter kernel).
    """
    tag = _i18n.set_language(language)
    notice = older_copy_notice() if _sys.platform == "emscripten" else None
    if notice:
        print(notice)
    return tag


def older_copy_notice(parent: dict | None = None, cwd: str | None = None,
                      shipped: dict[str, str] | None = None) -> str | None:
    """What to tell a learner whose lesson is a browser copy older than the lesson the site ships, or None.

    The lesson is the notebook of the cell that runs: JupyterLite's kernel knows only the folder
    (``cwd``, ``/drive/<lang>``), but JupyterLab sends the cell's id with the code (``parent``:
    the execute request, ``metadata.cellId``), and a lesson's cell ids are ``<file stem>-NNN``.
    Its build id (``metadata.k8sjobs.build``, kept by every copy JupyterLab saves) is compared with
    the one the site ships (``shipped``: :data:`SITE_LESSONS`). None when anything is unknown.
    """
    try:
        if parent is None:
            from IPython import get_ipython

            parent = get_ipython().kernel.get_parent()
        cell_id = parent["metadata"]["cellId"]
        cwd = _os.getcwd() if cwd is None else cwd
        if shipped is None:
            from importlib.resources import files

            shipped = _json.loads(files(__name__).joinpath(SITE_LESSONS).read_text(encoding="utf-8"))
        name = f"{cell_id.rsplit('-', 1)[0]}.ipynb"
        want = shipped.get(f"{_os.path.basename(_os.path.normpath(cwd))}/{name}")  # the site's <lang>/<lesson>
        if want is None:
            return None
        with open(_os.path.join(cwd, name), encoding="utf-8") as f:
            have = _json.load(f).get("metadata", {}).get("k8sjobs", {}).get("build")
    except (AttributeError, KeyError, TypeError, ValueError, OSError, ImportError):
        return None
    if have == want:
        return None
    return _i18n._(
        "Your browser keeps its own copy of {lesson}, saved from an older version than the lesson this "
        "site ships now. To get the current lesson: close this one, right-click {lesson} in the file "
        "browser and choose Delete. Your copy is deleted and the lesson as the course ships it takes its "
        "place (File → Download keeps your copy first).").format(lesson=name)

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
    "say_schedule",
    "set_language",
    "validate",
    "view_figure",
    "view_text",
]
