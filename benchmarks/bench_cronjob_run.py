"""A CronJob run to the end in the engine (issue 22): print figures, assert nothing.

    python benchmarks/bench_cronjob_run.py            # a week of an every-minute CronJob
    python benchmarks/bench_cronjob_run.py --days 1   # a day

The CronJob (``* * * * *``, one 10 s pod per Job, default history limits) runs with its Jobs and
their pods on one heap, as ``python -m k8sjobs run cronjob.yaml --until 7d --format none`` runs it:
a whole process, imports included; wall and CPU seconds and peak resident memory (goal for the
week, 10,080 scheduled runs: at most 4 s and 300 MB). The 30 days of downtime followed by one sync
are measured by ``bench_cronjob_sync.py`` (the controller alone).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_cluster import run_process  # noqa: E402
from bench_sim import bytecode_cached  # noqa: E402

CRONJOB = """\
apiVersion: batch/v1
kind: CronJob
metadata:
  name: every-minute
spec:
  schedule: "* * * * *"
  jobTemplate:
    spec:
      template:
        metadata:
          annotations:
            sim.k8sjobs.io/duration: "10s"
        spec:
          restartPolicy: Never
          containers:
          - name: work
            image: busybox
"""


def main() -> None:
    """Run the benchmark and print a line per run."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--days", type=int, default=7)
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    bytecode_cached()
    limits = ("--max-events", "100000000", "--max-pods", "1000000", "--max-cycles", "100000000")
    for _ in range(args.repeat):
        wall, cpu, rss, _printed = run_process(CRONJOB, "--until", f"{args.days}d", "--format", "none", *limits)
        print(f"every-minute CronJob, {args.days} day(s) ({args.days * 1440:,} scheduled runs): wall {wall:.2f} s, "
              f"cpu {cpu:.2f} s, peak RSS {rss:.0f} MiB")
    print("goal for the week: <= 4 s and <= 300 MB")


if __name__ == "__main__":
    main()
