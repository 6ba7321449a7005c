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


KERNEL_START_ATTEMPTS = 3


def patient_kernel_start(start, attempts: int = KERNEL_START_ATTEMPTS, warn=None):
    """Wrap nbval's ``start_new_kernel`` so a kernel that does not start is started again.

    On a loaded machine with several pytest-xdist workers a kernel now and then never answers
    ``kernel_info`` (CI of 3663d0f: one of 288 lessons, "Kernel didn't respond in 60 seconds",
    every cell of it an error). That is the machine, not the lesson: the lesson is run in a fresh
    kernel, up to ``attempts`` kernels in all, and each failure is reported as a warning with the
    kernel's own stderr (nbval sends it to /dev/null). A lesson whose kernel never starts still
    fails, with the last kernel's stderr in the error.
    """
    import tempfile
    import warnings

    warn = warn or (lambda text: warnings.warn(text, RuntimeWarning, stacklevel=2))

    def start_new_kernel(*args, **kwargs):
        for attempt in range(1, attempts + 1):
            log = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")
            kwargs["stderr"] = log
            try:
                return start(*args, **kwargs)
            except RuntimeError as err:
                log.seek(0)
                tail = "".join(log.readlines()[-15:]).rstrip() or "(the kernel wrote nothing to stderr)"
                log.close()
                message = (f"kernel start {attempt} of {attempts} failed ({err}); "
                           f"cwd {kwargs.get('cwd')}; the kernel's stderr:\n{tail}")
                if attempt == attempts:
                    raise RuntimeError(message) from err
                warn(message + "\nstarting a new kernel")
        raise AssertionError("unreachable")

    return start_new_kernel


def pytest_configure(config) -> None:
    if not getattr(config.option, "nbval_lax", False) and not getattr(config.option, "nbval", False):
        return
    import nbval.kernel

    if not getattr(nbval.kernel.start_new_kernel, "k8sjobs_patient", False):
        nbval.kernel.start_new_kernel = patient_kernel_start(nbval.kernel.start_new_kernel)
        nbval.kernel.start_new_kernel.k8sjobs_patient = True
