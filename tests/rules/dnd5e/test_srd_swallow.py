"""SRD-43 Swallow (the behir's, the remorhaz's, the tarrasque's Swallow; the purple worm's Bite), played through ``aerie
run`` with forced dice on scenes written here (the events read from ``--json``), and on sessions for what the listing
offers (tests/support/rules_helpers.py)."""

from __future__ import annotations

import json

import pytest

from engine.cli import main
from engine.rules.core import Illegal
from rules_helpers import make, scene_text, step
from test_srd_mechanics import events, tables

pytestmark = pytest.mark.unit

#: a Medium fighter with a heavy maul (to deal 30 damage from inside in one hit) and many hit points
MAUL = {"name": "maul", "damage": "10d10", "type": "bludgeoning", "properties": [], "to_hit": 10}
KNIGHT = {"id": "k", "kind": "archer", "side": "blue", "at": [8, 6, 0], "max_hp": 200, "hp": 200, "weapons": [MAUL]}
ARCHER = {"id": "a", "kind": "archer", "side": "blue", "at": [12, 12, 0]}


def run_scene(tmp_path, capsys, chars, script) -> list[dict]:
    p = tmp_path / "scene.toml"
    p.write_text(scene_text(chars, size=(20, 20, 12)) + tables("script", script))
    rc = main(["run", str(p), "--json"])
    out = capsys.readouterr()
    assert rc == 0, out.err + out.out
    return [json.loads(ln) for ln in out.out.strip().splitlines()]


def _cond(evs, who, name):
    """Whether ``who`` has condition ``name`` after the events (the last condition event of it)."""
    ce = events(evs, "condition", who=who, condition=name)
    return bool(ce) and ce[-1]["added"]


def test_srd43_the_behir_swallows_what_it_constricts_digests_it_and_regurgitates_it(tmp_path, capsys):
    """"The behir makes one bite attack against a Medium or smaller target it is grappling. If the attack hits, the
    target is also swallowed, and the grapple ends. While swallowed, the target is blinded and restrained, ... and it
    takes 21 (6d6) acid damage at the start of each of the behir's turns. ... If the behir takes 30 damage or more on
    a single turn from the swallowed creature, the behir must succeed on a DC 14 Constitution saving throw at the end
    of that turn or regurgitate the creature, which falls prone in a space within 10 ft. of the behir.\""""
    behir = {"id": "b", "srd": "behir", "side": "red", "at": [5, 5, 0]}
    evs = run_scene(tmp_path, capsys, [behir, KNIGHT], [
        {"actor": "b", "action": "attack", "target": "k", "weapon": "Constrict",
         "rolls": {"attack": 15, "damage": [1, 1], "extra_damage": [1, 1]}},
        {"actor": "b", "action": "end_turn"},
        {"actor": "k", "action": "end_turn", "rolls": {"check": 1, "d20": 1}},
        {"actor": "b", "action": "swallow", "target": "k", "rolls": {"attack": 15, "damage": [2, 2, 2]}},
        {"actor": "b", "action": "end_turn"},
        {"actor": "k", "action": "end_turn", "rolls": {"damage": [1, 2, 3, 4, 5, 6]}},      # the behir's turn: 21 acid
        {"actor": "b", "action": "end_turn"},
        {"actor": "k", "action": "attack", "target": "b", "weapon": "maul",
         "rolls": {"attack": 15, "damage": [4, 4, 4, 4, 4, 4, 4, 4, 4, 4]}},
        {"actor": "k", "action": "end_turn", "rolls": {"save": 2}}])
    sw = events(evs, "swallowed", who="k", by="b")
    assert len(sw) == 1 and sw[0]["rule"] == "SRD-43"
    assert events(evs, "grapple_ends", who="k", rule="SRD-43")             # "and the grapple ends"
    acid = events(evs, "damage", who="k", damage_type="acid")
    assert [(e["amount"], e["rule"]) for e in acid] == [(21, "SRD-43")]
    save = events(evs, "save", who="b", rule="SRD-43")
    assert len(save) == 1 and save[0]["dc"] == 14 and save[0]["ability"] == "con" and not save[0]["success"]
    out = events(evs, "regurgitated", who="k", by="b")
    assert len(out) == 1
    x, y, z = out[0]["to"]
    assert z == 0 and max(5 - x - 1, x - 8, 5 - y - 1, y - 8) <= 1      # beside the behir's 3 x 3 footprint, 10 ft
    assert _cond(evs, "k", "prone") and not _cond(evs, "k", "blinded") and not _cond(evs, "k", "restrained")


