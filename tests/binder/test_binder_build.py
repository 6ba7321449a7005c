"""What Binder builds from ``binder/``, reproduced as far as this machine allows (no Docker engine).

repo2docker's Python build, with a ``binder/`` folder: a Python of ``binder/runtime.txt``,
then ``pip install --no-cache-dir -r binder/requirements.txt`` from the repository root
(the ``-e .`` line installs the project), then ``binder/postBuild`` if there is one. Here:
a fresh virtual environment from the base interpreter, the same pip command, then the
start page and a lesson executed in it, the pins compared with the CI environment's, and
the peak memory of running every lesson measured against Binder's 2 GB.

Figures (environment size, install time, peak memory) are written to
``artifacts/binder/report.json`` and printed.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BINDER = ROOT / "binder"
LOCK = BINDER / "requirements.txt"
LESSONS = sorted((ROOT / "notebooks" / "en").glob("[0-9][0-9]-*.ipynb"))
# The other languages' start pages, which their READMEs' Binder badges open (their catalogs included).
LESSONS += [p for lang in ("zh-CN", "zh-TW", "ru") if (p := ROOT / "notebooks" / lang / "00-start-here.ipynb").exists()]
REPORT = ROOT / "artifacts" / "binder" / "report.json"
BINDER_MEMORY = 2 * 1024**3
PIN = re.compile(r"^([A-Za-z0-9_.\-]+)==([^\s;#]+)")

# Runs inside the Binder environment: execute notebooks one by one, each in a new kernel that
# reports its own peak resident memory (VmHWM) in one extra last cell. (rusage's maximum for
# children would also count this runner's memory at the fork, which Linux keeps across exec.)
RUNNER = r"""
import json, sys, nbformat
from nbclient import NotebookClient
PEAK = "print([l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')][0])"
def own_peak_kib():
    return int([l.split()[1] for l in open("/proc/self/status") if l.startswith("VmHWM")][0])
out = {}
for path in sys.argv[1:]:
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_code_cell(PEAK))
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(__import__("pathlib").Path(path).parent)}}).execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    peak = "".join(o.get("text", "") for o in nb.cells[-1].outputs if o.output_type == "stream").strip()
    out[path] = {"errors": len(errors), "kernel_peak_kib": int(peak) if peak.isdigit() else None}
out["runner_peak_kib"] = own_peak_kib()
print(json.dumps(out))
"""


def pins(path: Path) -> dict[str, str]:
    """``name -> version`` of every exact pin in a requirements file (lower-cased names)."""
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = PIN.match(line.strip())
        if m:
            found[m.group(1).lower().replace("_", "-")] = m.group(2)
    return found


def du(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def record(key: str, value) -> None:
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    data = json.loads(REPORT.read_text()) if REPORT.exists() else {}
    data[key] = value
    REPORT.write_text(json.dumps(data, indent=1, sort_keys=True))
    print(f"binder: {key} = {value}")


@pytest.fixture(scope="module")
def binder_python(tmp_path_factory) -> Path:
    """A fresh environment built the way repo2docker builds it; its python."""
    venv = tmp_path_factory.mktemp("binder") / "env"
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    started = time.perf_counter()
    proc = subprocess.run([str(py), "-m", "pip", "install", "--no-cache-dir", "--quiet", "--disable-pip-version-check",
                           "-r", str(LOCK)], cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, f"pip install -r binder/requirements.txt failed:\n{proc.stderr[-3000:]}"
    record("install_seconds", round(time.perf_counter() - started, 1))
    post = BINDER / "postBuild"
    if post.exists():
        subprocess.run(["sh", str(post)], cwd=ROOT, check=True, env={**os.environ, "PATH": f"{venv / 'bin'}:"
                                                                     + os.environ["PATH"]})
    record("environment_mib", round(du(venv) / 2**20))
    return py


def test_runtime_txt_names_the_python_the_lock_was_made_for() -> None:
    runtime = (BINDER / "runtime.txt").read_text(encoding="utf-8").strip()
    assert runtime == "python-3.11"
    assert "CPython 3.11" in LOCK.read_text(encoding="utf-8").splitlines()[1]
    assert f"python-{sys.version_info.major}.{sys.version_info.minor}" == runtime, "CI runs the Binder Python"


def test_the_binder_folder_is_complete_for_repo2docker() -> None:
    text = LOCK.read_text(encoding="utf-8")
    assert re.search(r"^-e \.$", text, re.M), "the project itself is installed from the lock"
    wanted = {"jupyterlab", "notebook", "ipywidgets", "anywidget", "plotly", "networkx", "voila",
              "pyyaml", "jupyterlab-language-pack-zh-cn", "jupyterlab-language-pack-ru-ru"}
    assert wanted <= set(pins(LOCK)), f"missing pins: {sorted(wanted - set(pins(LOCK)))}"
    # repo2docker reads only binder/ when it exists: nothing else may be needed.
    assert not (ROOT / ".binder").exists() and not (BINDER / "environment.yml").exists()


def test_ci_installs_the_same_pins_as_binder() -> None:
    dev = pins(ROOT / "requirements" / "dev.txt")
    assert "-r ../binder/requirements.txt" in (ROOT / "requirements" / "dev.txt").read_text(encoding="utf-8")
    assert not set(dev) & set(pins(LOCK)), "a runtime pin repeated in the dev lock could drift"
    mismatched = {}
    for name, version in pins(LOCK).items():
        installed = metadata.version(name)
        if installed != version:
            mismatched[name] = (version, installed)
    assert not mismatched, f"CI environment differs from binder/requirements.txt: {mismatched}"


def test_the_binder_environment_has_exactly_the_pins(binder_python: Path) -> None:
    out = subprocess.run([str(binder_python), "-m", "pip", "freeze", "--exclude-editable"], capture_output=True,
                         text=True, check=True).stdout
    frozen = {m.group(1).lower().replace("_", "-"): m.group(2) for line in out.splitlines()
              if (m := PIN.match(line))}
    assert frozen == pins(LOCK)


def _name(path: str) -> str:
    """``01-why-jobs.ipynb`` for an English lesson, ``zh-CN/00-start-here.ipynb`` for another language."""
    p = Path(path)
    return p.name if p.parent.name == "en" else f"{p.parent.name}/{p.name}"


def test_the_start_page_and_every_lesson_run_in_the_binder_environment_well_under_2_gb(binder_python: Path) -> None:
    assert LESSONS and LESSONS[0].name == "00-start-here.ipynb"
    proc = subprocess.run([str(binder_python), "-c", RUNNER, *map(str, LESSONS)], capture_output=True, text=True,
                          check=False, timeout=1800, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    errors = {_name(p): r["errors"] for p, r in result.items() if isinstance(r, dict) and r["errors"]}
    assert not errors, f"cells raised errors in the Binder environment: {errors}"
    peaks = {_name(p): r["kernel_peak_kib"] for p, r in result.items() if isinstance(r, dict)}
    assert all(isinstance(v, int) and v > 0 for v in peaks.values()), f"a kernel did not report its peak: {peaks}"
    kernel_peak = max(peaks.values()) * 1024
    runner = result["runner_peak_kib"] * 1024
    record("kernel_peak_by_lesson_mib", {name: round(v / 1024) for name, v in peaks.items()})
    record("lessons", len(LESSONS))
    record("kernel_peak_mib", round(kernel_peak / 2**20))
    record("runner_peak_mib", round(runner / 2**20))
    # The kernel runs beside the Jupyter server (about 150 MB): keep the kernel under half of 2 GB.
    assert kernel_peak < BINDER_MEMORY / 2
