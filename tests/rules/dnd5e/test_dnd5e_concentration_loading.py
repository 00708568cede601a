"""Issue 24's missing mechanics: concentration (DND-21 with War Caster DND-F14 and Mage Slayer DND-F40), loading
(DND-F28) and where a bonus came from. Each played through ``aerie run`` (``engine.cli.main``) on a scene in
scenes/ or one written here, with forced dice; the listing, the previews, the state and the log read from sessions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main
from rules_helpers import find, make, scene_text, step, tables

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[3]


def run_scene(tmp_path, chars, script, expects, capsys, **kw) -> tuple[int, list[dict]]:
    """The scene through ``aerie run`` (exit status), then again with ``--json`` (the events)."""
    p = tmp_path / "scene.toml"
    p.write_text(scene_text(chars, **kw) + tables("script", script) + tables("expect", expects))
    rc = main(["run", str(p)])
    out = capsys.readouterr()
    assert rc == 0, out.err
    main(["run", str(p), "--json"])
    return rc, [json.loads(ln) for ln in capsys.readouterr().out.strip().splitlines()]


MAGE = {"id": "mira", "kind": "mage", "side": "r", "at": [2, 5, 0], "spells": ["hold_person", "cause_fear", "fire_bolt"]}
KNIGHT = {"id": "k", "kind": "knight", "side": "b", "at": [8, 5, 0]}


# -- concentration (DND-21) ------------------------------------------------------------------------------------------
def test_dnd21_concentration_scene_broken_by_damage(capsys):
    """scenes/dnd_concentration.toml: hold person held; an arrow's 11 damage, Con save DC 10 rolled 4: it ends."""
    assert main(["run", str(ROOT / "scenes" / "dnd_concentration.toml")]) == 0, capsys.readouterr().err


def test_dnd21_concentration_dc_is_half_the_damage_above_20(tmp_path, capsys):
    script = [{"actor": "mira", "action": "cast", "spell": "hold_person", "target": "k", "rolls": {"save": 2}},
              {"actor": "gm", "action": "damage", "target": "mira", "amount": 31, "rolls": {"save": 15}}]
    expects = [{"after": 2, "event": {"type": "save", "who": "mira", "ability": "con", "dc": 15, "roll": 15,
                                      "success": True, "concentration": "hold_person"}},
               {"after": 2, "character": "k", "has_conditions": ["paralyzed"]},
               {"after": 2, "no_events": ["concentration_ends"]}]
    run_scene(tmp_path, [MAGE, KNIGHT], script, expects, capsys)


def test_dnd21_one_concentration_at_a_time(tmp_path, capsys):
    """Casting a second concentration spell ends the first: its paralysis goes, the new fear stays."""
    script = [{"actor": "mira", "action": "cast", "spell": "hold_person", "target": "k", "rolls": {"save": 2}},
              {"actor": "mira", "action": "end_turn", "rolls": {"save": 2}},
              {"actor": "mira", "action": "cast", "spell": "cause_fear", "target": "k", "rolls": {"save": 2}}]
    expects = [{"after": 3, "event": [{"type": "concentration_ends", "who": "mira", "spell": "hold_person"},
                                      {"type": "condition", "who": "k", "condition": "paralyzed", "added": False},
                                      {"type": "concentration", "who": "mira", "spell": "cause_fear"}]},
               {"after": 3, "character": "k", "conditions": ["frightened"]}]
    _rc, events = run_scene(tmp_path, [MAGE, KNIGHT], script, expects, capsys)
    assert events[-1]["characters"]["mira"]["concentration"] == {"spell": "cause_fear", "targets": ["k"]}


