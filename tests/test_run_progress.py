"""The run command's progress bar: on a terminal, for long runs only; never on a pipe."""

from __future__ import annotations

import io

from k8sjobs.commands.run import ProgressBar
from k8sjobs.trace import Run
from tests.manifests import DURATION, job_manifest

LONG = job_manifest("long", completions=3000, parallelism=300, annotations={DURATION: "20s"})


def test_a_long_run_draws_a_bar_with_its_share_of_completions_and_erases_it(monkeypatch) -> None:
    import k8sjobs.trace.run

    monkeypatch.setattr(k8sjobs.trace.run, "PROGRESS_EVERY", 1000)
    out = io.StringIO()
    bar = ProgressBar(out, None)
    bar.SHOW_AFTER = 1000  # a 3,000-pod run is "long" for this test
    Run(LONG, seed=0, nodes=4, progress=bar)
    bar.close()
    text = out.getvalue()
    assert "simulating [" in text and "cycle " in text and "t=" in text
    frames = [f for f in text.split("\r") if f.startswith("simulating")]
    shares = [int(f.split("]")[1].split("%")[0]) for f in frames]
    assert shares == sorted(shares) and shares[-1] > shares[0], "the share grows"
    assert text.endswith("\r"), "the bar is erased before the trace is printed"


def test_a_short_run_draws_nothing() -> None:
    out = io.StringIO()
    bar = ProgressBar(out, None)
    Run(LONG.replace("3000", "3").replace("300", "3"), seed=0, progress=bar)
    bar.close()
    assert out.getvalue() == ""