def test_srd43_the_purple_worms_bite_swallows_and_its_corpse_lets_the_creature_out(tmp_path, capsys):
    """"If the target is a Large or smaller creature, it must succeed on a DC 19 Dexterity saving throw or be
    swallowed by the worm." and "If the worm dies, a swallowed creature is no longer restrained by it and can escape
    from the corpse by using 20 feet of movement, exiting prone." The bite's save is not SRD-13's (no acid on it)."""
    worm = {"id": "w", "srd": "purple-worm", "side": "red", "at": [4, 4, 0], "hp": 20}
    foe = {**ARCHER, "id": "f", "side": "red", "at": [18, 18, 0]}          # the fight goes on when the worm dies
    evs = run_scene(tmp_path, capsys, [worm, KNIGHT, foe], [
        {"actor": "w", "action": "attack", "target": "k", "weapon": "Bite",
         "rolls": {"attack": 15, "damage": [1, 1, 1], "save": 3}},
        {"actor": "w", "action": "end_turn"},
        {"actor": "k", "action": "attack", "target": "w", "weapon": "maul",
         "rolls": {"attack": 15, "damage": [3, 3, 3, 3, 3, 3, 3, 3, 3, 3]}},
        {"actor": "k", "action": "escape_corpse"}])
    save = events(evs, "save", who="k")
    assert save[0]["dc"] == 19 and save[0]["ability"] == "dex" and save[0]["rule"] == "SRD-43"
    assert events(evs, "swallowed", who="k", by="w")
    assert not events(evs, "damage", who="k", damage_type="acid")
    assert events(evs, "death", who="w")
    out = events(evs, "escapes_corpse", who="k", by="w")
    assert len(out) == 1 and _cond(evs, "k", "prone")
    assert not _cond(evs, "k", "restrained") and not _cond(evs, "k", "blinded")


def test_srd43_a_swallowed_creature_reaches_only_its_swallower_and_moves_with_it():
    """"it has total cover against attacks and other effects outside the behir": an archer outside may not shoot it,
    the behir's own attacks do not reach it, and from inside it attacks only the behir; it moves with the behir. Swallow
    needs a creature it is grappling; the tarrasque's "can use its Swallow instead of its bite" is one of its five
    attacks."""
    behir = {"id": "b", "srd": "behir", "side": "red", "at": [5, 5, 0]}
    s = make([behir, KNIGHT, ARCHER], size=(20, 20, 12))
    with pytest.raises(Illegal) as e:
        step(s, "b", "swallow", target="k")
    assert e.value.rule == "SRD-43"
    s.state.actors["k"].conditions["grappled"] = ["b"]
    s.state.actors["k"].data["srd_grapple"] = {"by": "b", "weapon": "Constrict", "escape_dc": 16, "restrained": False}
    step(s, "b", "swallow", target="k", rolls={"attack": 15})
    k = s.state.actors["k"]
    assert k.data["inside"] == "b" and k.has("blinded") and k.has("restrained")
    step(s, "b", "move", to=[5, 9, 0])
    assert k.pos == (6, 10, 0)
    assert not [x for x in s.legal_actions("b") if x.get("target") == "k" and x["action"] in ("attack", "grapple")]
    step(s, "b", "end_turn")
    assert {(x["action"], x["target"]) for x in s.legal_actions("k")
            if x["action"] in ("attack", "grapple", "shove", "creature_action")} == {("attack", "b")}
    step(s, "k", "end_turn")
    with pytest.raises(Illegal) as e:
        step(s, "a", "attack", target="k", weapon="longbow")
    assert e.value.rule == "DND-32"
    tq = {"id": "t", "srd": "tarrasque", "side": "red", "at": [3, 3, 0]}
    s = make([tq, KNIGHT], size=(20, 20, 12))
    step(s, "t", "attack", target="k", weapon="Bite", rolls={"attack": 15})    # "it is grappled (escape DC 20)"
    step(s, "t", "end_turn")
    step(s, "k", "end_turn")
    step(s, "t", "swallow", target="k", rolls={"attack": 15})       # instead of its bite: the claws still follow
    assert s.state.actors["k"].data["inside"] == "t" and s.state.turn["attacks_left"] == 4


