# ruff: noqa: E501
"""Bad and hostile replay files (issue 21, items 3, 8, 11; docs/bad_input.md section 7).

``wargym replay FILE --html OUT`` either writes a page in which nothing taken from the replay
is markup, or refuses with exit status 2, one line on stderr, no traceback, and every file in
the folder as it was (no output written, the input untouched).

"A page in which nothing from data is markup" is checked in two halves, both plain Python:

* the HTML the command writes has exactly the elements and attributes of the page template
  (parsed with :mod:`html.parser`), whatever the replay holds: the data sits in one
  ``application/json`` block whose text holds no ``<``, ``>`` or ``&`` and parses back to the
  view;
* the page's script has no HTML sink at all (``innerHTML``, ``outerHTML``,
  ``insertAdjacentHTML``, ``document.write``, ``eval``, ``Function``): it builds every node
  with ``createElement`` / ``createElementNS``, ``setAttribute`` with names it spells itself,
  and text nodes.

With node installed, the script also runs over hostile pages in a recording fake DOM.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import subprocess
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wargym.cli import main as cli_main
from wargym.replay import frames_of, record_hex_replay
from wargym.replay_page import render_page

HOSTILE = [
    "<script>document.title='pwned'</script>",
    '"><img src=x onerror="document.title=\'pwned\'">',
    "</script><script>document.title='pwned'</script>",
    "<!--",
    "'; document.title='pwned'; '",
    "${document.title='pwned'}",
    "\u2028\u2029</SCRIPT >",
    "&lt;b&gt; & &amp;",
    "<svg onload=alert(1)>",
    "javascript:alert(1)",
]


# -- replays to start from ------------------------------------------------------------------


@pytest.fixture(scope="module")
def hex_replay() -> dict[str, Any]:
    return record_hex_replay("wargym/PentagonWar-Duel-v0", seed=0, max_steps=4)


@pytest.fixture(scope="module")
def nq_replay(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A patrol mission replay (it has PEFs), a few decisions long."""
    import gymnasium
    import numpy as np

    import wargym.envs  # noqa: F401

    env = gymnasium.make("wargym/NoQuarter-Patrol-v1")
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(6):
        obs, _, terminated, truncated, _ = env.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"])))
        )
        if terminated or truncated:
            break
    path = tmp_path_factory.mktemp("nq") / "patrol.json"
    env.unwrapped.save_replay(path)
    data: dict[str, Any] = json.loads(path.read_text())
    assert data["start"]["np"]["pefs"] and data["steps"]
    return data


# -- what a safe page is ----------------------------------------------------------------------


