"""``from k8sjobs import explain``: the same answer from text, a path, a document or a Snapshot; parts; forecasts."""

from __future__ import annotations

import json

import pytest
import yaml

from k8sjobs import DecodeError, Snapshot, example_snapshot, explain, load_snapshot


def test_explain_reads_text_a_path_a_document_and_a_snapshot_alike(tmp_path) -> None:
    text = example_snapshot("backoff")
    path = tmp_path / "snap.yaml"
    path.write_text(text)
    answers = [explain(x).to_json() for x in (text, str(path), path, yaml.safe_load(text), load_snapshot(text))]
    assert all(a == answers[0] for a in answers[1:])
    assert isinstance(load_snapshot(text), Snapshot)


def test_printing_an_explanation_gives_the_commands_text_and_parts_choose_sections() -> None:
    e = explain(example_snapshot("quota"))
    assert str(e) == e.render_text()
    assert repr(e) == "<Explanation of default/thumbnails at 2026-03-10T09:30:01Z>"
    part = e.render_text(["result"])
    assert part.startswith("Result\n  1 pod creation fails") and "What the controller observes" not in part
    with pytest.raises(ValueError, match="unknown nope; the parts are heading, observes"):
        e.render_text(["nope"])


def test_now_moves_the_sync_and_a_forecast_starts_with_the_explained_sync() -> None:
    e = explain(example_snapshot("backoff"), now="2026-03-10T02:01:45Z")
    assert e.to_json()["sync"]["creations"] == 1  # the 10 s back-off is over at 02:01:45
    run = explain(example_snapshot("backoff")).forecast(assume_duration=30)
    assert "backoff.wait" in run.cycle(1).rules() and run.cycle(1).requeue_after == 10
    assert run.trace.snapshot_at == "2026-03-10T02:01:30Z" and run.trace.final_job.status.succeeded == 1
    assert explain(example_snapshot("backoff")).forecast(until=5).trace.truncated


def test_a_missing_path_and_a_wrong_type_are_clear_errors(tmp_path) -> None:
    with pytest.raises(DecodeError, match="missing.yaml: No such file"):
        explain(str(tmp_path / "missing.yaml"))
    with pytest.raises(TypeError, match="expected YAML or JSON text, a path, a dict or a Snapshot, got int"):
        explain(3)
    assert json.loads(explain(example_snapshot("indexed")).to_json_text())["job"] == "default/shards"
