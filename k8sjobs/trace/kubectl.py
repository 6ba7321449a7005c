"""What kubectl prints about the simulated Job: ``describe job`` and ``get job`` in its forms.

The output mirrors kubectl 1.35 so a learner can match it on a real cluster, so it stays
English and unmarked (like events and conditions):

* :func:`describe_job` — ``kubectl describe job NAME``: the fields of kubectl's
  ``describeJob`` (staging/src/k8s.io/kubectl/pkg/describe/describe.go), the pod template
  as ``DescribePodTemplate`` prints it, and the Events table. No ``Conditions:`` section:
  kubectl prints none for a Job (conditions are in ``-o yaml`` and ``-o jsonpath``).
* :func:`get_job` — ``kubectl get job NAME`` (the table of ``printJob``: NAME, STATUS,
  COMPLETIONS, DURATION, AGE; ``wide`` adds CONTAINERS, IMAGES, SELECTOR), ``-o yaml``,
  ``-o json``, ``-o name``, ``-o jsonpath=...`` and ``-o custom-columns=...``.

Columns are aligned the way Go's ``text/tabwriter`` aligns them (kubectl writes
tab-separated cells through it), so widths follow the content exactly as on a cluster.
Times are simulated seconds shown as dates from a fixed epoch; ages are measured from the
moment shown, as kubectl measures them from "now".
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

import yaml

from ..api.events import event_expired
from ..api.labels import format_selector
from ..api.serialize import EPOCH, to_dict
from ..api.snapshot import shift_times
from ..api.types import Container, Job, PodTemplateSpec
from ..api.validation import canonical_quantity
from .recorder import Trace

# ----------------------------------------------------------------------------- shared pieces


def human_duration(seconds: float) -> str:
    """Mirrors apimachinery's duration.HumanDuration (what kubectl prints as an age)."""
    s = int(seconds)
    if s < -1:
        return "<invalid>"
    if s < 0:
        return "0s"
    if s < 120:
        return f"{s}s"
    minutes = s // 60
    if minutes < 10:
        rest = s % 60
        return f"{minutes}m" if rest == 0 else f"{minutes}m{rest}s"
    if minutes < 180:
        return f"{minutes}m"
    hours = s // 3600
    if hours < 8:
        m = minutes % 60
        return f"{hours}h" if m == 0 else f"{hours}h{m}m"
    if hours < 48:
        return f"{hours}h"
    if hours < 24 * 8:
        h = hours % 24
        return f"{hours // 24}d" if h == 0 else f"{hours // 24}d{h}h"
    if hours < 24 * 365 * 2:
        return f"{hours // 24}d"
    return f"{hours // 24 // 365}y"


def tabwrite(text: str, *, minwidth: int = 0, padding: int = 2) -> str:
    """Align tab-separated cells as Go's ``text/tabwriter`` does (padchar ' ', no flags).

    A cell ends at a tab; the text after a line's last tab is not part of any column. A
    column is a run of consecutive lines that all have a tab-terminated cell at that
    position; its width is the widest such cell plus ``padding`` (at least ``minwidth``).
    A line with fewer cells ends the column for the lines below it.
    """
    lines = [line.split("\t") for line in text.split("\n")]
    out: list[str] = [""] * len(lines)

    def format_block(first: int, last: int, column: int, widths: list[int]) -> None:
        # Mirrors tabwriter's recursive format(): lines without a cell in this column are
        # written with the widths known so far; each run of lines with one opens a new column.
        i = first
        while i < last:
            if column >= len(lines[i]) - 1:
                out[i] = _write_line(lines[i], widths)
                i += 1
                continue
            start = i
            width = minwidth
            while i < last and column < len(lines[i]) - 1:
                width = max(width, len(lines[i][column]) + padding)
                i += 1
            format_block(start, i, column + 1, [*widths, width])

    format_block(0, len(lines), 0, [])
    return "\n".join(out)


def _write_line(cells: list[str], widths: list[int]) -> str:
    parts = []
    for j, cell in enumerate(cells):
        parts.append(cell.ljust(widths[j]) if j < len(widths) else cell)
    return "".join(parts)


def _date(t: float, origin: float = 0.0) -> str:
    # time.RFC1123Z, in UTC: "Thu, 01 Jan 2026 00:00:16 +0000"; ``origin`` moves a snapshot's run to its dates.
    return (EPOCH + timedelta(seconds=t + origin)).strftime("%a, %d %b %Y %H:%M:%S +0000")


def _job_at(trace: Trace, cycle: int | None) -> tuple[Job | None, float, list, str]:
    """The Job right after ``cycle`` (default: at the end), the moment that is, its events."""
    if cycle is None:
        return trace.final_job, trace.end_t, list(trace.events), "by the end of the run"
    state = trace.state_at(cycle)
    return state.job, state.t, trace.events_until(cycle), f"after cycle {cycle}"


def _not_found(trace: Trace, when: str) -> str:
    resource = "cronjobs.batch" if trace.kind == "CronJob" else "jobs.batch"
    return f'Error from server (NotFound): {resource} "{trace.job_name}" not found (deleted {when})'


# ----------------------------------------------------------------------------- describe


def _labels_lines(title: str, labels: dict[str, str] | None) -> list[str]:
    """printLabelsMultiline: the first label beside the title, the rest one per line below."""
    if not labels:
        return [f"{title}:\t<none>"]
    keys = sorted(labels)
    return [f"{title}:\t{keys[0]}={labels[keys[0]]}"] + [f"\t{k}={labels[k]}" for k in keys[1:]]


