"""The machinery under the simulation: API store, informers, work queue and expectations.

Each test builds the piece it needs on a :class:`FakeClock` (simulated time only) and checks
what a learner would see: names, resourceVersions, watch events, delivery order, delays.
References: job-controller.md §3 (queueing), §4 (expectations), §17 (cascading delete).
"""

from __future__ import annotations

import pytest

from k8sjobs.api.apierrors import APIError
from k8sjobs.api.informer import EventHandlers, Informer, owner_uid_index
from k8sjobs.api.store import FOREGROUND_DELETION_FINALIZER, APIStore, WatchEvent
from k8sjobs.api.types import Job, ObjectMeta, OwnerReference, Pod, PodSpec, PodStatus, evolve
from k8sjobs.clock import EventHeap, FakeClock
from k8sjobs.controller.controller_utils import EXPECTATIONS_TIMEOUT, ControllerExpectations
from k8sjobs.controller.workqueue import ItemExponentialFailureRateLimiter, RateLimitingQueue
from k8sjobs.sim import load_job
from tests.manifests import job_manifest

NS = "default"
JOB_YAML = job_manifest("j", completions=4, parallelism=2)


# ----------------------------------------------------------------------------- one-line builders


def store(t: float = 0.0, seed: int = 0) -> APIStore:
    return APIStore(FakeClock(t), seed=seed)


def pod(name: str = "", *, gen: str = "", node: str = "", phase: str = "", fins: tuple[str, ...] = (),
        owner: Job | None = None, grace: int | None = None) -> Pod:
    refs = (OwnerReference(api_version="batch/v1", kind="Job", name=owner.metadata.name, uid=owner.metadata.uid,
                           controller=True),) if owner is not None else ()
    return Pod(metadata=ObjectMeta(name=name, generate_name=gen, namespace=NS, finalizers=fins, owner_references=refs),
               spec=PodSpec(node_name=node, termination_grace_period_seconds=grace), status=PodStatus(phase=phase))


def watched(s: APIStore, kind: str = "Pod") -> list[tuple[str, str]]:
    seen: list[tuple[str, str]] = []
    s.watch(kind, lambda ev: seen.append((ev.type, ev.obj.metadata.name)))
    return seen


def api_error(fn) -> APIError:
    with pytest.raises(APIError) as info:
        fn()
    return info.value


# ----------------------------------------------------------------------------- store: names and reads


def test_generate_name_gives_the_same_names_for_the_same_seed_and_others_for_another_seed():
    def names(seed: int) -> list[str]:
        s = store(seed=seed)
        return [s.create(pod(gen="pi-")).metadata.name for _ in range(5)]

    assert names(0) == names(0)
    assert names(0) != names(1)
    assert all(n.startswith("pi-") and len(n) == len("pi-") + 5 for n in names(0))
    assert len(set(names(0))) == 5


def test_generated_suffixes_are_the_characters_random_choices_would_draw_from_the_same_seed():
    # Names in golden files and lessons were drawn with random.choices: the hand-drawn
    # version must give exactly the same characters.
    import random

    from k8sjobs.ids import _ALPHABET, SUFFIX_LENGTH, IdSource

    for seed in (0, 1, 42):
        ids, ref = IdSource(seed), random.Random(f"k8sjobs-ids-{seed}")
        for _ in range(200):
            assert ids.suffix() == "".join(ref.choices(_ALPHABET, k=SUFFIX_LENGTH))


def test_create_stamps_uid_creation_time_resource_version_and_phase_pending():
    s = store(t=12.5)
    p = s.create(pod("a"))
    assert (p.metadata.creation_timestamp, p.status.phase, p.metadata.namespace) == (12.5, "Pending", NS)
    assert p.metadata.uid and p.metadata.resource_version == "1"
    assert s.create(pod("b")).metadata.resource_version == "2"


def test_list_is_sorted_by_namespace_and_name_whatever_the_creation_order():
    s = store()
    for n in ("b", "c", "a"):
        s.create(pod(n))
    assert [p.metadata.name for p in s.list("Pod")] == ["a", "b", "c"]


