"""What the API server fills in before it validates a Job.

Mirrors, for Kubernetes 1.35 with every Job feature GA:

* ``SetDefaults_Job`` (pkg/apis/batch/v1/defaults.go) and
  ``SetDefaults_PodFailurePolicyOnPodConditionsPattern``: :func:`set_defaults_job`;
* the core/v1 defaults a pod *template* gets (``SetDefaults_PodSpec``,
  ``SetDefaults_Container``, ``SetDefaults_ContainerPort``, ``SetDefaults_Probe``,
  ``SetDefaults_HTTPGetAction``, ``SetDefaults_ObjectFieldSelector``,
  ``SetDefaults_Volume`` and the volume-source modes): :func:`set_defaults_pod_template`.
  Pod-only defaults (``SetDefaults_Pod``: requests copied from limits,
  enableServiceLinks) are not applied to templates, as upstream;
* ``SetDefaults_CronJob`` with the nested defaults of its Job template's pod template and
  pod failure policy (the generated ``SetObjectDefaults_CronJob``; ``SetDefaults_Job`` is
  not applied to a template): :func:`set_defaults_cronjob`; the CronJob strategy's
  PrepareForCreate: :func:`prepare_cronjob_for_create`;
* the Job strategy (pkg/registry/batch/job/strategy.go): :func:`prepare_for_create`
  (selector and template labels from the UID, status cleared, generation 1),
  :func:`prepare_for_update` and :func:`prepare_for_status_update`, together with the
  generic ``rest.BeforeUpdate`` steps they rely on (UID, creation and deletion
  timestamps kept from the stored object).

Defaulting works on the typed objects of :mod:`k8sjobs.api.types`; fields the types
keep as raw documents (``Container.extra``, ``PodSpec.extra``) are defaulted in their
camelCase form. Every function returns a new object.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .types import (
    CONTROLLER_UID_LABEL,
    JOB_NAME_LABEL,
    LEGACY_CONTROLLER_UID_LABEL,
    LEGACY_JOB_NAME_LABEL,
    MAX_INT32,
    CompletionMode,
    ConcurrencyPolicy,
    Container,
    CronJob,
    CronJobStatus,
    EnvVar,
    Job,
    JobSpec,
    JobStatus,
    LabelSelector,
    PodFailurePolicy,
    PodReplacementPolicy,
    PodSpec,
    PodTemplateSpec,
    evolve,
)

DEFAULT_BACKOFF_LIMIT = 6
DEFAULT_SUCCESSFUL_JOBS_HISTORY_LIMIT = 3
DEFAULT_FAILED_JOBS_HISTORY_LIMIT = 1
DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS = 30
DEFAULT_SCHEDULER_NAME = "default-scheduler"
TERMINATION_MESSAGE_PATH_DEFAULT = "/dev/termination-log"
DEFAULT_VOLUME_MODE = 0o644  # 420: secret, configMap, downwardAPI and projected volumes

_PROBE_FIELDS = ("livenessProbe", "readinessProbe", "startupProbe")


# ----------------------------------------------------------------------------- the Job


def set_defaults_job(job: Job) -> Job:
    """SetDefaults_Job, the onPodConditions status default and the pod-template defaults."""
    spec = _defaulted_job_spec(job.spec)
    metadata = job.metadata
    # The Job's labels default to the template's labels (as submitted, before the
    # strategy adds the generated ones).
    if not metadata.labels and job.spec.template.metadata.labels:
        metadata = evolve(metadata, labels=dict(job.spec.template.metadata.labels))
    return evolve(job, metadata=metadata, spec=spec)


def _by_identity(cache: dict[int, tuple[Any, Any]], spec: Any, default: Callable[[Any], Any]) -> Any:
    """``default(spec)``, kept by the identity of ``spec``: defaulting is a pure function of an
    immutable spec, and the same spec object comes back again and again (a CronJob's jobTemplate is
    the spec of every Job it creates). The entry keeps the spec alive, so its id is not reused;
    at most 256 entries (cleared when full)."""
    known = cache.get(id(spec))
    if known is not None and known[0] is spec:
        return known[1]
    out = default(spec)
    if len(cache) >= 256:
        cache.clear()
    cache[id(spec)] = (spec, out)
    return out


def _defaulted_job_spec(spec: JobSpec) -> JobSpec:
    return _by_identity(_DEFAULTED_JOB_SPECS, spec, _job_spec_defaults)


_DEFAULTED_JOB_SPECS: dict[int, tuple[JobSpec, JobSpec]] = {}


def _job_spec_defaults(spec: JobSpec) -> JobSpec:
    completions, parallelism = spec.completions, spec.parallelism
    # A non-parallel Job may leave both unset; both then become 1.
    if completions is None and parallelism is None:
        completions, parallelism = 1, 1
    if parallelism is None:
        parallelism = 1
    backoff_limit = spec.backoff_limit
    if backoff_limit is None:
        backoff_limit = MAX_INT32 if spec.backoff_limit_per_index is not None else DEFAULT_BACKOFF_LIMIT
    replacement = spec.pod_replacement_policy
    if replacement is None:  # only nil is defaulted: an explicit "" stays and fails validation
        replacement = (PodReplacementPolicy.FAILED if spec.pod_failure_policy is not None
                       else PodReplacementPolicy.TERMINATING_OR_FAILED)
    return evolve(
        spec,
        completions=completions,
        parallelism=parallelism,
        backoff_limit=backoff_limit,
        completion_mode=CompletionMode.NON_INDEXED if spec.completion_mode is None else spec.completion_mode,
        suspend=False if spec.suspend is None else spec.suspend,
        pod_replacement_policy=replacement,
        manual_selector=False if spec.manual_selector is None else spec.manual_selector,
        pod_failure_policy=_default_pod_failure_policy(spec.pod_failure_policy),
        template=set_defaults_pod_template(spec.template),
    )


def set_defaults_cronjob(cronjob: CronJob) -> CronJob:
    """v1 defaulting of a CronJob: concurrencyPolicy Allow, suspend false, history limits 3 and 1.

    Only unset fields are filled (an explicit 0 history limit stays 0). The Job template's pod
    template gets the core/v1 pod defaults and its pod failure policy the onPodConditions
    status default, as the generated defaulter walks into them; the Job-level defaults
    (completions, backoffLimit, ...) are left for when a Job is created from the template.
    Mirrors SetDefaults_CronJob in pkg/apis/batch/v1/defaults.go and SetObjectDefaults_CronJob
    in zz_generated.defaults.go.
    """
    spec = cronjob.spec
    job_spec = spec.job_template.spec
    job_spec = evolve(job_spec, template=set_defaults_pod_template(job_spec.template),
                       pod_failure_policy=_default_pod_failure_policy(job_spec.pod_failure_policy))
    spec = evolve(
        spec,
        concurrency_policy=spec.concurrency_policy or ConcurrencyPolicy.ALLOW,
        suspend=False if spec.suspend is None else spec.suspend,
        successful_jobs_history_limit=(DEFAULT_SUCCESSFUL_JOBS_HISTORY_LIMIT if spec.successful_jobs_history_limit
                                       is None else spec.successful_jobs_history_limit),
        failed_jobs_history_limit=(DEFAULT_FAILED_JOBS_HISTORY_LIMIT if spec.failed_jobs_history_limit is None
                                   else spec.failed_jobs_history_limit),
        job_template=evolve(spec.job_template, spec=job_spec),
    )
    return evolve(cronjob, spec=spec)


def prepare_cronjob_for_create(cronjob: CronJob) -> CronJob:
    """CronJob strategy PrepareForCreate: the status is cleared and the generation starts at 1.

    Mirrors cronJobStrategy.PrepareForCreate in pkg/registry/batch/cronjob/strategy.go.
    """
    meta = evolve(cronjob.metadata, generation=1, deletion_timestamp=None, deletion_grace_period_seconds=None)
    return evolve(cronjob, metadata=meta, status=CronJobStatus())


def _default_pod_failure_policy(policy: PodFailurePolicy | None) -> PodFailurePolicy | None:
    if policy is None:
        return None
    rules = []
    for rule in policy.rules:
        if rule.on_pod_conditions:
            patterns = tuple(p if p.status else evolve(p, status="True") for p in rule.on_pod_conditions)
            rule = evolve(rule, on_pod_conditions=patterns)
        rules.append(rule)
    return evolve(policy, rules=tuple(rules))


# ----------------------------------------------------------------------------- the pod template


def set_defaults_pod_template(template: PodTemplateSpec) -> PodTemplateSpec:
    """The core/v1 defaults a PodTemplateSpec gets when a Job is decoded."""
    return evolve(template, spec=set_defaults_pod_spec(template.spec))


def set_defaults_pod_spec(spec: PodSpec) -> PodSpec:
    """SetDefaults_PodSpec plus the defaults of everything a pod spec contains."""
    return _by_identity(_DEFAULTED_POD_SPECS, spec, _defaulted_pod_spec)


_DEFAULTED_POD_SPECS: dict[int, tuple[PodSpec, PodSpec]] = {}


def _defaulted_pod_spec(spec: PodSpec) -> PodSpec:
    extra = dict(spec.extra)
    if not extra.get("dnsPolicy"):
        extra["dnsPolicy"] = "ClusterFirst"
    if extra.get("securityContext") is None:
        extra["securityContext"] = {}
    if not extra.get("schedulerName"):
        extra["schedulerName"] = DEFAULT_SCHEDULER_NAME
    if extra.get("volumes"):
        extra["volumes"] = [_default_volume(v) for v in extra["volumes"]]
    if extra.get("ephemeralContainers"):
        extra["ephemeralContainers"] = [_default_container_doc(c) for c in extra["ephemeralContainers"]]
    init = spec.init_containers
    return evolve(
        spec,
        restart_policy=spec.restart_policy or "Always",
        termination_grace_period_seconds=(DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS
                                          if spec.termination_grace_period_seconds is None
                                          else spec.termination_grace_period_seconds),
        containers=tuple(set_defaults_container(c) for c in spec.containers),
        init_containers=None if init is None else tuple(set_defaults_container(c) for c in init),
        extra=extra,
    )


def image_tag(image: str) -> str:
    """The tag of an image reference as ``parsers.ParseImageName`` sees it.

    No tag and no digest means ``latest``; a digest without a tag means no tag; a
    reference that does not parse (empty, upper case in the repository) has no tag.
    """
    if not image or image != image.strip():
        return ""
    name, _, digest = image.partition("@")
    last_slash = name.rfind("/")
    colon = name.rfind(":")
    tag = ""
    if colon > last_slash:
        name, tag = name[:colon], name[colon + 1:]
    repo = name.split("/", 1)[1] if "/" in name and _looks_like_registry(name.split("/", 1)[0]) else name
    if not repo or not re.fullmatch(r"[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*", repo):
        return ""
    if tag and not re.fullmatch(r"[\w][\w.-]{0,127}", tag):
        return ""
    if not tag and not digest:
        return "latest"
    return tag


def _looks_like_registry(component: str) -> bool:
    return "." in component or ":" in component or component == "localhost" or component != component.lower()


def default_image_pull_policy(image: str | None) -> str:
    """``Always`` for a ``:latest`` (or untagged) image, else ``IfNotPresent``."""
    return "Always" if image_tag(image or "") == "latest" else "IfNotPresent"


def set_defaults_container(container: Container) -> Container:
    """SetDefaults_Container (pull policy, termination message) and what a container holds."""
    extra = dict(container.extra)
    if not extra.get("imagePullPolicy"):
        extra["imagePullPolicy"] = default_image_pull_policy(container.image)
    if not extra.get("terminationMessagePath"):
        extra["terminationMessagePath"] = TERMINATION_MESSAGE_PATH_DEFAULT
    if not extra.get("terminationMessagePolicy"):
        extra["terminationMessagePolicy"] = "File"
    _default_container_parts(extra)
    env = container.env
    if env:
        env = tuple(_default_env_var(e) for e in env)
    return evolve(container, extra=extra, env=env)


def _default_container_doc(doc: Any) -> Any:
    """The same defaults for a container kept as a raw document (ephemeral containers)."""
    if not isinstance(doc, dict):
        return doc
    out = dict(doc)
    if not out.get("imagePullPolicy"):
        out["imagePullPolicy"] = default_image_pull_policy(out.get("image") if isinstance(out.get("image"), str) else "")
    out.setdefault("terminationMessagePath", TERMINATION_MESSAGE_PATH_DEFAULT)
    out.setdefault("terminationMessagePolicy", "File")
    _default_container_parts(out)
    if isinstance(out.get("env"), list):
        out["env"] = [_default_env_doc(e) for e in out["env"]]
    return out


def _default_container_parts(extra: dict[str, Any]) -> None:
    if isinstance(extra.get("ports"), list):
        extra["ports"] = [
            {**p, "protocol": p.get("protocol") or "TCP"} if isinstance(p, dict) else p for p in extra["ports"]
        ]
    for key in _PROBE_FIELDS:
        if isinstance(extra.get(key), dict):
            extra[key] = _default_probe(extra[key])
    lifecycle = extra.get("lifecycle")
    if isinstance(lifecycle, dict):
        extra["lifecycle"] = {k: _default_handler(v) if k in ("postStart", "preStop") else v
                              for k, v in lifecycle.items()}


def _default_probe(probe: dict[str, Any]) -> dict[str, Any]:
    out = _default_handler(probe)
    for key, value in (("timeoutSeconds", 1), ("periodSeconds", 10), ("successThreshold", 1), ("failureThreshold", 3)):
        if not out.get(key):
            out[key] = value
    return out


def _default_handler(handler: Any) -> Any:
    if not isinstance(handler, dict):
        return handler
    out = dict(handler)
    http = out.get("httpGet")
    if isinstance(http, dict):
        out["httpGet"] = {**http, "path": http.get("path") or "/", "scheme": http.get("scheme") or "HTTP"}
    return out


def _default_env_var(env: EnvVar) -> EnvVar:
    if env.value_from is None:
        return env
    return evolve(env, value_from=_default_env_source(env.value_from))


def _default_env_doc(doc: Any) -> Any:
    if isinstance(doc, dict) and isinstance(doc.get("valueFrom"), dict):
        return {**doc, "valueFrom": _default_env_source(doc["valueFrom"])}
    return doc


def _default_env_source(source: dict[str, Any]) -> dict[str, Any]:
    out = dict(source)
    ref = out.get("fieldRef")
    if isinstance(ref, dict) and not ref.get("apiVersion"):
        out["fieldRef"] = {**ref, "apiVersion": "v1"}
    return out


_VOLUME_SOURCES = (
    "hostPath", "emptyDir", "gcePersistentDisk", "awsElasticBlockStore", "gitRepo", "secret", "nfs",
    "iscsi", "glusterfs", "persistentVolumeClaim", "rbd", "flexVolume", "cinder", "cephfs", "flocker",
    "downwardAPI", "fc", "azureFile", "configMap", "vsphereVolume", "quobyte", "azureDisk",
    "photonPersistentDisk", "projected", "portworxVolume", "scaleIO", "storageos", "csi", "ephemeral", "image",
)


def _default_volume(volume: Any) -> Any:
    """SetDefaults_Volume (no source at all means emptyDir) and the volume-source defaults."""
    if not isinstance(volume, dict):
        return volume
    out = dict(volume)
    if all(out.get(k) is None for k in _VOLUME_SOURCES):
        out["emptyDir"] = {}
    for key in ("secret", "configMap", "downwardAPI"):
        src = out.get(key)
        if isinstance(src, dict) and src.get("defaultMode") is None:
            out[key] = {**src, "defaultMode": DEFAULT_VOLUME_MODE}
    downward = out.get("downwardAPI")
    if isinstance(downward, dict) and isinstance(downward.get("items"), list):
        out["downwardAPI"] = {**downward, "items": [_default_downward_file(i) for i in downward["items"]]}
    projected = out.get("projected")
    if isinstance(projected, dict):
        projected = dict(projected)
        if projected.get("defaultMode") is None:
            projected["defaultMode"] = DEFAULT_VOLUME_MODE
        if isinstance(projected.get("sources"), list):
            projected["sources"] = [_default_projection(s) for s in projected["sources"]]
        out["projected"] = projected
    host = out.get("hostPath")
    if isinstance(host, dict) and host.get("type") is None:
        out["hostPath"] = {**host, "type": ""}
    return out


def _default_downward_file(item: Any) -> Any:
    if isinstance(item, dict) and isinstance(item.get("fieldRef"), dict) and not item["fieldRef"].get("apiVersion"):
        return {**item, "fieldRef": {**item["fieldRef"], "apiVersion": "v1"}}
    return item


def _default_projection(source: Any) -> Any:
    if not isinstance(source, dict):
        return source
    out = dict(source)
    token = out.get("serviceAccountToken")
    if isinstance(token, dict) and token.get("expirationSeconds") is None:
        out["serviceAccountToken"] = {**token, "expirationSeconds": 3600}
    downward = out.get("downwardAPI")
    if isinstance(downward, dict) and isinstance(downward.get("items"), list):
        out["downwardAPI"] = {**downward, "items": [_default_downward_file(i) for i in downward["items"]]}
    return out


# ----------------------------------------------------------------------------- the strategy


def generate_selector(job: Job) -> Job:
    """generateSelector: the four template labels (each only if absent) and the selector.

    The selector's matchLabels gets ``batch.kubernetes.io/controller-uid: <uid>`` unless
    the user already put that key there (a wrong value is then caught by validation).
    """
    return evolve(job, spec=_spec_with_generated_selector(job.spec, job.metadata.name, job.metadata.uid))


def _spec_with_generated_selector(spec: JobSpec, name: str, uid: str) -> JobSpec:
    labels = dict(spec.template.metadata.labels)
    for key in (LEGACY_JOB_NAME_LABEL, JOB_NAME_LABEL):
        labels.setdefault(key, name)
    for key in (LEGACY_CONTROLLER_UID_LABEL, CONTROLLER_UID_LABEL):
        labels.setdefault(key, uid)
    selector = spec.selector or LabelSelector()
    match_labels = dict(selector.match_labels)
    match_labels.setdefault(CONTROLLER_UID_LABEL, uid)
    selector = evolve(selector, match_labels=match_labels)
    template = evolve(spec.template, metadata=evolve(spec.template.metadata, labels=labels))
    return evolve(spec, template=template, selector=selector)


def prepare_for_create(job: Job) -> Job:
    """Job strategy PrepareForCreate (after rest.BeforeCreate cleared the deletion fields).

    Generates the selector unless ``manualSelector`` is true, clears the status and sets
    the generation to 1. The UID (and the name, for ``generateName``) must be set already.
    """
    # (One copy of the metadata and one of the Job: generateSelector reads only the name and the UID.)
    meta = evolve(job.metadata, deletion_timestamp=None, deletion_grace_period_seconds=None, generation=1)
    spec = job.spec if job.spec.manual_selector else _spec_with_generated_selector(job.spec, meta.name, meta.uid)
    return evolve(job, metadata=meta, spec=spec, status=JobStatus())


def default_and_prepare_for_create(job: Job) -> Job:
    """Everything a create does to a Job before validation, as the stored object shows it.

    :func:`set_defaults_job`, then :func:`prepare_for_create`. A Job submitted without
    labels ends up with its template's final labels, generated ones included: in Go the
    defaulted Job labels are the template's label map itself (so the labels the strategy
    adds to the template appear on the Job too), and a template without labels gets them
    when the created object is decoded, and so defaulted, again on its way back from
    storage. A Job submitted with labels keeps exactly those.
    """
    had_labels = bool(job.metadata.labels)
    job = prepare_for_create(set_defaults_job(job))
    if not had_labels and job.spec.template.metadata.labels:
        job = evolve(job, metadata=evolve(job.metadata, labels=dict(job.spec.template.metadata.labels)))
    return job


def _semantic_spec(spec: JobSpec) -> Any:
    from . import schema  # local: schema reads its data file lazily
    from .serialize import to_dict

    return schema.semantic_form(to_dict(spec), "JobSpec")


def prepare_for_update(old: Job, new: Job) -> Job:
    """rest.BeforeUpdate + Job strategy PrepareForUpdate for a spec/metadata update.

    The status cannot be changed this way (it is copied from the stored Job); the
    generation is the stored one, plus one when the spec changed; UID, creation
    timestamp, deletion timestamp and grace period are kept from the stored object; an
    update without a resourceVersion is unconditional (it gets the stored one).
    """
    meta = new.metadata
    generation = old.metadata.generation
    if _semantic_spec(new.spec) != _semantic_spec(old.spec):
        generation += 1
    meta = evolve(
        meta,
        generation=generation,
        uid=meta.uid or old.metadata.uid,
        resource_version=meta.resource_version or old.metadata.resource_version,
        creation_timestamp=(old.metadata.creation_timestamp if old.metadata.creation_timestamp is not None
                            else meta.creation_timestamp),
        deletion_timestamp=(old.metadata.deletion_timestamp if old.metadata.deletion_timestamp is not None
                            else meta.deletion_timestamp),
        deletion_grace_period_seconds=(meta.deletion_grace_period_seconds
                                       if meta.deletion_grace_period_seconds is not None
                                       else old.metadata.deletion_grace_period_seconds),
    )
    return evolve(new, metadata=meta, status=old.status)


def prepare_for_status_update(old: Job, new: Job) -> Job:
    """rest.BeforeUpdate + Job status strategy PrepareForUpdate: only the status may change."""
    meta = new.metadata
    if meta is old.metadata:
        # A status write as the store makes it (the stored object with a new status): every field
        # below would be set to the value it has.
        return new if new.spec is old.spec else evolve(new, spec=old.spec)
    meta = evolve(
        meta,
        generation=old.metadata.generation,
        uid=new.metadata.uid or old.metadata.uid,
        resource_version=new.metadata.resource_version or old.metadata.resource_version,
        creation_timestamp=(old.metadata.creation_timestamp if old.metadata.creation_timestamp is not None
                            else new.metadata.creation_timestamp),
        deletion_timestamp=(old.metadata.deletion_timestamp if old.metadata.deletion_timestamp is not None
                            else new.metadata.deletion_timestamp),
    )
    return evolve(new, metadata=meta, spec=old.spec)
