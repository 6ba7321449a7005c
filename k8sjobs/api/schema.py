"""Strict field checking of a whole batch/v1 Job document, pod template included.

The API server decodes a manifest with strict field validation: a field the schema does
not know is an error (``kubectl`` prints ``strict decoding error: unknown field
"spec.template.spec.containers[0].imagePullPolizy"``), and so is a value of the wrong
JSON type. :mod:`k8sjobs.api.serialize` models only the fields k8sjobs interprets and
keeps the rest of a container or pod spec in an ``extra`` dict, so it cannot tell a real
field from a typo there. This module can: it walks the document against the field
names and types of Kubernetes v1.35 (``schema_batch_v1.json`` next to this file; its
``_provenance`` says where the names come from) and reports every problem, at every
depth, with its field path.

Public functions:

* :func:`check_document` -- every unknown field and wrong type, as :class:`FieldError`.
* :func:`semantic_form` -- a document with empty lists and maps dropped, for the
  "semantic" equality that immutability checks use (Go's apiequality treats a nil and an
  empty slice or map as equal, but not a nil and an empty struct).
* :func:`parse_quantity` -- the value of a resource.Quantity string, or ValueError.
"""

from __future__ import annotations

import json
import math
import re
from decimal import Decimal, InvalidOperation
from functools import cache
from pathlib import Path
from typing import Any

from .errors import FieldError
from .serialize import parse_time, type_error

SCHEMA_FILE = Path(__file__).with_name("schema_batch_v1.json")

_INT_RANGES = {"int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1)}
_SCALARS = {"string", "boolean", "int32", "int64", "number", "quantity", "int-or-string", "time", "microtime", "any"}

# resource.Quantity's accepted text (ParseQuantity): a signed decimal number followed by an
# optional suffix: binary (Ki..Ei), decimal SI (n, u, m, "", k, M, G, T, P, E) or an
# exponent (e3, E-2).
_QUANTITY_RE = re.compile(r"^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$")
_QUANTITY_MULTIPLIERS = {
    "": Decimal(1), "n": Decimal("1e-9"), "u": Decimal("1e-6"), "m": Decimal("1e-3"),
    "k": Decimal("1e3"), "M": Decimal("1e6"), "G": Decimal("1e9"), "T": Decimal("1e12"),
    "P": Decimal("1e15"), "E": Decimal("1e18"),
    "Ki": Decimal(2**10), "Mi": Decimal(2**20), "Gi": Decimal(2**30), "Ti": Decimal(2**40),
    "Pi": Decimal(2**50), "Ei": Decimal(2**60),
}
QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"


@cache
def _schema() -> dict[str, Any]:
    with SCHEMA_FILE.open(encoding="utf-8") as fh:
        return json.load(fh)


def types() -> dict[str, dict[str, str]]:
    """Type name -> {JSON field name: type expression} (see the file's ``_provenance``)."""
    return _schema()["types"]


def root_type() -> str:
    """The type of a whole document (``Job``)."""
    return _schema()["root"]


def fields_of(type_name: str) -> dict[str, str]:
    """The JSON field names of one object type and their type expressions."""
    return types()[type_name]


def parse_quantity(value: Any) -> Decimal:
    """The numeric value of a resource.Quantity given as a string or a JSON number."""
    if isinstance(value, bool):
        raise ValueError(QUANTITY_FORMAT_ERROR)
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(QUANTITY_FORMAT_ERROR)
        return Decimal(repr(value))
    if not isinstance(value, str):
        raise ValueError(QUANTITY_FORMAT_ERROR)
    m = _QUANTITY_RE.match(value.strip())
    if not m:
        raise ValueError(QUANTITY_FORMAT_ERROR)
    number, suffix = m.group(1), m.group(2) or ""
    try:
        base = Decimal(number)
    except InvalidOperation as exc:  # pragma: no cover - the regex admits only decimals
        raise ValueError(QUANTITY_FORMAT_ERROR) from exc
    if suffix[:1] in ("e", "E"):
        return base * (Decimal(10) ** int(suffix[1:]))
    return base * _QUANTITY_MULTIPLIERS[suffix]


# ----------------------------------------------------------------------------- checking


def _as_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)  # YAML 1.0 becomes JSON 1, which decodes into an integer field
    return None


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _check(value: Any, type_expr: str, path: str, errors: list[FieldError]) -> None:
    if value is None:
        return  # JSON null means "unset" at every depth
    if type_expr.startswith("[]"):
        if not isinstance(value, list):
            errors.append(type_error(path, value, "array"))
            return
        item = type_expr[2:]
        for i, v in enumerate(value):
            _check(v, item, f"{path}[{i}]", errors)
        return
    if type_expr.startswith("map["):
        if not isinstance(value, dict):
            errors.append(type_error(path, value, "object"))
            return
        item = type_expr[4:-1]
        for k, v in value.items():
            _check(v, item, f"{path}.{k}" if path else str(k), errors)
        return
    if type_expr in _SCALARS:
        _check_scalar(value, type_expr, path, errors)
        return
    if not isinstance(value, dict):
        errors.append(type_error(path, value, "object"))
        return
    known = fields_of(type_expr)
    for key, v in value.items():
        sub = _join(path, key)
        expr = known.get(key)
        if expr is None:
            errors.append(FieldError.unknown_field(sub))
            continue
        _check(v, expr, sub, errors)


