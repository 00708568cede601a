"""A creature's Spellcasting and Innate Spellcasting (SRD-50..SRD-53), each through ``aerie run --json`` with forced
dice on a scene of SRD creatures (``srd = "..."``), and the traits' parse (srd_spellbook.py)."""

from __future__ import annotations

import json
import random

import pytest

from engine.cli import main
from engine.rules.dnd5e.srd_blocks import bestiary, character, feature_status
from engine.rules.dnd5e.srd_spellbook import book
from engine.sim.policies import resolve
from rules_helpers import make, scene_text, tables

pytestmark = pytest.mark.unit


def run(tmp_path, capsys, chars, script, ok=True):
    p = tmp_path / "scene.toml"
    p.write_text(scene_text(chars, size=(24, 24, 12), options={"spell_names": "srd"}) + tables("script", script))
    capsys.readouterr()
    rc = main(["run", str(p), "--json"])
    cap = capsys.readouterr()
    if ok:
        assert rc == 0, cap.err
    return rc, [json.loads(ln) for ln in cap.out.splitlines() if ln.startswith("{")], cap.err


def finds(evs, type_, **fields):
    return [e for e in evs if e.get("type") == type_ and all(e.get(k) == v for k, v in fields.items())]


def archer(i, at, **kw):
    return {"id": i, "kind": "archer", "side": "blue", "at": list(at), "max_hp": 300} | kw


def trait(cid, name):
    c = bestiary()[cid]
    return c, next(f for f in c["traits"] if f["name"] == name)


# -- the parse ----------------------------------------------------------------------------------------------------
def test_the_traits_read_as_written():
    c, f = trait("lich", "Spellcasting")
    b = book(c, f)
    assert (b["ability"], b["dc"], b["attack"], b["level"]) == ("int", 20, 12, 18)
    assert b["slots"] == {"1": 4, "2": 3, "3": 3, "4": 3, "5": 3, "6": 1, "7": 1, "8": 1, "9": 1}
    assert "fireball" in b["spells"] and "power-word-kill" in b["spells"] and not b["innate"]
    c, f = trait("planetar", "Innate Spellcasting")
    b = book(c, f)
    assert b["dc"] == 20 and b["attack"] is None
    assert b["innate"] == {"detect-evil-and-good": 0, "invisibility": 0, "blade-barrier": 3, "dispel-evil-and-good": 3,
                           "flame-strike": 3, "raise-dead": 3, "commune": 1, "control-weather": 1, "insect-plague": 1}
    c, f = trait("lamia", "Innate Spellcasting")          # the lamia's list runs on one line
    assert book(c, f)["innate"]["geas"] == 1 and book(c, f)["innate"]["major-image"] == 0
    c, f = trait("dust-mephit", "Innate Spellcasting")    # "The mephit can innately cast sleep" (the SRD's 1/Day)
    assert book(c, f)["innate"] == {"sleep": 1}
    t = character(bestiary()["archmage"])                 # "can cast disguise self and invisibility at will"
    assert "fire-bolt" in t["spells"] and "light" not in t["spells"] and t["spell_slots"]["9"] == 1


def test_feature_status_names_what_is_left_out():
    c, f = trait("lich", "Spellcasting")
    m, why = feature_status(c, "traits", f)
    assert not m and "power-word-stun" not in why.split("fight spells")[1].split(";")[0]
    assert "dominate-monster" in why and "played as SRD-50" in why
    c, f = trait("pit-fiend", "Innate Spellcasting")       # fireball, hold monster, wall of fire: all castable
    m, why = feature_status(c, "traits", f)
    assert m and "detect-magic" in why
    c, f = trait("deva", "Innate Spellcasting")            # detect evil and good, commune, raise dead
    assert feature_status(c, "traits", f)[0] is False
    for sid, played in (("androsphinx", True), ("gynosphinx", False)):     # SRD-52: flame strike / no damage spell
        c = bestiary()[sid]
        f = next(f for f in c["legendary_actions"] if f["name"].startswith("Cast a Spell"))
        assert feature_status(c, "legendary_actions", f)[0] is played, sid