_SKIPPED_ANNOTATIONS = {"kubectl.kubernetes.io/last-applied-configuration"}
_MAX_ANNOTATION_LEN = 140


def _annotation_lines(title: str, annotations: dict[str, str] | None) -> list[str]:
    """printAnnotationsMultiline: long or multi-line values go below their key, shortened."""
    keys = sorted(k for k in (annotations or {}) if k not in _SKIPPED_ANNOTATIONS)
    if not keys:
        return [f"{title}:\t<none>"]
    lines: list[str] = []
    for i, key in enumerate(keys):
        head = f"{title}:\t" if i == 0 else "\t"
        value = annotations[key].removesuffix("\n")
        if len(value) + len(key) + 2 > _MAX_ANNOTATION_LEN or "\n" in value:
            lines.append(f"{head}{key}:")
            for part in value.split("\n"):
                short = part if len(part) <= _MAX_ANNOTATION_LEN - 2 else part[:_MAX_ANNOTATION_LEN - 2] + "..."
                lines.append(f"\t  {short}")
        else:
            lines.append(f"{head}{key}: {value}")
    return lines


def _ports(ports: list[dict[str, Any]], field: str) -> str:
    out = []
    for p in ports:
        text = f"{p.get(field, 0)}/{p.get('protocol', 'TCP')}"
        out.append(f"{text} ({p['name']})" if p.get("name") else text)
    return ", ".join(out)


def _env_value(env: Any) -> str:
    source = env.value_from or {}
    if "fieldRef" in source:
        ref = source["fieldRef"]
        # A template has no pod to resolve the field from, so kubectl leaves the value empty.
        return f" ({ref.get('apiVersion', 'v1')}:{ref.get('fieldPath', '')})"
    if "resourceFieldRef" in source:
        return f" ({source['resourceFieldRef'].get('resource', '')})"
    if "secretKeyRef" in source:
        ref = source["secretKeyRef"]
        return (f"<set to the key '{ref.get('key', '')}' in secret '{ref.get('name', '')}'>\t"
                f"Optional: {str(bool(ref.get('optional'))).lower()}")
    if "configMapKeyRef" in source:
        ref = source["configMapKeyRef"]
        return (f"<set to the key '{ref.get('key', '')}' of config map '{ref.get('name', '')}'>\t"
                f"Optional: {str(bool(ref.get('optional'))).lower()}")
    return ""


def _probe(probe: dict[str, Any]) -> str:
    attrs = (f"delay={probe.get('initialDelaySeconds', 0)}s timeout={probe.get('timeoutSeconds', 1)}s "
             f"period={probe.get('periodSeconds', 10)}s #success={probe.get('successThreshold', 1)} "
             f"#failure={probe.get('failureThreshold', 3)}")
    if "exec" in probe:
        return f"exec [{' '.join(probe['exec'].get('command', []))}] {attrs}"
    if "httpGet" in probe:
        get = probe["httpGet"]
        host = f"{get.get('host', '')}:{get.get('port', '')}"
        return f"http-get {str(get.get('scheme', 'HTTP')).lower()}://{host}{get.get('path', '')} {attrs}"
    if "tcpSocket" in probe:
        sock = probe["tcpSocket"]
        return f"tcp-socket {sock.get('host', '')}:{sock.get('port', '')} {attrs}"
    if "grpc" in probe:
        return f"grpc <pod>:{probe['grpc'].get('port', '')} {probe['grpc'].get('service', '')} {attrs}"
    return f"unknown {attrs}"


def _container_lines(label: str, containers: Iterable[Container]) -> list[str]:
    """describeContainers for a pod template (no statuses), as DescribePodTemplate calls it."""
    containers = list(containers)
    lines = [f"  {label}:" + ("" if containers else " <none>")]
    for c in containers:
        extra = c.extra
        lines.append(f"   {c.name}:")
        lines.append(f"    Image:\t{c.image or ''}")
        ports = extra.get("ports") or []
        port, host = _ports(ports, "containerPort"), _ports(ports, "hostPort")
        lines.append(f"    Ports:\t{port}" if "," in port else f"    Port:\t{port or '<none>'}")
        lines.append(f"    Host Ports:\t{host}" if "," in host else f"    Host Port:\t{host or '<none>'}")
        seccomp = (extra.get("securityContext") or {}).get("seccompProfile")
        if seccomp:
            lines.append(f"    SeccompProfile:\t{seccomp.get('type', '')}")
            if seccomp.get("type") == "Localhost":
                lines.append(f"      LocalhostProfile:\t{seccomp.get('localhostProfile', '')}")
        for title, items in (("Command", c.command), ("Args", c.args)):
            if items:
                lines.append(f"    {title}:")
                lines += [f"      {part}" for item in items for part in item.split("\n")]
        resources = extra.get("resources") or {}
        for title in ("Limits", "Requests"):
            amounts = resources.get(title.lower()) or {}
            if amounts:
                lines.append(f"    {title}:")
                lines += [f"      {name}:\t{canonical_quantity(amounts[name])}" for name in sorted(amounts)]
        for title, key in (("Liveness", "livenessProbe"), ("Readiness", "readinessProbe"),
                           ("Startup", "startupProbe")):
            if extra.get(key):
                lines.append(f"    {title}:\t{_probe(extra[key])}")
        env_from = extra.get("envFrom") or []
        if env_from:
            lines.append("    Environment Variables from:")
            for e in env_from:
                kind, ref = ("ConfigMap", e["configMapRef"]) if "configMapRef" in e else ("Secret", e.get("secretRef", {}))
                what = f"{kind} with prefix '{e['prefix']}'" if e.get("prefix") else kind
                lines.append(f"      {ref.get('name', '')}\t{what}\tOptional: {str(bool(ref.get('optional'))).lower()}")
        if not c.env:
            lines.append("    Environment:\t<none>")
        else:
            lines.append("    Environment:")
            for e in c.env:
                if e.value_from is None:
                    first, *rest = (e.value or "").split("\n")
                    lines.append(f"      {e.name}:\t{first}")
                    lines += [f"      \t{part}" for part in rest]
                else:
                    lines.append(f"      {e.name}:\t{_env_value(e)}")
        mounts = sorted(extra.get("volumeMounts") or [], key=lambda m: m.get("mountPath", ""))
        lines.append("    Mounts:" + ("" if mounts else "\t<none>"))
        for m in mounts:
            flags = ["ro" if m.get("readOnly") else "rw"]
            if m.get("subPath"):
                flags.append(f"path={json.dumps(m['subPath'])}")
            lines.append(f"      {m.get('mountPath', '')} from {m.get('name', '')} ({','.join(flags)})")
    return lines