@pytest.mark.parametrize("how", ["stunned", "dies"])
def test_dnd21_concentration_ends_when_incapacitated_or_dead(tmp_path, capsys, how):
    gm = ({"actor": "gm", "action": "condition", "target": "mira", "add": "stunned"} if how == "stunned" else
          {"actor": "gm", "action": "damage", "target": "mira", "amount": 200})
    script = [{"actor": "mira", "action": "cast", "spell": "hold_person", "target": "k", "rolls": {"save": 2}}, gm]
    expects = [{"after": 2, "event": {"type": "concentration_ends", "who": "mira", "spell": "hold_person"}},
               {"after": 2, "character": "k", "lacks_conditions": ["paralyzed"]},
               {"after": 2, "no_event": {"type": "save", "who": "mira"}}]
    run_scene(tmp_path, [MAGE, KNIGHT], script, expects, capsys)


def test_dnd21_concentration_not_for_other_spells_and_no_save_without_it(tmp_path, capsys):
    script = [{"actor": "mira", "action": "cast", "spell": "fire_bolt", "target": "k", "rolls": {"attack": 2}},
              {"actor": "gm", "action": "damage", "target": "mira", "amount": 5}]
    expects = [{"after": 1, "no_events": ["concentration"]}, {"after": 2, "no_events": ["save"]}]
    run_scene(tmp_path, [MAGE, KNIGHT], script, expects, capsys)


def test_dnd_f14_war_caster_advantage_on_the_concentration_save(tmp_path, capsys):
    mage = {**MAGE, "feats": ["war_caster"]}
    script = [{"actor": "mira", "action": "cast", "spell": "hold_person", "target": "k", "rolls": {"save": 2}},
              {"actor": "gm", "action": "damage", "target": "mira", "amount": 8, "rolls": {"save": [3, 12]}}]
    expects = [{"after": 2, "event": {"type": "save", "who": "mira", "dc": 10, "roll": 12, "success": True,
                                      "advantage": ["War Caster: advantage on the concentration save (DND-F14)"],
                                      "feats": ["war_caster"]}},
               {"after": 2, "character": "k", "has_conditions": ["paralyzed"]}]
    run_scene(tmp_path, [mage, KNIGHT], script, expects, capsys)


def test_dnd_f40_mage_slayer_damage_gives_disadvantage_on_the_concentration_save(tmp_path, capsys):
    """The Mage Slayer beside the caster attacks as she casts (its reaction); its hit makes her concentration save
    with disadvantage: 14 and 6, the 6 kept, against DC 10: the hold person ends before it takes hold."""
    slayer = {"id": "s", "kind": "knight", "side": "b", "at": [3, 5, 0], "feats": ["mage_slayer"]}
    script = [{"actor": "mira", "action": "cast", "spell": "hold_person", "target": "k",
               "rolls": {"attack": 15, "damage": 4, "save": [14, 6]}}]
    expects = [{"after": 1, "event": [
        {"type": "reaction", "who": "s", "feat": "mage_slayer"},
        {"type": "save", "who": "mira", "ability": "con", "dc": 10, "roll": 6, "success": False,
         "disadvantage": ["Mage Slayer: s's damage gives disadvantage on the concentration save (DND-F40)"],
         "feats": ["mage_slayer"]},
        {"type": "concentration_ends", "who": "mira", "spell": "hold_person"}]},
        {"after": 1, "character": "k", "lacks_conditions": ["paralyzed"]},
        {"after": 1, "no_event": {"type": "save", "who": "k"}}]
    run_scene(tmp_path, [MAGE, slayer, KNIGHT], script, expects, capsys)


def test_dnd21_concentration_in_the_listing_previews_panel_and_log():
    from engine.app.logtext import log_entries
    s = make([MAGE, KNIGHT, {"id": "a", "kind": "archer", "side": "b", "at": [11, 5, 0]}])
    step(s, "mira", "cast", spell="hold_person", target="k", rolls={"save": 2})
    step(s, "mira", "end_turn", rolls={"save": 2})
    pv = s.ruleset.preview(s, {"actor": "a", "action": "attack", "target": "mira", "weapon": "longbow"})
    assert any("concentrates on hold person" in n and "DC 10 or half the damage" in n for n in pv["notes"])
    rows = s.ruleset.hud_rows(s, s.state.actors["mira"])
    assert "Concentrating on hold person" in rows
    step(s, "a", "end_turn")
    legal = s.ruleset.legal_actions(s, s.state.actors["mira"])
    cast = {"actor": "mira", "action": "cast", "spell": "cause_fear", "target": "k"}
    assert cast in list(legal)                    # a second concentration spell stays legal: it ends the first
    pv = s.ruleset.preview(s, cast)
    assert pv["concentration"] == "concentration: ends the concentration on hold person; held until broken (DND-21)"
    lines = [t for t, *_ in log_entries(s)]
    assert any("concentrates on hold person" in ln for ln in lines)