@pytest.mark.parametrize(("make", "reason", "message"), [
    pytest.param(lambda s: s.create(pod("a")), "AlreadyExists", 'pods "a" already exists',
                 id="creating an existing name is AlreadyExists"),
    pytest.param(lambda s: s.create(pod()), "Invalid", "metadata.name: Required value: name or generateName is required",
                 id="an object without name or generateName is Invalid"),
    pytest.param(lambda s: s.get("Pod", NS, "zz"), "NotFound", 'pods "zz" not found', id="a missing object is NotFound"),
])
def test_store_errors_carry_the_api_server_reason_and_message(make, reason, message):
    s = store()
    s.create(pod("a"))
    err = api_error(lambda: make(s))
    assert (err.reason, str(err)) == (reason, message)


def test_an_update_with_a_stale_resource_version_is_a_conflict_and_changes_nothing():
    s = store()
    old = s.create(pod("a"))
    new = s.update(evolve(old, metadata=evolve(old.metadata, labels={"x": "1"})))
    assert int(new.metadata.resource_version) > int(old.metadata.resource_version)
    err = api_error(lambda: s.update(evolve(old, metadata=evolve(old.metadata, labels={"x": "2"}))))
    assert err.reason == "Conflict"
    assert str(err) == ('Operation cannot be fulfilled on pods "a": the object has been modified; '
                        "please apply your changes to the latest version and try again")
    assert s.get("Pod", NS, "a").metadata.labels == {"x": "1"}


def test_a_no_op_update_keeps_the_resource_version_and_sends_no_watch_event():
    s = store()
    p = s.create(pod("a"))
    seen = watched(s)
    assert s.update(p).metadata.resource_version == p.metadata.resource_version
    assert seen == []


# ----------------------------------------------------------------------------- store: Jobs and generation


def created_job(s: APIStore) -> Job:
    return s.create(load_job(JOB_YAML))


@pytest.mark.parametrize(("change", "generation"), [
    pytest.param(lambda s, j: s.update_status(evolve(j, status=evolve(j.status, active=1))), 1,
                 id="a status write keeps the generation"),
    pytest.param(lambda s, j: s.update(evolve(j, metadata=evolve(j.metadata, labels={**j.metadata.labels, "a": "b"}))),
                 1, id="a label change keeps the generation"),
    pytest.param(lambda s, j: s.update(evolve(j, spec=evolve(j.spec, parallelism=3))), 2,
                 id="a spec change bumps the generation"),
    pytest.param(lambda s, j: s.patch("Job", NS, "j", lambda o: evolve(o, spec=evolve(o.spec, suspend=True))), 2,
                 id="a spec patch bumps the generation"),
])
def test_generation_grows_only_when_the_job_spec_changes(change, generation):
    s = store()
    j = created_job(s)
    assert j.metadata.generation == 1
    assert change(s, j).metadata.generation == generation


def test_a_job_update_goes_through_validation_and_names_the_field():
    s = store()
    j = created_job(s)
    err = api_error(lambda: s.update(evolve(j, spec=evolve(j.spec, parallelism=-1))))
    assert err.reason == "Invalid"
    assert "spec.parallelism" in str(err)
    assert s.get("Job", NS, "j").spec.parallelism == 2


# ----------------------------------------------------------------------------- store: deletion


def test_a_finalizer_keeps_a_deleted_object_until_it_is_removed():
    s = store(t=5)
    s.create(pod("f", node="n1", fins=("example.com/keep",)))
    seen = watched(s)
    marked = s.delete("Pod", NS, "f", grace_period_seconds=0)
    assert marked.metadata.deletion_timestamp == 5
    assert s.try_get("Pod", NS, "f") is not None
    s.remove_finalizer("Pod", NS, "f", "example.com/keep")
    assert s.try_get("Pod", NS, "f") is None
    assert seen == [("MODIFIED", "f"), ("DELETED", "f")]


