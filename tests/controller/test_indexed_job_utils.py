"""Completion indexes: interval strings, succeeded/failed/pending indexes, per-index failures.

Table cases follow upstream's indexed_job_utils_test.go and the reference (§11, §18); the
properties check that the canonical string reads back to the same set and that merging is
set union.
"""

from __future__ import annotations

import pytest
from builders import T0, job, on_exit_codes, pod, policy
from hypothesis import given
from hypothesis import strategies as st

from k8sjobs.api.types import (
    JOB_COMPLETION_INDEX_ANNOTATION,
    JOB_COMPLETION_INDEX_ENV,
    JOB_INDEX_FAILURE_COUNT_ANNOTATION,
    JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION,
    Container,
    EnvVar,
    PodFailurePolicyAction,
    PodReplacementPolicy,
    PodSpec,
    PodTemplateSpec,
)
from k8sjobs.controller.job.indexed_job_utils import (
    Interval,
    OrderedIntervals,
    add_completion_index_annotation,
    add_completion_index_env_variables,
    add_completion_index_label,
    calculate_failed_indexes,
    calculate_succeeded_indexes,
    first_pending_indexes,
    get_completion_index,
    get_index_absolute_failure_count,
    get_index_failure_count,
    get_index_ignored_failure_count,
    get_new_index_failure_counts,
    get_pods_with_delayed_deletion_per_index,
    has_backoff_limit_per_index,
    index_failure_count_annotations,
    is_index_failed,
    is_indexed_job,
    parse_indexes_from_string,
    pod_generate_name_with_index,
)


def ivs(*pairs: tuple[int, int]) -> OrderedIntervals:
    """OrderedIntervals from (first, last) pairs, as given."""
    return OrderedIntervals(tuple(Interval(a, b) for a, b in pairs))


# ----------------------------------------------------------------------------------------
# orderedIntervals
# ----------------------------------------------------------------------------------------

FORMAT = [
    pytest.param([], "", id="no indexes format as the empty string"),
    pytest.param([4], "4", id="a single index is written alone"),
    pytest.param([3, 4], "3,4", id="a pair is written with a comma"),
    pytest.param([3, 4, 5], "3-5", id="a run of three is written as a range"),
    pytest.param([9, 1, 3, 2, 1], "1-3,9", id="input order and duplicates do not matter"),
    pytest.param([0, 2, 3, 5, 6, 7, 9], "0,2,3,5-7,9", id="runs, pairs and singles mix"),
]


@pytest.mark.parametrize(("indexes", "text"), FORMAT)
def test_format(indexes, text):
    intervals = OrderedIntervals.from_indexes(indexes)
    assert str(intervals) == text
    assert intervals.total() == len(set(indexes))
    assert list(intervals.indexes()) == sorted(set(indexes))


PARSE = [
    pytest.param("", 5, [], id="the empty string parses to nothing"),
    pytest.param("0,2-4", 5, [(0, 0), (2, 4)], id="singles and ranges are read"),
    pytest.param("1,2,3", 5, [(1, 3)], id="adjacent parts are joined"),
    pytest.param("0-2,3", 5, [(0, 3)], id="a part right after a range is joined to it"),
    pytest.param("1-10", 6, [(1, 5)], id="a range end beyond completions is clamped"),
    pytest.param("4-9,11", 6, [(4, 5)], id="parsing stops at the first index at or above completions"),
    pytest.param("1,7,2", 5, [(1, 1)], id="nothing after an out-of-range part is read, even smaller indexes"),
    pytest.param("a,1", 3, [(1, 1)], id="a non-numeric part is skipped"),
    pytest.param("0,1-foo,bar,3", 4, [(0, 0), (3, 3)], id="a range with a bad end is skipped"),
    pytest.param("1-3-5", 10, [(1, 3)], id="only the first two numbers of a part are read"),
    pytest.param("-1,2", 5, [(2, 2)], id="a leading minus makes an empty first number"),
    pytest.param("+1,02", 5, [(1, 2)], id="signs and leading zeros are accepted like strconv.Atoi"),
    pytest.param(" 1,2", 5, [(2, 2)], id="a space makes a part unparsable"),
    pytest.param("3,1", 5, [(3, 3), (1, 1)], id="a decreasing string is kept as written"),
    pytest.param("0-2,1", 5, [(0, 2), (1, 1)], id="an overlapping part is kept as written"),
]


