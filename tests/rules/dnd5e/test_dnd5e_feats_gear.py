"""The feats that act on gear (engine/rules/dnd5e/gear.py): armour and its proficiencies (DND-F08, F13, F17, F19,
F33), weapon proficiencies (F18), hit dice and the short rest (F23), traps and secret doors (F05), passive scores
(F29). Forced dice keep them exact; each test fails if its feat breaks."""

from __future__ import annotations

import pytest

from engine.errors import SceneError
from engine.rules.core import Illegal
from rules_helpers import find, make, step

pytestmark = pytest.mark.unit


def finds(events, type_, **fields):
    return [e for e in events if e["type"] == type_ and all(e.get(k) == v for k, v in fields.items())]


def hero(i="f", side="r", at=(5, 5, 0), **kw):
    return {"id": i, "kind": "knight", "side": side, "at": list(at)} | kw


def guard(i="g", side="b", at=(6, 5, 0), **kw):
    return {"id": i, "kind": "guard", "side": side, "at": list(at), "max_hp": 90} | kw


def actor(ch):
    return make([ch]).state.actors[ch["id"]]


# armour as character data --------------------------------------------------------------------------------------------
def test_armour_ac_from_the_srd_table_and_the_sheet_ac_untouched_without_it():
    assert actor(hero(armor="chain_mail", shield=True)).data["ac"] == 18         # 16, no Dex, +2 shield
    assert actor(hero(armor="leather", abilities={"dex": 16})).data["ac"] == 14   # 11 + 3
    assert actor(hero(armor="breastplate", abilities={"dex": 18})).data["ac"] == 16   # 14 + Dex capped at 2
    assert actor(hero(armor={"name": "dragon_scale", "category": "medium", "ac": 15}, abilities={"dex": 18})).data["ac"] == 17
    a = actor(hero())
    assert a.data["ac"] == 18 and "armor" not in a.data                         # the knight's own AC, as before


def test_armour_keys_are_validated_naming_the_key():
    with pytest.raises(SceneError) as e:
        make([hero(armor="chainmail")])
    assert "characters[0].armor" in str(e.value) and "'chain_mail'" in str(e.value)
    for extra in ({"armor": "plate"}, {"shield": True}):
        with pytest.raises(SceneError) as e:
            make([hero(ac=12, **extra)])
        assert "characters[0].ac" in str(e.value)
    assert actor(hero(shield=True, abilities={"dex": 14})).data["ac"] == 14          # 10 + 2 + shield
    with pytest.raises(SceneError) as e:
        make([hero(armor={"name": "leather", "category": "mithral"})])
    assert "characters[0].armor.category" in str(e.value)
    with pytest.raises(SceneError) as e:
        make([hero(armor="leather", armor_proficiencies=["lite"])])
    assert "characters[0].armor_proficiencies[0]" in str(e.value) and "'light'" in str(e.value)


def test_armour_strength_requirement_slows():
    assert actor(hero(armor="plate", abilities={"str": 13})).data["speed_m"] == 6.0
    assert actor(hero(armor="plate", abilities={"str": 15})).data["speed_m"] == 9.0


def _untrained(**kw):
    return make([hero(armor="plate", abilities={"str": 16}, **kw), guard()])


def test_armour_without_proficiency_disadvantage_on_str_dex_attacks_checks_saves_and_no_spells():
    s = _untrained(armor_proficiencies=["light"])
    evs = step(s, "f", "attack", target="g", weapon="longsword", rolls={"attack": [15, 3]})
    assert find(evs, "attack")["disadvantage"] == ["the attacker wears armour it is not proficient with"]
    evs = step(s, "gm", "trap", target="f", save="str", dc=10, rolls={"save": [15, 3], "trap": [1, 1]})
    saves = finds(evs, "roll", name="save")
    assert len(saves) == 2 and "not proficient" in saves[0]["purpose"] and not find(evs, "save")["success"]
    evs = step(s, "gm", "trap", target="f", save="wis", dc=10, rolls={"save": 15, "trap": [1, 1]})
    assert len(finds(evs, "roll", name="save")) == 1                                # not Str / Dex: one die
    evs = step(s, "f", "shove", target="g", mode="prone", rolls={"check": [15, 2], "contest": 5})
    assert len(finds(evs, "roll", name="check")) == 2                               # Athletics (Str): disadvantage
    s2 = make([hero(armor="plate", abilities={"str": 16}, armor_proficiencies=[], spells=["fire_bolt"]), guard()])
    with pytest.raises(Illegal) as e:
        step(s2, "f", "cast", spell="fire_bolt", target="g")
    assert "cannot cast spells" in str(e.value)
    s3 = _untrained(armor_proficiencies=["heavy"])                                 # proficient: one die
    evs = step(s3, "f", "attack", target="g", weapon="longsword", rolls={"attack": 15})
    assert find(evs, "attack")["disadvantage"] == []


