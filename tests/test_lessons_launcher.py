"""``sh tools/lessons.sh`` as a learner starts it: the server comes up on the start page, with no warnings."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_starting_the_lessons_prints_no_deprecation_warning_and_serves_the_start_page(tmp_path: Path) -> None:
    port = free_port()
    # K8SJOBS_NO_SETUP: this test runs inside the .venv; tests/binder/test_setup_levels.py checks the setup step.
    env = {**os.environ, "K8SJOBS_PORT": str(port), "K8SJOBS_TOKEN": "t0ken", "K8SJOBS_NO_SETUP": "1",
           "JUPYTER_RUNTIME_DIR": str(tmp_path),
           "JUPYTER_CONFIG_DIR": str(tmp_path / "config"), "JUPYTERLAB_WORKSPACES_DIR": str(tmp_path / "ws")}
    log = tmp_path / "lessons.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(["sh", "tools/lessons.sh", "--no-browser"], cwd=ROOT, env=env, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    try:
        url = f"http://127.0.0.1:{port}/lab/tree/notebooks/en/00-start-here.ipynb?token=t0ken"
        status = None
        for _ in range(180):  # up to about three minutes on a busy machine
            if proc.poll() is not None:
                break
            try:
                with urllib.request.urlopen(url, timeout=10) as resp:
                    status = resp.status
                break
            except OSError:
                time.sleep(1)
        assert status == 200, log.read_text(errors="replace")
        time.sleep(2)  # let the server finish its start-up messages
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=60)
    text = log.read_text(errors="replace")
    assert "is running at" in text or "http://127.0.0.1" in text
    assert "DeprecationWarning" not in text, text
