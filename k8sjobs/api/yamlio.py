"""Safe manifest loading: bytes or text -> one plain JSON-like document -> a Job (or a CronJob).

Kubernetes reads YAML by converting it to JSON (``sigs.k8s.io/yaml`` on top of a
YAML 1.1 parser) and then decodes the JSON strictly. This module does the same with
PyYAML, and refuses everything that plain data cannot be:

* No tag may build a Python object: the loader is a :class:`yaml.SafeLoader` subclass,
  and every tag outside the YAML core schema (``!!python/object:...``, ``!foo``,
  ``!!binary``, ``!!set``, ...) is an error that names the tag.
* Timestamps stay strings (``2026-01-01T00:00:00Z``), as after a YAML -> JSON
  conversion; sexagesimal numbers (``1:30``) stay strings too, as in Go's YAML parser,
  while ``y``/``n``/``yes``/``no``/``on``/``off`` are booleans, as there.
* A key repeated in one mapping is an error naming the key and both lines (strict field
  validation reports duplicate fields).
* Aliases are bounded: the document is measured as the tree it expands to before any
  Python object is built; more than :data:`MAX_EXPANDED_NODES` nodes (a "billion laughs"
  bomb) or a recursive alias is refused at once, in time and memory proportional to the
  text. Nesting deeper than :data:`MAX_DEPTH` levels and inputs larger than
  :data:`MAX_BYTES` (the API server's request limit) are refused too.
* JSON is accepted as it is (with the same duplicate-key and size rules).

Every problem raises :class:`~k8sjobs.api.errors.DecodeError` with one line that starts
with the source name, for example ``job.yaml: not YAML: line 4, column 9: mapping values
are not allowed here``.
"""

from __future__ import annotations

import json
import re
from typing import Any

import yaml
from yaml.constructor import ConstructorError
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from . import schema
from .errors import DecodeError
from .serialize import from_dict
from .types import CronJob, Job

MAX_BYTES = 3 * 1024 * 1024
"""Largest accepted input: the API server refuses request bodies over 3 MiB."""

MAX_EXPANDED_NODES = 100_000
"""Largest document, counted as nodes after expanding every alias (a Job has a few hundred)."""

MAX_DEPTH = 100
"""Deepest accepted nesting of mappings and sequences."""

API_VERSION = "batch/v1"
KIND = "Job"

_CORE = "tag:yaml.org,2002:"
_ALLOWED_TAGS = {_CORE + t for t in ("str", "int", "float", "bool", "null", "map", "seq", "merge", "timestamp")}


class _ManifestError(Exception):
    """A reason (without the source prefix) raised while reading; becomes a DecodeError."""


# ----------------------------------------------------------------------------- the YAML loader


def _node_where(node: Node) -> str:
    mark = node.start_mark
    return f"line {mark.line + 1}, column {mark.column + 1}"


def _pretty_tag(tag: str) -> str:
    if tag.startswith(_CORE):
        return "!!" + tag[len(_CORE):]
    return tag


class _GoResolver(yaml.resolver.Resolver):
    """Plain scalars typed as Go's YAML 1.1 parser types them (the implicit resolvers below)."""

    # Implicit resolvers are rebuilt below: Go's YAML 1.1 rules, without timestamps,
    # without sexagesimal numbers and without the "=" value tag.
    yaml_implicit_resolvers: dict = {}


