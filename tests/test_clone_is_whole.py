"""A copy of a simulation (what checkpoints, forks and rewinds resume from) holds the same state as the
original, field by field, in every object it reaches, and shares none of its mutable containers.

Several classes copy themselves by hand for speed (``__deepcopy__``); a field added later, or passed to
the wrong place, would make a fork differ from a replay only when that field matters, which random forks
may not reach. This walks the two object graphs in step instead, from the simulation down.
"""

from __future__ import annotations

import collections
import dataclasses
import datetime as dt
import functools
import random
import types
from typing import Any

import pytest

from k8sjobs.sim import SimConfig, Simulation

ATOMS = (int, float, str, bytes, bool, type(None), complex, dt.datetime, dt.timedelta, dt.tzinfo, type, range)
"""Values compared by equality (immutable, and copied or shared alike)."""


def is_frozen(obj: Any) -> bool:
    params = getattr(type(obj), "__dataclass_params__", None)
    return params is not None and params.frozen


def fields_of(obj: Any) -> dict[str, Any]:
    """An object's attributes: its ``__dict__`` and every slot it fills, of its class and the bases."""
    out: dict[str, Any] = dict(getattr(obj, "__dict__", {}))
    for cls in type(obj).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in ("__dict__", "__weakref__") and hasattr(obj, name):
                out[name] = getattr(obj, name)
    return out


class Walk:
    """Compare two object graphs in step: the same shape, the same values, and a copy where the original is
    mutable (a list, dict, set or a plain object may not be the original's own)."""

    def __init__(self, shared: set[int]) -> None:
        self.paired: dict[int, Any] = {}
        self.shared = shared  # ids of what a copy shares on purpose (the manifest, a snapshot)
        self.keep: list[Any] = []  # keeps compared objects alive, so their ids stay theirs

    def same(self, a: Any, b: Any, path: str) -> None:
        assert type(a) is type(b), f"{path}: {type(a).__name__} copied as {type(b).__name__}"
        if isinstance(a, ATOMS) or isinstance(a, (types.BuiltinFunctionType, types.ModuleType)):
            assert a == b or (a != a and b != b), f"{path}: {a!r} copied as {b!r}"
            return
        if id(a) in self.paired:
            assert self.paired[id(a)] is b, f"{path}: one object in the original, two in the copy"
            return
        self.paired[id(a)] = b
        self.keep += [a, b]
        shared_ok = id(a) in self.shared or is_frozen(a) or isinstance(a, (tuple, frozenset, types.FunctionType,
                                                                            types.CodeType, random.Random))
        if a is b:
            # Only what never changes may be shared (an API object is frozen, and so are the maps in it).
            assert shared_ok, f"{path}: the copy shares the original's mutable {type(a).__name__}"
            return
        if isinstance(a, random.Random):
            assert a.getstate() == b.getstate(), f"{path}: a random generator in another state"
        elif isinstance(a, dict):
            assert list(a) == list(b) or set(map(repr, a)) == set(map(repr, b)), f"{path}: other keys"
            for k in a:
                self.same(a[k], b[k] if k in b else self._twin_key(b, k, path), f"{path}[{k!r}]")
        elif isinstance(a, (list, tuple, collections.deque)):
            assert len(a) == len(b), f"{path}: {len(a)} items copied as {len(b)}"
            for i, (x, y) in enumerate(zip(a, b)):
                self.same(x, y, f"{path}[{i}]")
        elif isinstance(a, (set, frozenset)):
            assert sorted(map(repr, a)) == sorted(map(repr, b)), f"{path}: {a!r} copied as {b!r}"
        elif isinstance(a, types.MethodType):
            assert a.__func__ is b.__func__, f"{path}: another method"
            self.same(a.__self__, b.__self__, f"{path}.__self__")
        elif isinstance(a, types.FunctionType):
            assert a.__code__ is b.__code__, f"{path}: another function"
            for i, (x, y) in enumerate(zip(a.__closure__ or (), b.__closure__ or ())):
                self.same(x.cell_contents, y.cell_contents, f"{path}.<closure {i}>")
        elif isinstance(a, functools.partial):
            self.same((a.func, a.args, a.keywords), (b.func, b.args, b.keywords), f"{path}<partial>")
        else:
            fa, fb = fields_of(a), fields_of(b)
            assert fa.keys() == fb.keys(), f"{path}: attributes {sorted(fa)} copied as {sorted(fb)}"
            assert fa or dataclasses.is_dataclass(a) or hasattr(type(a), "__slots__"), \
                f"{path}: a {type(a).__name__} this walk cannot look into"
            for name, value in fa.items():
                self.same(value, fb[name], f"{path}.{name}")

    @staticmethod
    def _twin_key(b: dict, k: Any, path: str) -> Any:
        # A key that is an object copied with the rest (not an atom): found by its repr.
        matches = [key for key in b if repr(key) == repr(k)]
        assert len(matches) == 1, f"{path}: key {k!r} has no twin in the copy"
        return b[matches[0]]