def _check_scalar(value: Any, kind: str, path: str, errors: list[FieldError]) -> None:
    if kind == "any":
        return
    if kind == "string":
        if not isinstance(value, str):
            errors.append(type_error(path, value, "string"))
    elif kind == "boolean":
        if not isinstance(value, bool):
            errors.append(type_error(path, value, "boolean"))
    elif kind in _INT_RANGES:
        n = _as_int(value)
        if n is None:
            errors.append(type_error(path, value, "integer"))
            return
        lo, hi = _INT_RANGES[kind]
        if not lo <= n <= hi:
            errors.append(FieldError.invalid(path, n, f"must be between {lo} and {hi}, inclusive"))
    elif kind == "number":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            errors.append(type_error(path, value, "number"))
    elif kind == "int-or-string":
        if isinstance(value, str):
            return
        n = _as_int(value)
        if n is None:
            errors.append(type_error(path, value, "integer or string"))
        elif not _INT_RANGES["int32"][0] <= n <= _INT_RANGES["int32"][1]:
            errors.append(FieldError.invalid(path, n, "must be between -2147483648 and 2147483647, inclusive"))
    elif kind == "quantity":
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            errors.append(type_error(path, value, "string or number"))
            return
        try:
            parse_quantity(value)
        except ValueError as exc:
            errors.append(FieldError.invalid(path, value, str(exc)))
    elif kind in ("time", "microtime"):
        if not isinstance(value, str):
            errors.append(type_error(path, value, "string"))
            return
        try:
            parse_time(value)
        except ValueError as exc:
            errors.append(FieldError.invalid(path, value, str(exc)))
    else:  # pragma: no cover - the schema file uses only the kinds above
        raise AssertionError(f"schema: unknown kind {kind!r} at {path}")


def check_document(doc: Any, type_name: str | None = None, path: str = "") -> list[FieldError]:
    """Every unknown field and wrong JSON type in ``doc`` (a whole Job by default)."""
    errors: list[FieldError] = []
    _check(doc, type_name or root_type(), path, errors)
    return errors


def is_known_field(type_name: str, json_name: str) -> bool:
    """Whether ``json_name`` is a field of object type ``type_name``."""
    return json_name in fields_of(type_name)


# ----------------------------------------------------------------------------- semantics


def semantic_form(value: Any, type_expr: str) -> Any:
    """``value`` with empty lists and maps (and nulls) removed, recursively, per the schema.

    Two documents whose semantic forms are equal are equal under Go's
    ``apiequality.Semantic.DeepEqual``: a nil slice or map equals an empty one, a nil
    pointer to a struct does not equal an empty struct, and quantities compare by value.
    """
    if value is None:
        return None
    if type_expr.startswith("[]"):
        if not isinstance(value, list):
            return value
        return [semantic_form(v, type_expr[2:]) for v in value] or None
    if type_expr.startswith("map["):
        if not isinstance(value, dict):
            return value
        item = type_expr[4:-1]
        out = {k: semantic_form(v, item) for k, v in value.items()}
        return out or None
    if type_expr == "quantity":
        try:
            return ("quantity", parse_quantity(value))
        except ValueError:
            return value
    if type_expr in _SCALARS:
        return value
    if not isinstance(value, dict):
        return value
    known = fields_of(type_expr)
    out = {}
    for k, v in value.items():
        form = semantic_form(v, known.get(k, "any"))
        if form is not None:
            out[k] = form
    return out