def test_dnd_f08_heavily_armored_gives_heavy_armour_proficiency_and_needs_medium():
    with pytest.raises(SceneError) as e:
        _untrained(armor_proficiencies=["light"], feats=["heavily_armored"])
    assert "characters[0].feats[0]" in str(e.value) and "medium armour" in str(e.value)
    s = _untrained(armor_proficiencies=["light", "medium"], feats=["heavily_armored"])
    assert s.state.actors["f"].data["abilities"]["str"] == 17
    evs = step(s, "f", "attack", target="g", weapon="longsword", rolls={"attack": 15})
    assert find(evs, "attack")["disadvantage"] == []


def test_dnd_f13_lightly_armored_gives_light_armour_proficiency():
    ch = hero(armor="leather", armor_proficiencies=[], abilities={"dex": 14})
    assert "not proficient" in " ".join(make([ch]).ruleset.hud_rows(make([ch]), actor(ch)))
    s = make([ch | {"feats": ["lightly_armored"]}, guard()])
    a = s.state.actors["f"]
    assert a.data["abilities"]["dex"] == 15 and a.data["armor_profs"] == ["light"]
    evs = step(s, "f", "attack", target="g", weapon="longsword", rolls={"attack": 15})
    assert find(evs, "attack")["disadvantage"] == []


def test_dnd_f33_moderately_armored_gives_medium_and_needs_light():
    with pytest.raises(SceneError):
        make([hero(armor="breastplate", armor_proficiencies=[], feats=["moderately_armored"])])
    s = make([hero(armor="breastplate", armor_proficiencies=["light"], feats=["moderately_armored"]), guard()])
    evs = step(s, "f", "attack", target="g", weapon="longsword", rolls={"attack": 15})
    assert find(evs, "attack")["disadvantage"] == [] and s.state.actors["f"].data["abilities"]["str"] == 17


def test_dnd_f19_medium_armor_master_dex_cap_3_and_no_stealth_disadvantage():
    base = hero(armor="half_plate", abilities={"dex": 16})
    assert actor(base).data["ac"] == 17                                            # 15 + 2
    assert actor(base | {"feats": ["medium_armor_master"]}).data["ac"] == 18       # 15 + 3 (Dex 16+)
    assert actor(hero(armor="half_plate", abilities={"dex": 15}, feats=["medium_armor_master"])).data["ac"] == 17
    for feats_, dice in (([], 2), (["medium_armor_master"], 1)):
        s = make([base | {"feats": feats_, "at": [5, 5, 0]}])
        step(s, "f", "hide", rolls={"check": [12, 4]})
        rolls = [e for e in s.events if e["type"] == "roll" and e["name"] == "check"]
        assert len(rolls) == dice                                                  # half plate: Stealth disadvantage
    with pytest.raises(SceneError):
        make([base | {"feats": ["medium_armor_master"], "armor_proficiencies": ["light"]}])


def test_dnd_f17_heavy_armor_master_needs_heavy_armour_when_the_sheet_gives_armour():
    for armour, amount in (("plate", 6 + 1 - 3), ("breastplate", 6 + 1), (None, 6 + 1 - 3)):
        k = hero("k", at=(5, 5, 0), feats=["heavy_armor_master"], abilities={"str": 16})
        if armour:
            k["armor"] = armour
        s = make([guard("g", at=(5, 4, 0)), k])
        evs = step(s, "g", "attack", target="k", rolls={"attack": 19, "damage": 6})
        assert find(evs, "damage", who="k")["amount"] == amount, armour