@pytest.mark.parametrize(("the_pod", "grace", "deletion_timestamp"), [
    pytest.param(pod("r", node="n1"), None, 100 + 30, id="a running pod gets the default 30 s grace"),
    pytest.param(pod("r", node="n1", grace=7), None, 100 + 7, id="a running pod gets its terminationGracePeriodSeconds"),
    pytest.param(pod("r", node="n1", grace=7), 2, 100 + 2, id="a requested grace period wins"),
])
def test_graceful_pod_deletion_sets_deletion_timestamp_to_now_plus_grace(the_pod, grace, deletion_timestamp):
    s = store(t=100)
    s.create(the_pod)
    got = s.delete("Pod", NS, "r", grace_period_seconds=grace)
    assert got.metadata.deletion_timestamp == deletion_timestamp
    assert s.get("Pod", NS, "r").metadata.deletion_grace_period_seconds == deletion_timestamp - 100


@pytest.mark.parametrize("the_pod", [
    pytest.param(pod("x"), id="an unscheduled pod is deleted at once"),
    pytest.param(pod("x", node="n1", phase="Succeeded"), id="a succeeded pod is deleted at once"),
    pytest.param(pod("x", node="n1", phase="Failed"), id="a failed pod is deleted at once"),
])
def test_pods_that_run_nothing_are_deleted_without_grace(the_pod):
    s = store()
    s.create(the_pod)
    seen = watched(s)
    s.delete("Pod", NS, "x")
    assert s.try_get("Pod", NS, "x") is None
    assert seen == [("DELETED", "x")]


def job_with_pods(s: APIStore, *phases: str) -> Job:
    j = created_job(s)
    for i, phase in enumerate(phases):
        s.create(pod(f"p{i}", node="n1", phase=phase, owner=j))
    return j


def test_background_propagation_removes_the_job_at_once_and_deletes_its_pods_gracefully():
    s = store(t=3)
    job_with_pods(s, "Running", "Running")
    s.delete("Job", NS, "j", propagation="Background")
    assert s.try_get("Job", NS, "j") is None
    assert [(p.metadata.name, p.metadata.deletion_timestamp) for p in s.list("Pod")] == [("p0", 33), ("p1", 33)]


def test_foreground_propagation_keeps_the_job_until_its_pods_are_gone():
    s = store(t=3)
    job_with_pods(s, "Running")
    marked = s.delete("Job", NS, "j", propagation="Foreground")
    assert FOREGROUND_DELETION_FINALIZER in marked.metadata.finalizers
    assert marked.metadata.deletion_timestamp == 3
    assert s.get("Pod", NS, "p0").metadata.deletion_timestamp == 33
    s.delete("Pod", NS, "p0", grace_period_seconds=0)
    assert s.try_get("Job", NS, "j") is None


def test_orphan_propagation_releases_the_pods_and_leaves_them_running():
    s = store()
    job_with_pods(s, "Running")
    s.delete("Job", NS, "j", propagation="Orphan")
    p = s.get("Pod", NS, "p0")
    assert (p.metadata.owner_references, p.metadata.deletion_timestamp) == ((), None)


def test_a_uid_precondition_that_does_not_match_is_a_conflict():
    s = store()
    created_job(s)
    err = api_error(lambda: s.delete("Job", NS, "j", precondition_uid="other"))
    assert err.reason == "Conflict"
    assert "Precondition failed: UID in precondition: other" in str(err)
    assert s.try_get("Job", NS, "j") is not None


# ----------------------------------------------------------------------------- store: fault hooks


def test_fail_next_creates_fails_exactly_n_pod_creations_with_an_internal_error():
    s = store()
    s.faults.fail_next_creates = 2
    errors = [api_error(lambda: s.create(pod(gen="q-"))) for _ in range(2)]
    assert {(e.reason, str(e)) for e in errors} == {
        ("InternalError", "Internal error occurred: injected create failure (k8sjobs fault)")}
    assert s.create(pod(gen="q-")).metadata.name.startswith("q-")
    assert s.count("Pod") == 1


