"""The 5e and aerial rules found wrong when the documents were checked line by line (issue 12): each test is named
after its rule ID and checks the old reading through its scene option where a table could want it."""

from __future__ import annotations

import pytest

from engine.rules.core import Illegal
from engine.rules.dnd5e import conditions
from rules_helpers import find, make, step

pytestmark = pytest.mark.unit


def knight(i="k", side="r", at=(5, 5, 0), **kw):
    return {"id": i, "kind": "knight", "side": side, "at": list(at)} | kw


def harpy(i="h", side="s", at=(2, 2, 4), **kw):
    return {"id": i, "kind": "harpy", "side": side, "at": list(at), "flying": True} | kw


def test_dnd35_dnd04_temp_hp_absorb_damage_at_0_hp_before_a_failure():
    s = make([knight(), knight("d", side="b", at=(9, 9, 0), hp=0)])
    step(s, "gm", "temp_hp", target="d", amount=5)
    evs = step(s, "gm", "damage", target="d", amount=3)
    assert find(evs, "temp_hp_lost", who="d")["amount"] == 3 and not find(evs, "death_save_failure")
    evs = step(s, "gm", "damage", target="d", amount=4)                 # 2 temp HP left: they go first, then a failure
    assert find(evs, "temp_hp_lost", who="d")["amount"] == 2 and find(evs, "death_save_failure", who="d")
    old = make([knight(), knight("d", side="b", at=(9, 9, 0), hp=0)], options={"temp_hp_at_zero": "failure_first"})
    step(old, "gm", "temp_hp", target="d", amount=5)
    evs = step(old, "gm", "damage", target="d", amount=3)
    assert find(evs, "death_save_failure", who="d") and old.state.actors["d"].temp_hp == 5


def test_dnd05_damage_to_a_stable_creature_restarts_its_death_saves():
    s = make([knight(), knight("d", side="b", at=(9, 9, 0), hp=0)])
    d = s.state.actors["d"]
    d.data["death"] = {"successes": 2, "failures": 2}
    d.data["stable"] = True
    evs = step(s, "gm", "damage", target="d", amount=1)
    assert find(evs, "death_saves_restart", who="d")
    assert d.data["death"] == {"successes": 0, "failures": 1} and not d.dead
    old = make([knight(), knight("d", side="b", at=(9, 9, 0), hp=0)], options={"stable_damage": "keep_counts"})
    d = old.state.actors["d"]
    d.data["death"] = {"successes": 2, "failures": 2}
    d.data["stable"] = True
    step(old, "gm", "damage", target="d", amount=1)
    assert d.dead                                                       # the third failure


def test_dnd49_frightened_cannot_move_closer_even_without_seeing_the_source():
    chars = [knight("g", side="b", at=(2, 2, 0), conditions=["frightened:k", "blinded"]), knight(at=(6, 2, 0))]
    s = make(chars)
    with pytest.raises(Illegal) as e:
        step(s, "g", "move", to=[3, 2, 0])
    assert e.value.rule == "DND-49"
    old = make(chars, options={"frightened_move": "in_sight"})
    step(old, "g", "move", to=[3, 2, 0])                                 # blinded: the old reading lets it


def test_air10_a_flyer_may_choose_not_to_stay_aloft():
    s = make([harpy(speed_m=12), knight(at=(9, 9, 0))])
    legal = s.legal_actions()
    assert {"actor": "h", "action": "end_turn", "stay_aloft": False} in legal
    evs = step(s, "h", "end_turn", stay_aloft=False)
    assert find(evs, "flight_lost", who="h")["rule"] == "AIR-10" and find(evs, "fall", who="h")
    assert not find(evs, "upkeep", who="h")


def test_air09_in_the_air_a_flyer_moves_at_its_ground_speed():
    s = make([harpy(at=(1, 1, 4)), knight(at=(11, 11, 0))])             # harpy: speed 6, fly 12
    with pytest.raises(Illegal) as e:
        step(s, "h", "move", to=[7, 1, 4])                              # 9 m across
    assert "6 m of movement left" in e.value.reason and e.value.rule == "AIR-09"
    step(s, "h", "move", to=[5, 1, 4])                                  # 6 m
    old = make([harpy(at=(1, 1, 4)), knight(at=(11, 11, 0))], options={"air_speed": "fly_speed"})
    step(old, "h", "move", to=[7, 1, 4])


