"""Safe manifest loading: YAML/JSON -> one plain document -> a Job (k8sjobs.api.yamlio)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from k8sjobs.api import yamlio
from k8sjobs.api.errors import DecodeError, ErrorType
from k8sjobs.api.serialize import to_dict
from k8sjobs.api.types import Job

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "docs"

PI_JOB = """\
apiVersion: batch/v1
kind: Job
metadata:
  name: pi
spec:
  template:
    spec:
      containers:
      - name: pi
        image: perl:5.34.0
        command: ["perl",  "-Mbignum=bpi", "-wle", "print bpi(2000)"]
      restartPolicy: Never
  backoffLimit: 4
"""


def billion_laughs(levels: int = 9, width: int = 9) -> str:
    lines = ['a0: &a0 ["lol"' + ', "lol"' * (width - 1) + "]"]
    for i in range(1, levels + 1):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------- plain data


@pytest.mark.parametrize(("text", "expected"), [
    pytest.param("t: 2026-01-01T00:00:00Z", {"t": "2026-01-01T00:00:00Z"}, id="a timestamp stays the string it was written as"),
    pytest.param("d: 2026-01-01", {"d": "2026-01-01"}, id="a date stays a string"),
    pytest.param("a: y\nb: n\nc: on\nd: Off", {"a": True, "b": False, "c": True, "d": False},
                 id="y n on off are YAML 1.1 booleans as in Go's parser"),
    pytest.param("x: 1:30", {"x": "1:30"}, id="a sexagesimal-looking value stays a string"),
    pytest.param("o: 017\nh: 0x1f\nb: 0b11\nu: 1_000", {"o": 15, "h": 31, "b": 3, "u": 1000},
                 id="octal hex binary and underscore integers are numbers"),
    pytest.param("f: 1e3\ng: .5\nz: ~", {"f": 1000.0, "g": 0.5, "z": None}, id="floats and null"),
    pytest.param("base: &b {p: 1, q: 2}\nm:\n  <<: *b\n  q: 3", {"base": {"p": 1, "q": 2}, "m": {"p": 1, "q": 3}},
                 id="merge keys work and an explicit key overrides a merged one"),
    pytest.param('{"a": 1, "b": [true, null]}', {"a": 1, "b": [True, None]}, id="JSON is accepted as it is"),
    pytest.param("\ufeffa: 1", {"a": 1}, id="a UTF-8 byte-order mark is ignored"),
    pytest.param("a: 1\r\nb: 2\r\n", {"a": 1, "b": 2}, id="CRLF line endings are fine"),
    pytest.param("1: one\ntrue: yes", {"1": "one", "true": True}, id="non-string keys become JSON object keys"),
    pytest.param("n: 1", {"false": 1}, id="a bare n key is the boolean false as in Go's YAML 1.1 parser"),
    pytest.param("---\na: 1\n---\n", {"a": 1}, id="an empty trailing document is ignored"),
])
def test_plain_documents_load(text: str, expected: dict) -> None:
    assert yamlio.load_document(text, "m.yaml") == expected


@pytest.mark.parametrize(("data", "reason"), [
    pytest.param("", "m.yaml: empty: the file has no document", id="an empty file is refused as empty"),
    pytest.param("   \n# only a comment\n", "m.yaml: empty:", id="a file with only comments is refused as empty"),
    pytest.param("---\n", "m.yaml: empty:", id="a lone document marker is refused as empty"),
    pytest.param("a: [1, 2\nb: 3\n", "m.yaml: not YAML: line 2, column", id="broken YAML names the line and column"),
    pytest.param("a: b: c", "m.yaml: not YAML: line 1, column 5: mapping values are not allowed here",
                 id="a mapping value in the wrong place is not YAML"),
    pytest.param(b"a: \xff\xfe\n", "m.yaml: not UTF-8: invalid byte 0xff at line 1, column 4",
                 id="bytes that are not UTF-8 are refused naming the byte and its position"),
    pytest.param(b"\xff\xfea\x00:\x00", "not UTF-8: the file is UTF-16", id="a UTF-16 file is refused as not UTF-8"),
    pytest.param("- a\n- b\n", "m.yaml: the top level is a list", id="a top-level list is refused"),
    pytest.param("just words", 'm.yaml: the top level is a string ("just words")', id="a top-level scalar is refused"),
    pytest.param("42", "the top level is a number", id="a top-level number is refused"),
    pytest.param("a: 1\n---\nb: 2\n", "m.yaml: 2 YAML documents (separated by ---)", id="several documents are refused"),
    pytest.param("a: 1\nb: 2\na: 3\n", 'm.yaml: line 3, column 1: duplicate field "a" (first defined on line 1)',
                 id="a duplicate key is refused naming the key and both lines"),
    pytest.param("spec:\n  x: 1\n  x: 2\n", 'duplicate field "x"', id="a duplicate key deep in the document is refused"),
    pytest.param('{"a": 1, "a": 2}', 'm.yaml: duplicate field "a"', id="a duplicate key in JSON is refused"),
    pytest.param('{"a": NaN}', "not JSON: NaN is not a JSON number", id="NaN in JSON is refused"),
    pytest.param("a: !!python/object/apply:os.system ['echo pwned']",
                 "YAML tag !!python/object/apply:os.system is not allowed: Python object tags are refused",
                 id="a python object tag is refused and builds nothing"),
    pytest.param("a: !!python/name:builtins.print", "YAML tag !!python/name:builtins.print is not allowed",
                 id="a python name tag is refused"),
    pytest.param("a: !custom x", "YAML tag !custom is not allowed", id="an application tag is refused"),
    pytest.param("a: !!binary aGVsbG8=", "YAML tag !!binary is not allowed", id="a binary tag is refused"),
    pytest.param("a: !!set {x, y}", "YAML tag !!set is not allowed", id="a set tag is refused"),
    pytest.param("a: &x [*x]", "recursive YAML alias", id="a recursive alias is refused"),
    pytest.param("a: " + "[" * 200 + "]" * 200, "nested more than 100 levels deep", id="very deep nesting is refused"),
    pytest.param('{"a": ' + "[" * 3000 + "]" * 3000 + "}", "nested more than 100 levels deep",
                 id="very deep JSON nesting is refused"),
    pytest.param("? [a, b]\n: 1\n", "a mapping key must be a plain scalar", id="a complex mapping key is refused"),
    pytest.param("a: " + "x" * (yamlio.MAX_BYTES + 1), "larger than 3145728 bytes", id="an oversized file is refused"),
])
def test_bad_input_gives_one_clear_reason(data: str | bytes, reason: str) -> None:
    with pytest.raises(DecodeError) as info:
        yamlio.load_document(data, "m.yaml")
    message = str(info.value)
    assert reason in message
    assert "\n" not in message


def test_a_python_tag_never_runs_code(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    text = f"a: !!python/object/apply:pathlib.Path.touch [!!python/object/apply:pathlib.Path ['{marker}']]"
    with pytest.raises(DecodeError):
        yamlio.load_document(text, "m.yaml")
    assert not marker.exists()


def test_an_alias_bomb_is_refused_fast_and_small() -> None:
    start = time.perf_counter()
    with pytest.raises(DecodeError) as info:
        yamlio.load_document(billion_laughs(), "bomb.yaml")
    elapsed = time.perf_counter() - start
    assert "expands to more than 100000 nodes through YAML aliases" in str(info.value)
    assert elapsed < 1.0, f"the alias bomb took {elapsed:.2f}s to refuse"


def test_an_alias_bomb_inside_a_job_is_refused_before_field_checking() -> None:
    text = billion_laughs(8, 10).replace("a0:", "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: x\n  labels: {}\na0:", 1)
    with pytest.raises(DecodeError, match="alias bomb"):
        yamlio.load_job_manifest(text, "bomb.yaml")


def test_ordinary_aliases_are_expanded_into_independent_copies() -> None:
    doc = yamlio.load_document("env: &e [{name: A, value: b}]\nmore: *e\n")
    assert doc["env"] == doc["more"]
    assert doc["env"] is not doc["more"]


# ----------------------------------------------------------------------------- Jobs


def test_the_docs_pi_job_loads_as_a_job() -> None:
    job = yamlio.load_job_manifest(PI_JOB, "pi.yaml")
    assert isinstance(job, Job)
    assert job.metadata.name == "pi"
    assert job.spec.backoff_limit == 4
    assert job.spec.template.spec.containers[0].command == ("perl", "-Mbignum=bpi", "-wle", "print bpi(2000)")
    assert job.spec.template.spec.restart_policy == "Never"


def test_a_json_job_loads() -> None:
    import json

    job = yamlio.load_job_manifest(json.dumps(to_dict(yamlio.load_job_manifest(PI_JOB))), "pi.json")
    assert job.metadata.name == "pi"


@pytest.mark.skipif(not EXAMPLES.is_dir(), reason="no examples/docs in this checkout")
@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")) if EXAMPLES.is_dir() else [], ids=lambda p: p.name)
def test_every_kubernetes_docs_job_example_loads_without_errors(path: Path) -> None:
    job = yamlio.load_job_manifest(path.read_bytes(), path.name)
    assert job.kind == "Job"


def test_fields_kubectl_writes_into_manifests_are_accepted() -> None:
    text = PI_JOB.replace("  name: pi\n", "  name: pi\n  creationTimestamp: null\n  managedFields: []\n"
                                         "  selfLink: /x\n").replace(
        "  template:\n", "  template:\n    metadata:\n      creationTimestamp: null\n      labels: {app: pi}\n")
    job = yamlio.load_job_manifest(text + "status: {}\n", "pi.yaml")
    assert job.spec.template.metadata.labels == {"app": "pi"}


@pytest.mark.parametrize(("edit", "lines"), [
    pytest.param(("        image: perl:5.34.0\n", "        image: perl:5.34.0\n        imagePullPolizy: Always\n"),
                 ['unknown field "spec.template.spec.containers[0].imagePullPolizy"'],
                 id="a typo in a container field is an unknown field with its full path"),
    pytest.param(("  backoffLimit: 4\n", "  backoffLimit: 4\n  backofLimit: 4\n"), ['unknown field "spec.backofLimit"'],
                 id="a typo in a spec field is an unknown field"),
    pytest.param(("      restartPolicy: Never\n", "      restartPolicy: Never\n      securityContext: {runAsUsr: 1}\n"),
                 ['unknown field "spec.template.spec.securityContext.runAsUsr"'],
                 id="an unknown field in the pod security context is found"),
    pytest.param(("      restartPolicy: Never\n",
                  "      restartPolicy: Never\n      affinity:\n        nodeAffinity:\n          required: {}\n"),
                 ['unknown field "spec.template.spec.affinity.nodeAffinity.required"'],
                 id="an unknown field deep in affinity is found"),
    pytest.param(("  backoffLimit: 4\n", "  backoffLimit: four\n"),
                 ['spec.backoffLimit: Invalid value: "string": spec.backoffLimit in body must be of type integer: "string"'],
                 id="a string for an integer is a type error naming the field"),
    pytest.param(("        image: perl:5.34.0\n", "        image: perl:5.34.0\n        env: [{name: A, value: 1}]\n"),
                 ['spec.template.spec.containers[0].env[0].value: Invalid value: "integer": '
                  'spec.template.spec.containers[0].env[0].value in body must be of type string: "integer"'],
                 id="an unquoted number for an env value is a type error as with kubectl"),
    pytest.param(("        image: perl:5.34.0\n", "        image: perl:5.34.0\n        resources: {limits: {cpu: lots}}\n"),
                 ["spec.template.spec.containers[0].resources.limits.cpu: Invalid value: \"lots\": quantities must match "
                  "the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
                 id="a malformed quantity is reported with the quantity rule"),
    pytest.param(("  backoffLimit: 4\n", "  backoffLimit: 3000000000\n"),
                 ["spec.backoffLimit: Invalid value: 3000000000: must be between -2147483648 and 2147483647, inclusive"],
                 id="an integer outside int32 is refused"),
    pytest.param(("  backoffLimit: 4\n", "  backoffLimit: 4\nstatus:\n  startTime: yesterday\n"),
                 ['status.startTime: Invalid value: "yesterday": must be an RFC 3339 date-time such as 2026-01-01T00:00:30Z'],
                 id="a time that is not RFC 3339 is refused"),
    pytest.param(("      containers:\n", "      containers:\n      - 3\n"),
                 ['spec.template.spec.containers[0]: Invalid value: "integer": spec.template.spec.containers[0] in body '
                  'must be of type object: "integer"'],
                 id="a list item of the wrong type is refused"),
])
def test_unknown_fields_and_wrong_types_are_reported_with_paths(edit: tuple[str, str], lines: list[str]) -> None:
    old, new = edit
    assert old in PI_JOB
    with pytest.raises(DecodeError) as info:
        yamlio.load_job_manifest(PI_JOB.replace(old, new, 1), "pi.yaml")
    rendered = [f'unknown field "{e.field}"' if e.type == ErrorType.UNKNOWN_FIELD else str(e) for e in info.value.errors]
    assert rendered == lines
    assert info.value.reason == 'pi.yaml: Job in version "v1" cannot be handled as a Job: strict decoding error'


@pytest.mark.parametrize(("header", "reason"), [
    pytest.param("apiVersion: apps/v1\nkind: Deployment\n", 'kind "Deployment" (apps/v1) is not supported',
                 id="another kind is refused"),
    pytest.param("apiVersion: batch/v1beta1\nkind: Job\n", 'no matches for kind "Job" in version "batch/v1beta1"',
                 id="another apiVersion is refused"),
    pytest.param("kind: Job\n", "apiVersion is missing", id="a missing apiVersion is refused"),
    pytest.param("apiVersion: batch/v1\n", "kind is missing", id="a missing kind is refused"),
    pytest.param("", "apiVersion and kind are missing", id="a manifest without type information is refused"),
])
def test_only_batch_v1_jobs_are_accepted(header: str, reason: str) -> None:
    body = PI_JOB.split("\n", 2)[2]
    with pytest.raises(DecodeError) as info:
        yamlio.load_job_manifest(header + body, "x.yaml")
    assert reason in str(info.value)
    assert str(info.value).startswith("x.yaml: ")


# ----------------------------------------------------------------------------- robustness


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.binary(max_size=300), st.text(max_size=300)))
def test_any_input_either_loads_as_a_mapping_or_fails_with_a_decode_error(data: bytes | str) -> None:
    try:
        doc = yamlio.load_document(data, "fuzz")
    except DecodeError as exc:
        assert str(exc).startswith("fuzz: ")
    else:
        assert isinstance(doc, dict)


_JSON = st.recursive(st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=8),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                     max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["metadata", "spec", "status", "extra"]), _JSON, max_size=4))
def test_any_json_job_body_either_loads_or_fails_with_a_decode_error(body: dict) -> None:
    import json

    doc = {"apiVersion": "batch/v1", "kind": "Job", **body}
    try:
        job = yamlio.load_job_manifest(json.dumps(doc), "fuzz.json")
    except DecodeError:
        return
    assert isinstance(job, Job)


# ----------------------------------------------------------------------------- snapshots: libyaml and the pure loader

LESSON_SNAPSHOTS = Path(__file__).resolve().parents[2] / "k8sjobs" / "snapshots"
BOTH_LOADERS = [pytest.param(yamlio.FastManifestLoader, id="libyaml"), pytest.param(yamlio.ManifestLoader, id="pure")]


def _snapshot_documents(text: str, loader: type) -> list:
    try:
        return yamlio._load_yaml_documents(text, 1000, loader)
    except yamlio._ManifestError as exc:
        raise DecodeError(f"s.yaml: {exc}") from None


def test_pyyaml_here_has_libyaml_so_snapshots_are_read_by_the_fast_loader() -> None:
    # The lock's PyYAML wheel ships libyaml; without it (Pyodide) the pure loader is the fallback.
    assert yamlio.FastManifestLoader is not yamlio.ManifestLoader


@pytest.mark.parametrize("loader", BOTH_LOADERS)
@pytest.mark.parametrize(("text", "expected"), [
    pytest.param("t: 2026-01-01T00:00:00Z\nd: 2026-01-01", {"t": "2026-01-01T00:00:00Z", "d": "2026-01-01"},
                 id="times stay strings"),
    pytest.param("a: y\nb: n\nc: on\nd: Off\nx: 1:30", {"a": True, "b": False, "c": True, "d": False, "x": "1:30"},
                 id="YAML 1.1 booleans as in Go and sexagesimal as a string"),
    pytest.param("o: 017\nh: 0x1f\nf: 1e3\nz: ~\n'5': '5'", {"o": 15, "h": 31, "f": 1000.0, "z": None, "5": "5"},
                 id="numbers null and quoted strings"),
    pytest.param("base: &b {p: 1, q: 2}\nm:\n  <<: *b\n  q: 3", {"base": {"p": 1, "q": 2}, "m": {"p": 1, "q": 3}},
                 id="anchors and merge keys"),
])
def test_both_loaders_read_snapshot_yaml_the_same_way(loader: type, text: str, expected: dict) -> None:
    assert _snapshot_documents(text, loader) == [expected]


@pytest.mark.parametrize("loader", BOTH_LOADERS)
@pytest.mark.parametrize(("text", "reason"), [
    pytest.param("a: 1\na: 2\n", 'line 2, column 1: duplicate field "a" (first defined on line 1)', id="duplicate key"),
    pytest.param("a: !!python/object/apply:os.system ['true']", "YAML tag !!python/object/apply:os.system is not "
                 "allowed", id="python tag"),
    pytest.param("a: !!binary aGk=", "YAML tag !!binary is not allowed", id="binary tag"),
    pytest.param("a: [1, 2\nb: 3\n", "s.yaml: not YAML: line ", id="broken YAML"),
    pytest.param(billion_laughs(4, 9), "expands to more than 1000 nodes through YAML aliases", id="alias bomb"),
    pytest.param("a: &x [*x]", "recursive YAML alias", id="recursive alias"),
])
def test_both_loaders_refuse_bad_snapshot_yaml_with_one_line(loader: type, text: str, reason: str) -> None:
    with pytest.raises(DecodeError) as info:
        _snapshot_documents(text, loader)
    assert reason in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize("path", sorted(LESSON_SNAPSHOTS.glob("*.yaml")), ids=lambda p: p.name)
def test_the_lessons_snapshots_read_the_same_with_libyaml_and_the_pure_loader(path: Path) -> None:
    text = path.read_text()
    fast = yamlio._load_yaml_documents(text, 10**6, yamlio.FastManifestLoader)
    assert fast == yamlio._load_yaml_documents(text, 10**6, yamlio.ManifestLoader)
    assert fast[0]["kind"] == "List" and len(fast[0]["items"]) >= 4 and len(list(LESSON_SNAPSHOTS.glob("*.yaml"))) == 3


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_any_text_read_by_libyaml_loads_or_fails_with_a_decode_error(text: str) -> None:
    try:
        docs = yamlio.load_documents(text, "fuzz", max_bytes=10_000, max_nodes=10_000, too_large="too large")
    except DecodeError as exc:
        assert str(exc).startswith("fuzz: ") and "\n" not in str(exc)
    else:
        assert isinstance(docs, list)
