"""Shared informers: a watch-fed cache with listers, indexes and event handlers.

Mirrors client-go's SharedIndexInformer as the Job controller uses it. The cache is
what the controller *believes*; it trails the API server by the informer's ``lag``
(seconds of simulated time, changeable at any moment). Deliveries stay in watch order:
lowering the lag never lets a later event overtake an earlier one.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from ..clock import Scheduler, copy_callback
from .labels import selector_matches
from .store import ADDED, DELETED, APIStore, WatchEvent
from .types import LabelSelector

PRIORITY_INFORMER = 10
"""Heap priority of cache deliveries: after API writes at the same instant, before syncs."""

IndexFunc = Callable[[Any], list[str]]


@dataclass(frozen=True, slots=True)
class EventHandlers:
    """ResourceEventHandlerFuncs: ``on_add(obj)``, ``on_update(old, new)``, ``on_delete(obj)``."""

    on_add: Callable[[Any], None] | None = None
    on_update: Callable[[Any, Any], None] | None = None
    on_delete: Callable[[Any], None] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> EventHandlers:
        return EventHandlers(copy_callback(self.on_add, memo), copy_callback(self.on_update, memo),
                             copy_callback(self.on_delete, memo))


def owner_uid_index(obj: Any) -> list[str]:
    """Index pods by the UID of their controller owner ("" for orphans)."""
    for ref in obj.metadata.owner_references:
        if ref.controller:
            return [ref.uid]
    return [""]


def namespace_index(obj: Any) -> list[str]:
    """Index objects by namespace."""
    return [obj.metadata.namespace]


class Informer:
    """A cache of one kind fed by the store's watch, delivered ``lag`` seconds late."""

    def __init__(self, store: APIStore | None, kind: str, scheduler: Scheduler | None = None, *,
                 lag: float = 0.0, indexers: dict[str, IndexFunc] | None = None) -> None:
        self.kind = kind
        self._label = "informer:" + kind
        self.scheduler = scheduler
        self.lag = float(lag)
        self._cache: dict[tuple[str, str], Any] = {}
        self._handlers: list[EventHandlers] = []
        self._indexers: dict[str, IndexFunc] = dict(indexers or {})
        self._indices: dict[str, dict[str, dict[tuple[str, str], Any]]] = {n: {} for n in self._indexers}
        self._last_delivery = float("-inf")
        self._batch: list[WatchEvent] | None = None
        self.pending = 0
        """Watch events received but not yet delivered to the cache."""
        self.delivered = 0
        if store is not None:
            for obj in store.list(kind):
                self._put(obj)
            store.watch(kind, self._on_watch)

    def __deepcopy__(self, memo: dict[int, Any]) -> Informer:
        # The cached objects are immutable: a snapshot copies the maps that hold them.
        new = Informer.__new__(Informer)
        memo[id(self)] = new
        for name, value in self.__dict__.items():
            if name == "_cache":
                new._cache = dict(value)
            elif name == "_indices":
                new._indices = {index: {v: dict(bucket) for v, bucket in buckets.items()}
                                for index, buckets in value.items()}
            elif name == "_indexers":
                new._indexers = {index: copy_callback(fn, memo) for index, fn in value.items()}
            else:
                setattr(new, name, copy.deepcopy(value, memo))
        return new

    # ------------------------------------------------------------------ delivery

    def set_lag(self, lag: float) -> None:
        """Change how late future watch events reach the cache."""
        if lag < 0:
            raise ValueError(f"informer lag must be >= 0, got {lag}")
        self.lag = float(lag)

    def _on_watch(self, ev: WatchEvent) -> None:
        if self.scheduler is None:
            self._deliver(ev)
            return
        t = self.scheduler.now() + self.lag
        if t < self._last_delivery:  # max(), without the call: this runs for every watch event
            t = self._last_delivery
        self.pending += 1
        if t == self._last_delivery and self._batch is not None:
            # Same delivery time as the batch already scheduled: join it (one heap event, same order).
            self._batch.append(ev)
            return
        self._last_delivery = t
        batch = self._batch = [ev]
        self.scheduler.call_at(t, partial(self._deliver_batch, batch), priority=PRIORITY_INFORMER, label=self._label)

    def _deliver_batch(self, batch: list[WatchEvent]) -> None:
        if batch is self._batch:
            self._batch = None
        deliver = self._deliver
        for ev in batch:
            self.pending -= 1
            deliver(ev)

    def _deliver(self, ev: WatchEvent) -> None:
        self.delivered += 1
        type_, _kind, obj, _old = ev  # (unpacked once: this runs for every watch event)
        meta = obj.metadata
        key = (meta.namespace, meta.name)
        if type_ == DELETED:
            self._drop(key)
            for h in self._handlers:
                if h.on_delete:
                    h.on_delete(obj)
            return
        old = self._cache.get(key)
        self._put(obj, key, old)
        added = old is None or type_ == ADDED
        for h in self._handlers:
            if added:
                if h.on_add:
                    h.on_add(obj)
            elif h.on_update:
                h.on_update(old, obj)

    # ------------------------------------------------------------------ cache

    def _put(self, obj: Any, key: tuple[str, str] | None = None, old: Any = None) -> None:
        if key is None:
            key = (obj.metadata.namespace, obj.metadata.name)
            old = self._cache.get(key)
        # Assigning an existing key keeps its place: index lookups stay in creation order.
        self._cache[key] = obj
        for name, fn in self._indexers.items():
            values = fn(obj)
            if old is not None:
                old_values = fn(old)
                if old_values == values:
                    stale_values: Any = ()
                else:
                    stale_values = set(old_values) - set(values)
                for stale in stale_values:
                    bucket = self._indices[name].get(stale)
                    if bucket is not None:
                        bucket.pop(key, None)
                        if not bucket:
                            del self._indices[name][stale]
            for value in values:
                self._indices[name].setdefault(value, {})[key] = obj

    def _drop(self, key: tuple[str, str]) -> None:
        obj = self._cache.pop(key, None)
        if obj is None:
            return
        for name, fn in self._indexers.items():
            for value in fn(obj):
                bucket = self._indices[name].get(value)
                if bucket is not None:
                    bucket.pop(key, None)
                    if not bucket:
                        del self._indices[name][value]

    def add_indexer(self, name: str, fn: IndexFunc) -> None:
        """Register an index (as controllers add indexers to shared informers) and build it."""
        if name in self._indexers:
            return
        self._indexers[name] = fn
        self._indices[name] = {}
        for key, obj in self._cache.items():
            for value in fn(obj):
                self._indices[name].setdefault(value, {})[key] = obj

    def index_size(self, index: str, value: str) -> int:
        """How many objects have ``value`` in index ``index``."""
        return len(self._indices[index].get(value, ()))

    def add_event_handler(self, handlers: EventHandlers) -> None:
        """Register handlers for future deliveries."""
        self._handlers.append(handlers)

    def replace_all(self, objs: list[Any]) -> None:
        """Set the cache to exactly ``objs`` without calling handlers (tests, time travel)."""
        self._cache.clear()
        for name in self._indices:
            self._indices[name] = {}
        for obj in objs:
            self._put(obj)

    # ------------------------------------------------------------------ lister

    def get(self, namespace: str, name: str) -> Any | None:
        """The cached object or None (a lister Get)."""
        return self._cache.get((namespace, name))

    def list(self, namespace: str | None = None, selector: LabelSelector | None = None) -> list[Any]:
        """Cached objects sorted by (namespace, name), optionally filtered."""
        out = []
        for key in sorted(self._cache):
            obj = self._cache[key]
            if namespace is not None and key[0] != namespace:
                continue
            if selector is not None and not selector_matches(selector, obj.metadata.labels):
                continue
            out.append(obj)
        return out

    def by_index(self, index: str, value: str) -> list[Any]:
        """Objects whose index ``index`` contains ``value``, in the order they entered the cache."""
        return list(self._indices[index].get(value, {}).values())

    def has_index(self, index: str) -> bool:
        """Whether an indexer of that name is registered."""
        return index in self._indexers

    def __len__(self) -> int:
        return len(self._cache)