# -- loading (DND-F28) ---------------------------------------------------------------------------------------------
def test_dnd_f28_loading_scene_once_per_action_crossbow_expert_ignores_it(capsys):
    """scenes/dnd_loading.toml: the knight's second bolt refused (DND-F28); Crossbow Expert fires twice."""
    assert main(["run", str(ROOT / "scenes" / "dnd_loading.toml")]) == 0, capsys.readouterr().err


def test_dnd_f28_loading_not_lifted_without_proficiency(tmp_path, capsys):
    quill = {"id": "q", "kind": "scout", "side": "r", "at": [2, 5, 0], "weapons": ["light_crossbow", "shortsword"],
             "attacks": 2, "feats": ["crossbow_expert"], "weapon_proficiencies": ["simple"]}
    heavy = {**quill, "id": "h", "at": [2, 7, 0], "weapons": ["heavy_crossbow"], "initiative": 29}
    foe = {"id": "o", "kind": "knight", "side": "b", "at": [11, 5, 0], "max_hp": 90}
    script = [{"actor": "q", "action": "attack", "target": "o", "weapon": "light_crossbow", "rolls": {"attack": 15}},
              {"actor": "q", "action": "attack", "target": "o", "weapon": "light_crossbow", "rolls": {"attack": 15}},
              {"actor": "q", "action": "end_turn"},
              {"actor": "h", "action": "attack", "target": "o", "rolls": {"attack": 15}},
              {"actor": "h", "action": "attack", "target": "o", "illegal": "DND-F28"}]
    expects = [{"after": 2, "events": ["attack"]}, {"after": 5, "event": {"type": "illegal", "rule": "DND-F28"}}]
    run_scene(tmp_path, [quill, heavy, foe], script, expects, capsys)


def test_dnd_f28_loading_in_the_listing_and_the_preview():
    bran = {"id": "b", "kind": "knight", "side": "r", "at": [2, 5, 0]}
    foe = {"id": "o", "kind": "knight", "side": "b", "at": [11, 5, 0], "max_hp": 90}
    s = make([bran, foe])
    shot = {"actor": "b", "action": "attack", "target": "o", "weapon": "heavy_crossbow"}
    assert shot in list(s.ruleset.legal_actions(s, s.state.actors["b"]))
    pv = s.ruleset.preview(s, shot)
    assert any(n.startswith("loading: the heavy crossbow fires once this action") for n in pv["notes"])
    step(s, "b", "attack", target="o", weapon="heavy_crossbow", rolls={"attack": 2})
    assert s.state.turn["attacks_left"] == 1
    assert shot not in list(s.ruleset.legal_actions(s, s.state.actors["b"]))
    pv = s.ruleset.preview(s, shot)
    assert pv["legal"] is False and pv["rule"] == "DND-F28"
    assert find(s.events, "attack", who="b", weapon="heavy_crossbow")