# weapon proficiencies ------------------------------------------------------------------------------------------------
def test_weapon_proficiency_adds_the_bonus_and_dnd_f18_weapon_master_gives_four():
    s = make([hero(weapons=["longsword"], weapon_proficiencies=["simple"], abilities={"str": 16}), guard()])
    pv = s.preview({"actor": "f", "action": "attack", "target": "g"})
    assert pv["to_hit_bonus"] == 3 and "not proficient" in pv["not_proficient"]
    evs = step(s, "f", "attack", target="g", rolls={"attack": 10})
    assert find(evs, "attack")["bonus"] == 3                                       # Str only: not proficient
    wm = hero(weapons=["longsword"], weapon_proficiencies=["simple"], abilities={"str": 16}, feats=["weapon_master"],
              feat_weapons=["longsword", "rapier", "whip", "longbow"])
    s = make([wm, guard()])
    evs = step(s, "f", "attack", target="g", rolls={"attack": 10})
    assert find(evs, "attack")["bonus"] == 3 + 3                                   # Str 17 (+3) + proficiency 3
    assert s.state.actors["f"].data["feat_weapons"] == ["longsword", "rapier", "whip", "longbow"]
    assert "not_proficient" not in s.preview({"actor": "f", "action": "attack", "target": "g"})
    a = make([{k: v for k, v in wm.items() if k != "feat_weapons"}]).state.actors["f"]
    assert a.data["feat_weapons"] == ["longsword"] and "longsword" in a.data["weapon_profs"]   # default: carried
    with pytest.raises(SceneError) as e:
        make([wm | {"feat_weapons": ["longsword", "rapier", "whip"]}])
    assert "characters[0].feat_weapons" in str(e.value)
    with pytest.raises(SceneError) as e:
        make([wm | {"feat_weapons": ["longswrd", "rapier", "whip", "club"]}])
    assert "feat_weapons[0]" in str(e.value) and "'longsword'" in str(e.value)
    with pytest.raises(SceneError) as e:
        make([hero(weapon_proficiencies=["martail"])])
    assert "weapon_proficiencies[0]" in str(e.value) and "'martial'" in str(e.value)


def test_weapon_proficiency_gates_great_weapon_masters_power_attack():
    s = make([hero(weapons=["greatsword"], weapon_proficiencies=["simple"], feats=["great_weapon_master"]), guard()])
    assert not [x for x in s.legal_actions() if x.get("power_attack")]
    s = make([hero(weapons=["greatsword"], weapon_proficiencies=["martial"], feats=["great_weapon_master"]), guard()])
    assert [x for x in s.legal_actions() if x.get("power_attack")]


# DND-F23 Durable: hit dice on a short rest ---------------------------------------------------------------------------------
def _rest(feats_, con=13, options=None, **roll):
    ch = hero(abilities={"con": con}, feats=feats_, hp=10, hit_die=10)
    s = make([ch], options=options or {})
    evs = step(s, "gm", "short_rest", target="f", dice=2, rolls={"hit_die": [1, 9]})
    return s, evs


def test_dnd_f23_durable_minimum_on_hit_dice_short_rest():
    s, evs = _rest([])                                                # Con 13 (+1): 1+1, 9+1
    assert find(evs, "heal")["amount"] == 2 + 10 and s.state.actors["f"].data["hit_dice"] == 3
    s, evs = _rest(["durable"])                                       # Con 14 (+2): the 1 counts as 4
    assert [d["hp"] for d in find(evs, "short_rest")["dice"]] == [4 + 2, 9 + 2]
    assert find(evs, "short_rest")["rule"] == "DND-F23" and find(evs, "short_rest")["durable_minimum"] == 4
    s, evs = _rest(["durable"], options={"durable_minimum": "regain"})    # the SRD: at least 4 regained
    assert [d["hp"] for d in find(evs, "short_rest")["dice"]] == [4, 11]
    s, evs = _rest(["durable"], con=9)                                # Con 10 (+0): minimum 2
    assert [d["hp"] for d in find(evs, "short_rest")["dice"]] == [2, 9]
    with pytest.raises(Illegal):
        step(s, "gm", "short_rest", target="f", dice=4)               # 3 left
    assert "Hit dice 3/5 (d10)" in s.ruleset.hud_rows(s, s.state.actors["f"])


def test_short_rest_restores_the_martial_adept_die():
    s = make([hero(feats=["martial_adept"]), guard()])
    step(s, "f", "attack", target="g", weapon="longsword", manoeuvre="precision", rolls={"attack": 10, "superiority": 3})
    assert s.state.actors["f"].data["superiority"] == 0
    step(s, "gm", "short_rest", target="f", dice=0)
    assert s.state.actors["f"].data["superiority"] == 1