def test_air12_falling_damage_is_bludgeoning():
    def fall(**kw):
        s = make([harpy(**kw), knight(at=(9, 9, 0))], size=(12, 12, 24), **({"options": kw.pop("options")} if "options" in kw else {}))
        evs = step(s, "gm", "condition", target="h", add="prone")
        return find(evs, "fall", who="h"), find(evs, "damage", who="h")
    f, d = fall(at=[2, 2, 21])                                          # 21 layers: 50% of 38 = 19
    assert f["damage"] == 19 and d["damage_type"] == "bludgeoning" and d["amount"] == 19
    f, d = fall(at=[2, 2, 21], resistances=["bludgeoning"])
    assert d["amount"] == 9 and "resistance" in d["notes"][0]
    f, d = fall(at=[2, 2, 21], immunities=["bludgeoning"])
    assert d["amount"] == 0
    s = make([harpy(at=[2, 2, 21], resistances=["bludgeoning"]), knight(at=(9, 9, 0))], size=(12, 12, 24),
             options={"fall_damage_type": "untyped"})
    d = find(step(s, "gm", "condition", target="h", add="prone"), "damage", who="h")
    assert d["amount"] == 19 and d["damage_type"] == "falling"


def test_air10_frozen_grounds_a_flyer_in_dnd5e():
    s = make([harpy(), knight(at=(9, 9, 0))])
    evs = step(s, "gm", "condition", target="h", add="frozen")
    assert find(evs, "flight_lost", who="h")["because"] == "AIR-10" and find(evs, "fall", who="h")
    assert conditions.speed_zero(s.ruleset, s.state.actors["h"])[1] == "AIR-10"


def test_air10_frozen_grounds_a_flyer_in_baton():
    from baton_util import A, ch, hero, one, session
    from baton_util import step as bstep
    s = session([hero(), ch("har", "foes", (3, 2, 4), kind="harpy", flying=True)], starts="ana")
    evs = bstep(s, "gm", "condition", target="har", add="frozen")
    one(evs, "flight_lost", who="har")
    assert A(s, "har").layer == 0 and not A(s, "har").flying


def test_dnd24_dodge_against_an_unseen_attacker():
    chars = [{"id": "r", "kind": "rogue", "side": "r", "at": [5, 5, 0], "invisible": True}, knight("k", side="b", at=(6, 5, 0))]
    s = make(chars, options={"rolls": {}})
    s.state.actors["k"].data["dodging"] = True
    att = find(step(s, "r", "attack", target="k", rolls={"attack": [5, 5]}), "attack")
    assert "the target is dodging" in att["disadvantage"]                # the document: every attack
    old = make(chars, options={"dodge_unseen": "needs_sight"})
    old.state.actors["k"].data["dodging"] = True
    att = find(step(old, "r", "attack", target="k", rolls={"attack": [5, 5]}), "attack")
    assert "the target is dodging" not in att["disadvantage"]            # 5e: only if it can see the attacker


def test_dnd11_a_walkers_long_move_cites_the_movement_rule():
    s = make([knight(at=(0, 0, 0)), knight("b", side="b", at=(11, 11, 0))])
    with pytest.raises(Illegal) as e:
        step(s, "k", "move", to=[9, 0, 0])                              # 13.5 m > 9 m
    assert e.value.rule == "DND-11"


def test_dnd33_resistance_comes_after_heavy_armor_master():
    """DND-33 "Odporność i podatność są brane pod uwagę po zastosowaniu wszystkich modyfikatorów do obrażeń":
    10 slashing on a resistant Heavy Armor Master is (10 - 3) // 2 = 3, not 10 // 2 - 3 = 2."""
    chars = [knight("o", side="b", at=(4, 5, 0), weapons=["greataxe"], abilities={"str": 10}),
             knight("t", at=(5, 5, 0), feats=["heavy_armor_master"], resistances=["slashing"], max_hp=60)]
    s = make(chars)
    evs = step(s, "o", "attack", target="t", weapon="greataxe", rolls={"attack": 19, "damage": 10})
    dmg = find(evs, "damage", who="t")
    assert dmg["amount"] == 3
    assert dmg["notes"] == ["Heavy Armor Master: -3 (DND-F17)", "resistance halves it (DND-33)"]


