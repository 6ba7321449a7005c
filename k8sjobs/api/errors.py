"""Field errors phrased as the Kubernetes API server phrases them.

Mirrors ``k8s.io/apimachinery/pkg/util/validation/field`` (Error, ErrorType, ErrorBody):
an error names the field path and the rule, for example
``spec.completions: Required value: when completion mode is Indexed``. kubectl prints a
list of them as ``The Job "x" is invalid: ...``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

_OMIT = object()


class ErrorType:
    """field.ErrorType strings (what follows the path in a message)."""

    NOT_FOUND = "Not found"
    REQUIRED = "Required value"
    DUPLICATE = "Duplicate value"
    INVALID = "Invalid value"
    NOT_SUPPORTED = "Unsupported value"
    FORBIDDEN = "Forbidden"
    TOO_LONG = "Too long"
    TOO_MANY = "Too many"
    INTERNAL = "Internal error"
    UNKNOWN_FIELD = "Unknown field"


# Error types whose message never shows the offending value (field.Error.ErrorBody).
_VALUELESS = {ErrorType.REQUIRED, ErrorType.FORBIDDEN, ErrorType.TOO_LONG, ErrorType.INTERNAL}


def _go_value(value: Any) -> str:
    """Render a bad value the way field.Error does (%q for strings, %d for ints, %v else)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, int):
        return str(value)
    if value is None:
        return "null"
    if isinstance(value, (list, tuple)):
        return "[" + " ".join(_go_value(v) for v in value) + "]"
    return str(value)


@dataclass(frozen=True, slots=True)
class FieldError:
    """One error at one field path (mirrors field.Error)."""

    type: str
    field: str
    bad_value: Any = _OMIT
    detail: str = ""

    def body(self) -> str:
        """The message after the path (mirrors field.Error.ErrorBody)."""
        if self.type == ErrorType.UNKNOWN_FIELD:
            s = self.type
        elif self.type in _VALUELESS or self.bad_value is _OMIT:
            s = self.type
        else:
            s = f"{self.type}: {_go_value(self.bad_value)}"
        if self.detail:
            s += f": {self.detail}"
        return s

    def __str__(self) -> str:
        return f"{self.field}: {self.body()}"

    # Constructors mirroring field.Required, field.Invalid, ...

    @classmethod
    def required(cls, path: str, detail: str = "") -> FieldError:
        """field.Required."""
        return cls(ErrorType.REQUIRED, path, _OMIT, detail)

    @classmethod
    def invalid(cls, path: str, value: Any, detail: str = "") -> FieldError:
        """field.Invalid."""
        return cls(ErrorType.INVALID, path, value, detail)

    @classmethod
    def not_supported(cls, path: str, value: Any, supported: list[str] | tuple[str, ...]) -> FieldError:
        """field.NotSupported: lists the supported values, quoted."""
        detail = "supported values: " + ", ".join(json.dumps(s) for s in supported) if supported else ""
        return cls(ErrorType.NOT_SUPPORTED, path, value, detail)

    @classmethod
    def forbidden(cls, path: str, detail: str) -> FieldError:
        """field.Forbidden."""
        return cls(ErrorType.FORBIDDEN, path, _OMIT, detail)

    @classmethod
    def duplicate(cls, path: str, value: Any) -> FieldError:
        """field.Duplicate."""
        return cls(ErrorType.DUPLICATE, path, value, "")

    @classmethod
    def too_long(cls, path: str, max_length: int) -> FieldError:
        """field.TooLong (TooLongMaxLength)."""
        return cls(ErrorType.TOO_LONG, path, _OMIT, f"may not be more than {max_length} bytes")

    @classmethod
    def too_many(cls, path: str, actual: int, max_items: int) -> FieldError:
        """field.TooMany."""
        return cls(ErrorType.TOO_MANY, path, actual, f"must have at most {max_items} items")

    @classmethod
    def unknown_field(cls, path: str) -> FieldError:
        """A strict-decoding error: the document has a field the schema does not know."""
        return cls(ErrorType.UNKNOWN_FIELD, path, _OMIT, "")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly form: {type, field, detail[, value]}."""
        d: dict[str, Any] = {"type": self.type, "field": self.field, "detail": self.detail}
        if self.bad_value is not _OMIT:
            d["value"] = self.bad_value
        return d


class InvalidError(ValueError):
    """An object was rejected; carries every field error (apierrors.NewInvalid)."""

    def __init__(self, kind: str, name: str, errors: list[FieldError], where: str = "") -> None:
        self.kind = kind
        self.name = name
        self.errors = list(errors)
        self.where = where
        """Which object of a file of several (``document 2 (job "b")``); "" for a file of one."""
        super().__init__(self.message())

    def message(self) -> str:
        """The text kubectl prints: ``The Job "x" is invalid: ...`` (after ``where: `` for one of several)."""
        head = f'The {self.kind} "{self.name}" is invalid: '
        if self.where:
            head = f"{self.where}: {head}"
        if len(self.errors) == 1:
            return head + str(self.errors[0])
        return head + "\n" + "\n".join(f"* {e}" for e in self.errors)

    @property
    def fields(self) -> list[str]:
        """The distinct field paths in error, sorted."""
        return sorted({e.field for e in self.errors})


class DecodeError(ValueError):
    """A document could not be read as the expected kind (not YAML, wrong shape, unknown fields)."""

    def __init__(self, message: str, errors: list[FieldError] | None = None) -> None:
        self.errors = list(errors or [])
        self.reason = message
        super().__init__(self.render())

    def render(self) -> str:
        """The reason, followed by one line per field error."""
        if not self.errors:
            return self.reason
        return self.reason + "\n" + "\n".join(f"* {e}" for e in self.errors)
