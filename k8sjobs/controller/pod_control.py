"""How the controller changes pods (mirrors PodControlInterface / RealPodControl in controller_utils.go).

``StorePodControl`` talks to the in-memory API server and records the same events as
upstream's RealPodControl (SuccessfulCreate, FailedCreate, SuccessfulDelete,
FailedDelete). ``FakePodControl`` records calls without touching anything, as
upstream's FakePodControl does in unit tests (``err`` fails every call,
``create_limit`` refuses creations after the first N).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from ..api.apierrors import APIError, Reason, has_namespace_terminating_cause, is_not_found
from ..api.events import NORMAL, WARNING, EventRecorder
from ..api.types import Job, ObjectMeta, OwnerReference, Pod, PodTemplateSpec, evolve

SUCCESSFUL_CREATE = "SuccessfulCreate"
FAILED_CREATE = "FailedCreate"
SUCCESSFUL_DELETE = "SuccessfulDelete"
FAILED_DELETE = "FailedDelete"


def new_controller_ref(job: Job) -> OwnerReference:
    """metav1.NewControllerRef for a Job."""
    return OwnerReference(api_version="batch/v1", kind="Job", name=job.metadata.name, uid=job.metadata.uid,
                          controller=True, block_owner_deletion=True)


def get_pod_from_template(template: PodTemplateSpec, job: Job, controller_ref: OwnerReference,
                          generate_name: str) -> Pod:
    """A new pod from the template (mirrors GetPodFromTemplate): labels, annotations, finalizers, spec."""
    meta = ObjectMeta(
        generate_name=generate_name or f"{job.metadata.name}-",
        namespace=job.metadata.namespace,
        # Shared, never mutated: a pod's labels are its template's labels object until someone edits them.
        labels=template.metadata.labels,
        annotations=template.metadata.annotations,
        finalizers=tuple(template.metadata.finalizers),
        owner_references=(controller_ref,),
    )
    return Pod(metadata=meta, spec=template.spec)


class PodControl(Protocol):
    """What the Job controller may do to pods."""

    def create_pods_with_generate_name(self, namespace: str, template: PodTemplateSpec, job: Job,
                                       controller_ref: OwnerReference, generate_name: str) -> Pod | None:
        """Create one pod from ``template``; raises APIError."""
        ...

    def delete_pod(self, namespace: str, name: str, job: Job) -> None:
        """Delete one pod; raises APIError (NotFound included)."""
        ...

    def remove_finalizer(self, namespace: str, name: str, finalizer: str) -> None:
        """Patch ``finalizer`` off a pod; raises APIError."""
        ...


class StorePodControl:
    """Pod control against an :class:`~k8sjobs.api.store.APIStore`, recording events on the Job."""

    def __init__(self, store: Any, recorder: EventRecorder) -> None:
        self.store = store
        self.recorder = recorder

    def create_pods_with_generate_name(self, namespace: str, template: PodTemplateSpec, job: Job,
                                       controller_ref: OwnerReference, generate_name: str) -> Pod | None:
        """Create a pod; on failure record FailedCreate unless the namespace is terminating."""
        pod = get_pod_from_template(template, job, controller_ref, generate_name)
        if not pod.metadata.labels:
            raise APIError(Reason.BAD_REQUEST, "unable to create pods, no labels")
        try:
            created = self.store.create(pod)
        except APIError as exc:
            if not has_namespace_terminating_cause(exc):
                self.recorder.event(job, WARNING, FAILED_CREATE, f"Error creating: {exc}")
            raise
        self.recorder.event(job, NORMAL, SUCCESSFUL_CREATE, f"Created pod: {created.metadata.name}")
        return created

    def delete_pod(self, namespace: str, name: str, job: Job) -> None:
        """Delete a pod; NotFound records nothing, other errors FailedDelete."""
        try:
            self.store.delete("Pod", namespace, name)
        except APIError as exc:
            if not is_not_found(exc):
                self.recorder.event(job, WARNING, FAILED_DELETE, f"Error deleting: {exc}")
            raise
        self.recorder.event(job, NORMAL, SUCCESSFUL_DELETE, f"Deleted pod: {name}")

    def remove_finalizer(self, namespace: str, name: str, finalizer: str) -> None:
        """Patch the finalizer away (no event, as upstream)."""
        self.store.remove_finalizer("Pod", namespace, name, finalizer)

    def adopt_pod(self, namespace: str, name: str, ref: OwnerReference, finalizer: str) -> None:
        """Add the controllerRef and the tracking finalizer to an orphan (ClaimPods' adopt patch)."""
        def adopt(pod: Pod) -> Pod:
            fins = pod.metadata.finalizers if finalizer in pod.metadata.finalizers else (
                *pod.metadata.finalizers, finalizer)
            return evolve(pod, metadata=evolve(pod.metadata, finalizers=fins,
                                                 owner_references=(*pod.metadata.owner_references, ref)))
        self.store.patch("Pod", namespace, name, adopt, verb="adopt")

    def release_pod(self, namespace: str, name: str, owner_uid: str) -> None:
        """Drop the controllerRef of a pod that no longer matches the selector (ClaimPods' release)."""
        def release(pod: Pod) -> Pod:
            refs = tuple(r for r in pod.metadata.owner_references if r.uid != owner_uid)
            return evolve(pod, metadata=evolve(pod.metadata, owner_references=refs))
        self.store.patch("Pod", namespace, name, release, verb="release")


@dataclass
class FakePodControl:
    """Records calls (mirrors FakePodControl): ``err`` fails every call, ``create_limit`` caps creations."""

    err: APIError | None = None
    create_limit: int = 0
    create_call_count: int = 0
    templates: list[PodTemplateSpec] = field(default_factory=list)
    generate_names: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    patches: list[str] = field(default_factory=list)
    recorder: EventRecorder | None = None

    def create_pods_with_generate_name(self, namespace: str, template: PodTemplateSpec, job: Job,
                                       controller_ref: OwnerReference, generate_name: str) -> Pod | None:
        """Record the creation (or refuse it past ``create_limit``)."""
        self.create_call_count += 1
        if self.create_limit and self.create_call_count > self.create_limit:
            err = APIError(Reason.INTERNAL, "not creating pod, limit 3 already reached (create call "
                           f"{self.create_call_count})".replace("3", str(self.create_limit)))
            self._event(job, WARNING, FAILED_CREATE, f"Error creating: {err}")
            raise err
        self.templates.append(template)
        self.generate_names.append(generate_name)
        if self.err is not None:
            self._event(job, WARNING, FAILED_CREATE, f"Error creating: {self.err}")
            raise self.err
        name = f"{generate_name or job.metadata.name + '-'}{len(self.templates)}"
        self._event(job, NORMAL, SUCCESSFUL_CREATE, f"Created pod: {name}")
        return get_pod_from_template(template, job, controller_ref, generate_name)

    def delete_pod(self, namespace: str, name: str, job: Job) -> None:
        """Record the deletion."""
        self.deleted.append(name)
        if self.err is not None:
            self._event(job, WARNING, FAILED_DELETE, f"Error deleting: {self.err}")
            raise self.err
        self._event(job, NORMAL, SUCCESSFUL_DELETE, f"Deleted pod: {name}")

    def remove_finalizer(self, namespace: str, name: str, finalizer: str) -> None:
        """Record the patch."""
        self.patches.append(name)
        if self.err is not None:
            raise self.err

    def _event(self, job: Job, type_: str, reason: str, message: str) -> None:
        if self.recorder is not None:
            self.recorder.event(job, type_, reason, message)


def with_finalizer(template: PodTemplateSpec, finalizer: str) -> PodTemplateSpec:
    """The template with ``finalizer`` added if missing (appendJobCompletionFinalizerIfNotFound)."""
    fins = template.metadata.finalizers
    if finalizer in fins:
        return template
    return evolve(template, metadata=evolve(template.metadata, finalizers=(*fins, finalizer)))