@pytest.mark.parametrize(("text", "completions", "pairs"), PARSE)
def test_parse_indexes_from_string(text, completions, pairs):
    assert parse_indexes_from_string(text, completions) == ivs(*pairs)


def test_a_kept_unsorted_string_prints_back_as_written():
    assert str(parse_indexes_from_string("3,1", 5)) == "3,1"


@pytest.mark.parametrize(("stored", "written"), [
    pytest.param("1,2,3", "1-3", id="the controller rewrites adjacent parts as one run"),
    pytest.param("0-2,1-4", "0-4", id="the controller folds overlapping runs when it writes the status back"),
    pytest.param("0-2,2-4", "0-4", id="runs sharing an index are folded"),
    pytest.param("3,1", "3", id="a decreasing part is dropped when the status is written back"),
])
def test_what_the_controller_writes_back(stored, written):
    j = job(completions=5, completed_indexes=stored)
    _, succeeded = calculate_succeeded_indexes(j, [])
    assert str(succeeded) == written


HAS = [
    pytest.param([], 4, False, id="an empty set has nothing"),
    pytest.param([(2, 4), (6, 8)], 1, False, id="an index before every run is absent"),
    pytest.param([(2, 4), (6, 8)], 9, False, id="an index after every run is absent"),
    pytest.param([(2, 4), (6, 8)], 5, False, id="an index between runs is absent"),
    pytest.param([(2, 4), (6, 8)], 2, True, id="the first index of a run is present"),
    pytest.param([(2, 4), (6, 8)], 8, True, id="the last index of a run is present"),
]


@pytest.mark.parametrize(("pairs", "ix", "has"), HAS)
def test_has(pairs, ix, has):
    assert ivs(*pairs).has(ix) is has


MERGE = [
    pytest.param([(0, 0), (4, 5), (10, 12)], [(2, 2), (7, 8)], [(0, 0), (2, 2), (4, 5), (7, 8), (10, 12)],
                 id="separate runs interleave"),
    pytest.param([(3, 4), (6, 6)], [(2, 2), (7, 8)], [(2, 4), (6, 8)], id="touching runs are joined"),
    pytest.param([(2, 7)], [(0, 0), (3, 3), (9, 9)], [(0, 0), (2, 7), (9, 9)], id="covered runs disappear"),
    pytest.param([], [(1, 2)], [(1, 2)], id="merging into nothing copies"),
]


@pytest.mark.parametrize(("mine", "theirs", "merged"), MERGE)
def test_merge(mine, theirs, merged):
    assert ivs(*mine).merge(ivs(*theirs)) == ivs(*merged)
    assert ivs(*theirs).merge(ivs(*mine)) == ivs(*merged)


def test_with_ordered_indexes_adds_single_indexes():
    assert ivs((2, 2), (7, 8)).with_ordered_indexes([3, 4, 6]) == ivs((2, 4), (6, 8))


def test_len_counts_runs_and_total_counts_indexes():
    intervals = ivs((0, 2), (5, 5))
    assert (len(intervals), intervals.total(), bool(OrderedIntervals())) == (2, 4, False)


# ----------------------------------------------------------------------------------------
# Completion index
# ----------------------------------------------------------------------------------------

COMPLETION_INDEX = [
    pytest.param(None, -1, id="no annotations means an unknown index"),
    pytest.param({}, -1, id="a missing annotation means an unknown index"),
    pytest.param({JOB_COMPLETION_INDEX_ANNOTATION: "3"}, 3, id="a number is the index"),
    pytest.param({JOB_COMPLETION_INDEX_ANNOTATION: "+2"}, 2, id="a plus sign is accepted"),
    pytest.param({JOB_COMPLETION_INDEX_ANNOTATION: "0010"}, 10, id="leading zeros are accepted"),
    pytest.param({JOB_COMPLETION_INDEX_ANNOTATION: "-3"}, -1, id="a negative index is unknown"),
    pytest.param({JOB_COMPLETION_INDEX_ANNOTATION: "3.0"}, -1, id="a decimal is invalid"),
    pytest.param({JOB_COMPLETION_INDEX_ANNOTATION: " 3"}, -1, id="a space is invalid"),
    pytest.param({JOB_COMPLETION_INDEX_ANNOTATION: "1_000"}, -1, id="digit separators are invalid"),
    pytest.param({JOB_COMPLETION_INDEX_ANNOTATION: "99999999999999999999"}, -1, id="a number beyond int64 is invalid"),
]