def test_dnd_f02_elemental_adept_readied_spell_ignores_resistance_on_anothers_turn():
    """DND-F02 l. 70 "Rzucane przez ciebie zaklęcia ignorują odporność celu": a readied fire bolt (DND-20) released
    on the target's turn is still the adept's spell."""
    chars = [{"id": "m", "kind": "mage", "side": "r", "at": [2, 4, 0], "spells": ["fire_bolt"], "abilities": {"int": 16},
              "feats": ["elemental_adept"], "feat_choices": {"elemental_adept": "fire"}},
             knight("t", side="b", at=(15, 4, 0), resistances=["fire"], max_hp=90, ac=5)]
    s = make(chars, size=(20, 10, 4))
    step(s, "m", "ready", spell="fire_bolt")
    step(s, "m", "end_turn")
    evs = step(s, "t", "move", to=[12, 4, 0], rolls={"attack": 15, "damage": 5})
    dmg = find(evs, "damage", who="t")
    assert dmg["amount"] >= 5 and "Elemental Adept ignores the resistance (DND-F02)" in dmg["notes"]


def test_dnd24_dodge_dex_save_advantage_is_lost_at_speed_0():
    """DND-24 "Tracisz te korzyści jeśli ... twoja szybkość spadnie do 0": the Dex-save advantage too, not only the
    attacks' disadvantage."""
    s = make([knight("r", at=(5, 5, 0)), knight("o", side="b", at=(4, 5, 0), abilities={"str": 18})])
    step(s, "r", "dodge")
    step(s, "r", "end_turn")
    evs = step(s, "gm", "trap", target="r", save="dex", dc=15, rolls={"save": [12, 3], "trap": 3})
    assert find(evs, "save", who="r")["advantage"] == ["Dodge (DND-24)"]
    step(s, "o", "grapple", target="r", rolls={"check": 19, "contest": 2})
    assert s.state.actors["r"].has("grappled")
    evs = step(s, "gm", "trap", target="r", save="dex", dc=15, rolls={"save": [3, 12], "trap": 3})
    save = find(evs, "save", who="r")
    assert not save.get("advantage") and save["success"] is False


@pytest.mark.parametrize("action", ["shove", "grapple"])
def test_dnd54_charmed_cannot_shove_or_grapple_its_charmer(action):
    """DND-54 "Zauroczony nie może atakować ani w żaden inny sposób zaszkodzić osobie powodującej zauroczenie": a
    shove or a grapple harms it too; refused, and not listed."""
    s = make([knight("k", conditions=["charmed:o"]), knight("o", side="b", at=(6, 5, 0))])
    with pytest.raises(Illegal) as e:
        step(s, "k", action, target="o", rolls={"check": 19, "contest": 2})
    assert e.value.rule == "DND-54"
    listed = [c for c in s.legal_actions() if c.get("action") in ("shove", "grapple") and c.get("target") == "o"]
    assert listed == []


def _purposes(evs, name, who):
    return [e["purpose"] for e in evs if e["type"] == "roll" and e.get("name") == name and e.get("who") == who]


def test_dnd49_dnd53_every_ability_check_the_defender_the_grappler_and_a_lock():
    """DND-49 / DND-53 "Zatruty ma utrudnienie w rzutach na atak i testach cech": every check, whoever asks for it
    (conditions.check_d20): a contest's defender frightened by a source it sees, a poisoned grappler against an
    escape, a frightened lock picker."""
    s = make([knight("o", side="b", at=(4, 5, 0)), knight("k", at=(5, 5, 0), conditions=["frightened:o"])])
    evs = step(s, "o", "grapple", target="k", rolls={"check": 10, "contest": [12, 3]})
    assert find(evs, "contest")["defender_total"] == 3 + 6                      # the lower d20 (knight: Athletics +6)
    s = make([knight("o", side="b", at=(4, 5, 0), conditions=["poisoned"]), knight("k", at=(5, 5, 0))])
    step(s, "o", "grapple", target="k", rolls={"check": [19, 19], "contest": 2})
    step(s, "o", "end_turn")
    evs = step(s, "k", "escape", rolls={"check": 10, "contest": [12, 3]})
    assert find(evs, "escape")["against"] == 3 + 6 and all("(disadvantage)" in p for p in _purposes(evs, "contest", "o"))
    door = ('[[objects]]\nid = "door"\nfrom = [2, 5, 0]\nto = [2, 5, 1]\nmaterial = "wood"\nlock = { dc = 15 }\n')
    s = make([knight("n", at=(2, 4, 0), conditions=["frightened:o"], tools={"thieves_tools": "proficient"}),
              knight("o", side="b", at=(4, 2, 0))], fill=[("stone", (0, 5, 0), (11, 5, 2))], extra=door)
    evs = step(s, "n", "pick_lock", target="door", rolls={"check": [18, 4]})
    assert find(evs, "lock_check")["roll"] == 4


