"""Issue 39's last fight spells of levels 0-5 made castable: Dispel Evil and Good (SPL-15, SPL-16), Magic Circle
(SPL-17), Polymorph (SPL-19, SPL-20), each through ``aerie run --json`` with forced dice (creature types from the SRD
bestiary: ``srd = "bearded-devil"`` is a fiend)."""

from __future__ import annotations

import json

import pytest

from engine.cli import main
from engine.rules.dnd5e import conditions
from rules_helpers import _toml, make, scene_text, step

pytestmark = pytest.mark.unit


def run(tmp_path, capsys, chars, script, ok=True):
    extra = "".join("[[script]]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in st.items()) for st in script)
    p = tmp_path / "scene.toml"
    p.write_text(scene_text(chars, size=(16, 16, 12), options={"spell_names": "srd"}, extra=extra))
    capsys.readouterr()
    rc = main(["run", str(p), "--json"])
    cap = capsys.readouterr()
    if ok:
        assert rc == 0, cap.err
    return rc, [json.loads(ln) for ln in cap.out.splitlines() if ln.startswith("{")], cap.err


def finds(evs, type_, **fields):
    return [e for e in evs if e.get("type") == type_ and all(e.get(k) == v for k, v in fields.items())]


def cleric(spells, **kw):
    return {"id": "c", "kind": "mage", "side": "r", "at": [5, 5, 0], "spells": spells, "level": 9} | kw


DEVIL = {"id": "d", "srd": "bearded-devil", "side": "b", "at": [6, 5, 0]}
END_C = {"actor": "c", "action": "end_turn"}
END_D = {"actor": "d", "action": "end_turn"}


# -- SPL-15 / SPL-16: Dispel Evil and Good -------------------------------------------------------------------------
def test_spl15_a_fiend_attacks_the_warded_caster_with_disadvantage(tmp_path, capsys):
    beard = {"actor": "d", "action": "attack", "target": "c", "weapon": "Beard", "rolls": {"attack": [15, 3]}}
    _, ev, _ = run(tmp_path, capsys, [cleric(["dispel-evil-and-good"]), DEVIL], [
        {"actor": "c", "action": "cast", "spell": "dispel-evil-and-good"}, END_C, beard])
    assert finds(ev, "cast", spell="dispel-evil-and-good")[0]["slot"] == 5
    att = finds(ev, "attack", who="d")[0]
    assert any("Dispel Evil and Good" in str(x) for x in att["disadvantage"]) and att["roll"] == 3
    _, ev, _ = run(tmp_path, capsys, [cleric(["dispel-evil-and-good"]), DEVIL], [END_C, beard])
    assert finds(ev, "attack", who="d")[0]["roll"] == 15          # no ward: the first die


def test_spl16_dismissal_sends_the_fiend_home_and_ends_the_spell(tmp_path, capsys):
    _, ev, _ = run(tmp_path, capsys, [cleric(["dispel-evil-and-good"]), DEVIL,
                                      {"id": "g", "kind": "guard", "side": "b", "at": [12, 12, 0]}], [
        {"actor": "c", "action": "cast", "spell": "dispel-evil-and-good"}, END_C, END_D,
        {"actor": "g", "action": "end_turn"},
        {"actor": "c", "action": "cast", "spell": "dispel-evil-and-good", "option": "dismissal", "target": "d",
         "rolls": {"attack": 15, "save": 2}}])
    assert finds(ev, "attack", who="c")[0]["hit"]
    assert finds(ev, "save", who="d")[0]["rule"] == "SPL-16"
    assert finds(ev, "dismissed", who="d")[0]["by"] == "c"
    assert finds(ev, "concentration_ends", who="c")[0]["rule"] == "SPL-16"
    assert finds(ev, "state")[-1]["characters"]["d"]["dead"]
    assert finds(ev, "state")[-1]["characters"]["c"]["data"]["spell_slots"]["5"] == 0    # one casting, one slot


def test_spl16_dismissal_refused_without_the_spell_or_at_a_human(tmp_path, capsys):
    rc, _, err = run(tmp_path, capsys, [cleric(["dispel-evil-and-good"]), DEVIL], [
        {"actor": "c", "action": "cast", "spell": "dispel-evil-and-good", "option": "dismissal", "target": "d"}],
        ok=False)
    assert rc != 0 and "SPL-16" in err and "holds none" in err
    s = make([cleric(["dispel-evil-and-good"]), {"id": "g", "kind": "guard", "side": "b", "at": [6, 5, 0]}],
             options={"spell_names": "srd"})
    step(s, "c", "cast", spell="dispel-evil-and-good")
    step(s, "c", "end_turn")
    step(s, "g", "end_turn")
    with pytest.raises(Exception) as e:
        step(s, "c", "cast", spell="dispel-evil-and-good", option="dismissal", target="g")
    assert "SPL-16" in str(getattr(e.value, "rule", "")) + str(e.value)


def test_spl16_break_enchantment_frees_a_friend_charmed_by_a_fiend():
    s = make([cleric(["dispel-evil-and-good"]), {"id": "k", "kind": "knight", "side": "r", "at": [5, 6, 0]},
              {**DEVIL, "at": [10, 10, 0]}], options={"spell_names": "srd"})
    k = s.state.actors["k"]
    conditions.add_condition(s.ruleset, s, k, "charmed", "DND-40", source="d")
    step(s, "c", "cast", spell="dispel-evil-and-good")
    step(s, "c", "end_turn")
    step(s, "k", "end_turn")
    step(s, "d", "end_turn")
    log = step(s, "c", "cast", spell="dispel-evil-and-good", option="break_enchantment", target="k")
    assert any(e["type"] == "enchantment_broken" and e["conditions"] == ["charmed"] for e in log)
    assert "charmed" not in k.conditions and s.state.actors["c"].data.get("concentration") is None


# -- SPL-17: Magic Circle ----------------------------------------------------------------------------------------
def test_spl17_magic_circle_after_its_minute_wards_those_within(tmp_path, capsys):
    """One minute of casting (SPL-12: ten rounds), then the fiend attacking the caster inside the cylinder has
    disadvantage; a guard (no type) does not; a charm by the fiend on a creature inside does not take hold."""
    rounds = [{"actor": "c", "action": "cast", "spell": "magic-circle", "at": [5, 5, 0], "option": "fiend"},
              END_C, END_D] + [END_C, END_D] * 10
    beard = {"actor": "d", "action": "attack", "target": "c", "weapon": "Beard", "rolls": {"attack": [15, 3]}}
    _, ev, _ = run(tmp_path, capsys, [cleric(["magic-circle"]), DEVIL], rounds + [END_C, beard])
    cast = finds(ev, "cast", spell="magic-circle")
    assert cast and cast[0]["option"] == "fiend" and cast[0]["area"]["shape"] == "cylinder"
    att = finds(ev, "attack", who="d")[-1]
    assert any("Magic Circle" in str(x) for x in att["disadvantage"]) and att["roll"] == 3
    s = make([cleric(["magic-circle"]), DEVIL], options={"spell_names": "srd"})
    s.state.actors["c"].data["circles"] = [{"spell": "magic-circle", "types": ["fiend"],
                                            "area": {"shape": "cylinder", "size_m": 3.0, "height_m": 6.0,
                                                     "origin": cast[0]["area"]["origin"]}}]
    conditions.add_condition(s.ruleset, s, s.state.actors["c"], "frightened", "DND-45", source="d")
    assert "frightened" not in s.state.actors["c"].conditions


# -- SPL-19 / SPL-20: Polymorph ----------------------------------------------------------------------------------
def test_spl19_a_flying_eagle_made_a_frog_falls_and_reverts_at_zero(tmp_path, capsys):
    """A giant eagle flying at layer 6 fails its Wisdom save: a frog (the weakest beast that walks, CR 0, 1 HP);
    without a fly speed it falls (AIR-10..12: 25% of 1 HP is 0); the caster's fire bolt of 10 drops the frog to 0:
    it reverts to the eagle with its 26 HP and the excess 9 carries over (SPL-20), and its concentration ends."""
    eagle = {"id": "e", "srd": "giant-eagle", "side": "b", "at": [8, 5, 6], "flying": True}
    _, ev, _ = run(tmp_path, capsys, [cleric(["polymorph", "fire-bolt"]), eagle], [
        {"actor": "c", "action": "cast", "spell": "polymorph", "target": "e", "rolls": {"save": 2}}, END_C,
        {"actor": "e", "action": "end_turn"},
        {"actor": "c", "action": "cast", "spell": "fire-bolt", "target": "e", "rolls": {"attack": 18, "damage": [5, 5]}}])
    poly = finds(ev, "polymorph", who="e")
    assert poly[0]["beast"] == "frog" and poly[0]["hp"] == 1 and poly[0]["rule"] == "SPL-19"
    assert finds(ev, "fall", who="e")[0]["to"] == 0 and finds(ev, "flight_lost", who="e")[0]["because"] == "SPL-19"
    back = [p for p in poly if p.get("ended")]
    assert back and back[0]["rule"] == "SPL-20" and back[0]["hp"] == 26
    assert [(e["amount"], e["rule"]) for e in finds(ev, "damage", who="e")] == [(10, "DND-16"), (9, "SPL-20")]
    state = finds(ev, "state")[-1]["characters"]["e"]
    assert state["hp"] == 17 and state["data"].get("polymorph") is None and state["data"]["fly_speed_m"] == 24.0
    assert finds(ev, "concentration_ends", who="c")[0]["rule"] == "SPL-20"


def test_spl19_a_friend_made_a_beast_and_back_when_the_spell_ends():
    s = make([cleric(["polymorph", "fire-bolt"]), {"id": "k", "kind": "knight", "side": "r", "at": [5, 6, 0]}],
             options={"spell_names": "srd"}, size=(16, 16, 12))
    k = s.state.actors["k"]
    hp, ac = k.hp, k.data["ac"]
    step(s, "c", "cast", spell="polymorph", target="k", option="giant-eagle")
    assert k.data["polymorph"]["beast"] == "giant-eagle" and k.hp == 26 and k.can_fly and k.size == "large"
    assert k.data["spells"] == [] and any(w["name"] == "Talons" for w in k.data["weapons"])
    from engine.rules.dnd5e import concentration
    concentration.end(s.ruleset, s, s.state.actors["c"], "test", "DND-21")
    assert k.hp == hp and k.data["ac"] == ac and "polymorph" not in k.data and k.size == "medium"


def test_spl19_a_beast_above_the_targets_level_is_refused():
    s = make([cleric(["polymorph"]), {"id": "g", "kind": "guard", "side": "b", "at": [8, 5, 0]}],
             options={"spell_names": "srd"})
    with pytest.raises(Exception) as e:
        step(s, "c", "cast", spell="polymorph", target="g", option="tyrannosaurus-rex")
    assert "SPL-19" in str(getattr(e.value, "rule", "")) and "above" in str(e.value)


# -- SPL-21: the spells' events are typed -------------------------------------------------------------------------
SPELL_MODULES = ("srd_air", "srd_cast", "srd_lasting", "srd_long", "srd_marks", "srd_wards", "srd_polymorph",
                 "srd_casters")


def test_spl21_every_spell_event_is_declared(tmp_path, capsys):
    """Every event type the spell modules emit is declared, and a fight of spells (areas with slots, Fly, Misty
    Step, Web, Enlarge/Reduce, Sleep, Thunderwave's push, a long cast, Polymorph) converts event by event to its
    declared type, not ``Undeclared``."""
    import re
    from pathlib import Path

    from engine.rules.dnd5e.events import EVENTS
    from engine.rules.events import strict
    root = Path(__file__).resolve().parents[3] / "engine" / "rules" / "dnd5e"
    emitted = set()
    for m in SPELL_MODULES:
        emitted |= set(re.findall(r'"type": "([a-z_]+)"', (root / f"{m}.py").read_text()))
    emitted -= {"radiant"}                     # Dismissal's weapon table, not an event
    assert {"cast", "polymorph", "long_cast", "spell_mark", "teleport", "innate_spell"} <= emitted
    assert sorted(emitted - set(EVENTS)) == []
    chars = [cleric(["fireball", "fly", "misty-step", "web", "enlarge-reduce", "sleep", "thunderwave", "geas",
                     "polymorph"], level=17),
             {"id": "g", "kind": "guard", "side": "b", "at": [7, 5, 0]},
             {"id": "h", "kind": "guard", "side": "b", "at": [10, 10, 0]}]
    end_all = [END_C, {"actor": "g", "action": "end_turn"}, {"actor": "h", "action": "end_turn"}]
    casts = [{"spell": "fireball", "at": [10, 10, 0], "slot": 4, "rolls": {"damage": 1, "save": 20}},
             {"spell": "fly"}, {"spell": "misty-step", "at": [7, 7, 0]},
             {"spell": "thunderwave", "at": [7, 5, 0], "rolls": {"save": 1}},
             {"spell": "web", "at": [10, 10, 0], "rolls": {"save": 1}},
             {"spell": "enlarge-reduce", "target": "h", "rolls": {"save": 1}},
             {"spell": "sleep", "at": [14, 1, 0], "rolls": {"hp_pool": 1}},
             {"spell": "polymorph", "target": "g", "rolls": {"save": 1}}, {"spell": "geas", "target": "g"}]
    script = []
    for c in casts:
        script += [{"actor": "c", "action": "cast", **c}] + end_all
    _, ev, err = run(tmp_path, capsys, chars, script)
    seen = {e["type"] for e in ev}
    assert {"cast", "fly_speed", "teleport", "lasting_area", "polymorph", "long_cast"} <= seen, (seen, err)
    for e in ev:
        if e["type"] in emitted:
            strict(e, EVENTS)          # raises on an undeclared type or a key its declaration lacks