@pytest.mark.parametrize(("annotations", "index"), COMPLETION_INDEX)
def test_get_completion_index(annotations, index):
    assert get_completion_index(annotations) == index


def test_job_predicates():
    assert is_indexed_job(job()) and not is_indexed_job(job(indexed=False))
    assert has_backoff_limit_per_index(job(backoff_limit_per_index=1)) and not has_backoff_limit_per_index(job())


# ----------------------------------------------------------------------------------------
# Succeeded and failed indexes
# ----------------------------------------------------------------------------------------

SUCCEEDED = [
    pytest.param("", 11, [pod().failed().index(2), pod().succeeded().index(5), pod().succeeded().index(5),
                          pod().failed().index(10), pod().succeeded().index(10)], "", "5,10",
                 id="each succeeded index counts once"),
    pytest.param("3-5", 4, [pod().succeeded().index(0), pod().succeeded().index(1), pod().succeeded().index(2),
                            pod().failed().index(3)], "3", "0-3",
                 id="stored indexes beyond completions are dropped"),
    pytest.param("", 6, [pod().succeeded().index(0), pod().succeeded(), pod().succeeded().index(-2),
                         pod().succeeded().index(6)], "", "0",
                 id="pods without a valid index below completions are ignored"),
    pytest.param("0", 5, [pod().succeeded().index(2).no_finalizer(), pod().succeeded().index(4)], "0", "0,4",
                 id="pods without the tracking finalizer were already counted"),
    pytest.param("0,1-foo,bar", 4, [pod().succeeded().index(3)], "0", "0,3",
                 id="a corrupted stored string keeps its readable parts"),
    pytest.param("2,7,8", 9, [pod().succeeded().index(3), pod().succeeded().index(4), pod().succeeded().index(6)],
                 "2,7,8", "2-4,6-8", id="new indexes fill the gaps"),
]


@pytest.mark.parametrize(("stored", "completions", "builders", "previous", "now"), SUCCEEDED)
def test_calculate_succeeded_indexes(stored, completions, builders, previous, now):
    j = job(completions=completions, completed_indexes=stored)
    prev, succeeded = calculate_succeeded_indexes(j, [b.build() for b in builders])
    assert (str(prev), str(succeeded)) == (previous, now)


IGNORE_EXIT_42 = policy(on_exit_codes(PodFailurePolicyAction.IGNORE, "In", 42))
FAIL_INDEX_EXIT_3 = policy(on_exit_codes(PodFailurePolicyAction.FAIL_INDEX, "In", 3))

INDEX_FAILED = [
    pytest.param(job(backoff_limit_per_index=1), pod().failed().index(0).failure_count(1), True,
                 id="an index fails once its failure count reaches backoffLimitPerIndex"),
    pytest.param(job(backoff_limit_per_index=1), pod().failed().index(0).failure_count(0), False,
                 id="an index below backoffLimitPerIndex is retried"),
    pytest.param(job(backoff_limit_per_index=0), pod().failed().index(0), True,
                 id="with backoffLimitPerIndex 0 the first failure fails the index"),
    pytest.param(job(backoff_limit_per_index=3, pod_failure_policy=FAIL_INDEX_EXIT_3),
                 pod().failed().index(0).exit_code(3), True, id="a FailIndex rule fails the index at once"),
    pytest.param(job(backoff_limit_per_index=0, pod_failure_policy=IGNORE_EXIT_42),
                 pod().failed().index(0).exit_code(42), False, id="an ignored failure never fails the index"),
    pytest.param(job(backoff_limit_per_index=0), pod().running().index(0), False,
                 id="a running pod does not fail its index"),
    pytest.param(job(backoff_limit_per_index=0, pod_replacement_policy=PodReplacementPolicy.TERMINATING_OR_FAILED),
                 pod().running().index(0).deleting(), True,
                 id="a terminating pod counts as failed with TerminatingOrFailed"),
]


