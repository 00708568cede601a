"""Issue 39: the SRD's spells as data and cast from it (SPL-01..SPL-08), the air spells each through ``aerie run
--json`` with forced dice (the CLI's own path: scene load, the script, the event log)."""

from __future__ import annotations

import json

import pytest

from engine.cli import main
from engine.rules.core import Illegal
from engine.rules.dnd5e.srd_spells import catalogue, support
from rules_helpers import _toml, make, scene_text, step

pytestmark = pytest.mark.unit


def run(tmp_path, capsys, chars, script, size=(16, 16, 24), fill=(), options=None):
    extra = "".join("[[script]]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in st.items()) for st in script)
    p = tmp_path / "scene.toml"
    p.write_text(scene_text(chars, size=size, fill=fill, options={"spell_names": "srd", **(options or {})}, extra=extra))
    capsys.readouterr()
    rc = main(["run", str(p), "--json"])
    cap = capsys.readouterr()
    return rc, [json.loads(ln) for ln in cap.out.splitlines() if ln.startswith("{")], cap.err


def ok(res):
    rc, events, err = res
    assert rc == 0, err
    return events


def finds(events, type_, **fields):
    return [e for e in events if e["type"] == type_ and all(e.get(k) == v for k, v in fields.items())]


def mage(spells, i="m", at=(2, 2, 0), **kw):
    return {"id": i, "kind": "mage", "side": "r", "at": list(at), "spells": spells, "level": 9} | kw


def foe(i, at, kind="guard", **kw):
    return {"id": i, "kind": kind, "side": "b", "at": list(at)} | kw


END = {"actor": "m", "action": "end_turn"}


# -- SPL-01: the data ---------------------------------------------------------------------------------------------
def test_spl01_compendium_holds_all_319_spells_in_metres(capsys):
    assert main(["compendium", "spells", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 319 and len({r["id"] for r in rows}) == 319
    by = {r["id"]: r for r in rows}
    fb = by["fireball"]
    assert fb["range_m"] == 45 and fb["area"] == {"shape": "sphere", "size_m": 6.0}
    assert fb["damage"]["dice"]["3"] == "8d6" and fb["damage"]["dice"]["9"] == "14d6" and fb["damage"]["type"] == "fire"
    assert fb["save"] == {"ability": "dex", "success": "half"} and fb["castable"] and fb["why"] is None
    assert by["lightning-bolt"]["area"] == {"shape": "line", "size_m": 30.0} and by["lightning-bolt"]["range_m"] is None
    assert by["fire-bolt"]["damage"]["by"] == "character_level" and by["fire-bolt"]["damage"]["dice"]["17"] == "4d10"
    assert by["feather-fall"]["casting_time"] == "1 reaction" and by["feather-fall"]["range_m"] == 18
    assert by["fly"]["concentration"] and by["fly"]["range_m"] is None and by["fly"]["castable"]
    assert not by["scrying"]["castable"] and by["scrying"]["why"]
    assert main(["compendium", "spells", "feather"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("feather-fall: Feather Fall, level 1 transmutation") and "1 spell" in out


def test_spl01_generated_castable_is_the_engines():
    """The committed file's castable / why are what the rules say now (regenerate when they change)."""
    for sid, e in catalogue().items():
        assert (e["castable"], e["why"]) == support(e), sid


def test_spl01_castable_share_of_fight_spells():
    """The SRD's fight spells of levels 0-5 (a damage roll, healing or a save): the share castable, as measured."""
    fight = [e for e in catalogue().values() if e["level"] <= 5 and (e["damage"] or e["heal"] or e["save"])]
    castable = [e for e in fight if e["castable"]]
    assert len(fight) == 93
    assert len(castable) == 89          # 95.7%: the others' why names what is not modelled


def test_spl01_upcasting_and_cantrip_scaling(tmp_path, capsys):
    chars = [mage(["magic-missile", "fire-bolt"], level=5), foe("g", (6, 2, 0), max_hp=60)]
    ev = ok(run(tmp_path, capsys, chars, [
        {"actor": "m", "action": "cast", "spell": "magic-missile", "target": "g", "slot": 2, "rolls": {"damage": 2}},
        END, {"actor": "g", "action": "end_turn"},
        {"actor": "m", "action": "cast", "spell": "fire-bolt", "target": "g", "rolls": {"attack": 18, "damage": 4}}]))
    mm = [e for e in ev if e["type"] == "roll" and e.get("rule") == "SPL-01"]
    assert [e["die"] for e in mm] == ["d4"] * 4                       # 4d4 + 4 at slot 2
    assert finds(ev, "damage", who="g")[0]["amount"] == 4 * 2 + 4
    assert finds(ev, "cast", spell="magic-missile")[0]["slot"] == 2
    assert finds(ev, "damage", who="g")[1]["amount"] == 8            # 2d10 at character level 5
    state = finds(ev, "state")[-1]["characters"]["m"]
    assert state["data"]["spell_slots"] == {"1": 4, "2": 2, "3": 2}           # a level 5 full caster's, one 2nd spent


def test_spl01_bad_input_one_refusal_nothing_changed():
    s = make([mage(["fireball", "fire_bolt"], level=5, spell_slots={"3": 1}), foe("g", (6, 2, 0))], size=(40, 40, 10),
             options={"spell_names": "srd"})
    before = json.dumps(s.state.to_dict(), sort_keys=True)
    for act, rule, words in (
            ({"spell": "wibble", "target": "g"}, "SPL-01", "unknown spell"),
            ({"spell": "scrying", "target": "g"}, "SPL-01", "not castable"),
            ({"spell": "cone-of-cold", "at": [6, 2, 0]}, "DND-21", "does not know"),
            ({"spell": "fireball", "at": [39, 39, 0]}, "SPL-01", "beyond Fireball's range of 45 m"),
            ({"spell": "fireball", "at": [6, 2, 0], "slot": 4}, "DND-21", "no level 4 spell slot left"),
            ({"spell": "fireball", "at": [6, 2, 0], "slot": 2}, "SPL-01", "slot of level 3..9")):
        with pytest.raises(Illegal) as e:
            step(s, "m", "cast", **act)
        assert e.value.rule == rule and words in str(e.value) and "\n" not in str(e.value), (act, str(e.value))
        assert json.dumps(s.state.to_dict(), sort_keys=True) == before
    step(s, "m", "cast", spell="fireball", at=[6, 2, 0], rolls={"damage": 1, "save": 20})
    step(s, "m", "end_turn")
    step(s, "g", "end_turn")
    with pytest.raises(Illegal) as e:
        step(s, "m", "cast", spell="fireball", at=[6, 2, 0])
    assert e.value.rule == "DND-21" and "no level 3 spell slot left" in str(e.value)
    step(s, "m", "cast", spell="fire-bolt", target="g", rolls={"attack": 1})    # today's fire_bolt, by its SRD index


# -- SPL-05: areas in 3D ------------------------------------------------------------------------------------------
def test_spl05_fireball_sphere_in_3d(tmp_path, capsys):
    """A 6 m sphere centred in the air at layer 5: the flyer 2 m above its centre is caught, the guard on the ground
    below (5 m down, 1.5 m aside: 5.2 m from the centre to its head at layer 1.5) too, the one 9 m away not."""
    chars = [mage(["fireball"]), foe("h", (8, 8, 7), kind="harpy", flying=True), foe("g", (9, 8, 0)),
             foe("far", (8, 14, 0))]
    ev = ok(run(tmp_path, capsys, chars, [{"actor": "m", "action": "cast", "spell": "fireball", "at": [8, 8, 5],
                                           "rolls": {"damage": 3, "save": [2, 20]}}]))
    cast = finds(ev, "cast", spell="fireball")[0]
    assert cast["targets"] == ["h", "g"] and cast["area"]["shape"] == "sphere"
    assert finds(ev, "damage", who="h")[0]["amount"] == 24 and finds(ev, "damage", who="g")[0]["amount"] == 12


def test_spl05_lightning_bolt_line_through_layers(tmp_path, capsys):
    """A 30 m line from the caster up to a flyer at layer 8: the flyer halfway along it and the one beyond are struck,
    a flyer two cells off the line is not."""
    chars = [mage(["lightning-bolt"]), foe("a", (6, 2, 8), kind="harpy", flying=True),
             foe("b", (10, 2, 16), kind="harpy", flying=True), foe("off", (6, 5, 8), kind="harpy", flying=True)]
    ev = ok(run(tmp_path, capsys, chars, [{"actor": "m", "action": "cast", "spell": "lightning-bolt", "at": [6, 2, 8],
                                           "rolls": {"damage": 2, "save": [1, 1]}}]))
    assert finds(ev, "cast", spell="lightning-bolt")[0]["targets"] == ["a", "b"]
    assert [e["amount"] for e in finds(ev, "damage") if e["who"] in ("a", "b")] == [16, 16]


def test_spl05_cone_of_cold_upcast(tmp_path, capsys):
    chars = [mage(["cone-of-cold"], level=11), foe("g", (8, 2, 0), max_hp=80), foe("side", (2, 9, 0))]
    ev = ok(run(tmp_path, capsys, chars, [{"actor": "m", "action": "cast", "spell": "cone-of-cold", "target": "g",
                                           "slot": 6, "rolls": {"damage": 1, "save": 1}}]))
    assert finds(ev, "cast", spell="cone-of-cold")[0]["targets"] == ["g"]
    assert len([e for e in ev if e["type"] == "roll" and e["name"] == "damage"]) == 9      # 9d8 at slot 6
    assert finds(ev, "damage", who="g")[0]["amount"] == 9


def test_spl05_web_restrains_a_flyer_that_falls(tmp_path, capsys):
    chars = [mage(["web"]), foe("h", (6, 6, 4), kind="harpy", flying=True)]
    ev = ok(run(tmp_path, capsys, chars, [{"actor": "m", "action": "cast", "spell": "web", "at": [6, 6, 4],
                                           "rolls": {"save": 1}}]))
    assert finds(ev, "condition", who="h", condition="restrained", added=True)
    lost = finds(ev, "flight_lost", who="h")[0]
    assert lost["rule"] == "AIR-10" and finds(ev, "fall", who="h")[0]["to"] == 0


# -- SPL-07: a held or sleeping flyer falls ------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["hold-monster", "hold-person"])
def test_spl07_hold_monster_grounds_a_flyer(tmp_path, capsys, name):
    chars = [mage([name]), foe("h", (6, 6, 6), kind="wyvern_rider", flying=True)]
    ev = ok(run(tmp_path, capsys, chars, [{"actor": "m", "action": "cast", "spell": name, "target": "h",
                                           "rolls": {"save": 3}}]))
    assert finds(ev, "cast", spell=name)[0]["rule"] == "SPL-01"
    assert finds(ev, "condition", who="h", condition="paralyzed", added=True)
    f = finds(ev, "fall", who="h")[0]
    assert f["rule"] == "AIR-10" and f["from"] == 6 and f["to"] == 0 and f["damage"] > 0


def test_spl07_sleep_grounds_the_weakest_flyer(tmp_path, capsys):
    """5d8 forced to 2 each: a pool of 10 puts the 9-HP harpy to sleep, not the 38-HP one."""
    chars = [mage(["sleep"]), foe("weak", (8, 8, 5), kind="harpy", flying=True, hp=9),
             foe("strong", (9, 8, 5), kind="harpy", flying=True)]
    ev = ok(run(tmp_path, capsys, chars, [{"actor": "m", "action": "cast", "spell": "sleep", "at": [8, 8, 5],
                                           "rolls": {"pool": 2}}]))
    assert finds(ev, "hit_point_pool")[0]["pool"] == 10
    assert finds(ev, "condition", who="weak", condition="unconscious", added=True)
    assert not finds(ev, "condition", who="strong", condition="unconscious")
    assert finds(ev, "fall", who="weak")[0]["rule"] == "AIR-10" and not finds(ev, "fall", who="strong")


# -- SPL-03: Fly ----------------------------------------------------------------------------------------------------
def test_spl03_fly_then_concentration_breaks_and_it_falls(tmp_path, capsys):
    chars = [mage(["fly"]), {"id": "k", "kind": "knight", "side": "r", "at": [3, 2, 0]}, foe("g", (12, 12, 0))]
    script = [{"actor": "m", "action": "cast", "spell": "fly", "target": "k"}, END,
              {"actor": "k", "action": "move", "to": [3, 2, 1]}, {"actor": "k", "action": "end_turn"},
              {"actor": "g", "action": "end_turn"}, END, {"actor": "k", "action": "move", "to": [3, 2, 3]},
              {"actor": "gm", "action": "damage", "target": "m", "amount": 30, "rolls": {"save": 1}}]
    ev = ok(run(tmp_path, capsys, chars, script))
    assert finds(ev, "fly_speed", who="k")[0]["fly_speed_m"] == 18
    assert len(finds(ev, "cast", spell="fly")) == 1 and len(finds(ev, "concentration", spell="fly")) == 1
    assert finds(ev, "concentration_ends", who="m", spell="fly")
    lost = finds(ev, "flight_lost", who="k")[0]
    assert lost["rule"] == "AIR-10" and lost["because"] == "SPL-03"
    f = finds(ev, "fall", who="k")[0]
    assert f["from"] == 3 and f["to"] == 0 and f["damage"] == 52 * 10 // 100
    assert "prone" in finds(ev, "state")[-1]["characters"]["k"]["conditions"]


# -- SPL-02: Feather Fall -------------------------------------------------------------------------------------------
def _fall_scene(policy):
    cleric = mage(["feather-fall"], i="c", at=(4, 4, 0), **({"reactions": {"feather_fall": policy}} if policy is not None else {}))
    flyer = {"id": "e", "kind": "giant_eagle", "side": "r", "at": [6, 4, 10], "flying": True}
    return [cleric, flyer, foe("g", (14, 14, 0))], [
        {"actor": "c", "action": "end_turn"},
        {"actor": "gm", "action": "condition", "target": "e", "add": "stunned"}]


def test_spl02_feather_fall_answers_a_fall(tmp_path, capsys):
    chars, script = _fall_scene(None)
    ev = ok(run(tmp_path, capsys, chars, script))
    c = finds(ev, "cast", who="c", spell="feather-fall")[0]
    assert c["reaction"] and c["targets"] == ["e"] and c["rule"] == "SPL-02"
    d = finds(ev, "slow_fall", who="e")[0]
    assert d["rule"] == "SPL-02" and d["from"] == 10 and d["to"] == 0 and d["damage"] == 0 and d["landed"]
    assert not finds(ev, "fall", who="e")
    st = finds(ev, "state")[-1]["characters"]
    assert "prone" not in st["e"]["conditions"] and st["c"]["data"]["spell_slots"]["1"] == 3


def test_spl02_feather_fall_declined_falls(tmp_path, capsys):
    chars, script = _fall_scene(False)
    ev = ok(run(tmp_path, capsys, chars, script))
    assert not finds(ev, "cast", who="c")
    f = finds(ev, "fall", who="e")[0]
    assert f["rule"] == "AIR-10" and f["damage"] > 0


# -- SPL-04: Misty Step ---------------------------------------------------------------------------------------------
def test_spl04_misty_step_to_a_roof_and_into_the_air(tmp_path, capsys):
    fill = [("stone", (8, 0, 0), (10, 4, 3))]            # a block 4 layers high: its roof is at layer 4
    chars = [mage(["misty-step"], at=(5, 2, 0)), foe("g", (14, 14, 0))]
    ev = ok(run(tmp_path, capsys, chars, [{"actor": "m", "action": "cast", "spell": "misty-step", "at": [9, 2, 4]}], fill=fill))
    t = finds(ev, "teleport", who="m")[0]
    assert t["to"] == [9, 2, 4] and t["rule"] == "SPL-04" and not finds(ev, "fall")
    ev = ok(run(tmp_path, capsys, chars, [{"actor": "m", "action": "cast", "spell": "misty-step", "at": [5, 4, 6]}], fill=fill))
    assert finds(ev, "teleport", who="m") and finds(ev, "fall", who="m")[0]["from"] == 6
    rc, _, err = run(tmp_path, capsys, chars, [{"actor": "m", "action": "cast", "spell": "misty-step", "at": [5, 12, 0]}], fill=fill)
    assert rc == 2 and "SPL-04" in err and "beyond Misty Step's 9 m" in err and len(err.strip().splitlines()) == 1


# -- SPL-06: pushes in 3D ------------------------------------------------------------------------------------------
def test_spl06_thunderwave_pushes_a_flyer_up_and_away(tmp_path, capsys):
    chars = [mage(["thunderwave"], at=(5, 5, 0)), foe("h", (6, 5, 1), kind="harpy", flying=True, max_hp=60)]
    ev = ok(run(tmp_path, capsys, chars, [{"actor": "m", "action": "cast", "spell": "thunderwave", "target": "h",
                                           "rolls": {"damage": 1, "save": 1}}]))
    p = finds(ev, "pushed", who="h")[0]
    assert p["rule"] == "SPL-06" and p["from"] == [6, 5, 1]
    x, y, z = p["to"]
    assert x > 6 and y == 5 and z >= 1 and (x - 6) * 1.5 <= 3.0 + 1e-9


# -- SPL-08: Levitate -----------------------------------------------------------------------------------------------
def test_spl08_levitate_lifts_and_floats_down(tmp_path, capsys):
    chars = [mage(["levitate"]), foe("g", (4, 2, 0))]
    script = [{"actor": "m", "action": "cast", "spell": "levitate", "target": "g", "at": [4, 2, 6], "rolls": {"save": 1}},
              END, {"actor": "g", "action": "end_turn"},
              {"actor": "gm", "action": "damage", "target": "m", "amount": 20, "rolls": {"save": 1}}]
    ev = ok(run(tmp_path, capsys, chars, script))
    lv = finds(ev, "levitate", who="g")[0]
    assert lv["from"] == 0 and lv["to"] == 6 and lv["rule"] == "SPL-08"
    assert not finds(ev, "flight_lost", who="g")                        # no upkeep owed while it hangs
    d = finds(ev, "slow_fall", who="g", rule="SPL-08")[0]
    assert d["to"] == 0 and d["damage"] == 0 and not finds(ev, "fall", who="g")
    # no horizontal move of its own while it hangs there (it cannot fly: AIR-01)
    chars[1]["side"] = "r"
    rc, _, err = run(tmp_path, capsys, chars, [script[0], END, {"actor": "g", "action": "move", "to": [5, 2, 6]}])
    assert rc == 2 and "AIR-01" in err and "cannot fly" in err


def test_spl06_gust_of_wind_pushes_a_flyer_into_a_wall(tmp_path, capsys):
    """An 18 m x 3 m line: the harpy fails its Strength save and is pushed 4.5 m (three cells) away through the air,
    stopped by the wall after two."""
    fill = [("stone", (8, 0, 0), (8, 15, 9))]
    chars = [mage(["gust-of-wind"], at=(2, 5, 1), flying=True), foe("h", (5, 5, 1), kind="harpy", flying=True)]
    ev = ok(run(tmp_path, capsys, chars, [{"actor": "m", "action": "cast", "spell": "gust-of-wind", "target": "h",
                                           "rolls": {"save": 1}}], fill=fill))
    assert finds(ev, "cast", spell="gust-of-wind")[0]["targets"] == ["h"]
    p = finds(ev, "pushed", who="h")[0]
    assert p["from"] == [5, 5, 1] and p["to"] == [7, 5, 1] and p["rule"] == "SPL-06"
    assert not finds(ev, "fall", who="h")


def test_spl04_dimension_door_needs_no_sight_and_a_walker_falls(tmp_path, capsys):
    fill = [("stone", (6, 0, 0), (6, 15, 9))]            # a wall between: Dimension Door needs no sight
    chars = [mage(["dimension-door"], at=(2, 2, 0)), foe("g", (14, 14, 0))]
    ev = ok(run(tmp_path, capsys, chars, [{"actor": "m", "action": "cast", "spell": "dimension-door", "at": [12, 2, 5]}],
                fill=fill))
    assert finds(ev, "teleport", who="m")[0]["to"] == [12, 2, 5]
    assert finds(ev, "fall", who="m")[0]["from"] == 5
    rc, _, err = run(tmp_path, capsys, chars, [{"actor": "m", "action": "cast", "spell": "dimension-door", "at": [6, 2, 0]}],
                     fill=fill)
    assert rc == 2 and "SPL-04" in err and "does not fit" in err


# -- SPL-09: lasting areas ------------------------------------------------------------------------------------------
def test_spl09_moonbeam_burns_each_turn_until_the_concentration_ends(tmp_path, capsys):
    chars = [mage(["moonbeam"]), foe("g", (6, 2, 0), max_hp=90)]
    script = [{"actor": "m", "action": "cast", "spell": "moonbeam", "at": [6, 2, 0], "rolls": {"damage": 1, "save": 20}},
              {**END, "rolls": {"damage": 3, "save": 1}},                    # g's turn starts in the beam: fails
              {"actor": "g", "action": "end_turn"},
              {"actor": "gm", "action": "damage", "target": "m", "amount": 30, "rolls": {"save": 1}},
              END]
    ev = ok(run(tmp_path, capsys, chars, script))
    la = finds(ev, "lasting_area", who="m")[0]
    assert la["spell"] == "moonbeam" and la["area"]["shape"] == "cylinder" and la["rule"] == "SPL-09"
    dmg = [e["amount"] for e in finds(ev, "damage", who="g")]
    assert dmg == [1, 6]                 # 2d10 rolled 1 each, saved: half; its turn: 2d10 rolled 3 each, failed
    assert finds(ev, "lasting_area_ends", who="m", spell="moonbeam")
    assert "lasting" in finds(ev, "state")[-1]["characters"]["m"]["data"]
    assert finds(ev, "state")[-1]["characters"]["m"]["data"]["lasting"] == []


def test_spl09_web_catches_a_flyer_when_its_turn_starts(tmp_path, capsys):
    chars = [mage(["web"]), foe("h", (6, 6, 4), kind="harpy", flying=True)]
    script = [{"actor": "m", "action": "cast", "spell": "web", "at": [6, 6, 4], "rolls": {"save": 20}},
              {**END, "rolls": {"save": 1}}]
    ev = ok(run(tmp_path, capsys, chars, script))
    saves = [e for e in ev if e["type"] == "save" and e.get("who") == "h"]
    assert len(saves) == 2 and saves[1]["rule"] == "DND-21"
    assert finds(ev, "condition", who="h", condition="restrained", added=True)
    assert finds(ev, "fall", who="h")[0]["rule"] == "AIR-10"


def test_spl09_stinking_cloud_takes_the_action(tmp_path, capsys):
    """No save as it is cast (the cloud acts when a turn starts in it); then a failed Con save costs the action."""
    chars = [mage(["stinking-cloud"]), foe("g", (8, 2, 0))]
    cast = {"actor": "m", "action": "cast", "spell": "stinking-cloud", "at": [8, 2, 0]}
    ev = ok(run(tmp_path, capsys, chars, [cast, {**END, "rolls": {"save": 1}}]))
    saves = [e for e in ev if e["type"] == "save" and e.get("who") == "g"]
    assert len(saves) == 1 and saves[0]["ability"] == "con" and not saves[0]["success"]
    assert ev.index(saves[0]) > ev.index(finds(ev, "turn", who="g")[0])         # as its turn starts
    assert finds(ev, "loses_action", who="g", spell="stinking-cloud")
    shot = {"actor": "g", "action": "attack", "target": "m", "weapon": "light_crossbow", "rolls": {"attack": 2}}
    rc, _, err = run(tmp_path, capsys, chars, [cast, {**END, "rolls": {"save": 1}}, shot])
    assert rc == 2 and "its action is used" in err
    ok(run(tmp_path, capsys, chars, [cast, {**END, "rolls": {"save": 20}}, shot]))


def test_spl01_elemental_adept_on_an_srd_spell(tmp_path, capsys):
    """DND-F02 with an SRD spell: its 1s count as 2 and the target's fire resistance is ignored."""
    chars = [mage(["fireball"], feats=["elemental_adept"], feat_choices={"elemental_adept": "fire"}),
             foe("g", (8, 2, 0), max_hp=60, resistances=["fire"])]
    ev = ok(run(tmp_path, capsys, chars, [{"actor": "m", "action": "cast", "spell": "fireball", "at": [8, 2, 0],
                                           "rolls": {"damage": 1, "save": 1}}]))
    assert finds(ev, "damage", who="g")[0]["amount"] == 16


def test_spl01_slots_key_and_its_bad_values(tmp_path, capsys):
    chars = [mage(["magic-missile"], slots={"1": 1}), foe("g", (6, 2, 0), max_hp=60)]
    mm = {"actor": "m", "action": "cast", "spell": "magic-missile", "target": "g", "rolls": {"damage": 1}}
    ev = ok(run(tmp_path, capsys, chars, [mm]))
    assert finds(ev, "state")[-1]["characters"]["m"]["data"]["spell_slots"] == {"1": 0}
    rc, _, err = run(tmp_path, capsys, chars, [mm, END, {"actor": "g", "action": "end_turn"}, mm])
    assert rc == 2 and "script[3]" in err and "no level 1 spell slot left" in err and "DND-21" in err
    rc, _, err = run(tmp_path, capsys, [mage(["magic-missile"], slots={"10": 1}), foe("g", (6, 2, 0))], [])
    assert rc == 2 and "characters[0].slots.10" in err and len(err.strip().splitlines()) == 1
    rc, _, err = run(tmp_path, capsys, [mage(["scrying"]), foe("g", (6, 2, 0))], [])
    assert rc == 2 and "characters[0].spells[0]" in err and "not castable" in err and "SPL-01" in err


def test_spl02_feather_fall_is_asked_of_the_casters_player():
    """In ask mode (the window) the guard's bolt drops the eagle (AIR-11's 10) and the fall stops at the question
    ``reactions.c.feather_fall``, asked of the caster, nothing changed; answered, the action holds the answer and
    plays like a script that gives it."""
    from engine.rules.choices import ChoiceNeeded, fill
    from engine.rules.core import dumps

    chars, _ = _fall_scene(None)
    shot = {"actor": "g", "action": "attack", "target": "e", "weapon": "light_crossbow",
            "rolls": {"attack": 19, "damage": 1, "fall": 10}}

    def fresh():
        s = make(chars, size=(16, 16, 24), options={"spell_names": "srd"})
        s.step({"actor": "c", "action": "end_turn"})
        s.step({"actor": "e", "action": "end_turn"})
        return s

    for answer, falls in ((True, False), (False, True)):
        s = fresh()
        before = s.fingerprint()
        with pytest.raises(ChoiceNeeded) as q:
            s.step(shot, ask={})
        assert s.fingerprint() == before
        p = q.value.point
        assert p.path == ("reactions", "c", "feather_fall") and p.chooser == "c" and p.rule == "SPL-02"
        action, key = fill(shot, p, answer)
        evs = s.step(action, ask={key: answer}).log
        assert bool([e for e in evs if e["type"] == "fall"]) is falls
        assert bool([e for e in evs if e["type"] == "slow_fall"]) is not falls
        again = fresh()
        again.step(action)
        assert [dumps(e) for e in again.events] == [dumps(e) for e in s.events]


# -- SPL-14: Jump ---------------------------------------------------------------------------------------------------
def _steps_scene():
    """Two steps up east of the knight: (4, 2) one layer high, (5, 2) two. Walking to the top is two steps across and
    two layers up: 2 x 1.5 m + 2 x 4 m (AIR-07's climb) = 11 m, beyond the knight's 9 m; leaping the layers under
    Jump (half the climb, 2 m each) it is 7 m."""
    fill = [("stone", (4, 2, 0), (4, 2, 0)), ("stone", (5, 2, 0), (5, 2, 1))]
    chars = [mage(["jump"]), {"id": "k", "kind": "knight", "side": "r", "at": [3, 2, 0]}, foe("g", (12, 12, 0))]
    return fill, chars


def test_spl14_jump_leaps_layers_a_walker_could_not_climb(tmp_path, capsys):
    fill, chars = _steps_scene()
    rc, _, err = run(tmp_path, capsys, chars, [END, {"actor": "k", "action": "move", "to": [5, 2, 2]}], fill=fill)
    assert rc == 2 and len(err.strip().splitlines()) == 1, err             # without Jump: beyond its movement
    assert "Climbing 2 layers costs 8 m; 3 m across: 11 m in all" in err and "(AIR-07)" in err, err
    turn = [END, {"actor": "k", "action": "end_turn"}, {"actor": "g", "action": "end_turn"}]
    script = [{"actor": "m", "action": "cast", "spell": "jump", "target": "k"}, END,
              {"actor": "k", "action": "move", "to": [5, 2, 2]}, {"actor": "k", "action": "end_turn"},
              {"actor": "g", "action": "end_turn"}] + turn * 9 + [END]
    ev = ok(run(tmp_path, capsys, chars, script, fill=fill))
    j = finds(ev, "jump_spell", who="k")[0]
    assert j["rule"] == "SPL-14" and j["high_jump_m"] == 5.4 and j["layer_cost_m"] == 2.0    # Str 16: 3 x 6 ft
    assert finds(ev, "cast", spell="jump")[0]["targets"] == ["k"]
    mv = [e for e in ev if e["type"] == "move" and e["who"] == "k"][0]
    assert mv["to"] == [5, 2, 2]
    end = finds(ev, "jump_spell", who="k", ended=True)                      # a minute later, at the caster's turn
    assert len(end) == 1 and ev.index(end[0]) > ev.index(j)
    assert "jump_spell" not in finds(ev, "state")[-1]["characters"]["k"]["data"]


def test_spl14_jump_touches_a_willing_creature(tmp_path, capsys):
    fill, chars = _steps_scene()
    chars[2]["at"] = [3, 3, 0]
    rc, _, err = run(tmp_path, capsys, chars, [{"actor": "m", "action": "cast", "spell": "jump", "target": "g"}],
                     fill=fill)
    assert rc == 2 and "SPL-14" in err and "willing" in err and len(err.strip().splitlines()) == 1


# -- SPL-11: marks a failed save leaves ------------------------------------------------------------------------------
def test_spl11_faerie_fire_gives_advantage_against_the_outlined(tmp_path, capsys):
    chars = [mage(["faerie-fire"]), {"id": "k", "kind": "knight", "side": "r", "at": [7, 5, 0]},
             foe("g", (7, 2, 0), max_hp=80), foe("h", (7, 9, 0))]
    ev = ok(run(tmp_path, capsys, chars, [
        {"actor": "m", "action": "cast", "spell": "faerie-fire", "at": [7, 2, 0], "rolls": {"save": 1}}, END,
        {"actor": "k", "action": "move", "to": [7, 3, 0]},
        {"actor": "k", "action": "attack", "target": "g", "rolls": {"attack": [3, 17], "damage": 1}}]))
    assert finds(ev, "cast", spell="faerie-fire")[0]["targets"] == ["g"]
    assert finds(ev, "spell_mark", who="g", mark="outlined")[0]["rule"] == "SPL-11"
    att = [e for e in ev if e["type"] == "attack" and e["who"] == "k"][0]
    assert "outlined by Faerie Fire" in json.dumps(att) and att["roll"] == 17


def test_spl11_bestow_curse_disadvantage_against_the_caster(tmp_path, capsys):
    chars = [mage(["bestow-curse"]), foe("g", (3, 2, 0))]
    ev = ok(run(tmp_path, capsys, chars, [
        {"actor": "m", "action": "cast", "spell": "bestow-curse", "target": "g", "rolls": {"save": 1}}, END,
        {"actor": "g", "action": "attack", "target": "m", "rolls": {"attack": [17, 3]}}]))
    assert finds(ev, "spell_mark", who="g", mark="cursed", caster="m")
    att = [e for e in ev if e["type"] == "attack" and e["who"] == "g"][0]
    assert "cursed by" in json.dumps(att) and att["roll"] == 3


def test_spl11_calm_emotions_suppresses_fear_until_it_ends(tmp_path, capsys):
    chars = [mage(["calm-emotions"]), {"id": "k", "kind": "knight", "side": "r", "at": [6, 2, 0]}, foe("g", (12, 12, 0))]
    ev = ok(run(tmp_path, capsys, chars, [
        {"actor": "gm", "action": "condition", "target": "k", "add": "frightened"},
        {"actor": "m", "action": "cast", "spell": "calm-emotions", "at": [6, 2, 0], "rolls": {"save": 1}},
        {"actor": "gm", "action": "damage", "target": "m", "amount": 30, "rolls": {"save": 1}}]))
    mk = finds(ev, "spell_mark", who="k", mark="calmed")
    assert mk[0]["suppressed"] == ["frightened"] and mk[1]["ended"] and mk[1]["resumed"] == ["frightened"]
    fr = finds(ev, "condition", who="k", condition="frightened")
    assert [e["added"] for e in fr] == [True, False, True]
    assert "frightened" in finds(ev, "state")[-1]["characters"]["k"]["conditions"]


# -- SPL-12: longer casting times -----------------------------------------------------------------------------------
ROUND = [END, {"actor": "g", "action": "end_turn"}]


def test_spl12_geas_takes_a_minute_of_actions_then_charms(tmp_path, capsys):
    """1 minute = 10 rounds: the action of the turn it begins and of the 9 after; the turn 10 rounds later it takes
    effect (the save forced on the step that starts that turn) and the slot is spent only then."""
    chars = [mage(["geas", "fire-bolt"]), foe("g", (6, 2, 0))]
    cast = {"actor": "m", "action": "cast", "spell": "geas", "target": "g"}
    rounds = ROUND * 9 + [END, {"actor": "g", "action": "end_turn", "rolls": {"save": 1}}]
    ev = ok(run(tmp_path, capsys, chars, [cast] + rounds))
    lc = finds(ev, "long_cast", who="m")
    assert [e["rounds_left"] for e in lc] == list(range(10, 0, -1)) and all(e["rule"] == "SPL-12" for e in lc)
    done = finds(ev, "cast", spell="geas")
    assert len(done) == 1 and done[0]["targets"] == ["g"] and done[0]["slot"] == 5
    assert ev.index(done[0]) > ev.index(lc[-1])
    assert finds(ev, "concentration_ends", who="m", spell="geas")[0]["rule"] == "SPL-12"
    assert finds(ev, "condition", who="g", condition="charmed", added=True)
    st = finds(ev, "state")[-1]["characters"]
    assert st["m"]["data"]["spell_slots"]["5"] == 0 and "charmed" in st["g"]["conditions"]
    # one round short: no cast yet, the slot still there
    ev = ok(run(tmp_path, capsys, chars, [cast] + ROUND * 9))
    assert not finds(ev, "cast", spell="geas") and finds(ev, "state")[-1]["characters"]["m"]["data"]["spell_slots"]["5"] == 1
    # the action of a turn of the casting is spent on it
    rc, _, err = run(tmp_path, capsys, chars, [cast, *ROUND, {"actor": "m", "action": "cast", "spell": "fire-bolt",
                                                             "target": "g"}])
    assert rc == 2 and "action" in err and len(err.strip().splitlines()) == 1, err


def test_spl12_broken_concentration_fails_the_casting_and_keeps_the_slot(tmp_path, capsys):
    chars = [mage(["geas"]), foe("g", (6, 2, 0))]
    ev = ok(run(tmp_path, capsys, chars, [
        {"actor": "m", "action": "cast", "spell": "geas", "target": "g"}, *ROUND,
        {"actor": "gm", "action": "damage", "target": "m", "amount": 30, "rolls": {"save": 1}}, *ROUND * 9]))
    f = finds(ev, "long_cast", who="m", failed=True)
    assert len(f) == 1 and "concentration" in f[0]["reason"]
    assert not finds(ev, "cast", spell="geas") and not finds(ev, "condition", who="g", condition="charmed")
    assert finds(ev, "state")[-1]["characters"]["m"]["data"]["spell_slots"]["5"] == 1
    assert len(finds(ev, "long_cast", who="m")) == 3          # begun, one more turn, failed: no more after


def test_spl12_contact_other_plane_dc_15_on_the_caster(tmp_path, capsys):
    chars = [mage(["contact-other-plane"], max_hp=80, hp=80), foe("g", (12, 12, 0))]
    rounds = ROUND * 9 + [END, {"actor": "g", "action": "end_turn", "rolls": {"save": 2, "damage": 3}}]
    ev = ok(run(tmp_path, capsys, chars, [{"actor": "m", "action": "cast", "spell": "contact-other-plane"}] + rounds))
    sv = finds(ev, "save", who="m")[-1]
    assert sv["dc"] == 15 and sv["ability"] == "int" and not sv["success"]
    assert finds(ev, "damage", who="m")[0]["amount"] == 18                 # 6d6
    assert finds(ev, "condition", who="m", condition="incapacitated", added=True)


def test_spl12_prayer_of_healing_ten_minutes_up_to_six(tmp_path, capsys):
    """10 minutes = 100 rounds; then each creature named regains 2d8 + the caster's modifier (forced 1s: 2 + 3)."""
    chars = [mage(["prayer-of-healing"]), {"id": "k", "kind": "knight", "side": "r", "at": [4, 2, 0], "hp": 10},
             {"id": "e", "kind": "knight", "side": "r", "at": [2, 5, 0], "hp": 20}]
    turn = [END, {"actor": "k", "action": "end_turn"}, {"actor": "e", "action": "end_turn"}]
    script = [{"actor": "m", "action": "cast", "spell": "prayer-of-healing", "targets": ["k", "e"]}] + turn * 99 \
        + [END, {"actor": "k", "action": "end_turn"}, {"actor": "e", "action": "end_turn", "rolls": {"heal": 1}}]
    ev = ok(run(tmp_path, capsys, chars, script))
    assert finds(ev, "cast", spell="prayer-of-healing")[0]["targets"] == ["k", "e"]
    assert len(finds(ev, "long_cast", who="m")) == 100
    heals = [e for e in ev if e["type"] == "heal"]
    assert [h["who"] for h in heals] == ["k", "e"] and heals[0]["amount"] == heals[1]["amount"] == 2 + 3   # Int 17
    rc, _, err = run(tmp_path, capsys, chars, [{"actor": "m", "action": "cast", "spell": "prayer-of-healing",
                                                "targets": ["k", "e", "m", "k"]}])
    assert rc == 2 and "up to 6 different creatures" in err


def test_spl11_bane_subtracts_a_d4_from_attacks_and_saves(tmp_path, capsys):
    """Two guards fail Bane's Charisma save (forced 1s); then one attacks with a d20 of 14 and a d4 of 3; in the
    Fireball that follows the baned save with a d4 less, the third guard without."""
    chars = [mage(["bane", "fireball"], max_hp=80, hp=80), foe("g", (3, 2, 0)), foe("h", (4, 4, 0)),
             foe("x", (2, 4, 0))]
    ev = ok(run(tmp_path, capsys, chars, [
        {"actor": "m", "action": "cast", "spell": "bane", "targets": ["g", "h"], "rolls": {"save": 1}}, END,
        {"actor": "g", "action": "attack", "target": "m", "rolls": {"attack": 14, "bane": 3}},
        {"actor": "g", "action": "end_turn"}, {"actor": "h", "action": "end_turn"}, {"actor": "x", "action": "end_turn"},
        {"actor": "m", "action": "cast", "spell": "fireball", "at": [3, 3, 0], "rolls": {"save": 10, "bane": 2,
                                                                                    "damage": 1}}]))
    assert finds(ev, "cast", spell="bane")[0]["targets"] == ["g", "h"]
    for who, baned in (("g", True), ("h", True), ("x", False)):
        sv = finds(ev, "save", who=who)[-1]
        assert sv["total"] == 10 + sum(s["value"] for s in sv["sources"])
        assert ({"source": "Bane", "value": -2, "rule": "SPL-11"} in sv["sources"]) == baned, (who, sv)
    assert len(finds(ev, "spell_mark", mark="baned")) == 2
    att = [e for e in ev if e["type"] == "attack" and e["who"] == "g"][0]
    plain = [s for s in att["sources"] if s.get("rule") != "SPL-11"]
    bane = [s for s in att["sources"] if s.get("rule") == "SPL-11"]
    assert bane == [{"source": "Bane", "value": -3, "rule": "SPL-11"}]
    assert att["total"] == 14 + sum(s["value"] for s in plain if s.get("on") != "AC") - 3
    rc, _, err = run(tmp_path, capsys, chars, [{"actor": "m", "action": "cast", "spell": "bane",
                                                "targets": ["g", "h", "x", "m"]}])
    assert rc == 2 and "up to 3 different creatures" in err
    ev = ok(run(tmp_path, capsys, chars, [{"actor": "m", "action": "cast", "spell": "bane", "slot": 2,
                                           "targets": ["g", "h", "x", "m"], "rolls": {"save": 20}}]))
    assert finds(ev, "cast", spell="bane")[0]["targets"] == ["g", "h", "x", "m"]          # a 2nd-level slot: four


def test_spl11_ray_of_enfeeblement_halves_strength_weapon_damage(tmp_path, capsys):
    """A hit (forced 18) enfeebles the guard: its spear hit deals half (forced damage 5 + Str); a Con save at the
    end of its turn (forced 20) ends it."""
    chars = [mage(["ray-of-enfeeblement"], max_hp=80, hp=80), foe("g", (3, 2, 0))]
    ev = ok(run(tmp_path, capsys, chars, [
        {"actor": "m", "action": "cast", "spell": "ray-of-enfeeblement", "target": "g", "rolls": {"attack": 18}}, END,
        {"actor": "g", "action": "attack", "target": "m", "rolls": {"attack": 19, "damage": 5}},
        {"actor": "g", "action": "end_turn", "rolls": {"save": 20}}]))
    assert finds(ev, "spell_mark", who="g", mark="enfeebled")[0]["rule"] == "SPL-11"
    half = [e for e in finds(ev, "spell_mark", who="g") if "halved" in e][0]
    full, cut = half["halved"]
    assert cut == full // 2 and finds(ev, "damage", who="m")[0]["amount"] == cut
    assert finds(ev, "spell_mark", who="g", ended=True)
    assert not finds(ev, "state")[-1]["characters"]["g"]["data"].get("spell_marks")


def test_spl11_slow_halves_speed_lowers_ac_and_takes_reactions(tmp_path, capsys):
    chars = [mage(["slow"]), {"id": "k", "kind": "knight", "side": "r", "at": [9, 8, 0]}, foe("g", (8, 8, 0))]
    ev = ok(run(tmp_path, capsys, chars, [
        {"actor": "m", "action": "cast", "spell": "slow", "at": [8, 8, 0], "rolls": {"save": 1}}, END,
        {"actor": "k", "action": "attack", "target": "g", "rolls": {"attack": 10}},
        {"actor": "k", "action": "end_turn"}, {"actor": "g", "action": "move", "to": [8, 11, 0]}]))
    assert finds(ev, "cast", spell="slow")[0]["targets"] == ["g"]           # the knight, a friend, is spared
    att = [e for e in ev if e["type"] == "attack" and e["who"] == "k"][0]
    assert {"source": "Slow", "value": -2, "rule": "SPL-11", "on": "AC"} in att["sources"]
    st = finds(ev, "state")[-1]["characters"]["g"]
    assert st["data"]["reaction_used"]
    rc, _, err = run(tmp_path, capsys, chars, [
        {"actor": "m", "action": "cast", "spell": "slow", "at": [8, 8, 0], "rolls": {"save": 1}}, END,
        {"actor": "k", "action": "end_turn"}, {"actor": "g", "action": "move", "to": [8, 12, 0]}])
    assert rc == 2 and "6 m across; g has 4.5 m of movement left" in err, err       # a guard's 9 m halved


def test_spl11_confusion_d10_each_turn(tmp_path, capsys):
    """The guard fails (forced 1), the knight beside it saves (20). On the guard's turn a 7 makes it attack the one
    creature in its reach, the knight, its own foe or not; a 4 leaves it without a move or an action."""
    chars = [mage(["confusion"]), foe("g", (8, 8, 0)), {"id": "k", "kind": "knight", "side": "r", "at": [9, 8, 0]}]
    cast = {"actor": "m", "action": "cast", "spell": "confusion", "at": [8, 8, 0], "rolls": {"save": [1, 20]}}
    ev = ok(run(tmp_path, capsys, chars, [cast, {**END, "rolls": {"confusion": 7, "confusion_target": 1,
                                                                      "attack": 2}}]))
    assert finds(ev, "cast", spell="confusion")[0]["targets"] == ["g", "k"]
    assert [e["who"] for e in finds(ev, "spell_mark", mark="confused")] == ["g"]
    c = finds(ev, "confused", who="g")[0]
    assert c["roll"] == 7 and c["target"] == "k" and c["rule"] == "SPL-11"
    assert [e["target"] for e in ev if e["type"] == "attack" and e["who"] == "g"] == ["k"]
    rc, _, err = run(tmp_path, capsys, chars, [cast, {**END, "rolls": {"confusion": 4}},
                                               {"actor": "g", "action": "move", "to": [8, 9, 0]}])
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "movement" in err, err


# -- SPL-13: Enlarge/Reduce, the body in 3D ---------------------------------------------------------------------------
def test_spl13_enlarge_grows_the_body_and_its_blows(tmp_path, capsys):
    """The knight grows from medium (1 cell, 2 layers) to large (2 cells, 3 layers); its hit deals 1d4 more (forced
    3); when the concentration breaks it is medium again. Under a ceiling at layer 2 it has no room to grow."""
    chars = [mage(["enlarge-reduce"]), {"id": "k", "kind": "knight", "side": "r", "at": [5, 5, 0]},
             foe("g", (4, 5, 0), max_hp=90, hp=90)]
    script = [{"actor": "m", "action": "cast", "spell": "enlarge-reduce", "target": "k", "option": "enlarge"}, END,
              {"actor": "k", "action": "attack", "target": "g", "rolls": {"attack": 19, "damage": 1,
                                                                          "enlarge_reduce": 3}},
              {"actor": "gm", "action": "damage", "target": "m", "amount": 30, "rolls": {"save": 1}}]
    ev = ok(run(tmp_path, capsys, chars, script))
    r = finds(ev, "resized", who="k")
    assert r[0]["size"] == "large" and r[0]["footprint"] == 2 and r[0]["height_layers"] == 3 and r[0]["rule"] == "SPL-13"
    assert r[1]["ended"] and r[1]["size"] == "medium"
    att = [e for e in ev if e["type"] == "attack" and e["who"] == "k"][0]
    assert att["hit"]
    dmg = finds(ev, "damage", who="g")[0]["amount"]
    ev2 = ok(run(tmp_path, capsys, chars, [END, script[2]]))                 # the same blow, not enlarged
    assert dmg == finds(ev2, "damage", who="g")[0]["amount"] + 3
    st = finds(ev, "state")[-1]["characters"]["k"]
    assert st["size"] == "medium" and st["footprint"] == 1
    ev = ok(run(tmp_path, capsys, chars, script[:1], fill=[("stone", (5, 5, 2), (6, 6, 2))]))
    assert finds(ev, "resized", who="k")[0]["footprint"] is None
    assert finds(ev, "state")[-1]["characters"]["k"]["size"] == "medium"


def test_spl13_reduce_an_unwilling_foe_saves_or_shrinks(tmp_path, capsys):
    chars = [mage(["enlarge-reduce"]), foe("g", (4, 2, 0))]
    ev = ok(run(tmp_path, capsys, chars, [{"actor": "m", "action": "cast", "spell": "enlarge-reduce", "target": "g",
                                           "rolls": {"save": 1}}]))
    assert finds(ev, "cast", spell="enlarge-reduce")[0]["option"] == "reduce"
    assert finds(ev, "save", who="g")[0]["ability"] == "con"
    assert finds(ev, "resized", who="g")[0]["size"] == "small"
    ev = ok(run(tmp_path, capsys, chars, [{"actor": "m", "action": "cast", "spell": "enlarge-reduce", "target": "g",
                                           "rolls": {"save": 20}}]))
    assert not finds(ev, "resized")
    rc, _, err = run(tmp_path, capsys, chars, [{"actor": "m", "action": "cast", "spell": "enlarge-reduce",
                                                "target": "g", "option": "shrink"}])
    assert rc == 2 and "SPL-13" in err and len(err.strip().splitlines()) == 1


def test_spl11_resilient_sphere_no_damage_in_or_out(tmp_path, capsys):
    chars = [mage(["resilient-sphere", "fire-bolt"]), foe("g", (3, 2, 0)),
             {"id": "k", "kind": "knight", "side": "r", "at": [4, 2, 0]}]
    ev = ok(run(tmp_path, capsys, chars, [
        {"actor": "m", "action": "cast", "spell": "resilient-sphere", "target": "g", "rolls": {"save": 1}}, END,
        {"actor": "g", "action": "attack", "target": "k", "rolls": {"attack": 19, "damage": 4}},
        {"actor": "g", "action": "end_turn"},
        {"actor": "k", "action": "attack", "target": "g", "rolls": {"attack": 19, "damage": 4}}]))
    assert finds(ev, "spell_mark", who="g", mark="sphered")
    out, into = finds(ev, "damage", who="k")[0], finds(ev, "damage", who="g")[0]
    assert out["amount"] == 0 and "reaches outside (SPL-11)" in out["notes"][0]
    assert into["amount"] == 0 and "nothing from outside" in into["notes"][0]


def test_spl11_compulsion_walks_the_target_the_way_named(tmp_path, capsys):
    """The guard fails (forced 1); on its turn it first walks its 9 m (6 cells) east, the way the caster named, and
    stops before the wall after 4; its Wisdom save (20) then ends the spell on it."""
    chars = [mage(["compulsion"]), foe("g", (4, 2, 0))]
    fill = [("stone", (9, 0, 0), (9, 15, 5))]
    ev = ok(run(tmp_path, capsys, chars, [
        {"actor": "m", "action": "cast", "spell": "compulsion", "targets": ["g"], "at": [10, 2, 0],
         "rolls": {"save": 1}}, {**END, "rolls": {"save": 20}}], fill=fill))
    c = finds(ev, "compelled", who="g")[0]
    assert c["from"] == [4, 2, 0] and c["to"] == [8, 2, 0] and c["rule"] == "SPL-11"
    assert finds(ev, "spell_mark", who="g", mark="compelled", ended=True)
    rc, _, err = run(tmp_path, capsys, chars, [{"actor": "m", "action": "cast", "spell": "compulsion",
                                                "targets": ["g"]}], fill=fill)
    assert rc == 2 and "needs a direction" in err and "SPL-01" in err


@pytest.mark.parametrize("act, rule, words", [
    ({"spell": "wibble", "target": "g"}, "SPL-01", "unknown spell"),
    ({"spell": "cone-of-cold", "target": "g"}, "DND-21", "does not know"),
    ({"spell": "fireball", "at": [6, 2, 0], "slot": 4}, "DND-21", "no level 4 spell slot left"),
    ({"spell": "fireball", "at": [39, 39, 0]}, "SPL-01", "beyond Fireball's range of 45 m"),
])
def test_spl01_bad_input_through_aerie_run(tmp_path, capsys, act, rule, words):
    """Through ``aerie run``: exit 2, one line naming the rule, no event printed (nothing was done)."""
    chars = [mage(["fireball"], spell_slots={"3": 1}), foe("g", (6, 2, 0))]
    rc, ev, err = run(tmp_path, capsys, chars, [{"actor": "m", "action": "cast", **act}], size=(40, 40, 10))
    assert rc == 2 and len(err.strip().splitlines()) == 1 and f"({rule})" in err and words in err, err
    assert "Traceback" not in err and not [e for e in ev if e["type"] in ("cast", "damage", "save")]


def test_spl01_produce_flame_is_hurled_within_9_m(tmp_path, capsys):
    """Produce Flame's range is Self, but "you can hurl the flame at a creature within 9 m of you. Make a ranged spell
    attack": a guard 7.5 m away is hit, one at 10.5 m is out of range, and a Large ogre touching the caster is hit
    too (its centre 2.4 m away: the thrown flame once had a self-range spell's 1.5 m, which the target check let
    through for a creature it touches and the attack then refused in the middle of the cast)."""
    chars = [mage(["produce-flame"], level=5), foe("g", (7, 2, 0), max_hp=60), foe("far", (2, 9, 0)),
             {"id": "o", "srd": "ogre", "side": "b", "at": [3, 3, 0], "max_hp": 90}]
    ev = ok(run(tmp_path, capsys, chars, [
        {"actor": "m", "action": "cast", "spell": "produce-flame", "target": "g", "rolls": {"attack": 18, "damage": 3}},
        END, {"actor": "g", "action": "end_turn"}, {"actor": "far", "action": "end_turn"},
        {"actor": "o", "action": "end_turn"},
        {"actor": "m", "action": "cast", "spell": "produce-flame", "target": "far", "illegal": "DND-21"},
        {"actor": "m", "action": "cast", "spell": "produce-flame", "target": "o", "rolls": {"attack": 18, "damage": 4}}]))
    assert [e["amount"] for e in finds(ev, "damage", who="g")] == [6]      # 2d8 at character level 5, each die 3
    assert [e["amount"] for e in finds(ev, "damage", who="o")] == [8]
