"""DND-F00 to DND-F42: one or more tests per feat that fail if the feat breaks (forced dice keep them exact)."""

from __future__ import annotations

import pytest

from engine.errors import SceneError
from engine.rules.core import BadAction, Illegal
from rules_helpers import find, make, step

pytestmark = pytest.mark.unit

WALLS = [("stone", (2, 6, 0), (9, 6, 0)), ("stone", (2, 10, 0), (9, 10, 3))]   # low wall (1 m), tall wall (4 m)


def finds(events, type_, **fields):
    return [e for e in events if e["type"] == type_ and all(e.get(k) == v for k, v in fields.items())]


def fighter(i="f", side="r", at=(5, 5, 0), **kw):
    return {"id": i, "kind": "knight", "side": side, "at": list(at), "weapons": ["greatsword"]} | kw


def guard(i="g", side="b", at=(6, 5, 0), **kw):
    return {"id": i, "kind": "guard", "side": side, "at": list(at)} | kw


# DND-F00 ------------------------------------------------------------------------------------------------------
def test_dnd_f00_unknown_feat_names_the_key_and_the_closest_name():
    with pytest.raises(SceneError) as e:
        make([fighter(feats=["sharpshooterr"])])
    assert "characters[0].feats[0]" in str(e.value) and "'sharpshooter'" in str(e.value)


def test_dnd_f00_prerequisite_and_once_each_and_increase():
    with pytest.raises(SceneError) as e:
        make([fighter(abilities={"str": 10}, feats=["grappler"])], options={"feat_prerequisites": "rulebook"})
    assert "Str 13" in str(e.value) and "DND-F00" in str(e.value)
    with pytest.raises(SceneError):
        make([fighter(feats=["alert", "alert"])])
    s = make([fighter(abilities={"str": 16, "dex": 11}, feats=["athlete"], feat_choices={"athlete": "dex"})])
    assert s.state.actors["f"].data["abilities"]["dex"] == 12
    s = make([fighter(abilities={"str": 20}, feats=["heavily_armored"])])
    assert s.state.actors["f"].data["abilities"]["str"] == 20          # at most 20


def test_dnd_f00_lost_prerequisite_makes_the_feat_unusable():
    from engine.rules.dnd5e import feats
    s = make([fighter(abilities={"str": 13}, feats=["grappler"]), guard()], options={"feat_prerequisites": "rulebook"})
    a = s.state.actors["f"]
    assert feats.has(a, "grappler")
    a.data["abilities"]["str"] = 12                                     # drained below the prerequisite
    assert not feats.has(a, "grappler") and feats.sheet(a)[0]["usable"] is False


def test_dnd_f00_feats_in_the_json_state_and_the_panel():
    s = make([fighter(feats=["actor", "lucky", "skilled"])])
    d = s.state.to_dict()["characters"]["f"]
    assert d["feats"] == ["actor", "lucky", "skilled"]
    rows = s.ruleset.hud_rows(s, s.state.actors["f"])
    assert any("Actor (+1 Cha) [sheet]" in r and "Skilled [sheet]" in r for r in rows)
    assert "Luck points 3/3" in rows


# the sheet feats: recorded, shown, their ability increase applied ---------------------------------------------------
@pytest.mark.parametrize("feat,ability", [("actor", "cha"), ("keen_mind", "int"), ("linguist", "int"),
                                          ("skilled", None), ("magic_initiate", None), ("ritual_caster", None)])
def test_dnd_f_sheet_feats_recorded_with_their_increase(feat, ability):
    ch = fighter(feats=[feat], abilities={"int": 13, "cha": 10})
    s = make([ch])
    a = s.state.actors["f"]
    assert a.data["feats"] == [feat]
    if ability:
        assert a.data["abilities"][ability] == {"cha": 11, "int": 14}[ability]
    assert any(feat.split("_")[0].capitalize() in r for r in s.ruleset.hud_rows(s, a))


# DND-F30 Sharpshooter ---------------------------------------------------------------------------------------------
def _wall(feats_):
    chars = [{"id": "a", "kind": "archer", "side": "r", "at": [5, 1, 0], "feats": feats_},
             {"id": "brann", "kind": "archer", "side": "b", "at": [5, 7, 0]}]
    return make(chars, size=(12, 14, 18), fill=WALLS)


def test_dnd_f30_sharpshooter_ignores_the_low_walls_half_cover():
    att = find(step(_wall([]), "a", "attack", target="brann", rolls={"attack": 9}), "attack")
    assert att["cover"] == "half" and not att["hit"]                    # 14 vs AC 14 + 2
    s = _wall(["sharpshooter"])
    pv = s.preview({"actor": "a", "action": "attack", "target": "brann"})
    assert pv["cover"] == "none" and pv["target_ac"] == 14 and any(f["feat"] == "sharpshooter" for f in pv["feats"])
    att = find(step(s, "a", "attack", target="brann", rolls={"attack": 9}), "attack")
    assert att["cover"] == "none" and att["hit"] and att["cover_ignored"]["cover"] == "half" and "DND-F30" in att["rules"]


