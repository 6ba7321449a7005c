"""evolve and the generated __init__ of the API types behave as dataclasses' own replace and __init__."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from k8sjobs.api import types as T
from k8sjobs.api.types import ObjectMeta, Pod, PodCondition, PodStatus, evolve

API_CLASSES = [c for c in vars(T).values()
               if isinstance(c, type) and c.__module__ == T.__name__ and dataclasses.is_dataclass(c)]


def test_every_api_class_gets_the_fast_init_and_builds_with_its_defaults():
    assert len(API_CLASSES) > 20
    for cls in API_CLASSES:
        assert any(name.startswith("_set_") for name in cls.__init__.__globals__), cls
        obj = cls()  # every field has a default
        for f in dataclasses.fields(cls):
            expected = f.default if f.default is not dataclasses.MISSING else f.default_factory()
            assert getattr(obj, f.name) == expected, (cls.__name__, f.name)


def test_default_factories_give_each_object_its_own_value():
    a, b = ObjectMeta(), ObjectMeta()
    assert a.labels == {} and a.labels is not b.labels


def test_positional_keyword_and_wrong_arguments_behave_as_dataclass_init():
    c = PodCondition("Ready", "True", None, 5.0, "r", "m")
    assert c == PodCondition(type="Ready", status="True", last_transition_time=5.0, reason="r", message="m")
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        ObjectMeta(bogus=1)
    with pytest.raises(TypeError):
        PodCondition("Ready", "True", None, 5.0, "r", "m", "one too many")


def test_objects_stay_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        ObjectMeta(name="a").name = "b"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        evolve(ObjectMeta(name="a"), name="b").name = "c"  # type: ignore[misc]


@pytest.mark.parametrize("changes", [
    {"name": "b"},
    {"labels": {"x": "1"}, "resource_version": "7"},
    {},
])
def test_evolve_gives_what_dataclasses_replace_gives(changes):
    meta = ObjectMeta(name="a", namespace="ns", labels={"k": "v"}, finalizers=("f",))
    new = evolve(meta, **changes)
    assert type(new) is ObjectMeta
    assert new == dataclasses.replace(meta, **changes)
    assert meta.name == "a"  # the original is untouched


def test_evolved_hashable_objects_hash_as_built_ones():
    ref = T.OwnerReference(kind="Job", name="j", uid="u")
    assert hash(evolve(ref, controller=True)) == hash(T.OwnerReference(kind="Job", name="j", uid="u", controller=True))


def test_evolve_rejects_unknown_fields_like_replace():
    with pytest.raises(TypeError, match="no field"):
        evolve(ObjectMeta(), nmae="typo")


def test_evolved_objects_nest_compare_and_pickle_like_built_ones():
    pod = Pod(metadata=ObjectMeta(name="p"), status=PodStatus(phase="Pending"))
    running = evolve(pod, status=evolve(pod.status, phase="Running"))
    assert running == Pod(metadata=ObjectMeta(name="p"), status=PodStatus(phase="Running"))
    assert running != pod and running.metadata is pod.metadata
    assert pickle.loads(pickle.dumps(running)) == running
    assert dataclasses.asdict(running)["status"]["phase"] == "Running"
