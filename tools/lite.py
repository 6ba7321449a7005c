"""Build the lessons as a JupyterLite site: ``_site/``, static files that run Python in the browser.

    sh tools/lite.sh                  # build _site/ from clean (about 30 s once the venv exists)
    sh tools/lite.sh --serve          # build, then serve it on 127.0.0.1 and print the start URL
    sh tools/lite.sh --serve-only     # serve the _site/ that is there
    sh tools/lite.sh --port 8765 ...  # another port (default 8000; 0 picks a free one)
    sh tools/lite.sh --site DIR ...   # build into / serve another folder than _site/

Any static web host can serve ``_site/`` (GitHub Pages, a university server, a USB stick opened
through a local server): nothing in it fetches from the internet. What goes in, from packages only:

* JupyterLite and its Pyodide kernel from PyPI, installed at the pins of
  ``requirements/lite-build.txt`` into a build venv of their own, ``.venv-lite/`` (the lab
  extensions of that venv are the site's: the widget manager, anywidget, plotly's renderer);
* Pyodide's core from npm (``npm pack pyodide@V``), V being the version the kernel expects;
  the npm registry's integrity hash must equal the one recorded in ``requirements/lite-browser.txt``;
* every wheel the lessons and the kernel import, at the pins of ``requirements/lite-browser.txt``
  (the runtime lock's versions): pure wheels from PyPI, PyYAML built from its sdist as a pure
  wheel, the kernel's own small wheels, and the project's wheel built from this checkout (with
  its catalogs, ``k8sjobs/locale``);
* the bytecode of every module a kernel start and a lesson import, compiled by the site's own
  Pyodide under Node (tools/lite_pyc.py) and added to those wheels and to Pyodide's
  ``python_stdlib.zip`` (which ships sources only), so a kernel start imports without compiling
  (under Node, Pyodide's start to an imported kernel: 7.3 s without the standard library's
  bytecode, 3.6 s with it; it adds 2.3 MB to the site);
* a ``pyodide-lock.json`` that names only those local wheels (sha256 recomputed), replacing the
  npm package's, which names wheels that are not in it, so a lesson needs no ``%pip`` cell and
  the PyPI fallback is off. The kernel preloads only what it needs to start
  (``loadPyodideOptions.packages``: :data:`KERNEL_ROOTS` and their dependencies); the rest
  (k8sjobs, plotly, networkx, the widgets...) is loaded by the kernel itself when a cell imports
  it (the Pyodide kernel runs ``loadPackagesFromImports`` on every cell: a lesson's first cell,
  ``from k8sjobs import ...``, loads k8sjobs and its dependencies from the lock). The notebook's
  kernel is idle sooner: the learner reads the first cells meanwhile;
* less to download and unpack (:func:`slim_wheels`, :data:`LEFT_OUT`): the plotly wheel without
  what only a desktop Python uses, jedi without the type stubs of packages the site does not have,
  networkx and ipywidgets without their test suites (networkx's: 1.0 MB of its 3.8), pygments
  with 18 of its lexer modules instead of all (:data:`PYGMENTS_LEXERS`: 0.9 MB), narwhals without
  its backends for dataframe libraries the site does not have (0.2 MB);
* less to store (:func:`slim_app`, :data:`APP_LEFT_OUT`): JupyterLab's icon font only as woff2
  (the eot, svg, ttf and woff copies are for browsers JupyterLab 4 does not run in: 2.8 MB), and
  a favicon without its bitmaps larger than 64 px (0.26 MB, twice: ``lab/`` and the site's root);
* the lessons of every language: ``notebooks/<lang>/`` becomes the site's ``<lang>/`` (the
  notebooks and the files they read; not the Markdown sources of the notebooks);
* Python's ``sitecustomize`` in the browser (:func:`add_sitecustomize`, tools/lite_sitecustomize.py,
  written into ``python_stdlib.zip``): the kernel works in ``/drive/<lang>``, the site's files
  behind the service worker, where each look costs a synchronous request through the page
  (about 6 ms), and Python looked at the lesson's folder on every import of a top-level name;
  the finder of a folder of the drive now trusts its listing for a second. 16 modules of the
  standard library imported in a lesson's kernel: 204-229 ms instead of 343-372;
* the site's own JupyterLab extension, ``extensions/k8sjobs-lite/`` (:func:`add_early_kernel`;
  tools/lite_early_kernel.js, a federated extension written by hand, checked by ``node
  --check``): a page opened on a lesson's link starts that notebook's kernel as soon as the
  kernel's plugin and the service worker are ready, about a second in, instead of after the
  notebook is fetched and drawn, so Pyodide boots on the second core while JupyterLab builds
  its page (warm start, benchmarks/bench_lite.py: 4.0-4.5 s before, see the closing notes);
  and it writes JupyterLite's record of its service worker's version on a learner's first page,
  which JupyterLite itself writes only on a page a service worker already controls (without it
  the second page unregistered and registered the service worker again, which sometimes
  stalled until the page was left, its kernel then without the site's files).

Every build starts from clean (``_site/`` and ``build/lite/`` removed): an incremental
``jupyter lite build`` once dropped ``pyodideUrl`` and the kernel went to a CDN. The build ends
by checking the site (:func:`check_site`). Pins: ``python3 tools/lock.py`` writes both lite lock
files from ``requirements/lite-*.in`` with the rest of the lock.
"""

from __future__ import annotations

import argparse
import base64
import fnmatch
import functools
import hashlib
import http.server
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tarfile
import threading
import time
import tomllib
import zipfile
from email.parser import HeaderParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if __package__:
    from . import lock  # tools/lock.py: the pins and how they were made
