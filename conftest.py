"""pytest hooks for the whole checkout: nbval checks the outputs a lesson keeps out of sight.

From a lesson's first exercise on, its checked cells (``# NBVAL_CHECK_OUTPUT``) are committed
unrun, without outputs, so a learner who opens the notebook sees no answer before running the
cell; their outputs are kept in the cell's metadata, ``metadata.k8sjobs.outputs``
(tools/build_lessons.py writes them). nbval compares only what a cell stores as its outputs, and
only in a cell with an execution count: this hook hands it the kept outputs, so
``pytest --nbval-lax notebooks/...`` checks every checked cell, these included.
"""

from __future__ import annotations


def _joined(value):
    return "".join(value) if isinstance(value, list) and all(isinstance(x, str) for x in value) else value


def kept_outputs(cell) -> list | None:
    """The outputs a lesson's cell keeps out of sight (texts joined, as nbval compares them), or None."""
    import nbformat

    kept = (cell.get("metadata") or {}).get("k8sjobs", {}).get("outputs")
    if kept is None:
        return None
    outputs = []
    for out in kept:
        out = nbformat.from_dict(out)
        if "text" in out:
            out["text"] = _joined(out["text"])
        if "data" in out:
            out["data"] = nbformat.NotebookNode({k: _joined(v) for k, v in out["data"].items()})
        outputs.append(out)
    return outputs


def pytest_collection_modifyitems(session, config, items) -> None:
    for item in items:
        cell = getattr(item, "cell", None)
        if cell is None or not type(item).__module__.startswith("nbval"):
            continue
        kept = kept_outputs(cell)
        if kept is None:
            continue
        if cell.get("outputs"):
            raise ValueError(f"{item.nodeid}: the cell shows outputs and keeps others in metadata.k8sjobs.outputs; "
                             "rebuild the lesson (tools/build_lessons.py)")
        cell["outputs"] = kept
        cell["execution_count"] = cell.get("execution_count") or 1
