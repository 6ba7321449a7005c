"""The JupyterLite tooling without building a site: pins, the site's lock, the checks, the links.

The built site itself is tested by tests/lite (the ``lite`` stage of tools/test.sh).
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import sys
import zipfile
from pathlib import Path

import pytest

from tools import binder_links, lite, lite_pyc, lock

ROOT = Path(__file__).resolve().parents[1]

MARKERS = lock.pyodide_markers("3.14.2")


def make_wheel(path: Path, name: str, version: str, requires: list[str], files: dict[str, str]) -> Path:
    """A minimal wheel with METADATA, RECORD and ``files``."""
    wheel = path / f"{name}-{version}-py3-none-any.whl"
    meta = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n" + "".join(
        f"Requires-Dist: {r}\n" for r in requires)
    with zipfile.ZipFile(wheel, "w") as z:
        for arcname, text in files.items():
            z.writestr(arcname, text)
        z.writestr(f"{name}-{version}.dist-info/METADATA", meta)
        z.writestr(f"{name}-{version}.dist-info/RECORD", "")
    return wheel


def test_requirements_are_evaluated_as_pyodide_evaluates_markers():
    meta = ("Name: ipython\nRequires-Dist: jedi>=0.18\n"
            'Requires-Dist: psutil>=7; sys_platform != "emscripten"\n'
            'Requires-Dist: pexpect>4.3; sys_platform != "win32" and sys_platform != "emscripten"\n'
            'Requires-Dist: typing_extensions; python_version < "3.12"\n'
            'Requires-Dist: pytest; extra == "test"\n')
    assert [r.name for r in lock.requires(meta, set(), MARKERS)] == ["jedi"]
    assert [r.name for r in lock.requires(meta, {"test"}, MARKERS)] == ["jedi", "pytest"]


def test_wheel_and_sdist_names_give_name_and_version():
    assert lock.wheel_version("prompt_toolkit-3.0.53-py3-none-any.whl") == ("prompt-toolkit", "3.0.53")
    assert lock.wheel_version("jedi-0.20.1-py2.py3-none-any.whl") == ("jedi", "0.20.1")
    assert lock.wheel_version("pyyaml-6.0.4.tar.gz") == ("pyyaml", "6.0.4")
    with pytest.raises(ValueError):
        lock.wheel_version("python_stdlib.zip")


def test_the_browser_lock_pins_the_runtime_versions_and_no_numpy():
    runtime = {}
    for line in (ROOT / "binder" / "requirements.txt").read_text().splitlines():
        if "==" in line and not line.startswith("#"):
            name, version = line.split("==")
            runtime[lock.canon(name)] = version.strip()
    version, integrity, pins = lite.browser_pins()
    assert re.fullmatch(r"\d+\.\d+\.\d+", version) and integrity.startswith("sha512-")
    keys = {key for key, *_ in pins}
    assert {"plotly", "ipywidgets", "anywidget", "networkx", "pyyaml", "pyodide-kernel", "ipython"} <= keys
    assert "numpy" not in keys and "psutil" not in keys and "pexpect" not in keys
    for key, name, _, pinned, source in pins:
        if source == "pypi" or source.startswith("sdist"):
            assert runtime.get(key, pinned) == pinned, f"{name}: browser {pinned}, runtime {runtime.get(key)}"
    assert [s for _, n, _, _, s in pins if n == "PyYAML"] == ["sdist, built as a pure wheel"]


def test_the_build_lock_keeps_jupyterlite_and_its_kernel_together():
    text = (ROOT / "requirements" / "lite-build.txt").read_text()
    core = re.search(r"^jupyterlite-core==(\S+)$", text, re.M).group(1)
    kernel = re.search(r"^jupyterlite-pyodide-kernel==(\S+)$", text, re.M).group(1)
    assert core == kernel


def test_the_site_lock_names_only_local_wheels_with_their_sums_and_dependencies(tmp_path):
    a = make_wheel(tmp_path, "alpha", "1.0", ["beta>=2", 'psutil; sys_platform != "emscripten"'],
                   {"alpha/__init__.py": "", "alpha_helper.py": ""})
    b = make_wheel(tmp_path, "beta", "2.1", [], {"beta/__init__.py": ""})
    npm = {"info": {"python": "3.14.2", "arch": "wasm32"}, "packages": {"numpy": {"file_name": "numpy-2.whl"}}}
    out = lite.site_lock(npm, {"alpha": a, "beta": b}, {})
    assert set(out["packages"]) == {"alpha", "beta"}, "the npm package's entries are not kept"
    entry = out["packages"]["alpha"]
    assert entry["file_name"] == a.name and entry["depends"] == ["beta"]
    assert entry["sha256"] == hashlib.sha256(a.read_bytes()).hexdigest()
    assert entry["imports"] == ["alpha", "alpha_helper"]
    with pytest.raises(SystemExit, match="does not pin"):
        lite.site_lock(npm, {"alpha": a}, {})


def write_site(tmp_path: Path, pyodide_url: str = lite.PYODIDE_URL, fallback: bool = True,
               file_name: str | None = None, preload: tuple[str, ...] = ("comm",), early_kernel: bool = True,
               sitecustomize: bool = True) -> Path:
    site = tmp_path / "site"
    pyodide = site / lite.PYODIDE_DIR
    pyodide.mkdir(parents=True)
    (pyodide / "pyodide.mjs").write_text("")
    with zipfile.ZipFile(pyodide / lite.STDLIB_ZIP, "w") as z:
        z.writestr("os.py", "")
    if sitecustomize:
        lite.add_sitecustomize(pyodide / lite.STDLIB_ZIP)
    # comm: a package the kernel starts with (preloaded); alpha: one a lesson imports (loaded then)
    lock_ = {"info": {"python": "3.14.2"}, "packages": {}}
    for name in ("alpha", "comm"):
        wheel = make_wheel(pyodide, name, "1.0", [], {f"{name}/__init__.py": ""})
        lock_["packages"][name] = {"file_name": file_name or wheel.name, "depends": [],
                                   "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest()}
    (pyodide / "pyodide-lock.json").write_text(json.dumps(lock_))
    config = lite.lite_config(list(preload))
    settings = config["jupyter-config-data"]["litePluginSettings"][lite.KERNEL_PLUGIN]
    settings["pyodideUrl"], settings["disablePyPIFallback"] = pyodide_url, fallback
    (site / "jupyter-lite.json").write_text(json.dumps(config))
    (site / "files" / "en").mkdir(parents=True)
    (site / "files" / lite.START).write_text("{}")
    if early_kernel:
        lite.add_early_kernel(site)
    return site


def test_check_site_accepts_a_site_that_loads_everything_from_itself(tmp_path):
    figures = lite.check_site(write_site(tmp_path))
    assert figures["wheels"] == 2 and figures["languages"] == ["en"]


@pytest.mark.parametrize("broken, message", [
    ({"pyodide_url": "https://cdn.jsdelivr.net/pyodide/v314.0.6/full/pyodide.mjs"}, "pyodideUrl"),
    ({"fallback": False}, "PyPI fallback"),
    ({"file_name": "https://cdn.jsdelivr.net/pyodide/v314.0.6/full/alpha-1.0-py3-none-any.whl"}, "not a wheel"),
    ({"preload": ("alpha", "comm")}, "not what the kernel needs to start"),
    ({"preload": ()}, "not what the kernel needs to start"),
])
def test_check_site_refuses_a_site_that_would_fetch_from_outside(tmp_path, broken, message):
    with pytest.raises(SystemExit, match=message):
        lite.check_site(write_site(tmp_path, **broken))


def test_check_site_refuses_a_site_whose_python_has_not_the_sites_sitecustomize(tmp_path):
    with pytest.raises(SystemExit, match="no sitecustomize.py"):
        lite.check_site(write_site(tmp_path, sitecustomize=False))
    site = write_site(tmp_path / "again")
    with pytest.raises(SystemExit, match="already has a sitecustomize"):
        lite.add_sitecustomize(site / lite.PYODIDE_DIR / lite.STDLIB_ZIP)


def test_check_site_refuses_a_site_without_its_own_extension_or_with_a_stale_one(tmp_path):
    with pytest.raises(SystemExit, match="k8sjobs-lite is not listed once"):
        lite.check_site(write_site(tmp_path / "none", early_kernel=False))
    site = write_site(tmp_path / "stale")
    (site / "files" / "ru").mkdir()
    (site / "files" / "ru" / "00-start-here.ipynb").write_text("{}")  # a notebook the script does not list
    with pytest.raises(SystemExit, match="does not list the site's notebooks"):
        lite.check_site(site)


def test_the_sites_extension_lists_its_notebooks_and_is_listed_once_by_its_hash(tmp_path):
    site = write_site(tmp_path)
    config = json.loads((site / "jupyter-lite.json").read_text())["jupyter-config-data"]
    config["appVersion"] = "0.8.6"
    (site / "jupyter-lite.json").write_text(json.dumps({"jupyter-config-data": config}))
    (site / "files" / "zh-CN").mkdir()
    (site / "files" / "zh-CN" / "01-为什么.ipynb").write_text("{}")
    first = lite.add_early_kernel(site)
    again = lite.add_early_kernel(site)  # a second run replaces its entry, it does not add one
    assert first == again and re.fullmatch(r"extensions/k8sjobs-lite/static/remoteEntry\.[0-9a-f]{16}\.js", first)
    script = (site / first).read_text(encoding="utf-8")
    assert 'var NOTEBOOKS = ["en/00-start-here.ipynb", "zh-CN/01-\\u4e3a\\u4ec0\\u4e48.ipynb"];' in script
    assert script.isascii()
    assert 'var APP_VERSION = "0.8.6";' in script and "__NOTEBOOKS__" not in script
    entries = json.loads((site / "jupyter-lite.json").read_text())["jupyter-config-data"]["federated_extensions"]
    assert entries == [{"name": "k8sjobs-lite", "load": first.split("k8sjobs-lite/")[1], "extension": "./extension"}]
    package = json.loads((site / "extensions" / "k8sjobs-lite" / "package.json").read_text())
    assert package["jupyterlab"]["_build"] == {"load": entries[0]["load"], "extension": "./extension"}
    lite.check_site(site)


def test_the_sites_extension_is_checked_as_javascript_when_it_is_written(tmp_path, monkeypatch):
    source = tmp_path / "broken.js"
    source.write_text(lite.EARLY_KERNEL_SOURCE.read_text().replace("function skip(why) {", "function skip(why) {{"))
    monkeypatch.setattr(lite, "EARLY_KERNEL_SOURCE", source)
    with pytest.raises(SystemExit, match="not valid JavaScript"):
        write_site(tmp_path)


def test_the_server_serves_modules_and_webassembly_with_the_types_browsers_insist_on(tmp_path):
    import urllib.request

    for name, size in (("a.mjs", 1), ("a.wasm", 1000), ("a.js", 10)):
        (tmp_path / name).write_bytes(b"x" * size)
    server = lite.start_server(tmp_path, 0)
    try:
        port = server.server_address[1]
        types = {}
        for name in ("a.mjs", "a.wasm", "a.js"):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/{name}") as answer:
                types[name] = answer.headers["Content-Type"]
                answer.read()
    finally:
        server.shutdown()
    assert types == {"a.mjs": "text/javascript", "a.wasm": "application/wasm", "a.js": "text/javascript"}
    assert server.server_address[0] == "127.0.0.1"
    assert server.bytes_sent == 1011, "the bytes a visit downloads are counted (benchmarks/bench_lite.py)"


def test_precompiled_modules_are_added_to_a_wheel_and_its_record(tmp_path):
    pyc = lite_pyc
    wheel = make_wheel(tmp_path, "alpha", "1.0", [], {"alpha/__init__.py": "X = 1\n"})
    pyc.add_to_wheel(str(wheel), {"alpha/__pycache__/__init__.cpython-314.pyc": b"\x00" * 16})
    with zipfile.ZipFile(io.BytesIO(wheel.read_bytes())) as z:
        assert "alpha/__pycache__/__init__.cpython-314.pyc" in z.namelist()
        assert z.read("alpha/__init__.py") == b"X = 1\n"
        record = z.read("alpha-1.0.dist-info/RECORD").decode()
    assert record.startswith("alpha/__pycache__/__init__.cpython-314.pyc,sha256=")


def test_the_standard_librarys_modules_get_unchecked_pycs_next_to_their_source_in_its_zip(tmp_path, monkeypatch):
    import types
    import zipimport

    stdlib = tmp_path / "python_stdlib.zip"
    with zipfile.ZipFile(stdlib, "w") as z:
        z.writestr("sitepyc_alpha/__init__.py", "")
        z.writestr("sitepyc_alpha/beta.py", "def where():\n    raise ValueError('here')\n")
        z.writestr("sitepyc_gamma.py", "X = 1\n")
    other = tmp_path / "other.zip"  # a loader of the kind; not one of this zip, whose listing zipimport would cache
    zipfile.ZipFile(other, "w").writestr("x.py", "")
    zipped = zipimport.zipimporter(str(other))
    imported = [types.SimpleNamespace(__file__=f"{stdlib}/sitepyc_alpha/beta.py", __loader__=zipped),
                types.SimpleNamespace(),  # a built-in module
                types.SimpleNamespace(__file__=str(tmp_path / "elsewhere.py"), __loader__=zipped),
                # frozen into the interpreter: its source is in the zip, but it never is read from there
                types.SimpleNamespace(__file__=f"{stdlib}/sitepyc_gamma.py", __loader__=object())]
    pycs = lite_pyc.stdlib_pycs(imported, str(stdlib), str(tmp_path))
    assert list(pycs) == ["sitepyc_alpha/beta.pyc"]
    assert int.from_bytes(pycs["sitepyc_alpha/beta.pyc"][4:8], "little") == 1, "hash-based, unchecked"
    assert lite_pyc.add_to_stdlib(str(stdlib), pycs) > 0
    with zipfile.ZipFile(stdlib) as z:
        assert sorted(z.namelist()) == ["sitepyc_alpha/__init__.py", "sitepyc_alpha/beta.py",
                                        "sitepyc_alpha/beta.pyc", "sitepyc_gamma.py"]
    # Python's zipimport takes the pyc; a traceback names the source, as before
    monkeypatch.syspath_prepend(str(stdlib))
    from sitepyc_alpha import beta

    try:
        assert beta.__file__.endswith("beta.pyc")
        assert beta.where.__code__.co_filename == f"{stdlib}/sitepyc_alpha/beta.py"
    finally:
        for name in ("sitepyc_alpha", "sitepyc_alpha.beta"):
            sys.modules.pop(name, None)


def test_a_slimmed_wheel_leaves_out_its_test_folders_at_any_depth_and_its_record_follows(tmp_path):
    files = ["networkx/__init__.py", "networkx/tests/test_all.py", "networkx/algorithms/tests/test_a.py",
             "networkx/algorithms/flow/tests/test_f.py", "networkx/algorithms/flow/maxflow.py",
             "networkx/contests.py", "networkx-3.6.1.dist-info/METADATA"]
    wheel = tmp_path / "networkx-3.6.1-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        for name in files:
            z.writestr(name, "")
        z.writestr("networkx-3.6.1.dist-info/RECORD", "".join(f"{n},sha256=x,0\n" for n in files))
    prefixes = lite.LEFT_OUT["networkx"]
    assert lite.slim_wheels({"networkx": wheel}) and prefixes == ("networkx/tests/", "networkx/*/tests/")
    with zipfile.ZipFile(wheel) as z:
        names = sorted(n for n in z.namelist() if not n.endswith("RECORD"))
        record = [line.split(",")[0] for line in z.read("networkx-3.6.1.dist-info/RECORD").decode().splitlines()]
    assert names == ["networkx-3.6.1.dist-info/METADATA", "networkx/__init__.py",
                     "networkx/algorithms/flow/maxflow.py", "networkx/contests.py"]
    assert sorted(record) == names


PYGMENTS_USE = """
import sys
from IPython.core.interactiveshell import InteractiveShell
import ipython_pygments_lexers  # noqa: F401  (imports the lexers of Bash, HTML, JavaScript, Ruby, Perl, TeX)
from pygments.lexers import get_lexer_by_name
for name in ("python", "text", "yaml", "json", "bash", "html", "css", "javascript", "markdown", "pytb", "pycon"):
    get_lexer_by_name(name)