_VOLUME_TYPES = {
    "secret": "Secret (a volume populated by a Secret)",
    "configMap": "ConfigMap (a volume populated by a ConfigMap)",
    "persistentVolumeClaim": "PersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)",
    "hostPath": "HostPath (bare host directory volume)",
    "projected": "Projected (a volume that contains injected data from multiple sources)",
    "downwardAPI": "DownwardAPI (a volume populated by information about the pod)",
}


def _volume_lines(volumes: list[dict[str, Any]]) -> list[str]:
    """describeVolumes for a pod template (the common volume types in detail, others by type)."""
    if not volumes:
        return ["  Volumes:\t<none>"]
    lines = ["  Volumes:"]
    for v in volumes:
        lines.append(f"   {v.get('name', '')}:")
        if "emptyDir" in v:
            empty = v["emptyDir"] or {}
            limit = empty.get("sizeLimit")
            limit = canonical_quantity(limit) if limit not in (None, "0", 0) else "<unset>"
            lines += ["    Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)",
                      f"    Medium:\t{empty.get('medium', '')}", f"    SizeLimit:\t{limit}"]
        elif "configMap" in v:
            ref = v["configMap"] or {}
            lines += [f"    Type:\t{_VOLUME_TYPES['configMap']}", f"    Name:\t{ref.get('name', '')}",
                      f"    Optional:\t{str(bool(ref.get('optional'))).lower()}"]
        elif "secret" in v:
            ref = v["secret"] or {}
            lines += [f"    Type:\t{_VOLUME_TYPES['secret']}", f"    SecretName:\t{ref.get('secretName', '')}",
                      f"    Optional:\t{str(bool(ref.get('optional'))).lower()}"]
        elif "persistentVolumeClaim" in v:
            ref = v["persistentVolumeClaim"] or {}
            lines += [f"    Type:\t{_VOLUME_TYPES['persistentVolumeClaim']}",
                      f"    ClaimName:\t{ref.get('claimName', '')}",
                      f"    ReadOnly:\t{str(bool(ref.get('readOnly'))).lower()}"]
        elif "hostPath" in v:
            ref = v["hostPath"] or {}
            lines += [f"    Type:\t{_VOLUME_TYPES['hostPath']}", f"    Path:\t{ref.get('path', '')}",
                      f"    HostPathType:\t{ref.get('type', '')}"]
        else:
            kind = next((k for k in v if k != "name"), "")
            lines.append(f"    Type:\t{_VOLUME_TYPES.get(kind, kind)}")
    return lines


def _toleration(t: dict[str, Any]) -> str:
    text = t.get("key", "")
    if t.get("value"):
        text += f"={t['value']}"
    if t.get("effect"):
        text += f":{t['effect']}"
    if t.get("operator") == "Exists" and not t.get("value"):
        text += " op=Exists" if (t.get("key") or t.get("effect")) else "op=Exists"
    if t.get("tolerationSeconds") is not None:
        text += f" for {t['tolerationSeconds']}s"
    return text


def pod_template_lines(template: PodTemplateSpec) -> list[str]:
    """DescribePodTemplate: the "Pod Template:" block of ``kubectl describe job`` (tab-separated)."""
    meta, spec = template.metadata, template.spec
    lines = ["Pod Template:"] + _labels_lines("  Labels", meta.labels)
    if meta.annotations:
        lines += _annotation_lines("  Annotations", meta.annotations)
    if spec.extra.get("serviceAccountName"):
        lines.append(f"  Service Account:\t{spec.extra['serviceAccountName']}")
    if spec.init_containers:
        lines += _container_lines("Init Containers", spec.init_containers)
    lines += _container_lines("Containers", spec.containers)
    lines += _volume_lines(spec.extra.get("volumes") or [])
    spread = sorted(spec.extra.get("topologySpreadConstraints") or [], key=lambda c: c.get("topologyKey", ""))
    for i, tsc in enumerate(spread):
        head = "  Topology Spread Constraints:\t" if i == 0 else "  \t"
        lines.append(f"{head}{tsc.get('topologyKey', '')}:{tsc.get('whenUnsatisfiable', '')} when max skew "
                     f"{tsc.get('maxSkew', 0)} is exceeded")
    if spec.extra.get("priorityClassName"):
        lines.append(f"  Priority Class Name:\t{spec.extra['priorityClassName']}")
    lines += _labels_lines("  Node-Selectors", spec.node_selector)
    tolerations = sorted(spec.tolerations or (), key=lambda t: t.get("key", ""))
    if not tolerations:
        lines.append("  Tolerations:\t<none>")
    else:
        lines += [("  Tolerations:\t" if i == 0 else "\t") + _toleration(t) for i, t in enumerate(tolerations)]
    return lines