@pytest.mark.parametrize(("j", "builder", "failed"), INDEX_FAILED)
def test_is_index_failed(j, builder, failed):
    assert is_index_failed(j, builder.build()) is failed


def test_calculate_failed_indexes_is_none_without_backoff_limit_per_index():
    assert calculate_failed_indexes(job(), [pod().failed().index(0).build()]) is None


def test_calculate_failed_indexes_adds_new_failures_to_the_stored_ones():
    j = job(completions=6, backoff_limit_per_index=1, failed_indexes="0,1")
    pods = [
        pod("a").failed().index(3).failure_count(1).build(),
        pod("b").failed().index(4).failure_count(0).build(),  # still retried
        pod("c").failed().index(5).failure_count(2).no_finalizer().build(),  # already counted
    ]
    assert str(calculate_failed_indexes(j, pods)) == "0,1,3"


def test_calculate_failed_indexes_of_an_empty_status_is_empty():
    assert str(calculate_failed_indexes(job(backoff_limit_per_index=1), [])) == ""


# ----------------------------------------------------------------------------------------
# Pending indexes
# ----------------------------------------------------------------------------------------


def _active(*indexes):
    return [pod(f"a{i}").index(ix).build() for i, ix in enumerate(indexes)]


def _terminating(*indexes):
    return [pod(f"t{i}").index(ix).deleting().build() for i, ix in enumerate(indexes)]


PENDING = [
    pytest.param(_active(), ivs(), None, None, 5, 3, [0, 1, 2], id="the count is capped by completions"),
    pytest.param(_active(0, 1), ivs(), None, None, 3, 10, [2, 3, 4], id="active indexes are skipped"),
    pytest.param(_active(3, 5, 8, -3) + [pod("x").build()], ivs((2, 4), (9, 9)), None, None, 5, 20,
                 [0, 1, 6, 7, 10], id="succeeded and active indexes are skipped while unknown ones are ignored"),
    pytest.param(_active(), ivs(), ivs((0, 1)), None, 2, 5, [2, 3], id="failed indexes are never retried"),
    pytest.param(_active(0), ivs(), None, _terminating(1, 2), 4, 6, [3, 4, 5],
                 id="indexes held by terminating pods wait when only failed pods are replaced"),
    pytest.param(_active(0), ivs(), None, None, 3, 6, [1, 2, 3],
                 id="terminating pods do not hold their index otherwise"),
    pytest.param(_active(), ivs(), None, [pod().index(1).failed().deleting().build()], 2, 3, [0, 1],
                 id="a terminal pod with a deletion timestamp does not hold its index"),
    pytest.param(_active(), ivs(), None, None, 0, 3, [], id="a count of zero asks for nothing"),
]


@pytest.mark.parametrize(("active", "succeeded", "failed", "terminating", "count", "completions", "want"), PENDING)
def test_first_pending_indexes(active, succeeded, failed, terminating, count, completions, want):
    got = first_pending_indexes(active_pods=active, succeeded_indexes=succeeded, failed_indexes=failed,
                                terminating_pods=terminating, count=count, completions=completions)
    assert got == want


# ----------------------------------------------------------------------------------------
# Failure-count annotations
# ----------------------------------------------------------------------------------------

COUNTS = [
    pytest.param(pod(), 0, 0, id="missing annotations read as zero"),
    pytest.param(pod().failure_count(2).ignored_failure_count(3), 2, 3, id="both annotations are read"),
    pytest.param(pod().failure_count("x").ignored_failure_count("1.5"), 0, 0, id="unparsable values read as zero"),
    pytest.param(pod().failure_count(-1), 0, 0, id="a negative value reads as zero"),
    pytest.param(pod().failure_count(2**31), 0, 0, id="a value beyond MaxInt32 reads as zero"),
    pytest.param(pod().failure_count(2**31 - 1), 2**31 - 1, 0, id="MaxInt32 itself is accepted"),
]