else:  # python tools/lite.py: tools/ is sys.path[0]
    import lock

VENV = ROOT / ".venv-lite"
SITE = ROOT / "_site"
WORK = ROOT / "build" / "lite"
START = "en/00-start-here.ipynb"
"""The start page, as a path inside the site."""
SITE_LESSONS = "site_lessons.json"
"""The file of the project's wheel that lists the build id of every lesson of the site (k8sjobs.SITE_LESSONS)."""
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
PYODIDE_DIR = "static/pyodide"
PYODIDE_URL = f"./{PYODIDE_DIR}/pyodide.mjs"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "package.json")
"""What the site needs of the npm package (no source maps, type declarations or demo pages)."""
NPM_LINE = re.compile(r"^# npm: pyodide@(?P<version>\S+) (?P<integrity>\S+)", re.M)

KERNEL_ROOTS = ("pyodide-kernel", "piplite", "ipykernel", "widgetsnbextension", "comm", "ipython", "jedi", "micropip")
"""What the kernel imports or installs to start (requirements/lite-browser.in; its worker installs
ipykernel, comm, pyodide-kernel, jedi and ipython with piplite when they are not preloaded):
preloaded with their dependencies."""

LEFT_OUT = {
    # plotly: JupyterLab's plotly extension twice (the package's copy and the wheel's data files
    # for a desktop install; the site has it as a lab extension), and plotly.js for HTML output
    # (figures here are drawn by that extension, or by the widget bundle, which stays)
    "plotly": ("plotly/labextension/", "plotly-{version}.data/", "plotly/package_data/plotly.min.js"),
    # jedi (Tab completion; the Pyodide kernel installs it whatever the site says): the type
    # stubs of third-party packages none of which is in the site; the standard library's stay
    "jedi": ("jedi/third_party/typeshed/stubs/", "jedi/third_party/django-stubs/"),
    # networkx and ipywidgets: their own test suites (a quarter of networkx's wheel); no module
    # of theirs imports them, the site runs the lessons, not their tests
    "networkx": ("networkx/tests/", "networkx/*/tests/"),
    "ipywidgets": ("ipywidgets/tests/", "ipywidgets/*/tests/"),
    # pygments (IPython's highlighting): the lexers of 500 languages, but those of KEPT
    "pygments": ("pygments/lexers/",),
    # narwhals (plotly's layer over dataframe libraries): its backends for pandas, pyarrow, polars,
    # dask, duckdb, ibis and Spark, none of which the site has (nor can load: no PyPI fallback)
    "narwhals": tuple(f"narwhals/_{backend}/" for backend in
                      ("arrow", "dask", "duckdb", "ibis", "pandas_like", "polars", "spark_like", "sql")),
}
"""What the site's wheels leave out: {package: prefixes of paths in its wheel}; a ``*`` in a
prefix matches any part of a path, ``/`` included (``networkx/*/tests/``: every tests folder)."""

PYGMENTS_LEXERS = ("__init__", "_mapping", "python", "special", "_css_builtins", "_lilypond_builtins",
                   "_scheme_builtins", "css", "data", "html", "javascript", "jvm", "lilypond", "lisp", "markup",
                   "perl", "ruby", "shell")
"""The lexers of pygments the site keeps: Python's (IPython's tracebacks, ``??``), plain text's,
and those ``ipython_pygments_lexers`` imports (Bash, HTML, JavaScript, Ruby, Perl, TeX and what
their modules import), which also cover YAML, JSON, CSS and Markdown
(tests/test_lite_tools.py checks that these modules import no other lexer)."""

KEPT = {
    "pygments": tuple(f"pygments/lexers/{name}.py" for name in PYGMENTS_LEXERS),
}
"""What the site's wheels keep though :data:`LEFT_OUT` names it: {package: paths in its wheel}."""

_MAPPING_LINE = re.compile(r"^    '\w+': \('pygments\.lexers\.(\w+)', ")


def pygments_mapping(text: str, kept: tuple[str, ...] = PYGMENTS_LEXERS) -> str:
    """pygments' table of lexers (``pygments/lexers/_mapping.py``) naming only the lexers of the
    ``kept`` modules: a language whose lexer the site left out is then unknown to pygments
    (``ClassNotFound``, as for any unknown language), not a module that fails to import."""
    lines = text.splitlines(keepends=True)
    start = lines.index("LEXERS = {\n")
    end = lines.index("}\n", start)
    body = []
    for line in lines[start + 1:end]:
        m = _MAPPING_LINE.match(line)
        if not m:
            raise SystemExit(f"lite: pygments/lexers/_mapping.py has a line not understood: {line.strip()[:80]!r}")
        if m[1] in kept:
            body.append(line)
    return "".join(lines[:start + 1] + body + lines[end:])


EDITED = {
    "pygments": {"pygments/lexers/_mapping.py": pygments_mapping},
}
"""Files of the site's wheels rewritten: {package: {path in its wheel: function(text) -> text}}."""

APP_LEFT_OUT = ("build/fa-*.eot", "build/fa-*.svg", "build/fa-*.ttf", "build/fa-*.woff")
"""What the site's JupyterLab leaves out (globs under the site): Font Awesome's fonts in the
formats of old browsers (Internet Explorer's eot, old Safari's svg, ttf, woff). Its CSS lists
woff2 before them, and every browser JupyterLab 4 runs in reads woff2 (the start page's network
log in Chromium: only ``fa-solid-900.woff2`` is fetched)."""