def test_dnd_f30_sharpshooter_power_attack_and_long_range():
    chars = [{"id": "a", "kind": "archer", "side": "r", "at": [0, 0, 0], "feats": ["sharpshooter"]},
             {"id": "t", "kind": "knight", "side": "b", "at": [39, 0, 0]}]          # 58.5 m: beyond 45 m normal range
    s = make(chars, size=(42, 4, 4))
    att = find(step(s, "a", "attack", target="t", power_attack=True, rolls={"attack": 18, "damage": 4}), "attack")
    assert att["disadvantage"] == [] and att["bonus"] == 0 and att["total"] == 18            # +5 - 5
    assert find(s.events, "damage", who="t")["amount"] == 4 + 3 + 10
    s2 = make([{"id": "a", "kind": "archer", "side": "r", "at": [0, 0, 0]}, {"id": "t", "kind": "knight", "side": "b", "at": [39, 0, 0]}],
              size=(42, 4, 4))
    with pytest.raises(Illegal) as e:
        step(s2, "a", "attack", target="t", power_attack=True)
    assert e.value.rule == "DND-F16"
    att = find(step(s2, "a", "attack", target="t", rolls={"attack": [18, 18]}), "attack")
    assert att["disadvantage"]


# DND-F16 Great Weapon Master ----------------------------------------------------------------------------------------
def test_dnd_f16_gwm_power_attack_and_bonus_attack_after_a_kill():
    s = make([fighter(feats=["great_weapon_master"]), guard("g1", at=(6, 5, 0)), guard("g2", at=(4, 5, 0))])
    att = find(step(s, "f", "attack", target="g1", power_attack=True, rolls={"attack": 15, "damage": 1}), "attack")
    assert att["bonus"] == 6 - 5 and att["feats"] == ["great_weapon_master"]
    assert s.state.actors["g1"].hp == 0                                  # 1 + 1 + 3 + 10 = 15 >= 11
    assert find(s.events, "feat", feat="great_weapon_master")
    legal = s.legal_actions()
    assert {"actor": "f", "action": "attack", "target": "g2", "weapon": "greatsword", "bonus": True,
            "bonus_from": "great_weapon_master"} in legal
    step(s, "f", "attack", target="g2", bonus=True, rolls={"attack": 2})
    assert s.state.turn["bonus"]
    s2 = make([fighter(), guard("g1"), guard("g2", at=(4, 5, 0))])
    step(s2, "f", "attack", target="g1", rolls={"attack": 15, "damage": 6})
    with pytest.raises(Illegal):
        step(s2, "f", "attack", target="g2", bonus=True)


def test_dnd_f16_gwm_bonus_attack_after_a_critical_hit():
    s = make([fighter(feats=["great_weapon_master"]), guard("g1", max_hp=90)])
    step(s, "f", "attack", target="g1", rolls={"attack": 20, "damage": 1})
    step(s, "f", "attack", target="g1", bonus=True, bonus_from="great_weapon_master", rolls={"attack": 2})


# DND-F32 Lucky ---------------------------------------------------------------------------------------------------
def test_dnd_f32_lucky_turns_a_miss_and_spends_a_point():
    s = make([fighter(feats=["lucky"]), guard()])
    att = find(step(s, "f", "attack", target="g", lucky=True, rolls={"attack": 3, "luck": 17, "damage": 2}), "attack")
    assert att["roll"] == 17 and att["hit"] and att["luck"] == 17 and "lucky" in att["feats"]
    assert find(s.events, "roll", name="luck")["forced"] and s.state.actors["f"].data["luck"] == 2
    s.state.actors["f"].data["luck"] = 0
    with pytest.raises(Illegal) as e:
        step(s, "f", "attack", target="g", lucky=True)
    assert e.value.rule == "DND-F32"


# DND-F06 Savage Attacker ---------------------------------------------------------------------------------------------
def test_dnd_f06_savage_attacker_rerolls_and_keeps_the_higher():
    s = make([fighter(feats=["savage_attacker"], attacks=2), guard(max_hp=90)])
    step(s, "f", "attack", target="g", savage=True, rolls={"attack": 15, "damage": [1, 1], "savage": [6, 5]})
    assert find(s.events, "damage", who="g")["amount"] == 11 + 3
    with pytest.raises(Illegal) as e:
        step(s, "f", "attack", target="g", savage=True)                 # once per turn
    assert e.value.rule == "DND-F06"