def test_dnd_f32_lucky_on_the_grapplers_roll_and_on_a_lock():
    """DND-F32 "test ataku, cechy lub rzut obronny": the grappler's check against an escape and a lock's check
    take the luck die like any other check."""
    s = make([knight("o", side="b", at=(4, 5, 0), feats=["lucky"], reactions={"lucky": True}), knight("k", at=(5, 5, 0))])
    step(s, "o", "grapple", target="k", rolls={"check": 19, "contest": 2})
    step(s, "o", "end_turn")
    evs = step(s, "k", "escape", rolls={"check": 10, "contest": 2, "luck": 18})
    assert find(evs, "feat", who="o", feat="lucky") and find(evs, "escape")["against"] == 18 + 6
    door = ('[[objects]]\nid = "door"\nfrom = [2, 5, 0]\nto = [2, 5, 1]\nmaterial = "wood"\nlock = { dc = 15 }\n')
    s = make([knight("n", at=(2, 4, 0), feats=["lucky"], reactions={"lucky": True}),
              knight("o", side="b", at=(4, 2, 0))], fill=[("stone", (0, 5, 0), (11, 5, 2))], extra=door)
    evs = step(s, "n", "force_lock", target="door", rolls={"check": 4, "luck": 19})
    assert find(evs, "lock_check")["roll"] == 19 and find(evs, "lock_check")["success"]


@pytest.mark.parametrize("sentinel", [False, True])
def test_dnd_f15_polearm_master_no_opportunity_attack_on_entering_after_disengage(sentinel):
    """DND-F15's attack on entering its reach is an opportunity attack, and DND-28 "Można uniknąć prowokowania ataku
    okazyjnego wykonując akcję odstąpienia"; Sentinel (DND-F37) overrides Disengage only for those that leave."""
    feats_ = ["polearm_master", "sentinel"] if sentinel else ["polearm_master"]
    chars = [knight("r", at=(1, 5, 0)), knight("g", side="b", at=(6, 5, 0), weapons=["glaive"], feats=feats_)]
    s = make(chars)
    step(s, "r", "disengage")
    evs = step(s, "r", "move", to=[4, 5, 0], rolls={"attack": 15, "damage": 5})
    assert not find(evs, "opportunity_attack") and s.state.actors["r"].pos == (4, 5, 0)
    evs = step(make(chars), "r", "move", to=[4, 5, 0], rolls={"attack": 15, "damage": 5})
    assert find(evs, "opportunity_attack", who="g", rule="DND-F15")


def test_dnd37_a_swim_speed_excuses_melee_only_ranged_keeps_its_disadvantage():
    """DND-37 l. 467 "Jeśli nie posiadasz szybkości pływania masz utrudnienie w atakach wręcz" (melee); l. 468 the
    ranged attack "jest wykonywany z utrudnieniem chyba że używasz: kuszy, sieci lub broni rzucanej": a swimmer's
    longbow shot still has disadvantage, its crossbow bolt none."""
    archer = {"id": "a", "kind": "archer", "side": "r", "at": [0, 0, 0], "underwater": True, "swim_speed_m": 9,
              "weapons": ["longbow", "light_crossbow"]}
    s = make([archer, knight("t", side="b", at=(8, 0, 0))], size=(20, 4, 4))
    evs = step(s, "a", "attack", target="t", weapon="longbow", rolls={"attack": [10, 2]})
    assert "ranged attack underwater" in find(evs, "attack")["disadvantage"]
    s = make([archer, knight("t", side="b", at=(8, 0, 0))], size=(20, 4, 4))
    evs = step(s, "a", "attack", target="t", weapon="light_crossbow", rolls={"attack": 10})
    assert find(evs, "attack")["disadvantage"] == []


