"""Deterministic names and UIDs.

The API server gives objects random suffixes and UIDs; k8sjobs derives them from a
per-instance counter and a seeded generator, so traces, golden files and checked
notebook cells are stable. Never use a module-level counter: two simulations in one
kernel must not influence each other.
"""

from __future__ import annotations

import random

# Same alphabet as apimachinery's utilrand.String (no vowels, no confusable digits),
# so generated names look like the ones kubectl shows.
_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"
SUFFIX_LENGTH = 5
MAX_GENERATED_NAME_LENGTH = 63


def clone_random(rng: random.Random) -> random.Random:
    """An independent generator in the same state as ``rng`` (much faster than ``copy.deepcopy``)."""
    new = random.Random()
    new.setstate(rng.getstate())
    return new


class IdSource:
    """Per-store source of generated name suffixes and UIDs, seeded."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(f"k8sjobs-ids-{seed}")
        self._uid_counter = 0

    def __deepcopy__(self, memo: dict) -> IdSource:
        new = IdSource.__new__(IdSource)
        new._rng = clone_random(self._rng)
        new._uid_counter = self._uid_counter
        memo[id(self)] = new
        return new

    def suffix(self) -> str:
        """A 5-character random-looking suffix drawn from the seeded generator."""
        # random.choices(_ALPHABET, k=5) drawn by hand: the same characters, without its
        # per-call overhead (this runs once per pod).
        draw = self._rng.random
        n = len(_ALPHABET)
        return "".join([_ALPHABET[int(draw() * n)] for _ in range(SUFFIX_LENGTH)])

    def generate_name(self, base: str, kind: str = "") -> str:
        """Mirror names.SimpleNameGenerator: truncate the base to 58 chars, add 5 random chars."""
        max_base = MAX_GENERATED_NAME_LENGTH - SUFFIX_LENGTH
        return base[:max_base] + self.suffix()

    def uid(self, kind: str = "obj") -> str:
        """A stable UID: the k-th UID of this source, shaped like a UUID."""
        self._uid_counter += 1
        n = self._uid_counter
        return f"00000000-0000-4000-8000-{n:012d}"
