"""``rgb_array`` frames show ids, facing and terrain, for every registered env (issue 20, item 4).

Each check changes one thing (a facing, an id, the terrain) and asserts the frame changes
where it should, so a renderer that drew plain squares again would fail.
"""

from __future__ import annotations

import copy
import dataclasses
import math

import gymnasium
import numpy as np
import pytest

import wargym.envs  # noqa: F401
from wargym.envs import raster
from wargym.envs.no_quarter.render import CAMPAIGN_FRAME, TERRAIN_COLOURS, render_rgb
from wargym.envs.pentagon_war import render as pw_render
from wargym.envs.starship_combat import render as sc_render

ENV_IDS = sorted(k for k in gymnasium.registry if k.startswith("wargym/"))
WHITE = (255, 255, 255)


def _is(image: np.ndarray, colour: tuple[int, int, int]) -> np.ndarray:
    return np.asarray((image == colour).all(axis=-1))


def test_every_registered_env_has_wargym_ids() -> None:
    assert "wargym/NoQuarter-CestusV-v1" in ENV_IDS and len(ENV_IDS) >= 7


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_every_registered_env_gives_an_rgb_frame(env_id: str) -> None:
    env = gymnasium.make(env_id, render_mode="rgb_array")
    obs, _ = env.reset(seed=1)
    first = env.render()
    rng = np.random.default_rng(1)
    for _ in range(6):
        obs, _, terminated, truncated, _ = env.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"])))
        )
        if terminated or truncated:
            break
    for frame in (first, env.render()):
        assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8
        assert frame.ndim == 3 and frame.shape[2] == 3 and min(frame.shape[:2]) >= 64
        assert len(np.unique(frame.reshape(-1, 3), axis=0)) >= 2  # something drawn
    env.close()


def test_cestus_v_frames_have_one_size_between_and_during_missions() -> None:
    env = gymnasium.make("wargym/NoQuarter-CestusV-v1", render_mode="rgb_array")
    obs, _ = env.reset(seed=0)
    frames = [env.render()]
    rng = np.random.default_rng(0)
    while env.unwrapped.game.stage != "battle":
        obs, *_ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    frames.append(env.render())
    for frame in frames:
        assert isinstance(frame, np.ndarray) and frame.shape == (CAMPAIGN_FRAME,) * 2 + (3,)
    roster, battle = frames
    assert not np.array_equal(roster, battle)
    colours = {tuple(c) for c in battle.reshape(-1, 3)}
    assert set(TERRAIN_COLOURS.values()) & colours  # the mission's terrain is on the frame


# -- the drawing kit -------------------------------------------------------------------------


def test_font_draws_different_ids_differently() -> None:
    glyphs = {}
    for text in ["0", "1", "7", "8", "12", "21", "A", "B"]:
        image = np.zeros((9, 11, 3), dtype=np.uint8)
        raster.draw_text(image, text, 5, 4, WHITE)
        assert _is(image, WHITE).any(), text
        glyphs[text] = _is(image, WHITE).tobytes()
    assert len(set(glyphs.values())) == len(glyphs)


@pytest.mark.parametrize("facing", range(6))
def test_hex_frame_points_the_arrow_toward_the_facing(facing: int) -> None:
    """The white arrow of a lone ship lies on the ray of its facing (0 = A = north, clockwise)."""
    size = 128
    image = raster.render_hex_frame([(0, 0, facing, 0, "", True)], size)
    ys, xs = np.nonzero(_is(image, WHITE))
    far = np.hypot(xs + 0.5 - size / 2, ys + 0.5 - size / 2) > 12  # beyond the ship's centre
    assert far.any()
    angle = np.degrees(np.arctan2(xs[far] + 0.5 - size / 2, -(ys[far] + 0.5 - size / 2))) % 360
    gap = np.abs((angle - 60 * facing + 180) % 360 - 180)
    assert float(np.median(gap)) < 12, (facing, float(np.median(gap)))