shell = InteractiveShell.instance()
shell.run_cell("1/0")  # a traceback, highlighted
shell.run_cell("import json\\njson.dumps??")  # the source of a function, highlighted
print(" ".join(sorted(m.split(".")[-1] for m in sys.modules if m.startswith("pygments.lexers."))))
"""


def test_the_lexers_the_site_keeps_of_pygments_import_no_other_lexer():
    import subprocess

    import pygments

    _, _, pins = lite.browser_pins()
    assert ("pygments", pygments.__version__) in {(key, version) for key, _, _, version, _ in pins}
    done = subprocess.run([sys.executable, "-c", PYGMENTS_USE], capture_output=True, text=True, check=True,
                          cwd=ROOT)
    used = set(done.stdout.strip().splitlines()[-1].split())
    assert {"python", "data", "shell", "html", "markup"} <= used
    assert used <= set(lite.PYGMENTS_LEXERS), sorted(used - set(lite.PYGMENTS_LEXERS))
    assert lite.KEPT["pygments"] == tuple(f"pygments/lexers/{m}.py" for m in lite.PYGMENTS_LEXERS)
    assert lite.left_out("pygments/lexers/rust.py", lite.LEFT_OUT["pygments"])
    assert not lite.left_out("pygments/formatters/html.py", lite.LEFT_OUT["pygments"])


def test_pygments_table_of_lexers_names_only_the_lexers_the_site_keeps():
    import pygments.lexers._mapping as mapping

    text = Path(mapping.__file__).read_text(encoding="utf-8")
    table: dict = {}
    exec(compile(lite.pygments_mapping(text), "_mapping.py", "exec"), table)
    modules = {entry[0].rsplit(".", 1)[-1] for entry in table["LEXERS"].values()}
    assert modules == set(lite.PYGMENTS_LEXERS) - {"__init__", "_mapping", "_css_builtins", "_lilypond_builtins",
                                                   "_scheme_builtins"}
    assert {"PythonLexer", "YamlLexer", "JsonLexer", "BashLexer", "TextLexer"} <= set(table["LEXERS"])
    assert "RustLexer" in mapping.LEXERS and "RustLexer" not in table["LEXERS"]
    with pytest.raises(SystemExit, match="not understood"):
        lite.pygments_mapping("LEXERS = {\n    'X': ['pygments.lexers.x'],\n}\n")


def test_the_favicon_keeps_its_small_bitmaps_and_its_png():
    import struct

    def entry(px: int, image: bytes) -> tuple[int, bytes]:
        return px, image

    images = [entry(0, b"\x89PNG\r\n\x1a\n" + b"p" * 10), entry(192, b"B" * 300), entry(64, b"m" * 40),
              entry(16, b"s" * 20)]
    head, body, offset = struct.pack("<HHH", 0, 1, len(images)), b"", 6 + 16 * len(images)
    for px, image in images:
        head += struct.pack("<BBBBHHII", px, px, 0, 0, 1, 32, len(image), offset + len(body))
        body += image
    small = lite.small_icon(head + body, largest=64)
    assert struct.unpack_from("<HHH", small) == (0, 1, 3)
    kept = [struct.unpack_from("<BBBBHHII", small, 6 + 16 * i) for i in range(3)]
    assert [(e[0], small[e[7]:e[7] + e[6]]) for e in kept] == [images[0], images[2], images[3]]
    assert len(small) == 6 + 16 * 3 + 18 + 40 + 20
    with pytest.raises(SystemExit, match="not an icon"):
        lite.small_icon(b"GIF89a" + b"\x00" * 20)


def test_the_readme_points_at_the_published_site_under_the_two_commands():
    links = binder_links
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert links.lite_link() in readme, "run: python3 tools/binder_links.py --write"
    assert links.pages_url("k8sjobs/k8sjobs") == "https://k8sjobs.github.io/k8sjobs/"
    assert links.pages_url("Someone/someone.github.io") == "https://someone.github.io/"
    assert links.lite_start("en") == lite.START
    for language in ("zh-CN", "zh-TW", "ru"):  # every README has its language's line, where it has the block
        text = (ROOT / links.README[language]).read_text(encoding="utf-8")
        assert links.lite_link(language=language) in text
        assert f"path={language}/00-start-here.ipynb" in text and (ROOT / "notebooks" / language).is_dir()
    lines = readme.splitlines()
    commands = [i for i, line in enumerate(lines) if line.startswith("    sh tools/")]
    third = next(i for i, line in enumerate(lines) if line.startswith("No install: [open the lessons"))
    assert commands[:2] == [2, 3] and third == commands[1] + 3, "the line right under the two commands"
    assert f"{links.pages_url()}lab/index.html?path=en/00-start-here.ipynb" in lines[third]


def test_the_workflow_publishes_the_site_that_tools_lite_sh_builds():
    workflow = (ROOT / ".github" / "workflows" / "lite.yml").read_text(encoding="utf-8")
    assert "run: sh tools/lite.sh" in workflow
    assert re.search(r"uses: actions/upload-pages-artifact@v\d+\n\s+with:\n\s+path: _site\n", workflow)
    assert "uses: actions/deploy-pages@v" in workflow and "pages: write" in workflow


def test_the_lite_stage_builds_the_site_and_runs_its_browser_tests():
    script = (ROOT / "tools" / "test.sh").read_text(encoding="utf-8")
    assert "stage lite stage_lite" in script
    body = script[script.index("stage_lite() {"):]
    assert "-m pytest tests/lite" in body
    # the site is built by tools/lite.sh: in the lite stage, or in the background from right after
    # the chromium stage (the stages that follow run meanwhile; the lite stage waits for it)
    assert "lite_build || return" in body and "wait \"$LITE_PID\"" in body
    assert "PIP_CACHE_DIR=$PIP_CACHE sh tools/lite.sh" in script  # in the lite stage
    assert "setsid sh -c 'PIP_CACHE_DIR=$1 sh tools/lite.sh" in script  # in the background
    main = script[script.index("stage setup stage_setup"):]
    assert main.index("stage chromium") < main.index("lite_build_early") < main.index("stage pytest")


def test_the_background_site_build_reports_its_log_and_exit_code_to_the_lite_stage(tmp_path):
    # tools/test.sh's own functions, with tools/lite.sh standing in as a script that fails
    import subprocess

    script = (ROOT / "tools" / "test.sh").read_text(encoding="utf-8")
    functions = script[script.index('LITE_PID=""'):script.index("stage_browser() {")]
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "lite.sh").write_text('echo "building with cache $PIP_CACHE_DIR"; exit 3\n')
    driver = (f'ROOT={tmp_path}; FAILED=""; PIP_CACHE=/pip-cache; VPY=false; RESULTS={tmp_path}\n'
              f'cd {tmp_path}\nmkdir -p artifacts\n{functions}\n'
              'lite_build_early\nstage_lite; echo "lite stage: $?"\n')
    out = subprocess.run(["sh", "-c", driver], capture_output=True, text=True, timeout=60).stdout
    assert "building with cache /pip-cache" in out
    assert "lite stage: 3" in out
    assert (tmp_path / "artifacts" / "lite-build.log").read_text() == "building with cache /pip-cache\n"


def test_every_data_file_of_the_package_is_named_by_the_package_data_globs():
    import subprocess

    tracked = subprocess.run(["git", "ls-files", "k8sjobs"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    data = {f for f in tracked if not f.endswith((".py", ".po", ".pot"))}  # .po/.pot: catalog sources
    expected = set(lite.package_data_expected())
    assert data <= expected, f"not shipped in the wheel: {sorted(data - expected)} (pyproject.toml package-data)"
    assert {"k8sjobs/snapshots/backoff.yaml", "k8sjobs/locale/ru/LC_MESSAGES/k8sjobs.mo",
            "k8sjobs/locale/zh_CN/LC_MESSAGES/k8sjobs.mo", "k8sjobs/api/schema_batch_v1.json"} <= expected


def test_the_built_wheel_carries_the_snapshots_the_catalogs_and_the_schemas(tmp_path):
    # The browser has only the wheel (no checkout): explain's snapshots, set_language's .mo files
    # and the API schema must be in it, byte for byte.
    (tmp_path / "dist").mkdir()
    wheel = lite.project_wheel(tmp_path / "dist", work=tmp_path / "work")
    with zipfile.ZipFile(wheel) as z:
        for name in lite.package_data_expected():
            assert z.read(name) == (ROOT / name).read_bytes(), f"{name} differs in the wheel"
        names = z.namelist()
    assert [n for n in names if n.startswith("k8sjobs/snapshots/") and n.endswith(".yaml")]
    assert len([n for n in names if n.endswith("/LC_MESSAGES/k8sjobs.mo")]) >= 3
    assert not [n for n in names if n.endswith((".po", ".pot")) or "__pycache__" in n]


def test_serve_prints_the_start_url_and_serves_the_site_on_127_0_0_1(tmp_path):
    import subprocess
    import urllib.request

    site = write_site(tmp_path)
    server = subprocess.Popen([sys.executable, str(ROOT / "tools" / "lite.py"), "--serve-only", "--site", str(site),
                               "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        lines = [server.stdout.readline() for _ in range(2)]
        url = re.search(r"The lessons, in your browser: (http://127\.0\.0\.1:\d+/lab/index\.html\?path=(\S+))", lines[1])
        assert url, lines
        assert url.group(2) == lite.START
        port_root = url.group(1).split("/lab/")[0]
        with urllib.request.urlopen(f"{port_root}/files/{lite.START}") as answer:
            assert answer.read() == b"{}"
        with urllib.request.urlopen(f"{port_root}/jupyter-lite.json") as answer:
            assert answer.headers["Content-Type"] == "application/json"
    finally:
        server.terminate()
        server.wait(timeout=10)


def drive_finder(tmp_path: Path, monkeypatch, clock: list[float]):
    """tools/lite_sitecustomize.py's finder for a folder of a pretend drive, on a clock of ours."""
    from tools import lite_sitecustomize as custom

    monkeypatch.setattr(custom.time, "monotonic", lambda: clock[0])
    return custom.DriveFinder(str(tmp_path), *custom._loader_details())