# -- SRD-50: the DC, the attack bonus and the slots as written ---------------------------------------------------
def test_srd50_spellcasting_dc_attack_and_slots_as_written(tmp_path, capsys):
    """The mage: "spell save DC 14, +6 to hit with spell attacks", "3rd level (3 slots): ... fireball"; a scene's
    ``srd_spellcasting`` overriding the written numbers is what the cast uses."""
    mage = {"id": "m", "srd": "mage", "side": "red", "at": [2, 2, 0]}
    _, ev, _ = run(tmp_path, capsys, [mage, archer("a", (12, 2, 0))], [
        {"actor": "m", "action": "cast", "spell": "fireball", "at": [12, 2, 0], "rolls": {"damage": 2, "save": 5}},
        {"actor": "m", "action": "end_turn"}, {"actor": "a", "action": "end_turn"},
        {"actor": "m", "action": "cast", "spell": "fire-bolt", "target": "a", "rolls": {"attack": 5, "damage": 3}}])
    assert finds(ev, "save", who="a")[0]["dc"] == 14
    assert finds(ev, "attack", who="m")[0]["total"] == 5 + 6
    assert finds(ev, "state")[-1]["characters"]["m"]["data"]["spell_slots"]["3"] == 2
    mage["srd_spellcasting"] = {"dc": 17, "attack": 9}
    _, ev, _ = run(tmp_path, capsys, [mage, archer("a", (12, 2, 0))], [
        {"actor": "m", "action": "cast", "spell": "fireball", "at": [12, 2, 0], "rolls": {"damage": 2, "save": 5}}])
    assert finds(ev, "save", who="a")[0]["dc"] == 17


def test_srd50_a_spell_off_its_list_is_refused(tmp_path, capsys):
    rc, ev, err = run(tmp_path, capsys, [{"id": "m", "srd": "mage", "side": "red", "at": [2, 2, 0]},
                                         archer("a", (12, 2, 0))],
                      [{"actor": "m", "action": "cast", "spell": "lightning-bolt", "at": [12, 2, 0]}], ok=False)
    assert rc != 0 and "does not know lightning-bolt" in err and "DND-21" in err


