"""Convert API objects to and from the camelCase documents of ``kubectl apply``.

``to_dict(obj)`` gives the JSON/YAML document (unset fields omitted, as Go's
``omitempty``); ``from_dict(cls, doc)`` reads one back, reporting every problem with its
field path. Dataclasses that have an ``extra`` field (Container, PodSpec) keep unknown
keys there, untouched: whether such a key is a real Kubernetes field is checked against
the schema (:mod:`k8sjobs.api.schema`) before decoding. Everywhere else an unknown key
is an error, as with kubectl's default strict field validation.

A dump loads back equal: ``from_dict(type(o), to_dict(o)) == o``.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import re
import types
import typing
from functools import cache, lru_cache
from typing import Any, Union

from . import types as t
from .errors import DecodeError, FieldError

EPOCH = _dt.datetime(2026, 1, 1, tzinfo=_dt.UTC)
"""Simulated time 0 is shown as this instant in documents (a fixed date, never the wall clock)."""

# JSON names that are not the plain camelCase of the Python name.
_JSON_NAME_OVERRIDES: dict[str, str] = {}
_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1
_INT64_FIELDS = {"active_deadline_seconds", "starting_deadline_seconds", "termination_grace_period_seconds", "deletion_grace_period_seconds"}
_RFC3339 = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$"
)


def camel(name: str) -> str:
    """``backoff_limit_per_index`` -> ``backoffLimitPerIndex``."""
    if name in _JSON_NAME_OVERRIDES:
        return _JSON_NAME_OVERRIDES[name]
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def format_time(seconds: float) -> str:
    """Simulated seconds -> RFC 3339 (whole seconds like metav1.Time; fractions only when present)."""
    instant = EPOCH + _dt.timedelta(seconds=seconds)
    if instant.microsecond:
        return instant.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return instant.strftime("%Y-%m-%dT%H:%M:%SZ")


@lru_cache(maxsize=1 << 16)
def parse_time(text: str) -> float:
    """RFC 3339 -> simulated seconds relative to :data:`EPOCH`; raises ValueError.

    Cached: a snapshot of a big Job repeats the same few thousand instants many times.
    """
    m = _RFC3339.match(text)
    if not m:
        raise ValueError("must be an RFC 3339 date-time such as 2026-01-01T00:00:30Z")
    iso = text.replace("z", "Z").replace("t", "T").replace("Z", "+00:00")
    instant = _dt.datetime.fromisoformat(iso)
    return (instant - EPOCH).total_seconds()


@dataclasses.dataclass(frozen=True, slots=True)
class _FieldInfo:
    name: str
    json: str
    hint: Any


@cache
def _fields(cls: type) -> tuple[_FieldInfo, ...]:
    hints = typing.get_type_hints(cls)
    return tuple(
        _FieldInfo(f.name, camel(f.name), hints[f.name])
        for f in dataclasses.fields(cls)
        if f.name != "extra"
    )


@cache
def _has_extra(cls: type) -> bool:
    return any(f.name == "extra" for f in dataclasses.fields(cls))


def json_fields(cls: type) -> dict[str, tuple[str, Any]]:
    """The JSON names of a dataclass's fields -> (Python name, type hint); ``extra`` is left out."""
    return _json_fields(cls)


@cache
def _json_fields(cls: type) -> dict[str, tuple[str, Any]]:
    return {f.json: (f.name, f.hint) for f in _fields(cls)}


def keeps_extra(cls: type) -> bool:
    """True when ``cls`` keeps unknown keys in its ``extra`` field (Container, PodSpec)."""
    return _has_extra(cls)


def unwrap_optional(hint: Any) -> tuple[Any, bool]:
    """``X | None`` -> (X, True); any other hint -> (hint, False)."""
    return _unwrap_optional(hint)


def _unwrap_optional(hint: Any) -> tuple[Any, bool]:
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
    return hint, False


# ----------------------------------------------------------------------------- dumping


def _dump_value(value: Any, hint: Any) -> Any:
    hint, _ = _unwrap_optional(hint)
    if value is None:
        return None
    if hint is t.Time:
        return format_time(value)
    if dataclasses.is_dataclass(hint):
        return to_dict(value)
    origin = typing.get_origin(hint)
    if origin is tuple:
        (item,) = [a for a in typing.get_args(hint) if a is not Ellipsis]
        return [_dump_value(v, item) for v in value]
    if origin is dict:
        return {k: v for k, v in value.items()}
    return value


def _is_empty(value: Any, hint: Any) -> bool:
    """Go omitempty for non-pointer fields: zero values are left out."""
    if value is None:
        return True
    _, optional = _unwrap_optional(hint)
    if optional:
        return False  # pointers are written whenever set, even to a zero value
    if isinstance(value, bool):
        return value is False
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value == 0
    if isinstance(value, (str, tuple, dict)):
        return len(value) == 0
    if dataclasses.is_dataclass(value):
        return not to_dict(value)
    return False


