"""API-server validation of a Job: create, update and status update.

Mirrors Kubernetes 1.35 with every Job feature GA (JobPodFailurePolicy,
JobBackoffLimitPerIndex, JobSuccessPolicy, JobPodReplacementPolicy, JobManagedBy,
ElasticIndexedJob), written from:

* pkg/apis/batch/validation/validation.go -- ``ValidateJob``, ``validateJobSpec``,
  ``validatePodFailurePolicy*``, ``validateSuccessPolicy*``,
  ``validatePodReplacementPolicy``, ``ValidateJobUpdate``/``ValidateJobSpecUpdate``,
  ``validateCompletions``, ``validatePodTemplateUpdate``, ``validateJobStatus`` and
  ``ValidateJobStatusUpdate``;
* pkg/registry/batch/job/strategy.go -- which options are on (``validationOptionsForJob``,
  ``getStatusValidationOptions``);
* pkg/apis/core/validation/validation.go and apimachinery -- the object-metadata checks and
  the pod-template checks a Job template gets (``ValidatePodTemplateSpec``, a subset of
  ``ValidatePodSpec``; see :func:`validate_pod_template_spec` for what is covered).

Functions return lists of :class:`~k8sjobs.api.errors.FieldError` in upstream order; the
objects must already be defaulted (:mod:`k8sjobs.api.defaults`) as the API server
defaults before it validates. Error messages are upstream's, so a list printed by
:class:`~k8sjobs.api.errors.InvalidError` reads as ``kubectl`` shows it.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Hashable
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from ..cron import CronParseError, UnknownTimeZoneError, load_location, parse_standard
from . import schema
from .errors import ErrorType, FieldError
from .indexes import parse_index_interval, validate_indexes_format
from .serialize import to_dict
from .types import (
    CONTROLLER_UID_LABEL,
    JOB_NAME_LABEL,
    LEGACY_CONTROLLER_UID_LABEL,
    LEGACY_JOB_NAME_LABEL,
    POD_DELETION_COST_ANNOTATION,
    CompletionMode,
    ConcurrencyPolicy,
    ConditionStatus,
    Container,
    CronJob,
    CronJobSpec,
    Job,
    JobConditionType,
    JobSpec,
    JobStatus,
    JobTemplateSpec,
    LabelSelector,
    PodFailurePolicyAction,
    PodReplacementPolicy,
    PodSpec,
    PodTemplateSpec,
    UncountedTerminatedPods,
)

# Limits (pkg/apis/batch/validation/validation.go).
MAX_PARALLELISM_FOR_INDEXED_JOB = 100_000
MAX_FAILED_INDEXES_FOR_INDEXED_JOB = 100_000
COMPLETIONS_SOFT_LIMIT = 100_000
PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS = 10_000
MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS = 10_000
MAX_POD_FAILURE_POLICY_RULES = 20
MAX_POD_FAILURE_POLICY_ON_EXIT_CODES_VALUES = 255
MAX_POD_FAILURE_POLICY_ON_POD_CONDITIONS_PATTERNS = 20
MAX_MANAGED_BY_LENGTH = 63
MAX_SUCCESS_POLICY_SUCCEEDED_INDEXES_LENGTH = 64 * 1024
MAX_SUCCESS_POLICY_RULES = 20
TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024

_ACTIONS = sorted([PodFailurePolicyAction.COUNT, PodFailurePolicyAction.FAIL_INDEX,
                   PodFailurePolicyAction.FAIL_JOB, PodFailurePolicyAction.IGNORE])
_EXIT_CODE_OPERATORS = ["In", "NotIn"]
_CONDITION_STATUSES = sorted([ConditionStatus.FALSE, ConditionStatus.TRUE, ConditionStatus.UNKNOWN])
_REPLACEMENT_POLICIES = sorted([PodReplacementPolicy.FAILED, PodReplacementPolicy.TERMINATING_OR_FAILED])

IS_NEGATIVE_ERROR_MSG = "must be greater than or equal to 0"
FIELD_IMMUTABLE_ERROR_MSG = "field is immutable"


@dataclass(frozen=True, slots=True)
class JobValidationOptions:
    """batchvalidation.JobValidationOptions as the Job strategy sets them."""

    allow_mutable_scheduling_directives: bool = False
    allow_elastic_indexed_jobs: bool = True
    require_prefixed_labels: bool = True


@dataclass(frozen=True, slots=True)
class JobStatusValidationOptions:
    """batchvalidation.JobStatusValidationOptions (which status rules run for one write)."""

    reject_decreasing_succeeded_counter: bool = False
    reject_decreasing_failed_counter: bool = False
    reject_disabling_terminal_condition: bool = False
    reject_invalid_completed_indexes: bool = False
    reject_invalid_failed_indexes: bool = False
    reject_failed_indexes_overlapping_completed: bool = False
    reject_completed_indexes_for_non_indexed_job: bool = False
    reject_failed_indexes_for_no_backoff_limit_per_index: bool = False
    reject_failed_job_without_failure_target: bool = False
    reject_complete_job_without_success_criteria_met: bool = False
    reject_finished_job_with_active_pods: bool = False
    reject_finished_job_without_start_time: bool = False
    reject_finished_job_with_uncounted_terminated_pods: bool = False
    reject_start_time_update_for_unsuspended_job: bool = False
    reject_completion_time_before_start_time: bool = False
    reject_mutating_completion_time: bool = False
    reject_complete_job_without_completion_time: bool = False
    reject_not_complete_job_with_completion_time: bool = False
    reject_complete_job_with_failed_condition: bool = False
    reject_complete_job_with_failure_target_condition: bool = False
    allow_for_success_criteria_met_in_extended_scope: bool = False
    reject_more_ready_than_active_pods: bool = False
    reject_finished_job_with_terminating_pods: bool = False


# ----------------------------------------------------------------------------- value rendering


class GoValue(dict):
    """A composite bad value: kept as its JSON form, printed the way Go's ``%#v`` shows it."""

    def __init__(self, text: str, doc: Any = None) -> None:
        super().__init__(doc if isinstance(doc, dict) else {})
        self._text = text

    def __str__(self) -> str:
        return self._text

    __repr__ = __str__


def go_string_map(m: dict[str, str] | None) -> GoValue:
    """``map[string]string{"a":"b", "c":"d"}`` (Go sorts map keys when printing)."""
    if m is None:
        return GoValue("map[string]string(nil)")
    inner = ", ".join(f"{json.dumps(k)}:{json.dumps(v)}" for k, v in sorted(m.items()))
    return GoValue(f"map[string]string{{{inner}}}", dict(m))


def go_int32_slice(values: tuple[int, ...] | list[int]) -> GoValue:
    """``[]int32{1, 2, 3}``."""
    return GoValue("[]int32{" + ", ".join(str(v) for v in values) + "}")


def go_struct(obj: Any) -> GoValue:
    """A struct value, shown as its compact JSON document."""
    doc = obj if isinstance(obj, dict) else to_dict(obj)
    return GoValue(json.dumps(doc, separators=(",", ":"), sort_keys=True), doc)


def _invalid_omit(path: str, detail: str) -> FieldError:
    # field.Invalid with field.OmitValueType{}: the value is not shown.
    return FieldError(ErrorType.INVALID, path, detail=detail)


def _not_found(path: str, value: Any) -> FieldError:
    return FieldError(ErrorType.NOT_FOUND, path, value, "")


def _go_quote_list(values: list[str]) -> str:
    # fmt's %q of a []string: ["a" "b"].
    return "[" + " ".join(json.dumps(v) for v in values) + "]"


# ----------------------------------------------------------------------------- name formats (apimachinery)

_DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
_DNS1123_SUBDOMAIN_FMT = _DNS1123_LABEL_FMT + "(\\." + _DNS1123_LABEL_FMT + ")*"
_DNS1123_LABEL_RE = re.compile("^" + _DNS1123_LABEL_FMT + "$")
_DNS1123_SUBDOMAIN_RE = re.compile("^" + _DNS1123_SUBDOMAIN_FMT + "$")
_LABEL_KEY_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
_LABEL_KEY_RE = re.compile("^" + _LABEL_KEY_FMT + "$")
_LABEL_VALUE_FMT = "(" + _LABEL_KEY_FMT + ")?"
_CONFIG_KEY_FMT = "[-._a-zA-Z0-9]+"
_CONFIG_KEY_RE = re.compile("^" + _CONFIG_KEY_FMT + "$")
_HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+"
_HTTP_PATH_RE = re.compile("^" + _HTTP_PATH_FMT + "$")
_HTTP_HEADER_FMT = "[-A-Za-z0-9]+"
_PORT_NAME_CHARSET_RE = re.compile("^[-a-z0-9]+$")


def regex_error(msg: str, fmt: str, *examples: str) -> str:
    """validation.RegexError: the message, examples and the regular expression used."""
    if not examples:
        return f"{msg} (regex used for validation is '{fmt}')"
    text = msg + " (e.g. "
    for i, example in enumerate(examples):
        if i > 0:
            text += " or "
        text += f"'{example}', "
    return text + f"regex used for validation is '{fmt}')"


def max_len_error(n: int) -> str:
    """validation.MaxLenError."""
    return f"must be no more than {n} characters"


def inclusive_range_error(lo: int, hi: int) -> str:
    """validation.InclusiveRangeError."""
    return f"must be between {lo} and {hi}, inclusive"


def is_dns1123_label(value: str) -> list[str]:
    """validation.IsDNS1123Label."""
    errs = []
    if len(value) > 63:
        errs.append(max_len_error(63))
    if not _DNS1123_LABEL_RE.match(value):
        if _DNS1123_SUBDOMAIN_RE.match(value):
            errs.append("must not contain dots")
        else:
            errs.append(regex_error("a lowercase RFC 1123 label must consist of lower case alphanumeric characters "
                                    "or '-', and must start and end with an alphanumeric character",
                                    _DNS1123_LABEL_FMT, "my-name", "123-abc"))
    return errs


def is_dns1123_subdomain(value: str) -> list[str]:
    """validation.IsDNS1123Subdomain."""
    errs = []
    if len(value) > 253:
        errs.append(max_len_error(253))
    if not _DNS1123_SUBDOMAIN_RE.match(value):
        errs.append(regex_error("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
                                "'-' or '.', and must start and end with an alphanumeric character",
                                _DNS1123_SUBDOMAIN_FMT, "example.com"))
    return errs


def _valid_label_key_name(s: str) -> bool:
    return bool(_LABEL_KEY_RE.match(s))


def is_qualified_name(value: str) -> list[str]:
    """content.IsLabelKey (a.k.a. IsQualifiedName): an optional DNS-subdomain prefix and a name."""
    if value in _QUALIFIED_NAMES:
        return []
    errs = _qualified_name_errors(value)
    if not errs and isinstance(value, str):
        _remember(_QUALIFIED_NAMES, value)
    return errs


_QUALIFIED_NAMES: set[str] = set()
"""Strings already found to be qualified names (label keys, annotation keys, finalizers come back often)."""


def _qualified_name_errors(value: str) -> list[str]:
    errs: list[str] = []
    prefix, slash, suffix = value.partition("/")
    if not slash:
        name = value
    elif "/" in suffix:
        return ["a valid label key " + regex_error(
            "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
            "alphanumeric character", _LABEL_KEY_FMT, "MyName", "my.name", "123-abc")
            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]
    else:
        name = suffix
        if not prefix:
            errs.append("prefix part must be non-empty")
        else:
            errs.extend("prefix part " + m for m in is_dns1123_subdomain(prefix))
    if not name:
        errs.append("name part must be non-empty")
    elif len(name) > 63:
        errs.append("name part " + max_len_error(63))
    if not _valid_label_key_name(name):
        errs.append("name part " + regex_error(
            "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
            "alphanumeric character", _LABEL_KEY_FMT, "MyName", "my.name", "123-abc"))
    return errs


def is_valid_label_value(value: str) -> list[str]:
    """content.IsLabelValue."""
    if _known(value, _VALID_LABEL_VALUES):
        return []  # (a Job's name and UID are label values of its labels, its template's and its selector's)
    errs = _label_value_errors(value)
    if not errs:
        _remember(_VALID_LABEL_VALUES, value)
    return errs


_VALID_LABEL_VALUES: set[str] = set()
"""Label values already found valid (bounded as _VALID_LABELS; the answer depends on the value alone)."""


def _label_value_errors(value: str) -> list[str]:
    errs = []
    if len(value) > 63:
        errs.append(max_len_error(63))
    if value and not _valid_label_key_name(value):
        errs.append(regex_error("a valid label must be an empty string or consist of alphanumeric characters, "
                                "'-', '_' or '.', and must start and end with an alphanumeric character",
                                _LABEL_VALUE_FMT, "MyValue", "my_value", "12345"))
    return errs


def _has_chdir_prefix(value: str) -> list[str]:
    if value == ".":
        return ["must not be '.'"]
    if value == "..":
        return ["must not be '..'"]
    if value.startswith(".."):
        return ["must not start with '..'"]
    return []


def is_config_map_key(value: str) -> list[str]:
    """validation.IsConfigMapKey."""
    errs = []
    if len(value) > 253:
        errs.append(max_len_error(253))
    if not _CONFIG_KEY_RE.match(value):
        errs.append(regex_error("a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
                                _CONFIG_KEY_FMT, "key.name", "KEY_NAME", "key-name"))
    return errs + _has_chdir_prefix(value)


def is_relaxed_env_var_name(value: str) -> list[str]:
    """validation.IsRelaxedEnvVarName (RelaxedEnvironmentVariableValidation is GA)."""
    errs = []
    if not value:
        errs.append("environment variable name must be non-empty")
    if any(ord(c) > 127 or not c.isprintable() or c == "=" for c in value):
        errs.append("a valid environment variable name must consist only of printable ASCII characters other "
                    "than '='")
    return errs


def is_valid_port_num(port: int) -> list[str]:
    """validation.IsValidPortNum."""
    return [] if 1 <= port <= 65535 else [inclusive_range_error(1, 65535)]


def is_valid_port_name(port: str) -> list[str]:
    """validation.IsValidPortName (an IANA_SVC_NAME)."""
    errs = []
    if len(port) > 15:
        errs.append(max_len_error(15))
    if not _PORT_NAME_CHARSET_RE.match(port):
        errs.append("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)")
    if not re.search("[a-z]", port):
        errs.append("must contain at least one letter (a-z)")
    if "--" in port:
        errs.append("must not contain consecutive hyphens")
    if port and (port[0] == "-" or port[-1] == "-"):
        errs.append("must not begin or end with a hyphen")
    return errs


def _mask_trailing_dash(name: str) -> str:
    if len(name) > 1 and name.endswith("-"):
        return name[:-1] + "a"
    return name


def name_is_dns_subdomain(name: str, prefix: bool) -> list[str]:
    """NameIsDNSSubdomain (a generateName prefix may end with '-')."""
    return is_dns1123_subdomain(_mask_trailing_dash(name) if prefix else name)


def name_is_dns_label(name: str, prefix: bool) -> list[str]:
    """NameIsDNSLabel."""
    return is_dns1123_label(_mask_trailing_dash(name) if prefix else name)


