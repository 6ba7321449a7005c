"""Precompile what a lesson imports, for the browser's Python: runs INSIDE Pyodide, under Node.

    node tools/lite_pyc.mjs build/lite/lite/static/pyodide     # tools/lite.py runs it

Pyodide compiles every module from source on every kernel start (no bytecode ships in a pure
wheel, nor in Pyodide's ``python_stdlib.zip``, and none survives a page load). Under Node, with
the site's own Pyodide (the exact Python of the browser) and its own lock, this script imports
what a kernel's start and a lesson import -- piplite and micropip (the kernel's worker imports
them first), the kernel, IPython, k8sjobs with every view, a dashboard and an exercise -- then
writes each module that came from a wheel as ``__pycache__/<name>.cpython-314.pyc`` into that
wheel, and each that came from the standard library as ``<name>.pyc`` next to its source in
``python_stdlib.zip`` (where zipimport looks first). Unchecked-hash pycs: the browser imports
them without reading the source's timestamp; the sources stay, so tracebacks show code.
Measured under Node: the imports of a lesson took 3.6 s instead of 9.2 s (the wheels' pycs).

Writes a line ``pyc: N modules in M wheels, +K bytes ...; S modules of the standard library ...``
and exits non-zero if nothing was compiled.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import io
import os
import py_compile
import sys
import tempfile
import zipfile
import zipimport

WHEELS = "/wheels"  # the staging folder of the site's wheels, mounted by tools/lite_pyc.mjs
STDLIB = "python_stdlib.zip"  # Pyodide's standard library, in that folder
BOOT_MODULES: set[str] | None = None
"""The modules Pyodide had imported before this script (its start and its package loader):
tools/lite_pyc.mjs sets it. The standard library's modules precompiled are those and what the
lesson imports, not what this script imports for itself (tempfile, py_compile...)."""
JOB = """
apiVersion: batch/v1
kind: Job
metadata:
  name: pi
spec:
  completions: 3
  parallelism: 2
  template:
    metadata:
      annotations:
        sim.k8sjobs.io/duration: "8s..12s"
    spec:
      containers:
      - name: pi
        image: perl:5.34.0
      restartPolicy: Never
"""


def lesson_workload() -> None:
    """What a lesson does: start the kernel, import the API, draw every view, use the widgets."""
    streams = sys.stdout, sys.stderr
    import piplite.piplite  # noqa: F401  (the kernel's worker imports it first: micropip, packaging)
    import pyodide_kernel  # IPython, the kernel, comm

    sys.stdout, sys.stderr = streams  # the kernel took them for its own messages; no kernel here
    pyodide_kernel.kernel_instance.interpreter.send_comm = lambda *args, **kwargs: None  # the worker's, in a page

    from k8sjobs import VIEWS, Exercise, Explorer, Run, set_language, view_figure, view_text

    set_language("en")
    run = Run(JOB, seed=0)
    for view in VIEWS:
        for cycle in (0, 2, len(run)):
            view_figure(view, run.trace, cycle).to_dict()
            view_text(view, run.trace, cycle)
    explorer = Explorer(JOB, seed=0, views=list(VIEWS))
    explorer.step()
    exercise = Exercise("When?", kind="number", tolerance=2, run=lambda: run, explanation="-",
                        answer=lambda r: r.trace.final_job.status.completion_time, view="timeline")
    exercise.check(16)


def record_line(arcname: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}\n"


def _rewrite_zip(path: str, entries: list[tuple[zipfile.ZipInfo, bytes]], pycs: dict[str, bytes]) -> int:
    """Write ``entries`` and then ``pycs`` ({arcname: bytes}) as the zip at ``path`` (deflated at
    level 9, as tools/lite.py's rewrite_wheel); returns the bytes it grew by."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as out:
        for info, data in entries:
            out.writestr(info, data, compresslevel=9)
        for name, pyc in sorted(pycs.items()):
            out.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), pyc, zipfile.ZIP_DEFLATED, 9)
    before = os.path.getsize(path)
    with open(path, "wb") as f:
        f.write(buf.getvalue())
    return os.path.getsize(path) - before


