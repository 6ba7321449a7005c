"""Finalizer-removal expectations (mirrors uidTrackingExpectations in tracking_utils.go).

The UIDs of pods whose tracking-finalizer patch is in flight. Such pods are skipped
when counting finished pods, so a pod is never counted twice while the informer has
not yet shown that its finalizer is gone.
"""

from __future__ import annotations


class UIDTrackingExpectations:
    """Per-Job sets of pod UIDs expected to lose the tracking finalizer."""

    def __init__(self) -> None:
        self._sets: dict[str, set[str]] = {}

    def get_expected_uids(self, key: str) -> frozenset[str]:
        """A copy of the UIDs still expected for ``key``."""
        return frozenset(self._sets.get(key, ()))

    def expect_finalizers_removed(self, key: str, uids: list[str]) -> None:
        """Record patches about to be sent."""
        self._sets.setdefault(key, set()).update(uids)

    def finalizer_removal_observed(self, key: str, uid: str) -> None:
        """The informer showed the pod without finalizer, or the patch failed, or the pod is gone."""
        s = self._sets.get(key)
        if s is not None:
            s.discard(uid)

    def delete_expectations(self, key: str) -> None:
        """Forget ``key`` entirely."""
        self._sets.pop(key, None)

    def snapshot(self) -> dict[str, frozenset[str]]:
        """A copy for time travel."""
        return {k: frozenset(v) for k, v in self._sets.items()}

    def restore(self, snap: dict[str, frozenset[str]]) -> None:
        """Put back a :meth:`snapshot`."""
        self._sets = {k: set(v) for k, v in snap.items()}
