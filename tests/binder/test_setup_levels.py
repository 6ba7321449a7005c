"""tools/setup.sh installs the runtime lock for the lessons and the dev lock for the tests, each stamped,
and a second run with either level does nothing (run against a throwaway project with tiny local wheels)."""

from __future__ import annotations

import base64
import hashlib
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def wheel(folder: Path, name: str) -> Path:
    """A minimal, valid pure-Python wheel of ``name`` 1.0 (one empty module)."""
    files = {f"{name}.py": b"", f"{name}-1.0.dist-info/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n".encode(),
             f"{name}-1.0.dist-info/WHEEL": b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}

    def digest(data: bytes) -> str:
        return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()

    record = "".join(f"{path},{digest(data)},{len(data)}\n" for path, data in files.items())
    record += f"{name}-1.0.dist-info/RECORD,,\n"
    path = folder / f"{name}-1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as z:
        for p, data in files.items():
            z.writestr(p, data)
        z.writestr(f"{name}-1.0.dist-info/RECORD", record)
    return path


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("setup")
    (root / "tools").mkdir()
    shutil.copy(ROOT / "tools" / "setup.sh", root / "tools" / "setup.sh")
    (root / "pyproject.toml").write_text("[project]\nname = 'throwaway'\nversion = '0'\n")
    wheels = root / "wheels"
    wheels.mkdir()
    (root / "binder").mkdir()
    (root / "binder" / "requirements.txt").write_text(f"{wheel(wheels, 'lessons_only')}\n")
    (root / "requirements").mkdir()
    (root / "requirements" / "dev.txt").write_text(f"-r ../binder/requirements.txt\n{wheel(wheels, 'test_tool')}\n")
    return root


def setup(project: Path, *level: str) -> subprocess.CompletedProcess:
    return subprocess.run(["sh", "tools/setup.sh", *level], cwd=project, capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "PYTHON": sys.executable, "HOME": str(project)},
                          timeout=600, check=False)


def installed(project: Path) -> set[str]:
    site = next((project / ".venv" / "lib").glob("python3*/site-packages"))
    return {p.name.split("-")[0] for p in site.glob("*.dist-info")} & {"lessons_only", "test_tool"}


def test_runtime_then_dev_then_either_again_installs_each_lock_once(project: Path) -> None:
    first = setup(project, "runtime")
    assert first.returncode == 0, first.stdout + first.stderr
    assert "installing the runtime lock" in first.stdout and installed(project) == {"lessons_only"}
    stamps = project / ".venv"
    assert (stamps / ".k8sjobs-runtime.sha256").is_file() and not (stamps / ".k8sjobs-dev.sha256").exists()
    marker = stamps / "marker"
    marker.write_text("the venv was not rebuilt")

    again = setup(project, "runtime")
    assert again.returncode == 0 and "up to date with the runtime lock" in again.stdout

    dev = setup(project, "dev")
    assert dev.returncode == 0, dev.stdout + dev.stderr
    assert "installing the dev lock" in dev.stdout and "rebuilding" not in dev.stdout
    assert installed(project) == {"lessons_only", "test_tool"} and marker.is_file(), "dev goes on top of runtime"
    assert (stamps / ".k8sjobs-dev.sha256").is_file()

    for level in (["runtime"], ["dev"], []):
        noop = setup(project, *level)
        assert noop.returncode == 0 and "up to date with the dev lock" in noop.stdout, (level, noop.stdout)
    assert installed(project) == {"lessons_only", "test_tool"}, "runtime never removes what dev installed"


def test_an_unknown_level_is_refused_with_the_two_levels(project: Path) -> None:
    proc = setup(project, "everything")
    assert proc.returncode == 2 and "use 'runtime' (the lessons) or 'dev'" in proc.stderr


def test_the_launchers_ask_for_their_level() -> None:
    assert "sh tools/setup.sh runtime\n" in (ROOT / "tools" / "lessons.sh").read_text()
    assert "sh tools/setup.sh dev\n" in (ROOT / "tools" / "test.sh").read_text()


def test_a_venv_from_the_earlier_setup_script_is_brought_up_to_the_dev_lock_in_place(project: Path) -> None:
    # Its one stamp covered both locks; rebuilding it could pull the venv from under a running test.
    venv = project / ".venv"
    assert setup(project, "dev").returncode == 0
    for stamp in venv.glob(".k8sjobs-*.sha256"):
        if stamp.name != ".k8sjobs-project.sha256":
            stamp.unlink()
    (venv / ".k8sjobs-lock.sha256").write_text("an earlier stamp\n")
    marker = venv / "legacy-marker"
    marker.write_text("kept")
    proc = setup(project, "runtime")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "installing the dev lock over it" in proc.stdout and marker.is_file(), "upgraded in place"
    assert (venv / ".k8sjobs-dev.sha256").is_file() and not (venv / ".k8sjobs-lock.sha256").exists()
    assert installed(project) == {"lessons_only", "test_tool"}
