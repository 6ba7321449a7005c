"""The root conftest's kernel start for nbval: a kernel that never answers is replaced, twice at most."""

from __future__ import annotations

import importlib.util
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _root_conftest():
    spec = importlib.util.spec_from_file_location("k8sjobs_root_conftest", ROOT / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _flaky_start(failures: int, calls: list):
    """A stand-in for nbval's start_new_kernel: writes to the kernel's stderr, fails `failures` times."""
    def start(startup_timeout=60, kernel_name="python", **kwargs):
        calls.append(kwargs)
        kwargs["stderr"].write(f"kernel {len(calls)} stuck binding its ports\n")
        kwargs["stderr"].flush()
        if len(calls) <= failures:
            raise RuntimeError("Kernel didn't respond in 60 seconds")
        return ("km", "kc")
    return start


def test_a_kernel_that_starts_at_once_is_started_once_and_nothing_is_reported():
    calls, warnings = [], []
    start = _root_conftest().patient_kernel_start(_flaky_start(0, calls), warn=warnings.append)
    assert start(startup_timeout=5, kernel_name="python3", cwd="notebooks/en") == ("km", "kc")
    assert len(calls) == 1 and warnings == []


def test_a_kernel_that_does_not_answer_is_replaced_and_each_failure_reports_the_kernels_stderr():
    calls, warnings = [], []
    start = _root_conftest().patient_kernel_start(_flaky_start(2, calls), warn=warnings.append)
    assert start(startup_timeout=5, cwd="notebooks/zh-CN") == ("km", "kc")
    assert len(calls) == 3
    assert len(warnings) == 2
    assert "kernel start 1 of 3 failed (Kernel didn't respond in 60 seconds)" in warnings[0]
    assert "cwd notebooks/zh-CN" in warnings[0]
    assert "kernel 1 stuck binding its ports" in warnings[0]
    assert "kernel 2 stuck binding its ports" in warnings[1]
    # each attempt gets its own stderr file, never the last attempt's
    assert len({id(c["stderr"]) for c in calls}) == 3


def test_a_kernel_that_never_starts_still_fails_the_lesson_with_the_last_kernels_stderr():
    calls, warnings = [], []
    start = _root_conftest().patient_kernel_start(_flaky_start(5, calls), warn=warnings.append)
    with pytest.raises(RuntimeError, match=r"kernel start 3 of 3 failed") as err:
        start(cwd="notebooks/ru")
    assert "kernel 3 stuck binding its ports" in str(err.value)
    assert len(calls) == 3 and len(warnings) == 2


def test_an_nbval_run_installs_the_patient_start_once():
    import nbval.kernel

    # this file is collected by the plain pytest stage (no --nbval): the hook leaves nbval alone
    # there; the nbval stage's hook replaces start_new_kernel with the wrapper, marked as such
    conftest = _root_conftest()

    class Options:
        nbval_lax = True
        nbval = False

    class Config:
        option = Options()

    original = nbval.kernel.start_new_kernel
    try:
        conftest.pytest_configure(Config())
        wrapped = nbval.kernel.start_new_kernel
        assert wrapped is not original and wrapped.k8sjobs_patient
        conftest.pytest_configure(Config())
        assert nbval.kernel.start_new_kernel is wrapped
    finally:
        nbval.kernel.start_new_kernel = original