class _Structure(HTMLParser):
    """Every element and attribute of a page, and the text of its JSON data block."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, tuple[tuple[str, str | None], ...]]] = []
        self.data_blocks: list[str] = []
        self._in_data = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, tuple(attrs)))
        self._in_data = tag == "script" and ("type", "application/json") in attrs
        if self._in_data:
            self.data_blocks.append("")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, tuple(attrs)))

    def handle_endtag(self, tag: str) -> None:
        self.tags.append(("/" + tag, ()))
        self._in_data = False

    def handle_data(self, data: str) -> None:
        if self._in_data:
            self.data_blocks[-1] += data

    def handle_comment(self, data: str) -> None:
        self.tags.append(("!--", ((data, None),)))


def _structure(page: str) -> _Structure:
    parser = _Structure()
    parser.feed(page)
    parser.close()
    return parser


TEMPLATE = _structure(render_page({"title": "t", "frames": [], "map": {"kind": "hex"}}))


def _script_of(page: str) -> str:
    start = page.index("<script>\n") + len("<script>\n")
    return page[start : page.index("</script>", start)]


def assert_safe_page(page: str, view: dict[str, Any]) -> None:
    """The page is the template plus inert data (see the module docstring)."""
    found = _structure(page)
    assert found.tags == TEMPLATE.tags, "an element or attribute of the page came from data"
    (block,) = found.data_blocks
    assert not set(block) & set("<>&\u2028\u2029"), "raw markup characters in the JSON block"
    assert json.loads(block) == json.loads(json.dumps(view)), "the JSON block is not the view"
    assert "http://" not in page and "https://" not in page


def test_page_script_has_no_html_sink() -> None:
    script = _script_of(render_page({"title": "t", "frames": [], "map": {"kind": "hex"}}))
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                 "Function(", "srcdoc", "setAttributeNS"):  # fmt: skip
        assert sink not in script, sink
    assert "createElementNS" in script and "createTextNode" in script


def test_embedded_json_escapes_markup_characters() -> None:
    view = {"title": "<b>&</b>", "frames": [{"label": "</script>\u2028\u2029<!--"}]}
    page = render_page(view)
    assert_safe_page(page, view)
    assert "&lt;b&gt;&amp;&lt;/b&gt;" in page.split("</title>")[0]


# -- fixed hostile values in the fields the issue names ----------------------------------------


def _hex_with(hex_replay: dict[str, Any], field: str, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(hex_replay)
    if field in ("title", "system"):
        data[field] = value
    elif field == "label":
        data["frames"][1]["label"] = value
    elif field == "event":
        data["frames"][1]["events"] = [{"type": value, value: value}]
    else:
        data["frames"][1]["units"][0][field] = value
    return data


def _run(folder: Path, argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    try:
        code = cli_main(argv)
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    return code, capsys.readouterr().err


def _snapshot(folder: Path) -> dict[str, bytes | None]:
    return {
        str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None)
        for p in sorted(folder.rglob("*"))
    }


def assert_refused(code: int, err: str, before: dict[str, Any], folder: Path) -> None:
    assert code == 2, (code, err)
    assert "Traceback" not in err
    assert err.startswith("wargym replay") and err.count("\n") == 1, err
    assert len(err) < 400, err
    assert _snapshot(folder) == before


@pytest.mark.parametrize("payload", HOSTILE)
@pytest.mark.parametrize("field", ["id", "label", "side", "title", "system", "event"])
def test_hostile_hex_strings_are_text(
    hex_replay: dict[str, Any], field: str, payload: str, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    data = _hex_with(hex_replay, field, payload)
    (tmp_path / "r.json").write_text(json.dumps(data))
    code, err = _run(tmp_path, ["replay", str(tmp_path / "r.json"), "--html",
                                str(tmp_path / "o.html")], capsys)  # fmt: skip
    assert code == 0, err
    assert_safe_page((tmp_path / "o.html").read_text(), frames_of(data))


@pytest.mark.parametrize("payload", [*HOSTILE[:3], None, [1, 2], {"a": 1}, 1e300, True])
@pytest.mark.parametrize("field", ["q", "r", "facing"])
def test_hex_coordinates_must_be_numbers(
    hex_replay: dict[str, Any], field: str, payload: Any, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    (tmp_path / "r.json").write_text(json.dumps(_hex_with(hex_replay, field, payload)))
    before = _snapshot(tmp_path)
    code, err = _run(tmp_path, ["replay", str(tmp_path / "r.json"), "--html",
                                str(tmp_path / "o.html")], capsys)  # fmt: skip
    assert_refused(code, err, before, tmp_path)
    assert f"frames[1].units[0].{field}" in err


@pytest.mark.parametrize("payload", HOSTILE[:3])
def test_hostile_mech_name_is_text_and_a_hostile_pef_id_is_refused(
    nq_replay: dict[str, Any], payload: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A mech name is free text: it reaches the page, as text. A PEF id is a number in the
    engine's one definition of a valid battle (validity_parts), so markup there is refused."""
    data = copy.deepcopy(nq_replay)
    next(iter(data["start"]["mechs"].values()))["name"] = payload
    (tmp_path / "r.json").write_text(json.dumps(data))
    code, err = _run(tmp_path, ["replay", str(tmp_path / "r.json"), "--html",
                                str(tmp_path / "o.html")], capsys)  # fmt: skip
    assert code == 0, err
    assert_safe_page((tmp_path / "o.html").read_text(), frames_of(data))

    data["start"]["np"]["pefs"][0]["id"] = payload
    (tmp_path / "o.html").unlink()
    (tmp_path / "r.json").write_text(json.dumps(data))
    before = _snapshot(tmp_path)
    code, err = _run(tmp_path, ["replay", str(tmp_path / "r.json"), "--html",
                                str(tmp_path / "o.html")], capsys)  # fmt: skip
    assert_refused(code, err, before, tmp_path)
    assert "pefs.0.id" in err