# DND-F37 Sentinel ------------------------------------------------------------------------------------------------
def test_dnd_f37_sentinel_grounds_a_flyer_that_flies_off():
    chars = [{"id": "h", "kind": "harpy", "side": "s", "at": [5, 4, 1], "flying": True, "speed_m": 12},
             fighter("k", side="g", at=(5, 5, 0), feats=["sentinel"])]
    s = make(chars)
    evs = step(s, "h", "move", to=[5, 1, 2], rolls={"attack": 15, "damage": 1, "fall": 1})
    assert find(evs, "opportunity_attack", who="k") and find(evs, "feat", feat="sentinel")
    h = s.state.actors["h"]
    assert find(evs, "flight_lost", who="h") and not h.flying and h.layer == 0
    with pytest.raises(Illegal) as e:
        step(s, "h", "move", to=[5, 0, 0])
    assert e.value.rule in ("DND-F37", "DND-48")


def test_dnd_f37_sentinel_ignores_disengage_and_protects_allies():
    s = make([guard("g", side="b", at=(5, 4, 0)), fighter("k", side="r", at=(5, 5, 0), feats=["sentinel"])])
    step(s, "g", "disengage")
    evs = step(s, "g", "move", to=[5, 1, 0], rolls={"attack": 2})
    assert find(evs, "opportunity_attack", who="k")
    s2 = make([guard("g", side="b", at=(5, 4, 0)), fighter("k", side="r", at=(5, 5, 0), feats=["sentinel"]),
               fighter("ally", side="r", at=(4, 4, 0))])
    evs = step(s2, "g", "attack", target="ally", rolls={"attack": 2})
    assert find(evs, "reaction", who="k", feat="sentinel")


# DND-F15 Polearm Master -----------------------------------------------------------------------------------------------
def test_dnd_f15_polearm_master_entering_reach_across_layers_and_butt_end():
    chars = [{"id": "h", "kind": "harpy", "side": "s", "at": [5, 1, 4], "flying": True, "speed_m": 12},
             fighter("p", side="g", at=(5, 6, 0), weapons=["glaive"], feats=["polearm_master"])]
    s = make(chars)
    evs = step(s, "h", "move", to=[5, 4, 2], rolls={"attack": 2})
    oa = find(evs, "opportunity_attack", who="p")
    assert oa and oa["rule"] == "DND-F15"
    s2 = make([fighter("p", side="g", at=(5, 5, 0), weapons=["glaive"], feats=["polearm_master"]), guard(max_hp=90)])
    step(s2, "p", "attack", target="g", rolls={"attack": 15, "damage": 1})
    evs = step(s2, "p", "attack", target="g", bonus=True, bonus_from="polearm_master", rolls={"attack": 15, "damage": 4})
    assert find(evs, "roll", name="damage")["die"] == "d4" and find(evs, "damage")["damage_type"] == "bludgeoning"


def test_dnd_f15_declined_reaction_by_policy():
    chars = [{"id": "h", "kind": "harpy", "side": "s", "at": [5, 1, 4], "flying": True, "speed_m": 12},
             fighter("p", side="g", at=(5, 6, 0), weapons=["glaive"], feats=["polearm_master"],
                     reactions={"polearm_master": False})]
    evs = step(make(chars), "h", "move", to=[5, 4, 2], rolls={"attack": 2})
    assert not find(evs, "opportunity_attack", who="p")


# DND-F27 Mobile ---------------------------------------------------------------------------------------------------
def test_dnd_f27_mobile_speed_and_no_opportunity_attack_after_melee():
    s = make([fighter("m", feats=["mobile"], weapons=["longsword"]), guard(at=(6, 5, 0))])
    assert s.state.actors["m"].data["speed_m"] == 12
    step(s, "m", "attack", target="g", rolls={"attack": 2})
    evs = step(s, "m", "move", to=[1, 5, 0])
    assert not find(evs, "opportunity_attack")
    s2 = make([fighter("m", weapons=["longsword"]), guard(at=(6, 5, 0))])
    step(s2, "m", "attack", target="g", rolls={"attack": 2})
    assert find(step(s2, "m", "move", to=[2, 5, 0], rolls={"attack": 2}), "opportunity_attack")


# DND-F31 Charger -----------------------------------------------------------------------------------------------------
def test_dnd_f31_charger_straight_line_in_3d_gives_plus_5():
    s = make([fighter("c", feats=["charger"], weapons=["longsword"], at=(1, 5, 0)), guard(at=(6, 5, 0), max_hp=90)])
    step(s, "c", "dash")
    step(s, "c", "move", to=[5, 5, 0])                                  # 4 cells straight: 6 m
    assert s.state.turn["charge_line_m"] == pytest.approx(6.0)
    evs = step(s, "c", "attack", target="g", bonus=True, bonus_from="charger", rolls={"attack": 15, "damage": 1})
    assert find(evs, "damage", who="g")["amount"] == 1 + 3 + 5
    from engine.rules.dnd5e.feats import straight_line_m
    assert straight_line_m(s, [(0, 0, 0), (1, 0, 1), (2, 0, 2)]) == pytest.approx(2 * (1.5 ** 2 + 1) ** 0.5)


