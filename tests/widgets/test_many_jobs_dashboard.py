"""The dashboard on a run of several Jobs (the Job picker, the cluster tab), and its language."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from k8sjobs import Explorer, set_language
from k8sjobs.i18n import get_language

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "sim"))
from test_many_objects import TWO  # noqa: E402


@pytest.fixture
def english():
    set_language("en")
    yield
    set_language("en")


def test_a_run_of_two_jobs_shows_the_job_picker_and_the_cluster_tab(english) -> None:
    e = Explorer(TWO, nodes=1, pods_per_node=3)
    assert list(e.job_menu.options) == ["render", "encode"] and e.job_menu.value == "render"
    assert e.job_menu.layout.display == "flex"
    assert "cluster" in e.views
    one = Explorer(TWO.split("---")[0], nodes=1, pods_per_node=3)
    assert one.job_menu.layout.display == "none" and "cluster" not in one.views


def test_the_job_picker_moves_the_views_and_the_slider_to_that_job(english) -> None:
    e = Explorer(TWO, nodes=1, pods_per_node=3)
    for _ in range(3):
        e.step()
    t = e.state.t
    e.job_menu.value = "encode"
    assert e.state.job == "encode" and e.state.t <= t
    assert e.state.notice == "showing Job encode"
    assert e.slider.max == len(e.state.run.trace_of("encode").cycles)
    assert "job.batch/encode" in e.text_twin("timeline").splitlines()[0]
    assert e.text_twin("cluster").startswith("Pods of every Job on the nodes")
    assert e.select_job("nope") == ["no Job nope in this run; its Jobs: render, encode"]


def test_a_job_fault_acts_on_the_job_the_picker_shows_and_the_dashboard_steps_forks_and_resets(english) -> None:
    e = Explorer(TWO, nodes=1, pods_per_node=3)
    e.step()
    e.select_job("encode")
    assert e.act("suspend") == []
    assert e.state.run.actions[-1].kwargs == (("job", "encode"),)
    while e.step():
        pass
    assert e.state.run.trace_of("encode").final_job.spec.suspend is True
    assert e.state.run.trace_of("render").finished
    e.reset()
    assert e.state.actions == [] and e.state.cycle == 0 and e.state.job == "encode"
    assert e.job_menu.value == "encode"


def test_a_dashboard_built_in_russian_stays_russian(english) -> None:
    set_language("ru")
    e = Explorer(TWO, nodes=1, pods_per_node=3, views=["timeline", "counts"])
    set_language("en")
    e.step()
    assert "цикл 1" in e.status.value
    e.figure_widget("timeline")
    title = e.figure_title("timeline")
    assert "Поды" in title and "Поды" in e.figures["timeline"].layout.meta["k8sjobs_title"], title
    assert get_language() == "en"
    assert e.text_twin("counts").split()[0] != "Pods"


CRONJOB = """\
apiVersion: batch/v1
kind: CronJob
metadata:
  name: nightly
spec:
  schedule: "*/5 * * * *"
  jobTemplate:
    spec:
      template:
        metadata:
          annotations:
            sim.k8sjobs.io/duration: "30s"
        spec:
          restartPolicy: Never
          containers:
          - name: work
            image: busybox
"""


@pytest.mark.parametrize(("change", "error"), [
    (("*/5 * * * *", "61 * * * *"),
     'The CronJob "nightly" is invalid: spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum '
     '(59): 61'),
    (("  schedule:", "  timeZone: Mars/Olympus\n  schedule:"),
     'The CronJob "nightly" is invalid: spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus'),
    (("*/5 * * * *", "TZ=UTC */5 * * * *"),
     'The CronJob "nightly" is invalid: spec.schedule: Invalid value: "TZ=UTC */5 * * * *": cannot use TZ or '
     'CRON_TZ in schedule, use timeZone field instead'),
    (("  schedule:", "  startingDeadlineSeconds: -1\n  schedule:"),
     'The CronJob "nightly" is invalid: spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or '
     'equal to 0'),
    (("name: nightly", "name: " + "n" * 53), f'metadata.name: Invalid value: "{"n" * 53}": must be no more than 52 '
     'characters'),
])
def test_the_yaml_tab_gives_the_api_servers_errors_for_a_malformed_cronjob_and_keeps_the_run(english, change,
                                                                                            error) -> None:
    e = Explorer(CRONJOB, nodes=1, max_time=3600)
    e.step()
    before = (e.state.run, e.state.cycle)
    lines = e.apply_yaml(CRONJOB.replace(*change))
    assert any(error in line for line in lines), lines
    assert (e.state.run, e.state.cycle) == before
    assert error.split(": ")[0].split('"')[0] in e.error.value