def test_srd44_the_shambling_mound_engulfs_what_both_slams_hit(tmp_path, capsys):
    """"If both attacks hit a Medium or smaller target, the target is grappled (escape DC 14), and the shambling mound
    uses its Engulf on it." / "The engulfed target is blinded, restrained, and unable to breathe, and it must succeed
    on a DC 14 Constitution saving throw at the start of each of the mound's turns or take 13 (2d8 + 4) bludgeoning
    damage. If the mound moves, the engulfed target moves with it." The Escape action's check against DC 14 ends it. One
    hit and one miss engulf nothing."""
    mound = {"id": "m", "srd": "shambling-mound", "side": "red", "at": [6, 5, 0]}
    evs = run_scene(tmp_path, capsys, [mound, KNIGHT], [
        {"actor": "m", "action": "attack", "target": "k", "weapon": "Slam", "rolls": {"attack": 15, "damage": [1, 1]}},
        {"actor": "m", "action": "attack", "target": "k", "weapon": "Slam", "rolls": {"attack": 1}},    # one hit
        {"actor": "m", "action": "end_turn"},
        {"actor": "k", "action": "end_turn"},
        {"actor": "m", "action": "attack", "target": "k", "weapon": "Slam", "rolls": {"attack": 15, "damage": [1, 1]}},
        {"actor": "m", "action": "attack", "target": "k", "weapon": "Slam", "rolls": {"attack": 15, "damage": [1, 1]}},
        {"actor": "m", "action": "move", "to": [6, 9, 0]},
        {"actor": "m", "action": "end_turn"},
        {"actor": "k", "action": "end_turn"},
        {"actor": "m", "action": "end_turn", "rolls": {}},
        {"actor": "k", "action": "escape", "rolls": {"check": 20}}])
    eng = events(evs, "engulfed", who="k", by="m")
    assert len(eng) == 1 and eng[0]["rule"] == "SRD-44"
    assert evs.index(eng[0]) > evs.index(events(evs, "turn", who="m", round=2)[0])     # not after one hit
    assert events(evs, "moved_inside", who="k", by="m")[0]["to"] == [6, 9, 0]
    assert [e["condition"] for e in events(evs, "condition", who="k", added=True)] == ["grappled", "restrained",
                                                                                      "blinded"]
    save = events(evs, "save", who="k", rule="SRD-44")
    assert len(save) == 1 and save[0]["dc"] == 14 and save[0]["ability"] == "con"
    hurt = events(evs, "damage", who="k", rule="SRD-44")
    assert len(hurt) == (0 if save[0]["success"] else 1)
    esc = events(evs, "escape", who="k")
    assert esc[-1]["success"] and esc[-1]["against"] == 14
    assert events(evs, "engulf_ends", who="k", by="m")
    assert not _cond(evs, "k", "blinded") and not _cond(evs, "k", "restrained") and not _cond(evs, "k", "grappled")


def test_srd45_whelm_holds_the_failed_pushes_out_the_saved_and_is_pulled_out(tmp_path, capsys):
    """"Each creature in the elemental's space must make a DC 15 Strength saving throw. On a failure, a target takes
    13 (2d8 + 4) bludgeoning damage. If it is Large or smaller, it is also grappled (escape DC 14). Until this grapple
    ends, the target is restrained ... If the saving throw is successful, the target is pushed out of the elemental's
    space. ... At the start of each of the elemental's turns, each target grappled by it takes 13 (2d8 + 4)
    bludgeoning damage. A creature within 5 feet of the elemental can pull a creature or object out of it by taking an
    action to make a DC 14 Strength and succeeding.\""""
    elem = {"id": "w", "srd": "water-elemental", "side": "red", "at": [5, 5, 0]}
    other = {**ARCHER, "id": "o", "at": [8, 5, 0]}
    evs = run_scene(tmp_path, capsys, [elem, KNIGHT, other, ARCHER], [
        {"actor": "w", "action": "move", "to": [7, 5, 0]},                 # Water Form: into their spaces
        {"actor": "w", "action": "whelm", "rolls": {"save": [2, 20], "damage": [3, 3]}},
        {"actor": "w", "action": "end_turn"},
        {"actor": "k", "action": "end_turn"},
        {"actor": "o", "action": "end_turn"},
        {"actor": "a", "action": "end_turn", "rolls": {"damage": [4, 4], "recharge": 1}},
        {"actor": "w", "action": "end_turn"},
        {"actor": "k", "action": "end_turn"},
        {"actor": "o", "action": "pull_out", "target": "k", "rolls": {"check": 18}}])
    saves = events(evs, "save", rule="SRD-45")
    assert [(e["who"], e["dc"], e["ability"], e["success"]) for e in saves] == [("k", 15, "str", False),
                                                                                ("o", 15, "str", True)]
    assert [(e["amount"], e["rule"]) for e in events(evs, "damage", who="k")] == [(10, "SRD-45"), (12, "SRD-45")]
    assert events(evs, "engulfed", who="k", by="w") and not events(evs, "engulfed", who="o")
    pushed = events(evs, "pushed_out", who="o", by="w")
    assert len(pushed) == 1 and not (7 <= pushed[0]["to"][0] <= 8 and 5 <= pushed[0]["to"][1] <= 6)
    pull = events(evs, "pull_out", who="o", target="k")
    assert pull[0]["success"] and pull[0]["dc"] == 14
    assert events(evs, "engulf_ends", who="k", by="w") and not _cond(evs, "k", "grappled")
    assert not _cond(evs, "k", "restrained")


