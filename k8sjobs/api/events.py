"""Recording core/v1 Events as client-go's recorder does (record.EventCorrelator).

What ``kubectl describe`` shows for a busy Job is shaped by three client-go steps, in order:

* **spam filter** (EventSourceObjectSpamFilter): a token bucket per source and involved
  object, 25 events of burst refilled at one per 5 minutes; events beyond it are dropped;
* **aggregation** (EventAggregator): from the 10th event within 10 minutes that differs from
  the others only by its message (same object, type and reason), one event
  ``(combined from similar events): <latest message>`` is written and counted instead;
* **deduplication** (eventLogger): an event identical to an earlier one (same key) raises
  that Event's ``count`` and ``lastTimestamp``, shown as ``(x3 over 2m)``.

Every call is also kept in :attr:`StoreEventRecorder.calls`, which is what a controller
*recorded* (upstream unit tests count those with a FakeRecorder).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..clock import Clock
from .store import APIStore
from .types import Event, EventSource, ObjectMeta, ObjectReference, evolve

NORMAL, WARNING = "Normal", "Warning"
SPAM_BURST = 25
SPAM_QPS = 1.0 / 300.0
AGGREGATE_MAX_EVENTS = 10
AGGREGATE_INTERVAL = 600.0
COMBINED_PREFIX = "(combined from similar events): "
EVENT_TTL = 3600.0
"""Seconds an Event lives after its last write: kube-apiserver's ``--event-ttl`` (default 1h), a
lease renewed by every write of the Event (a repeat that raises its count renews it too). The model's
store keeps every Event; what kubectl shows leaves out those a cluster would have dropped."""


def event_expired(last_write: float, now: float) -> bool:
    """Whether an Event last written at ``last_write`` is gone from the API server at ``now``."""
    return now - last_write > EVENT_TTL


class EventRecorder(Protocol):
    """What a controller needs to record an event about an object."""

    def event(self, obj: Any, type: str, reason: str, message: str) -> None:
        """Record one event of ``type`` (Normal or Warning) about ``obj``."""
        ...


@dataclass
class _Bucket:
    """A passive token bucket (flowcontrol's TryAccept) on simulated time."""

    tokens: float
    last: float

    def try_accept(self, now: float) -> bool:
        self.tokens = min(float(SPAM_BURST), self.tokens + (now - self.last) * SPAM_QPS)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


@dataclass
class _Aggregate:
    """Distinct messages seen for one (object, type, reason) lately (insertion-ordered)."""

    messages: dict[str, None] = field(default_factory=dict)
    last: float = float("-inf")


class StoreEventRecorder:
    """Writes Events into an :class:`APIStore` the way client-go's recorder does."""

    def __init__(self, store: APIStore, clock: Clock, component: str) -> None:
        self.store = store
        self.clock = clock
        self.component = component
        self.calls: list[tuple[float, str, str, str, str]] = []
        """(time, object uid, type, reason, message) of every call, dropped or not."""
        self.dropped = 0
        self._buckets: dict[str, _Bucket] = {}
        self._aggregates: dict[tuple[str, str, str], _Aggregate] = {}
        self._written: dict[tuple, tuple[str, str]] = {}
        self._serial = 0
        self._event_source: EventSource | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> StoreEventRecorder:
        new = StoreEventRecorder.__new__(StoreEventRecorder)
        memo[id(self)] = new
        for name, value in self.__dict__.items():
            # calls and _written hold immutable tuples: copy the containers only.
            setattr(new, name, type(value)(value) if name in ("calls", "_written") else copy.deepcopy(value, memo))
        return new

    def event(self, obj: Any, type: str, reason: str, message: str) -> None:
        """Record an event about ``obj`` (spam filter, then aggregation, then deduplication)."""
        meta = obj.metadata
        now = self.clock.now()
        self.calls.append((now, meta.uid, type, reason, message))
        bucket = self._buckets.get(meta.uid)
        if bucket is None:
            bucket = self._buckets[meta.uid] = _Bucket(float(SPAM_BURST), now)
        if not bucket.try_accept(now):
            self.dropped += 1
            return
        agg_key = (meta.uid, type, reason)
        agg = self._aggregates.get(agg_key)
        if agg is None or now - agg.last > AGGREGATE_INTERVAL:
            agg = self._aggregates[agg_key] = _Aggregate()
        agg.messages[message] = None
        agg.last = now
        key: tuple = (meta.uid, type, reason, message)
        if len(agg.messages) >= AGGREGATE_MAX_EVENTS:
            # Keep the set at its bound (client-go drops an arbitrary one; here the oldest).
            del agg.messages[next(iter(agg.messages))]
            key = (meta.uid, type, reason, None)
            message = COMBINED_PREFIX + message
        self._write(obj, key, type, reason, message, now)

    def _write(self, obj: Any, key: tuple, type: str, reason: str, message: str, now: float) -> None:
        known = self._written.get(key)
        if known is not None:
            existing = self.store.try_get("Event", *known)
            if existing is not None:
                self.store.update(evolve(existing, count=existing.count + 1, last_timestamp=now, message=message,
                                         metadata=evolve(existing.metadata, resource_version="")))
                return
        meta = obj.metadata
        # Upstream names an event <object>.<hex nanoseconds>; a counter keeps ours stable and
        # keeps pod names (drawn from the store's seeded source) independent of events.
        self._serial += 1
        ev = Event(
            metadata=ObjectMeta(name=f"{meta.name}.{self._serial:016x}", namespace=meta.namespace or "default"),
            involved_object=ObjectReference(kind=obj.kind, namespace=meta.namespace, name=meta.name,
                                            uid=meta.uid, api_version=obj.api_version),
            reason=reason, message=message, type=type, source=self._source(),
            first_timestamp=now, last_timestamp=now, count=1,
        )
        stored = self.store.create(ev)
        self._written[key] = (stored.metadata.namespace, stored.metadata.name)

    def _source(self) -> EventSource:
        # One immutable EventSource per component, shared by the recorder's events.
        source = self._event_source
        if source is None or source.component != self.component:
            source = self._event_source = EventSource(component=self.component)
        return source

    def recorded(self, obj: Any) -> list[tuple[float, str, str, str]]:
        """Every event recorded about ``obj``: (time, type, reason, message), filtered or not."""
        uid = obj.metadata.uid
        return [(t, typ, reason, msg) for t, u, typ, reason, msg in self.calls if u == uid]


def events_for(store: APIStore, obj: Any) -> list[Event]:
    """The Event objects about ``obj`` in the order they first happened (as kubectl describe lists them)."""
    uid = obj.metadata.uid
    evs = [e for e in store.objects("Event") if e.involved_object.uid == uid]
    return sorted(evs, key=lambda e: (e.first_timestamp or 0.0, e.metadata.uid))