# DND-F28 Crossbow Expert ------------------------------------------------------------------------------------------------
def test_dnd_f28_crossbow_expert_no_disadvantage_in_melee_and_bonus_hand_crossbow():
    ch = {"id": "x", "kind": "archer", "side": "r", "at": [5, 5, 0], "weapons": ["hand_crossbow", "shortsword"]}
    s = make([ch | {"feats": ["crossbow_expert"]}, guard(at=(5, 6, 0), max_hp=90)])
    att = find(step(s, "x", "attack", target="g", weapon="hand_crossbow", rolls={"attack": 10, "damage": 1}), "attack")
    assert att["disadvantage"] == [] and "crossbow_expert" in att["feats"]
    step(s, "x", "attack", target="g", weapon="hand_crossbow", bonus=True, bonus_from="crossbow_expert", rolls={"attack": 2})
    s2 = make([ch, guard(at=(5, 6, 0))])
    assert find(step(s2, "x", "attack", target="g", weapon="hand_crossbow", rolls={"attack": [10, 10]}), "attack")["disadvantage"]


# DND-F22 Spell Sniper ------------------------------------------------------------------------------------------------
def test_dnd_f22_spell_sniper_cover_and_double_range():
    chars = [{"id": "m", "kind": "mage", "side": "r", "at": [5, 1, 0], "spells": ["ray_of_frost"], "feats": ["spell_sniper"]},
             {"id": "brann", "kind": "archer", "side": "b", "at": [5, 7, 0]}]
    s = make(chars, size=(12, 14, 18), fill=WALLS)
    att = find(step(s, "m", "cast", spell="ray_of_frost", target="brann", rolls={"attack": 10, "damage": 1}), "attack")
    assert att["cover"] == "none" and att["cover_ignored"]["feat"] == "spell_sniper"
    far = [{"id": "m", "kind": "mage", "side": "r", "at": [0, 0, 0], "spells": ["ray_of_frost"], "feats": ["spell_sniper"]},
           {"id": "t", "kind": "archer", "side": "b", "at": [20, 0, 0]}]           # 30 m > 18 m
    step(make(far, size=(24, 4, 4)), "m", "cast", spell="ray_of_frost", target="t", rolls={"attack": 2})
    far[0]["feats"] = []
    with pytest.raises(Illegal):
        step(make(far, size=(24, 4, 4)), "m", "cast", spell="ray_of_frost", target="t")
    with pytest.raises(SceneError):
        make([fighter(feats=["spell_sniper"])])                          # no spell: prerequisite (DND-F00)


# DND-F40 Mage Slayer ---------------------------------------------------------------------------------------------------
def test_dnd_f40_mage_slayer_reaction_attack_on_a_caster():
    s = make([{"id": "m", "kind": "mage", "side": "r", "at": [5, 5, 0], "spells": ["fire_bolt"]},
              fighter("k", side="b", at=(6, 5, 0), feats=["mage_slayer"], weapons=["longsword"]),
              guard("t", side="b", at=(9, 9, 0))])
    evs = step(s, "m", "cast", spell="fire_bolt", target="t", rolls={"attack": 2})
    assert find(evs, "reaction", who="k", feat="mage_slayer") and find(evs, "attack", who="k")


# DND-F21 Defensive Duelist ------------------------------------------------------------------------------------------------
def test_dnd_f21_defensive_duelist_turns_a_hit():
    s = make([fighter("f", weapons=["longsword"]),
              {"id": "d", "kind": "rogue", "side": "b", "at": [6, 5, 0], "feats": ["defensive_duelist"]}])
    att = find(step(s, "f", "attack", target="d", rolls={"attack": 10}), "attack")  # 10 + 6 = 16 >= AC 15
    assert not att["hit"] and find(s.events, "reaction", feat="defensive_duelist")
    s2 = make([fighter("f", weapons=["longsword"]),
               {"id": "d", "kind": "rogue", "side": "b", "at": [6, 5, 0], "feats": ["defensive_duelist"],
                "reactions": {"defensive_duelist": False}}])
    assert find(step(s2, "f", "attack", target="d", rolls={"attack": 10, "damage": 1}), "attack")["hit"]


# DND-F20 Shield Master ---------------------------------------------------------------------------------------------------
def test_dnd_f20_shield_master_dex_save_bonus_and_no_damage_on_success():
    def cast(feats_):
        chars = [{"id": "m", "kind": "mage", "side": "r", "at": [5, 5, 0], "spells": ["burning_hands"]},
                 fighter("k", side="b", at=(7, 5, 0), feats=feats_)]
        s = make(chars)
        return s, step(s, "m", "cast", spell="burning_hands", target="k", rolls={"save": 13, "damage": 3})
    s, evs = cast(["shield_master"])
    sv = find(evs, "save", who="k")
    assert sv["success"] and sv["total"] == 13 + 0 + 2                  # the shield's +2 to the Dex save
    assert find(evs, "reaction", who="k", feat="shield_master") and not find(evs, "damage", who="k")
    s, evs = cast([])
    assert not find(evs, "save", who="k")["success"] and find(evs, "damage", who="k")