def compare(sim: Simulation, clone: Simulation | None = None) -> None:
    """Walk ``sim`` and its copy (by default a fresh ``sim.clone()``) in step."""
    clone = sim.clone() if clone is None else clone
    shared = {id(sim.snapshot), id(sim.manifest)} | {id(m) for m in getattr(sim, "manifests", ())}
    walk = Walk(shared)
    walk.paired[id(sim)] = clone
    mine, theirs = fields_of(sim), fields_of(clone)
    assert mine.keys() == theirs.keys()
    # The heap last: reached through its callbacks, every object would get a long path.
    for name in sorted(mine, key=lambda n: n == "heap"):
        walk.same(mine[name], theirs[name], f"sim.{name}")


def job(completions: int = 40, parallelism: int = 6) -> dict:
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "w"},
            "spec": {"completions": completions, "parallelism": parallelism, "backoffLimit": 50,
                     "template": {"metadata": {"annotations": {"sim.k8sjobs.io/duration": "5s..30s",
                                                               "sim.k8sjobs.io/fail-rate": "0.2"}},
                                  "spec": {"restartPolicy": "Never", "containers": [{"name": "m", "image": "b"}]}}}}


CRONJOB = """\
apiVersion: batch/v1
kind: CronJob
metadata: {name: every-5}
spec:
  schedule: "*/5 * * * *"
  timeZone: Europe/Moscow
  jobTemplate:
    spec:
      template:
        metadata: {annotations: {sim.k8sjobs.io/duration: "7m"}}
        spec:
          restartPolicy: Never
          containers: [{name: m, image: b}]
"""


def with_every_fault(sim: Simulation) -> Simulation:
    """Every fault a lesson can set, each to a value of its own, so a field copied into another's place shows."""
    sim.set_pod_quota(5)
    sim.set_status_conflicts(2)
    sim.fail_next_creates(3)
    sim.set_informer_lag(2)
    faults = sim.store.faults
    faults.pod_quota_name, faults.pod_quota_resource, faults.pod_quota_outside = "team-quota", "count/pods", 1
    faults.terminating_namespaces.add("leaving")
    faults.reactors.append(lambda verb, kind, obj: None)
    return sim


@pytest.mark.parametrize("stop_at", [0.0, 3.0, 47.5, 400.0])
def test_a_copy_of_a_job_run_holds_the_same_state_field_by_field_and_shares_nothing_mutable(stop_at):
    sim = with_every_fault(Simulation(job(), SimConfig(seed=5, nodes=2)))
    sim.run_until(stop_at)
    compare(sim)


@pytest.mark.parametrize("stop_at", [0.0, 301.0, 3 * 3600.0 + 17])
def test_a_copy_of_a_cronjob_run_holds_the_same_state_field_by_field(stop_at):
    sim = Simulation(CRONJOB, SimConfig(seed=2))
    sim.stop_controllers(1200)
    sim.run_until(stop_at)
    compare(sim)


def test_the_walk_sees_a_fault_copied_into_another_fields_place():
    """The check itself: a copy with two faults swapped (as the old Faults copy did) is caught."""
    sim = with_every_fault(Simulation(job(), SimConfig(seed=5)))
    clone = sim.clone()
    f = clone.store.faults
    f.pod_quota_name, f.pod_quota_resource = f.pod_quota_resource, f.pod_quota_name
    with pytest.raises(AssertionError, match=r"sim\.store\.faults\.pod_quota_name"):
        compare(sim, clone)