def test_the_sites_python_finds_a_module_in_the_drive_without_asking_again_within_a_second(tmp_path, monkeypatch):
    from tools import lite_sitecustomize as custom

    clock = [100.0]
    (tmp_path / "present.py").write_text("X = 1\n")
    finder = drive_finder(tmp_path, monkeypatch, clock)
    assert finder.find_spec("present").origin == str(tmp_path / "present.py")
    asked = []
    monkeypatch.setattr(custom.FileFinder, "find_spec", lambda self, name, target=None: asked.append(name))
    assert finder.find_spec("json") is None and asked == [], "a name the listing cannot be: the drive is not asked"
    finder.find_spec("present_too")
    assert asked == [], "present.py is not present_too: not asked either"
    finder.find_spec("present")
    assert asked == ["present"], "a name the listing has: Python's finder is asked, as without the site's finder"
    clock[0] += custom.FRESH_SECONDS
    finder.find_spec("json")
    assert asked[-1] == "json", "after a second, the drive is asked again"


def test_a_module_written_into_the_drive_is_found_after_invalidate_caches_or_a_second(tmp_path, monkeypatch):
    from tools import lite_sitecustomize as custom

    clock = [100.0]
    finder = drive_finder(tmp_path, monkeypatch, clock)
    assert finder.find_spec("mine") is None
    (tmp_path / "mine.py").write_text("")
    assert finder.find_spec("mine") is None, "within the second the listing is trusted"
    finder.invalidate_caches()
    assert finder.find_spec("mine").origin == str(tmp_path / "mine.py")
    (tmp_path / "later.py").write_text("")
    clock[0] += custom.FRESH_SECONDS + 0.5
    finder._path_mtime = -1  # the folder's time in seconds may not have moved within this test
    assert finder.find_spec("later").origin == str(tmp_path / "later.py")


def test_the_sites_sitecustomize_changes_nothing_outside_the_browser_and_hooks_only_the_drive(monkeypatch):
    from tools import lite_sitecustomize as custom

    assert not any(getattr(h, "__qualname__", "").startswith("_install") for h in sys.path_hooks)
    hooks = []
    monkeypatch.setattr(custom.sys, "path_hooks", hooks)
    monkeypatch.setattr(custom.sys, "path_importer_cache", {"/drive/en": object(), "/lib/python314.zip": object()})
    custom._install()
    assert list(custom.sys.path_importer_cache) == ["/lib/python314.zip"], "the drive's old finders are dropped"
    assert isinstance(hooks[0]("/drive/en"), custom.DriveFinder) and isinstance(hooks[0]("/drive"), custom.DriveFinder)
    for other in ("/lib/python3.14/site-packages", "/drivers", ""):
        with pytest.raises(ImportError):
            hooks[0](other)
