"""The reporting hook that lets lower layers explain themselves without importing ``trace``.

A component calls ``emit(kind, **fields)``; the trace layer subscribes. ``kind`` is a
machine-readable rule id such as ``"create.slow_start_batch"``; ``fields`` carry the numbers
and names behind the decision (``case`` picks one of a rule's sentences). No sentence is
formatted here: :mod:`k8sjobs.trace.reasons` renders it from the rule's template when it is
shown, in the learner's language.
"""

from __future__ import annotations

from typing import Any, Protocol


class Emit(Protocol):
    """A callable that receives one decision or observation."""

    def __call__(self, kind: str, /, **fields: Any) -> None:
        """Record one decision of rule ``kind`` with its fields."""
        ...


def null_emit(kind: str, /, **fields: Any) -> None:
    """Discard the report (the default when nobody listens)."""


class Collector:
    """An :class:`Emit` that keeps every report in a list (handy in tests)."""

    def __init__(self) -> None:
        self.records: list[tuple[str, dict[str, Any]]] = []

    def __call__(self, kind: str, /, **fields: Any) -> None:
        self.records.append((kind, fields))

    def kinds(self) -> list[str]:
        """The rule ids reported so far, in order."""
        return [k for k, _ in self.records]