FAVICON_PX = 64
EARLY_KERNEL = "k8sjobs-lite"
"""The site's own JupyterLab extension (:func:`add_early_kernel`, its source tools/lite_early_kernel.js)."""
EARLY_KERNEL_SOURCE = Path(__file__).with_name("lite_early_kernel.js")
SITECUSTOMIZE = Path(__file__).with_name("lite_sitecustomize.py")
"""Python's ``sitecustomize`` in the browser (:func:`add_sitecustomize`)."""
STDLIB_ZIP = "python_stdlib.zip"
"""The largest bitmap kept in the site's ``favicon.ico`` (JupyterLite's has ten, three of them
larger, 260 kB uncompressed; browsers draw a tab's icon at 16-32 px, and its 256 px PNG stays)."""

SETTINGS_OVERRIDES = {
    # no "news from Jupyter?" question over the first lesson, and nothing to check online
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
}


_T0 = time.perf_counter()


def say(*parts: object) -> None:
    print(f"lite: [{time.perf_counter() - _T0:5.1f} s]", *parts, flush=True)


# ------------------------------------------------------------------------------ the build venv


def _digest(*paths: Path, extra: str = "") -> str:
    h = hashlib.sha256(extra.encode())
    for p in paths:
        h.update(p.read_bytes())
    return h.hexdigest()


def ensure_venv() -> Path:
    """``.venv-lite`` with exactly requirements/lite-build.txt (rebuilt when the lock changes)."""
    python = VENV / "bin" / "python"
    stamp = VENV / ".k8sjobs-lite.sha256"
    key = _digest(lock.LITE_BUILD_LOCK, Path(__file__).with_name("lite.sh"),
                  extra=f"{sys.version_info[:3]} {sys.platform}")
    if python.exists() and stamp.exists() and stamp.read_text().strip() == key:
        return python
    t0 = time.perf_counter()
    if VENV.exists():
        say("requirements/lite-build.txt changed: rebuilding .venv-lite")
        shutil.rmtree(VENV)
    say(f"creating .venv-lite from requirements/lite-build.txt with {sys.executable}")
    subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    _pip(python, "install", "--quiet", "--no-deps", "--disable-pip-version-check", "-r", str(lock.LITE_BUILD_LOCK))
    _pip(python, "check")
    stamp.write_text(key + "\n")
    say(f".venv-lite ready in {time.perf_counter() - t0:.1f} s")
    return python


def _pip(python: Path, *args: str) -> None:
    done = subprocess.run([str(python), "-m", "pip", *args], capture_output=True, text=True)
    out = [line for line in (done.stdout + done.stderr).splitlines() if "is ignored: it is neither" not in line]
    if out:
        print("\n".join(out))
    if done.returncode:
        raise SystemExit(f"lite: pip {args[0]} failed ({done.returncode})")


# ------------------------------------------------------------------------------ pins


def browser_pins() -> tuple[str, str, list[tuple[str, str, set[str], str, str]]]:
    """requirements/lite-browser.txt: (Pyodide version, npm integrity, [(key, name, extras, version, source)])."""
    text = lock.LITE_BROWSER_LOCK.read_text(encoding="utf-8")
    npm = NPM_LINE.search(text)
    if not npm:
        raise SystemExit("lite: requirements/lite-browser.txt has no '# npm: pyodide@...' line; run python3 tools/lock.py")
    pins = []
    for line in text.splitlines():
        m = re.match(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[([^\]]*)\])?==(\S+)\s+# from: (.+)$", line)
        if m:
            name, extras, version, source = m.groups()
            pins.append((lock.canon(name), name, set(filter(None, (extras or "").split(","))), version, source))
    return npm["version"], npm["integrity"], pins


# ------------------------------------------------------------------------------ pieces


def kernel_wheels_dir() -> Path:
    """The kernel's own wheels, as installed in the build venv."""
    return Path(sys.prefix) / lock.KERNEL_WHEELS.rstrip("/")


def pyodide_core(version: str, integrity: str, dest: Path) -> dict:
    """Unpack the npm package ``pyodide@version`` into ``dest``; returns its pyodide-lock.json."""
    from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION

    if PYODIDE_VERSION != version:
        raise SystemExit(f"lite: the kernel expects Pyodide {PYODIDE_VERSION}, requirements/lite-browser.txt "
                         f"records {version}; run python3 tools/lock.py")
    tarball, got = lock.npm_pyodide(version, WORK / "npm")
    if got != integrity:
        raise SystemExit(f"lite: npm's pyodide@{version} has integrity {got}, the lock records {integrity}")
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(tarball) as tar:
        for name in PYODIDE_FILES:
            (dest / name).write_bytes(tar.extractfile(f"package/{name}").read())
        return json.load(tar.extractfile("package/pyodide-lock.json"))


def fetch_wheels(pins, python: str, dest: Path) -> dict[str, Path]:
    """Every wheel of the browser lock in ``dest``: {canonical name: wheel}."""
    dest.mkdir(parents=True, exist_ok=True)
    wheels: dict[str, Path] = {}
    pypi = [f"{name}=={version}" for _, name, _, version, source in pins if source == "pypi"]
    wheels.update(lock.pip_download(pypi, dest, python))
    for key, name, _, version, source in pins:
        if source.startswith("kernel"):
            found = [p for p in kernel_wheels_dir().glob("*.whl") if lock.wheel_version(p.name) == (key, version)]
            if not found:
                raise SystemExit(f"lite: the kernel's wheels have no {name} {version}; run python3 tools/lock.py")
            wheels[key] = Path(shutil.copy2(found[0], dest))
        elif source.startswith("sdist"):
            wheels[key] = build_pure_wheel(name, version, dest)
        elif source != "pypi":
            raise SystemExit(f"lite: unknown source {source!r} for {name} in requirements/lite-browser.txt")
    return wheels