def test_srd44_the_gelatinous_cube_engulfs_as_it_moves(tmp_path, capsys):
    """"The cube moves up to its speed. While doing so, it can enter Large or smaller creatures' spaces. Whenever the
    cube enters a creature's space, the creature must make a DC 12 Dexterity saving throw. On a successful save, the
    creature can choose to be pushed 5 feet back or to the side of the cube. ... On a failed save, the cube enters the
    creature's space, and the creature takes 10 (3d6) acid damage and is engulfed. The engulfed creature can't
    breathe, is restrained, and takes 21 (6d6) acid damage at the start of each of the cube's turns. When the cube
    moves, the engulfed creature moves with it. An engulfed creature can try to escape by taking an action to make a DC
    12 Strength check." The Ooze Cube: inside, total cover; pulled out by a DC 12 Strength check for 10 (3d6) acid."""
    cube = {"id": "c", "srd": "gelatinous-cube", "side": "red", "at": [3, 5, 0]}
    other = {**ARCHER, "id": "o", "at": [7, 6, 0]}
    evs = run_scene(tmp_path, capsys, [cube, {**KNIGHT, "at": [7, 5, 0]}, other, ARCHER], [
        {"actor": "c", "action": "engulf", "to": [6, 5, 0], "rolls": {"save": [2, 19], "damage": [1, 2, 3]}},
        {"actor": "c", "action": "end_turn"},
        {"actor": "k", "action": "escape_engulf", "rolls": {"check": 2}},
        {"actor": "k", "action": "end_turn"},
        {"actor": "o", "action": "end_turn"},
        {"actor": "a", "action": "end_turn", "rolls": {"damage": [1, 1, 1, 1, 1, 1]}},
        {"actor": "c", "action": "end_turn"},
        {"actor": "k", "action": "escape_engulf", "rolls": {"check": 18}}])
    saves = events(evs, "save", rule="SRD-44")
    assert [(e["who"], e["dc"], e["ability"], e["success"]) for e in saves] == [("k", 12, "dex", False),
                                                                                ("o", 12, "dex", True)]
    assert [(e["amount"], e["damage_type"]) for e in events(evs, "damage", who="k")] == [(6, "acid"), (6, "acid")]
    assert events(evs, "engulfed", who="k", by="c") and not events(evs, "engulfed", who="o")
    x, y, _ = events(evs, "pushed_out", who="o", by="c")[0]["to"]
    assert not (6 <= x <= 7 and 5 <= y <= 6)
    esc = events(evs, "escape", who="k", rule="SRD-44")
    assert [(e["against"], e["success"]) for e in esc] == [(12, False), (12, True)]
    assert events(evs, "engulf_ends", who="k", by="c") and not _cond(evs, "k", "restrained")


def test_srd44_inside_the_cube_total_cover_and_a_pull_out():
    """"Creatures inside the cube can be seen but have total cover." and "A creature within 5 feet of the cube can take
    an action to pull a creature or object out of the cube. Doing so requires a successful DC 12 Strength check, and
    the creature making the attempt takes 10 (3d6) acid damage.\""""
    cube = {"id": "c", "srd": "gelatinous-cube", "side": "red", "at": [3, 5, 0]}
    helper = {**ARCHER, "id": "h", "at": [8, 5, 0]}
    s = make([cube, {**KNIGHT, "at": [7, 5, 0]}, helper], size=(20, 20, 12))
    step(s, "c", "engulf", to=[6, 5, 0], rolls={"save": 1})
    assert s.state.actors["k"].data["inside"] == "c"
    step(s, "c", "end_turn")
    step(s, "k", "end_turn")
    with pytest.raises(Illegal) as e:
        step(s, "h", "attack", target="k", weapon="longbow")
    assert e.value.rule == "DND-32"
    log = step(s, "h", "pull_out", target="k", rolls={"damage": [2, 2, 2], "check": 17})
    assert any(ev["type"] == "damage" and ev["who"] == "h" and ev["amount"] == 6 for ev in log)
    assert "inside" not in s.state.actors["k"].data and not s.state.actors["k"].has("restrained")