def _event_lines(events: list, now: float, source: str = "job-controller") -> list[str]:
    """DescribeEvents: one row per Event object (its count, its latest message), oldest last-seen first;
    an Event last written more than ``EVENT_TTL`` (1 h) before ``now`` is gone from the API server."""
    groups: dict[str, list] = {}
    for e in events:
        key = e.name or f"{e.type}/{e.reason}/{e.message}"
        if key in groups:
            groups[key][0] = e
            groups[key][1].append(e.t)
        else:
            groups[key] = [e, [e.t]]
    groups = {k: g for k, g in groups.items() if not event_expired(g[1][-1], now)}
    if not groups:
        return ["Events:\t<none>"]
    rows = []
    for last, times in groups.values():
        age = human_duration(now - times[0])
        if len(times) > 1:
            age = f"{human_duration(now - times[-1])} (x{len(times)} over {age})"
        rows.append((times[-1], times[0], last.type, last.reason, age, last.message))
    rows.sort(key=lambda r: (r[0], r[1]))
    # kubectl flushes its tabwriter before the table: the table is aligned on its own.
    return ["\f", "Events:", "  Type\tReason\tAge\tFrom\tMessage", "  ----\t------\t----\t----\t-------"] + [
        f"  {typ}\t{reason}\t{age}\t{source}\t{message}" for _, _, typ, reason, age, message in rows]


def describe_lines(job: Job, events: list, now: float, origin: float = 0.0) -> list[str]:
    """The tab-separated lines of ``kubectl describe job`` (before alignment); dates move by ``origin``
    (:attr:`~k8sjobs.trace.recorder.Trace.origin`), ages are differences and do not."""
    spec, st, meta = job.spec, job.status, job.metadata
    lines = [f"Name:\t{meta.name}", f"Namespace:\t{meta.namespace}", f"Selector:\t{format_selector(spec.selector)}"]
    lines += _labels_lines("Labels", meta.labels)
    lines += _annotation_lines("Annotations", meta.annotations)
    owner = next((o for o in meta.owner_references if o.controller), None)
    if owner is not None:
        lines.append(f"Controlled By:\t{owner.kind}/{owner.name}")
    if spec.parallelism is not None:
        lines.append(f"Parallelism:\t{spec.parallelism}")
    lines.append(f"Completions:\t{spec.completions if spec.completions is not None else '<unset>'}")
    if spec.completion_mode is not None:
        lines.append(f"Completion Mode:\t{spec.completion_mode}")
    if spec.suspend is not None:
        lines.append(f"Suspend:\t{str(spec.suspend).lower()}")
    if spec.backoff_limit is not None:
        lines.append(f"Backoff Limit:\t{spec.backoff_limit}")
    if spec.ttl_seconds_after_finished is not None:
        lines.append(f"TTL Seconds After Finished:\t{spec.ttl_seconds_after_finished}")
    if st.start_time is not None:
        lines.append(f"Start Time:\t{_date(st.start_time, origin)}")
    if st.completion_time is not None:
        lines.append(f"Completed At:\t{_date(st.completion_time, origin)}")
    if st.start_time is not None and st.completion_time is not None:
        lines.append(f"Duration:\t{human_duration(st.completion_time - st.start_time)}")
    if spec.active_deadline_seconds is not None:
        lines.append(f"Active Deadline Seconds:\t{spec.active_deadline_seconds}s")
    if st.ready is None:
        lines.append(f"Pods Statuses:\t{st.active} Active / {st.succeeded} Succeeded / {st.failed} Failed")
    else:
        lines.append(f"Pods Statuses:\t{st.active} Active ({st.ready} Ready) / {st.succeeded} Succeeded / "
                     f"{st.failed} Failed")
    if spec.completion_mode == "Indexed":
        lines.append(f"Completed Indexes:\t{_cap_indexes(st.completed_indexes, 50)}")
    lines += pod_template_lines(spec.template)
    lines += _event_lines(events, now)
    return lines


def _cap_indexes(indexes: str, soft_limit: int) -> str:
    """capIndexesListOrNone: a long list is cut after the first comma past ``soft_limit`` characters."""
    if not indexes:
        return "<none>"
    cut = indexes.find(",", soft_limit)
    return indexes if cut < 0 else indexes[:cut + 1] + "..."


def _align(lines: list[str], **kw: int) -> str:
    # "\f" marks a tabwriter flush: the blocks before and after it are aligned separately.
    chunks, current = [], []
    for line in lines:
        if line == "\f":
            chunks.append(current)
            current = []
        else:
            current.append(line)
    chunks.append(current)
    return "\n".join(tabwrite("\n".join(c), **kw) for c in chunks if c)


def describe_job(trace: Trace, cycle: int | None = None) -> str:
    """``kubectl describe job NAME`` right after ``cycle`` (default: at the end of the run).

    Exactly the fields kubectl 1.35's ``describeJob`` prints, in its order and alignment:
    Name, Namespace, Selector, Labels, Annotations, (Controlled By), Parallelism,
    Completions, Completion Mode, Suspend, Backoff Limit, (TTL Seconds After Finished),
    Start Time, (Completed At, Duration), (Active Deadline Seconds), Pods Statuses,
    (Completed Indexes), Pod Template, Events. No Conditions: see :func:`get_job` with
    ``output="yaml"`` or ``"jsonpath=..."``. Ages are measured from that moment.
    """
    if trace.kind == "CronJob":
        return describe_cronjob(trace, cycle)
    job, now, events, when = _job_at(trace, cycle)
    if job is None:
        return _not_found(trace, when)
    return _align(describe_lines(job, events, now, trace.origin))


