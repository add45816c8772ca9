"""The `wargym serve` browser client: its routes, and a person's game in real headless Chromium.

The page (src/wargym/server/static) plays No Quarter over POST /v1 like any front end. The
browser tests start the real server (uvicorn on a free loopback port, in a thread), drive
Debian's chromium through chromium-driver with selenium, and click their way through a game.
They carry the ``browser`` marker (tests/conftest.py): skipped with a clear message when the
browser is missing, failed instead under ``WARGYM_REQUIRE_BROWSER=1`` (``.ci/run``).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from wargym.server import Handler
from wargym.server.web import ASSETS, CSP

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "agents" / "models" / "nq_skirmish_ppo.onnx"
STATIC = ROOT / "src" / "wargym" / "server" / "static"
P = "wargym-protocol/1"
pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx`")
CHROME_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run", "--window-size=1500,1100",
)  # fmt: skip


def _handler() -> Handler:
    """The shipped opponent when onnxruntime is installed (the [export] extra), else the rules."""
    if importlib.util.find_spec("onnxruntime") is None:
        return Handler()
    from wargym.server.policy import OnnxOpponent

    return Handler(OnnxOpponent(str(MODEL)))


@contextlib.contextmanager
def _server(handler: Handler) -> Iterator[str]:
    """The real app under uvicorn on 127.0.0.1 (a free port); yields its base URL."""
    import uvicorn

    from wargym.server.http import create_app

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(handler, timeout_s=30.0),
                                           log_level="critical", lifespan="off"))  # fmt: skip
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with _server(_handler()) as url:
        yield url


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser") or ""
    for flag in CHROME_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'chromium-profile'}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


# -- helpers of the browser tests ----------------------------------------------------------
def _wait(driver: Any, condition: str, timeout: float = 60.0) -> None:
    """Wait until the JavaScript expression ``condition`` is true on the page."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, timeout).until(lambda d: d.execute_script(f"return {condition};"))


def _idle(driver: Any) -> None:
    _wait(driver, "document.body.dataset.busy === '0'")


def _console_errors(driver: Any) -> list[str]:
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def _start(driver: Any, base_url: str, scenario: str, seed: int, mechs: int = 1,
           turns: int = 3) -> None:  # fmt: skip
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver.get(base_url + "/")  # redirected to /play
    _wait(driver, "document.body.dataset.ready === '1'")
    for field, value in (("mechs-per-side", mechs), ("max-turns", turns), ("seed", seed)):
        box = driver.find_element(By.ID, field)
        box.clear()
        box.send_keys(str(value))
    Select(driver.find_element(By.ID, "scenario")).select_by_value(scenario)
    hidden = driver.find_element(By.ID, "skirmish-options").get_attribute("hidden")
    assert (hidden is None) == (scenario == "skirmish")  # a mission has its own forces
    driver.find_element(By.ID, "start").click()
    _wait(driver, "document.body.dataset.started === '1' && document.body.dataset.turn")
    _idle(driver)


def _log(driver: Any) -> list[tuple[str, str]]:
    from selenium.webdriver.common.by import By

    items = driver.find_elements(By.CSS_SELECTOR, "#log li")
    return [(li.get_attribute("class"), li.text) for li in items]


