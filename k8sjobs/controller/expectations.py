"""Creation/deletion expectations (mirrors ControllerExpectations in pkg/controller/controller_utils.go).

Before creating N pods the controller records "expect N creations"; the informer's add
events lower the count; a failed create lowers it at once because no event will ever
come. While a record is unfulfilled the Job is not managed again (no new creates or
deletes), which stops the controller from acting twice on a stale cache. A record older
than five minutes counts as satisfied, so a lost event cannot wedge a Job forever.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..clock import Clock

EXPECTATIONS_TIMEOUT = 300.0
"""ExpectationsTimeout: 5 minutes of simulated time."""


@dataclass
class ControlleeExpectations:
    """One Job's outstanding creations (``add``) and deletions (``dele``), set at ``timestamp``."""

    add: int
    dele: int
    key: str
    timestamp: float

    def fulfilled(self) -> bool:
        """Both counters at or below zero (below zero happens and still means satisfied)."""
        return self.add <= 0 and self.dele <= 0


class ControllerExpectations:
    """Per-Job expectations on the injected clock."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._records: dict[str, ControlleeExpectations] = {}

    def get_expectations(self, key: str) -> ControlleeExpectations | None:
        """The record for ``key``, if any."""
        return self._records.get(key)

    def satisfied_expectations(self, key: str) -> bool:
        """True when there is no record, it is fulfilled, or it has expired (mirrors SatisfiedExpectations)."""
        exp = self._records.get(key)
        if exp is None:
            return True
        if exp.fulfilled():
            return True
        return self.is_expired(exp)

    def is_expired(self, exp: ControlleeExpectations) -> bool:
        """Older than :data:`EXPECTATIONS_TIMEOUT` (strictly)."""
        return self.clock.now() - exp.timestamp > EXPECTATIONS_TIMEOUT

    def set_expectations(self, key: str, add: int, dele: int) -> None:
        """Replace the record (a fresh timestamp); it does not add to what is outstanding."""
        self._records[key] = ControlleeExpectations(add, dele, key, self.clock.now())

    def expect_creations(self, key: str, adds: int) -> None:
        """ExpectCreations: the record becomes (adds, 0)."""
        self.set_expectations(key, adds, 0)

    def expect_deletions(self, key: str, dels: int) -> None:
        """ExpectDeletions: the record becomes (0, dels)."""
        self.set_expectations(key, 0, dels)

    def lower_expectations(self, key: str, add: int, dele: int) -> None:
        """Lower both counters of an existing record."""
        exp = self._records.get(key)
        if exp is not None:
            exp.add -= add
            exp.dele -= dele

    def raise_expectations(self, key: str, add: int, dele: int) -> None:
        """Raise both counters of an existing record."""
        exp = self._records.get(key)
        if exp is not None:
            exp.add += add
            exp.dele += dele

    def creation_observed(self, key: str) -> None:
        """One expected creation was seen (or will never come)."""
        self.lower_expectations(key, 1, 0)

    def deletion_observed(self, key: str) -> None:
        """One expected deletion was seen (or will never come)."""
        self.lower_expectations(key, 0, 1)

    def delete_expectations(self, key: str) -> None:
        """Forget the record (the Job is gone)."""
        self._records.pop(key, None)

    def snapshot(self) -> dict[str, tuple[int, int, float]]:
        """Every record as (add, del, timestamp), for traces and time travel."""
        return {k: (e.add, e.dele, e.timestamp) for k, e in self._records.items()}

    def restore(self, snap: dict[str, tuple[int, int, float]]) -> None:
        """Put back a :meth:`snapshot`."""
        self._records = {k: ControlleeExpectations(a, d, k, t) for k, (a, d, t) in snap.items()}