@pytest.mark.parametrize(
    ("field", "value"),
    [("id", [1]), ("id", None), ("pos", "ab"), ("pos", [1, 2, 3]), ("pos", [1e308, 1])],
)
def test_malformed_pef_is_refused(
    nq_replay: dict[str, Any], field: str, value: Any, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    data = copy.deepcopy(nq_replay)
    data["start"]["np"]["pefs"][0][field] = value
    (tmp_path / "r.json").write_text(json.dumps(data))
    before = _snapshot(tmp_path)
    code, err = _run(tmp_path, ["replay", str(tmp_path / "r.json"), "--html",
                                str(tmp_path / "o.html")], capsys)  # fmt: skip
    assert_refused(code, err, before, tmp_path)
    assert f"pefs[0].{field}" in err or f"pefs.0.{field}" in err


# -- malformed files and outputs: exit 2, one line, nothing written ------------------------


def _deep(n: int) -> str:
    return "[" * n + "]" * n


MALFORMED: list[tuple[str, bytes | None, list[str]]] = [
    # (id, file bytes (None: a folder), words the message must hold)
    ("not_json", b"{nope", ["r.json", "JSON"]),
    ("empty", b"", ["r.json", "JSON"]),
    ("a_list", b"[1, 2]", ["JSON object"]),
    ("a_number", b"3", ["JSON object"]),
    ("non_utf8", b'{"format": "\xff\xfe"}', ["r.json", "UTF-8"]),
    ("a_directory", None, ["r.json", "directory"]),
    ("nan", b'{"format": "hex-replay-v1", "frames": [{"units": [], "x": NaN}]}', ["NaN"]),
    ("infinity_literal", b'{"format": "hex-replay-v1", "frames": [], "x": -Infinity}', ["Infinity"]),
    ("huge_float", b'{"format": "hex-replay-v1", "frames": [{"units": [{"q": 1e999}]}]}', ["1e999"]),
    ("huge_int", b'{"seed": ' + b"9" * 5000 + b"}", ["r.json", "JSON"]),
    ("deep", _deep(100_000).encode(), ["r.json", "deep"]),
    ("deep_in_events", b'{"format": "hex-replay-v1", "frames": [{"units": [], "events": [{"a": '
     + _deep(3000).encode() + b"}]}]}", ["r.json", "deep"]),
    ("unknown_format", b'{"format": "nq-replay-v2", "start": {}, "steps": []}', ["nq-replay-v2", "format"]),
    ("format_not_str", b'{"format": ["x"], "start": {}, "steps": []}', ["format"]),
    ("no_start", b'{"format": "nq-replay-v1", "steps": []}', ["start"]),
    ("start_version", b'{"start": {"version": 99}, "events": []}', ["start state"]),
    ("start_not_object", b'{"start": "x", "events": []}', ["start"]),
    ("steps_not_list", b'{"format": "nq-replay-v1", "start": {}, "steps": 3}', ["steps"]),
    ("hex_no_frames", b'{"format": "hex-replay-v1"}', ["frames"]),
    ("hex_frames_empty", b'{"format": "hex-replay-v1", "frames": []}', ["frames"]),
    ("hex_frame_not_object", b'{"format": "hex-replay-v1", "frames": [3]}', ["frames[0]"]),
    ("hex_units_not_list", b'{"format": "hex-replay-v1", "frames": [{"units": "x"}]}', ["frames[0].units"]),
    ("hex_unit_not_object", b'{"format": "hex-replay-v1", "frames": [{"units": [7]}]}', ["frames[0].units[0]"]),
    ("hex_unit_missing_q", b'{"format": "hex-replay-v1", "frames": [{"units": [{"id": 1, "r": 0}]}]}', ["units[0].q"]),
    ("hex_huge_q", b'{"format": "hex-replay-v1", "frames": [{"units": [{"id": 1, "q": 1e12, "r": 0}]}]}', ["units[0].q"]),
    ("hex_events_not_list", b'{"format": "hex-replay-v1", "frames": [{"units": [], "events": 5}]}', ["frames[0].events"]),
    ("hex_event_not_object", b'{"format": "hex-replay-v1", "frames": [{"units": [], "events": [5]}]}', ["frames[0].events[0]"]),
    ("hex_title_not_str", b'{"format": "hex-replay-v1", "title": [1], "frames": [{"units": []}]}', ["title"]),
    ("hex_outcome_not_object", b'{"format": "hex-replay-v1", "outcome": 3, "frames": [{"units": []}]}', ["outcome"]),
    ("huge_value_not_echoed", b'{"format": "' + b"x" * 100_000 + b'"}', ["format"]),
]  # fmt: skip


@pytest.mark.parametrize(("content", "words"), [pytest.param(c, w, id=i) for i, c, w in MALFORMED])
def test_malformed_replay_exits_2_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None, words: list[str]
) -> None:
    source = tmp_path / "r.json"
    if content is None:
        source.mkdir()
    else:
        source.write_bytes(content)
    before = _snapshot(tmp_path)
    code, err = _run(tmp_path, ["replay", str(source), "--html", str(tmp_path / "o.html")], capsys)
    assert_refused(code, err, before, tmp_path)
    for word in words:
        assert word in err, (word, err)