# ----------------------------------------------------------------------------- get: the table


def job_status_column(job: Job) -> str:
    """The STATUS column of ``kubectl get job`` (printJob): the first that holds, in this order."""
    true = {c.type for c in job.status.conditions if c.status == "True"}
    if "Complete" in true:
        return "Complete"
    if "Failed" in true:
        return "Failed"
    if job.metadata.deletion_timestamp is not None:
        return "Terminating"
    if "Suspended" in true:
        return "Suspended"
    if "FailureTarget" in true:
        return "FailureTarget"
    return "Running"


def _table_row(job: Job, now: float, *, wide: bool) -> list[str]:
    spec, st = job.spec, job.status
    if spec.completions is not None:
        completions = f"{st.succeeded}/{spec.completions}"
    elif (spec.parallelism or 0) > 1:
        completions = f"{st.succeeded}/1 of {spec.parallelism}"
    else:
        completions = f"{st.succeeded}/1"
    if st.start_time is None:
        duration = ""
    elif st.completion_time is None:
        duration = human_duration(now - st.start_time)
    else:
        duration = human_duration(st.completion_time - st.start_time)
    created = job.metadata.creation_timestamp or 0.0
    row = [job.metadata.name, job_status_column(job), completions, duration, human_duration(now - created)]
    if wide:
        row += _wide_cells(spec)
    return row


def _wide_cells(spec: Any) -> list[str]:
    """CONTAINERS, IMAGES and SELECTOR of a Job spec (or a CronJob's Job template spec), as ``-o wide`` adds them."""
    containers = spec.template.spec.containers
    return [",".join(c.name for c in containers), ",".join(c.image or "" for c in containers),
            format_selector(spec.selector)]


_TABLE = {"minwidth": 6, "padding": 3}
"""kubectl's table printer: tabwriter with minwidth 6, padding 3 (cli-runtime printers)."""


# ----------------------------------------------------------------------------- get: documents


_FRACTION = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.\d+Z$")


def job_document(job: Job, origin: float = 0.0) -> dict[str, Any]:
    """The Job as the API server returns it: times in whole seconds (metav1.Time), as kubectl reads it,
    moved by ``origin`` (a snapshot's run prints the cluster's dates)."""
    def whole_seconds(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: whole_seconds(v) for k, v in value.items()}
        if isinstance(value, list):
            return [whole_seconds(v) for v in value]
        if isinstance(value, str):
            # Only timestamps look like this: metav1.Time drops the fraction when it serializes.
            m = _FRACTION.match(value)
            return m.group(1) + "Z" if m else value
        return value

    return whole_seconds(to_dict(shift_times(job, origin) if origin else job))


def _go_yaml_less(a: str, b: str) -> bool:
    """go-yaml v2's key order (sigs.k8s.io/yaml sorts map keys with it): numbers inside keys compare as numbers."""
    digits = False
    for i in range(min(len(a), len(b))):
        if a[i] == b[i]:
            digits = a[i].isdigit()
            continue
        al, bl = a[i].isalpha(), b[i].isalpha()
        if al and bl:
            return a[i] < b[i]
        if al or bl:
            return al if digits else bl
        ai, an = i, 0
        while ai < len(a) and a[ai].isdigit():
            an, ai = an * 10 + int(a[ai]), ai + 1
        bi, bn = i, 0
        while bi < len(b) and b[bi].isdigit():
            bn, bi = bn * 10 + int(b[bi]), bi + 1
        if an != bn:
            return an < bn
        if ai != bi:
            return ai < bi
        return a[i] < b[i]
    return len(a) < len(b)


_go_key = functools.cmp_to_key(lambda a, b: -1 if _go_yaml_less(a, b) else (1 if _go_yaml_less(b, a) else 0))


class _KubectlDumper(yaml.SafeDumper):
    """YAML as kubectl writes it (go-yaml v2): sorted keys, "quoted" ambiguous strings, | for multi-line."""


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    if "\n" in value:
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")
    # A string that would read back as another type (true, 14, null, a date) is double-quoted
    # by go-yaml; y/n are booleans to go-yaml (YAML 1.1) but not to PyYAML's resolver.
    resolved = dumper.resolve(yaml.ScalarNode, value, (True, False))
    if resolved != "tag:yaml.org,2002:str" or value in ("y", "Y", "n", "N"):
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"')
    return dumper.represent_scalar("tag:yaml.org,2002:str", value)


def _represent_dict(dumper: yaml.SafeDumper, value: dict) -> yaml.Node:
    return dumper.represent_mapping("tag:yaml.org,2002:map", sorted(value.items(), key=lambda kv: _go_key(kv[0])))


_KubectlDumper.add_representer(str, _represent_str)
_KubectlDumper.add_representer(dict, _represent_dict)


def to_kubectl_yaml(document: dict[str, Any]) -> str:
    """A document as ``kubectl get -o yaml`` prints it."""
    return yaml.dump(document, Dumper=_KubectlDumper, default_flow_style=False, allow_unicode=True,
                     sort_keys=False, width=80)


def to_kubectl_json(value: Any, *, indent: int | None = 4) -> str:
    """JSON as Go's encoding/json writes it: sorted keys, HTML characters escaped (kubectl -o json)."""
    text = json.dumps(value, indent=indent, sort_keys=True, ensure_ascii=False,
                      separators=(",", ": ") if indent else (",", ":"))
    for char, escape in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                         ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(char, escape)
    return text


