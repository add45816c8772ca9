"""Suite-wide pytest hooks.

Under CI (``CI=true``, as ``.ci/run`` is started) a skipped test is a failure: every tool a
test needs (chromium, node, the optional extras) is installed by ``.ci/run`` and ``make test``,
so a skip there would hide a check that never ran. Locally, skips stay skips.
"""

from __future__ import annotations

import os

import pytest


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):  # type: ignore[no-untyped-def]
    outcome = yield
    report = outcome.get_result()
    if _in_ci() and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.longrepr = f"skipped under CI (CI=true), which must run every test: {reason}"