# DND-F10 Alert ---------------------------------------------------------------------------------------------------------
def test_dnd_f10_alert_initiative_and_unseen_attackers():
    s = make([fighter(feats=["alert"], initiative=None), guard(initiative=None)],
             options={"rolls": {"initiative": [10, 10]}})
    ini = {e["who"]: e["total"] for e in s.events if e["type"] == "initiative"}
    assert ini["f"] == 10 + 0 + 5
    s = make([{"id": "r", "kind": "rogue", "side": "r", "at": [5, 5, 0], "invisible": True},
              fighter("k", side="b", at=(6, 5, 0), feats=["alert"])])
    att = find(step(s, "r", "attack", target="k", rolls={"attack": [5, 5]}), "attack")
    assert "the target cannot see the attacker" not in att["advantage"] and "alert" in att["feats"]


# DND-F34 Tough, DND-F23 Durable, DND-F25 Resilient, DND-F24 Dual Wielder, DND-F39 Tavern Brawler ---------------------------
def test_dnd_f34_tough_adds_twice_the_level():
    assert make([fighter(feats=["tough"], max_hp=52)]).state.actors["f"].max_hp == 52 + 10


def test_dnd_f23_durable_raises_con_and_the_default_hp():
    ch = fighter(feats=["durable"], abilities={"con": 13})
    a = make([ch]).state.actors["f"]
    assert a.data["abilities"]["con"] == 14


def test_dnd_f25_resilient_save_proficiency():
    a = make([fighter(feats=["resilient"], feat_choices={"resilient": "dex"}, saves=[])]).state.actors["f"]
    assert "dex" in a.data["saves"] and a.data["abilities"]["dex"] == 12
    with pytest.raises(SceneError):
        make([fighter(feats=["resilient"], feat_choices={"resilient": "luck"})])


def test_dnd_f24_dual_wielder_ac_and_non_light_off_hand():
    s = make([fighter(feats=["dual_wielder"], weapons=["longsword", "battleaxe"], ac=16), guard(max_hp=90)])
    assert s.state.actors["f"].data["ac"] == 17
    step(s, "f", "attack", target="g", weapon="longsword", rolls={"attack": 2})
    s.state.turn["light_weapon"] = "longsword"       # the off-hand needs an Attack-action attack first
    step(s, "f", "attack", target="g", weapon="battleaxe", bonus=True, rolls={"attack": 2})


def test_dnd_f39_tavern_brawler_unarmed_d4():
    s = make([fighter(feats=["tavern_brawler"], weapons=["unarmed"]), guard(max_hp=90)])
    evs = step(s, "f", "attack", target="g", rolls={"attack": 15, "damage": 4})
    assert find(evs, "roll", name="damage")["die"] == "d4"


# DND-F17 Heavy Armor Master, DND-F02 Elemental Adept, DND-F09 Skulker, DND-F04 Athlete, DND-F36 Healer ------------------------
def test_dnd_f17_heavy_armor_master_reduces_weapon_damage():
    s = make([guard("g", side="b", at=(5, 4, 0)), fighter("k", feats=["heavy_armor_master"])])
    evs = step(s, "g", "attack", target="k", rolls={"attack": 18, "damage": 6})
    assert find(evs, "damage", who="k")["amount"] == 6 + 1 - 3


def test_dnd_f02_elemental_adept_ignores_resistance_and_ones_count_as_two():
    chars = [{"id": "m", "kind": "mage", "side": "r", "at": [5, 5, 0], "spells": ["fire_bolt"],
              "feats": ["elemental_adept"], "feat_choices": {"elemental_adept": "fire"}},
             guard("t", at=(8, 5, 0), resistances=["fire"], max_hp=90)]
    s = make(chars)
    evs = step(s, "m", "cast", spell="fire_bolt", target="t", rolls={"attack": 18, "damage": 7})
    assert find(evs, "damage", who="t")["amount"] == 14                  # 2d10 (level 9 cantrip), no halving
    step(s, "m", "end_turn")
    step(s, "t", "end_turn")
    evs = step(s, "m", "cast", spell="fire_bolt", target="t", rolls={"attack": 18, "damage": 1})
    assert find(evs, "damage", who="t")["amount"] == 4                   # each 1 counts as 2


def test_dnd_f09_skulker_missed_ranged_attack_keeps_it_hidden():
    chars = [{"id": "r", "kind": "rogue", "side": "r", "at": [5, 1, 0], "hidden": True, "feats": ["skulker"]},
             {"id": "t", "kind": "archer", "side": "b", "at": [5, 9, 0]}]
    s = make(chars, size=(12, 14, 6))
    evs = step(s, "r", "attack", target="t", weapon="shortbow", rolls={"attack": 2})
    assert not find(evs, "revealed") and s.state.actors["r"].data["hidden"] is not None


def test_dnd_f04_athlete_stands_for_1_5_m():
    s = make([fighter(feats=["athlete"], conditions=["prone"])])
    assert find(step(s, "f", "stand"), "stand")["cost_m"] == 1.5