# ----------------------------------------------------------------------------- get: jsonpath


class JSONPathError(ValueError):
    """A template kubectl's JSONPath parser would refuse (the message is kubectl's)."""


def _parse_template(template: str) -> list[tuple[str, Any]]:
    """Split a JSONPath template into text and actions: ("text", s), ("path", p), ("range", p), ("end", None)."""
    out: list[tuple[str, Any]] = []
    i = 0
    while i < len(template):
        start = template.find("{", i)
        if start < 0:
            out.append(("text", template[i:]))
            break
        if start > i:
            out.append(("text", template[i:start]))
        depth, j, quote = 0, start, None
        while j < len(template):
            ch = template[j]
            if quote:
                if ch == "\\":
                    j += 1
                elif ch == quote:
                    quote = None
            elif ch in "\"'":
                quote = ch
            elif ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        if j >= len(template):
            raise JSONPathError(f"error parsing jsonpath {template}, unclosed action")
        action = template[start + 1:j].strip()
        i = j + 1
        if action == "end":
            out.append(("end", None))
        elif action.startswith("range "):
            out.append(("range", _parse_path(action[6:].strip(), template)))
        elif action.startswith('"') and action.endswith('"') and len(action) >= 2:
            # strict=False: a newline typed into a Python string (not the escape) is still a newline.
            out.append(("text", json.loads(action, strict=False)))
        else:
            out.append(("path", _parse_path(action, template)))
    return out


_STEP = re.compile(r"""\.(?P<field>[A-Za-z0-9_\-/]+)|\[(?P<bracket>[^\]]*)\]|\.\*|(?P<dot>\.)""")


def _parse_path(path: str, template: str) -> list[tuple[str, Any]]:
    """A path such as ``.status.conditions[?(@.type=="Complete")].status`` as a list of steps."""
    steps: list[tuple[str, Any]] = []
    rest = path[1:] if path[:1] in ("@", "$") else path
    pos = 0
    while pos < len(rest):
        if rest.startswith("[?(", pos):
            end = rest.find(")]", pos)
            if end < 0:
                raise JSONPathError(f"error parsing jsonpath {template}, unclosed array expect ]")
            steps.append(("filter", _parse_filter(rest[pos + 3:end], template)))
            pos = end + 2
            continue
        m = _STEP.match(rest, pos)
        if not m:
            raise JSONPathError(f"error parsing jsonpath {template}, unrecognized character in action: "
                                f"U+{ord(rest[pos]):04X} {rest[pos]!r}")
        if m.group("field") is not None:
            steps.append(("field", m.group("field")))
        elif m.group("bracket") is not None:
            inner = m.group("bracket").strip()
            if inner == "*":
                steps.append(("all", None))
            elif inner[:1] in "'\"" and inner[-1:] == inner[:1]:
                steps.append(("field", inner[1:-1]))
            elif re.fullmatch(r"-?\d+", inner):
                steps.append(("index", int(inner)))
            elif re.fullmatch(r"-?\d*:-?\d*", inner):
                a, b = inner.split(":")
                steps.append(("slice", (int(a) if a else None, int(b) if b else None)))
            else:
                raise JSONPathError(f"error parsing jsonpath {template}, invalid array index {inner}")
        elif m.group(0) == ".*":
            steps.append(("all", None))
        pos = m.end()
    return steps


_FILTER = re.compile(r"""^\s*@(?P<path>[^=!<>\s]*)\s*(?P<op>==|!=|<=|>=|<|>)\s*(?P<value>.+?)\s*$""")


def _parse_filter(text: str, template: str) -> tuple[list, str, Any]:
    m = _FILTER.match(text)
    if not m:
        raise JSONPathError(f"error parsing jsonpath {template}, unsupported filter {text}")
    raw = m.group("value")
    value: Any
    if raw[:1] in "'\"" and raw[-1:] == raw[:1]:
        value = raw[1:-1]
    else:
        try:
            value = json.loads(raw)
        except ValueError as exc:
            raise JSONPathError(f"error parsing jsonpath {template}, bad filter value {raw}") from exc
    return _parse_path(m.group("path"), template), m.group("op"), value


def _walk(values: list[Any], steps: list[tuple[str, Any]]) -> list[Any]:
    """Every value the steps reach from each of ``values`` (missing keys reach nothing, as --allow-missing-template-keys)."""
    for kind, arg in steps:
        nxt: list[Any] = []
        for v in values:
            if kind == "field":
                if isinstance(v, dict) and arg in v:
                    nxt.append(v[arg])
            elif kind == "all":
                if isinstance(v, list):
                    nxt.extend(v)
                elif isinstance(v, dict):
                    nxt.extend(v[k] for k in sorted(v))
            elif kind == "index":
                if isinstance(v, list) and -len(v) <= arg < len(v):
                    nxt.append(v[arg])
            elif kind == "slice":
                if isinstance(v, list):
                    nxt.extend(v[arg[0]:arg[1]])
            elif kind == "filter":
                path, op, want = arg
                for item in (v if isinstance(v, list) else []):
                    got = _walk([item], path)
                    if got and _compare(got[0], op, want):
                        nxt.append(item)
        values = nxt
    return values


def _compare(got: Any, op: str, want: Any) -> bool:
    if op == "==":
        return got == want
    if op == "!=":
        return got != want
    try:
        return {"<": got < want, ">": got > want, "<=": got <= want, ">=": got >= want}[op]
    except TypeError:  # a string against a number: no match, as client-go's comparison fails
        return False