class _PlainConstructor(yaml.constructor.SafeConstructor):
    """Builds only strings, numbers, booleans, nulls, lists and dicts (constructors below)."""

    def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict:  # type: ignore[override]
        """Build a dict, refusing a key that appears twice in the same mapping."""
        seen: dict[Any, ScalarNode] = {}
        for key_node, _ in node.value:
            if key_node.tag == _CORE + "merge":
                continue
            if not isinstance(key_node, ScalarNode):
                raise _ManifestError(f"{_node_where(key_node)}: a mapping key must be a plain scalar, not a "
                                     f"{'mapping' if isinstance(key_node, MappingNode) else 'sequence'}")
            key = self.construct_object(key_node, deep=True)
            norm = _key_text(key)
            if norm in seen:
                first = seen[norm].start_mark.line + 1
                raise _ManifestError(
                    f'{_node_where(key_node)}: duplicate field "{norm}" (first defined on line {first})')
            seen[norm] = key_node
        self.flatten_mapping(node)
        mapping: dict[str, Any] = {}
        for key_node, value_node in node.value:
            # Keys become JSON object keys right away, so that 1 and true stay distinct.
            key = _key_text(self.construct_object(key_node, deep=deep))
            mapping[key] = self.construct_object(value_node, deep=deep)
        return mapping

    def construct_yaml_bool(self, node: ScalarNode) -> bool:  # type: ignore[override]
        """YAML 1.1 booleans as Go reads them: y/yes/true/on and n/no/false/off."""
        return str(self.construct_scalar(node)).lower() in ("y", "yes", "true", "on")

    def construct_yaml_timestamp(self, node: ScalarNode) -> str:  # type: ignore[override]
        """A timestamp stays the string it was written as (YAML -> JSON keeps the text)."""
        return str(self.construct_scalar(node))

    def construct_yaml_int(self, node: ScalarNode) -> int:  # type: ignore[override]
        """Decimal, 0x, 0o/0-prefixed octal and 0b integers, with '_' separators."""
        text = str(self.construct_scalar(node)).replace("_", "")
        sign = -1 if text.startswith("-") else 1
        text = text.lstrip("+-")
        if text.startswith("0b"):
            return sign * int(text[2:], 2)
        if text.startswith("0x"):
            return sign * int(text[2:], 16)
        if text.startswith("0o"):
            return sign * int(text[2:], 8)
        if text != "0" and text.startswith("0"):
            return sign * int(text, 8)
        return sign * int(text)

    def construct_undefined(self, node: Node) -> Any:  # type: ignore[override]
        """Any tag outside the core schema: refused, naming the tag and where it is."""
        tag = node.tag or "?"
        if "python/" in tag:
            reason = "Python object tags are refused: a manifest is plain data"
        else:
            reason = "only the YAML core tags (strings, numbers, booleans, null, maps, lists) are allowed"
        raise _ManifestError(f"{_node_where(node)}: YAML tag {_pretty_tag(tag)} is not allowed: {reason}")

    def construct_refused(self, node: Node) -> Any:
        """Core-schema tags that JSON cannot hold (binary, set, omap, pairs)."""
        return self.construct_undefined(node)


_PlainConstructor.add_constructor(_CORE + "bool", _PlainConstructor.construct_yaml_bool)
_PlainConstructor.add_constructor(_CORE + "int", _PlainConstructor.construct_yaml_int)
_PlainConstructor.add_constructor(_CORE + "timestamp", _PlainConstructor.construct_yaml_timestamp)
for _t in ("binary", "set", "omap", "pairs", "value", "yaml"):
    _PlainConstructor.add_constructor(_CORE + _t, _PlainConstructor.construct_refused)
_PlainConstructor.add_constructor(None, _PlainConstructor.construct_undefined)

_GoResolver.add_implicit_resolver(
    _CORE + "bool",
    re.compile(r"^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$"),
    list("yYnNtTfFoO"),
)
_GoResolver.add_implicit_resolver(
    _CORE + "float",
    re.compile(r"""^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
                  |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
                  |\.[0-9][0-9_]*(?:[eE][-+]?[0-9]+)?
                  |[-+]?\.(?:inf|Inf|INF)
                  |\.(?:nan|NaN|NAN))$""", re.X),
    list("-+0123456789."),
)
_GoResolver.add_implicit_resolver(
    _CORE + "int",
    re.compile(r"""^(?:[-+]?0b[0-1_]+
                  |[-+]?0o?[0-7_]+
                  |[-+]?(?:0|[1-9][0-9_]*)
                  |[-+]?0x[0-9a-fA-F_]+)$""", re.X),
    list("-+0123456789"),
)
_GoResolver.add_implicit_resolver(_CORE + "merge", re.compile(r"^(?:<<)$"), ["<"])
_GoResolver.add_implicit_resolver(_CORE + "null", re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""])