def build_pure_wheel(name: str, version: str, dest: Path) -> Path:
    """Build ``name==version`` from its sdist into a pure ``py3-none-any`` wheel (PyYAML without libyaml)."""
    env = {**lock.pip_env(), **lock.SDIST_PURE.get(lock.canon(name), {})}
    out = WORK / "sdist-wheel"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-binary=:all:",
                    "--index-url", "https://pypi.org/simple", "-w", str(out), f"{name}=={version}"],
                   check=True, env=env)
    wheel = next(out.glob("*.whl"))
    if not wheel.name.endswith("-py3-none-any.whl"):
        raise SystemExit(f"lite: {name} {version} built a platform wheel ({wheel.name}), not a pure one")
    return Path(shutil.move(wheel, dest / wheel.name))


def project_wheel(dest: Path, work: Path | None = None) -> Path:
    """The project's wheel, built from a copy of this checkout (no stale build/ in the tree) in
    ``work`` (default: the build's work folder); refused if it lacks a data file of
    :func:`package_data_expected`."""
    work = work or WORK
    src = work / "project"
    shutil.copytree(ROOT / "k8sjobs", src / "k8sjobs", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    # the build ids of the lessons the site ships: k8sjobs.set_language tells a learner whose
    # browser copy of a lesson is older (k8sjobs.older_copy_notice)
    (src / "k8sjobs" / SITE_LESSONS).write_text(json.dumps(site_lessons(), indent=0, sort_keys=True), encoding="utf-8")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    out = work / "project-wheel"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(out), str(src)],
                   check=True, env=lock.pip_env())
    wheel = next(out.glob("k8sjobs-*.whl"))
    missing = [p for p in package_data_expected() if p not in zipfile.ZipFile(wheel).namelist()]
    if missing:
        raise SystemExit(f"lite: the project wheel lacks package data {missing}: see [tool.setuptools.package-data]")
    return Path(shutil.move(wheel, dest / wheel.name))


def site_lessons() -> dict[str, str]:
    """``{"<lang>/<lesson>.ipynb": build id}`` of every lesson the site ships (their
    ``metadata.k8sjobs.build``, written by tools/build_lessons.py)."""
    out = {}
    for lang in lesson_dirs():
        for f in lesson_files(lang):
            if f.suffix == ".ipynb":
                build = json.loads(f.read_text(encoding="utf-8")).get("metadata", {}).get("k8sjobs", {}).get("build")
                if not build:
                    raise SystemExit(f"lite: {f.relative_to(ROOT)} has no metadata.k8sjobs.build: "
                                     "run tools/build_lessons.py --restyle")
                out[f.relative_to(lang.parent).as_posix()] = build
    return out


def package_data_expected(root: Path = ROOT) -> list[str]:
    """Data files of the checkout the wheel must carry, by the globs of pyproject.toml's
    ``[tool.setuptools.package-data]`` (the one place that says what ships): the API schemas,
    the snapshots ``explain`` and the lessons load, every compiled catalog (``set_language``
    reads them with the stdlib's gettext)."""
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    files: set[Path] = set()
    for package, globs in config["tool"]["setuptools"]["package-data"].items():
        base = root / package.replace(".", "/")
        for pattern in globs:
            files.update(p for p in base.glob(pattern) if p.is_file())
    return sorted(p.relative_to(root).as_posix() for p in files)


def precompile(pyodide: Path) -> None:
    """Add the bytecode of every module a lesson imports to the wheels (tools/lite_pyc.py, run in
    the site's Pyodide under Node): each kernel start then imports without compiling."""
    if not shutil.which("node"):
        raise SystemExit("lite: node is needed to precompile for the browser's Python (Debian: apt-get install nodejs)")
    done = subprocess.run(["node", str(ROOT / "tools" / "lite_pyc.mjs"), str(pyodide)], capture_output=True, text=True)
    print(done.stdout.strip()[-2000:])
    if done.returncode:
        print(done.stderr.strip()[-4000:])
        raise SystemExit(f"lite: precompiling in Pyodide failed ({done.returncode})")


def slim_wheels(wheels: dict[str, Path]) -> list[str]:
    """Rewrite the wheels :data:`LEFT_OUT` names without what it lists, in place; returns what
    was left out, with the megabytes saved."""
    done = []
    for key, prefixes in LEFT_OUT.items():
        wheel = wheels.get(key)
        if wheel is None:
            continue
        version = lock.wheel_version(wheel.name)[1]
        prefixes = tuple(p.format(version=version) for p in prefixes)
        kept = KEPT.get(key, ())
        with zipfile.ZipFile(wheel) as z:
            for p in prefixes:
                if not any(left_out(n, (p,)) for n in z.namelist()):
                    raise SystemExit(f"lite: {wheel.name} has no {p}: see LEFT_OUT in tools/lite.py")
            missing = sorted(set(kept) - set(z.namelist()))
            if missing:
                raise SystemExit(f"lite: {wheel.name} has no {missing}: see KEPT in tools/lite.py")
        saved = rewrite_wheel(wheel, drop=lambda name, prefixes=prefixes, kept=kept:
                              left_out(name, prefixes) and name not in kept, edit=EDITED.get(key, {}))
        done.append(f"{', '.join(prefixes)} of {wheel.name} ({saved / 1e6:.1f} MB)")
    return done