def _text(value: Any) -> str:
    """How kubectl's JSONPath prints one result: JSON for lists and maps, the plain value otherwise."""
    if isinstance(value, (dict, list)):
        return to_kubectl_json(value, indent=None)
    if isinstance(value, bool):
        return str(value).lower()
    if value is None:
        return "<nil>"
    return str(value)


def jsonpath(document: Any, template: str) -> str:
    """``kubectl get -o jsonpath=TEMPLATE``: fields, ``[*]``, ``[N]``, ``[?(@.f=="v")]``, ``range``/``end``, literals."""
    actions = _parse_template(template)

    def run(items: list[tuple[str, Any]], current: Any) -> tuple[str, int]:
        out, i = [], 0
        while i < len(items):
            kind, arg = items[i]
            if kind == "text":
                out.append(arg)
            elif kind == "path":
                out.append(" ".join(_text(v) for v in _walk([current], arg)))
            elif kind == "range":
                depth, j = 1, i + 1
                while j < len(items) and depth:
                    depth += {"range": 1, "end": -1}.get(items[j][0], 0)
                    j += 1
                if depth:
                    raise JSONPathError(f"error parsing jsonpath {template}, not in range, nothing to end")
                body = items[i + 1:j - 1]
                for value in _walk([current], arg):
                    for element in (value if isinstance(value, list) else [value]):
                        out.append(run(body, element)[0])
                i = j
                continue
            else:
                raise JSONPathError(f"error parsing jsonpath {template}, not in range, nothing to end")
            i += 1
        return "".join(out), i

    return run(actions, document)[0]


# ----------------------------------------------------------------------------- get


_OUTPUTS = "custom-columns, json, jsonpath, name, wide, yaml"


def get_job(trace: Trace, cycle: int | None = None, output: str | None = None) -> str:
    """``kubectl get job NAME [-o OUTPUT]`` right after ``cycle`` (default: at the end of the run).

    ``output``: ``None`` (the table: NAME, STATUS, COMPLETIONS, DURATION, AGE), ``"wide"``,
    ``"yaml"`` (the whole Job, conditions included), ``"json"``, ``"name"``,
    ``"jsonpath=TEMPLATE"`` (for example ``"jsonpath={.status.conditions}"`` or
    ``'jsonpath={range .status.conditions[*]}{.type}={.status}{"\\n"}{end}'``) or
    ``"custom-columns=ACTIVE:.status.active,..."``. Quotes around the template, as a shell
    would take them off, are accepted. An unknown output raises ``ValueError`` with
    kubectl's message.
    """
    job, now, _events, when = _job_at(trace, cycle)
    cron = trace.kind == "CronJob"
    fmt, _, arg = (output or "").partition("=")
    fmt = fmt.strip()
    if len(arg) >= 2 and arg[0] == arg[-1] and arg[0] in "'\"":
        arg = arg[1:-1]
    if fmt not in ("", "wide", "yaml", "json", "name", "jsonpath", "custom-columns"):
        raise ValueError(f'error: unable to match a printer suitable for the output format "{output}", '
                         f"allowed formats are: {_OUTPUTS}")
    if fmt in ("jsonpath", "custom-columns") and not arg:
        raise ValueError(f"error: {fmt} format specified but no {fmt} template given")
    if fmt in ("jsonpath", "custom-columns"):
        # Parse first: kubectl refuses a bad template before it asks the server anything.
        _parse_template(arg) if fmt == "jsonpath" else _columns(arg)
    if job is None:
        return _not_found(trace, when)
    if fmt in ("", "wide"):
        if cron:
            header = ["NAME", "SCHEDULE", "TIMEZONE", "SUSPEND", "ACTIVE", "LAST SCHEDULE", "AGE"]
            row = _cronjob_row(job, now, job.metadata.name)
            if fmt == "wide":
                header += ["CONTAINERS", "IMAGES", "SELECTOR"]
                row += _wide_cells(job.spec.job_template.spec)
            return tabwrite("\n".join("\t".join(r) for r in (header, row)), **_TABLE)
        header = ["NAME", "STATUS", "COMPLETIONS", "DURATION", "AGE"]
        if fmt == "wide":
            header += ["CONTAINERS", "IMAGES", "SELECTOR"]
        rows = [header, _table_row(job, now, wide=fmt == "wide")]
        return tabwrite("\n".join("\t".join(r) for r in rows), **_TABLE)
    if fmt == "name":
        return f"{'cronjob' if cron else 'job'}.batch/{job.metadata.name}"
    document = job_document(job, trace.origin)
    if fmt == "yaml":
        return to_kubectl_yaml(document).rstrip("\n")
    if fmt == "json":
        return to_kubectl_json(document)
    if fmt == "jsonpath":
        return jsonpath(document, arg)
    columns = _columns(arg)
    cells = [[name for name, _ in columns]]
    row = []
    for _name, path in columns:
        values = _walk([document], path)
        row.append(",".join(_text(v) for v in values) if values else "<none>")
    cells.append(row)
    return tabwrite("\n".join("\t".join(r) for r in cells), **_TABLE)


def _cronjob_row(cj: Any, now: float, name: str) -> list[str]:
    spec, st = cj.spec, cj.status
    last = human_duration(now - st.last_schedule_time) if st.last_schedule_time is not None else "<none>"
    created = cj.metadata.creation_timestamp or 0.0
    return [name, spec.schedule, spec.time_zone or "<none>", "True" if spec.suspend else "False",
            str(len(st.active)), last, human_duration(now - created)]