def _click_a_choice(driver: Any, used: set[str]) -> str:
    """Click one legal choice the way a person would; returns what was clicked."""
    from selenium.webdriver.common.by import By

    moves = driver.find_elements(By.CSS_SELECTOR, "#board .move-target.forward")
    targets = driver.find_elements(By.CSS_SELECTOR, "#board .mech.target")
    facings = driver.find_elements(By.CSS_SELECTOR, "#board .face-target")
    if moves and "move" not in used:
        moves[len(moves) // 2].click()
        return "move"
    if facings and "face" not in used:  # an arrow around the mech: then its torso twists
        facings[len(facings) // 2].click()
        _idle(driver)
        twists = driver.find_elements(By.CSS_SELECTOR, "#actions > button[data-action]")
        assert 1 <= len(twists) <= 3
        assert all(b.get_attribute("data-kind") in ("Face", "Stay") for b in twists)
        twists[0].click()
        return "face"
    if targets:
        targets[0].find_element(By.CSS_SELECTOR, "circle.base").click()
        _idle(driver)
        left = driver.find_elements(By.CSS_SELECTOR, "#actions > button[data-kind=AssignFire]")
        if left:  # several weapons at that target: the list now holds only them
            left[0].click()
        return "target"
    buttons = driver.find_elements(By.CSS_SELECTOR, "#actions button[data-action]")
    visible = [b for b in buttons if b.is_displayed()]
    preferred = [b for b in visible if b.get_attribute("data-kind") in ("ActivateGroup", "EndFire")]
    if moves:
        moves[0].click()
        return "move"
    (preferred or visible)[0].click()
    return "button"


# -- the browser tests ---------------------------------------------------------------------
@pytest.mark.browser(driver=True)
def test_a_person_plays_a_skirmish_to_the_end_by_clicking(base_url: str, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    _start(browser, base_url, "skirmish", seed=11, mechs=1, turns=3)
    board = browser.find_element(By.ID, "board")
    assert board.find_elements(By.CSS_SELECTOR, "g.terrain rect")  # the terrain is drawn
    mechs = board.find_elements(By.CSS_SELECTOR, "g.mech")
    assert len(mechs) == 2
    assert {m.get_attribute("class").split()[1] for m in mechs} == {"side-blue", "side-red"}
    for mech in mechs:  # facing (legs, torso) and the front arc
        assert mech.find_elements(By.CSS_SELECTOR, "path.arc")
        assert mech.find_elements(By.CSS_SELECTOR, "line.legs")
        assert mech.find_elements(By.CSS_SELECTOR, "line.torso")
    cards = browser.find_elements(By.CSS_SELECTOR, "#mechs .mech-card")
    assert len(cards) == 2 and all(len(c.find_elements(By.CSS_SELECTOR, "tr")) == 7 for c in cards)
    assert "left arm" in cards[0].text and "/" in cards[0].text  # armour now / of the design
    clicked: set[str] = set()
    sizes = [len(_log(browser))]
    for _ in range(200):
        if browser.execute_script("return document.body.dataset.over") == "1":
            break
        clicked.add(_click_a_choice(browser, clicked))
        _idle(browser)
        assert not browser.find_element(By.ID, "error").is_displayed(), \
            browser.find_element(By.ID, "error").text
        sizes.append(len(_log(browser)))
    else:
        pytest.fail("the game did not end within 200 clicks")
    assert browser.find_element(By.ID, "status").text.startswith("Game over")
    assert {"move", "face", "target", "button"} <= clicked
    assert sizes[-1] > sizes[0] and sizes == sorted(sizes)  # the log only grows
    log = _log(browser)
    kinds = {kind for kind, _ in log}
    assert {"log-you", "log-opponent", "log-event"} <= kinds
    assert any(text.startswith("Opponent (") for _, text in log)
    assert any(text.startswith("Turn 2 begins") for _, text in log)
    assert any("ends on turn" in text or "out of the battle" in text for _, text in log)
    for _, text in log:  # words, never field dumps
        assert not re.search(r"\w=|[{}\[\]]|\w\.\w+_\w|undefined|NaN|null|\[object", text), text
    assert not browser.find_elements(By.CSS_SELECTOR, "#actions button")  # nothing left to do
    assert _console_errors(browser) == []


@pytest.mark.browser(driver=True)
def test_a_target_clicked_on_the_map_fires_at_it(base_url: str, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    _start(browser, base_url, "skirmish", seed=11, mechs=1, turns=3)
    for _ in range(60):  # buttons and moves until the enemy is a target
        if browser.find_elements(By.CSS_SELECTOR, "#board .mech.target"):
            break
        assert browser.execute_script("return document.body.dataset.over") == "0"
        _click_a_choice(browser, {"move"})
        _idle(browser)
    before = len(_log(browser))
    target = browser.find_element(By.CSS_SELECTOR, "#board .mech.target")
    name = target.find_element(By.CSS_SELECTOR, "text.label").text
    target.find_element(By.CSS_SELECTOR, "circle.base").click()
    _idle(browser)
    weapons = browser.find_elements(By.CSS_SELECTOR, "#actions > button[data-kind=AssignFire]")
    if weapons:  # several weapons could fire: only those at the clicked target are listed
        assert all(name in w.text for w in weapons)
        weapons[0].click()
        _idle(browser)
    after = _log(browser)
    assert len(after) > before
    assert any(kind == "log-you" and "Fire the" in text and name in text for kind, text in after)
    assert _console_errors(browser) == []


@pytest.mark.browser(driver=True)
def test_a_building_clicked_on_the_map_is_fired_at(base_url: str, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    _start(browser, base_url, "skirmish", seed=1, mechs=1, turns=3)
    for _ in range(60):  # until a building can be fired at
        if browser.find_elements(By.CSS_SELECTOR, "#board g.terrain.target"):
            break
        assert browser.execute_script("return document.body.dataset.over") == "0"
        _click_a_choice(browser, {"move"})
        _idle(browser)
    building = browser.find_element(By.CSS_SELECTOR, "#board g.terrain.target")
    feature = building.get_attribute("data-feature")
    building.find_element(By.CSS_SELECTOR, "rect").click()
    _idle(browser)
    weapons = browser.find_elements(By.CSS_SELECTOR, "#actions > button[data-action]")
    if weapons:  # several weapons could fire at it: only those are listed
        assert all(w.text.endswith(f" at the building {feature}") for w in weapons)
        weapons[0].click()
        _idle(browser)
    mine = [text for kind, text in _log(browser) if kind == "log-you"]
    assert any(text.endswith(f" at the building {feature}.") for text in mine), mine
    assert _console_errors(browser) == []


@pytest.mark.browser(driver=True)
def test_pef_markers_show_a_position_only(base_url: str, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    seed = 5
    _start(browser, base_url, "patrol_star_army_vs_hishen", seed=seed)
    expected = Handler().handle({"protocol": P, "type": "new_game", "system": "no_quarter",
                                 "scenario": "patrol_star_army_vs_hishen",
                                 "seed": seed + 1})  # the page's first request  # fmt: skip
    pefs = expected["state"]["np"]["pefs"]
    markers = browser.find_elements(By.CSS_SELECTOR, "#board g.pef")
    assert len(markers) == len(pefs) >= 1
    for marker in markers:
        assert marker.text == "?"
        titles = browser.execute_script(
            "return [...arguments[0].querySelectorAll('title')].map(t => t.textContent)", marker)
        assert titles == ["possible enemy force (unknown until spotted)"]
    # a marker is placed and moves without a word of what it is; a spotted one is resolved
    said = [t for _, t in _log(browser) if "possible enemy force" in t]
    placed = "A possible enemy force marker is placed."
    moved = "A possible enemy force marker moves."
    spotted = [t for t in said if t.startswith("A possible enemy force is spotted: ")]
    assert set(said) - set(spotted) <= {placed, moved}
    events = [e["type"] for e in expected["events"]]
    assert said.count(placed) == events.count("PefPlaced") and len(spotted) == events.count(
        "PefResolved")
    cards = browser.find_elements(By.CSS_SELECTOR, "#mechs .mech-card")
    assert len(cards) == len(expected["state"]["mechs"])
    assert _console_errors(browser) == []


HOSTILE = ('<img src=x onerror="document.body.dataset.pwned=1">'
           '<script>document.title="pwned"</script>')


class _HostileNames(Handler):
    """A server whose positions name every pilot, design and weapon with markup."""

    @staticmethod
    def _position(battle: Any, events: Any, include_state: bool = True) -> dict[str, Any]:
        out = Handler._position(battle, events, include_state)
        for mech in out.get("state", {}).get("mechs", {}).values():
            mech["pilot"]["name"] = HOSTILE
            mech["design"]["name"] = HOSTILE
            for item in mech["design"]["items"]:
                item["label"] = HOSTILE
        for event in out.get("events", []):
            if "name" in event:
                event["name"] = HOSTILE
        return out


@pytest.mark.browser(driver=True)
def test_markup_in_server_data_is_shown_as_text(browser: Any) -> None:
    from selenium.webdriver.common.by import By

    with _server(_HostileNames()) as url:
        _start(browser, url, "skirmish", seed=11, mechs=1, turns=3)
        labels = [t.text for t in browser.find_elements(By.CSS_SELECTOR, "#board text.label")]
        assert labels == [HOSTILE, HOSTILE]
        cards = browser.find_elements(By.CSS_SELECTOR, "#mechs .mech-card h3")
        assert all(HOSTILE in card.text for card in cards)
        assert any(HOSTILE in text for _, text in _log(browser))
        assert browser.execute_script("return document.body.dataset.pwned") is None
        assert browser.title != "pwned"
        assert not browser.find_elements(By.CSS_SELECTOR, "#board img, #log img, #mechs img")
        assert not browser.find_elements(By.CSS_SELECTOR, "body script:not([src])")
        # sent back, the renamed designs are refused (422): the page says so, as text
        error = browser.find_element(By.ID, "error")
        assert error.is_displayed() and error.text.startswith("invalid_state: ")
        assert all("status of 422" in line for line in _console_errors(browser))


@pytest.mark.browser(driver=True)
def test_a_bad_seed_is_refused_on_the_page(base_url: str, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    for seed in ("abc", "-1", "1.5", "1e300", "99999999999999999999", "<b>7</b>"):
        browser.get(base_url + "/play")
        _wait(browser, "document.body.dataset.ready === '1'")
        browser.find_element(By.ID, "seed").send_keys(seed)
        browser.find_element(By.ID, "start").click()
        error = browser.find_element(By.ID, "error")
        assert error.is_displayed() and error.text.startswith("seed: a whole number from 0 to ")
        assert browser.execute_script("return document.body.dataset.started") is None  # no game
        assert not browser.find_elements(By.CSS_SELECTOR, "#board g.mech, #log li")
    assert _console_errors(browser) == []


def _position_seen(driver: Any) -> dict[str, Any]:
    """What the page shows of a position: the map, the mech cards, the log, the options."""
    return driver.execute_script(
        "const text = (sel) => [...document.querySelectorAll(sel)].map((e) => e.textContent);"
        "return {board: document.getElementById('board').innerHTML,"
        " mechs: text('#mechs h3, #mechs p, #mechs td'),"
        " log: text('#log li'), actions: text('#actions button[data-action]'),"
        " decision: document.getElementById('decision').textContent,"
        " status: document.getElementById('status').textContent};")


SAVED = "wargym.play/1"


@pytest.mark.browser(driver=True)
def test_a_reload_continues_the_saved_game(base_url: str, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    _start(browser, base_url, "skirmish", seed=11, mechs=1, turns=3)
    _click_a_choice(browser, set())  # a move
    _idle(browser)
    before = _position_seen(browser)
    assert any(line.startswith("You: ") for line in before["log"]) and before["actions"]
    browser.refresh()
    _wait(browser, "document.body.dataset.ready === '1'")
    assert not browser.find_elements(By.CSS_SELECTOR, "#board g.mech, #log li")  # not yet
    button = browser.find_element(By.ID, "continue")
    assert button.is_displayed() and button.text == "Continue the saved game"
    button.click()
    _wait(browser, "document.body.dataset.started === '1' && document.body.dataset.turn")
    _idle(browser)
    after = _position_seen(browser)
    assert after["log"] == [*before["log"], "Restarted from the saved position."]
    for part in ("board", "mechs", "actions", "decision", "status"):
        assert after[part] == before[part], part
    assert browser.find_element(By.ID, "seed").get_attribute("value") == "11"
    assert not browser.find_element(By.ID, "continue").is_displayed()
    browser.find_element(By.CSS_SELECTOR, "#actions > button[data-action]").click()  # plays on
    _idle(browser)
    assert not browser.find_element(By.ID, "error").is_displayed()
    assert len(_log(browser)) > len(after["log"])
    browser.find_element(By.ID, "start").click()  # a new game drops the kept one first
    _idle(browser)
    kept = browser.execute_script(f"return JSON.parse(sessionStorage.getItem('{SAVED}'))")
    assert [tuple(line) for line in kept["log"]] == _log(browser)  # the new game's lines only
    assert not any("Restarted" in text for _, text in kept["log"])
    assert _console_errors(browser) == []


@pytest.mark.browser(driver=True)
def test_a_tampered_storage_entry_is_refused_in_words(base_url: str, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    _start(browser, base_url, "skirmish", seed=11, mechs=1, turns=3)
    for text, why in (("{not json", "it is not valid JSON"), ("[1, 2]", "it is not an object")):
        browser.execute_script("sessionStorage.setItem(arguments[0], arguments[1])", SAVED, text)
        browser.refresh()
        _wait(browser, "document.body.dataset.ready === '1'")
        assert _log(browser) == [("log-note", f"The saved game was discarded: {why}.")]
        assert not browser.find_element(By.ID, "continue").is_displayed()
        assert browser.execute_script(f"return sessionStorage.getItem('{SAVED}')") is None
    _start(browser, base_url, "skirmish", seed=11, mechs=1, turns=3)
    browser.execute_script(  # an edited state: a mech with Rep 99 and markup for a name
        "const k = arguments[0], e = JSON.parse(sessionStorage.getItem(k));"
        "const m = Object.values(e.state.mechs)[0]; m.rep = 99; m.pilot.name = arguments[1];"
        "e.log.push(['log-event', arguments[1]]);"
        "sessionStorage.setItem(k, JSON.stringify(e));", SAVED, HOSTILE)
    browser.refresh()
    _wait(browser, "document.body.dataset.ready === '1'")
    browser.find_element(By.ID, "continue").click()
    _idle(browser)
    error = browser.find_element(By.ID, "error")
    assert error.is_displayed() and error.text.startswith("invalid_state: "), error.text
    assert browser.find_element(By.ID, "status").text == (
        "The saved game was refused: start a new game.")
    assert not browser.find_elements(By.CSS_SELECTOR, "#board g.mech, #log li, #actions button")
    assert not browser.find_element(By.ID, "continue").is_displayed()
    assert browser.find_element(By.ID, "start").is_enabled()  # a new game is offered
    assert browser.execute_script(f"return sessionStorage.getItem('{SAVED}')") is None
    assert browser.execute_script("return document.body.dataset.pwned") is None
    # the refused request is the only console line (Chrome logs the 422 answer), no script error
    assert all("status of 422" in line for line in _console_errors(browser))


# -- the routes (no browser needed) --------------------------------------------------------
@pytest.fixture(scope="module")
def client() -> Any:
    from fastapi.testclient import TestClient

    from wargym.server.http import create_app

    return TestClient(create_app(Handler()))


def test_page_and_assets_with_their_types_and_policy(client: Any) -> None:
    root = client.get("/", follow_redirects=False)
    assert root.status_code == 307 and root.headers["location"] == "/play"
    page = client.get("/play")
    assert page.status_code == 200 and page.headers["content-type"] == "text/html; charset=utf-8"
    assert page.headers["content-security-policy"] == CSP and "script-src 'self'" in CSP
    assert page.headers["x-content-type-options"] == "nosniff"
    for name, kind in ASSETS.items():
        if name == "index.html":
            continue
        asset = client.get(f"/static/{name}")
        assert asset.status_code == 200 and asset.headers["content-type"] == kind
        assert asset.content == (STATIC / name).read_bytes()
    assert sorted(ASSETS) == sorted(p.name for p in STATIC.iterdir())  # every file is served
    scripts = re.findall(r"<script[^>]*>", page.text)
    assert scripts == ['<script type="module" src="/static/app.js">']  # no inline script
    assert not re.search(r"\son\w+=", page.text)  # no inline handlers


@pytest.mark.parametrize("path", [
    "/static/../http.py", "/static/%2e%2e%2fhttp.py", "/static/..%2F..%2Fprotocol.py",
    "/static/index.html", "/static/", "/static/app.js%00.txt", "/static/APP.JS",
    "/static/schemas/request.json", "/static/%2Fetc%2Fpasswd",
])  # fmt: skip
def test_nothing_else_is_served(client: Any, path: str) -> None:
    answer = client.get(path, follow_redirects=False)
    assert answer.status_code == 404, path
    assert b"import" not in answer.content and b"<html" not in answer.content


def test_the_assets_name_no_other_address_and_write_no_markup() -> None:
    for path in STATIC.iterdir():
        text = path.read_text()
        urls = set(re.findall(r"[a-z]+://[^\s\"')]*", text))
        assert urls <= {"http://www.w3.org/2000/svg"}, (path.name, urls)  # a namespace only
        assert "//cdn" not in text and "@import" not in text
        if path.suffix == ".js":
            for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write",
                         "eval(", "Function(", "srcdoc"):  # fmt: skip
                assert sink not in text, (path.name, sink)


def test_serve_prints_the_page_url(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "wargym.cli", "serve", "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().strip()
        url = f"http://127.0.0.1:{port}/play"
        assert line.endswith(url), line
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(url, timeout=5) as reply:  # noqa: S310 - loopback
                    assert "<svg id=\"board\"" in reply.read().decode()
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None
                time.sleep(0.1)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


# -- the browser switch of tests/conftest.py ---------------------------------------------------
@pytest.mark.parametrize("required", [False, True])
def test_browser_tests_skip_or_fail_without_a_browser(required: bool, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "WARGYM_REQUIRE_BROWSER")}
    env["PATH"] = str(tmp_path)  # no chromium, no chromedriver on it
    if required:
        env["WARGYM_REQUIRE_BROWSER"] = "1"
    test = "tests/test_replay.py::test_page_in_headless_chromium"
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rsf", "-p", "no:cacheprovider",
                           "-p", "no:xdist", test], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    out = done.stdout + done.stderr
    hint = "chromium and chromium-driver (Debian packages) are not installed: apt-get install"
    assert hint in out, out[-2000:]
    if required:
        assert done.returncode == 1 and "1 error" in out and "WARGYM_REQUIRE_BROWSER is set" in out
    else:
        assert done.returncode == 0 and "1 skipped" in out
