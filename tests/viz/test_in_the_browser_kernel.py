"""What the views need in the browser (JupyterLite's Pyodide kernel): no numpy, no nbformat.

Neither can be had there offline: PyPI has no wasm wheel of numpy, and nbformat needs
jsonschema -> referencing -> rpds-py, which has none either. The site's lessons run against the
same package, so these two gaps are closed here and checked without a browser; the ``lite``
stage of tools/test.sh checks the lessons in the real thing.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import plotly.graph_objects as go
import pytest
from plotly.io import _renderers

from k8sjobs import Run
from k8sjobs.viz import VIEWS, figure

ROOT = Path(__file__).resolve().parents[2]
PI = (ROOT / "examples" / "docs" / "job.yaml").read_text(encoding="utf-8")
PLOTLY_JSON = "application/vnd.plotly.v1+json"


@pytest.fixture
def no_nbformat(monkeypatch):
    """The browser kernel: nbformat is not importable, and plotly saw none when it was imported."""
    monkeypatch.setitem(sys.modules, "nbformat", None)
    monkeypatch.setattr(_renderers, "nbformat", None)
    monkeypatch.setattr(_renderers.renderers, "default", "plotly_mimetype+notebook")  # plotly's guess there


@pytest.fixture
def published(monkeypatch):
    """Everything sent to ``IPython.display.display``: (object, keyword arguments)."""
    import IPython.display

    seen: list[tuple[object, dict]] = []
    monkeypatch.setattr(IPython.display, "display", lambda obj, **kw: seen.append((obj, kw)))
    return seen


def test_plotly_alone_refuses_to_display_a_figure_without_nbformat(no_nbformat, published):
    fig = go.Figure(figure("ownership", Run(PI, seed=0).trace, 3))
    with pytest.raises(ValueError, match="nbformat"):
        fig._ipython_display_()
    assert published == []


def test_a_view_figure_publishes_the_plotly_json_bundle_without_nbformat(no_nbformat, published):
    run = Run(PI, seed=0)
    for view in VIEWS:
        fig = figure(view, run.trace, 3)
        fig._ipython_display_()
        obj, kw = published.pop()
        assert kw == {"raw": True}
        assert set(obj) == {PLOTLY_JSON}, f"{view}: only plotly's JSON, no inlined or downloaded plotly.js"
        assert obj[PLOTLY_JSON]["layout"]["meta"]["view"] == view
        # the same bundle the Output widget of an exercise gets through the formatter
        assert fig._repr_mimebundle_() == obj


def test_the_bundle_without_nbformat_is_the_one_plotly_publishes_in_jupyterlab(monkeypatch, published):
    fig = figure("timeline", Run(PI, seed=0).trace, 2)
    monkeypatch.setattr(_renderers.renderers, "default", "plotly_mimetype")  # what plotly picks in a Jupyter kernel
    fig._ipython_display_()  # nbformat is installed here: plotly's own display runs
    (with_nbformat, kw), = published
    assert kw == {"raw": True}
    assert json.dumps(fig._mimetype_bundle(), sort_keys=True) == json.dumps(with_nbformat, sort_keys=True)


def test_no_view_dashboard_or_exercise_imports_numpy():
    # A fresh interpreter in which numpy cannot be imported, as in the browser.
    script = textwrap.dedent(f"""
        import importlib.abc, sys

        class NoNumpy(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name == "numpy" or name.startswith("numpy."):
                    raise ModuleNotFoundError("No module named 'numpy' (blocked by the test)", name=name)
                return None

        sys.meta_path.insert(0, NoNumpy())
        from k8sjobs import Exercise, Explorer, Run, VIEWS, view_figure, view_text

        manifest = open({str(ROOT / "examples/docs/job.yaml")!r}).read()
        run = Run(manifest, seed=0)
        for view in VIEWS:
            for k in (0, 2, len(run)):
                view_figure(view, run.trace, k).to_dict()
                view_text(view, run.trace, k)
        ex = Explorer(manifest, seed=0, views=list(VIEWS))
        ex.step()
        from IPython.core.interactiveshell import InteractiveShell

        InteractiveShell.instance()  # the Output widget formats through the shell, as in a kernel
        exercise = Exercise("When?", kind="number", tolerance=2, run=lambda: run, explanation="Because.",
                            answer=lambda r: r.trace.final_job.status.completion_time, view="ownership")
        exercise.input.value = "16"
        assert exercise._on_check().correct
        shown = [out["data"] for out in exercise.feedback.outputs]
        assert any("application/vnd.jupyter.widget-view+json" in data for data in shown), shown
        assert "numpy" not in sys.modules
        print("ok")
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip().endswith("ok")


def test_the_extras_do_not_ask_for_numpy():
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    for name, reqs in extras.items():
        assert not [r for r in reqs if r.lower().startswith("numpy")], f"extra {name!r} asks for numpy"