def test_hex_frame_shows_ids_sides_and_the_map_edge() -> None:
    one = raster.render_hex_frame([(0, 0, 0, 0, "1", True), (2, -1, 3, 1, "2", True)])
    other = raster.render_hex_frame([(0, 0, 0, 0, "7", True), (2, -1, 3, 1, "2", True)])
    assert not np.array_equal(one, other)  # another id, another frame
    assert _is(one, raster.SIDE_COLOURS[0]).any() and _is(one, raster.SIDE_COLOURS[1]).any()
    out = raster.render_hex_frame([(0, 0, 0, 0, "1", True), (2, -1, 3, 1, "2", False)])
    assert _is(out, raster.SIDE_COLOURS[-1]).any() and not _is(out, raster.SIDE_COLOURS[1]).any()
    edge = raster.render_hex_frame([(0, 0, 0, 0, "1", True)], map_radius=2)
    assert _is(edge, raster.OFF_MAP).any() and not _is(one, raster.OFF_MAP).any()
    assert tuple(edge[2, -3]) == raster.OFF_MAP  # a corner lies beyond 2 hexes


# -- the games' frames -----------------------------------------------------------------------


def test_pentagon_war_frame_changes_with_facing_and_id() -> None:
    env = gymnasium.make("wargym/PentagonWar-Duel-v0", render_mode="rgb_array")
    env.reset(seed=0)
    state = env.unwrapped.state
    before = pw_render.render_rgb(state)
    turned = copy.deepcopy(state)
    ship = turned.ships[0]
    turned.ships[0] = dataclasses.replace(ship, facing=(ship.facing + 3) % 6)
    assert not np.array_equal(before, pw_render.render_rgb(turned))
    renamed = copy.deepcopy(state)
    renamed.ships[0] = dataclasses.replace(ship, id=5)
    assert not np.array_equal(before, pw_render.render_rgb(renamed))


def test_starship_combat_frame_changes_with_heading() -> None:
    env = gymnasium.make("wargym/StarshipCombat-Duel-v0", render_mode="rgb_array")
    env.reset(seed=0)
    state = env.unwrapped.state
    before = sc_render.render_rgb(state)
    assert _is(before, raster.SIDE_COLOURS[0]).any() and _is(before, raster.SIDE_COLOURS[1]).any()
    turned = copy.deepcopy(state)
    turned.ships[0].heading = (turned.ships[0].heading + 3) % 6
    assert not np.array_equal(before, sc_render.render_rgb(turned))


def test_no_quarter_frame_shows_terrain_heading_and_ids() -> None:
    env = gymnasium.make("wargym/NoQuarter-Skirmish-v1", render_mode="rgb_array", backend="python")
    env.reset(seed=0)
    battle = env.unwrapped.battle  # the reference Battle: the test edits its fields
    scale = 8
    image = render_rgb(battle, scale)
    field = battle.battlefield
    mechs = [m.pos for m in battle.mechs.values()]
    for f in field.features:  # the centre of each feature away from the mechs has its colour
        cx, cy = (f.x0 + f.x1) / 2, (f.y0 + f.y1) / 2
        if min(math.hypot(cx - x, cy - y) for x, y in mechs) < 4 or f.x1 - f.x0 < 1:
            continue
        pixel = image[int((field.height - cy) * scale), int(cx * scale)]
        assert tuple(pixel) == TERRAIN_COLOURS[f.kind.value], f
    bare = copy.deepcopy(battle)
    bare.battlefield = dataclasses.replace(field, features=())
    assert not np.array_equal(image, render_rgb(bare, scale))
    turned = copy.deepcopy(battle)
    mech = next(iter(turned.mechs.values()))
    mech.heading = (mech.heading + 180) % 360
    assert not np.array_equal(image, render_rgb(turned, scale))
    renamed = copy.deepcopy(battle)
    first = next(iter(renamed.mechs))
    renamed.mechs[first].id = 9
    assert not np.array_equal(image, render_rgb(renamed, scale))


def test_cestus_v_frame_text_has_words_not_underscored_keys() -> None:
    """The roster and the header read 'star army', 'trip wire' (the font draws '_' as a bar)."""
    from wargym.envs.no_quarter.render import campaign_rgb

    keyed = "campaign cestus_v: star_army vs hishen; mission 1 (trip_wire)"
    spaced = keyed.replace("_", " ")
    assert np.array_equal(campaign_rgb(None, keyed), campaign_rgb(None, spaced))
    assert not np.array_equal(campaign_rgb(None, keyed), campaign_rgb(None, "other words"))