def test_dnd_f20_shield_master_shove_within_1_5_m_only():
    """DND-F20 l. 177 "odepchnąć od siebie przeciwnika znajdującego się do 1,5 m od ciebie": not a foe 3 m away at the
    end of a whip; one next to it is fine."""
    s = make([knight("s", feats=["shield_master"], weapons=["whip"]), knight("f", side="b", at=(7, 5, 0), max_hp=90)])
    step(s, "s", "attack", target="f", weapon="whip", rolls={"attack": 15, "damage": 2})
    with pytest.raises(Illegal) as e:
        step(s, "s", "shove", target="f", mode="push", bonus=True, rolls={"check": 15, "contest": 2})
    assert e.value.rule == "DND-F20"
    assert not [c for c in s.legal_actions() if c.get("action") == "shove" and c.get("bonus")]
    s = make([knight("s", feats=["shield_master"], weapons=["whip"]), knight("f", side="b", at=(6, 5, 0), max_hp=90)])
    step(s, "s", "attack", target="f", weapon="whip", rolls={"attack": 15, "damage": 2})
    evs = step(s, "s", "shove", target="f", mode="prone", bonus=True, rolls={"check": 19, "contest": 2})
    assert find(evs, "shove", who="s")


def test_dnd_f20_shield_master_dex_save_bonus_needs_a_shield():
    """DND-F20 l. 178 "możesz dodać premię do KP zawdzięczaną tarczy": a sheet wearing leather without a shield adds
    nothing, one with a shield adds the shield's AC bonus; no shield, no l. 179 reaction either."""
    trap = {"target": "s", "save": "dex", "dc": 15, "rolls": {"save": 13, "trap": 3}}
    bare = make([knight("s", feats=["shield_master"], armor="leather", shield=False)])
    sv = find(step(bare, "gm", "trap", **trap), "save", who="s")
    assert sv["total"] == 13 + 0 and not sv["success"]
    shielded = make([knight("s", feats=["shield_master"], armor="leather", shield=True)])
    sv = find(step(shielded, "gm", "trap", **trap), "save", who="s")
    assert {"source": "Shield Master: the shield", "value": 2, "rule": "DND-F20"} in sv["sources"] and sv["success"]


def test_dnd_f39_tavern_brawler_bonus_grapple_only_on_the_creature_hit():
    """DND-F39 l. 296 "przy trafieniu przeciwnika w swojej turze atakiem bez broni ... możesz wykorzystać akcję
    dodatkową by spróbować pochwycić cel": the target it hit, not a bystander."""
    chars = [knight("b", feats=["tavern_brawler"], weapons=["unarmed"]), knight("h", side="b", at=(6, 5, 0), max_hp=90),
             knight("o", side="b", at=(4, 5, 0), max_hp=90)]
    s = make(chars)
    step(s, "b", "attack", target="h", weapon="unarmed", rolls={"attack": 19, "damage": 2})
    with pytest.raises(Illegal) as e:
        step(s, "b", "grapple", target="o", bonus=True, rolls={"check": 19, "contest": 2})
    assert e.value.rule == "DND-F39"
    listed = [c for c in s.legal_actions() if c.get("action") == "grapple" and c.get("bonus")]
    assert [c["target"] for c in listed] == ["h"]
    evs = step(s, "b", "grapple", target="h", bonus=True, rolls={"check": 19, "contest": 2})
    assert find(evs, "grapple", who="b", target="h")


def test_dnd_f06_savage_attacker_not_on_a_thrown_weapon():
    """DND-F06 l. 95 "przerzucić rzut na obrażenia zadawane atakiem wręcz bronią": a handaxe thrown 6 m is a ranged
    attack; no reroll (refused when asked, not listed); the same handaxe in melee rerolls."""
    chars = [knight("b", feats=["savage_attacker"], weapons=["handaxe"]), knight("o", side="b", at=(9, 5, 0), max_hp=90)]
    s = make(chars)
    with pytest.raises(Illegal) as e:
        step(s, "b", "attack", target="o", weapon="handaxe", savage=True, rolls={"attack": 15, "damage": 1, "savage": 6})
    assert e.value.rule == "DND-F06"
    assert not [c for c in s.legal_actions() if c.get("action") == "attack" and c.get("savage")]
    chars[1] = knight("o", side="b", at=(6, 5, 0), max_hp=90)
    evs = step(make(chars), "b", "attack", target="o", weapon="handaxe", savage=True,
               rolls={"attack": 15, "damage": 1, "savage": 6})
    assert find(evs, "feat", feat="savage_attacker")["kept"] == 6