def left_out(name: str, prefixes: tuple[str, ...]) -> bool:
    """True if the path ``name`` of a wheel starts with one of ``prefixes`` (:data:`LEFT_OUT`)."""
    return any(fnmatch.fnmatchcase(name, p + "*") if "*" in p else name.startswith(p) for p in prefixes)


def rewrite_wheel(wheel: Path, drop, edit: dict | None = None) -> int:
    """Rewrite ``wheel`` without the files ``drop(name)`` is true for, and with the text of each
    file ``edit`` names ({path: function(text) -> text}) rewritten; its RECORD follows. Deflated
    at zlib's level 9, as tools/lite_pyc.py writes the wheels it adds bytecode to (0.16 MB less
    over the site than the default level 6). Returns the bytes saved."""
    edit = edit or {}
    with zipfile.ZipFile(wheel) as z:
        missing = sorted(set(edit) - set(z.namelist()))
        if missing:
            raise SystemExit(f"lite: {wheel.name} has no {missing} to rewrite: see EDITED in tools/lite.py")
        entries = [(info, z.read(info)) for info in z.infolist() if not drop(info.filename)]
    entries = [(info, edit[info.filename](data.decode("utf-8")).encode("utf-8") if info.filename in edit else data)
               for info, data in entries]
    names = {info.filename for info, _ in entries}
    edited = {info.filename: data for info, data in entries if info.filename in edit}
    before = wheel.stat().st_size
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as out:
        for info, data in entries:
            if info.filename.endswith(".dist-info/RECORD"):
                lines = [line for line in data.decode("utf-8").splitlines() if line.rsplit(",", 2)[0] in names]
                lines = [record_line(line.rsplit(",", 2)[0], edited[line.rsplit(",", 2)[0]])
                         if line.rsplit(",", 2)[0] in edited else line for line in lines]
                data = ("\n".join(lines) + "\n").encode("utf-8")
            out.writestr(info, data, compresslevel=9)
    return before - wheel.stat().st_size


def record_line(name: str, data: bytes) -> str:
    """A wheel's RECORD line for the file ``name`` holding ``data``."""
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def kernel_packages(site_lock_file: Path) -> list[str]:
    """The packages the kernel preloads: :data:`KERNEL_ROOTS` (those in the site's lock) and their
    dependencies there."""
    packages = json.loads(site_lock_file.read_text())["packages"]
    todo, seen = [lock.canon(r) for r in KERNEL_ROOTS if lock.canon(r) in packages], set()
    while todo:
        key = todo.pop()
        if key not in seen:
            if key not in packages:
                raise SystemExit(f"lite: the kernel needs {key}, which the site's lock does not have")
            seen.add(key)
            todo += packages[key].get("depends", [])
    return sorted(seen)


# ------------------------------------------------------------------------------ the lock of the site


def top_level_imports(wheel: Path) -> list[str]:
    """Top-level importable names of a wheel (what Pyodide's lock calls ``imports``)."""
    names = set()
    with zipfile.ZipFile(wheel) as z:
        for path in z.namelist():
            first, _, rest = path.partition("/")
            name = first if rest else first.removesuffix(".py") if first.endswith(".py") else ""
            if name.isidentifier() and not first.endswith((".dist-info", ".data")):
                names.add(name)
    return sorted(names)


def site_lock(npm_lock: dict, wheels: dict[str, Path], extras: dict[str, set[str]]) -> dict:
    """A pyodide-lock.json naming only ``wheels`` (files next to it), with their dependencies as
    Pyodide evaluates markers; every dependency must be one of them."""
    markers = lock.pyodide_markers(npm_lock["info"]["python"])
    packages = {}
    for key, wheel in sorted(wheels.items()):
        meta = lock.wheel_metadata(wheel)
        name = HeaderParser().parsestr(meta)["Name"]
        depends = sorted({lock.canon(r.name) for r in lock.requires(meta, extras.get(key, set()), markers)})
        missing = [d for d in depends if d not in wheels]
        if missing:
            raise SystemExit(f"lite: {name} needs {missing}, which requirements/lite-browser.txt does not pin")
        packages[key] = {
            "name": name, "version": lock.wheel_version(wheel.name)[1], "file_name": wheel.name,
            "install_dir": "site", "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
            "package_type": "package", "imports": top_level_imports(wheel), "depends": depends,
            "unvendored_tests": False, "shared_library": False,
        }
    return {"info": npm_lock["info"], "packages": packages}


# ------------------------------------------------------------------------------ build


def lesson_dirs() -> list[Path]:
    """``notebooks/<lang>/`` of every language that has lessons."""
    return sorted(d for d in (ROOT / "notebooks").iterdir() if d.is_dir() and any(d.glob("*.ipynb")))


def lesson_files(lang: Path) -> list[Path]:
    """What the site holds of ``notebooks/<lang>/``: the lessons and the files they read (e.g.
    ``snapshots/``), without the Markdown sources the lessons are built from."""
    files = []
    for f in sorted(lang.rglob("*")):
        if not f.is_file() or any(part.startswith(".") or part == "__pycache__" for part in f.relative_to(lang).parts):
            continue
        if f.suffix == ".md" and f.with_suffix(".ipynb").exists():
            continue
        files.append(f)
    return files


def lite_config(packages: list[str]) -> dict:
    """The site's jupyter-lite.json (the build adds to it)."""
    return {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "k8sjobs lessons",
            "exposeAppInBrowser": True,  # window.jupyterapp, as on Binder's Lab for the browser tests
            "litePluginSettings": {
                KERNEL_PLUGIN: {
                    "pyodideUrl": PYODIDE_URL,
                    "disablePyPIFallback": True,
                    "loadPyodideOptions": {"packages": packages},
                },
            },
        },
    }