# -- where a bonus came from (DND-16, DND-32, DND-F20; a feat named only when it changed something) ---------------
def test_dnd16_attack_event_lists_each_modifier_with_its_rule(tmp_path, capsys):
    archer = {"id": "a", "kind": "archer", "side": "r", "at": [2, 2, 0]}
    guard = {"id": "g", "kind": "guard", "side": "b", "at": [5, 8, 0]}
    script = [{"actor": "a", "action": "attack", "target": "g", "weapon": "longbow", "rolls": {"attack": 9}}]
    expects = [{"after": 1, "event": {"type": "attack", "who": "a", "bonus": 5, "sources": [
        {"source": "Dex", "value": 3, "rule": "DND-16"}, {"source": "proficiency", "value": 2, "rule": "DND-16"},
        {"source": "half cover", "value": 2, "rule": "DND-32", "on": "AC"}]}}]
    _rc, events = run_scene(tmp_path, [archer, guard], script, expects, capsys, fill=[("stone", (0, 6, 0), (11, 6, 0))])
    ev = find(events, "attack", who="a")
    assert sum(s["value"] for s in ev["sources"] if not s.get("on")) == ev["bonus"]
    assert "feats" not in ev                       # no feat took part
    s = make([archer, guard], fill=[("stone", (0, 6, 0), (11, 6, 0))])
    step(s, "a", "attack", target="g", weapon="longbow", rolls={"attack": 9})
    from engine.rules.runner import describe
    assert any("9 + 5 (Dex +3, proficiency +2) = 14 vs AC 16 + half cover 2" in (describe(s, e) or "") for e in s.events)


def test_dnd32_save_event_names_the_cover_bonus(tmp_path, capsys):
    mage = {"id": "m", "kind": "mage", "side": "r", "at": [2, 2, 0]}
    guard = {"id": "g", "kind": "guard", "side": "b", "at": [5, 8, 0]}
    script = [{"actor": "m", "action": "cast", "spell": "fireball", "target": "g", "rolls": {"save": 10, "damage": 3}}]
    expects = [{"after": 1, "event": {"type": "save", "who": "g", "ability": "dex", "total": 13, "sources": [
        {"source": "Dex", "value": 1, "rule": "DND-21"}, {"source": "half cover", "value": 2, "rule": "DND-32"}]}}]
    # half cover on a Dex save is the rulebook's option (DND-32 l. 428 gives half cover +2 AC only)
    run_scene(tmp_path, [mage, guard], script, expects, capsys, fill=[("stone", (0, 6, 0), (11, 6, 0))],
              options={"half_cover_dex_saves": True})


def test_dnd_f20_shield_master_bonus_named_on_the_save(tmp_path, capsys):
    priest = {"id": "p", "kind": "priest", "side": "r", "at": [2, 2, 0]}
    knight = {"id": "k", "kind": "knight", "side": "b", "at": [6, 2, 0], "feats": ["shield_master"]}
    script = [{"actor": "p", "action": "cast", "spell": "sacred_flame", "target": "k", "rolls": {"save": 10, "damage": 3}}]
    expects = [{"after": 1, "event": {"type": "save", "who": "k", "ability": "dex", "total": 12, "feats": ["shield_master"],
                                      "sources": [{"source": "Dex", "value": 0, "rule": "DND-21"},
                                                  {"source": "Shield Master: the shield", "value": 2, "rule": "DND-F20"}]}}]
    run_scene(tmp_path, [priest, knight], script, expects, capsys)


def test_dnd_f14_f40_feats_not_named_when_advantage_and_disadvantage_cancel(tmp_path, capsys):
    """War Caster's advantage and Mage Slayer's disadvantage on one concentration save cancel: one d20, and the
    save names neither feat (each is still listed as a reason); alone, each is named (the tests above)."""
    mage = {**MAGE, "feats": ["war_caster"]}
    slayer = {"id": "s", "kind": "knight", "side": "b", "at": [3, 5, 0], "feats": ["mage_slayer"]}
    script = [{"actor": "mira", "action": "cast", "spell": "hold_person", "target": "k",
               "rolls": {"attack": 15, "damage": 4, "save": [12, 2]}}]
    expects = [{"after": 1, "event": {"type": "save", "who": "mira", "ability": "con", "roll": 12, "success": True}},
               {"after": 1, "character": "k", "has_conditions": ["paralyzed"]}]
    _rc, events = run_scene(tmp_path, [mage, slayer, KNIGHT], script, expects, capsys)
    ev = find(events, "save", who="mira")
    assert "feats" not in ev and len(ev["advantage"]) == 1 and len(ev["disadvantage"]) == 1
    assert len([e for e in events if e["type"] == "roll" and e["name"] == "save" and e["who"] == "mira"]) == 1