def add_to_wheel(wheel: str, pycs: dict[str, bytes]) -> int:
    """Rewrite ``wheel`` with ``pycs`` ({arcname: bytes}) added and listed in its RECORD; returns the
    bytes added."""
    with zipfile.ZipFile(wheel) as z:
        entries = [(info, z.read(info)) for info in z.infolist()]
    record = "".join(record_line(name, pyc) for name, pyc in sorted(pycs.items())).encode()
    entries = [(info, data + record if info.filename.endswith(".dist-info/RECORD") else data)
               for info, data in entries]
    return _rewrite_zip(wheel, entries, pycs)


def add_to_stdlib(archive: str, pycs: dict[str, bytes]) -> int:
    """Rewrite Pyodide's ``python_stdlib.zip`` with ``pycs`` ({arcname: bytes}, each next to its
    source: ``json/decoder.pyc``, where Python's zipimport looks first); returns the bytes added."""
    with zipfile.ZipFile(archive) as z:
        entries = [(info, z.read(info)) for info in z.infolist() if info.filename not in pycs]
    return _rewrite_zip(archive, entries, pycs)


def stdlib_pycs(modules, stdlib: str, tmp: str) -> dict[str, bytes]:
    """Unchecked-hash pycs of the ``modules`` that Python imported from the standard library's
    zip (``stdlib``, e.g. ``/lib/python314.zip``): {``json/decoder.pyc``: bytes}. Compiled as
    zipimport compiles their source (the same file name in tracebacks)."""
    pycs = {}
    with zipfile.ZipFile(stdlib) as z:
        names = set(z.namelist())
        for mod in modules:
            path = getattr(mod, "__file__", None) or ""
            arcname = path[len(stdlib) + 1:]
            if not path.startswith(stdlib + "/") or not path.endswith(".py") or arcname not in names:
                continue
            if not isinstance(getattr(mod, "__loader__", None), zipimport.zipimporter):
                continue  # frozen into the interpreter (importlib._bootstrap, os...): never read from the zip
            source = os.path.join(tmp, "source.py")
            with open(source, "wb") as f:
                f.write(z.read(arcname))
            cfile = os.path.join(tmp, "m.pyc")
            py_compile.compile(source, cfile=cfile, dfile=path, doraise=True,
                               invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
            with open(cfile, "rb") as f:
                pycs[arcname[:-3] + ".pyc"] = f.read()
    return pycs


def main() -> int:
    before = set(sys.modules)
    lesson_workload()
    site_packages = next(p for p in sys.path if p.endswith("site-packages"))
    owners: dict[str, str] = {}  # arcname of a .py -> the wheel that has it
    for name in sorted(os.listdir(WHEELS)):
        if name.endswith(".whl"):
            with zipfile.ZipFile(os.path.join(WHEELS, name)) as z:
                owners.update({n: name for n in z.namelist() if n.endswith(".py")})
    per_wheel: dict[str, dict[str, bytes]] = {}
    tmp = tempfile.mkdtemp()
    for mod in list(sys.modules.values()):
        path = getattr(mod, "__file__", None) or ""
        if not path.startswith(site_packages + "/") or not path.endswith(".py"):
            continue
        arcname = path[len(site_packages) + 1:]
        if arcname not in owners:
            continue
        cfile = os.path.join(tmp, "m.pyc")
        py_compile.compile(path, cfile=cfile, doraise=True,
                           invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
        with open(cfile, "rb") as f:
            per_wheel.setdefault(owners[arcname], {})[importlib.util.cache_from_source(arcname)] = f.read()
    grown = sum(add_to_wheel(os.path.join(WHEELS, w), pycs) for w, pycs in per_wheel.items())
    count = sum(len(p) for p in per_wheel.values())
    stdlib = next(p for p in sys.path if p.endswith(".zip"))
    used = (set(sys.modules) - before) | (before if BOOT_MODULES is None else BOOT_MODULES)
    std = stdlib_pycs([sys.modules[name] for name in sorted(used) if name in sys.modules], stdlib, tmp)
    std_grown = add_to_stdlib(os.path.join(WHEELS, STDLIB), std)
    print(f"pyc: {count} modules in {len(per_wheel)} wheels, +{grown} bytes "
          f"({len(set(sys.modules) - before)} modules imported by a lesson); "
          f"{len(std)} modules of the standard library in {STDLIB}, +{std_grown} bytes")
    return 0 if count and std else 1


if __name__ == "__main__":
    sys.exit(main())