@pytest.mark.parametrize(("builder", "failures", "ignored"), COUNTS)
def test_index_failure_counts(builder, failures, ignored):
    p = builder.build()
    assert (get_index_failure_count(p), get_index_ignored_failure_count(p)) == (failures, ignored)
    assert get_index_absolute_failure_count(p) == failures + ignored


NEW_COUNTS = [
    pytest.param(job(backoff_limit_per_index=2), None, (0, 0), {JOB_INDEX_FAILURE_COUNT_ANNOTATION: "0"},
                 id="the first pod of an index starts at zero"),
    pytest.param(job(backoff_limit_per_index=2), pod().failed().failure_count(1), (2, 0),
                 {JOB_INDEX_FAILURE_COUNT_ANNOTATION: "2"}, id="a replacement adds the replaced pod's failure"),
    pytest.param(job(backoff_limit_per_index=2, pod_failure_policy=IGNORE_EXIT_42),
                 pod().failed().failure_count(1).ignored_failure_count(1).exit_code(42), (1, 2),
                 {JOB_INDEX_FAILURE_COUNT_ANNOTATION: "1", JOB_INDEX_IGNORED_FAILURE_COUNT_ANNOTATION: "2"},
                 id="an ignored failure raises the ignored count"),
    pytest.param(job(backoff_limit_per_index=2, pod_failure_policy=IGNORE_EXIT_42),
                 pod().failed().failure_count(0).exit_code(1), (1, 0), {JOB_INDEX_FAILURE_COUNT_ANNOTATION: "1"},
                 id="a failure no rule matches is counted"),
]


@pytest.mark.parametrize(("j", "replaced", "counts", "annotations"), NEW_COUNTS)
def test_new_index_failure_counts(j, replaced, counts, annotations):
    replaced_pod = None if replaced is None else replaced.build()
    assert get_new_index_failure_counts(j, replaced_pod) == counts
    assert index_failure_count_annotations(j, replaced_pod) == annotations


# ----------------------------------------------------------------------------------------
# Pods with delayed deletion (backoffLimitPerIndex)
# ----------------------------------------------------------------------------------------


def _delayed(j, pods):
    return {ix: p.metadata.name for ix, p in get_pods_with_delayed_deletion_per_index(j, pods).items()}


DELAYED = [
    pytest.param([pod("f").failed().index(0).finished_at(T0)], {0: "f"},
                 id="a failed pod of an index that needs a replacement is kept"),
    pytest.param([pod("f").failed().index(0).finished_at(T0), pod("r").running().index(0)], {},
                 id="no pod is kept once the index is active again"),
    pytest.param([pod("f").failed().index(0).finished_at(T0), pod("s").succeeded().index(0)], {},
                 id="no pod is kept for a succeeded index"),
    pytest.param([pod("f").failed().index(0).failure_count(1).finished_at(T0)], {},
                 id="no pod is kept for a failed index"),
    pytest.param([pod("f").failed().index(0).finished_at(T0).no_finalizer()], {},
                 id="pods without the finalizer are not kept"),
    pytest.param([pod("f").failed().index(7).finished_at(T0), pod("g").failed().finished_at(T0)], {},
                 id="pods without a valid index below completions are not kept"),
    pytest.param([pod("old").failed().index(0).failure_count(0).finished_at(T0 - 20),
                  pod("new").failed().index(0).failure_count(0).finished_at(T0 - 10)], {0: "new"},
                 id="a later failure with the same count replaces the candidate"),
    pytest.param([pod("new").failed().index(0).failure_count(0).finished_at(T0 - 10),
                  pod("old").failed().index(0).failure_count(0).finished_at(T0 - 20)], {0: "new"},
                 id="an earlier failure does not replace the candidate"),
    pytest.param([pod("high").failed().index(0).failure_count(0).ignored_failure_count(1).finished_at(T0 - 20),
                  pod("low").failed().index(0).failure_count(0).finished_at(T0 - 10)], {0: "high"},
                 id="a lower absolute count does not replace the candidate even when later"),
    pytest.param([pod("same").failed().index(0).finished_at(T0), pod("twin").failed().index(0).finished_at(T0)],
                 {0: "twin"}, id="a failure at the same time and count replaces the candidate"),
]