@pytest.mark.parametrize("case", ["same_path", "other_spelling", "symlink", "hardlink"])
def test_output_that_is_the_input_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], hex_replay: dict[str, Any], case: str
) -> None:
    source = tmp_path / "r.json"
    source.write_text(json.dumps(hex_replay))
    (tmp_path / "sub").mkdir()
    out = {
        "same_path": source,
        "other_spelling": tmp_path / "sub" / ".." / "." / "r.json",
        "symlink": tmp_path / "link.json",
        "hardlink": tmp_path / "hard.json",
    }[case]
    if case == "symlink":
        out.symlink_to(source)
    elif case == "hardlink":
        os.link(source, out)
    before = _snapshot(tmp_path)
    code, err = _run(tmp_path, ["replay", str(source), "--html", str(out)], capsys)
    assert_refused(code, err, before, tmp_path)
    assert "the input" in err


@pytest.mark.parametrize("case", ["a_directory", "missing_folder"])
def test_unwritable_output_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], hex_replay: dict[str, Any], case: str
) -> None:
    source = tmp_path / "r.json"
    source.write_text(json.dumps(hex_replay))
    (tmp_path / "out").mkdir()
    out = tmp_path / "out" if case == "a_directory" else tmp_path / "no" / "o.html"
    before = _snapshot(tmp_path)
    code, err = _run(tmp_path, ["replay", str(source), "--html", str(out)], capsys)
    assert_refused(code, err, before, tmp_path)
    assert str(out) in err


def test_oversized_replay_is_refused_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from wargym import replay_files

    source = tmp_path / "r.json"
    with source.open("wb") as handle:  # sparse: no disk used
        handle.truncate(replay_files.MAX_BYTES + 1)
    monkeypatch.setattr(Path, "read_bytes", lambda self: pytest.fail("read a huge file"))
    code, err = _run(tmp_path, ["replay", str(source), "--html", str(tmp_path / "o.html")], capsys)
    assert code == 2 and "MiB" in err and "r.json" in err and "Traceback" not in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]
    assert source.stat().st_size == replay_files.MAX_BYTES + 1


def test_symlink_loops_are_no_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], hex_replay: dict[str, Any]
) -> None:
    """A looping input is refused; a looping output link is replaced by the page."""
    (tmp_path / "loop.json").symlink_to(tmp_path / "loop.json")
    before = _snapshot_links(tmp_path)
    code, err = _run(tmp_path, ["replay", str(tmp_path / "loop.json"), "--html",
                                str(tmp_path / "o.html")], capsys)  # fmt: skip
    assert code == 2 and "loop.json" in err and "Traceback" not in err
    assert _snapshot_links(tmp_path) == before
    (tmp_path / "r.json").write_text(json.dumps(hex_replay))
    code, err = _run(tmp_path, ["replay", str(tmp_path / "r.json"), "--html",
                                str(tmp_path / "loop.json")], capsys)  # fmt: skip
    assert code == 0, err
    assert_safe_page((tmp_path / "loop.json").read_text(), frames_of(hex_replay))