def test_dnd_f36_healer_stabilise_with_a_kit_restores_1_hp():
    s = make([fighter("h", feats=["healer"], items=["healers_kit"]), fighter("d", at=(6, 5, 0), hp=0)])
    evs = step(s, "h", "stabilize", target="d", rolls={"check": 15})
    assert find(evs, "heal", who="d", rule="DND-F36") and s.state.actors["d"].hp == 1


# DND-F41 Grappler, DND-F12 Mounted Combatant ---------------------------------------------------------------------------------
def test_dnd_f41_grappler_advantage_against_its_grappled():
    s = make([fighter(feats=["grappler"], weapons=["longsword"], attacks=2), guard(max_hp=90)])
    step(s, "f", "grapple", target="g", rolls={"check": 20, "contest": 1})
    att = find(step(s, "f", "attack", target="g", rolls={"attack": [3, 15], "damage": 1}), "attack")
    assert any("Grappler" in x for x in att["advantage"])


def test_dnd_f12_mounted_combatant_advantage_on_smaller_unmounted():
    rider = {"id": "r", "kind": "wyvern_rider", "side": "b", "at": [4, 4, 0], "feats": ["mounted_combatant"]}
    mount = {"id": "w", "kind": "griffon", "size": "large", "side": "b", "at": [5, 4, 0], "controlled_mount": True}
    s = make([rider, mount, guard("e", side="r", at=(7, 4, 0), max_hp=90)])
    step(s, "r", "mount", target="w")
    att = find(step(s, "r", "attack", target="e", weapon="lance", rolls={"attack": [3, 15], "damage": 1}), "attack")
    assert any("Mounted Combatant" in x for x in att["advantage"])


# reactions as choices, and what every feat offers in legal_actions -------------------------------------------------------------
def test_dnd_f_reaction_policy_is_an_action_listed_and_it_declines():
    s = make([fighter("k", side="r", at=(5, 5, 0), feats=["sentinel"]), guard("g", side="b", at=(5, 4, 0))])
    legal = s.legal_actions()
    assert {"actor": "k", "action": "reaction_policy", "reaction": "opportunity_attack", "take": False} in legal
    assert {"actor": "k", "action": "reaction_policy", "reaction": "sentinel", "take": False} in legal
    step(s, "k", "reaction_policy", reaction="opportunity_attack", take=False)
    step(s, "k", "end_turn")
    assert not find(step(s, "g", "move", to=[5, 1, 0]), "opportunity_attack")
    with pytest.raises(BadAction):
        step(s, "g", "reaction_policy", reaction="counterspell", take=False)


def test_dnd_f_power_attack_and_lucky_listed():
    s = make([fighter(feats=["great_weapon_master", "lucky", "savage_attacker"]), guard()])
    legal = s.legal_actions()
    base = {"actor": "f", "action": "attack", "target": "g", "weapon": "greatsword"}
    for extra in ({"power_attack": True}, {"lucky": True}, {"savage": True}):
        assert base | extra in legal


# the feats whose effects lie outside combat on this map: recorded, their increases applied --------------------------------------
@pytest.mark.parametrize("feat,ability,value", [
    ("heavily_armored", "str", 17), ("lightly_armored", "dex", 12), ("moderately_armored", "str", 17),
    ("weapon_master", "str", 17), ("observant", "int", 11), ("martial_adept", None, None), ("dungeon_delver", None, None),
    ("medium_armor_master", None, None), ("inspiring_leader", None, None), ("war_caster", None, None)])
def test_dnd_f_recorded_feats(feat, ability, value):
    ch = fighter(feats=[feat], abilities={"str": 16, "dex": 11, "cha": 13}, spells=["fire_bolt"] if feat == "war_caster" else [])
    a = make([ch]).state.actors["f"]
    assert a.data["feats"] == [feat]
    if ability:
        assert a.data["abilities"][ability] == value


# aerie query says which feat changes a number ------------------------------------------------------------------------
def test_dnd_f30_aerie_query_names_the_feat(capsys):
    from engine.cli import main
    from engine.scene.query import query
    from engine.scene import load_scene
    scene = load_scene("scenes/feat_sharpshooter_low_wall.toml")
    r = query(scene, "vesna", "brann")
    assert r["cover"] == "half" and r["features"][0]["rule"] == "DND-F30"
    assert "features" not in query(scene, "archer", "brann")
    assert main(["query", "scenes/feat_sharpshooter_low_wall.toml", "--from", "vesna", "--to", "brann"]) == 0
    assert "Sharpshooter: vesna's ranged weapon attacks ignore this half cover (AC +0, not +2) (DND-F30)" in capsys.readouterr().out


def test_dnd_f20_shield_master_bonus_shove_after_the_attack_action():
    s = make([fighter(feats=["shield_master"], weapons=["longsword"]), guard(max_hp=90)])
    with pytest.raises(Illegal):
        step(s, "f", "shove", target="g", bonus=True)
    step(s, "f", "attack", target="g", rolls={"attack": 2})
    evs = step(s, "f", "shove", target="g", bonus=True, rolls={"check": 20, "contest": 1})
    assert find(evs, "feat", feat="shield_master") and s.state.actors["g"].has("prone") and s.state.turn["bonus"]


