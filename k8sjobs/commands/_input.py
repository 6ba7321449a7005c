"""The one input reader of every command: a file or standard input, read up to a size limit.

``validate``, ``run``, ``explain`` and ``redact`` read what they are given the same way: ``-`` is
standard input, anything else a file; at most ``limit + 1`` bytes are read (so the decoder can
refuse a larger input naming the limit, and a huge input never fills the memory); a file that
cannot be read is one line naming the path and why.
"""

from __future__ import annotations

import sys

from ..i18n import _


class Unreadable(Exception):
    """The input could not be read at all (missing, a directory, no permission, ...)."""


def read_input(path: str, limit: int, *, snapshot: bool = False) -> tuple[bytes, str]:
    """``(the bytes, the source name for messages)`` of ``path`` (``-``: standard input), at most ``limit + 1``.

    Raises :class:`Unreadable` with one line naming the path and the reason (``snapshot``: the
    command reads what kubectl printed, not a manifest).
    """
    if path == "-":
        return sys.stdin.buffer.read(limit + 1), "<stdin>"
    try:
        with open(path, "rb") as fh:
            return fh.read(limit + 1), path
    except FileNotFoundError:
        raise Unreadable(_("{path}: no such file").format(path=path)) from None
    except IsADirectoryError:
        if snapshot:
            raise Unreadable(_("{path}: is a directory, not a snapshot file").format(path=path)) from None
        raise Unreadable(_("{path}: is a directory, not a manifest file").format(path=path)) from None
    except PermissionError:
        raise Unreadable(_("{path}: permission denied").format(path=path)) from None
    except OSError as exc:
        # TRANSLATORS: {error} is the operating system's message.
        raise Unreadable(_("{path}: cannot be read: {error}").format(path=path, error=exc.strerror or exc)) from None
