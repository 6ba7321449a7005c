"""The JupyterLite site's ``sitecustomize``: Python in the browser imports without asking the drive each time.

tools/lite.py puts this file into the site's ``python_stdlib.zip`` as ``sitecustomize.py``; Python's
``site`` module imports it when Pyodide starts, before the kernel imports anything.

Why: the kernel's working directory is ``/drive/<lang>``, the site's files, served to the kernel's
worker by the service worker (JupyterLite's DriveFS): every look at it is a synchronous request
through the service worker and the page, about 6 ms. ``''`` (the working directory) comes first on
``sys.path``, and Python's finder for a directory looks at the directory's modification time on
every import of a top-level name, to notice new files. A kernel's start imports about 150 such
names after it has moved into the drive, and a lesson's first cell (k8sjobs, plotly, networkx, the
widgets) about as many again: a second each, spent asking whether the lesson's folder changed.

What: the finder of a folder of the drive (``''`` is one: Python looks it up by the working
directory's path) asks again only if it last asked more than :data:`FRESH_SECONDS` ago, or if its
listing has a name the import could be (then it asks, as Python does). A module a learner writes into the folder is found once that second has passed,
or at once after ``importlib.invalidate_caches()``, as Python's documentation asks of code that
writes modules. Nothing else changes: the other entries of ``sys.path`` are in memory.
"""

import sys
import time
from importlib.machinery import FileFinder

DRIVE = "/drive"
"""Where JupyterLite's Pyodide kernel mounts the site's files (its DriveFS)."""
FRESH_SECONDS = 1.0
"""How long a listing of a folder of the drive is trusted without asking the drive again."""


class DriveFinder(FileFinder):
    """Python's finder for a folder of the drive, which trusts its listing for a moment."""

    def __init__(self, path, *details):
        super().__init__(path, *details)
        self._asked_at = None

    def invalidate_caches(self):
        """Forget the listing (``importlib.invalidate_caches()``)."""
        self._asked_at = None
        super().invalidate_caches()

    def find_spec(self, fullname, target=None):
        """Python's answer, without asking the drive when the listing is fresh and has nothing
        the module could be."""
        now = time.monotonic()  # noqa: TID251 (a wall clock: this is the browser's Python, not the model)
        tail = fullname.rpartition(".")[2]
        if (self._asked_at is not None and now - self._asked_at < FRESH_SECONDS
                and not any(name.startswith(tail) for name in self._path_cache)):
            return None
        self._asked_at = now
        return super().find_spec(fullname, target)


def _install():
    """Put the finder in front of Python's path hooks, for the drive's folders only (Python asks
    the hooks with the working directory's absolute path for ``''``)."""
    details = _loader_details()

    def hook(path):
        if path != DRIVE and not path.startswith(DRIVE + "/"):
            raise ImportError("not a folder of the drive")
        return DriveFinder(path, *details)

    sys.path_hooks.insert(0, hook)
    for path in [p for p in sys.path_importer_cache if p == DRIVE or p.startswith(DRIVE + "/")]:
        del sys.path_importer_cache[path]


def _loader_details():
    """The loaders Python gives its own directory finders (the same list, so a folder of the drive
    finds what any folder finds)."""
    from importlib import _bootstrap_external

    return _bootstrap_external._get_supported_file_loaders()


if sys.platform == "emscripten":  # the browser's Python; imported elsewhere (the tests), it changes nothing
    _install()