def test_dnd_f31_charger_shove_pushes_3_m():
    s = make([fighter("c", feats=["charger"], weapons=["longsword"], at=(1, 5, 0)), guard(at=(6, 5, 0), max_hp=90)])
    step(s, "c", "dash")
    step(s, "c", "move", to=[5, 5, 0])
    step(s, "c", "shove", target="g", mode="push", bonus=True, rolls={"check": 20, "contest": 1})
    assert s.state.actors["g"].pos == (8, 5, 0)


def test_dnd_f39_tavern_brawler_bonus_grapple_after_an_unarmed_hit():
    s = make([fighter(feats=["tavern_brawler"], weapons=["unarmed"]), guard(max_hp=90)])
    step(s, "f", "attack", target="g", rolls={"attack": 15, "damage": 2})
    assert {"actor": "f", "action": "grapple", "target": "g", "bonus": True} in s.legal_actions()
    step(s, "f", "grapple", target="g", bonus=True, rolls={"check": 20, "contest": 1})
    assert s.state.actors["g"].has("grappled")


def test_dnd_f32_lucky_against_an_attack_and_on_a_save_by_policy():
    def duel(pol):
        s = make([guard("g", side="b", at=(5, 4, 0)),
                  fighter("k", feats=["lucky"], **({"reactions": {"lucky": True}} if pol else {}))])
        return s, step(s, "g", "attack", target="k", rolls={"attack": 19, "luck": 2})
    s, evs = duel(True)
    assert not find(evs, "attack")["hit"] and find(evs, "feat", feat="lucky")["kept"] == 2
    assert s.state.actors["k"].data["luck"] == 2
    s, evs = duel(False)                                             # default: the points are kept
    assert find(evs, "attack")["hit"] and s.state.actors["k"].data["luck"] == 3
    s = make([{"id": "m", "kind": "mage", "side": "r", "at": [5, 5, 0], "spells": ["burning_hands"]},
              fighter("k", side="b", at=(7, 5, 0), feats=["lucky"], reactions={"lucky": True})])
    evs = step(s, "m", "cast", spell="burning_hands", target="k", rolls={"save": 3, "luck": 18, "damage": 3})
    assert find(evs, "save", who="k")["success"] and find(evs, "feat", feat="lucky")["kept"] == 18


def test_dnd_f36_healer_tends_with_a_kit_once_per_creature():
    s = make([fighter("h", feats=["healer"], items=["healers_kit", "healers_kit"]), fighter("d", at=(6, 5, 0), hp=10)])
    evs = step(s, "h", "use", object="healers_kit", target="d", rolls={"heal": 3})
    assert find(evs, "heal", who="d", rule="DND-F36")["amount"] == 3 + 4 + 5
    step(s, "h", "end_turn")
    step(s, "d", "end_turn")
    with pytest.raises(Illegal) as e:
        step(s, "h", "use", object="healers_kit", target="d")
    assert e.value.rule == "DND-F36"
    s2 = make([fighter("h", items=["healers_kit"]), fighter("d", at=(6, 5, 0), hp=10)])
    with pytest.raises(Illegal):
        step(s2, "h", "use", object="healers_kit", target="d")


def test_dnd_f41_grappler_pins_both_restrained_until_the_grapple_ends():
    s = make([fighter(feats=["grappler"], weapons=["longsword"]), guard(max_hp=90)])
    step(s, "f", "grapple", target="g", rolls={"check": 20, "contest": 1})
    step(s, "f", "end_turn")
    step(s, "g", "end_turn", rolls={"check": 20, "contest": 1})
    evs = step(s, "f", "grapple", target="g", pin=True, rolls={"check": 20, "contest": 1})
    assert find(evs, "feat", feat="grappler")
    assert s.state.actors["g"].has("restrained") and s.state.actors["f"].has("restrained")
    step(s, "gm", "condition", target="f", add="incapacitated")        # the grapple ends (DND-47): so does the pin
    assert not s.state.actors["g"].has("restrained") and not s.state.actors["f"].has("restrained")
    s2 = make([fighter(abilities={"str": 13}, weapons=["longsword"]), guard()])
    with pytest.raises(Illegal):
        step(s2, "f", "grapple", target="g", pin=True)