def test_a_pod_quota_counts_only_non_terminal_pods_and_says_exceeded_quota():
    s = store()
    s.create(pod("a", node="n", phase="Running"))
    s.create(pod("b", node="n", phase="Succeeded"))
    s.faults.pod_quota = 1
    err = api_error(lambda: s.create(pod(gen="q-")))
    assert (err.reason, str(err)) == (
        "Forbidden", 'pods "q-" is forbidden: exceeded quota: pod-quota, requested: pods=1, used: pods=1, limited: pods=1')
    s.faults.pod_quota = 2
    assert s.create(pod(gen="q-")).metadata.name.startswith("q-")


def test_a_terminating_namespace_rejects_creations_with_the_namespace_terminating_cause():
    s = store()
    s.faults.terminating_namespaces.add(NS)
    err = api_error(lambda: s.create(pod(gen="q-")))
    assert err.reason == "Forbidden"
    assert str(err) == ('pods "q-" is forbidden: unable to create new content in namespace default because it is '
                        "being terminated")
    assert err.cause == "NamespaceTerminating"


def test_status_conflicts_fail_the_next_n_job_status_writes_only():
    s = store()
    j = created_job(s)
    s.faults.status_conflicts = 1
    err = api_error(lambda: s.update_status(evolve(j, status=evolve(j.status, active=1))))
    assert (err.reason, str(err)) == ("Conflict", 'Operation cannot be fulfilled on jobs.batch "j": the object has '
                                      "been modified; please apply your changes to the latest version and try again")
    assert s.update_status(evolve(j, status=evolve(j.status, active=1))).status.active == 1


def test_a_reactor_can_refuse_any_write_and_the_object_stays_as_it_was():
    s = store()
    s.create(pod("a", node="n"))
    s.faults.reactors.append(lambda verb, kind, obj: APIError("Forbidden", "no deletes today") if verb == "delete"
                             else None)
    err = api_error(lambda: s.delete("Pod", NS, "a"))
    assert (err.reason, str(err)) == ("Forbidden", "no deletes today")
    assert s.get("Pod", NS, "a").metadata.deletion_timestamp is None


# ----------------------------------------------------------------------------- informers


def informer_on_heap(lag: float) -> tuple[APIStore, EventHeap, Informer]:
    clock = FakeClock()
    s = APIStore(clock)
    heap = EventHeap(clock)
    return s, heap, Informer(s, "Pod", heap, lag=lag)


def test_an_informer_shows_a_change_only_after_its_lag():
    s, heap, inf = informer_on_heap(lag=5)
    s.create(pod("a"))
    heap.run_until(4.999)
    assert (inf.get(NS, "a"), inf.pending) == (None, 1)
    heap.run_until(5)
    assert inf.get(NS, "a") is not None
    assert (inf.pending, inf.delivered) == (0, 1)


def test_lowering_the_lag_never_lets_a_later_event_overtake_an_earlier_one():
    s, heap, inf = informer_on_heap(lag=10)
    order: list[tuple[float, str]] = []
    inf.add_event_handler(EventHandlers(on_add=lambda p: order.append((heap.now(), p.metadata.name))))
    s.create(pod("first"))
    heap.clock.set(1)
    inf.set_lag(0)
    s.create(pod("second"))
    heap.run_until(100)
    assert order == [(10, "first"), (10, "second")]


def test_informer_handlers_see_add_update_and_delete_in_watch_order():
    s, heap, inf = informer_on_heap(lag=0)
    calls: list[str] = []
    inf.add_event_handler(EventHandlers(on_add=lambda p: calls.append(f"add {p.metadata.name}"),
                                        on_update=lambda o, n: calls.append(f"update {n.metadata.labels}"),
                                        on_delete=lambda p: calls.append(f"delete {p.metadata.name}")))
    p = s.create(pod("a", node="n"))
    s.update(evolve(p, metadata=evolve(p.metadata, labels={"k": "v"})))
    s.delete("Pod", NS, "a", grace_period_seconds=0)
    heap.run_until(1)
    assert calls == ["add a", "update {'k': 'v'}", "delete a"]
    assert inf.get(NS, "a") is None