def is_domain_prefixed_path(path: str, value: str) -> list[FieldError]:
    """validation.IsDomainPrefixedPath (``spec.managedBy``)."""
    if not value:
        return [FieldError.required(path)]
    host, slash, rest = value.partition("/")
    if not slash or not host or not rest:
        return [FieldError.invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')]
    errs = [FieldError.invalid(path, host, m) for m in is_dns1123_subdomain(host)]
    if not _HTTP_PATH_RE.match(rest):
        errs.append(FieldError.invalid(path, rest, regex_error("Invalid path", _HTTP_PATH_FMT)))
    return errs


# ----------------------------------------------------------------------------- generic checks


def validate_nonnegative(value: int, path: str) -> list[FieldError]:
    """ValidateNonnegativeField."""
    return [FieldError.invalid(path, value, IS_NEGATIVE_ERROR_MSG)] if value < 0 else []


def _semantic(value: Any, type_expr: str) -> Any:
    if value is None:
        return None
    doc = to_dict(value) if hasattr(value, "__dataclass_fields__") else value
    return schema.semantic_form(doc, type_expr)


def validate_immutable(new: Any, old: Any, path: str, type_expr: str, shown: Any = None) -> list[FieldError]:
    """ValidateImmutableField, comparing as apiequality.Semantic.DeepEqual does."""
    if new == old or _semantic(new, type_expr) == _semantic(old, type_expr):
        return []
    if shown is None:
        if new is None:
            shown = None
        elif isinstance(new, (str, int, bool)):
            shown = new
        else:
            shown = go_struct(new)
    return [FieldError.invalid(path, shown, FIELD_IMMUTABLE_ERROR_MSG)]


# Label and annotation maps already found valid, as (key, value) tuples: whether a map is valid depends on
# nothing else (not the path), and the API server validates the same maps again on every write of an
# object (a Job's labels and annotations at each status write). Bounded: cleared when full.
_VALID_LABELS: set[tuple[tuple[str, str], ...]] = set()
_VALID_ANNOTATIONS: set[tuple[tuple[str, str], ...]] = set()
_VALID_MAPS_SIZE = 4096


def _known(items: object, known: set) -> bool:
    try:
        return items in known
    except TypeError:  # a value that is not a string (a list decoded from YAML): validated the long way
        return False


def _remember(known: set, items: Hashable) -> None:
    """Add ``items`` (a name, or a tuple of a map's items) to a cache of valid values; bounded."""
    try:
        hash(items)
    except TypeError:
        return
    if len(known) >= _VALID_MAPS_SIZE:
        known.clear()
    known.add(items)


def validate_labels(labels: dict[str, str], path: str) -> list[FieldError]:
    """unversionedvalidation.ValidateLabels (errors carry the map's path, not the key's)."""
    items = tuple(labels.items())
    if _known(items, _VALID_LABELS):
        return []
    errs: list[FieldError] = []
    # (Errors are made only from messages there are: an empty generator per key and value cost more
    # than the checks themselves, and a Job's new labels are checked at its every creation.)
    for k, v in sorted(items):
        msgs = is_qualified_name(k)
        if msgs:
            errs.extend(FieldError.invalid(path, k, m) for m in msgs)
        if isinstance(v, str):
            msgs = is_valid_label_value(v)
            if msgs:
                errs.extend(FieldError.invalid(path, v, m) for m in msgs)
    if not errs:
        _remember(_VALID_LABELS, items)
    return errs


def validate_annotations(annotations: dict[str, str], path: str) -> list[FieldError]:
    """ValidateAnnotations: keys are qualified names (case-insensitive), total size <= 256 KiB."""
    items = tuple(annotations.items())
    if _known(items, _VALID_ANNOTATIONS):
        return []
    errs: list[FieldError] = []
    for k in sorted(annotations):
        msgs = is_qualified_name(k.lower())
        if msgs:
            errs.extend(FieldError.invalid(path, k, m) for m in msgs)
    size = sum(len(k) + len(v) for k, v in items)
    if size > TOTAL_ANNOTATION_SIZE_LIMIT:
        errs.append(FieldError.too_long(path, TOTAL_ANNOTATION_SIZE_LIMIT))
    if not errs:
        _remember(_VALID_ANNOTATIONS, items)
    return errs


_STANDARD_FINALIZERS = {"kubernetes", "orphan", "foregroundDeletion"}


def validate_object_meta(meta: Any, path: str = "metadata", requires_namespace: bool = True) -> list[FieldError]:
    """ValidateObjectMeta with ValidateReplicationControllerName (a DNS-1123 subdomain)."""
    errs: list[FieldError] = []
    # (As in validate_labels: errors are made only from messages there are.)
    if meta.generate_name:
        msgs = name_is_dns_subdomain(meta.generate_name, True)
        if msgs:
            errs.extend(FieldError.invalid(f"{path}.generateName", meta.generate_name, m) for m in msgs)
    if not meta.name:
        errs.append(FieldError.required(f"{path}.name", "name or generateName is required"))
    else:
        msgs = name_is_dns_subdomain(meta.name, False)
        if msgs:
            errs.extend(FieldError.invalid(f"{path}.name", meta.name, m) for m in msgs)
    if requires_namespace:
        if not meta.namespace:
            errs.append(FieldError.required(f"{path}.namespace"))
        else:
            msgs = name_is_dns_label(meta.namespace, False)
            if msgs:
                errs.extend(FieldError.invalid(f"{path}.namespace", meta.namespace, m) for m in msgs)
    errs.extend(validate_nonnegative(meta.generation, f"{path}.generation"))
    errs.extend(validate_labels(meta.labels, f"{path}.labels"))
    errs.extend(validate_annotations(meta.annotations, f"{path}.annotations"))
    errs.extend(_validate_owner_references(meta.owner_references, f"{path}.ownerReferences"))
    errs.extend(_validate_finalizers(meta.finalizers, f"{path}.finalizers"))
    return errs


def _validate_owner_references(refs: tuple, path: str) -> list[FieldError]:
    if not refs or refs is _LAST_VALID_OWNER_REFERENCES[0]:
        return []  # (every version of an object shares its owner references: found by identity, unhashed)
    if _known(refs, _VALID_OWNER_REFERENCES):
        _LAST_VALID_OWNER_REFERENCES[0] = refs
        return []
    errs = _owner_reference_errors(refs, path)
    if not errs:
        _remember(_VALID_OWNER_REFERENCES, refs)
        _LAST_VALID_OWNER_REFERENCES[0] = refs
    return errs


_LAST_VALID_OWNER_REFERENCES: list[tuple] = [()]
"""The owner references found valid last (a tuple of frozen references: it cannot change)."""


_VALID_OWNER_REFERENCES: set[tuple] = set()
"""Owner reference lists already found valid (as _VALID_LABELS)."""


def _owner_reference_errors(refs: tuple, path: str) -> list[FieldError]:
    errs: list[FieldError] = []
    controllers = []
    for i, ref in enumerate(refs):
        p = f"{path}[{i}]"
        version = ref.api_version.rsplit("/", 1)[-1] if ref.api_version else ""
        if not version:
            errs.append(FieldError.invalid(f"{p}.apiVersion", ref.api_version, "version must not be empty"))
        if not ref.kind:
            errs.append(FieldError.invalid(f"{p}.kind", ref.kind, "must not be empty"))
        if not ref.name:
            errs.append(FieldError.invalid(f"{p}.name", ref.name, "must not be empty"))
        if not ref.uid:
            errs.append(FieldError.invalid(f"{p}.uid", ref.uid, "must not be empty"))
        if ref.controller:
            controllers.append(f"{ref.kind}/{ref.name}")
    if len(controllers) > 1:
        errs.append(FieldError.invalid(path, go_struct({"ownerReferences": [to_dict(r) for r in refs]}),
                                       "Only one reference can have Controller set to true. Found \"true\" in "
                                       "references for " + " and ".join(controllers)))
    return errs


def _validate_finalizers(finalizers: tuple[str, ...], path: str) -> list[FieldError]:
    errs: list[FieldError] = []
    for f in finalizers:
        msgs = is_qualified_name(f)
        if msgs:
            errs.extend(FieldError.invalid(path, f, m) for m in msgs)
    if "orphan" in finalizers and "foregroundDeletion" in finalizers:
        errs.append(FieldError.invalid(path, GoValue("[]string{" + ", ".join(json.dumps(f) for f in finalizers) + "}"),
                                       "finalizer orphan and foregroundDeletion cannot be both set"))
    # core's validateKubeFinalizerName, per index.
    for i, f in enumerate(finalizers):
        p = f"{path}[{i}]"
        msgs = is_qualified_name(f)
        if msgs:
            errs.extend(FieldError.invalid(p, f, m) for m in msgs)
        elif "/" not in f and f not in _STANDARD_FINALIZERS:
            errs.append(FieldError.invalid(p, f, "name is neither a standard finalizer name nor is it fully qualified"))
    return errs


def validate_object_meta_update(new: Any, old: Any, path: str = "metadata") -> list[FieldError]:
    """ValidateObjectMetaUpdate."""
    if new is old:
        # A status write keeps the stored metadata object: nothing can have been added, decremented
        # or changed; what is left is the validation of the object's own fields.
        errs: list[FieldError] = []
        if not new.resource_version:
            errs.append(FieldError.invalid(f"{path}.resourceVersion", new.resource_version,
                                           "must be specified for an update"))
        return _object_meta_fields_errors(errs, new, path)
    return _object_meta_update_errors(new, old, path)


def _object_meta_update_errors(new: Any, old: Any, path: str) -> list[FieldError]:
    errs: list[FieldError] = []
    if old.deletion_timestamp is not None:
        added = [f for f in new.finalizers if f not in old.finalizers]
        if added:
            errs.append(FieldError.forbidden(f"{path}.finalizers",
                                             f"no new finalizers can be added if the object is being deleted, found new "
                                             f"finalizers {_go_quote_list(added)}"))
    if not new.resource_version:
        errs.append(FieldError.invalid(f"{path}.resourceVersion", new.resource_version, "must be specified for an update"))
    if new.generation < old.generation:
        errs.append(FieldError.invalid(f"{path}.generation", new.generation, "must not be decremented"))
    for attr, json_name in (("name", "name"), ("namespace", "namespace"), ("uid", "uid")):
        if getattr(new, attr) != getattr(old, attr):
            errs.append(FieldError.invalid(f"{path}.{json_name}", getattr(new, attr), FIELD_IMMUTABLE_ERROR_MSG))
    for attr, json_name in (("creation_timestamp", "creationTimestamp"), ("deletion_timestamp", "deletionTimestamp"),
                            ("deletion_grace_period_seconds", "deletionGracePeriodSeconds")):
        if getattr(new, attr) != getattr(old, attr):
            errs.append(FieldError.invalid(f"{path}.{json_name}", getattr(new, attr), FIELD_IMMUTABLE_ERROR_MSG))
    return _object_meta_fields_errors(errs, new, path)


def _object_meta_fields_errors(errs: list[FieldError], new: Any, path: str) -> list[FieldError]:
    """The rest of ValidateObjectMetaUpdate: the new object's labels, annotations, owner references and
    finalizers, appended to ``errs``."""
    fields = (new.labels, new.annotations, new.owner_references, new.finalizers)
    last = _LAST_VALID_META_FIELDS[0]
    if (fields[0] is last[0] and fields[1] is last[1] and fields[2] is last[2] and fields[3] is last[3]):
        # The very maps and tuples found valid last time (every version of an object shares them: a
        # status write changes neither; the API objects' maps are never changed in place): the
        # checks below would find nothing again, whatever the path.
        return errs
    before = len(errs)
    errs = _object_meta_field_checks(errs, new, path)
    if len(errs) == before:
        _LAST_VALID_META_FIELDS[0] = fields
    return errs


_NOTHING_YET = object()
_LAST_VALID_META_FIELDS: list[tuple[Any, Any, Any, Any]] = [(_NOTHING_YET,) * 4]
"""(labels, annotations, owner references, finalizers) of the last metadata whose fields were found valid."""


def _object_meta_field_checks(errs: list[FieldError], new: Any, path: str) -> list[FieldError]:
    errs.extend(validate_labels(new.labels, f"{path}.labels"))
    errs.extend(validate_annotations(new.annotations, f"{path}.annotations"))
    errs.extend(_validate_owner_references(new.owner_references, f"{path}.ownerReferences"))
    for i, f in enumerate(new.finalizers):
        p = f"{path}.finalizers[{i}]"
        msgs = is_qualified_name(f)
        if msgs:
            errs.extend(FieldError.invalid(p, f, m) for m in msgs)
        elif "/" not in f and f not in _STANDARD_FINALIZERS:
            errs.append(FieldError.invalid(p, f, "name is neither a standard finalizer name nor is it fully qualified"))
    return errs


# ----------------------------------------------------------------------------- label selectors

_SELECTOR_OPERATORS = {"In", "NotIn", "Exists", "DoesNotExist"}


def validate_label_selector(selector: LabelSelector | None, path: str) -> list[FieldError]:
    """unversionedvalidation.ValidateLabelSelector."""
    if selector is None:
        return []
    errs = validate_labels(selector.match_labels, f"{path}.matchLabels")
    for i, req in enumerate(selector.match_expressions):
        p = f"{path}.matchExpressions[{i}]"
        if req.operator in ("In", "NotIn"):
            if not req.values:
                errs.append(FieldError.required(f"{p}.values", "must be specified when `operator` is 'In' or 'NotIn'"))
        elif req.operator in ("Exists", "DoesNotExist"):
            if req.values:
                errs.append(FieldError.forbidden(f"{p}.values",
                                                 "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
        else:
            errs.append(FieldError.invalid(f"{p}.operator", req.operator, "not a valid selector operator"))
        msgs = is_qualified_name(req.key)
        if msgs:
            errs.extend(FieldError.invalid(f"{p}.key", req.key, m) for m in msgs)
        for j, value in enumerate(req.values):
            msgs = is_valid_label_value(value)
            if msgs:
                errs.extend(FieldError.invalid(f"{p}.values[{j}]", value, m) for m in msgs)
    return errs


def selector_matches(selector: LabelSelector | None, labels: dict[str, str]) -> bool | None:
    """metav1.LabelSelectorAsSelector(selector).Matches(labels); None when it does not convert.

    A nil selector matches nothing; an empty one matches everything.
    """
    if selector is None:
        return False
    for k, v in selector.match_labels.items():
        if is_qualified_name(k) or is_valid_label_value(v):
            return None
    for req in selector.match_expressions:
        if req.operator not in _SELECTOR_OPERATORS or is_qualified_name(req.key):
            return None
        if req.operator in ("In", "NotIn") and not req.values:
            return None
        if req.operator in ("Exists", "DoesNotExist") and req.values:
            return None
        if any(is_valid_label_value(v) for v in req.values):
            return None
    if any(labels.get(k) != v for k, v in selector.match_labels.items()):
        return False
    for req in selector.match_expressions:
        present = req.key in labels
        if req.operator == "In" and not (present and labels[req.key] in req.values):
            return False
        if req.operator == "NotIn" and present and labels[req.key] in req.values:
            return False
        if req.operator == "Exists" and not present:
            return False
        if req.operator == "DoesNotExist" and present:
            return False
    return True


def _validate_has_label(labels: dict[str, str], path: str, key: str, expected: str) -> list[FieldError]:
    """ValidateHasLabel."""
    if key not in labels:
        return [FieldError.required(f"{path}.labels[{key}]", f"must be '{expected}'")]
    if labels[key] != expected:
        return [FieldError.invalid(f"{path}.labels[{key}]", go_string_map(labels), f"must be '{expected}'")]
    return []


def validate_generated_selector(job: Job, validate_batch_labels: bool) -> list[FieldError]:
    """validateGeneratedSelector: the generated selector and template labels match name and UID."""
    if job.spec.manual_selector:
        return []
    if job.spec.selector is None:
        return []  # reported by ValidateJobSpec
    errs: list[FieldError] = []
    uid, name = job.metadata.uid, job.metadata.name
    if not uid:
        errs.append(FieldError.required("metadata.uid"))
    labels = job.spec.template.metadata.labels
    tpath = "spec.template.metadata"
    errs.extend(_validate_has_label(labels, tpath, LEGACY_CONTROLLER_UID_LABEL, uid))
    errs.extend(_validate_has_label(labels, tpath, LEGACY_JOB_NAME_LABEL, name))
    expected: dict[str, str] = {}
    if validate_batch_labels:
        errs.extend(_validate_has_label(labels, tpath, CONTROLLER_UID_LABEL, uid))
        errs.extend(_validate_has_label(labels, tpath, JOB_NAME_LABEL, name))
        expected[CONTROLLER_UID_LABEL] = uid
        expected[JOB_NAME_LABEL] = name
    expected[LEGACY_CONTROLLER_UID_LABEL] = uid
    expected[LEGACY_JOB_NAME_LABEL] = name
    if selector_matches(job.spec.selector, expected) is False:
        errs.append(FieldError.invalid("spec.selector", go_struct(job.spec.selector), "`selector` not auto-generated"))
    return errs


# ----------------------------------------------------------------------------- ValidateJob


def validate_job(job: Job, opts: JobValidationOptions | None = None) -> list[FieldError]:
    """ValidateJob (create): metadata, generated selector, spec, Indexed pod hostnames."""
    opts = opts or JobValidationOptions()
    errs = validate_object_meta(job.metadata, "metadata")
    errs.extend(validate_generated_selector(job, opts.require_prefixed_labels))
    errs.extend(validate_job_spec(job.spec, "spec"))
    spec = job.spec
    if spec.completion_mode == CompletionMode.INDEXED and spec.completions is not None and spec.completions > 0:
        # Indexed pods get the hostname <job name>-<index>; the largest index must still
        # make a valid DNS label, or pod creation would fail later.
        hostname = f"{job.metadata.name}-{spec.completions - 1}"
        if is_dns1123_label(hostname):
            errs.append(FieldError.invalid("metadata.name", job.metadata.name,
                                           f"will not able to create pod with invalid DNS label: {hostname}"))
    return errs


def validate_job_spec(spec: JobSpec, path: str = "spec") -> list[FieldError]:
    """ValidateJobSpec: validateJobSpec, the selector, and the selector matching the template."""
    errs = _validate_job_spec(spec, path)
    if spec.selector is None:
        errs.append(FieldError.required(f"{path}.selector"))
    else:
        errs.extend(validate_label_selector(spec.selector, f"{path}.selector"))
    if selector_matches(spec.selector, spec.template.metadata.labels) is False:
        errs.append(FieldError.invalid(f"{path}.template.metadata.labels", go_string_map(spec.template.metadata.labels),
                                       "`selector` does not match template `labels`"))
    return errs


def _validate_job_spec(spec: JobSpec, path: str) -> list[FieldError]:
    errs: list[FieldError] = []
    for value, name in ((spec.parallelism, "parallelism"), (spec.completions, "completions"),
                        (spec.active_deadline_seconds, "activeDeadlineSeconds"), (spec.backoff_limit, "backoffLimit"),
                        (spec.ttl_seconds_after_finished, "ttlSecondsAfterFinished"),
                        (spec.backoff_limit_per_index, "backoffLimitPerIndex")):
        if value is not None:
            errs.extend(validate_nonnegative(value, f"{path}.{name}"))
    if spec.max_failed_indexes is not None:
        errs.extend(validate_nonnegative(spec.max_failed_indexes, f"{path}.maxFailedIndexes"))
        if spec.backoff_limit_per_index is None:
            errs.append(FieldError.required(f"{path}.backoffLimitPerIndex", "when maxFailedIndexes is specified"))
    if spec.managed_by is not None:
        errs.extend(is_domain_prefixed_path(f"{path}.managedBy", spec.managed_by))
        if len(spec.managed_by) > MAX_MANAGED_BY_LENGTH:
            errs.append(FieldError.too_long(f"{path}.managedBy", MAX_MANAGED_BY_LENGTH))
    mode = spec.completion_mode
    if mode is not None:
        if mode not in (CompletionMode.NON_INDEXED, CompletionMode.INDEXED):
            errs.append(FieldError.not_supported(f"{path}.completionMode", mode,
                                                 [CompletionMode.NON_INDEXED, CompletionMode.INDEXED]))
        if mode == CompletionMode.INDEXED:
            errs.extend(_validate_indexed_limits(spec, path))
    if mode is None or mode == CompletionMode.NON_INDEXED:
        if spec.backoff_limit_per_index is not None:
            errs.append(FieldError.invalid(f"{path}.backoffLimitPerIndex", spec.backoff_limit_per_index,
                                           "requires indexed completion mode"))
        if spec.max_failed_indexes is not None:
            errs.append(FieldError.invalid(f"{path}.maxFailedIndexes", spec.max_failed_indexes,
                                           "requires indexed completion mode"))
    if spec.pod_failure_policy is not None:
        errs.extend(_validate_pod_failure_policy(spec, f"{path}.podFailurePolicy"))
    if spec.success_policy is not None:
        if (mode or CompletionMode.NON_INDEXED) != CompletionMode.INDEXED:
            errs.append(FieldError.invalid(f"{path}.successPolicy", go_struct(spec.success_policy),
                                           "requires indexed completion mode"))
        else:
            errs.extend(_validate_success_policy(spec, f"{path}.successPolicy"))
    errs.extend(_validate_pod_replacement_policy(spec, f"{path}.podReplacementPolicy"))
    errs.extend(validate_pod_template_spec(spec.template, f"{path}.template"))
    restart = spec.template.spec.restart_policy or ""
    rp_path = f"{path}.template.spec.restartPolicy"
    # An unset restartPolicy is defaulted to Always, so both count as "not chosen".
    if restart in ("Always", ""):
        errs.append(FieldError.required(rp_path, 'valid values: "OnFailure", "Never"'))
    elif restart not in ("OnFailure", "Never"):
        errs.append(FieldError.not_supported(rp_path, restart, ["OnFailure", "Never"]))
    elif spec.pod_failure_policy is not None and restart != "Never":
        errs.append(FieldError.invalid(rp_path, restart, 'only "Never" is supported when podFailurePolicy is specified'))
    return errs


def _validate_indexed_limits(spec: JobSpec, path: str) -> list[FieldError]:
    errs: list[FieldError] = []
    if spec.completions is None:
        errs.append(FieldError.required(f"{path}.completions", "when completion mode is Indexed"))
    if spec.parallelism is not None and spec.parallelism > MAX_PARALLELISM_FOR_INDEXED_JOB:
        errs.append(FieldError.invalid(f"{path}.parallelism", spec.parallelism,
                                       f"must be less than or equal to {MAX_PARALLELISM_FOR_INDEXED_JOB} when completion "
                                       "mode is Indexed"))
    if spec.completions is not None and spec.max_failed_indexes is not None and spec.max_failed_indexes > spec.completions:
        errs.append(FieldError.invalid(f"{path}.maxFailedIndexes", spec.max_failed_indexes,
                                       "must be less than or equal to completions"))
    if spec.max_failed_indexes is not None and spec.max_failed_indexes > MAX_FAILED_INDEXES_FOR_INDEXED_JOB:
        errs.append(FieldError.invalid(f"{path}.maxFailedIndexes", spec.max_failed_indexes,
                                       f"must be less than or equal to {MAX_FAILED_INDEXES_FOR_INDEXED_JOB}"))
    if spec.completions is not None and spec.completions > COMPLETIONS_SOFT_LIMIT and spec.backoff_limit_per_index is not None:
        suffix = (f"when completions are above {COMPLETIONS_SOFT_LIMIT} and used with backoff limit per index")
        if spec.max_failed_indexes is None:
            errs.append(FieldError.required(f"{path}.maxFailedIndexes",
                                            f"must be specified when completions is above {COMPLETIONS_SOFT_LIMIT}"))
        if spec.parallelism is not None and spec.parallelism > PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS:
            errs.append(FieldError.invalid(f"{path}.parallelism", spec.parallelism,
                                           f"must be less than or equal to {PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS} {suffix}"))
        if spec.max_failed_indexes is not None and spec.max_failed_indexes > MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS:
            errs.append(FieldError.invalid(f"{path}.maxFailedIndexes", spec.max_failed_indexes,
                                           f"must be less than or equal to {MAX_FAILED_INDEXES_LIMIT_FOR_HIGH_COMPLETIONS} "
                                           f"{suffix}"))
    return errs


def _validate_pod_failure_policy(spec: JobSpec, path: str) -> list[FieldError]:
    errs: list[FieldError] = []
    rules = spec.pod_failure_policy.rules
    rules_path = f"{path}.rules"
    if len(rules) > MAX_POD_FAILURE_POLICY_RULES:
        errs.append(FieldError.too_many(rules_path, len(rules), MAX_POD_FAILURE_POLICY_RULES))
    names = {c.name for c in spec.template.spec.containers} | {c.name for c in spec.template.spec.init_containers or ()}
    for i, rule in enumerate(rules):
        rule_path = f"{rules_path}[{i}]"
        action_path = f"{rule_path}.action"
        if rule.action == "":
            errs.append(FieldError.required(action_path, f"valid values: {_go_quote_list(_ACTIONS)}"))
        elif rule.action == PodFailurePolicyAction.FAIL_INDEX:
            if spec.backoff_limit_per_index is None:
                errs.append(FieldError.invalid(action_path, rule.action, "requires the backoffLimitPerIndex to be set"))
        elif rule.action not in _ACTIONS:
            errs.append(FieldError.not_supported(action_path, rule.action, _ACTIONS))
        if rule.on_exit_codes is not None:
            errs.extend(_validate_on_exit_codes(rule.on_exit_codes, f"{rule_path}.onExitCodes", names))
        if rule.on_pod_conditions:
            errs.extend(_validate_on_pod_conditions(rule.on_pod_conditions, f"{rule_path}.onPodConditions"))
        if rule.on_exit_codes is not None and rule.on_pod_conditions:
            errs.append(_invalid_omit(rule_path, "specifying both OnExitCodes and OnPodConditions is not supported"))
        if rule.on_exit_codes is None and not rule.on_pod_conditions:
            errs.append(_invalid_omit(rule_path, "specifying one of OnExitCodes and OnPodConditions is required"))
    return errs


def _validate_on_pod_conditions(patterns: tuple, path: str) -> list[FieldError]:
    errs: list[FieldError] = []
    if len(patterns) > MAX_POD_FAILURE_POLICY_ON_POD_CONDITIONS_PATTERNS:
        errs.append(FieldError.too_many(path, len(patterns), MAX_POD_FAILURE_POLICY_ON_POD_CONDITIONS_PATTERNS))
    for j, pattern in enumerate(patterns):
        p = f"{path}[{j}]"
        errs.extend(FieldError.invalid(f"{p}.type", pattern.type, m) for m in is_qualified_name(pattern.type))
        if pattern.status == "":
            errs.append(FieldError.required(f"{p}.status", f"valid values: {_go_quote_list(_CONDITION_STATUSES)}"))
        elif pattern.status not in _CONDITION_STATUSES:
            errs.append(FieldError.not_supported(f"{p}.status", pattern.status, _CONDITION_STATUSES))
    return errs


def _validate_on_exit_codes(req: Any, path: str, container_names: set[str]) -> list[FieldError]:
    errs: list[FieldError] = []
    op_path = f"{path}.operator"
    if req.operator == "":
        errs.append(FieldError.required(op_path, f"valid values: {_go_quote_list(_EXIT_CODE_OPERATORS)}"))
    elif req.operator not in _EXIT_CODE_OPERATORS:
        errs.append(FieldError.not_supported(op_path, req.operator, _EXIT_CODE_OPERATORS))
    if req.container_name is not None and req.container_name not in container_names:
        errs.append(FieldError.invalid(f"{path}.containerName", req.container_name,
                                       "must be one of the container or initContainer names in the pod template"))
    values_path = f"{path}.values"
    values = req.values
    if not values:
        errs.append(FieldError.invalid(values_path, go_int32_slice(values), "at least one value is required"))
    elif len(values) > MAX_POD_FAILURE_POLICY_ON_EXIT_CODES_VALUES:
        errs.append(FieldError.too_many(values_path, len(values), MAX_POD_FAILURE_POLICY_ON_EXIT_CODES_VALUES))
    ordered = True
    seen: set[int] = set()
    for j, value in enumerate(values):
        p = f"{values_path}[{j}]"
        if req.operator == "In" and value == 0:
            errs.append(FieldError.invalid(p, value, "must not be 0 for the In operator"))
        if value in seen:
            errs.append(FieldError.duplicate(p, value))
        else:
            seen.add(value)
        if j > 0 and values[j - 1] > value:
            ordered = False
    if not ordered:
        errs.append(FieldError.invalid(values_path, go_int32_slice(values), "must be ordered"))
    return errs


def _validate_pod_replacement_policy(spec: JobSpec, path: str) -> list[FieldError]:
    policy = spec.pod_replacement_policy
    if policy is None:
        return []
    if spec.pod_failure_policy is not None:
        if policy != PodReplacementPolicy.FAILED:
            return [FieldError.not_supported(path, policy, [PodReplacementPolicy.FAILED])]
        return []
    if policy not in _REPLACEMENT_POLICIES:
        return [FieldError.not_supported(path, policy, _REPLACEMENT_POLICIES)]
    return []


def _validate_success_policy(spec: JobSpec, path: str) -> list[FieldError]:
    errs: list[FieldError] = []
    rules = spec.success_policy.rules
    rules_path = f"{path}.rules"
    if not rules:
        errs.append(FieldError.required(rules_path, "at least one rules must be specified when the successPolicy is "
                                                    "specified"))
    if len(rules) > MAX_SUCCESS_POLICY_RULES:
        errs.append(FieldError.too_many(rules_path, len(rules), MAX_SUCCESS_POLICY_RULES))
    for i, rule in enumerate(rules):
        errs.extend(_validate_success_policy_rule(spec, rule, f"{rules_path}[{i}]"))
    return errs


def _validate_success_policy_rule(spec: JobSpec, rule: Any, path: str) -> list[FieldError]:
    errs: list[FieldError] = []
    if rule.succeeded_count is None and rule.succeeded_indexes is None:
        errs.append(FieldError.required(path, "at least one of succeededCount or succeededIndexes must be specified"))
    # Upstream dereferences completions here; an Indexed Job without completions has
    # already been reported (spec.completions: Required value), so skip what needs it.
    completions = spec.completions
    total = 0
    if rule.succeeded_indexes is not None:
        p = f"{path}.succeededIndexes"
        if len(rule.succeeded_indexes) > MAX_SUCCESS_POLICY_SUCCEEDED_INDEXES_LENGTH:
            errs.append(FieldError.too_long(p, MAX_SUCCESS_POLICY_SUCCEEDED_INDEXES_LENGTH))
        if completions is not None:
            try:
                total = validate_indexes_format(rule.succeeded_indexes, completions)
            except ValueError as exc:
                total = 0
                errs.append(FieldError.invalid(p, rule.succeeded_indexes, f"error parsing succeededIndexes: {exc}"))
    if rule.succeeded_count is not None:
        p = f"{path}.succeededCount"
        errs.extend(validate_nonnegative(rule.succeeded_count, p))
        if completions is not None and rule.succeeded_count > completions:
            errs.append(FieldError.invalid(p, rule.succeeded_count,
                                           f"must be less than or equal to {completions} (the number of specified "
                                           "completions)"))
        if completions is not None and rule.succeeded_indexes is not None and rule.succeeded_count > total:
            errs.append(FieldError.invalid(p, rule.succeeded_count,
                                           f"must be less than or equal to {total} (the number of indexes in the "
                                           "specified succeededIndexes field)"))
    return errs


# ----------------------------------------------------------------------------- pod template


def validate_pod_template_spec(template: PodTemplateSpec, path: str) -> list[FieldError]:
    """ValidatePodTemplateSpec for a Job's template.

    Covered: template labels (reported at ``<path>.labels``, as upstream) and annotations
    (incl. the pod-deletion-cost and mirror-pod annotations); volumes (names, one source
    each, the common sources' required fields, modes and paths); containers and init
    containers (required, names DNS-1123 labels and unique across both lists, image,
    terminationMessagePolicy, imagePullPolicy, ports, env and envFrom, volumeMounts,
    resources, probes and lifecycle handlers, container restartPolicy, sidecar rules);
    ephemeral containers (forbidden); host ports; hostNetwork ports; pod restartPolicy,
    dnsPolicy and dnsConfig; nodeSelector; serviceAccountName; nodeName;
    activeDeadlineSeconds; hostname; subdomain; tolerations; priorityClassName;
    preemptionPolicy; affinity; readinessGates; schedulingGates; topology spread
    constraints (skew, key, action); security-context user and group IDs and the
    privileged / allowPrivilegeEscalation contradiction. Not covered (accepted as long
    as the schema accepts the fields): the rest of the security contexts (capabilities,
    seccomp, AppArmor, SELinux, sysctls), resource claims, pod-level resources, OS-specific
    rules, host aliases, and the finer volume-source checks (iSCSI, RBD, ...).
    """
    errs = validate_labels(template.metadata.labels, f"{path}.labels")
    errs.extend(validate_annotations(template.metadata.annotations, f"{path}.annotations"))
    errs.extend(_validate_pod_specific_annotations(template.metadata.annotations, template.spec, f"{path}.annotations"))
    errs.extend(validate_pod_spec(template.spec, f"{path}.spec"))
    if template.spec.extra.get("ephemeralContainers"):
        errs.append(FieldError.forbidden(f"{path}.spec.ephemeralContainers",
                                         "ephemeral containers not allowed in pod template"))
    return errs


def _valid_deletion_cost(value: str) -> bool:
    if not value or not (value[0] == "-" or value == "0" or "1" <= value[0] <= "9"):
        return False
    if not re.fullmatch(r"-?[0-9]+", value):
        return False
    return -(2**31) <= int(value) <= 2**31 - 1


def _validate_pod_specific_annotations(annotations: dict[str, str], spec: PodSpec, path: str) -> list[FieldError]:
    errs: list[FieldError] = []
    mirror = "kubernetes.io/config.mirror"
    if mirror in annotations and not spec.node_name:
        errs.append(FieldError.invalid(f"{path}[{mirror}]", annotations[mirror],
                                       "must set spec.nodeName if mirror pod annotation is set"))
    if POD_DELETION_COST_ANNOTATION in annotations and not _valid_deletion_cost(annotations[POD_DELETION_COST_ANNOTATION]):
        errs.append(FieldError.invalid(f"{path}[{POD_DELETION_COST_ANNOTATION}]",
                                       annotations[POD_DELETION_COST_ANNOTATION], "must be a 32bit integer"))
    return errs


def _dicts(value: Any) -> list[tuple[int, dict[str, Any]]]:
    if not isinstance(value, list):
        return []
    return [(i, v) for i, v in enumerate(value) if isinstance(v, dict)]


def _str(doc: dict[str, Any], key: str) -> str:
    v = doc.get(key)
    return v if isinstance(v, str) else ""


def validate_pod_spec(spec: PodSpec, path: str) -> list[FieldError]:
    """The part of ValidatePodSpec listed in :func:`validate_pod_template_spec`."""
    # The answer depends on the spec and the path only. A CronJob's Jobs (and the Jobs of one
    # manifest) carry the very same defaulted pod spec object (see defaults.set_defaults_pod_spec):
    # it is validated once, and found again by identity (the entry keeps the object alive).
    key = (id(spec), path)
    known = _POD_SPEC_ERRORS.get(key)
    if known is not None and known[0] is spec:
        return list(known[1])
    errs = _pod_spec_errors(spec, path)
    if len(_POD_SPEC_ERRORS) >= _IDENTITY_MEMO_SIZE:
        _POD_SPEC_ERRORS.clear()
    _POD_SPEC_ERRORS[key] = (spec, tuple(errs))
    return errs


_IDENTITY_MEMO_SIZE = 256
_POD_SPEC_ERRORS: dict[tuple[int, str], tuple[PodSpec, tuple[FieldError, ...]]] = {}


def _pod_spec_errors(spec: PodSpec, path: str) -> list[FieldError]:
    errs: list[FieldError] = []
    extra = spec.extra
    if spec.termination_grace_period_seconds is None:
        errs.append(FieldError.required(f"{path}.terminationGracePeriodSeconds"))
    grace = spec.termination_grace_period_seconds
    volumes, vol_errs = _validate_volumes(extra.get("volumes"), f"{path}.volumes")
    errs.extend(vol_errs)
    restart = spec.restart_policy or ""
    errs.extend(_validate_containers(spec.containers, volumes, grace, f"{path}.containers", restart))
    errs.extend(_validate_init_containers(spec.init_containers or (), spec.containers, volumes, grace,
                                          f"{path}.initContainers", restart))
    errs.extend(_validate_host_network_ports(spec, path))
    if restart not in ("Always", "OnFailure", "Never"):
        if restart == "":
            errs.append(FieldError.required(f"{path}.restartPolicy"))
        else:
            errs.append(FieldError.not_supported(f"{path}.restartPolicy", restart, ["Always", "OnFailure", "Never"]))
    dns_policy = extra.get("dnsPolicy") or ""
    dns_policies = ["ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"]
    if dns_policy == "":
        errs.append(FieldError.required(f"{path}.dnsPolicy"))
    elif dns_policy not in dns_policies:
        errs.append(FieldError.not_supported(f"{path}.dnsPolicy", dns_policy, dns_policies))
    errs.extend(validate_labels(spec.node_selector or {}, f"{path}.nodeSelector"))
    errs.extend(_validate_security_context_ids(extra.get("securityContext"), f"{path}.securityContext", pod=True))
    errs.extend(_validate_affinity(spec.affinity, f"{path}.affinity"))
    errs.extend(_validate_dns_config(extra.get("dnsConfig"), dns_policy, f"{path}.dnsConfig"))
    for i, gate in _dicts(extra.get("readinessGates")):
        p = f"{path}.readinessGates[{i}].conditionType"
        errs.extend(FieldError.invalid(p, _str(gate, "conditionType"), m) for m in is_qualified_name(_str(gate, "conditionType")))
    seen_gates: set[str] = set()
    for i, gate in enumerate(spec.scheduling_gates or ()):
        name = gate.get("name") if isinstance(gate, dict) else ""
        name = name if isinstance(name, str) else ""
        errs.extend(FieldError.invalid(f"{path}.schedulingGates[{i}]", name, m) for m in is_qualified_name(name))
        if name in seen_gates:
            errs.append(FieldError.duplicate(f"{path}.schedulingGates[{i}]", name))
        seen_gates.add(name)
    sa = _str(extra, "serviceAccountName")
    if sa:
        errs.extend(FieldError.invalid(f"{path}.serviceAccountName", sa, m) for m in is_dns1123_subdomain(sa))
    if spec.node_name:
        errs.extend(FieldError.invalid(f"{path}.nodeName", spec.node_name, m) for m in is_dns1123_subdomain(spec.node_name))
    if spec.active_deadline_seconds is not None and not 1 <= spec.active_deadline_seconds <= 2**31 - 1:
        errs.append(FieldError.invalid(f"{path}.activeDeadlineSeconds", spec.active_deadline_seconds,
                                       inclusive_range_error(1, 2**31 - 1)))
    if spec.hostname:
        errs.extend(FieldError.invalid(f"{path}.hostname", spec.hostname, m) for m in is_dns1123_label(spec.hostname))
    if spec.subdomain:
        errs.extend(FieldError.invalid(f"{path}.subdomain", spec.subdomain, m) for m in is_dns1123_label(spec.subdomain))
    if spec.tolerations:
        errs.extend(_validate_tolerations(spec.tolerations, f"{path}.tolerations"))
    errs.extend(_validate_topology_spread(extra.get("topologySpreadConstraints"), f"{path}.topologySpreadConstraints"))
    pcn = _str(extra, "priorityClassName")
    if pcn:
        errs.extend(FieldError.invalid(f"{path}.priorityClassName", pcn, m) for m in is_dns1123_subdomain(pcn))
    preemption = extra.get("preemptionPolicy")
    if isinstance(preemption, str):
        if preemption == "":
            errs.append(FieldError.required(f"{path}.preemptionPolicy"))
        elif preemption not in ("PreemptLowerPriority", "Never"):
            errs.append(FieldError.not_supported(f"{path}.preemptionPolicy", preemption, ["PreemptLowerPriority", "Never"]))
    return errs


# -- volumes

_VOLUME_SOURCE_ORDER = (
    ("emptyDir", "emptyDir"), ("hostPath", "hostPath"), ("gitRepo", "gitRepo"),
    ("gcePersistentDisk", "gcePersistentDisk"), ("awsElasticBlockStore", "awsElasticBlockStore"),
    ("secret", "secret"), ("nfs", "nfs"), ("iscsi", "iscsi"), ("glusterfs", "glusterfs"), ("flocker", "flocker"),
    ("persistentVolumeClaim", "persistentVolumeClaim"), ("rbd", "rbd"), ("cinder", "cinder"), ("cephfs", "cephFS"),
    ("quobyte", "quobyte"), ("downwardAPI", "downwarAPI"), ("fc", "fc"), ("flexVolume", "flexVolume"),
    ("configMap", "configMap"), ("azureFile", "azureFile"), ("vsphereVolume", "vsphereVolume"),
    ("photonPersistentDisk", "photonPersistentDisk"), ("portworxVolume", "portworxVolume"), ("azureDisk", "azureDisk"),
    ("storageos", "storageos"), ("projected", "projected"), ("scaleIO", "scaleIO"), ("csi", "csi"),
    ("ephemeral", "ephemeral"), ("image", "image"),
)
_FILE_MODE_ERROR = "must be a number between 0 and 0777 (octal), both inclusive"
_HOST_PATH_TYPES = ["", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"]


def _path_no_backsteps(target: str, path: str) -> list[FieldError]:
    if ".." in target.split("/"):
        return [FieldError.invalid(path, target, "must not contain '..'")]
    return []


def _local_descending_path(target: str, path: str) -> list[FieldError]:
    errs = []
    if posixpath.isabs(target):
        errs.append(FieldError.invalid(path, target, "must be a relative path"))
    return errs + _path_no_backsteps(target, path)


def _local_non_reserved_path(target: str, path: str) -> list[FieldError]:
    errs = _local_descending_path(target, path)
    if target.startswith(".."):
        errs.append(FieldError.invalid(path, target, "must not start with '..'"))
    return errs


def _validate_mode(doc: dict[str, Any], key: str, path: str) -> list[FieldError]:
    mode = doc.get(key)
    if isinstance(mode, int) and not isinstance(mode, bool) and not 0 <= mode <= 0o777:
        return [FieldError.invalid(f"{path}.{key}", mode, _FILE_MODE_ERROR)]
    return []


def _validate_key_to_paths(items: Any, path: str) -> list[FieldError]:
    errs: list[FieldError] = []
    for i, item in _dicts(items):
        p = f"{path}[{i}]"
        if not _str(item, "key"):
            errs.append(FieldError.required(f"{p}.key"))
        if not _str(item, "path"):
            errs.append(FieldError.required(f"{p}.path"))
        errs.extend(_local_non_reserved_path(_str(item, "path"), f"{p}.path"))
        errs.extend(_validate_mode(item, "mode", p))
    return errs


def _validate_volume_source(vol: dict[str, Any], path: str) -> list[FieldError]:
    errs: list[FieldError] = []
    count = 0
    for key, label in _VOLUME_SOURCE_ORDER:
        src = vol.get(key)
        if src is None:
            continue
        if count > 0 and key != "emptyDir":
            errs.append(FieldError.forbidden(f"{path}.{label}", "may not specify more than 1 volume type"))
            continue
        count += 1
        if not isinstance(src, dict):
            continue
        p = f"{path}.{key}"
        if key == "emptyDir":
            size = src.get("sizeLimit")
            if size is not None:
                try:
                    negative = schema.parse_quantity(size) < 0
                except ValueError:
                    negative = False
                if negative:
                    errs.append(FieldError.forbidden(f"{p}.sizeLimit", "SizeLimit field must be a valid resource quantity"))
        elif key == "hostPath":
            if not _str(src, "path"):
                errs.append(FieldError.required(f"{p}.path"))
            else:
                errs.extend(_path_no_backsteps(_str(src, "path"), f"{p}.path"))
                kind = src.get("type")
                if isinstance(kind, str) and kind not in _HOST_PATH_TYPES:
                    errs.append(FieldError.not_supported(f"{p}.type", kind, _HOST_PATH_TYPES))
        elif key == "secret":
            if not _str(src, "secretName"):
                errs.append(FieldError.required(f"{p}.secretName"))
            errs.extend(_validate_mode(src, "defaultMode", p))
            errs.extend(_validate_key_to_paths(src.get("items"), f"{p}.items"))
        elif key == "configMap":
            if not _str(src, "name"):
                errs.append(FieldError.required(f"{p}.name"))
            errs.extend(_validate_mode(src, "defaultMode", p))
            errs.extend(_validate_key_to_paths(src.get("items"), f"{p}.items"))
        elif key == "persistentVolumeClaim":
            if not _str(src, "claimName"):
                errs.append(FieldError.required(f"{p}.claimName"))
        elif key == "nfs":
            if not _str(src, "server"):
                errs.append(FieldError.required(f"{p}.server"))
            if not _str(src, "path"):
                errs.append(FieldError.required(f"{p}.path"))
            if not posixpath.isabs(_str(src, "path")):
                errs.append(FieldError.invalid(f"{p}.path", _str(src, "path"), "must be an absolute path"))
        elif key == "gitRepo":
            if not _str(src, "repository"):
                errs.append(FieldError.required(f"{p}.repository"))
            errs.extend(_local_descending_path(_str(src, "directory"), f"{p}.directory"))
        elif key == "csi":
            if not _str(src, "driver"):
                errs.append(FieldError.required(f"{p}.driver"))
        elif key in ("downwardAPI", "projected"):
            errs.extend(_validate_mode(src, "defaultMode", p))
    if count == 0:
        errs.append(FieldError.required(path, "must specify a volume type"))
    return errs


def _validate_volumes(volumes: Any, path: str) -> tuple[dict[str, dict[str, Any]], list[FieldError]]:
    errs: list[FieldError] = []
    names: set[str] = set()
    found: dict[str, dict[str, Any]] = {}
    for i, vol in _dicts(volumes):
        p = f"{path}[{i}]"
        name = _str(vol, "name")
        el = _validate_volume_source(vol, p)
        if not name:
            el.append(FieldError.required(f"{p}.name"))
        else:
            el.extend(FieldError.invalid(f"{p}.name", name, m) for m in is_dns1123_label(name))
        if name in names:
            el.append(FieldError.duplicate(f"{p}.name", name))
        if not el:
            names.add(name)
            found[name] = vol
        else:
            errs.extend(el)
    return found, errs


# -- containers

_PULL_POLICIES = ["Always", "IfNotPresent", "Never"]
_PROTOCOLS = ["SCTP", "TCP", "UDP"]
_ENV_FIELD_PATHS = sorted(["metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName",
                           "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"])
_DOWNWARD_LABELS = {"metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid",
                    "spec.nodeName", "spec.restartPolicy", "spec.serviceAccountName", "spec.schedulerName",
                    "status.phase", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"}
_RESOURCE_FIELD_PATHS = sorted(["limits.cpu", "limits.memory", "limits.ephemeral-storage", "requests.cpu",
                                "requests.memory", "requests.ephemeral-storage"])
_CONTAINER_RESTART_POLICIES = ["Always", "Never", "OnFailure"]


def _validate_containers(containers: tuple[Container, ...], volumes: dict, grace: int | None, path: str,
                         pod_restart: str) -> list[FieldError]:
    if not containers:
        return [FieldError.required(path)]
    errs: list[FieldError] = []
    names: set[str] = set()
    for i, ctr in enumerate(containers):
        p = f"{path}[{i}]"
        errs.extend(_validate_container_common(ctr, volumes, p, pod_restart))
        if ctr.name in names:
            errs.append(FieldError.duplicate(f"{p}.name", ctr.name))
        else:
            names.add(ctr.name)
        errs.extend(_validate_lifecycle_and_probes(ctr, grace, p))
        errs.extend(_validate_container_restart_policy(ctr, p))
    errs.extend(_host_port_conflicts(containers, path))
    return errs


def _validate_init_containers(containers: tuple[Container, ...], regular: tuple[Container, ...], volumes: dict,
                              grace: int | None, path: str, pod_restart: str) -> list[FieldError]:
    errs: list[FieldError] = []
    names = {c.name for c in regular}
    for i, ctr in enumerate(containers):
        p = f"{path}[{i}]"
        errs.extend(_validate_container_common(ctr, volumes, p, pod_restart))
        sidecar = ctr.restart_policy == "Always"
        rules = ctr.extra.get("restartPolicyRules")
        if ctr.restart_policy is None:
            if rules:
                errs.append(FieldError.required(f"{p}.restartPolicy", "must specify restartPolicy when restart rules are used"))
        elif sidecar:
            if rules:
                errs.append(FieldError.forbidden(f"{p}.restartPolicyRules",
                                                 "restartPolicyRules are not allowed for init containers with restart "
                                                 "policy Always"))
        else:
            errs.extend(_validate_container_restart_policy(ctr, p))
        if ctr.name in names:
            errs.append(FieldError.duplicate(f"{p}.name", ctr.name))
        elif ctr.name:
            names.add(ctr.name)
        errs.extend(_host_port_conflicts((ctr,), path))
        if sidecar:
            errs.extend(_validate_lifecycle_and_probes(ctr, grace, p))
        else:
            for key in ("lifecycle", "livenessProbe", "readinessProbe", "startupProbe"):
                if ctr.extra.get(key) is not None:
                    errs.append(FieldError.forbidden(f"{p}.{key}",
                                                     "may not be set for init containers without restartPolicy=Always"))
    return errs


def _validate_container_restart_policy(ctr: Container, path: str) -> list[FieldError]:
    # ContainerRestartRules is beta and on by default in 1.35.
    errs: list[FieldError] = []
    rules = ctr.extra.get("restartPolicyRules")
    if ctr.restart_policy is None:
        if rules:
            errs.append(FieldError.required(f"{path}.restartPolicy", "must specify restartPolicy when restart rules are used"))
    elif ctr.restart_policy not in _CONTAINER_RESTART_POLICIES:
        errs.append(FieldError.not_supported(f"{path}.restartPolicy", ctr.restart_policy, _CONTAINER_RESTART_POLICIES))
    if isinstance(rules, list):
        if len(rules) > 20:
            errs.append(FieldError.too_many(f"{path}.restartPolicyRules", len(rules), 20))
        for i, rule in _dicts(rules):
            p = f"{path}.restartPolicyRules[{i}]"
            if rule.get("action") != "Restart":
                errs.append(FieldError.not_supported(f"{p}.action", _str(rule, "action"), ["Restart"]))
            codes = rule.get("exitCodes")
            if isinstance(codes, dict):
                if codes.get("operator") not in ("In", "NotIn"):
                    errs.append(FieldError.not_supported(f"{p}.exitCodes.operator", _str(codes, "operator"), ["In", "NotIn"]))
                values = codes.get("values")
                if isinstance(values, list) and len(values) > 255:
                    errs.append(FieldError.too_many(f"{p}.exitCodes.values", len(values), 255))
            else:
                errs.append(FieldError.required(f"{p}.exitCodes", "must be specified"))
    return errs


def _validate_container_common(ctr: Container, volumes: dict, path: str, pod_restart: str) -> list[FieldError]:
    errs: list[FieldError] = []
    extra = ctr.extra
    if not ctr.name:
        errs.append(FieldError.required(f"{path}.name"))
    else:
        errs.extend(FieldError.invalid(f"{path}.name", ctr.name, m) for m in is_dns1123_label(ctr.name))
    if not ctr.image:
        errs.append(FieldError.required(f"{path}.image"))
    tmp = extra.get("terminationMessagePolicy") or ""
    if tmp == "":
        errs.append(FieldError.required(f"{path}.terminationMessagePolicy"))
    elif tmp not in ("File", "FallbackToLogsOnError"):
        errs.append(FieldError.not_supported(f"{path}.terminationMessagePolicy", tmp, ["File", "FallbackToLogsOnError"]))
    errs.extend(_validate_ports(extra.get("ports"), f"{path}.ports"))
    errs.extend(_validate_env(ctr, f"{path}.env"))
    errs.extend(_validate_env_from(extra.get("envFrom"), f"{path}.envFrom"))
    errs.extend(_validate_volume_mounts(extra.get("volumeMounts"), volumes, f"{path}.volumeMounts"))
    pull = extra.get("imagePullPolicy") or ""
    if pull == "":
        errs.append(FieldError.required(f"{path}.imagePullPolicy"))
    elif pull not in _PULL_POLICIES:
        errs.append(FieldError.not_supported(f"{path}.imagePullPolicy", pull, _PULL_POLICIES))
    errs.extend(validate_resource_requirements(extra.get("resources"), f"{path}.resources"))
    errs.extend(_validate_security_context_ids(extra.get("securityContext"), f"{path}.securityContext", pod=False))
    return errs


def _validate_security_context_ids(sc: Any, path: str, pod: bool) -> list[FieldError]:
    """The user and group ID ranges of a pod or container securityContext, and the
    privileged / allowPrivilegeEscalation contradiction of a container."""
    if not isinstance(sc, dict):
        return []
    errs: list[FieldError] = []
    keys = ("fsGroup", "runAsUser", "runAsGroup") if pod else ("runAsUser", "runAsGroup")
    for key in keys:
        value = sc.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and not 0 <= value <= 2**31 - 1:
            errs.append(FieldError.invalid(f"{path}.{key}", value, inclusive_range_error(0, 2**31 - 1)))
    if pod and isinstance(sc.get("supplementalGroups"), list):
        for i, gid in enumerate(sc["supplementalGroups"]):
            if isinstance(gid, int) and not isinstance(gid, bool) and not 0 <= gid <= 2**31 - 1:
                errs.append(FieldError.invalid(f"{path}.supplementalGroups[{i}]", gid, inclusive_range_error(0, 2**31 - 1)))
    if not pod and sc.get("allowPrivilegeEscalation") is False:
        if sc.get("privileged") is True:
            errs.append(FieldError.invalid(path, go_struct(sc),
                                           "cannot set `allowPrivilegeEscalation` to false and `privileged` to true"))
        caps = sc.get("capabilities")
        if isinstance(caps, dict) and "CAP_SYS_ADMIN" in (caps.get("add") or []):
            errs.append(FieldError.invalid(path, go_struct(sc),
                                           "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` "
                                           "CAP_SYS_ADMIN"))
    return errs


def _validate_topology_spread(constraints: Any, path: str) -> list[FieldError]:
    errs: list[FieldError] = []
    for i, c in _dicts(constraints):
        p = f"{path}[{i}]"
        skew = c.get("maxSkew") or 0
        if isinstance(skew, int) and skew <= 0:
            errs.append(FieldError.invalid(f"{p}.maxSkew", skew, "must be greater than zero"))
        if not _str(c, "topologyKey"):
            errs.append(FieldError.required(f"{p}.topologyKey", "can not be empty"))
        else:
            errs.extend(FieldError.invalid(f"{p}.topologyKey", _str(c, "topologyKey"), m)
                        for m in is_qualified_name(_str(c, "topologyKey")))
        action = _str(c, "whenUnsatisfiable")
        if action not in ("DoNotSchedule", "ScheduleAnyway"):
            errs.append(FieldError.not_supported(f"{p}.whenUnsatisfiable", action, ["DoNotSchedule", "ScheduleAnyway"]))
    return errs


def _validate_ports(ports: Any, path: str) -> list[FieldError]:
    errs: list[FieldError] = []
    names: set[str] = set()
    for i, port in _dicts(ports):
        p = f"{path}[{i}]"
        name = _str(port, "name")
        if name:
            msgs = is_valid_port_name(name)
            if msgs:
                errs.extend(FieldError.invalid(f"{p}.name", name, m) for m in msgs)
            elif name in names:
                errs.append(FieldError.duplicate(f"{p}.name", name))
            else:
                names.add(name)
        cport = port.get("containerPort") or 0
        if cport == 0:
            errs.append(FieldError.required(f"{p}.containerPort"))
        else:
            errs.extend(FieldError.invalid(f"{p}.containerPort", cport, m) for m in is_valid_port_num(int(cport)))
        hport = port.get("hostPort") or 0
        if hport:
            errs.extend(FieldError.invalid(f"{p}.hostPort", hport, m) for m in is_valid_port_num(int(hport)))
        protocol = _str(port, "protocol")
        if not protocol:
            errs.append(FieldError.required(f"{p}.protocol"))
        elif protocol not in _PROTOCOLS:
            errs.append(FieldError.not_supported(f"{p}.protocol", protocol, _PROTOCOLS))
    return errs


def _host_port_conflicts(containers: tuple[Container, ...], path: str) -> list[FieldError]:
    errs: list[FieldError] = []
    seen: set[str] = set()
    for ci, ctr in enumerate(containers):
        for pi, port in _dicts(ctr.extra.get("ports")):
            hport = port.get("hostPort") or 0
            if not hport:
                continue
            key = f"{_str(port, 'protocol')}/{_str(port, 'hostIP')}/{hport}"
            if key in seen:
                errs.append(FieldError.duplicate(f"{path}[{ci}].ports[{pi}].hostPort", key))
            else:
                seen.add(key)
    return errs


def _validate_host_network_ports(spec: PodSpec, path: str) -> list[FieldError]:
    errs: list[FieldError] = []
    if spec.extra.get("hostNetwork") is not True:
        return errs
    for i, ctr in enumerate(spec.containers):
        for j, port in _dicts(ctr.extra.get("ports")):
            hport, cport = port.get("hostPort") or 0, port.get("containerPort") or 0
            # In a template an unset hostPort is allowed (it is defaulted on the pod).
            if hport != 0 and hport != cport:
                errs.append(FieldError.invalid(f"{path}.containers[{i}].ports[{j}].hostPort", hport,
                                               "must match `containerPort` when `hostNetwork` is true"))
    return errs


def _validate_env(ctr: Container, path: str) -> list[FieldError]:
    errs: list[FieldError] = []
    for i, ev in enumerate(ctr.env or ()):
        p = f"{path}[{i}]"
        if not ev.name:
            errs.append(FieldError.required(f"{p}.name"))
        else:
            errs.extend(FieldError.invalid(f"{p}.name", ev.name, m) for m in is_relaxed_env_var_name(ev.name))
        errs.extend(_validate_env_value_from(ev.value or "", ev.value_from, f"{p}.valueFrom"))
    return errs


def _validate_env_value_from(value: str, source: Any, path: str) -> list[FieldError]:
    if not isinstance(source, dict):
        return []
    errs: list[FieldError] = []
    count = 0
    ref = source.get("fieldRef")
    if isinstance(ref, dict):
        count += 1
        errs.extend(_validate_object_field_selector(ref, f"{path}.fieldRef"))
    res = source.get("resourceFieldRef")
    if isinstance(res, dict):
        count += 1
        resource = _str(res, "resource")
        if not resource:
            errs.append(FieldError.required(f"{path}.resourceFieldRef.resource"))
        elif resource not in _RESOURCE_FIELD_PATHS and not resource.startswith(("requests.hugepages-", "limits.hugepages-")):
            errs.append(FieldError.not_supported(f"{path}.resourceFieldRef.resource", resource, _RESOURCE_FIELD_PATHS))
    for key in ("configMapKeyRef", "secretKeyRef"):
        sel = source.get(key)
        if isinstance(sel, dict):
            count += 1
            p = f"{path}.{key}"
            errs.extend(FieldError.invalid(f"{p}.name", _str(sel, "name"), m) for m in is_dns1123_subdomain(_str(sel, "name")))
            if not _str(sel, "key"):
                errs.append(FieldError.required(f"{p}.key"))
            else:
                errs.extend(FieldError.invalid(f"{p}.key", _str(sel, "key"), m) for m in is_config_map_key(_str(sel, "key")))
    sel = source.get("fileKeyRef")
    if isinstance(sel, dict):
        count += 1
        p = f"{path}.fileKeyRef"
        if not _str(sel, "key"):
            errs.append(FieldError.required(f"{p}.key"))
        else:
            errs.extend(FieldError.invalid(f"{p}.key", _str(sel, "key"), m) for m in is_relaxed_env_var_name(_str(sel, "key")))
        if not _str(sel, "volumeName"):
            errs.append(FieldError.required(f"{p}.volumeName"))
        else:
            errs.extend(FieldError.invalid(f"{p}.volumeName", _str(sel, "volumeName"), m)
                        for m in is_dns1123_label(_str(sel, "volumeName")))
        if not _str(sel, "path"):
            errs.append(FieldError.required(f"{p}.path"))
        else:
            errs.extend(_path_no_backsteps(_str(sel, "path"), f"{p}.path"))
    if count == 0:
        errs.append(FieldError.invalid(path, "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` "
                                                 "or `secretKeyRef`"))
    elif value:
        errs.append(FieldError.invalid(path, "", "may not be specified when `value` is not empty"))
    elif count > 1:
        errs.append(FieldError.invalid(path, "", "may not have more than one field specified at a time"))
    return errs


_SUBSCRIPT_RE = re.compile(r"^(metadata\.(?:labels|annotations))\['(.*)'\]$")


def _validate_object_field_selector(ref: dict[str, Any], path: str) -> list[FieldError]:
    api_version, field_path = _str(ref, "apiVersion"), _str(ref, "fieldPath")
    if not api_version:
        return [FieldError.required(f"{path}.apiVersion")]
    if not field_path:
        return [FieldError.required(f"{path}.fieldPath")]
    m = _SUBSCRIPT_RE.match(field_path)
    if api_version != "v1":
        return [FieldError.invalid(f"{path}.fieldPath", field_path,
                                   f"error converting fieldPath: unsupported pod version: {api_version}")]
    if m is None and field_path not in _DOWNWARD_LABELS:
        return [FieldError.invalid(f"{path}.fieldPath", field_path,
                                   f"error converting fieldPath: field label not supported: {field_path}")]
    if m is not None:
        base, key = m.group(1), m.group(2)
        key = key.lower() if base == "metadata.annotations" else key
        return [FieldError.invalid(path, key, msg) for msg in is_qualified_name(key)]
    if field_path not in _ENV_FIELD_PATHS:
        return [FieldError.not_supported(f"{path}.fieldPath", field_path, _ENV_FIELD_PATHS)]
    return []


def _validate_env_from(sources: Any, path: str) -> list[FieldError]:
    errs: list[FieldError] = []
    for i, src in _dicts(sources):
        p = f"{path}[{i}]"
        prefix = _str(src, "prefix")
        if prefix:
            errs.extend(FieldError.invalid(f"{p}.prefix", prefix, m) for m in is_relaxed_env_var_name(prefix))
        count = 0
        for key in ("configMapRef", "secretRef"):
            ref = src.get(key)
            if isinstance(ref, dict):
                count += 1
                name = _str(ref, "name")
                if not name:
                    errs.append(FieldError.required(f"{p}.{key}.name"))
                else:
                    errs.extend(FieldError.invalid(f"{p}.{key}.name", name, m) for m in name_is_dns_subdomain(name, True))
        if count == 0:
            errs.append(FieldError.invalid(path, "", "must specify one of: `configMapRef` or `secretRef`"))
        elif count > 1:
            errs.append(FieldError.invalid(path, "", "may not have more than one field specified at a time"))
    return errs


def _validate_volume_mounts(mounts: Any, volumes: dict, path: str) -> list[FieldError]:
    errs: list[FieldError] = []
    mount_points: set[str] = set()
    for i, mnt in _dicts(mounts):
        p = f"{path}[{i}]"
        name, mount_path = _str(mnt, "name"), _str(mnt, "mountPath")
        if not name:
            errs.append(FieldError.required(f"{p}.name"))
        if name not in volumes:
            errs.append(_not_found(f"{p}.name", name))
        if not mount_path:
            errs.append(FieldError.required(f"{p}.mountPath"))
        if mount_path in mount_points:
            errs.append(FieldError.invalid(f"{p}.mountPath", mount_path, "must be unique"))
        mount_points.add(mount_path)
        sub_path, sub_expr = _str(mnt, "subPath"), _str(mnt, "subPathExpr")
        if sub_path:
            errs.extend(_local_descending_path(sub_path, f"{path}.subPath"))
        if sub_expr:
            if sub_path:
                errs.append(FieldError.invalid(f"{p}.subPathExpr", sub_expr, "subPathExpr and subPath are mutually exclusive"))
            errs.extend(_local_descending_path(sub_expr, f"{path}.subPathExpr"))
    return errs


# -- resources

_STANDARD_CONTAINER_RESOURCES = {"cpu", "memory", "ephemeral-storage"}
_STANDARD_RESOURCES = _STANDARD_CONTAINER_RESOURCES | {
    "requests.cpu", "requests.memory", "requests.ephemeral-storage", "limits.cpu", "limits.memory",
    "limits.ephemeral-storage", "pods", "services", "replicationcontrollers", "resourcequotas", "secrets",
    "configmaps", "persistentvolumeclaims", "storage", "requests.storage", "services.nodeports",
    "services.loadbalancers",
}


def _is_hugepages(name: str) -> bool:
    return name.startswith("hugepages-")


def _is_native(name: str) -> bool:
    return "/" not in name or "kubernetes.io/" in name


def _is_extended(name: str) -> bool:
    if _is_native(name) or name.startswith("requests."):
        return False
    return not is_qualified_name("requests." + name)


def _validate_container_resource_name(name: str, path: str) -> list[FieldError]:
    errs = [FieldError.invalid(path, name, m) for m in is_qualified_name(name)]
    if errs:
        return errs
    if "/" not in name:
        if name not in _STANDARD_RESOURCES and not _is_hugepages(name):
            return [FieldError.invalid(path, name, "must be a standard resource type or fully qualified")]
        if name not in _STANDARD_CONTAINER_RESOURCES and not _is_hugepages(name):
            return [FieldError.invalid(path, name, "must be a standard resource for containers")]
    elif not _is_native(name) and not _is_extended(name):
        return [FieldError.invalid(path, name, "doesn't follow extended resource name standard")]
    return []


def canonical_quantity(value: Any) -> str:
    """resource.Quantity.String(): the canonical form (``0.5`` -> ``500m``, ``1024Mi`` -> ``1Gi``)."""
    text = str(value).strip()
    try:
        number = schema.parse_quantity(value)
    except ValueError:
        return text
    if number == 0:
        return "0"
    binary = bool(re.search(r"(Ki|Mi|Gi|Ti|Pi|Ei)$", text))
    exponent = bool(re.search(r"[0-9][eE][+-]?[0-9]+$", text)) and not binary
    sign = "-" if number < 0 else ""
    magnitude = abs(number)
    if binary and magnitude == magnitude.to_integral_value():
        n, power = int(magnitude), 0
        while n % 1024 == 0 and power < 6:
            n //= 1024
            power += 1
        return f"{sign}{n}{['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'][power]}"
    # Decimal forms: the largest power of 1000 (down to nano, rounding up) leaving an integer.
    scaled = (magnitude * Decimal(10) ** 9).to_integral_value(rounding="ROUND_CEILING")
    n, exp = int(scaled), -9
    while n % 1000 == 0 and exp < 18:
        n //= 1000
        exp += 3
    if exponent:
        return f"{sign}{n}" + (f"e{exp}" if exp else "")
    suffix = {-9: "n", -6: "u", -3: "m", 0: "", 3: "k", 6: "M", 9: "G", 12: "T", 15: "P", 18: "E"}[exp]
    return f"{sign}{n}{suffix}"


def validate_resource_requirements(resources: Any, path: str) -> list[FieldError]:
    """ValidateContainerResourceRequirements: names, non-negative values, requests <= limits."""
    if not isinstance(resources, dict):
        return []
    errs: list[FieldError] = []
    limits = resources.get("limits") if isinstance(resources.get("limits"), dict) else {}
    requests = resources.get("requests") if isinstance(resources.get("requests"), dict) else {}
    lim_path, req_path = f"{path}.limits", f"{path}.requests"

    def value_errors(name: str, qty: Any, p: str) -> list[FieldError]:
        out = _validate_container_resource_name(name, p)
        try:
            number = schema.parse_quantity(qty)
        except ValueError:
            return out
        if number < 0:
            out.append(FieldError.invalid(p, canonical_quantity(qty), IS_NEGATIVE_ERROR_MSG))
        if _is_extended(name) and number != number.to_integral_value():
            out.append(FieldError.invalid(p, canonical_quantity(qty), "must be an integer"))
        return out

    for name, qty in sorted(limits.items()):
        errs.extend(value_errors(name, qty, f"{lim_path}[{name}]"))
    for name, qty in sorted(requests.items()):
        errs.extend(value_errors(name, qty, f"{req_path}[{name}]"))
        overcommit = _is_native(name) and not _is_hugepages(name)
        if name in limits:
            try:
                req_n, lim_n = schema.parse_quantity(qty), schema.parse_quantity(limits[name])
            except ValueError:
                continue
            if req_n != lim_n and not overcommit:
                errs.append(FieldError.invalid(req_path, canonical_quantity(qty),
                                               f"must be equal to {name} limit of {canonical_quantity(limits[name])}"))
            elif req_n > lim_n:
                errs.append(FieldError.invalid(req_path, canonical_quantity(qty),
                                               f"must be less than or equal to {name} limit of "
                                               f"{canonical_quantity(limits[name])}"))
        elif not overcommit:
            errs.append(FieldError.required(lim_path, "Limit must be set for non overcommitable resources"))
    return errs


# -- probes and lifecycle


def _validate_port_num_or_name(port: Any, path: str) -> list[FieldError]:
    if isinstance(port, str):
        return [FieldError.invalid(path, port, m) for m in is_valid_port_name(port)]
    if isinstance(port, int) and not isinstance(port, bool):
        return [FieldError.invalid(path, port, m) for m in is_valid_port_num(port)]
    return [FieldError.invalid(path, 0, m) for m in is_valid_port_num(0)]


def _validate_handler(handler: dict[str, Any], grace: int | None, path: str, kinds: tuple[str, ...]) -> list[FieldError]:
    errs: list[FieldError] = []
    count = 0
    for kind in kinds:
        action = handler.get(kind)
        if action is None:
            continue
        if count > 0:
            errs.append(FieldError.forbidden(f"{path}.{kind}", "may not specify more than 1 handler type"))
            continue
        count += 1
        if not isinstance(action, dict):
            continue
        p = f"{path}.{kind}"
        if kind == "exec":
            if not action.get("command"):
                errs.append(FieldError.required(f"{p}.command"))
        elif kind == "httpGet":
            if not _str(action, "path"):
                errs.append(FieldError.required(f"{p}.path"))
            errs.extend(_validate_port_num_or_name(action.get("port"), f"{p}.port"))
            scheme = _str(action, "scheme")
            if scheme not in ("HTTP", "HTTPS"):
                errs.append(FieldError.not_supported(f"{p}.scheme", scheme, ["HTTP", "HTTPS"]))
            for _, header in _dicts(action.get("httpHeaders")):
                hname = _str(header, "name")
                if not re.fullmatch(_HTTP_HEADER_FMT, hname):
                    errs.append(FieldError.invalid(f"{p}.httpHeaders", hname, regex_error(
                        "a valid HTTP header must consist of alphanumeric characters or '-'", _HTTP_HEADER_FMT,
                        "X-Header-Name")))
        elif kind == "tcpSocket":
            errs.extend(_validate_port_num_or_name(action.get("port"), f"{p}.port"))
        elif kind == "grpc":
            port = action.get("port")
            errs.extend(_validate_port_num_or_name(port if isinstance(port, int) else 0, f"{p}.port"))
        elif kind == "sleep":
            seconds = action.get("seconds")
            if isinstance(seconds, int) and grace is not None and not 0 <= seconds <= grace:
                errs.append(FieldError.invalid(p, seconds, "must be non-negative and less than "
                                                           f"terminationGracePeriodSeconds ({grace})"))
    if count == 0:
        errs.append(FieldError.required(path, "must specify a handler type"))
    return errs


def _validate_probe(probe: dict[str, Any], grace: int | None, path: str, kind: str) -> list[FieldError]:
    errs = _validate_handler(probe, grace, path, ("exec", "httpGet", "tcpSocket", "grpc"))
    for key in ("initialDelaySeconds", "timeoutSeconds", "periodSeconds", "successThreshold", "failureThreshold"):
        value = probe.get(key) or 0
        if isinstance(value, int):
            errs.extend(validate_nonnegative(value, f"{path}.{key}"))
    tgps = probe.get("terminationGracePeriodSeconds")
    if isinstance(tgps, int) and tgps <= 0:
        errs.append(FieldError.invalid(f"{path}.terminationGracePeriodSeconds", tgps, "must be greater than 0"))
    if kind in ("livenessProbe", "startupProbe") and (probe.get("successThreshold") or 0) != 1:
        errs.append(FieldError.invalid(f"{path}.successThreshold", probe.get("successThreshold") or 0, "must be 1"))
    if kind == "readinessProbe" and tgps is not None:
        errs.append(FieldError.invalid(f"{path}.terminationGracePeriodSeconds", tgps, "must not be set for readinessProbes"))
    return errs


def _validate_lifecycle_and_probes(ctr: Container, grace: int | None, path: str) -> list[FieldError]:
    errs: list[FieldError] = []
    lifecycle = ctr.extra.get("lifecycle")
    if isinstance(lifecycle, dict):
        for hook in ("postStart", "preStop"):
            if isinstance(lifecycle.get(hook), dict):
                errs.extend(_validate_handler(lifecycle[hook], grace, f"{path}.lifecycle.{hook}",
                                              ("exec", "httpGet", "tcpSocket", "sleep")))
    for kind in ("livenessProbe", "readinessProbe", "startupProbe"):
        probe = ctr.extra.get(kind)
        if isinstance(probe, dict):
            errs.extend(_validate_probe(probe, grace, f"{path}.{kind}", kind))
    return errs


# -- scheduling


def _validate_tolerations(tolerations: tuple, path: str) -> list[FieldError]:
    errs: list[FieldError] = []
    for i, tol in enumerate(tolerations):
        if not isinstance(tol, dict):
            continue
        p = f"{path}[{i}]"
        key, operator, value, effect = _str(tol, "key"), _str(tol, "operator"), _str(tol, "value"), _str(tol, "effect")
        if key:
            errs.extend(FieldError.invalid(f"{p}.key", key, m) for m in is_qualified_name(key))
        if not key and operator != "Exists":
            errs.append(FieldError.invalid(f"{p}.operator", operator,
                                           'operator must be Exists when `key` is empty, which means "match all values '
                                           'and all keys"'))
        if tol.get("tolerationSeconds") is not None and effect != "NoExecute":
            errs.append(FieldError.invalid(f"{p}.effect", effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"))
        if operator in ("Equal", ""):
            msgs = is_valid_label_value(value)
            if msgs:
                errs.append(FieldError.invalid(f"{p}.operator", value, ";".join(msgs)))
        elif operator == "Exists":
            if value:
                errs.append(FieldError.invalid(f"{p}.operator", value, "value must be empty when `operator` is 'Exists'"))
        else:
            errs.append(FieldError.not_supported(f"{p}.operator", operator, ["Equal", "Exists"]))
        if effect and effect not in ("NoSchedule", "PreferNoSchedule", "NoExecute"):
            errs.append(FieldError.not_supported(f"{p}.effect", effect, ["NoSchedule", "PreferNoSchedule", "NoExecute"]))
    return errs


def _validate_node_selector_requirement(req: dict[str, Any], path: str, check_values: bool) -> list[FieldError]:
    errs: list[FieldError] = []
    operator, values = _str(req, "operator"), req.get("values") or []
    if operator in ("In", "NotIn"):
        if not values:
            errs.append(FieldError.required(f"{path}.values", "must be specified when `operator` is 'In' or 'NotIn'"))
    elif operator in ("Exists", "DoesNotExist"):
        if values:
            errs.append(FieldError.forbidden(f"{path}.values",
                                             "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"))
    elif operator in ("Gt", "Lt"):
        if len(values) != 1:
            errs.append(FieldError.required(f"{path}.values",
                                            "must be specified single value when `operator` is 'Lt' or 'Gt'"))
    else:
        errs.append(FieldError.invalid(f"{path}.operator", operator, "not a valid selector operator"))
    errs.extend(FieldError.invalid(f"{path}.key", _str(req, "key"), m) for m in is_qualified_name(_str(req, "key")))
    if check_values:
        for j, v in enumerate(values):
            if isinstance(v, str):
                errs.extend(FieldError.invalid(f"{path}.values[{j}]", v, m) for m in is_valid_label_value(v))
    return errs


def _validate_node_selector_term(term: dict[str, Any], path: str, check_values: bool) -> list[FieldError]:
    errs: list[FieldError] = []
    for j, req in _dicts(term.get("matchExpressions")):
        errs.extend(_validate_node_selector_requirement(req, f"{path}.matchExpressions[{j}]", check_values))
    for j, req in _dicts(term.get("matchFields")):
        p = f"{path}.matchFields[{j}]"
        if _str(req, "operator") in ("In", "NotIn"):
            if len(req.get("values") or []) != 1:
                errs.append(FieldError.required(f"{p}.values", "must be only one value when `operator` is 'In' or 'NotIn' "
                                                               "for node field selector"))
        else:
            errs.append(FieldError.invalid(f"{p}.operator", _str(req, "operator"), "not a valid selector operator"))
        if _str(req, "key") != "metadata.name":
            errs.append(FieldError.invalid(f"{p}.key", _str(req, "key"), "not a valid field selector key"))
    return errs


def _validate_pod_affinity_term(term: dict[str, Any], p: str) -> list[FieldError]:
    errs: list[FieldError] = []
    selector = term.get("labelSelector")
    if isinstance(selector, dict):
        errs.extend(_validate_raw_label_selector(selector, f"{p}.labelSelector"))
    for ns in term.get("namespaces") or []:
        if isinstance(ns, str):
            errs.extend(FieldError.invalid(f"{p}.namespace", ns, m) for m in is_dns1123_label(ns))
    key = _str(term, "topologyKey")
    if not key:
        errs.append(FieldError.required(f"{p}.topologyKey", "can not be empty"))
    errs.extend(FieldError.invalid(f"{p}.topologyKey", key, m) for m in is_qualified_name(key))
    return errs


def _validate_pod_affinity_terms(terms: Any, path: str) -> list[FieldError]:
    errs: list[FieldError] = []
    for i, term in _dicts(terms):
        errs.extend(_validate_pod_affinity_term(term, f"{path}[{i}]"))
    return errs


def _validate_raw_label_selector(selector: dict[str, Any], path: str) -> list[FieldError]:
    from .serialize import from_dict

    try:
        typed = from_dict(LabelSelector, selector)
    except ValueError:
        return []
    return validate_label_selector(typed, path)


def _validate_affinity(affinity: Any, path: str) -> list[FieldError]:
    if not isinstance(affinity, dict):
        return []
    errs: list[FieldError] = []
    node = affinity.get("nodeAffinity")
    if isinstance(node, dict):
        np = f"{path}.nodeAffinity"
        required = node.get("requiredDuringSchedulingIgnoredDuringExecution")
        if isinstance(required, dict):
            rp = f"{np}.requiredDuringSchedulingIgnoredDuringExecution"
            terms = required.get("nodeSelectorTerms") or []
            if not terms:
                errs.append(FieldError.required(f"{rp}.nodeSelectorTerms", "must have at least one node selector term"))
            for i, term in _dicts(terms):
                errs.extend(_validate_node_selector_term(term, f"{rp}.nodeSelectorTerms[{i}]", True))
        for i, pref in _dicts(node.get("preferredDuringSchedulingIgnoredDuringExecution")):
            pp = f"{np}.preferredDuringSchedulingIgnoredDuringExecution[{i}]"
            weight = pref.get("weight") or 0
            if not isinstance(weight, int) or not 0 < weight <= 100:
                errs.append(FieldError.invalid(f"{pp}.weight", weight, "must be in the range 1-100"))
            if isinstance(pref.get("preference"), dict):
                errs.extend(_validate_node_selector_term(pref["preference"], f"{pp}.preference", False))
    for kind in ("podAffinity", "podAntiAffinity"):
        pa = affinity.get(kind)
        if not isinstance(pa, dict):
            continue
        kp = f"{path}.{kind}"
        errs.extend(_validate_pod_affinity_terms(pa.get("requiredDuringSchedulingIgnoredDuringExecution"),
                                                 f"{kp}.requiredDuringSchedulingIgnoredDuringExecution"))
        for i, weighted in _dicts(pa.get("preferredDuringSchedulingIgnoredDuringExecution")):
            wp = f"{kp}.preferredDuringSchedulingIgnoredDuringExecution[{i}]"
            weight = weighted.get("weight") or 0
            if not isinstance(weight, int) or not 0 < weight <= 100:
                errs.append(FieldError.invalid(f"{wp}.weight", weight, "must be in the range 1-100"))
            if isinstance(weighted.get("podAffinityTerm"), dict):
                errs.extend(_validate_pod_affinity_term(weighted["podAffinityTerm"], f"{wp}.podAffinityTerm"))
    return errs


def _validate_dns_config(config: Any, dns_policy: str, path: str) -> list[FieldError]:
    if dns_policy == "None":
        if not isinstance(config, dict):
            return [FieldError.required(path, "must provide `dnsConfig` when `dnsPolicy` is None")]
        if not config.get("nameservers"):
            return [FieldError.required(f"{path}.nameservers",
                                        "must provide at least one DNS nameserver when `dnsPolicy` is None")]
    if not isinstance(config, dict):
        return []
    errs: list[FieldError] = []
    nameservers = config.get("nameservers") or []
    if len(nameservers) > 3:
        errs.append(FieldError.invalid(f"{path}.nameservers", GoValue("[]string{" + ", ".join(json.dumps(n) for n in nameservers) + "}"),
                                       "must not have more than 3 nameservers"))
    searches = config.get("searches") or []
    if len(searches) > 32:
        errs.append(FieldError.invalid(f"{path}.searches", GoValue("[]string{" + ", ".join(json.dumps(s) for s in searches) + "}"),
                                       "must not have more than 32 search paths"))
    for i, opt in _dicts(config.get("options")):
        if not _str(opt, "name"):
            errs.append(FieldError.required(f"{path}.options[{i}]", "must not be empty"))
    return errs


def warnings_on_create(job: Job) -> list[str]:
    """The Job strategy's WarningsOnCreate (the name part): kubectl prints each as ``Warning: ...``."""
    msgs = is_dns1123_label(job.metadata.name)
    if msgs:
        return ["metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; "
                f"a DNS label is recommended: [{' '.join(msgs)}]"]
    return []


# ----------------------------------------------------------------------------- updates


def validation_options_for_job(new: Job, old: Job | None) -> JobValidationOptions:
    """Job strategy validationOptionsForJob."""
    if old is None:
        return JobValidationOptions()
    labels = old.spec.template.metadata.labels
    return JobValidationOptions(
        # Scheduling directives may change only while the Job is suspended and has
        # never started (the 1.35 alpha MutableSchedulingDirectivesForSuspendedJobs is off).
        allow_mutable_scheduling_directives=bool(old.spec.suspend) and old.status.start_time is None,
        allow_elastic_indexed_jobs=True,
        require_prefixed_labels=JOB_NAME_LABEL in labels and CONTROLLER_UID_LABEL in labels,
    )


def validate_job_update(new: Job, old: Job, opts: JobValidationOptions | None = None) -> list[FieldError]:
    """What the Job strategy's ValidateUpdate returns: ValidateJob(new) + ValidateJobUpdate(new, old)."""
    opts = opts or validation_options_for_job(new, old)
    errs = validate_job(new, opts)
    errs.extend(validate_object_meta_update(new.metadata, old.metadata, "metadata"))
    errs.extend(validate_job_spec_update(new.spec, old.spec, "spec", opts))
    return errs


def validate_job_spec_update(spec: JobSpec, old: JobSpec, path: str, opts: JobValidationOptions) -> list[FieldError]:
    """ValidateJobSpecUpdate: the spec again, then what may not change."""
    errs = validate_job_spec(spec, path)
    errs.extend(_validate_completions_update(spec, old, f"{path}.completions", opts))
    errs.extend(validate_immutable(spec.selector, old.selector, f"{path}.selector", "LabelSelector"))
    errs.extend(_validate_pod_template_update(spec, old, path, opts))
    errs.extend(validate_immutable(spec.completion_mode, old.completion_mode, f"{path}.completionMode", "string"))
    errs.extend(validate_immutable(spec.pod_failure_policy, old.pod_failure_policy, f"{path}.podFailurePolicy",
                                   "PodFailurePolicy"))
    errs.extend(validate_immutable(spec.backoff_limit_per_index, old.backoff_limit_per_index,
                                   f"{path}.backoffLimitPerIndex", "int32"))
    errs.extend(validate_immutable(spec.managed_by, old.managed_by, f"{path}.managedBy", "string"))
    errs.extend(validate_immutable(spec.success_policy, old.success_policy, f"{path}.successPolicy", "SuccessPolicy"))
    return errs


def _validate_completions_update(spec: JobSpec, old: JobSpec, path: str, opts: JobValidationOptions) -> list[FieldError]:
    """validateCompletions: immutable, except for Indexed Jobs scaled with parallelism."""
    indexed = spec.completion_mode == CompletionMode.INDEXED
    if not opts.allow_elastic_indexed_jobs or not indexed:
        return validate_immutable(spec.completions, old.completions, path, "int32")
    if spec.completions == old.completions or spec.completions is None:
        return []  # a nil completions of an Indexed Job is reported by validateJobSpec
    if spec.completions != spec.parallelism:
        return [FieldError.invalid(path, spec.completions, "can only be modified in tandem with spec.parallelism")]
    return []


def _scheduling_relaxed_old_template(template: PodTemplateSpec, old: PodTemplateSpec) -> PodTemplateSpec:
    """The old template with the scheduling directives taken from the new one."""
    new_aff, old_aff = template.spec.affinity, old.spec.affinity
    if new_aff is None and old_aff is not None:
        # The affinity may be cleared if it held nothing but node affinity.
        rest = {k: v for k, v in old_aff.items() if k != "nodeAffinity" and v is not None}
        old_aff = rest or None
    elif new_aff is not None and old_aff is None:
        node = new_aff.get("nodeAffinity")
        old_aff = {"nodeAffinity": node} if node is not None else {}
    elif new_aff is not None and old_aff is not None:
        old_aff = {k: v for k, v in old_aff.items() if k != "nodeAffinity"}
        if new_aff.get("nodeAffinity") is not None:
            old_aff["nodeAffinity"] = new_aff["nodeAffinity"]
    return replace(
        old,
        metadata=replace(old.metadata, annotations=template.metadata.annotations, labels=template.metadata.labels),
        spec=replace(old.spec, affinity=old_aff, node_selector=template.spec.node_selector,
                     tolerations=template.spec.tolerations, scheduling_gates=template.spec.scheduling_gates),
    )


def _validate_pod_template_update(spec: JobSpec, old: JobSpec, path: str, opts: JobValidationOptions) -> list[FieldError]:
    """validatePodTemplateUpdate: the template is immutable, but for scheduling directives of a
    suspended Job that never started."""
    old_template = old.template
    if opts.allow_mutable_scheduling_directives:
        old_template = _scheduling_relaxed_old_template(spec.template, old.template)
    return validate_immutable(spec.template, old_template, f"{path}.template", "PodTemplateSpec")


# ----------------------------------------------------------------------------- status


def _condition_true(status: JobStatus, ctype: str) -> bool:
    return any(c.type == ctype and c.status == ConditionStatus.TRUE for c in status.conditions)


def _true_conditions(status: JobStatus) -> set[str]:
    """The types of the status's conditions whose status is True (each _condition_true at once)."""
    return {c.type for c in status.conditions if c.status == ConditionStatus.TRUE}


def is_job_finished(job: Job) -> bool:
    """Complete=True or Failed=True."""
    return _condition_true(job.status, JobConditionType.COMPLETE) or _condition_true(job.status, JobConditionType.FAILED)


def _indexes_overlap(completed: str, failed: str, completions: int) -> str | None:
    """validateFailedIndexesNotOverlapCompleted: the first overlapping index's message, if any.

    As upstream, one walk over both lists at once, as if each were in order (a fragment that
    does not parse is skipped: the format check reports it); lists out of order, which the
    format check rejects too, can therefore hide an overlap here, as they do upstream."""
    if not completed or not failed:
        return None
    done, fail = completed.split(","), failed.split(",")

    def interval(fragments: list[str], pos: int) -> tuple[int, int] | None:
        try:
            return parse_index_interval(fragments[pos], completions)
        except ValueError:
            return None

    c_pos = f_pos = 0
    c, f = interval(done, 0), interval(fail, 0)
    while c_pos < len(done) and f_pos < len(fail):
        if c is not None and f is not None:
            if c[0] <= f[1] and f[0] <= c[1]:
                return f"failedIndexes and completedIndexes overlap at index: {max(c[0], f[0])}"
            next_completed = c[0] <= f[0]
        else:
            next_completed = c is None
        if next_completed:
            c_pos += 1
            if c_pos < len(done):
                c = interval(done, c_pos)
        else:
            f_pos += 1
            if f_pos < len(fail):
                f = interval(fail, f_pos)
    return None


def validate_job_status(job: Job, opts: JobStatusValidationOptions, path: str = "status",
                        true: set[str] | None = None) -> list[FieldError]:
    """validateJobStatus: counters, uncounted pods and the consistency rules the options turn on
    (``true``: the status's :func:`_true_conditions`, when the caller has them)."""
    status, spec = job.status, job.spec
    errs: list[FieldError] = []
    # (validate_nonnegative is called only for a negative counter: it finds nothing in the others,
    # and this runs at every status write.)
    if status.active < 0:
        errs.extend(validate_nonnegative(status.active, f"{path}.active"))
    if status.succeeded < 0:
        errs.extend(validate_nonnegative(status.succeeded, f"{path}.succeeded"))
    if status.failed < 0:
        errs.extend(validate_nonnegative(status.failed, f"{path}.failed"))
    if status.ready is not None and status.ready < 0:
        errs.extend(validate_nonnegative(status.ready, f"{path}.ready"))
    if status.terminating is not None and status.terminating < 0:
        errs.extend(validate_nonnegative(status.terminating, f"{path}.terminating"))
    uncounted = status.uncounted_terminated_pods
    if uncounted is not None:
        seen: set[str] = set()
        for kind, uids in (("succeeded", uncounted.succeeded), ("failed", uncounted.failed)):
            for i, uid in enumerate(uids):
                p = f"{path}.uncountedTerminatedPods.{kind}[{i}]"
                if uid == "":
                    errs.append(FieldError.invalid(p, uid, "must not be empty"))
                elif uid in seen:
                    errs.append(FieldError.duplicate(p, uid))
                else:
                    seen.add(uid)
    if true is None:
        true = _true_conditions(status)
    complete = JobConditionType.COMPLETE in true
    failed = JobConditionType.FAILED in true
    failure_target = JobConditionType.FAILURE_TARGET in true
    success_met = JobConditionType.SUCCESS_CRITERIA_MET in true
    finished = complete or failed
    cond_path = f"{path}.conditions"
    if opts.reject_complete_job_with_failed_condition and complete and failed:
        errs.append(_invalid_omit(cond_path, "cannot set Complete=True and Failed=true conditions"))
    if opts.reject_complete_job_with_failure_target_condition and complete and failure_target:
        errs.append(_invalid_omit(cond_path, "cannot set Complete=True and FailureTarget=true conditions"))
    if opts.reject_not_complete_job_with_completion_time and status.completion_time is not None and not complete:
        errs.append(FieldError.invalid(f"{path}.completionTime", _time_value(status.completion_time),
                                       "cannot set completionTime when there is no Complete=True condition"))
    if opts.reject_complete_job_without_completion_time and status.completion_time is None and complete:
        errs.append(FieldError.required(f"{path}.completionTime", "completionTime is required for Complete jobs"))
    if (opts.reject_completion_time_before_start_time and status.start_time is not None
            and status.completion_time is not None and status.completion_time < status.start_time):
        errs.append(FieldError.invalid(f"{path}.completionTime", _time_value(status.completion_time),
                                       "completionTime cannot be set before startTime"))
    if opts.reject_failed_job_without_failure_target and failed and not failure_target:
        errs.append(_invalid_omit(cond_path, "cannot set Failed=True condition without the FailureTarget=true condition"))
    if opts.reject_complete_job_without_success_criteria_met and complete and not success_met:
        errs.append(_invalid_omit(cond_path,
                                  "cannot set Complete=True condition without the SuccessCriteriaMet=true condition"))
    if opts.reject_finished_job_with_active_pods and status.active > 0 and finished:
        errs.append(FieldError.invalid(f"{path}.active", status.active, "active>0 is invalid for finished job"))
    if opts.reject_finished_job_without_start_time and status.start_time is None and finished:
        errs.append(FieldError.required(f"{path}.startTime", "startTime is required for finished job"))
    if (opts.reject_finished_job_with_uncounted_terminated_pods and finished and uncounted is not None
            and (uncounted.failed or uncounted.succeeded)):
        errs.append(FieldError.invalid(f"{path}.uncountedTerminatedPods", go_struct(uncounted),
                                       "uncountedTerminatedPods needs to be empty for finished job"))
    if opts.reject_invalid_completed_indexes and spec.completions is not None:
        try:
            validate_indexes_format(status.completed_indexes, spec.completions)
        except ValueError as exc:
            errs.append(FieldError.invalid(f"{path}.completedIndexes", status.completed_indexes,
                                           f"error parsing completedIndexes: {exc}"))
    if (opts.reject_invalid_failed_indexes and spec.completions is not None and spec.backoff_limit_per_index is not None
            and status.failed_indexes is not None):
        try:
            validate_indexes_format(status.failed_indexes, spec.completions)
        except ValueError as exc:
            errs.append(FieldError.invalid(f"{path}.failedIndexes", status.failed_indexes,
                                           f"error parsing failedIndexes: {exc}"))
    indexed = (spec.completion_mode or CompletionMode.NON_INDEXED) == CompletionMode.INDEXED
    if opts.reject_completed_indexes_for_non_indexed_job and status.completed_indexes and not indexed:
        errs.append(FieldError.invalid(f"{path}.completedIndexes", status.completed_indexes,
                                       "cannot set non-empty completedIndexes when non-indexed completion mode"))
    if (opts.reject_failed_indexes_for_no_backoff_limit_per_index and spec.backoff_limit_per_index is None
            and status.failed_indexes is not None):
        errs.append(FieldError.invalid(f"{path}.failedIndexes", status.failed_indexes,
                                       "cannot set non-null failedIndexes when backoffLimitPerIndex is null"))
    if opts.reject_failed_indexes_overlapping_completed and spec.completions is not None and status.failed_indexes is not None:
        overlap = _indexes_overlap(status.completed_indexes, status.failed_indexes, spec.completions)
        if overlap:
            errs.append(FieldError.invalid(f"{path}.failedIndexes", status.failed_indexes, overlap))
    if opts.reject_finished_job_with_terminating_pods and (status.terminating or 0) > 0 and finished:
        errs.append(FieldError.invalid(f"{path}.terminating", status.terminating, "terminating>0 is invalid for finished job"))
    if opts.reject_more_ready_than_active_pods and status.ready is not None and status.ready > status.active:
        errs.append(FieldError.invalid(f"{path}.ready", status.ready, "cannot set more ready pods than active"))
    if not opts.allow_for_success_criteria_met_in_extended_scope and not indexed and success_met:
        errs.append(_invalid_omit(cond_path, "cannot set SuccessCriteriaMet to NonIndexed Job"))
    if success_met and failed:
        errs.append(_invalid_omit(cond_path, "cannot set SuccessCriteriaMet=True and Failed=true conditions"))
    if success_met and failure_target:
        errs.append(_invalid_omit(cond_path, "cannot set SuccessCriteriaMet=True and FailureTarget=true conditions"))
    if not opts.allow_for_success_criteria_met_in_extended_scope and spec.success_policy is None and success_met:
        errs.append(_invalid_omit(cond_path, "cannot set SuccessCriteriaMet=True for Job without SuccessPolicy"))
    if spec.success_policy is not None and not success_met and complete:
        errs.append(_invalid_omit(cond_path,
                                  "cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True"))
    return errs


def _time_value(t: float) -> str:
    from .serialize import format_time

    return format_time(t)


def _uncounted_form(u: UncountedTerminatedPods | None) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    # Semantic.DeepEqual on *UncountedTerminatedPods: a nil pointer differs from an empty
    # struct, a nil list equals an empty one. Cheap: this runs on every status write.
    return None if u is None else (tuple(u.succeeded or ()), tuple(u.failed or ()))


def status_validation_options(new: Job, old: Job, true_conditions: tuple[set[str], set[str]] | None = None
                              ) -> JobStatusValidationOptions:
    """getStatusValidationOptions with JobManagedBy GA: each rule runs when its fields change.

    ``true_conditions``: the old and the new status's :func:`_true_conditions`, when the caller has them.
    """
    ns, os_ = new.status, old.status
    indexed = (new.spec.completion_mode or CompletionMode.NON_INDEXED) == CompletionMode.INDEXED
    old_true, new_true = true_conditions or (_true_conditions(os_), _true_conditions(ns))
    complete, failed = JobConditionType.COMPLETE, JobConditionType.FAILED
    finished_changed = (complete in old_true or failed in old_true) != (complete in new_true or failed in new_true)
    complete_changed = (complete in old_true) != (complete in new_true)
    failed_changed = (failed in old_true) != (failed in new_true)
    failure_target_changed = (JobConditionType.FAILURE_TARGET in old_true) != (JobConditionType.FAILURE_TARGET in new_true)
    completed_indexes_changed = os_.completed_indexes != ns.completed_indexes
    failed_indexes_changed = os_.failed_indexes != ns.failed_indexes
    active_changed = os_.active != ns.active
    ready_changed = os_.ready != ns.ready
    terminating_changed = os_.terminating != ns.terminating
    start_changed = os_.start_time != ns.start_time
    completion_changed = os_.completion_time != ns.completion_time
    uncounted_changed = _uncounted_form(os_.uncounted_terminated_pods) != _uncounted_form(
        ns.uncounted_terminated_pods)
    # The options are a function of these facts alone: one frozen object per combination (23 fields
    # are costly to set, and every status write asks).
    facts = (indexed and new.spec.completions == new.spec.parallelism, finished_changed, complete_changed,
             failed_changed, failure_target_changed, completed_indexes_changed, failed_indexes_changed,
             active_changed, ready_changed, terminating_changed, start_changed, completion_changed,
             uncounted_changed)
    known = _STATUS_OPTIONS.get(facts)
    if known is not None:
        return known
    made = _STATUS_OPTIONS[facts] = JobStatusValidationOptions(
        # The succeeded counter may drop only for Indexed Jobs with completions ==
        # parallelism: they can be scaled down (elastic Indexed Jobs).
        reject_decreasing_succeeded_counter=not indexed or new.spec.completions != new.spec.parallelism,
        reject_decreasing_failed_counter=True,
        reject_disabling_terminal_condition=True,
        reject_invalid_completed_indexes=completed_indexes_changed,
        reject_invalid_failed_indexes=failed_indexes_changed,
        reject_completed_indexes_for_non_indexed_job=completed_indexes_changed,
        reject_failed_indexes_for_no_backoff_limit_per_index=failed_indexes_changed,
        reject_failed_indexes_overlapping_completed=failed_indexes_changed or completed_indexes_changed,
        reject_failed_job_without_failure_target=failed_changed,
        reject_complete_job_without_success_criteria_met=complete_changed,
        reject_finished_job_with_active_pods=finished_changed or active_changed,
        reject_finished_job_without_start_time=finished_changed or start_changed,
        reject_finished_job_with_uncounted_terminated_pods=finished_changed or uncounted_changed,
        reject_start_time_update_for_unsuspended_job=start_changed,
        reject_completion_time_before_start_time=start_changed or completion_changed,
        reject_mutating_completion_time=True,
        reject_not_complete_job_with_completion_time=complete_changed or completion_changed,
        reject_complete_job_without_completion_time=complete_changed or completion_changed,
        reject_complete_job_with_failed_condition=complete_changed or failed_changed,
        reject_complete_job_with_failure_target_condition=complete_changed or failure_target_changed,
        allow_for_success_criteria_met_in_extended_scope=True,
        reject_more_ready_than_active_pods=ready_changed or active_changed,
        reject_finished_job_with_terminating_pods=finished_changed or terminating_changed,
    )
    return made


_STATUS_OPTIONS: dict[tuple[bool, ...], JobStatusValidationOptions] = {}
"""status_validation_options' answers by the facts they depend on (at most 2**13)."""


def validate_job_status_update(new: Job, old: Job, opts: JobStatusValidationOptions | None = None) -> list[FieldError]:
    """ValidateJobUpdateStatus: metadata update rules, then ValidateJobStatusUpdate."""
    ns, os_ = new.status, old.status
    old_true, new_true = _true_conditions(os_), _true_conditions(ns)
    opts = opts or status_validation_options(new, old, (old_true, new_true))
    errs = validate_object_meta_update(new.metadata, old.metadata, "metadata")
    errs.extend(validate_job_status(new, opts, "status", new_true))
    cond_path = "status.conditions"
    if opts.reject_disabling_terminal_condition:
        for ctype in (JobConditionType.FAILED, JobConditionType.COMPLETE, JobConditionType.FAILURE_TARGET):
            if ctype in old_true and ctype not in new_true:
                errs.append(_invalid_omit(cond_path, f"cannot disable the terminal {ctype}=True condition"))
    if opts.reject_decreasing_failed_counter and ns.failed < os_.failed:
        errs.append(FieldError.invalid("status.failed", ns.failed, "cannot decrease the failed counter"))
    if opts.reject_decreasing_succeeded_counter and ns.succeeded < os_.succeeded:
        errs.append(FieldError.invalid("status.succeeded", ns.succeeded, "cannot decrease the succeeded counter"))
    if (opts.reject_mutating_completion_time and ns.completion_time is not None and os_.completion_time is not None
            and ns.completion_time != os_.completion_time):
        errs.append(FieldError.invalid("status.completionTime", _time_value(ns.completion_time),
                                       "completionTime cannot be mutated"))
    if (opts.reject_start_time_update_for_unsuspended_job and os_.start_time is not None
            and os_.start_time != ns.start_time and not new.spec.suspend
            and JobConditionType.SUSPENDED not in old_true):
        # Resuming a Job that started, was suspended and is resumed resets startTime:
        # allowed since kubernetes/kubernetes#134769 (the old status is Suspended=True).
        errs.append(FieldError.required("status.startTime", "startTime cannot be removed for unsuspended job"))
    if JobConditionType.SUCCESS_CRITERIA_MET in old_true and JobConditionType.SUCCESS_CRITERIA_MET not in new_true:
        errs.append(_invalid_omit(cond_path, "cannot disable the SuccessCriteriaMet=True condition"))
    if (JobConditionType.COMPLETE in old_true and JobConditionType.SUCCESS_CRITERIA_MET not in old_true
            and JobConditionType.SUCCESS_CRITERIA_MET in new_true):
        errs.append(_invalid_omit(cond_path, "cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions"))
    return errs


# ----------------------------------------------------------------------------- CronJob

CRONJOB_NAME_MAX_LENGTH = 63 - 11
"""A CronJob's Jobs are named ``<cronjob>-<minutes>`` (an 11-character suffix) and must fit a DNS-1035 label."""

_CONCURRENCY_POLICIES = [ConcurrencyPolicy.ALLOW, ConcurrencyPolicy.FORBID, ConcurrencyPolicy.REPLACE]
_TIME_ZONE_PART_RE = re.compile(r"[A-Za-z.\-_0-9+]{1,14}")  # used with fullmatch: Go's $ ends the text, Python's may precede a newline
TZ_IN_SCHEDULE_ERROR = "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"
TZ_WITH_TIME_ZONE_ERROR = "cannot use both timeZone field and TZ or CRON_TZ in schedule"


def validate_cronjob_create(cronjob: CronJob) -> list[FieldError]:
    """ValidateCronJobCreate: metadata (a DNS subdomain name), the spec, then the 52-character name limit.

    Mirrors ValidateCronJobCreate in pkg/apis/batch/validation/validation.go.
    """
    errs = validate_object_meta(cronjob.metadata, "metadata")
    errs.extend(validate_cronjob_spec(cronjob.spec, None, "spec"))
    if len(cronjob.metadata.name) > CRONJOB_NAME_MAX_LENGTH:
        errs.append(FieldError.invalid("metadata.name", cronjob.metadata.name,
                                       f"must be no more than {CRONJOB_NAME_MAX_LENGTH} characters"))
    return errs


def validate_cronjob_update(cronjob: CronJob, old: CronJob) -> list[FieldError]:
    """ValidateCronJobUpdate: metadata update rules and the spec against the old one (no name limit,
    so CronJobs with longer names made before the limit can still be changed or deleted).

    Mirrors ValidateCronJobUpdate in pkg/apis/batch/validation/validation.go.
    """
    errs = validate_object_meta_update(cronjob.metadata, old.metadata, "metadata")
    errs.extend(validate_cronjob_spec(cronjob.spec, old.spec, "spec"))
    return errs


def validate_cronjob_spec(spec: CronJobSpec, old: CronJobSpec | None, path: str = "spec") -> list[FieldError]:
    """validateCronJobSpec: schedule, startingDeadlineSeconds, timeZone (on update only when it
    changed), concurrencyPolicy, the Job template, the history limits, in upstream's order.

    A ``TZ``/``CRON_TZ`` prefix in the schedule is allowed only on an update whose old schedule
    already contained ``TZ``. Mirrors validateCronJobSpec in pkg/apis/batch/validation/validation.go.
    """
    errs: list[FieldError] = []
    if not spec.schedule:
        errs.append(FieldError.required(f"{path}.schedule"))
    else:
        allow_tz = old is not None and "TZ" in old.schedule
        errs.extend(validate_schedule_format(spec.schedule, allow_tz, spec.time_zone, f"{path}.schedule"))
    if spec.starting_deadline_seconds is not None:
        errs.extend(validate_nonnegative(spec.starting_deadline_seconds, f"{path}.startingDeadlineSeconds"))
    if old is None or old.time_zone != spec.time_zone:
        errs.extend(validate_time_zone(spec.time_zone, f"{path}.timeZone"))
    errs.extend(validate_concurrency_policy(spec.concurrency_policy, f"{path}.concurrencyPolicy"))
    errs.extend(validate_job_template_spec(spec.job_template, f"{path}.jobTemplate"))
    if spec.successful_jobs_history_limit is not None:
        errs.extend(validate_nonnegative(spec.successful_jobs_history_limit, f"{path}.successfulJobsHistoryLimit"))
    if spec.failed_jobs_history_limit is not None:
        errs.extend(validate_nonnegative(spec.failed_jobs_history_limit, f"{path}.failedJobsHistoryLimit"))
    return errs


def validate_concurrency_policy(policy: str, path: str) -> list[FieldError]:
    """validateConcurrencyPolicy: Allow, Forbid or Replace; empty is "Required value"."""
    if policy in _CONCURRENCY_POLICIES:
        return []
    if policy == "":
        return [FieldError.required(path)]
    return [FieldError.not_supported(path, policy, _CONCURRENCY_POLICIES)]


def validate_schedule_format(schedule: str, allow_tz: bool, time_zone: str | None, path: str) -> list[FieldError]:
    """validateScheduleFormat: the schedule must parse with robfig/cron's ParseStandard (a parser
    panic is recovered as "invalid schedule format: ..."), and ``TZ`` in it is refused unless
    allowed, and always together with ``spec.timeZone``.

    Mirrors validateScheduleFormat in pkg/apis/batch/validation/validation.go and
    ParseCronScheduleWithPanicRecovery in pkg/util/parsers.
    """
    errs: list[FieldError] = []
    try:
        parse_standard(schedule)
    except CronParseError as exc:
        detail = f"invalid schedule format: {exc}" if exc.panicked else str(exc)
        errs.append(FieldError.invalid(path, schedule, detail))
    if allow_tz and "TZ" in schedule and time_zone is not None:
        errs.append(FieldError.invalid(path, schedule, TZ_WITH_TIME_ZONE_ERROR))
    elif not allow_tz and "TZ" in schedule:
        errs.append(FieldError.invalid(path, schedule, TZ_IN_SCHEDULE_ERROR))
    return errs


def validate_time_zone(time_zone: str | None, path: str) -> list[FieldError]:
    """validateTimeZone: unset, or an IANA name: each ``/`` part 1-14 of ``[A-Za-z.-_0-9+]``, not
    ``.``/``..``, not starting with ``-``; not ``Local`` in any case; and it must load.

    Mirrors validateTimeZone in pkg/apis/batch/validation/validation.go (with Go's
    time.LoadLocation over the tzdata package's zones).
    """
    if time_zone is None:
        return []
    if time_zone == "":
        return [FieldError.invalid(path, time_zone, "timeZone must be nil or non-empty string")]
    for part in time_zone.split("/"):
        if part in (".", "..") or part.startswith("-") or not _TIME_ZONE_PART_RE.fullmatch(part):
            return [FieldError.invalid(path, time_zone, f"unknown time zone {time_zone}")]
    errs: list[FieldError] = []
    if time_zone.lower() == "local":
        errs.append(FieldError.invalid(path, time_zone,
                                       "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"))
    try:
        load_location(time_zone)
    except UnknownTimeZoneError as exc:
        errs.append(FieldError.invalid(path, time_zone, str(exc)))
    return errs


def cronjob_warnings_on_create(cronjob: CronJob) -> list[str]:
    """The CronJob strategy's WarningsOnCreate (the name part, as for Jobs): a name that is not a
    DNS label. Mirrors cronJobStrategy.WarningsOnCreate in pkg/registry/batch/cronjob/strategy.go."""
    msgs = is_dns1123_label(cronjob.metadata.name)
    if msgs:
        return ["metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; "
                f"a DNS label is recommended: [{' '.join(msgs)}]"]
    return []


def validate_job_template_spec(template: JobTemplateSpec, path: str) -> list[FieldError]:
    """ValidateJobTemplateSpec: the Job spec rules, and no selector (it is generated for each Job)
    nor ``manualSelector: true``. Mirrors ValidateJobTemplateSpec in pkg/apis/batch/validation/validation.go.
    """
    spec = template.spec
    errs = _validate_job_spec(spec, f"{path}.spec")
    if spec.selector is not None:
        errs.append(FieldError.invalid(f"{path}.spec.selector", go_struct(spec.selector), "`selector` will be auto-generated"))
    if spec.manual_selector:
        errs.append(FieldError.not_supported(f"{path}.spec.manualSelector", True, ["nil", "false"]))
    return errs


def dedupe(errors: list[FieldError]) -> list[FieldError]:
    """Drop repeated identical errors, keeping the first (field.ErrorList.ToAggregate does this)."""
    seen: set[str] = set()
    out = []
    for e in errors:
        key = str(e)
        if key not in seen:
            seen.add(key)
            out.append(e)
    return out