def test_srd12_blinding_spittle_bursts_at_a_point_not_around_the_mouther(tmp_path, capsys):
    """SRD-12 at a point: "The mouther spits a chemical glob at a point it can see within 15 feet of it. The glob
    explodes in a blinding flash of light on impact. Each creature within 5 feet of the flash must succeed on a DC 13
    Dexterity saving throw or be blinded until the end of the mouther's next turn." (the source reads its area as 5
    feet around the mouther): the knight 4.5 m away at the point saves; the archer beside the mouther does not."""
    mouther = {"id": "g", "srd": "gibbering-mouther", "side": "red", "at": [5, 5, 0]}
    near = {**ARCHER, "at": [6, 5, 0]}
    evs = run_scene(tmp_path, capsys, [mouther, {**KNIGHT, "at": [8, 5, 0]}, near], [
        {"actor": "g", "action": "creature_action", "feature": "Blinding Spittle", "at": [8, 5, 0],
         "rolls": {"save": 2}}])
    saves = events(evs, "save", rule="SRD-12")
    assert [(e["who"], e["dc"], e["ability"], e["success"]) for e in saves] == [("k", 13, "dex", False)]
    assert _cond(evs, "k", "blinded") and not _cond(evs, "a", "blinded")


def test_srd43_the_gibbering_mouther_absorbs_what_its_bites_kill(tmp_path, capsys):
    """"Bites. ... Hit: 17 (5d6) piercing damage. If the target is Medium or smaller, it must succeed on a DC 10
    Strength saving throw or be knocked prone. If the target is killed by this damage, it is absorbed into the
    mouther.": the first bite leaves the archer alive (no absorbing), the second kills it and its body is inside."""
    mouther = {"id": "g", "srd": "gibbering-mouther", "side": "red", "at": [5, 5, 0]}
    victim = {**ARCHER, "id": "v", "at": [6, 5, 0], "hp": 12, "pc": False}
    evs = run_scene(tmp_path, capsys, [mouther, victim, KNIGHT], [
        {"actor": "g", "action": "attack", "target": "v", "weapon": "Bites",
         "rolls": {"attack": 15, "damage": [1, 1, 1, 1, 1], "save": 20}},
        {"actor": "g", "action": "end_turn"},
        {"actor": "v", "action": "end_turn"},
        {"actor": "k", "action": "end_turn"},
        {"actor": "g", "action": "attack", "target": "v", "weapon": "Bites",
         "rolls": {"attack": 15, "damage": [6, 6, 6, 6, 6], "save": 20}},
        {"actor": "g", "action": "end_turn"}])
    assert events(evs, "death", who="v")
    ab = events(evs, "absorbed", who="v", by="g")
    assert len(ab) == 1 and ab[0]["rule"] == "SRD-43"
    assert evs.index(ab[0]) > evs.index(events(evs, "death", who="v")[0])
    assert evs[-1]["characters"]["v"]["position"] == evs[-1]["characters"]["g"]["position"]


def test_srd43_a_swallower_aloft_carries_its_prey_and_what_it_regurgitates_falls():
    """A behir given wings: what it swallowed moves with it in the air (inside it, not flying, not falling); when it
    regurgitates it there, "which falls prone in a space within 10 ft." -- and by AIR-12 falls to the ground."""
    behir = {"id": "b", "srd": "behir", "side": "red", "at": [5, 5, 4], "flying": True, "fly_speed_m": 12.0}
    flyer = {**KNIGHT, "at": [8, 6, 4], "flying": True, "fly_speed_m": 9.0}
    s = make([behir, flyer], size=(20, 20, 12), options={"air_speed": "fly_speed"})
    k = s.state.actors["k"]
    k.conditions["grappled"] = ["b"]
    k.data["srd_grapple"] = {"by": "b", "weapon": "Constrict", "escape_dc": 16, "restrained": False}
    step(s, "b", "swallow", target="k", rolls={"attack": 15})
    step(s, "b", "move", to=[5, 8, 5])
    assert k.pos == (6, 9, 5) and not k.flying
    step(s, "b", "end_turn")
    step(s, "k", "attack", target="b", weapon="maul", rolls={"attack": 15, "damage": [4] * 10})
    hp = k.hp
    log = step(s, "k", "end_turn", rolls={"save": 2})
    out = next(e for e in log if e["type"] == "regurgitated")
    assert out["to"][2] == 5
    fall = next(e for e in log if e["type"] == "fall")
    assert fall["who"] == "k" and fall["rule"] == "AIR-12" and fall["from"] == 5 and fall["to"] == 0
    assert k.pos[2] == 0 and k.has("prone") and k.hp == hp - fall["damage"] and fall["damage"] > 0