# DND-F05 Dungeon Delver: traps and secret doors ----------------------------------------------------------------------------
def test_dnd_f05_dungeon_delver_advantage_and_resistance_against_a_trap():
    for feats_, dice, dmg in (([], 1, 12), (["dungeon_delver"], 2, 6)):
        s = make([hero(feats=feats_, abilities={"dex": 10})])
        evs = step(s, "gm", "trap", target="f", save="dex", dc=15, damage="2d10", type="piercing",
                   rolls={"save": [3, 4], "trap": [5, 7]})
        assert len(finds(evs, "roll", name="save")) == dice
        assert find(evs, "damage", who="f")["amount"] == dmg
    s = make([hero(feats=["dungeon_delver"])])
    evs = step(s, "gm", "trap", target="f", save="con", dc=30, damage="1d10", type="fire", rolls={"save": [2, 3], "trap": 10})
    assert find(evs, "damage")["amount"] == 5 and "Dungeon Delver" in find(evs, "damage")["notes"][0]
    evs = step(s, "gm", "damage", target="f", amount=10, type="fire")
    assert find(evs, "damage")["amount"] == 10                         # not a trap: no resistance


def test_dnd_f05_dungeon_delver_finds_secret_doors_and_dnd_f29_observant_passive():
    s = make([hero(feats=["dungeon_delver"], abilities={"int": 10}), hero("o", at=(7, 7, 0), feats=["observant"],
                                                                         abilities={"wis": 10})])
    evs = step(s, "gm", "secret_door", target="f", dc=15, skill="investigation", active=True, rolls={"check": [4, 16]})
    assert len(finds(evs, "roll", name="check")) == 2 and find(evs, "secret_door")["found"]
    evs = step(s, "gm", "secret_door", target="o", dc=16)                  # passive 10 + 0 + 5 (Observant)
    assert find(evs, "secret_door")["passive"] == 15 and not find(evs, "secret_door")["found"]
    evs = step(s, "gm", "secret_door", target="o", dc=15, skill="investigation")
    assert find(evs, "secret_door")["found"] and find(evs, "secret_door")["feats"] == ["observant"]


# DND-F29 Observant: passive scores in the state, the panel and where Hide meets them ----------------------------------------
def test_dnd_f29_observant_passive_in_the_json_state_and_the_panel():
    s = make([hero(feats=["observant"], feat_choices={"observant": "wis"}, abilities={"wis": 13}, skills={"perception": 1})])
    d = s.state.to_dict()["characters"]["f"]
    assert d["passive"] == {"perception": 10 + 2 + 3 + 5, "investigation": 10 + 0 + 5}   # Wis 14, prof 3
    assert "Passive Perception 20, Investigation 15 (Observant +5)" in s.ruleset.hud_rows(s, s.state.actors["f"])


def test_dnd_f29_observant_notices_a_hider_by_passive_perception_option():
    wall = [("stone", (6, 3, 0), (6, 7, 0))]
    for feats_, opt, revealed in (([], "passive_perception", False), (["observant"], "passive_perception", True),
                                  (["observant"], "searchers", False)):
        chars = [{"id": "r", "kind": "rogue", "side": "r", "at": [5, 5, 0]},
                 hero("w", side="b", at=(8, 5, 0), feats=feats_, abilities={"wis": 10})]
        s = make(chars, fill=wall, options={"hide_passive": opt})
        evs = step(s, "r", "hide", rolls={"check": 4})      # Stealth 4 + 4 + 2 x 3 = 14; passive 10 (+5 Observant)
        assert bool(find(evs, "revealed", by="w")) == revealed, (feats_, opt)
        assert (s.state.actors["r"].data["hidden"] is None) == revealed


def test_armour_without_proficiency_also_stops_war_casters_cantrip():
    for profs, weapon in (([], "dagger"), (["light"], "fire_bolt")):
        mage = {"id": "m", "kind": "mage", "side": "r", "at": [5, 5, 0], "spells": ["fire_bolt"], "feats": ["war_caster"],
                "weapons": ["dagger"], "reactions": {"war_caster": True}, "armor": "leather", "armor_proficiencies": profs}
        s = make([guard("g", side="b", at=(5, 4, 0)), mage])
        evs = step(s, "g", "move", to=[5, 1, 0], rolls={"attack": 15, "damage": 3})
        assert find(evs, "attack", who="m")["weapon"] == weapon
