"""``explain`` on a big real-looking snapshot (issue 16): print figures, assert nothing.

    python benchmarks/bench_explain.py             # 10,000 pods, JSON and YAML
    python benchmarks/bench_explain.py --pods 2000 --repeat 3
    python benchmarks/bench_explain.py --cronjob-only   # a CronJob with 30 days of missed runs

The snapshot is what ``kubectl get job,pods -l batch.kubernetes.io/job-name=big -o json``
(and ``-o yaml``) prints for an Indexed Job with 10,000 pods as a real cluster writes them
(service-account volume, tolerations, pod IPs, container IDs, five conditions each):
half of them succeeded and counted (finalizer gone), a tenth finished and not yet counted,
the rest running. Each figure is the wall time of the whole command in one process:
reading the file, decoding, building the world, the controller's sync, and the JSON answer
(``python -m k8sjobs explain FILE --format json``, in-process). The machine is shared, so
each runs several times and the best and median of the wall time and of the CPU time (what
the process itself used, less disturbed by other load) are printed, with the file size and
the peak memory of a fresh process. YAML is parsed by libyaml (PyYAML's C parser) with the
project's own safe constructor; it is still several times slower than JSON: ``--yaml-repeat 0``
leaves it out, ``--pure-yaml`` times the pure-Python fallback (JupyterLite, PyYAML without libyaml).
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import io
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

UID = "0a9b3d1e-4b7e-4a53-9c55-3f6c2f3d1a77"
T0 = "2025-03-14T10:00:00Z"


def _pod(i: int, n: int) -> dict:
    state = "settled" if i < n // 2 else "uncounted" if i < n // 2 + n // 10 else "running"
    name = f"big-{i}-{i * 7919 % 99991:05d}"
    started = f"2025-03-14T10:{(i // 60) % 60:02d}:{i % 60:02d}Z"
    pod = {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {
            "annotations": {"batch.kubernetes.io/job-completion-index": str(i)},
            "creationTimestamp": started, "generateName": f"big-{i}-",
            "labels": {"batch.kubernetes.io/controller-uid": UID, "batch.kubernetes.io/job-completion-index": str(i),
                       "batch.kubernetes.io/job-name": "big", "controller-uid": UID, "job-name": "big"},
            "name": name, "namespace": "default",
            "ownerReferences": [{"apiVersion": "batch/v1", "blockOwnerDeletion": True, "controller": True,
                                 "kind": "Job", "name": "big", "uid": UID}],
            "resourceVersion": str(4000000 + i), "uid": f"5c0d8d8e-9c2a-4c1a-8f73-{i:012d}",
        },
        "spec": {
            "containers": [{"command": ["sh", "-c", "work"], "env": [{"name": "JOB_COMPLETION_INDEX", "valueFrom": {
                "fieldRef": {"apiVersion": "v1",
                             "fieldPath": "metadata.labels['batch.kubernetes.io/job-completion-index']"}}}],
                "image": "busybox:1.36", "imagePullPolicy": "IfNotPresent", "name": "work", "resources": {},
                "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
                "volumeMounts": [{"mountPath": "/var/run/secrets/kubernetes.io/serviceaccount",
                                  "name": "kube-api-access-abcde", "readOnly": True}]}],
            "dnsPolicy": "ClusterFirst", "enableServiceLinks": True, "hostname": f"big-{i}",
            "nodeName": f"node-{i % 50}", "preemptionPolicy": "PreemptLowerPriority", "priority": 0,
            "restartPolicy": "Never", "schedulerName": "default-scheduler", "securityContext": {},
            "serviceAccount": "default", "serviceAccountName": "default", "subdomain": "big",
            "terminationGracePeriodSeconds": 30,
            "tolerations": [{"effect": "NoExecute", "key": k, "operator": "Exists", "tolerationSeconds": 300}
                            for k in ("node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable")],
            "volumes": [{"name": "kube-api-access-abcde", "projected": {"defaultMode": 420, "sources": [
                {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
                {"configMap": {"items": [{"key": "ca.crt", "path": "ca.crt"}], "name": "kube-root-ca.crt"}},
                {"downwardAPI": {"items": [{"fieldRef": {"apiVersion": "v1", "fieldPath": "metadata.namespace"},
                                            "path": "namespace"}]}}]}}],
        },
        "status": {
            "conditions": [{"lastProbeTime": None, "lastTransitionTime": started, "status": "True", "type": t}
                           for t in ("PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady",
                                     "PodScheduled")],
            "containerStatuses": [{"containerID": f"containerd://{i:064x}", "image": "docker.io/library/busybox:1.36",
                                   "imageID": "docker.io/library/busybox@sha256:" + "ab" * 32, "lastState": {},
                                   "name": "work", "ready": True, "restartCount": 0, "started": True,
                                   "state": {"running": {"startedAt": started}}}],
            "hostIP": "10.0.1.23", "hostIPs": [{"ip": "10.0.1.23"}], "phase": "Running",
            "podIP": f"10.244.{i // 250 % 250}.{i % 250}", "podIPs": [{"ip": f"10.244.{i // 250 % 250}.{i % 250}"}],
            "qosClass": "BestEffort", "startTime": started,
        },
    }
    if state != "running":
        st = pod["status"]
        st["phase"] = "Succeeded"
        for c in st["conditions"]:
            if c["type"] in ("Ready", "ContainersReady"):
                c["status"], c["reason"] = "False", "PodCompleted"
        st["containerStatuses"][0].update(ready=False, started=False, state={"terminated": {
            "containerID": f"containerd://{i:064x}", "exitCode": 0, "finishedAt": "2025-03-14T11:30:00Z",
            "reason": "Completed", "startedAt": started}})
        if state == "uncounted":  # a settled pod's finalizer is gone: the status counts it
            pod["metadata"]["finalizers"] = ["batch.kubernetes.io/job-tracking"]
    else:
        pod["metadata"]["finalizers"] = ["batch.kubernetes.io/job-tracking"]
    return pod


def snapshot(n: int) -> dict:
    """The List (a Job and ``n`` pods)."""
    settled = n // 2
    job = {
        "apiVersion": "batch/v1", "kind": "Job",
        "metadata": {"creationTimestamp": T0, "generation": 1, "labels": {"batch.kubernetes.io/job-name": "big"},
                     "name": "big", "namespace": "default", "resourceVersion": "4471930", "uid": UID},
        "spec": {"backoffLimit": 6, "completionMode": "Indexed", "completions": n, "manualSelector": False,
                 "parallelism": n, "podReplacementPolicy": "TerminatingOrFailed",
                 "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": UID}}, "suspend": False,
                 "template": {"metadata": {"labels": {"batch.kubernetes.io/controller-uid": UID,
                                                     "batch.kubernetes.io/job-name": "big"}},
                              "spec": {"containers": [{"name": "work", "image": "busybox:1.36",
                                                       "command": ["sh", "-c", "work"]}],
                                       "restartPolicy": "Never"}}},
        "status": {"active": n - settled - n // 10, "completedIndexes": f"0-{settled - 1}", "ready": n - settled - n // 10,
                   "startTime": T0, "succeeded": settled, "terminating": 0,
                   "uncountedTerminatedPods": {}},
    }
    return {"apiVersion": "v1", "kind": "List", "items": [job, *(_pod(i, n) for i in range(n))],
            "metadata": {"resourceVersion": ""}}


def _once(path: Path) -> tuple[float, float, dict]:
    from k8sjobs.cli import main

    out = io.StringIO()
    start, cpu = time.perf_counter(), time.process_time()
    with contextlib.redirect_stdout(out):
        status = main(["explain", str(path), "--format", "json"])
    took, cpu = time.perf_counter() - start, time.process_time() - cpu
    if status != 0:
        raise SystemExit(f"explain failed on {path}")
    return took, cpu, json.loads(out.getvalue())


def _peak_rss(path: Path) -> float:
    code = ("import resource, sys; from k8sjobs.cli import main; import contextlib, io\n"
            "with contextlib.redirect_stdout(io.StringIO()): main(['explain', sys.argv[1], '--format', 'json'])\n"
            "print(open('/proc/self/status').read().split('VmHWM:')[1].split()[0])")
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True)
    return int(out.stdout.strip()) / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pods", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--yaml-repeat", type=int, default=3, help="runs of the (slower) YAML file")
    ap.add_argument("--pure-yaml", action="store_true", help="read YAML with the pure-Python loader (the fallback)")
    ap.add_argument("--cronjob-only", action="store_true", help="only the CronJob with 30 days of missed runs")
    args = ap.parse_args()
    if args.cronjob_only:
        cronjob_figures(args.repeat)
        return
    if args.pure_yaml:
        from k8sjobs.api import yamlio

        yamlio.FastManifestLoader = yamlio.ManifestLoader
    doc = snapshot(args.pods)
    with tempfile.TemporaryDirectory(prefix="bench-explain-") as tmp:
        jpath = Path(tmp) / "snapshot.json"
        jpath.write_text(json.dumps(doc, indent=4))  # kubectl -o json indents by four spaces
        ypath = Path(tmp) / "snapshot.yaml"
        if args.yaml_repeat:
            ypath.write_text(yaml.safe_dump(copy.deepcopy(doc), sort_keys=True))
        print(f"snapshot: a Job and {args.pods:,} pods ({args.pods // 2:,} counted, {args.pods // 10:,} finished "
              f"and not counted, the rest running)")
        yaml_label = "yaml (pure)" if args.pure_yaml else "yaml"
        for label, path, repeat in (("json", jpath, args.repeat), (yaml_label, ypath, args.yaml_repeat)):
            if not repeat:
                continue
            times, cpus = [], []
            answer = None
            for _ in range(repeat):
                took, cpu, answer = _once(path)
                times.append(took)
                cpus.append(cpu)
            sync = answer["sync"]
            print(f"  -o {label}: {path.stat().st_size / 1e6:6.1f} MB  wall best {min(times):6.2f} s  median "
                  f"{statistics.median(times):6.2f} s  CPU best {min(cpus):6.2f} s  median "
                  f"{statistics.median(cpus):6.2f} s  ({repeat} runs; the sync removes "
                  f"{sync['finalizerRemovals']} finalizers, status succeeded={sync['status']['succeeded']})")
        print(f"  peak memory of one explain of the JSON file: {_peak_rss(jpath):.0f} MiB")
        # The whole process, as a user runs it (imports and bytecode cache included; goal <= 2 s).
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(__file__).resolve().parents[1] / "k8sjobs")],
                       check=False)
        runs = [_process(jpath) for _ in range(args.repeat)]
        print(f"  whole process, python -m k8sjobs explain FILE --format json (-o json file): {_figures(runs)}")
        # The Job alone (kubectl get job NAME -o json), its status counting every pod as active: explain stands
        # the pods in from the counters.
        only = Path(tmp) / "job-only.json"
        job = copy.deepcopy(doc["items"][0])
        job["status"] = {**job.get("status", {}), "active": args.pods, "ready": args.pods // 2,
                         "succeeded": 0, "failed": 0, "completedIndexes": ""}
        job["spec"]["parallelism"] = args.pods
        job["spec"]["completions"] = max(job["spec"].get("completions") or 0, args.pods)
        only.write_text(json.dumps(job, indent=4))
        runs = [_process(only) for _ in range(args.repeat)]
        print(f"  whole process, the Job alone with status.active {args.pods:,} (pods stood in from the counters): "
              f"{_figures(runs)}")
    cronjob_figures(args.repeat)


def cronjob(days: int = 30) -> dict:
    """``kubectl get cronjob every-minute -o json`` of a CronJob whose controller has not synced it for ``days``
    days: its last run was at 2025-03-01T00:00Z, every minute since is missed (``days`` x 1,440 times)."""
    return {
        "apiVersion": "batch/v1", "kind": "CronJob",
        "metadata": {"creationTimestamp": "2025-02-28T12:00:00Z", "generation": 1, "name": "every-minute",
                     "namespace": "default", "resourceVersion": "991", "uid": "6f1c2b0e-1111-4c2a-9d7e-0123456789ab"},
        "spec": {"concurrencyPolicy": "Allow", "failedJobsHistoryLimit": 1, "schedule": "* * * * *",
                 "successfulJobsHistoryLimit": 3, "suspend": False,
                 "jobTemplate": {"spec": {"template": {"spec": {
                     "containers": [{"name": "tick", "image": "busybox:1.36", "command": ["date"]}],
                     "restartPolicy": "OnFailure"}}}}},
        "status": {"lastScheduleTime": "2025-03-01T00:00:00Z", "lastSuccessfulTime": "2025-03-01T00:00:09Z"},
    }, f"2025-03-{1 + days:02d}T00:00:30Z"


def cronjob_figures(repeat: int) -> None:
    """explain on a CronJob with 30 days of missed every-minute runs: the whole process (goal <= 2 s)."""
    doc, now = cronjob(30)
    with tempfile.TemporaryDirectory(prefix="bench-explain-cron-") as tmp:
        path = Path(tmp) / "cronjob.json"
        path.write_text(json.dumps(doc, indent=4))
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(__file__).resolve().parents[1] / "k8sjobs")],
                       check=False)
        out = subprocess.run([sys.executable, "-m", "k8sjobs", "explain", str(path), "--now", now, "--format", "json"],
                             capture_output=True, text=True, check=True)
        answer = json.loads(out.stdout)
        due = next(d for d in answer["sync"]["decisions"] if d["rule"] == "cronjob.schedule.due")
        print(f"CronJob every minute, last run 30 days before --now {now} (about {due['missed']:,} missed times): "
              f"the sync creates {answer['sync']['createdJobs']}, events "
              f"{[e['reason'] for e in answer['sync']['events']]}, next {answer['nextSchedule']}")
        runs = [_process(path, "--now", now) for _ in range(repeat)]
        print(f"  whole process, python -m k8sjobs explain FILE --now ... --format json: {_figures(runs)}")
        runs = [_process(path, "--now", now, "--forecast") for _ in range(repeat)]
        print(f"  whole process, the same with --forecast (5 runs): {_figures(runs)}")


def _figures(runs: list[tuple[float, float]]) -> str:
    walls, cpus = [w for w, _ in runs], [c for _, c in runs]
    return (f"wall best {min(walls):5.2f} s median {statistics.median(walls):5.2f} s, CPU best {min(cpus):5.2f} s "
            f"median {statistics.median(cpus):5.2f} s ({len(runs)} runs)")


def _process(path: Path, *extra: str) -> tuple[float, float]:
    """Wall and CPU time (user + system) of ``python -m k8sjobs explain PATH --format json`` as a fresh process."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "k8sjobs", "explain", str(path), "--format", "json", *extra],
                         capture_output=True, text=True, check=False)
    took = time.perf_counter() - start
    if out.returncode != 0:
        raise SystemExit(f"explain failed on {path}: {out.stderr}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return took, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


if __name__ == "__main__":
    main()
