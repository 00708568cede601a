"""Issue 40 item 10: the 3D threat view (J) had no legend, was a wall of opaque cubes over the whole map that hid
the scene, and its "safe cells" figure said 0. Now J's first view is the cells the selected character could reach
this turn (the rules' reach map), each a translucent cube coloured by how many enemies could attack a body there,
with a legend in the right column that gives the view's own counts of safe and exposed cells. Pure: the maps'
function on the CPU threat engine, the J key on the modes, the legend section."""

from __future__ import annotations

import numpy as np
import pytest

from test_window_player_view_and_panels import OverlayWin
from test_window_volume import DUEL

from engine.app import maps
from engine.app.panels import table
from engine.app.sections.legend import legends
from engine.render import rules_bridge

pytestmark = pytest.mark.unit


def _expected(scene, session, side, reach):
    """Safe and exposed cells among ``reach`` from the numpy threat engine (threat_counts_cpu) directly."""
    from engine.render.volume_cli import threat_inputs
    from engine.rules.registry import cover_levels
    from engine.world.volumes import NO_ATTACK, NO_BODY, N_SAMPLES, free_cells, level_table, threat_counts_cpu

    enemies = [(places, w) for _a, places, w in threat_inputs(session, side, False)]
    per = threat_counts_cpu(scene.world, enemies)
    levels = level_table(None, scene.spec.options.get("cover_thresholds") or cover_levels(scene.ruleset))
    first_total = next(k for k in range(N_SAMPLES + 1) if levels[k] == levels[-1])
    count = ((per != NO_BODY) & (per != NO_ATTACK) & (per < first_total)).sum(axis=0)
    free = free_cells(scene.world)
    cells = [(x, y, z) for (x, y, z) in reach if free[z, y, x]]
    return (sum(1 for x, y, z in cells if count[z, y, x] == 0), sum(1 for x, y, z in cells if count[z, y, x] > 0))


def test_item10_j_shows_the_cells_in_reach_translucent_with_a_legend_and_the_right_counts(tmp_path):
    from pyglet.window import key

    from engine.app.frame import volume_job

    (tmp_path / "duel.toml").write_text(DUEL)         # the wall duel, a tall block near Kite: cells behind it safe
    win = OverlayWin(str(tmp_path / "duel.toml"))
    win.say = lambda *a, **k: None
    win.volume_info = None
    win.name = lambda cid: win.ctl.state.actors[cid].name
    ctl = win.ctl
    sel = ctl.selected
    a = ctl.state.actors[sel]
    win.modes.dispatch(win.table, "on_key", key.J, 0)
    assert win.vstate.on["volume"] and win.vstate.volume_mode == "reach"      # J's first view: this turn's reach
    rs = win.render_state()
    reach = rules_bridge.movement_costs(win.scene, rs, next(c for c in rs.characters if c.id == sel), ctl.session)
    assert len(reach) > 10
    enemies = maps.threat_enemies(ctl.session, a.side)
    k = (ctl.state_version, sel, "reach")
    pr = volume_job(win, k, enemies, a.side, None, None, reach)
    info = win.volume_info
    safe, exposed = _expected(win.scene, ctl.session, a.side, reach)
    assert safe > 0 and exposed > 0, (safe, exposed)              # the scene has both in reach
    assert (info["safe"], info["exposed"]) == (safe, exposed), info
    cubes = pr.cell_array()
    assert len(cubes) == info["drawn"] == safe + exposed           # every cell in reach, none outside
    cm = win.scene.world.cell_m
    at = {(int(x // cm), int(y // cm), int(z)) for x, y, z in cubes[:, :3]}
    assert at <= set(reach)
    assert (cubes[:, 7] < 0.6).all()                               # translucent: the scene is seen through them
    whole, _ = maps.volume_prims(win.scene, enemies, a.side, "exposed")
    assert len(whole.cell_array()) > len(cubes)                    # not the wall of cubes of every exposed cell
    text, swatches = next(lg for lg in legends(table(win)) if lg[0].startswith("3D threat view"))
    assert f"{safe} safe, {exposed} exposed" in text and a.name in text, text
    assert [s[0] for s in swatches] == ["safe", "1", "2", "3", "4+"]
    for mode in ("exposed", "safe"):                               # J, J: every exposed cell, every safe cell
        win.modes.dispatch(win.table, "on_key", key.J, 0)
        assert win.vstate.volume_mode == mode
    win.modes.dispatch(win.table, "on_key", key.J, 0)
    assert not win.vstate.on["volume"]
    assert np.isfinite(cubes).all()
