"""Every snapshot error id and every explain note id raised or made in the source has its sentence."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from k8sjobs.snapshot.errors import ERROR_IDS

PKG = Path(__file__).resolve().parents[2] / "k8sjobs"
# The package binds the name explain to the function; the module is imported by its path.
explain_module = importlib.import_module("k8sjobs.snapshot.explain")
cron_module = importlib.import_module("k8sjobs.snapshot.cronexplain")


def test_every_snapshot_error_raised_has_a_sentence() -> None:
    raised = set()
    for path in PKG.rglob("*.py"):
        raised |= set(re.findall(r'Snapshot(?:Type)?Error\(\s*"([a-z_.]+)"', path.read_text(encoding="utf-8")))
    assert raised, "no SnapshotError found in the source"
    assert sorted(raised - set(ERROR_IDS)) == []


def test_every_note_made_has_a_sentence() -> None:
    made = set()
    for name in ("notes.py", "cronexplain.py"):
        made |= set(re.findall(r'SnapshotNote\(\s*"([a-z_.]+)"', (PKG / "snapshot" / name).read_text(encoding="utf-8")))
    assert {"assume.unseen_pods", "state.deleting", "state.started_without_pods", "state.status_refused",
            "assume.cron_unseen_jobs", "assume.cron_job_duration"} <= made
    texts = {**explain_module._NOTE_TEXTS, **cron_module._NOTE_TEXTS}
    assert sorted(made - set(texts)) == []
