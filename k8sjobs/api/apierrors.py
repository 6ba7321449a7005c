"""API errors as a client sees them (mirrors k8s.io/apimachinery/pkg/api/errors).

The controller branches on these exactly as upstream branches on ``apierrors.IsNotFound``,
``IsConflict`` and the NamespaceTerminating cause.
"""

from __future__ import annotations


class Reason:
    """metav1.StatusReason values used here."""

    NOT_FOUND = "NotFound"
    ALREADY_EXISTS = "AlreadyExists"
    CONFLICT = "Conflict"
    INVALID = "Invalid"
    FORBIDDEN = "Forbidden"
    INTERNAL = "InternalError"
    BAD_REQUEST = "BadRequest"


NAMESPACE_TERMINATING_CAUSE = "NamespaceTerminating"

_CODES = {
    Reason.NOT_FOUND: 404, Reason.ALREADY_EXISTS: 409, Reason.CONFLICT: 409, Reason.INVALID: 422,
    Reason.FORBIDDEN: 403, Reason.INTERNAL: 500, Reason.BAD_REQUEST: 400,
}


class APIError(Exception):
    """An error returned by the (in-memory) API server."""

    def __init__(self, reason: str, message: str, *, cause: str = "", field_errors: list | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
        self.code = _CODES.get(reason, 500)
        self.cause = cause
        self.field_errors = list(field_errors or [])

    def __str__(self) -> str:
        return self.message


def not_found(resource: str, name: str) -> APIError:
    """``pods "x" not found``."""
    return APIError(Reason.NOT_FOUND, f'{resource} "{name}" not found')


def already_exists(resource: str, name: str) -> APIError:
    """``pods "x" already exists``."""
    return APIError(Reason.ALREADY_EXISTS, f'{resource} "{name}" already exists')


def conflict(resource: str, name: str, detail: str = "the object has been modified; please apply your changes to the latest version and try again") -> APIError:
    """``Operation cannot be fulfilled on jobs.batch "x": ...``."""
    return APIError(Reason.CONFLICT, f'Operation cannot be fulfilled on {resource} "{name}": {detail}')


def is_not_found(err: BaseException) -> bool:
    """apierrors.IsNotFound."""
    return isinstance(err, APIError) and err.reason == Reason.NOT_FOUND


def is_conflict(err: BaseException) -> bool:
    """apierrors.IsConflict."""
    return isinstance(err, APIError) and err.reason == Reason.CONFLICT


def has_namespace_terminating_cause(err: BaseException) -> bool:
    """apierrors.HasStatusCause(err, v1.NamespaceTerminatingCause)."""
    return isinstance(err, APIError) and err.cause == NAMESPACE_TERMINATING_CAUSE