class ManifestLoader(yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser, yaml.composer.Composer,
                     _PlainConstructor, _GoResolver):
    """A SafeLoader that builds only strings, numbers, booleans, nulls, lists and dicts (pure Python)."""

    def __init__(self, stream: str) -> None:
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        yaml.composer.Composer.__init__(self)
        _PlainConstructor.__init__(self)
        _GoResolver.__init__(self)


try:
    from yaml.cyaml import CParser as _CParser
except ImportError:  # pragma: no cover - PyYAML built without libyaml (Pyodide, some wheels)
    _CParser = None

if _CParser is not None:
    class FastManifestLoader(_CParser, _PlainConstructor, _GoResolver):  # type: ignore[misc,valid-type]
        """:class:`ManifestLoader` with libyaml's parser: the same documents, the same rules, 10 times faster.

        Only scanning, parsing and composing move to C; typing scalars, building values and
        every check stay the Python code above. Used for snapshots (tens of megabytes);
        where PyYAML has no libyaml (some wheels, Pyodide), the pure loader reads them.
        """

        def __init__(self, stream: str) -> None:
            _CParser.__init__(self, stream)
            _PlainConstructor.__init__(self)
            _GoResolver.__init__(self)
else:  # pragma: no cover - PyYAML without libyaml
    FastManifestLoader = ManifestLoader  # type: ignore[misc]


def _key_text(key: Any) -> str:
    """A mapping key as the JSON object key it becomes (Go's YAML -> JSON conversion)."""
    if isinstance(key, str):
        return key
    if key is None:
        return "null"
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, float) and key.is_integer():
        return str(int(key))
    return str(key)


def _measure(node: Node, memo: dict[int, int], active: set[int], depth: int,
             limit: int = MAX_EXPANDED_NODES) -> int:
    """Node count of the tree ``node`` expands to (aliases counted every time they occur)."""
    key = id(node)
    if key in memo:
        return memo[key]
    if key in active:
        raise _ManifestError(f"{_node_where(node)}: recursive YAML alias: the document refers to itself")
    if depth > MAX_DEPTH:
        raise _ManifestError(f"{_node_where(node)}: nested more than {MAX_DEPTH} levels deep")
    total = 1
    if isinstance(node, (SequenceNode, MappingNode)):
        active.add(key)
        children = node.value if isinstance(node, SequenceNode) else [n for pair in node.value for n in pair]
        for child in children:
            total += _measure(child, memo, active, depth + 1, limit)
            if total > limit:
                break
        active.discard(key)
    memo[key] = total
    if total > limit:
        raise _ManifestError(
            f"{_node_where(node)}: the document expands to more than {limit} nodes through YAML "
            "aliases (an alias bomb?); refused before building it")
    return total


def _plain(value: Any, depth: int = 0) -> Any:
    """A fresh JSON-like tree: string keys, no shared sub-objects."""
    if depth > MAX_DEPTH + 1:
        raise _ManifestError(f"nested more than {MAX_DEPTH} levels deep")
    if isinstance(value, dict):
        return {_key_text(k): _plain(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v, depth + 1) for v in value]
    return value


# ----------------------------------------------------------------------------- decoding


def _decode_text(data: bytes | str, max_bytes: int = MAX_BYTES,
                 too_large: str = "the API server's request limit") -> str:
    if isinstance(data, str):
        if len(data.encode("utf-8", "surrogatepass")) > max_bytes:
            raise _ManifestError(f"larger than {max_bytes} bytes, {too_large}")
        return data[1:] if data.startswith("\ufeff") else data
    if len(data) > max_bytes:
        raise _ManifestError(f"larger than {max_bytes} bytes, {too_large}")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise _ManifestError("not UTF-8: the file is UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        raise _ManifestError(
            f"not UTF-8: invalid byte 0x{data[exc.start]:02x} at line {line}, column {column} "
            f"(byte offset {exc.start})") from None
    return text[1:] if text.startswith("\ufeff") else text


def _json_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _ManifestError(f'duplicate field "{k}"')
        out[k] = v
    return out


def _json_constant(name: str) -> Any:
    raise _ManifestError(f"not JSON: {name} is not a JSON number")


