"""Checks for files copied from ../shared into this repository (cases, curriculum)."""

from __future__ import annotations

import hashlib
from pathlib import Path


def verify_copies(local_dir: Path, shared_dir: Path) -> list[str]:
    """Problems with the copies in ``local_dir``: a changed file (against SHA256SUMS, written
    when they were copied) or, when ``shared_dir`` exists, a copy that differs from the source."""
    problems = []
    sums = {}
    for line in (local_dir / "SHA256SUMS").read_text(encoding="utf-8").splitlines():
        digest, name = line.split(maxsplit=1)
        sums[name.lstrip("*")] = digest
    for name, digest in sorted(sums.items()):
        data = (local_dir / name).read_bytes()
        if hashlib.sha256(data).hexdigest() != digest:
            problems.append(f"{local_dir.name}/{name} was edited after it was copied (SHA256SUMS)")
        source = shared_dir / name
        if shared_dir.is_dir() and (not source.is_file() or source.read_bytes() != data):
            problems.append(f"{local_dir.name}/{name} differs from {source}")
    if shared_dir.is_dir():
        extra = {p.name for p in shared_dir.glob(f"*{Path(next(iter(sums))).suffix}")} - set(sums)
        problems += [f"{shared_dir}/{name} is not copied here" for name in sorted(extra)]
    return problems