def test_srd50_the_caster_policy_casts_the_creatures_spells():
    """The lich among four archers: its list is in the legal actions and the caster policy casts one of its leveled
    spells (its best expected damage: disintegrate's 10d6 + 40 or an area), not a cantrip or a claw."""
    s = make([{"id": "l", "srd": "lich", "side": "r", "at": [2, 2, 0]},
              *[archer(f"a{i}", (12 + i % 2, 2 + i // 2, 0)) for i in range(4)]], size=(24, 24, 12),
             options={"spell_names": "srd"})
    legal = list(s.ruleset.legal_actions(s, s.state.actors["l"]))
    assert any(x.get("action") == "cast" and x.get("spell") == "fireball" for x in legal)
    act = resolve("engine.sim.policies:caster")(s, s.state.actors["l"], random.Random(1))
    assert act["action"] == "cast" and act["spell"] in s.state.actors["l"].data["spells"], act
    assert act["spell"] != "ray-of-frost"


# -- SRD-51: innate spells, at will and N/day -----------------------------------------------------------------
def test_srd51_innate_uses_per_day_and_at_will(tmp_path, capsys):
    """The pit fiend: "At will: detect magic, fireball / 3/day each: hold monster, wall of fire" -- fireball takes no
    slot, a fourth hold monster in a day is refused citing SRD-51."""
    pf = {"id": "p", "srd": "pit-fiend", "side": "red", "at": [2, 2, 0]}
    turn = [{"actor": "p", "action": "end_turn"}, {"actor": "a", "action": "end_turn", "rolls": {"save": 20}}]
    hold = {"actor": "p", "action": "cast", "spell": "hold-monster", "target": "a", "rolls": {"save": 20}}
    _, ev, _ = run(tmp_path, capsys, [pf, archer("a", (12, 2, 0))], [
        {"actor": "p", "action": "cast", "spell": "fireball", "at": [12, 2, 0], "rolls": {"damage": 2, "save": 5}},
        *turn, hold, *turn, hold, *turn, hold, *turn])
    uses = finds(ev, "innate_spell", who="p")
    assert [(e["spell"], e["per_day"], e.get("left")) for e in uses] == [
        ("fireball", 0, None), ("hold-monster", 3, 2), ("hold-monster", 3, 1), ("hold-monster", 3, 0)]
    assert all(e["rule"] == "SRD-51" for e in uses)
    assert finds(ev, "save", who="a")[0]["dc"] == 21
    rc, ev, err = run(tmp_path, capsys, [pf, archer("a", (12, 2, 0))],
                      [hold, *turn, hold, *turn, hold, *turn, hold], ok=False)
    assert rc != 0 and "3/day already" in err and "SRD-51" in err


def test_srd51_an_innate_spell_takes_no_slot(tmp_path, capsys):
    rc, ev, err = run(tmp_path, capsys, [{"id": "p", "srd": "pit-fiend", "side": "red", "at": [2, 2, 0]},
                                         archer("a", (12, 2, 0))],
                      [{"actor": "p", "action": "cast", "spell": "fireball", "at": [12, 2, 0], "slot": 5}], ok=False)
    assert rc != 0 and "innate" in err and "SRD-51" in err


# -- SRD-52: the legendary Cast a Spell -----------------------------------------------------------------------
def test_srd52_legendary_cast_a_spell_uses_a_slot(tmp_path, capsys):
    """The androsphinx: "Cast a Spell (Costs 3 Actions). The sphinx casts a spell from its list of prepared spells,
    using a spell slot as normal." -- at the end of an archer's turn, out of its claws' reach, it casts flame strike
    (its 5th-level slots: 2 -> 1) on the archers."""
    sx = {"id": "s", "srd": "androsphinx", "side": "red", "at": [2, 2, 0]}
    _, ev, _ = run(tmp_path, capsys, [archer("a", (9, 9, 0)), archer("b", (10, 9, 0)), sx], [
        {"actor": "a", "action": "end_turn", "rolls": {"damage": 3, "save": [2, 2]}}])
    leg = finds(ev, "legendary_action", who="s")
    assert leg and leg[0]["option"] == "Cast a Spell" and leg[0]["cost"] == 3 and leg[0]["rule"] == "SRD-52"
    cast = finds(ev, "cast", who="s")[0]
    assert cast["spell"] == "flame-strike" and sorted(cast["targets"]) == ["a", "b"] and cast["slot"] == 5
    assert finds(ev, "state")[-1]["characters"]["s"]["data"]["spell_slots"]["5"] == 1
    assert finds(ev, "save", who="a")[0]["dc"] == 18


# -- SRD-53: the spellcaster level ----------------------------------------------------------------------------
def test_srd53_cantrips_scale_by_the_spellcaster_level(tmp_path, capsys):
    """The archmage is "an 18th-level spellcaster" (CR 12): its fire bolt is 4d10, not the 3d10 of level 12."""
    _, ev, _ = run(tmp_path, capsys, [{"id": "m", "srd": "archmage", "side": "red", "at": [2, 2, 0]},
                                      archer("a", (8, 2, 0))],
                   [{"actor": "m", "action": "cast", "spell": "fire-bolt", "target": "a",
                     "rolls": {"attack": 15, "damage": 1}}])
    assert [e["die"] for e in finds(ev, "roll", who="m", name="damage")] == ["d10"] * 4


def test_bad_srd_spellcasting_keys_are_one_line(tmp_path, capsys):
    for bad, words in (({"dc": "high"}, "characters[0].srd_spellcasting"),
                       ({"innate": {"fireball": 0}}, "characters[0].srd_spellcasting.innate.fireball")):
        rc, _, err = run(tmp_path, capsys, [{"id": "m", "kind": "mage", "side": "red", "at": [2, 2, 0],
                                             "spells": ["fire-bolt"], "srd_spellcasting": bad},
                                            archer("a", (12, 2, 0))], [], ok=False)
        assert rc == 2 and words in err and len(err.strip().splitlines()) == 1, err
