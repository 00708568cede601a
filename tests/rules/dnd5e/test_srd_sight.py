"""Senses and being perceived (SRD-97..SRD-100): Devil's Sight, blindsight, Echolocation, False Appearance, each
played through ``aerie run`` with forced dice on a scene written here (helpers: test_dnd5e_srd_spells.py)."""

from __future__ import annotations

import pytest

from engine.app.viewstate import visible_ids
from rules_helpers import make, step
from test_dnd5e_srd_spells import END, finds, foe, mage, ok, run

pytestmark = pytest.mark.unit

DARK = {"actor": "m", "action": "cast", "spell": "darkness", "at": [2, 2, 0]}
FOG = {"actor": "m", "action": "cast", "spell": "fog-cloud", "at": [2, 2, 0]}


def _mage(spells):
    return mage(spells, initiative=30)


def bite(who, weapon, target="m"):
    return {"actor": who, "action": "attack", "target": target, "weapon": weapon, "rolls": {"attack": [12, 12],
                                                                                           "damage": [1, 1, 1]}}


def test_srd97_devils_sight_sees_through_magical_darkness_not_fog(tmp_path, capsys):
    """"Magical darkness doesn't impede the devil's darkvision": in a Darkness a guard finds no target (total
    cover), an imp beside it stings the mage with no disadvantage; in a Fog Cloud the imp is as blind as the guard."""
    guard = foe("g", (3, 2, 0), initiative=1)
    rc, _, err = run(tmp_path, capsys, [_mage(["darkness"]), guard], [DARK, END, bite("g", "spear")])
    assert rc == 2 and "total cover" in err
    imp = {"id": "i", "srd": "imp", "side": "b", "at": [3, 2, 0], "initiative": 1}
    ev = ok(run(tmp_path, capsys, [_mage(["darkness"]), imp], [DARK, END, bite("i", "Sting (Bite in Beast Form)")]))
    att = finds(ev, "attack", who="i", target="m")
    assert att and not att[0]["disadvantage"]
    rc, _, err = run(tmp_path, capsys, [_mage(["fog-cloud"]), imp], [FOG, END, bite("i", "Sting (Bite in Beast Form)")])
    assert rc == 2 and "total cover" in err


BAT = {"id": "t", "srd": "bat", "side": "b", "at": [3, 2, 0], "initiative": 1}


def test_srd98_blindsight_perceives_the_invisible_and_through_fog(tmp_path, capsys):
    """Blindsight (the bat's 60 ft.): an invisible mage beside it is bitten with no disadvantage, and one inside a
    Fog Cloud can be targeted; a guard beside the fog finds no target."""
    inv = mage([], initiative=30, invisible=True)
    ev = ok(run(tmp_path, capsys, [inv, BAT], [END, bite("t", "Bite")]))
    assert not finds(ev, "attack", who="t")[0]["disadvantage"]
    ev = ok(run(tmp_path, capsys, [_mage(["fog-cloud"]), BAT], [FOG, END, bite("t", "Bite")]))
    assert finds(ev, "attack", who="t", target="m")
    rc, _, err = run(tmp_path, capsys, [_mage(["fog-cloud"]), foe("g", (3, 2, 0), initiative=1)],
                     [FOG, END, bite("g", "spear")])
    assert rc == 2 and "total cover" in err


def test_srd99_echolocation_no_blindsight_while_deafened(tmp_path, capsys):
    """"The bat can't use its blindsight while deafened": deafened, its bite on the invisible mage has
    disadvantage, and inside a fog it finds no target."""
    inv = mage([], initiative=30, invisible=True)
    deaf = {"actor": "gm", "action": "condition", "target": "t", "add": "deafened"}
    ev = ok(run(tmp_path, capsys, [inv, BAT], [deaf, END, bite("t", "Bite")]))
    assert finds(ev, "attack", who="t")[0]["disadvantage"]
    rc, _, err = run(tmp_path, capsys, [_mage(["fog-cloud"]), BAT], [deaf, FOG, END, bite("t", "Bite")])
    assert rc == 2 and "total cover" in err