def test_an_informer_without_a_scheduler_delivers_at_once():
    s = store()
    inf = Informer(s, "Pod")
    s.create(pod("a"))
    assert inf.get(NS, "a") is not None


def test_an_informer_lists_the_existing_objects_when_it_starts_sorted_by_name():
    s = store()
    for n in ("b", "a"):
        s.create(pod(n))
    inf = Informer(s, "Pod")
    assert [p.metadata.name for p in inf.list()] == ["a", "b"]


def test_an_index_follows_owner_changes_and_deletions():
    s = store()
    j = created_job(s)
    inf = Informer(s, "Pod", indexers={"owner": owner_uid_index})
    s.create(pod("mine", node="n", owner=j))
    s.create(pod("orphan", node="n"))
    assert [p.metadata.name for p in inf.by_index("owner", j.metadata.uid)] == ["mine"]
    assert [p.metadata.name for p in inf.by_index("owner", "")] == ["orphan"]
    mine = s.get("Pod", NS, "mine")
    s.update(evolve(mine, metadata=evolve(mine.metadata, owner_references=())))
    assert inf.by_index("owner", j.metadata.uid) == []
    assert inf.index_size("owner", "") == 2
    s.delete("Pod", NS, "orphan", grace_period_seconds=0)
    assert [p.metadata.name for p in inf.by_index("owner", "")] == ["mine"]


def test_an_index_added_later_is_built_from_the_cache():
    s = store()
    j = created_job(s)
    inf = Informer(s, "Pod")
    s.create(pod("mine", node="n", owner=j))
    inf.add_indexer("owner", owner_uid_index)
    assert inf.has_index("owner")
    assert [p.metadata.name for p in inf.by_index("owner", j.metadata.uid)] == ["mine"]


def test_a_negative_lag_is_refused():
    _, _, inf = informer_on_heap(lag=0)
    with pytest.raises(ValueError, match="informer lag must be >= 0"):
        inf.set_lag(-1)


# ----------------------------------------------------------------------------- work queue


def queue_on_heap() -> tuple[FakeClock, EventHeap, RateLimitingQueue]:
    clock = FakeClock()
    heap = EventHeap(clock)
    return clock, heap, RateLimitingQueue(clock, heap)


def test_a_key_added_twice_is_queued_once():
    _, _, q = queue_on_heap()
    q.add("ns/a")
    q.add("ns/a")
    q.add("ns/b")
    assert q.ready_keys() == ["ns/a", "ns/b"]


def test_a_key_added_while_it_is_processed_comes_back_once_processing_is_done():
    _, _, q = queue_on_heap()
    q.add("ns/a")
    assert q.get() == "ns/a"
    q.add("ns/a")
    assert q.ready_keys() == []
    q.done("ns/a")
    assert q.ready_keys() == ["ns/a"]


@pytest.mark.parametrize(("delays", "ready_at"), [
    pytest.param([5, 2], 2, id="a sooner add_after replaces a later one"),
    pytest.param([2, 5], 2, id="a later add_after does not postpone an earlier one"),
])
def test_add_after_keeps_the_earliest_time(delays, ready_at):
    clock, heap, q = queue_on_heap()
    for d in delays:
        q.add_after("ns/a", d)
    heap.run_until(ready_at - 0.001)
    assert q.ready_keys() == []
    heap.run_until(ready_at)
    assert q.ready_keys() == ["ns/a"]
    q.get()
    q.done("ns/a")
    heap.run_until(100)
    assert q.ready_keys() == []