def build(out: Path = SITE) -> dict:
    """Build the site into ``out`` from clean; returns figures (seconds, bytes, files)."""
    t0 = time.perf_counter()
    for path in (out, WORK):
        shutil.rmtree(path, ignore_errors=True)
    lite_dir = WORK / "lite"
    pyodide = lite_dir / PYODIDE_DIR
    version, integrity, pins = browser_pins()

    say(f"Pyodide {version} core from npm")
    npm_lock = pyodide_core(version, integrity, pyodide)
    python = npm_lock["info"]["python"]
    say(f"{len(pins)} wheels for Python {python} (PyPI, sdist, the kernel's) and the project's")
    wheels = fetch_wheels(pins, python, pyodide)
    wheels[lock.canon(lock.PROJECT)] = project_wheel(pyodide)
    slimmed = slim_wheels(wheels)
    say(f"left out: {', '.join(slimmed)}")
    extras = {key: ex for key, _, ex, _, _ in pins}
    extras[lock.canon(lock.PROJECT)] = set(lock.LITE_EXTRAS)
    site_lock_file = pyodide / "pyodide-lock.json"
    site_lock_file.write_text(json.dumps(site_lock(npm_lock, wheels, extras), indent=1, sort_keys=True))
    say("bytecode of what a kernel and a lesson import, compiled by the site's own Python (Node)")
    precompile(pyodide)
    add_sitecustomize(pyodide / STDLIB_ZIP)
    site_lock_file.write_text(json.dumps(site_lock(npm_lock, wheels, extras), indent=1, sort_keys=True))

    (lite_dir / "jupyter-lite.json").write_text(json.dumps(lite_config(kernel_packages(site_lock_file)), indent=2))
    (lite_dir / "overrides.json").write_text(json.dumps(SETTINGS_OVERRIDES, indent=2))
    content = WORK / "content"
    for lang in lesson_dirs():
        for f in lesson_files(lang):
            (content / f.relative_to(lang.parent)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(f, content / f.relative_to(lang.parent))

    say("jupyter lite build")
    cmd = [sys.executable, "-m", "jupyterlite_core", "build", "--lite-dir", str(lite_dir), "--output-dir", str(out),
           "--contents", str(content), "--apps", "lab", "--no-unused-shared-packages", "--no-sourcemaps"]
    done = subprocess.run(cmd, cwd=lite_dir, capture_output=True, text=True)
    if done.returncode:
        print(done.stdout[-4000:], done.stderr[-4000:])
        raise SystemExit(f"lite: jupyter lite build failed ({done.returncode})")
    say(f"left out of the app: {', '.join(slim_app(out))}")
    # the browser asks every page's origin for /favicon.ico (the app's is under lab/)
    shutil.copy2(out / "lab" / "favicon.ico", out / "favicon.ico")
    say(f"the site's extension: {add_early_kernel(out)}")
    figures = check_site(out)
    figures["seconds"] = round(time.perf_counter() - t0, 1)
    say(f"built {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out} in {figures['seconds']} s: "
        f"{figures['bytes'] / 1e6:.1f} MB in {figures['files']} files, {figures['wheels']} wheels preloaded, "
        f"lessons: {', '.join(figures['languages'])}")
    return figures


def add_sitecustomize(stdlib_zip: Path) -> None:
    """Put tools/lite_sitecustomize.py into Pyodide's standard library as ``sitecustomize.py``
    (Python's ``site`` imports it as Pyodide starts): imports stop asking the drive, the site's
    files behind the service worker, about the lesson's folder on every top-level name."""
    with zipfile.ZipFile(stdlib_zip) as z:
        if "sitecustomize.py" in z.namelist():
            raise SystemExit(f"lite: {stdlib_zip.name} already has a sitecustomize.py")
    with zipfile.ZipFile(stdlib_zip, "a", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("sitecustomize.py", SITECUSTOMIZE.read_text(encoding="utf-8"))


def site_notebooks(out: Path) -> list[str]:
    """The notebooks of a built site, as a page's ``?path=`` names them (``en/00-start-here.ipynb``)."""
    return sorted(p.relative_to(out / "files").as_posix() for p in (out / "files").rglob("*.ipynb"))


def early_kernel_script(notebooks: list[str], app_version: str) -> str:
    """tools/lite_early_kernel.js with the site's notebooks and appVersion written in."""
    text = EARLY_KERNEL_SOURCE.read_text(encoding="utf-8")
    for name, value in (("__NOTEBOOKS__", notebooks), ("__APP_VERSION__", app_version)):
        if text.count(name) != 1:
            raise SystemExit(f"lite: {EARLY_KERNEL_SOURCE.name} must hold {name} once")
        text = text.replace(name, json.dumps(value))  # non-ASCII as \u escapes: an ASCII script whatever the charset
    return text


def add_early_kernel(out: Path) -> str:
    """Add the site's own JupyterLab extension, :data:`EARLY_KERNEL` (tools/lite_early_kernel.js:
    a lesson's kernel starts while JupyterLab loads; JupyterLite's record of its service worker
    is written on a learner's first page), to the built site: its script, named by its hash as
    JupyterLab's builder names them (a changed script is never taken from a browser's cache),
    its package.json, and its entry in jupyter-lite.json's ``federated_extensions``. Returns the
    script's path in the site."""
    config_file = out / "jupyter-lite.json"
    config = json.loads(config_file.read_text())
    data = config["jupyter-config-data"]
    text = early_kernel_script(site_notebooks(out), data.get("appVersion", ""))
    load = f"static/remoteEntry.{hashlib.sha256(text.encode()).hexdigest()[:16]}.js"
    home = out / "extensions" / EARLY_KERNEL
    (home / "static").mkdir(parents=True, exist_ok=True)
    (home / load).write_text(text, encoding="utf-8")
    checked = subprocess.run(["node", "--check", str(home / load)], capture_output=True, text=True)
    if checked.returncode:
        raise SystemExit(f"lite: {EARLY_KERNEL_SOURCE.name} is not valid JavaScript:\n{checked.stderr[-2000:]}")
    package = {"name": EARLY_KERNEL, "version": tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"],
               "description": "The k8sjobs site's own JupyterLab extension (tools/lite_early_kernel.js)",
               "jupyterlab": {"extension": True, "_build": {"load": load, "extension": "./extension"}}}
    (home / "package.json").write_text(json.dumps(package, indent=2))
    extensions = [e for e in data.get("federated_extensions", []) if e.get("name") != EARLY_KERNEL]
    data["federated_extensions"] = [*extensions, {"name": EARLY_KERNEL, "load": load, "extension": "./extension"}]
    config_file.write_text(json.dumps(config, indent=2))
    return (home / load).relative_to(out).as_posix()


def slim_app(out: Path) -> list[str]:
    """Remove :data:`APP_LEFT_OUT` from the built site and the large bitmaps of its favicon
    (:func:`small_icon`); returns what was left out, with the megabytes saved."""
    done = []
    for pattern in APP_LEFT_OUT:
        files = sorted(out.glob(pattern))
        if not files:
            raise SystemExit(f"lite: the built site has no {pattern}: see APP_LEFT_OUT in tools/lite.py")
        saved = sum(f.stat().st_size for f in files)
        for f in files:
            f.unlink()
        done.append(f"{pattern} ({len(files)} files, {saved / 1e6:.2f} MB)")
    icon = out / "lab" / "favicon.ico"
    before = icon.stat().st_size
    icon.write_bytes(small_icon(icon.read_bytes()))
    done.append(f"the favicon's bitmaps larger than {FAVICON_PX} px ({(before - icon.stat().st_size) / 1e6:.2f} MB)")
    return done


def small_icon(ico: bytes, largest: int = FAVICON_PX) -> bytes:
    """An ICO file without its bitmaps larger than ``largest`` pixels; a PNG image (the 256 px one,
    compressed) stays whatever its size."""
    reserved, kind, count = struct.unpack_from("<HHH", ico)
    if reserved != 0 or kind != 1 or not count:
        raise SystemExit("lite: the app's favicon.ico is not an icon file")
    entries = [struct.unpack_from("<BBBBHHII", ico, 6 + 16 * i) for i in range(count)]
    kept = [(e, ico[e[7]:e[7] + e[6]]) for e in entries
            if (e[0] or 256) <= largest or ico[e[7]:e[7] + 8] == b"\x89PNG\r\n\x1a\n"]
    head, body, offset = struct.pack("<HHH", 0, 1, len(kept)), b"", 6 + 16 * len(kept)
    for (w, h, colors, res, planes, bits, size, _), image in kept:
        head += struct.pack("<BBBBHHII", w, h, colors, res, planes, bits, size, offset + len(body))
        body += image
    return head + body


def check_site(out: Path) -> dict:
    """Refuse a site that could reach the internet or misses a piece; returns its figures."""
    problems = []
    config = json.loads((out / "jupyter-lite.json").read_text())["jupyter-config-data"]
    kernel = config.get("litePluginSettings", {}).get(KERNEL_PLUGIN, {})
    if kernel.get("pyodideUrl") != PYODIDE_URL or not (out / PYODIDE_DIR / "pyodide.mjs").is_file():
        problems.append(f"the kernel's pyodideUrl is {kernel.get('pyodideUrl')!r}, not the site's {PYODIDE_URL}")
    if kernel.get("disablePyPIFallback") is not True:
        problems.append("the PyPI fallback of piplite is not disabled")
    site_lock_ = json.loads((out / PYODIDE_DIR / "pyodide-lock.json").read_text())
    for entry in site_lock_["packages"].values():
        f = out / PYODIDE_DIR / entry["file_name"]
        if "/" in entry["file_name"] or ":" in entry["file_name"] or not f.is_file():
            problems.append(f"the lock names {entry['file_name']!r}, not a wheel of the site")
        elif hashlib.sha256(f.read_bytes()).hexdigest() != entry["sha256"]:
            problems.append(f"{entry['file_name']}: sha256 differs from the lock")
    preload = kernel.get("loadPyodideOptions", {}).get("packages", [])
    if sorted(preload) != kernel_packages(out / PYODIDE_DIR / "pyodide-lock.json"):
        problems.append(f"preloaded {sorted(preload)} is not what the kernel needs to start")
    for key, entry in site_lock_["packages"].items():
        if set(entry.get("depends", [])) - site_lock_["packages"].keys():
            problems.append(f"{key} depends on {sorted(set(entry['depends']) - site_lock_['packages'].keys())}, "
                            "not in the site")
    project = site_lock_["packages"].get(lock.canon(lock.PROJECT))
    if project and (out / PYODIDE_DIR / project["file_name"]).is_file():
        with zipfile.ZipFile(out / PYODIDE_DIR / project["file_name"]) as z:
            listed = json.loads(z.read(f"k8sjobs/{SITE_LESSONS}")) if f"k8sjobs/{SITE_LESSONS}" in z.namelist() else None
        shipped = {p.relative_to(out / "files").as_posix():
                   json.loads(p.read_text(encoding="utf-8"))["metadata"].get("k8sjobs", {}).get("build")
                   for p in (out / "files").rglob("*.ipynb")}
        if listed != shipped:
            problems.append(f"k8sjobs/{SITE_LESSONS} of the project's wheel does not list the build ids of the "
                            "site's lessons")
    old_fonts = [p for pattern in APP_LEFT_OUT for p in out.glob(pattern)]
    if old_fonts:
        problems.append(f"{len(old_fonts)} files of APP_LEFT_OUT (e.g. {old_fonts[0].relative_to(out)})")
    maps = [p for p in out.rglob("*.map")]
    if maps:
        problems.append(f"{len(maps)} source maps (e.g. {maps[0].relative_to(out)})")
    if not (out / "files" / START).is_file():
        problems.append(f"no start page files/{START}")
    custom = None
    if (out / PYODIDE_DIR / STDLIB_ZIP).is_file():
        with zipfile.ZipFile(out / PYODIDE_DIR / STDLIB_ZIP) as z:
            custom = z.read("sitecustomize.py").decode() if "sitecustomize.py" in z.namelist() else None
    if custom != SITECUSTOMIZE.read_text(encoding="utf-8"):
        problems.append(f"{STDLIB_ZIP} has no sitecustomize.py, or not {SITECUSTOMIZE.name}")
    ours = [e for e in config.get("federated_extensions", []) if e.get("name") == EARLY_KERNEL]
    script = out / "extensions" / EARLY_KERNEL / ours[0]["load"] if len(ours) == 1 else None
    if script is None or not script.is_file():
        problems.append(f"the site's extension {EARLY_KERNEL} is not listed once in jupyter-lite.json with its script")
    elif script.read_text(encoding="utf-8") != early_kernel_script(site_notebooks(out), config.get("appVersion", "")):
        problems.append(f"{script.relative_to(out)} does not list the site's notebooks and appVersion")
    if problems:
        raise SystemExit("lite: the site is not right:\n  " + "\n  ".join(problems))
    files = [p for p in out.rglob("*") if p.is_file()]
    return {
        "bytes": sum(p.stat().st_size for p in files), "files": len(files), "wheels": len(site_lock_["packages"]),
        "languages": sorted(p.name for p in (out / "files").iterdir() if p.is_dir()),
        "pyodide": site_lock_["info"],
    }


# ------------------------------------------------------------------------------ serve


class Handler(http.server.SimpleHTTPRequestHandler):
    """Static files with the types a browser insists on for modules and WebAssembly."""

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
        ".json": "application/json", ".ipynb": "application/json", ".whl": "application/zip",
        ".zip": "application/zip", ".svg": "image/svg+xml",
    }
    quiet = True

    def copyfile(self, source, outputfile) -> None:
        """Send a file, counting its bytes on the server (``bytes_sent``: what a visit downloads)."""
        size = os.fstat(source.fileno()).st_size - source.tell()
        with self.server.lock:  # counted before sending: a client that has read it all sees it counted
            self.server.bytes_sent += size
        super().copyfile(source, outputfile)

    def log_message(self, format: str, *args) -> None:  # noqa: A002 (the base class's name)
        if not self.quiet:
            super().log_message(format, *args)


def start_server(site: Path = SITE, port: int = 0, quiet: bool = True) -> http.server.ThreadingHTTPServer:
    """Serve ``site`` on 127.0.0.1:``port`` (0: a free one) from a daemon thread; ``.shutdown()`` stops it.
    ``server.bytes_sent`` counts the file bytes served so far."""
    handler = functools.partial(type("H", (Handler,), {"quiet": quiet}), directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.bytes_sent, server.lock = 0, threading.Lock()
    threading.Thread(target=server.serve_forever, daemon=True, name="lite-site").start()
    return server


def start_url(server: http.server.ThreadingHTTPServer, path: str = START) -> str:
    """The URL that opens ``path`` (a notebook of the site) in JupyterLab."""
    return f"http://127.0.0.1:{server.server_address[1]}/lab/index.html?path={path}"


def serve(port: int, site: Path = SITE) -> None:
    """Serve ``site`` on 127.0.0.1 until Ctrl-C, after printing the start page's URL."""
    if not (site / "jupyter-lite.json").is_file():
        raise SystemExit(f"lite: no site in {site} yet: sh tools/lite.sh")
    server = start_server(site, port, quiet=False)
    print(f"\nThe lessons, in your browser: {start_url(server)}\n(serving {site}; Ctrl-C stops)", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.shutdown()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="sh tools/lite.sh", description=__doc__.split("\n\n")[0])
    parser.add_argument("--serve", action="store_true", help="build, then serve on 127.0.0.1")
    parser.add_argument("--serve-only", action="store_true", help="serve the existing _site/ without building")
    parser.add_argument("--port", type=int, default=8000, help="port for --serve (0: a free one)")
    parser.add_argument("--site", type=Path, default=SITE, help="the site's folder (default: _site/)")
    args = parser.parse_args(argv)
    site = args.site.resolve()
    if Path(sys.prefix).resolve() != VENV.resolve():
        if args.serve_only:
            serve(args.port, site)
            return 0
        python = ensure_venv()
        os.execv(python, [str(python), __file__, *(argv if argv is not None else sys.argv[1:])])
    if not args.serve_only:
        build(site)
    if args.serve or args.serve_only:
        serve(args.port, site)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