def test_dnd_f14_war_caster_casts_a_cantrip_instead_of_the_opportunity_attack():
    def leave(pol):
        mage = {"id": "m", "kind": "mage", "side": "r", "at": [5, 5, 0], "spells": ["fire_bolt"], "feats": ["war_caster"],
                "weapons": ["dagger"]} | ({"reactions": {"war_caster": True}} if pol else {})
        s = make([guard("g", side="b", at=(5, 4, 0)), mage])
        return step(s, "g", "move", to=[5, 1, 0], rolls={"attack": 15, "damage": 3})
    evs = leave(True)
    oa = find(evs, "opportunity_attack", who="m")
    assert oa["rule"] == "DND-F14" and oa["spell"] == "fire_bolt" and find(evs, "attack", who="m")["weapon"] == "fire_bolt"
    evs = leave(False)                                                # default: the weapon
    assert find(evs, "opportunity_attack", who="m")["weapon"] == "dagger"


def test_dnd_f01_martial_adept_trip_and_precision():
    s = make([fighter(feats=["martial_adept"], weapons=["longsword"], attacks=2), guard(max_hp=90)])
    evs = step(s, "f", "attack", target="g", manoeuvre="trip", rolls={"attack": 15, "damage": 2, "superiority": 4, "save": 2})
    assert find(evs, "damage", who="g")["amount"] == 2 + 3 + 4 and s.state.actors["g"].has("prone")
    with pytest.raises(Illegal) as e:                                    # one die per rest
        step(s, "f", "attack", target="g", manoeuvre="precision")
    assert e.value.rule == "DND-F01"
    s = make([fighter(feats=["martial_adept"], weapons=["longsword"]), guard(max_hp=90)])
    att = find(step(s, "f", "attack", target="g", manoeuvre="precision", rolls={"attack": 8, "superiority": 3, "damage": 1}), "attack")
    assert att["hit"]                                                   # 8 + 6 = 14 < 16; + 3 = 17 hits
    with pytest.raises(Illegal):
        step(make([fighter(feats=["martial_adept"]), guard()]), "f", "attack", target="g", manoeuvre="pushing")
    with pytest.raises(SceneError):
        make([fighter(feats=["martial_adept"], feat_choices={"martial_adept": "trip+trip"})])


def test_dnd_f12_mounted_combatant_redirects_attacks_and_the_mount_evades():
    rider = {"id": "r", "kind": "wyvern_rider", "side": "b", "at": [4, 4, 0], "feats": ["mounted_combatant"]}
    mount = {"id": "w", "kind": "griffon", "size": "large", "side": "b", "at": [5, 4, 0], "controlled_mount": True}
    s = make([rider, mount, guard("e", side="r", at=(7, 4, 0), max_hp=90),
              {"id": "m", "kind": "mage", "side": "r", "at": [9, 4, 0], "spells": ["burning_hands"]}])
    step(s, "r", "mount", target="w")
    step(s, "r", "end_turn")
    step(s, "w", "end_turn")
    evs = step(s, "e", "attack", target="w", rolls={"attack": 18, "damage": 3})
    assert find(evs, "feat", feat="mounted_combatant") and find(evs, "attack")["target"] == "r"
    step(s, "e", "end_turn")
    evs = step(s, "m", "cast", spell="burning_hands", target="w", rolls={"save": [20, 20], "damage": 3})
    assert not find(evs, "damage", who="w")                             # a successful save: nothing


def test_dnd_f26_inspiring_leader_temp_hp_within_9_m():
    s = make([fighter("l", feats=["inspiring_leader"], abilities={"cha": 15}), fighter("a", at=(7, 5, 0)),
              fighter("far", at=(11, 11, 0)), guard("g", side="b", at=(6, 6, 0))])
    evs = step(s, "gm", "inspire", target="l")
    assert set(find(evs, "feat", feat="inspiring_leader")["inspired"]) == {"l", "a"}
    assert s.state.actors["a"].temp_hp == 5 + 2 and s.state.actors["far"].temp_hp == 0 and s.state.actors["g"].temp_hp == 0
    with pytest.raises(Illegal):
        step(s, "gm", "inspire", target="l")                              # once each
    with pytest.raises(Illegal):
        step(s, "gm", "inspire", target="a")                              # no feat


def test_dnd_f14_war_casters_concentration_spell_holds_concentration():
    """A War Caster's reaction spell that needs concentration (hold person) starts it as a cast one does (DND-21):
    the caster concentrates on it, and ending that concentration ends the paralysis."""
    mage = {"id": "m", "kind": "mage", "side": "r", "at": [5, 5, 0], "spells": ["hold_person"], "feats": ["war_caster"],
            "weapons": ["dagger"], "reactions": {"war_caster": True}}
    s = make([guard("g", side="b", at=(5, 4, 0)), mage])
    evs = step(s, "g", "move", to=[5, 1, 0], rolls={"save": 2})
    assert find(evs, "opportunity_attack", who="m")["spell"] == "hold_person"
    conc = find(evs, "concentration", who="m")
    assert conc["spell"] == "hold_person" and conc["targets"] == ["g"]
    assert s.state.actors["m"].data["concentration"]["spell"] == "hold_person"
    assert s.state.actors["g"].has("paralyzed")
    step(s, "gm", "condition", target="m", add="incapacitated")        # concentration ends (DND-21): so does the hold
    assert not s.state.actors["g"].has("paralyzed")