GARGOYLE = {"id": "q", "srd": "gargoyle", "side": "r", "at": [3, 2, 0], "initiative": 20}
GUARD = {"id": "g", "kind": "guard", "side": "b", "at": [4, 2, 0], "initiative": 10}


def test_srd100_false_appearance_no_target_until_it_acts(tmp_path, capsys):
    """"While the gargoyle remains motionless, it is indistinguishable from an inanimate statue": the guard may not
    target it (SRD-100) nor does its side see it; its first claw is an unseen attacker's (advantage), and then the
    guard strikes it. Option ``false_appearance = false``: the guard strikes at once."""
    rc, _, err = run(tmp_path, capsys, [GARGOYLE, GUARD], [{"actor": "q", "action": "end_turn"}, bite("g", "spear", "q")])
    assert rc == 2 and "SRD-100" in err and "False Appearance" in err
    ev = ok(run(tmp_path, capsys, [GARGOYLE, GUARD], [bite("q", "Claws", "g"), {"actor": "q", "action": "end_turn"},
                                                     bite("g", "spear", "q")]))
    assert finds(ev, "false_appearance", who="q", rule="SRD-100")
    assert finds(ev, "attack", who="q")[0]["advantage"]
    assert finds(ev, "false_appearance_ends", who="q", why="attacks")
    assert finds(ev, "attack", who="g", target="q")
    ev = ok(run(tmp_path, capsys, [GARGOYLE, GUARD], [{"actor": "q", "action": "end_turn"}, bite("g", "spear", "q")],
                options={"false_appearance": False}))
    assert finds(ev, "attack", who="g", target="q") and not finds(ev, "false_appearance")


def test_srd100_the_player_view_and_listing_leave_it_out():
    """The guard's side does not see the motionless gargoyle (the player view's filter), nor does its listing offer
    an attack on it; once it moves, both do."""
    s = make([GARGOYLE, GUARD], size=(16, 16, 24))
    step(s, "q", "end_turn")
    assert "q" not in visible_ids(s, "b") and "g" in visible_ids(s, "r")
    offered = s.ruleset.legal_actions_of(s, s.state.actors["g"], ("attack",))
    assert not [c for c in offered if c.get("target") == "q"]
    step(s, "g", "end_turn")
    step(s, "q", "move", to=[3, 3, 0])
    assert finds(s.events, "false_appearance_ends", who="q", why="moves")
    assert "q" in visible_ids(s, "b")


def test_srd101_darkness_aura_moves_with_the_darkmantle():
    """"A 15-foot radius of magical darkness extends out from the darkmantle, moves with it ... as long as the
    darkmantle maintains concentration": a guard beside it finds no target, its blindsight crushes the guard with no
    disadvantage; the darkness goes where it moves; 1/Day; it ends with the concentration."""
    mantle = {"id": "d", "srd": "darkmantle", "side": "r", "at": [3, 2, 0], "initiative": 20}
    s = make([mantle, GUARD], size=(16, 16, 24))
    step(s, "d", "darkness_aura")
    assert finds(s.events, "lasting_area", who="d", rule="SRD-101")
    assert s.world.obscured is not None and s.world.obscured[0, 2, 3] and not s.world.obscured[0, 6, 3]
    step(s, "d", "end_turn")
    with pytest.raises(Exception, match="total cover"):
        step(s, "g", "attack", target="d", weapon="spear", rolls={"attack": [12, 12]})
    step(s, "g", "end_turn")
    step(s, "d", "attack", target="g", weapon="Crush", rolls={"attack": [12, 12], "damage": [1]})
    assert not finds(s.events, "attack", who="d")[0]["disadvantage"]
    step(s, "d", "move", to=[3, 4, 0])
    assert s.world.obscured[0, 6, 3]
    with pytest.raises(Exception, match="used up"):
        step(s, "d", "darkness_aura")
    step(s, "gm", "damage", target="d", amount=5, rolls={"save": 1})
    assert s.world.obscured is None