def _load_json(text: str) -> Any:
    return json.loads(text, object_pairs_hook=_json_pairs, parse_constant=_json_constant)


def _yaml_problem(exc: yaml.YAMLError) -> str:
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        if mark is not None:
            return f"not YAML: line {mark.line + 1}, column {mark.column + 1}: {problem}"
        return f"not YAML: {problem}"
    return f"not YAML: {exc}"


def _reader_problem(exc: yaml.reader.ReaderError, text: str) -> str:
    before = text[: exc.position]
    line = before.count("\n") + 1
    column = exc.position - (before.rfind("\n") + 1) + 1
    char = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or "?")
    return f"not YAML: line {line}, column {column}: character U+{char:04X} is not allowed in YAML"


def _load_yaml_documents(text: str, limit: int = MAX_EXPANDED_NODES, loader_class: type = ManifestLoader) -> list[Any]:
    try:
        loader = loader_class(text)
    except yaml.reader.ReaderError as exc:
        raise _ManifestError(_reader_problem(exc, text)) from None
    documents: list[Any] = []
    try:
        while loader.check_node():
            node = loader.get_node()
            if node is None:
                continue
            _measure(node, {}, set(), 0, limit)
            documents.append(_plain(loader.construct_document(node)))
    except _ManifestError:
        raise
    except ConstructorError as exc:  # pragma: no cover - every tag has a constructor above
        raise _ManifestError(_yaml_problem(exc)) from None
    except yaml.reader.ReaderError as exc:
        raise _ManifestError(_reader_problem(exc, text)) from None
    except yaml.YAMLError as exc:
        raise _ManifestError(_yaml_problem(exc)) from None
    except RecursionError:
        raise _ManifestError(f"nested more than {MAX_DEPTH} levels deep") from None
    finally:
        loader.dispose()
    return [d for d in documents if d is not None]


