"""SPL-10: Fog Cloud and Darkness make their voxels heavily obscured: sight lines through them are blocked (a target
wholly behind one cannot be targeted), movement is not, and the obscurement goes with the concentration."""

from __future__ import annotations

import pytest

from engine.rules.dnd5e.srd_lasting import obscured_mask
from rules_helpers import make, step
from test_dnd5e_srd_spells import END, finds, foe, mage, ok, run

pytestmark = pytest.mark.unit

SHOT = {"actor": "g", "action": "attack", "target": "m", "weapon": "light_crossbow", "rolls": {"attack": 2}}
FOG = {"actor": "m", "action": "cast", "spell": "fog-cloud", "at": [7, 2, 0]}


def test_spl10_fog_cloud_blocks_a_sight_line_until_its_concentration_ends(tmp_path, capsys):
    chars = [mage(["fog-cloud"]), foe("g", (12, 2, 0))]
    ok(run(tmp_path, capsys, chars, [END, SHOT]))                       # no fog: g shoots m
    rc, _, err = run(tmp_path, capsys, chars, [FOG, END, SHOT])
    assert rc == 2 and "total cover" in err and "DND-32" in err
    ev = ok(run(tmp_path, capsys, chars, [FOG, END, {"actor": "gm", "action": "damage", "target": "m", "amount": 30,
                                                     "rolls": {"save": 1}}, SHOT]))
    assert finds(ev, "cast", who="m", spell="fog-cloud")[0]["rule"] == "SPL-10"
    assert finds(ev, "lasting_area_ends", who="m", spell="fog-cloud")
    assert finds(ev, "attack", who="g")                                 # the fog is gone with the concentration


def test_spl10_obscured_voxels_follow_the_state_and_leave_movement_alone():
    s = make([mage(["darkness", "fog-cloud"]), foe("g", (12, 2, 0))], size=(16, 16, 24), options={"spell_names": "srd"})
    assert s.world.obscured is None and obscured_mask(s) is None
    scene_world = s.world
    step(s, "m", "cast", spell="darkness", at=[7, 2, 2])
    mask = s.world.obscured
    assert mask is not None and mask[2, 2, 7] and not mask[2, 2, 2]
    assert scene_world.obscured is None                                 # the scene's own world stays as loaded
    # 4.5 m radius: cells whose centres are within it (3 cells across x at 1.5 m, 4 layers up and down)
    zs, ys, xs = mask.nonzero()
    assert xs.min() == 4 and xs.max() == 10 and zs.min() == 0 and zs.max() == 6
    assert not s.world.solid()[mask].any() and s.world.blocks_sight()[mask].all()


def test_spl10_fog_cloud_upcast_grows_and_needs_a_point(tmp_path, capsys):
    s = make([mage(["fog-cloud"]), foe("g", (12, 2, 0))], size=(16, 16, 24), options={"spell_names": "srd"})
    step(s, "m", "cast", spell="fog-cloud", at=[7, 2, 0], slot=2)
    ev = [e for e in s.events if e["type"] == "lasting_area"]
    assert ev[-1]["area"]["size_m"] == 12.0
    rc, _, err = run(tmp_path, capsys, [mage(["fog-cloud"]), foe("g", (12, 2, 0))],
                     [{"actor": "m", "action": "cast", "spell": "fog-cloud"}])
    assert rc == 2 and "SPL-10" in err and "needs a point" in err