# -- a readied spell (DND-20, l. 363: one action's casting time, held by concentration) ------------------------------
ARCHER = {"id": "a", "kind": "archer", "side": "b", "at": [11, 5, 0]}


def test_dnd20_readied_spell_held_by_concentration_and_released_on_the_trigger(tmp_path, capsys):
    script = [{"actor": "mira", "action": "ready", "spell": "fire_bolt", "target": "k"},
              {"actor": "mira", "action": "end_turn"},
              {"actor": "k", "action": "move", "to": [7, 5, 0], "rolls": {"attack": 15, "damage": 6}}]
    expects = [{"after": 1, "event": [{"type": "ready", "who": "mira", "spell": "fire_bolt", "rule": "DND-20"},
                                      {"type": "concentration", "who": "mira", "spell": "fire_bolt", "readied": True}]},
               {"after": 3, "event": [{"type": "readied_action", "who": "mira", "target": "k", "spell": "fire_bolt"},
                                      {"type": "attack", "who": "mira", "target": "k", "weapon": "fire_bolt", "hit": True},
                                      {"type": "concentration_ends", "who": "mira", "spell": "fire_bolt",
                                       "reason": "releases the readied spell"}]},
               {"after": 3, "character": "k", "hp": 40}]   # fire bolt at level 5: 2d10, both 6
    _rc, events = run_scene(tmp_path, [MAGE, KNIGHT], script, expects, capsys)
    assert events[-1]["characters"]["mira"]["concentration"] is None


def test_dnd20_readied_spell_lost_when_its_concentration_breaks(tmp_path, capsys):
    """The arrow breaks the concentration that holds the readied hold person: the knight's move triggers nothing."""
    script = [{"actor": "mira", "action": "ready", "spell": "hold_person", "target": "k"},
              {"actor": "mira", "action": "end_turn"},
              {"actor": "a", "action": "attack", "target": "mira", "rolls": {"attack": 15, "damage": 8, "save": 3}},
              {"actor": "a", "action": "end_turn"},
              {"actor": "k", "action": "move", "to": [7, 5, 0]}]
    expects = [{"after": 3, "event": {"type": "concentration_ends", "who": "mira", "spell": "hold_person", "readied": True}},
               {"after": 5, "no_events": ["readied_action", "cast"]},
               {"after": 5, "character": "k", "lacks_conditions": ["paralyzed"]}]
    run_scene(tmp_path, [MAGE, {**ARCHER, "initiative": 29}, KNIGHT], script, expects, capsys)


def test_dnd20_readied_spell_lapses_at_the_casters_next_turn_and_needs_one_action(tmp_path, capsys):
    mage = {**MAGE, "spells": ["hold_person", "healing_word"]}
    script = [{"actor": "mira", "action": "ready", "spell": "healing_word", "illegal": "DND-20"},
              {"actor": "mira", "action": "ready", "spell": "hold_person", "target": "k"},
              {"actor": "mira", "action": "end_turn"},
              {"actor": "k", "action": "end_turn"}]
    expects = [{"after": 4, "event": {"type": "concentration_ends", "who": "mira", "spell": "hold_person",
                                      "reason": "the trigger did not come: the readied spell is lost"}}]
    run_scene(tmp_path, [mage, KNIGHT], script, expects, capsys)


def test_dnd20_readied_spell_listed_and_previewed():
    s = make([MAGE, KNIGHT])
    legal = list(s.ruleset.legal_actions(s, s.state.actors["mira"]))
    ready = {"actor": "mira", "action": "ready", "spell": "hold_person"}
    assert ready in legal and {"actor": "mira", "action": "ready", "spell": "fire_bolt"} in legal
    pv = s.ruleset.preview(s, ready)
    assert pv["concentration"] == "concentration: held until the trigger (DND-20)"