def _describe(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return type(value).__name__


def _load(data: bytes | str) -> dict[str, Any]:
    text = _decode_text(data)
    if not text.strip() or all(not ln.strip() or ln.lstrip().startswith("#") for ln in text.splitlines()):
        raise _ManifestError("empty: the file has no document (expected one Job manifest)")
    stripped = text.lstrip()
    documents: list[Any]
    if stripped.startswith(("{", "[")):
        try:
            documents = [_load_json(text)]
        except ValueError:
            documents = _load_yaml_documents(text)  # flow-style YAML is not always JSON
        except RecursionError:
            raise _ManifestError(f"nested more than {MAX_DEPTH} levels deep") from None
        else:
            _check_depth(documents[0])
    else:
        documents = _load_yaml_documents(text)
    if not documents:
        raise _ManifestError("empty: the file has no document (expected one Job manifest)")
    if len(documents) > 1:
        raise _ManifestError(
            f"{len(documents)} YAML documents (separated by ---); expected exactly one Job manifest")
    doc = documents[0]
    if not isinstance(doc, dict):
        if isinstance(doc, list):
            raise _ManifestError(
                "the top level is a list; expected one Job manifest, a mapping with apiVersion, kind, "
                "metadata and spec")
        raise _ManifestError(
            f"the top level is {_describe(doc)} ({json.dumps(doc)[:40]}); expected a mapping with apiVersion, "
            "kind, metadata and spec")
    return doc


def _check_depth(value: Any, limit: int = MAX_EXPANDED_NODES) -> None:
    stack = [(value, 0)]
    count = 0
    while stack:
        v, depth = stack.pop()
        count += 1
        if depth > MAX_DEPTH:
            raise _ManifestError(f"nested more than {MAX_DEPTH} levels deep")
        if count > limit:
            raise _ManifestError(f"the document has more than {limit} nodes")
        if isinstance(v, dict):
            stack.extend((x, depth + 1) for x in v.values())
        elif isinstance(v, list):
            stack.extend((x, depth + 1) for x in v)


def _json_stream(text: str) -> list[Any] | None:
    """The JSON values of ``text`` one after the other (whitespace between them), or None if it is not that."""
    decoder = json.JSONDecoder(parse_constant=_json_constant)
    out, i, n = [], 0, len(text)
    while True:
        while i < n and text[i] in " \t\r\n":
            i += 1
        if i == n:
            return out
        try:
            value, i = decoder.raw_decode(text, i)
        except ValueError:
            return None
        out.append(value)


def load_documents(data: bytes | str, source: str = "<input>", *, max_bytes: int, max_nodes: int,
                   too_large: str) -> list[Any]:
    """Read every YAML document (or the JSON documents, one after the other) of ``data``; raise DecodeError.

    The same safe loader and rules as :func:`load_document`, with other bounds: at most
    ``max_bytes`` bytes (``too_large`` says why, after "larger than N bytes, ") and
    ``max_nodes`` nodes per document. Empty documents are skipped; the result may be empty.
    """
    try:
        text = _decode_text(data, max_bytes, too_large)
        if text.lstrip().startswith(("{", "[")):
            # Read as Go's encoding/json would (a repeated key: the last one wins), without the
            # per-object hook of the strict manifest reader: a big Job's snapshot is tens of
            # megabytes of JSON. No aliases in JSON: the size bound is the node bound.
            try:
                return [json.loads(text, parse_constant=_json_constant)]
            except _ManifestError:
                raise
            except json.JSONDecodeError as exc:
                # Several JSON documents one after the other (two `kubectl get -o json` into one file).
                stream = _json_stream(text) if exc.msg == "Extra data" else None
                if stream is not None:
                    return stream
                return _load_yaml_documents(text, max_nodes, FastManifestLoader)
            except ValueError:
                # flow-style YAML is not always JSON
                return _load_yaml_documents(text, max_nodes, FastManifestLoader)
            except RecursionError:
                raise _ManifestError(f"nested more than {MAX_DEPTH} levels deep") from None
        return _load_yaml_documents(text, max_nodes, FastManifestLoader)
    except _ManifestError as exc:
        raise DecodeError(f"{source}: {exc}") from None


def load_document(data: bytes | str, source: str = "<input>") -> dict[str, Any]:
    """Read exactly one YAML or JSON document that is a mapping; raise DecodeError otherwise."""
    try:
        return _load(data)
    except _ManifestError as exc:
        raise DecodeError(f"{source}: {exc}") from None


CRONJOB_KIND = "CronJob"


def check_type_meta(doc: dict[str, Any], source: str = "<input>", kinds: tuple[str, ...] = (KIND,)) -> None:
    """Refuse a document that is not ``apiVersion: batch/v1`` with one of ``kinds`` (``Job`` by default)."""
    api_version, kind = doc.get("apiVersion"), doc.get("kind")
    if api_version in (None, "") and kind in (None, ""):
        raise DecodeError(f"{source}: apiVersion and kind are missing: a Job manifest starts with "
                          f"'apiVersion: {API_VERSION}' and 'kind: {KIND}'")
    if kind in (None, ""):
        raise DecodeError(f"{source}: kind is missing: expected 'kind: {KIND}'")
    if api_version in (None, ""):
        raise DecodeError(f"{source}: apiVersion is missing: expected 'apiVersion: {API_VERSION}'")
    if not isinstance(kind, str) or not isinstance(api_version, str):
        raise DecodeError(f"{source}: apiVersion and kind must be strings")
    handled = " and ".join(f"{API_VERSION} {k}" for k in kinds)
    if kind not in kinds:
        raise DecodeError(f'{source}: kind "{kind}" ({api_version}) is not supported: k8sjobs handles '
                          f"{handled} only")
    if api_version != API_VERSION:
        raise DecodeError(f'{source}: no matches for kind "{kind}" in version "{api_version}": '
                          f"k8sjobs handles {handled} only")


def _prune_unmodelled(doc: dict[str, Any]) -> dict[str, Any]:
    """Drop valid ObjectMeta fields that the dataclasses do not model (managedFields, selfLink,
    and in a pod template everything but name, generateName, namespace, labels, annotations and
    finalizers): the schema check has accepted them, the model has nowhere to keep them."""
    out = dict(doc)
    meta = out.get("metadata")
    if isinstance(meta, dict):
        out["metadata"] = {k: v for k, v in meta.items() if k not in ("managedFields", "selfLink")}
    spec = out.get("spec")
    if isinstance(spec, dict) and isinstance(spec.get("template"), dict):
        template = dict(spec["template"])
        tmeta = template.get("metadata")
        if isinstance(tmeta, dict):
            keep = ("name", "generateName", "namespace", "labels", "annotations", "finalizers")
            template["metadata"] = {k: v for k, v in tmeta.items() if k in keep}
        out["spec"] = {**spec, "template": template}
    return out


def _prune_cronjob(doc: dict[str, Any]) -> dict[str, Any]:
    """:func:`_prune_unmodelled` for a CronJob: its own metadata and its Job template's."""
    out = _prune_unmodelled(doc)
    spec = out.get("spec")
    if isinstance(spec, dict) and isinstance(spec.get("jobTemplate"), dict):
        out["spec"] = {**spec, "jobTemplate": _prune_unmodelled(spec["jobTemplate"])}
    return out


def cronjob_from_document(doc: dict[str, Any], source: str = "<input>") -> CronJob:
    """Check type meta, every field name and JSON type, then build the CronJob; raise DecodeError."""
    check_type_meta(doc, source, (CRONJOB_KIND,))
    errors = schema.check_document(doc, CRONJOB_KIND)
    if errors:
        raise DecodeError(f'{source}: CronJob in version "v1" cannot be handled as a CronJob: strict decoding error',
                          errors)
    return from_dict(CronJob, _prune_cronjob(doc))


def object_from_document(doc: dict[str, Any], source: str = "<input>") -> Job | CronJob:
    """A Job or a CronJob manifest, by its kind, read strictly; raise DecodeError."""
    if doc.get("kind") == CRONJOB_KIND:
        return cronjob_from_document(doc, source)
    check_type_meta(doc, source, (KIND, CRONJOB_KIND))
    return job_from_document(doc, source)


def _decoded(build: Any, doc: dict[str, Any], at: str) -> Any:
    """``build(doc, at)``, its DecodeError's reason starting with ``at`` (where the document is)."""
    try:
        return build(doc, at)
    except DecodeError as exc:
        if exc.reason.startswith(f"{at}:"):
            raise
        raise DecodeError(f"{at}: {exc.reason}", exc.errors) from None


def load_manifest(data: bytes | str, source: str = "<input>") -> Job | CronJob:
    """Read one batch/v1 Job or CronJob manifest (YAML or JSON) strictly; raise DecodeError with the reason."""
    return _decoded(object_from_document, load_document(data, source), source)


def job_from_document(doc: dict[str, Any], source: str = "<input>") -> Job:
    """Check type meta, every field name and JSON type, then build the Job; raise DecodeError."""
    check_type_meta(doc, source)
    errors = schema.check_document(doc)
    if errors:
        raise DecodeError(f'{source}: Job in version "v1" cannot be handled as a Job: strict decoding error', errors)
    return from_dict(Job, _prune_unmodelled(doc))


MAX_OBJECTS = 1000
"""Most objects one manifest file may hold (a List's items counted one by one)."""


def _objects_of(text: str) -> list[Any]:
    """Every document of ``text``: YAML documents separated by ``---``, or JSON values one after the other."""
    stripped = text.lstrip()
    if stripped.startswith(("{", "[")):
        try:
            docs = [_load_json(text)]
        except _ManifestError:
            raise
        except json.JSONDecodeError as exc:
            stream = _json_stream(text) if exc.msg == "Extra data" else None
            docs = stream if stream is not None else _load_yaml_documents(text)
        except ValueError:
            docs = _load_yaml_documents(text)  # flow-style YAML is not always JSON
        except RecursionError:
            raise _ManifestError(f"nested more than {MAX_DEPTH} levels deep") from None
        for d in docs:
            _check_depth(d)
        return docs
    return _load_yaml_documents(text)


def split_objects(data: bytes | str, source: str = "<input>") -> list[tuple[str, dict[str, Any]]]:
    """The objects of a manifest file as ``kubectl apply -f`` reads them: (where, document) pairs.

    A file holds one object, several YAML documents separated by ``---``, JSON values one
    after the other, or a ``v1`` ``List`` whose ``items`` are the objects (any mix of these).
    ``where`` names the object's place for messages: ``""`` when the file holds exactly one
    object, else ``document 2`` or ``document 1, item 3``. Raises DecodeError naming the
    source (and the document) for anything that is not a mapping, or an empty file.
    """
    try:
        text = _decode_text(data)
        if not text.strip() or all(not ln.strip() or ln.lstrip().startswith("#") for ln in text.splitlines()):
            raise _ManifestError("empty: the file has no document (expected a Job manifest)")
        documents = _objects_of(text)
    except _ManifestError as exc:
        raise DecodeError(f"{source}: {exc}") from None
    if not documents:
        raise DecodeError(f"{source}: empty: the file has no document (expected a Job manifest)")
    return objects_in(documents, source)


def objects_in(documents: list[Any], source: str = "<input>") -> list[tuple[str, dict[str, Any]]]:
    """:func:`split_objects` of documents already read (a ``v1`` ``List``'s items are its objects)."""
    out: list[tuple[str, dict[str, Any]]] = []
    for i, doc in enumerate(documents, 1):
        where = f"document {i}"
        if isinstance(doc, dict) and doc.get("kind") == "List" and doc.get("apiVersion") == "v1":
            items = doc.get("items")
            if items is None:
                items = []
            if not isinstance(items, list):
                raise DecodeError(f"{source}: {where}: items: must be a list of objects, got {_describe(items)}")
            for j, item in enumerate(items, 1):
                out.append((f"{where}, item {j}", item))
        else:
            out.append((where, doc))
        if len(out) > MAX_OBJECTS:
            raise DecodeError(f"{source}: more than {MAX_OBJECTS} objects in one file, the most k8sjobs reads")
    if not out:
        raise DecodeError(f"{source}: empty: the List has no items (expected a Job manifest)")
    if len(out) == 1:
        out = [("", out[0][1])]
    for where, doc in out:
        if not isinstance(doc, dict):
            at = f"{source}: {where}" if where else source
            if isinstance(doc, list):
                raise DecodeError(f"{at}: the top level is a list; expected one Job manifest, a mapping with "
                                  "apiVersion, kind, metadata and spec")
            raise DecodeError(f"{at}: the top level is {_describe(doc)} ({json.dumps(doc)[:40]}); expected a "
                              "mapping with apiVersion, kind, metadata and spec")
    return out


def object_label(where: str, doc: dict[str, Any]) -> str:
    """How a message names one object of a file: ``document 2 (job "b")``; ``""`` for a file of one object."""
    if not where:
        return ""
    meta = doc.get("metadata")
    name = meta.get("name") if isinstance(meta, dict) else None
    kind = doc.get("kind") if isinstance(doc.get("kind"), str) else "object"
    return f'{where} ({kind.lower()} "{name}")' if isinstance(name, str) and name else where


def load_objects(data: bytes | str, source: str = "<input>") -> list[tuple[str, Job | CronJob]]:
    """Every object of a manifest file, decoded strictly: (label, Job or CronJob) pairs in file order.

    ``label`` is :func:`object_label`'s (``""`` for a file of one object, whose messages are
    exactly those of :func:`load_job_manifest`). The first object that cannot be decoded raises
    DecodeError naming the source and the object, and nothing is returned.
    """
    return decode_objects(split_objects(data, source), source)


def decode_objects(objects: list[tuple[str, dict[str, Any]]], source: str = "<input>") -> list[tuple[str, Job | CronJob]]:
    """:func:`load_objects` of (where, document) pairs already split (:func:`split_objects`, :func:`objects_in`)."""
    out = []
    for where, doc in objects:
        label = object_label(where, doc)
        out.append((label, _decoded(object_from_document, doc, f"{source}: {label}" if label else source)))
    return out


def load_job_manifest(data: bytes | str, source: str = "<input>") -> Job:
    """Read one batch/v1 Job manifest (YAML or JSON) strictly; raise DecodeError with the reason."""
    return _decoded(job_from_document, load_document(data, source), source)