@pytest.mark.parametrize(("builders", "expected"), DELAYED)
def test_pods_with_delayed_deletion_per_index(builders, expected):
    assert _delayed(job(completions=5, backoff_limit_per_index=1), [b.build() for b in builders]) == expected


def test_pods_whose_finalizer_removal_is_in_flight_are_not_kept():
    f = pod("f").failed().index(0).finished_at(T0).build()
    j = job(completions=5, backoff_limit_per_index=1)
    assert get_pods_with_delayed_deletion_per_index(j, [f], expected_rm_finalizers={f.metadata.uid}) == {}


# ----------------------------------------------------------------------------------------
# Pod template helpers
# ----------------------------------------------------------------------------------------


def test_completion_index_env_is_added_to_every_container_that_lacks_it():
    own = EnvVar(name=JOB_COMPLETION_INDEX_ENV, value="mine")
    template = PodTemplateSpec(spec=PodSpec(
        containers=(Container(name="main"), Container(name="custom", env=(own,))),
        init_containers=(Container(name="init"),),
    ))
    result = add_completion_index_env_variables(template)
    field_ref = {"fieldRef": {"fieldPath": f"metadata.labels['{JOB_COMPLETION_INDEX_ANNOTATION}']"}}
    assert result.spec.containers[0].env == (EnvVar(name=JOB_COMPLETION_INDEX_ENV, value_from=field_ref),)
    assert result.spec.containers[1].env == (own,)
    assert result.spec.init_containers[0].env == (EnvVar(name=JOB_COMPLETION_INDEX_ENV, value_from=field_ref),)


def test_completion_index_annotation_and_label():
    template = add_completion_index_label(add_completion_index_annotation(PodTemplateSpec(), 3), 3)
    assert template.metadata.annotations == {JOB_COMPLETION_INDEX_ANNOTATION: "3"}
    assert template.metadata.labels == {JOB_COMPLETION_INDEX_ANNOTATION: "3"}


GENERATE_NAMES = [
    pytest.param("indexed-job", 1, "indexed-job-1-", id="a short job name is kept"),
    pytest.param("hhhhhooooo" * 7, 1, "hhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhh-1-",
                 id="a long job name is cut so that the prefix fits 58 characters"),
    pytest.param("hhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhoo", 1,
                 "hhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhhooooohhhhh-1-",
                 id="a name that only overflows with the index suffix is cut too"),
]


@pytest.mark.parametrize(("name", "index", "expected"), GENERATE_NAMES)
def test_pod_generate_name_with_index(name, index, expected):
    assert pod_generate_name_with_index(name, index) == expected


# ----------------------------------------------------------------------------------------
# Properties
# ----------------------------------------------------------------------------------------

index_sets = st.sets(st.integers(0, 60), max_size=30)


@given(index_sets, st.integers(61, 100))
def test_the_canonical_string_reads_back_to_the_same_set(indexes, completions):
    intervals = OrderedIntervals.from_indexes(indexes)
    assert parse_indexes_from_string(str(intervals), completions) == intervals
    assert set(intervals.indexes()) == indexes and intervals.total() == len(indexes)


@given(index_sets, st.integers(1, 61))
def test_parsing_with_fewer_completions_keeps_the_indexes_below_them(indexes, completions):
    text = str(OrderedIntervals.from_indexes(indexes))
    assert set(parse_indexes_from_string(text, completions).indexes()) == {i for i in indexes if i < completions}


@given(index_sets, index_sets)
def test_merge_is_set_union_and_has_is_membership(a, b):
    merged = OrderedIntervals.from_indexes(a).merge(OrderedIntervals.from_indexes(b))
    assert merged == OrderedIntervals.from_indexes(a | b)
    assert all(merged.has(i) == (i in a | b) for i in range(-1, 62))
    runs = merged.intervals
    assert all(runs[k].last + 1 < runs[k + 1].first for k in range(len(runs) - 1))