@pytest.mark.parametrize("delay", [
    pytest.param(0, id="a zero delay queues the key now"),
    pytest.param(-3, id="a negative delay queues the key now"),
])
def test_a_non_positive_add_after_queues_now_and_an_earlier_timer_still_fires_as_in_client_go(delay):
    clock, heap, q = queue_on_heap()
    q.add_after("ns/a", 5)
    q.add_after("ns/a", delay)
    assert q.ready_keys() == ["ns/a"]
    q.get()
    q.done("ns/a")
    heap.run_until(4.999)
    assert q.ready_keys() == []
    heap.run_until(5)
    assert q.ready_keys() == ["ns/a"]


def test_the_rate_limiter_waits_one_second_doubling_up_to_sixty_and_forget_resets_it():
    limiter = ItemExponentialFailureRateLimiter()
    assert [limiter.when("k") for _ in range(9)] == [1, 2, 4, 8, 16, 32, 60, 60, 60]
    assert limiter.num_requeues("k") == 9
    assert limiter.when("other") == 1
    limiter.forget("k")
    assert (limiter.num_requeues("k"), limiter.when("k")) == (0, 1)


def test_a_rate_limited_add_becomes_ready_after_its_delay():
    clock, heap, q = queue_on_heap()
    assert q.add_rate_limited("ns/a") == 1
    heap.run_until(0.999)
    assert q.ready_keys() == []
    heap.run_until(1)
    assert q.ready_keys() == ["ns/a"]
    assert q.num_requeues("ns/a") == 1
    q.forget("ns/a")
    assert q.num_requeues("ns/a") == 0


# ----------------------------------------------------------------------------- expectations


def test_expectations_are_met_once_every_expected_creation_was_observed():
    clock = FakeClock()
    e = ControllerExpectations(clock)
    assert e.satisfied_expectations("k")  # no record at all
    e.expect_creations("k", 2)
    e.creation_observed("k")
    assert not e.satisfied_expectations("k")
    e.creation_observed("k")
    assert e.satisfied_expectations("k")


def test_unmet_expectations_expire_five_minutes_after_they_were_set():
    clock = FakeClock(10)
    e = ControllerExpectations(clock)
    e.expect_creations("k", 1)
    clock.set(10 + EXPECTATIONS_TIMEOUT)
    assert not e.satisfied_expectations("k")  # exactly five minutes is not yet expired
    clock.set(10 + EXPECTATIONS_TIMEOUT + 0.001)
    assert e.satisfied_expectations("k")
    assert EXPECTATIONS_TIMEOUT == 300


def test_setting_expectations_replaces_the_record_and_restarts_its_clock():
    clock = FakeClock()
    e = ControllerExpectations(clock)
    e.expect_creations("k", 5)
    clock.set(200)
    e.expect_deletions("k", 1)
    exp = e.get_expectations("k")
    assert (exp.add, exp.dele, exp.timestamp) == (0, 1, 200)
    clock.set(450)
    assert not e.satisfied_expectations("k")  # 250 s after the replacement, not 450 s


def test_counts_may_go_negative_and_still_mean_satisfied():
    clock = FakeClock()
    e = ControllerExpectations(clock)
    e.expect_deletions("k", 1)
    for _ in range(3):
        e.deletion_observed("k")
    exp = e.get_expectations("k")
    assert (exp.add, exp.dele) == (0, -2)
    assert e.satisfied_expectations("k")


def test_observations_without_a_record_are_ignored_and_delete_forgets_the_record():
    clock = FakeClock()
    e = ControllerExpectations(clock)
    e.creation_observed("k")
    assert e.get_expectations("k") is None
    e.expect_creations("k", 1)
    e.delete_expectations("k")
    assert e.get_expectations("k") is None and e.satisfied_expectations("k")


def test_watch_events_carry_the_old_object_on_update():
    s = store()
    got: list[WatchEvent] = []
    s.watch("Pod", got.append)
    p = s.create(pod("a"))
    s.update(evolve(p, metadata=evolve(p.metadata, labels={"k": "v"})))
    assert [e.type for e in got] == ["ADDED", "MODIFIED"]
    assert got[1].old.metadata.labels == {} and got[1].obj.metadata.labels == {"k": "v"}