def to_dict(obj: Any) -> dict[str, Any]:
    """Dump an API object to its camelCase document (unset and zero non-pointer fields omitted)."""
    out: dict[str, Any] = {}
    cls = type(obj)
    for f in _fields(cls):
        value = getattr(obj, f.name)
        if f.name in ("api_version", "kind"):
            out[f.json] = value
            continue
        if _is_empty(value, f.hint):
            continue
        out[f.json] = _dump_value(value, f.hint)
    if _has_extra(cls):
        for k, v in obj.extra.items():
            out[k] = v
    if "apiVersion" in out:  # put apiVersion/kind first, as manifests are written
        head = {"apiVersion": out.pop("apiVersion"), "kind": out.pop("kind")}
        out = {**head, **out}
    return out


# ----------------------------------------------------------------------------- loading

def json_type_name(value: Any) -> str:
    """The JSON type of a decoded value, as the API server names it ("integer", "object", ...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def type_error(path: str, value: Any, expected: str) -> FieldError:
    """The API server's OpenAPI type error: '<path> in body must be of type <t>: "<got>"'."""
    got = json_type_name(value)
    return FieldError.invalid(path, got, f'{path} in body must be of type {expected}: "{got}"')


def _load_value(value: Any, hint: Any, path: str, name: str, errors: list[FieldError]) -> Any:
    hint, optional = _unwrap_optional(hint)
    if value is None:
        # JSON null on an optional field means unset; on others the zero value.
        return None if optional else _zero(hint)
    if hint is t.Time:
        if not isinstance(value, str):
            errors.append(type_error(path, value, "string"))
            return None
        try:
            return parse_time(value)
        except ValueError as exc:
            errors.append(FieldError.invalid(path, value, str(exc)))
            return None
    if dataclasses.is_dataclass(hint):
        if not isinstance(value, dict):
            errors.append(type_error(path, value, "object"))
            return None if optional else hint()
        return _load_dataclass(hint, value, path, errors)
    origin = typing.get_origin(hint)
    if origin is tuple:
        (item,) = [a for a in typing.get_args(hint) if a is not Ellipsis]
        if not isinstance(value, list):
            errors.append(type_error(path, value, "array"))
            return None if optional else ()
        return tuple(_load_value(v, item, f"{path}[{i}]", name, errors) for i, v in enumerate(value))
    if origin is dict:
        if not isinstance(value, dict):
            errors.append(type_error(path, value, "object"))
            return None if optional else {}
        key_t, val_t = typing.get_args(hint)
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                errors.append(FieldError.invalid(path, str(k), "map keys must be strings"))
                continue
            if val_t is str and not isinstance(v, str):
                errors.append(type_error(f"{path}.{k}", v, "string"))
                continue
            out[k] = v
        return out
    if hint is bool:
        if not isinstance(value, bool):
            errors.append(type_error(path, value, "boolean"))
            return None
        return value
    if hint is int:
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            errors.append(type_error(path, value, "integer"))
            return None
        lo, hi = (-(2**63), 2**63 - 1) if name in _INT64_FIELDS else (_INT32_MIN, _INT32_MAX)
        if not lo <= value <= hi:
            errors.append(FieldError.invalid(path, value, f"must be between {lo} and {hi}, inclusive"))
            return None
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            errors.append(type_error(path, value, "number"))
            return None
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            errors.append(type_error(path, value, "string"))
            return None
        return value
    if hint is Any:
        return value
    raise TypeError(f"serialize: no rule for {hint!r} at {path}")  # a bug in types.py, not user input


def _zero(hint: Any) -> Any:
    if dataclasses.is_dataclass(hint):
        return hint()
    origin = typing.get_origin(hint)
    if origin is tuple:
        return ()
    if origin is dict:
        return {}
    return {int: 0, str: "", bool: False, float: 0.0}.get(hint)


def _load_dataclass(cls: type, doc: dict[str, Any], path: str, errors: list[FieldError]) -> Any:
    by_json = {f.json: f for f in _fields(cls)}
    kwargs: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    prefix = f"{path}." if path else ""
    for key, value in doc.items():
        f = by_json.get(key)
        if f is None:
            if _has_extra(cls) and isinstance(key, str):
                extra[key] = value
            else:
                errors.append(FieldError.unknown_field(f"{prefix}{key}"))
            continue
        loaded = _load_value(value, f.hint, f"{prefix}{key}", f.name, errors)
        if loaded is None and not _unwrap_optional(f.hint)[1]:
            continue  # keep the dataclass default after a reported error
        kwargs[f.name] = loaded
    if extra:
        kwargs["extra"] = extra
    return cls(**kwargs)


def from_dict(cls: type, doc: Any, path: str = "") -> Any:
    """Load a camelCase document into ``cls``; raises :class:`DecodeError` listing every bad field."""
    errors: list[FieldError] = []
    if not isinstance(doc, dict):
        raise DecodeError(f"expected a mapping (an object), got {json_type_name(doc)}")
    obj = _load_dataclass(cls, doc, path, errors)
    if errors:
        raise DecodeError("strict decoding error", errors)
    return obj
