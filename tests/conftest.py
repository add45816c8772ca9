"""Suite-wide pytest hooks.

Under CI (``CI=true``, as ``.ci/run`` is started) a skipped test is a failure: every tool a
test needs (chromium, node, the optional extras) is installed by ``.ci/run`` and ``make test``,
so a skip there would hide a check that never ran. Locally, skips stay skips.

Tests marked ``browser`` (``browser(driver=True)``: through chromium-driver and selenium) are
skipped with an ``apt-get install chromium chromium-driver`` hint when the browser is missing,
and fail instead when ``WARGYM_REQUIRE_BROWSER=1`` (``.ci/run`` exports it).
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


# -- the browser switch ---------------------------------------------------------------------
REQUIRE_BROWSER = "WARGYM_REQUIRE_BROWSER"
"""Set to 1 (``.ci/run`` does): a test marked ``browser`` fails when the browser is missing."""
BROWSER_HINT = (
    "chromium and chromium-driver (Debian packages) are not installed: "
    "apt-get install chromium chromium-driver"
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "browser(driver=False): runs Debian's chromium (driver=True: through chromium-driver and "
        f"selenium); skipped when missing, failed instead when {REQUIRE_BROWSER}=1",
    )


def _missing_browser_tools(driver: bool) -> list[str]:
    import importlib.util
    import shutil

    missing = [] if shutil.which("chromium") or shutil.which("chromium-browser") else ["chromium"]
    if driver:
        if not shutil.which("chromedriver"):
            missing.append("chromedriver")
        if importlib.util.find_spec("selenium") is None:
            missing.append("selenium (the [dev] extra)")
    return missing


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    marker = item.get_closest_marker("browser")
    if marker is None:
        return
    missing = _missing_browser_tools(bool(marker.kwargs.get("driver", False)))
    if not missing:
        return
    reason = f"{BROWSER_HINT} (missing: {', '.join(missing)})"
    if os.environ.get(REQUIRE_BROWSER, "").lower() in ("1", "true", "yes"):
        pytest.fail(f"{REQUIRE_BROWSER} is set, so this browser test must run: {reason}",
                    pytrace=False)  # fmt: skip
    pytest.skip(reason)