def _snapshot_links(folder: Path) -> dict[str, str]:
    return {p.name: (os.readlink(p) if p.is_symlink() else p.read_text()) for p in folder.iterdir()}


def test_direct_module_main_refuses_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m wargym.replay`` (no top-level CLI guard) prints one line and exits 2."""
    from wargym.replay import main

    (tmp_path / "r.json").write_bytes(b"\xff")
    before = _snapshot(tmp_path)
    with pytest.raises(SystemExit) as stop:
        main([str(tmp_path / "r.json"), "--html", str(tmp_path / "o.html")])
    assert_refused(int(str(stop.value.code)), capsys.readouterr().err, before, tmp_path)


# -- the fuzzer: mutate a valid replay -----------------------------------------------------


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            found += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:6]):
            found += _paths(v, (*prefix, i))
    return found


_leaves = st.one_of(
    st.sampled_from(HOSTILE),
    st.text(alphabet=st.sampled_from("<>&\"'/=! \u2028\u2029abcsriptonerrorimg"), max_size=30),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.none(),
    st.booleans(),
)
HOSTILE_VALUES = st.recursive(
    _leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.sampled_from(HOSTILE + ["type", "id"]), inner, max_size=3),
    ),
    max_leaves=8,
)


def _mutate(data: Any, draw: Any) -> Any:
    data = copy.deepcopy(data)
    for _ in range(draw(st.integers(1, 3), label="mutations")):
        paths = _paths(data)
        path = draw(st.sampled_from(paths[1:]), label="path")
        value = draw(st.one_of(st.sampled_from(HOSTILE), HOSTILE_VALUES), label="value")
        holder = data
        for key in path[:-1]:
            holder = holder[key]
        if isinstance(holder, dict) and draw(st.booleans(), label="rename key"):
            holder[draw(st.sampled_from(HOSTILE), label="key")] = holder.pop(path[-1])
        else:
            holder[path[-1]] = value
    return data


def _fuzz_once(replay: dict[str, Any], data: Any, capsys: pytest.CaptureFixture[str]) -> None:
    mutated = _mutate(replay, data.draw)
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        source = folder / "r.json"
        source.write_text(json.dumps(mutated))
        before = _snapshot(folder)
        out = folder / "o.html"
        code, err = _run(folder, ["replay", str(source), "--html", str(out)], capsys)
        if code == 0:
            assert source.read_bytes() == before["r.json"]
            assert set(_snapshot(folder)) == {"r.json", "o.html"}
            assert_safe_page(out.read_text(encoding="utf-8"), frames_of(mutated))
        else:
            assert_refused(code, err, before, folder)


EXAMPLES = int(os.environ.get("WARGYM_REPLAY_FUZZ_EXAMPLES", "0"))
"""More examples (and random ones, not derandomised) for a longer local run; 0: the CI run."""
FUZZ = settings(
    max_examples=EXAMPLES or 40, deadline=None, database=None, derandomize=not EXAMPLES,
    suppress_health_check=list(HealthCheck),
)  # fmt: skip


@FUZZ
@given(data=st.data())
def test_fuzz_mutated_hex_replay_page_or_refusal(
    hex_replay: dict[str, Any], capsys: pytest.CaptureFixture[str], data: Any
) -> None:
    _fuzz_once(hex_replay, data, capsys)


@settings(FUZZ, max_examples=EXAMPLES or 30)
@given(data=st.data())
def test_fuzz_mutated_nq_replay_page_or_refusal(
    nq_replay: dict[str, Any], capsys: pytest.CaptureFixture[str], data: Any
) -> None:
    _fuzz_once(nq_replay, data, capsys)


# -- the script alone: hostile values in every field of the view, checks bypassed ----------

PWN = [
    "<img src=x onerror=\"document.body.setAttribute('data-pwned','1')\">",
    "<script>document.body.setAttribute('data-pwned','1')</script>",
    '"><svg onload="document.title=\'pwned\'">',
]
"""Payloads that would mark the page (``data-pwned`` on body, or the title) if they ran."""


def _poisoned(view: dict[str, Any]) -> dict[str, Any]:
    """``view`` with a payload in every field the script reads, numbers included.

    This is what a page would hold if a check of :func:`frames_of` were missed: the script
    must still show it all as text.
    """
    view = copy.deepcopy(view)
    n = 0

    def pwn() -> str:
        nonlocal n
        n += 1
        return PWN[n % len(PWN)]

    for frame in view["frames"]:
        for key in ("units", "mechs", "pefs", "shots"):
            for item in frame.get(key, []):
                for field in list(item):
                    item[field] = pwn()
        frame["label"], frame["turn"] = pwn(), pwn()
        frame["events"] = [{"type": "PefResolved", "pef": pwn(), "result": pwn()},
                           {"type": pwn(), pwn(): pwn()}]  # fmt: skip
    for terrain in view["map"].get("terrain", []):
        terrain["kind"] = pwn()
    view["title"], view["system"] = pwn(), pwn()
    view["outcome"] = {"winner": pwn(), "reason": pwn()}
    view["warnings"] = [pwn()]
    return view


def _poisoned_page(system: str, hex_replay: dict[str, Any], nq_replay: dict[str, Any],
                   folder: Path) -> Path:  # fmt: skip
    view = _poisoned(frames_of(hex_replay if system == "hex" else nq_replay))
    assert any(f.get("pefs") for f in view["frames"]) or system == "hex"
    page = folder / "o.html"
    page.write_text(render_page(view))
    assert_safe_page(page.read_text(), view)
    return page


@pytest.mark.parametrize("system", ["hex", "nq"])
def test_script_over_a_hostile_page_makes_only_its_own_nodes(
    system: str, hex_replay: dict[str, Any], nq_replay: dict[str, Any], tmp_path: Path
) -> None:
    """With node: the script in a recording fake DOM (tests/replay_fake_dom.js)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed (the Python checks above are the CI contract)")
    page = _poisoned_page(system, hex_replay, nq_replay, tmp_path)
    done = subprocess.run([node, str(RECORDING_DOM), str(page)], capture_output=True,
                          text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["html_sinks"] == []
    assert set(seen["tags"]) <= {"svg", "rect", "line", "polygon", "text", "title", "g",
                                 "circle", "div", "b", "span"}  # fmt: skip
    assert set(seen["attributes"]) <= {"width", "height", "viewBox", "x", "y", "fill",
        "opacity", "x1", "y1", "x2", "y2", "stroke", "stroke-width", "stroke-dasharray",
        "class", "points", "text-anchor", "font-size", "cx", "cy", "r", "fill-opacity"}  # fmt: skip
    for payload in PWN:
        assert any(payload in t for t in seen["texts"]), payload


RECORDING_DOM = Path(__file__).with_name("replay_fake_dom.js")


@pytest.mark.browser  # tests/conftest.py: skipped without chromium, failed under .ci/run
@pytest.mark.parametrize("system", ["hex", "nq"])
def test_hostile_page_in_headless_chromium_runs_no_data(
    system: str, hex_replay: dict[str, Any], nq_replay: dict[str, Any], tmp_path: Path
) -> None:
    """With chromium: the poisoned page, every frame shown, marks neither body nor title."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    assert browser is not None  # the browser marker's gate ran first
    page = _poisoned_page(system, hex_replay, nq_replay, tmp_path)
    flags = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
             "--virtual-time-budget=2000", "--dump-dom"]  # fmt: skip
    for step in (0, 1):
        dom = subprocess.run([*flags, page.resolve().as_uri() + f"#step={step}"],
                             capture_output=True, text=True, timeout=120)  # fmt: skip
        assert f'data-step="{step}"' in dom.stdout, dom.stderr[-2000:]
        body = dom.stdout.split("<body", 1)[1].split(">", 1)[0]
        assert "data-pwned" not in body and "<title>pwned</title>" not in dom.stdout
        assert "&lt;script&gt;document.body" in dom.stdout  # shown, as text
        assert "Uncaught" not in dom.stderr