def test_dnd_f16_gwm_power_attack_with_any_heavy_weapon_and_the_melee_option():
    """DND-F16 l. 154 "przed wykonaniem ataku ciężką bronią w której masz biegłość": a heavy longbow too (the
    document names no melee); option ``gwm_power_attack = "melee"``: the rulebook's heavy melee weapon only."""
    chars = [knight("g", feats=["great_weapon_master"], weapons=["longbow"]),
             knight("d", side="b", at=(9, 5, 0), max_hp=90, ac=5)]
    s = make(chars)
    evs = step(s, "g", "attack", target="d", weapon="longbow", power_attack=True, rolls={"attack": 15, "damage": 3})
    assert find(evs, "damage", who="d")["amount"] == 3 + 0 + 10                 # knight Dex 11: +0
    assert any(c.get("power_attack") for c in make(chars).legal_actions())
    old = make(chars, options={"gwm_power_attack": "melee"})
    with pytest.raises(Illegal) as e:
        step(old, "g", "attack", target="d", weapon="longbow", power_attack=True, rolls={"attack": 15, "damage": 3})
    assert e.value.rule == "DND-F16"


def test_dnd_f16_gwm_bonus_attack_is_a_melee_attack_not_a_throw():
    """DND-F16 l. 153 "możesz wykonać atak wręcz bronią białą w ramach akcji dodatkowej": after a critical hit, a
    handaxe thrown 4.5 m is not a melee attack; the same handaxe at the foe next to it is."""
    chars = [knight("g", feats=["great_weapon_master"], weapons=["greatsword", "handaxe"]),
             knight("d", side="b", at=(6, 5, 0), max_hp=90), knight("far", side="b", at=(8, 5, 0), max_hp=90)]
    s = make(chars)
    step(s, "g", "attack", target="d", weapon="greatsword", rolls={"attack": 20, "damage": 3})
    with pytest.raises(Illegal) as e:
        step(s, "g", "attack", target="far", weapon="handaxe", bonus=True, bonus_from="great_weapon_master",
             rolls={"attack": 15, "damage": 3})
    assert e.value.rule == "DND-F16"
    assert not [c for c in s.legal_actions() if c.get("bonus") and c.get("target") == "far"]
    evs = step(s, "g", "attack", target="d", weapon="handaxe", bonus=True, bonus_from="great_weapon_master",
               rolls={"attack": 15, "damage": 3})
    assert find(evs, "attack", who="g")["melee"]


def test_dnd_f31_charger_bonus_attack_any_weapon_as_written_and_the_melee_option():
    """DND-F31 l. 245 "możesz wykorzystać akcję dodatkową, by raz zaatakować lub odepchnąć przeciwnika": one attack,
    a longbow's too, with the +5 after a 3 m straight run; option ``charger_attack = "melee"``: the rulebook's melee
    weapon attack, and then a thrown javelin is refused (it was let through while the longbow was not)."""
    chars = [knight("c", feats=["charger"], weapons=["longbow", "javelin", "longsword"], at=(1, 5, 0)),
             knight("d", side="b", at=(9, 5, 0), max_hp=90, ac=5)]

    def charge(options=None):
        s = make(chars, options=options)
        step(s, "c", "dash")
        step(s, "c", "move", to=[5, 5, 0])
        return s
    s = charge()
    assert {c["weapon"] for c in s.legal_actions() if c.get("bonus_from") == "charger"} == {"longbow", "javelin"}
    evs = step(s, "c", "attack", target="d", weapon="longbow", bonus=True, bonus_from="charger",
               rolls={"attack": 15, "damage": 3})
    assert find(evs, "damage", who="d")["amount"] == 3 + 0 + 5
    s = charge({"charger_attack": "melee"})
    assert not [c for c in s.legal_actions() if c.get("bonus_from") == "charger"]
    for w in ("longbow", "javelin"):
        with pytest.raises(Illegal) as e:
            step(s, "c", "attack", target="d", weapon=w, bonus=True, bonus_from="charger", rolls={"attack": 15, "damage": 3})
        assert e.value.rule == "DND-F31"