def get_cronjobs_and_jobs(cronjobs: Iterable[Trace], jobs: Iterable[Trace]) -> str:
    """``kubectl get cronjob,jobs`` at the end of a run: the CronJobs (NAME, SCHEDULE, TIMEZONE, SUSPEND,
    ACTIVE, LAST SCHEDULE, AGE), then the Jobs that still exist, each name with its resource as kubectl
    prints a listing of two kinds (``cronjob.batch/nightly``, ``job.batch/nightly-29453765``)."""
    blocks = []
    rows = [["NAME", "SCHEDULE", "TIMEZONE", "SUSPEND", "ACTIVE", "LAST SCHEDULE", "AGE"]]
    for tr in cronjobs:
        if tr.final_job is not None:
            rows.append(_cronjob_row(tr.final_job, tr.end_t, f"cronjob.batch/{tr.job_name}"))
    if len(rows) > 1:
        blocks.append(tabwrite("\n".join("\t".join(r) for r in rows), **_TABLE))
    rows = [["NAME", "STATUS", "COMPLETIONS", "DURATION", "AGE"]]
    for tr in jobs:
        if tr.final_job is not None:
            row = _table_row(tr.final_job, tr.end_t, wide=False)
            rows.append([f"job.batch/{row[0]}", *row[1:]])
    if len(rows) > 1:
        blocks.append(tabwrite("\n".join("\t".join(r) for r in rows), **_TABLE))
    return "\n\n".join(blocks) if blocks else "No resources found in default namespace."


def describe_cronjob(trace: Trace, cycle: int | None = None) -> str:
    """``kubectl describe cronjob NAME`` right after the CronJob's sync ``cycle`` (default: at the end of the run;
    kubectl's describeCronJob fields, in its order: Name, Namespace, Labels, Annotations, Schedule,
    Concurrency Policy, Suspend, the history limits, Starting Deadline Seconds, the Job template's Selector,
    Parallelism, Completions, (Active Deadline Seconds), Pod Template, Last Schedule Time (``<unset>`` before
    the first), Active Jobs, Events; no time zone: ``kubectl get cronjob`` shows it). ``trace`` is the CronJob's (``run.trace_of("cronjob/default/NAME")``)."""
    cj, now, events, when = _job_at(trace, cycle)
    if cj is None:
        return _not_found(trace, when) if cycle is not None else \
            f'Error from server (NotFound): cronjobs.batch "{trace.job_name}" not found'
    spec, st, meta = cj.spec, cj.status, cj.metadata
    job_spec = spec.job_template.spec

    def unset(v: Any) -> str:
        return "<unset>" if v is None else str(v)

    lines = [f"Name:\t{meta.name}", f"Namespace:\t{meta.namespace}"]
    lines += _labels_lines("Labels", meta.labels)
    lines += _annotation_lines("Annotations", meta.annotations)
    # kubectl 1.35's describeCronJob prints no time zone (kubectl get cronjob has its TIMEZONE column).
    lines.append(f"Schedule:\t{spec.schedule}")
    lines += [f"Concurrency Policy:\t{spec.concurrency_policy}",
              f"Suspend:\t{'True' if spec.suspend else 'False'}",
              f"Successful Job History Limit:\t{unset(spec.successful_jobs_history_limit)}",
              f"Failed Job History Limit:\t{unset(spec.failed_jobs_history_limit)}",
              "Starting Deadline Seconds:\t" + (f"{spec.starting_deadline_seconds}s"
                                                 if spec.starting_deadline_seconds is not None else "<unset>"),
              f"Selector:\t{format_selector(job_spec.selector) if job_spec.selector is not None else '<unset>'}",
              f"Parallelism:\t{unset(job_spec.parallelism)}", f"Completions:\t{unset(job_spec.completions)}"]
    if job_spec.active_deadline_seconds is not None:
        lines.append(f"Active Deadline Seconds:\t{job_spec.active_deadline_seconds}s")
    lines += pod_template_lines(job_spec.template)
    lines.append("Last Schedule Time:\t" + (_date(st.last_schedule_time, trace.origin)
                                               if st.last_schedule_time is not None else "<unset>"))
    lines.append(f"Active Jobs:\t{', '.join(r.name for r in st.active) or '<none>'}")
    lines += _event_lines(list(events), now, "cronjob-controller")
    return _align(lines)


def get_jobs(traces: Iterable[Trace]) -> str:
    """``kubectl get jobs`` at the end of a run of several Jobs: one row per Job that still exists,
    in creation order (kubectl sorts by name; a run's Jobs are listed as they were created,
    which is the order the learner wrote them in)."""
    rows = [["NAME", "STATUS", "COMPLETIONS", "DURATION", "AGE"]]
    for tr in traces:
        if tr.final_job is not None:
            rows.append(_table_row(tr.final_job, tr.end_t, wide=False))
    if len(rows) == 1:
        return "No resources found in default namespace."
    return tabwrite("\n".join("\t".join(r) for r in rows), **_TABLE)


def _columns(spec: str) -> list[tuple[str, list]]:
    """custom-columns=NAME:.path,...: each column's header and parsed path."""
    columns = []
    for part in spec.split(","):
        name, sep, path = part.partition(":")
        if not sep or not name or not path:
            raise ValueError(f"error: unexpected custom-columns spec: {part}, expected <header>:<json-path-expr>")
        path = path.strip()
        if path.startswith("{") and path.endswith("}"):
            path = path[1:-1]
        if not path.startswith((".", "[", "@", "$")):
            path = "." + path
        columns.append((name, _parse_path(path, spec)))
    return columns


__all__ = ["JSONPathError", "describe_job", "describe_lines", "get_job", "human_duration", "job_document",
           "job_status_column", "jsonpath", "pod_template_lines", "tabwrite", "to_kubectl_json", "to_kubectl_yaml"]
