"""Recording core/v1 Events (mirrors client-go's record.EventRecorder with its correlator).

Identical events about one object (same type, reason, message and source) are folded
into one Event whose ``count`` grows, as ``kubectl describe`` shows ``(x3 over 2m)``.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..clock import Clock
from .store import APIStore
from .types import Event, EventSource, ObjectMeta, ObjectReference, evolve

NORMAL, WARNING = "Normal", "Warning"


class EventRecorder(Protocol):
    """What a controller needs to record an event about an object."""

    def event(self, obj: Any, type: str, reason: str, message: str) -> None:
        """Record one event of ``type`` (Normal or Warning) about ``obj``."""
        ...


class StoreEventRecorder:
    """Writes Events into an :class:`APIStore`, correlating repeats."""

    def __init__(self, store: APIStore, clock: Clock, component: str) -> None:
        self.store = store
        self.clock = clock
        self.component = component
        self._seen: dict[tuple[str, str, str, str], tuple[str, str]] = {}

    def event(self, obj: Any, type: str, reason: str, message: str) -> None:
        """Record (or fold into an earlier identical) event about ``obj``."""
        meta = obj.metadata
        key = (meta.uid, type, reason, message)
        now = self.clock.now()
        known = self._seen.get(key)
        if known is not None:
            existing = self.store.try_get("Event", *known)
            if existing is not None:
                self.store.update(evolve(existing, count=existing.count + 1, last_timestamp=now,
                                          metadata=evolve(existing.metadata, resource_version="")))
                return
        ev = Event(
            metadata=ObjectMeta(generate_name=f"{meta.name}.", namespace=meta.namespace or "default"),
            involved_object=ObjectReference(kind=obj.kind, namespace=meta.namespace, name=meta.name,
                                            uid=meta.uid, api_version=obj.api_version),
            reason=reason, message=message, type=type, source=EventSource(component=self.component),
            first_timestamp=now, last_timestamp=now, count=1,
        )
        stored = self.store.create(ev)
        self._seen[key] = (stored.metadata.namespace, stored.metadata.name)


def events_for(store: APIStore, obj: Any) -> list[Event]:
    """The events about ``obj`` in the order they first happened (as kubectl describe lists them)."""
    uid = obj.metadata.uid
    evs = [e for e in store.objects("Event") if e.involved_object.uid == uid]
    return sorted(evs, key=lambda e: (e.first_timestamp or 0.0, e.metadata.uid))
