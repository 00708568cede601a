"""Baton: manoeuvres (BAT-32..35), tactics (BAT-36..45), special situations (BAT-46..53)."""

from __future__ import annotations

import pytest
from baton_util import A, ch, ev, foe, hero, illegal, one, session, step

from engine.rules.baton import baton_order

pytestmark = pytest.mark.unit

FLOOR = [("stone", (0, 0, 0), (11, 11, 0))]


def test_bat32_disarm_drops_the_weapon_on_the_map():
    s = session([hero(), foe()], starts="ana")
    evs = step(s, "ana", "disarm", target="gob", rolls={"test": 9, "direction": 1})   # 9+3 vs 7+2: level 4
    d = one(evs, "disarmed")
    assert d["lands"] == [7, 2, 0] and d["cells"] == 4 and d["rule"] == "BAT-32"
    g = A(s, "gob")
    assert "axe" not in g.data["equipped"] and s.state.data["ground_items"][0]["name"] == "axe"
    s2 = session([hero(), foe()], starts="ana")
    assert not ev(step(s2, "ana", "disarm", target="gob", rolls={"test": 5}), "disarmed")   # 8 < 9


def test_picking_up_a_disarmed_weapon_is_a_minor_action():
    s = session([hero(), foe()], starts="ana")
    step(s, "ana", "disarm", target="gob", rolls={"test": 7, "direction": 1})      # level 2: 3 m east of gob
    assert s.state.data["ground_items"][0]["at"] == [5, 2, 0]
    step(s, "ana", "pass", to="gob")
    illegal(s, "gob", "pick_up", "BAT-05", item="axe")                               # two cells away
    step(s, "gob", "move", to=[4, 2, 0], careful=True)
    step(s, "gob", "pick_up", item="axe")
    assert A(s, "gob").data["equipped"][0] == "axe" and s.state.data["ground_items"] == []
    illegal(s, "gob", "equip", "BAT-05", weapon="unarmed")


def test_bat33_dash_after_all_the_movement():
    s = session([hero(), foe(at=(10, 10, 0))], starts="ana")
    illegal(s, "ana", "dash", "BAT-33")
    step(s, "ana", "move", to=[8, 2, 0])                                            # 9 m
    evs = step(s, "ana", "dash", rolls={"test": 8})                                 # 8 + 1 vs 8: level 2
    assert one(evs, "dash")["extra_m"] == 3.0
    step(s, "ana", "move", to=[10, 2, 0])
    illegal(s, "ana", "move", to=[11, 2, 0])


def test_bat34_grab_trip_push_and_break_free():
    s = session([hero(), foe()], starts="ana")
    evs = step(s, "ana", "grab", target="gob", rolls={"test": 7})                  # 7 + 2 vs 7 + 1
    assert one(evs, "test")["difficulty"] == 8
    g, a = A(s, "gob"), A(s, "ana")
    assert g.has("grappled") and a.has("grappling")
    assert g.has("overloaded") and a.has("overloaded")                             # equal sizes (BAT-54/55)
    step(s, "ana", "pass", to="gob")
    illegal(s, "gob", "move", "BAT-54", to=[6, 2, 0])
    evs = step(s, "gob", "break_free", rolls={"test": 9})                          # 9 + 1 vs 7 + 2
    assert not g.has("grappled") and not a.has("grappling") and not g.has("overloaded")
    s = session([hero(), foe()], starts="ana")
    step(s, "ana", "trip", target="gob", rolls={"test": 7})
    assert A(s, "gob").has("prone")
    s = session([hero(), foe()], starts="ana")
    evs = step(s, "ana", "push", target="gob", rolls={"test": 9})                  # level 4: 2 cells
    assert one(evs, "pushed")["cells"] == 2 and A(s, "gob").pos == (5, 2, 0)


def test_bat35_charge_gains_damage_scale_per_3_m_straight_and_exposes():
    s = session([hero(), foe(at=(7, 2, 0))], starts="ana")
    illegal(s, "ana", "charge", "BAT-35", target="gob")
    step(s, "ana", "move", to=[6, 2, 0])                                            # 4 cells = 6 m straight
    evs = step(s, "ana", "charge", target="gob", rolls={"test": 8, "damage": 11})
    h = one(evs, "hit")
    assert h["dice"] == "1d12" and h["scale_steps"] == 2 and h["damage"] == 13
    assert A(s, "ana").has("exposed")


def test_bat36_critical_damage_or_a_destiny_point():
    s = session([hero(), foe()], starts="ana")
    h = one(step(s, "ana", "attack", target="gob", rolls={"test": 12, "damage": 3}), "hit")
    assert h["critical_extra"] == 8 and h["damage"] == 3 + 8 + 2                    # Physique bonus counted once
    s = session([hero(), foe()], starts="ana")
    evs = step(s, "ana", "attack", target="gob", crit="destiny", rolls={"test": 12, "damage": 3})
    assert one(evs, "hit")["critical_extra"] == 0 and one(evs, "destiny")["points"] == 1
    s = session([hero(), foe()], starts="gob" if False else None)
    s = session([hero(surprised=True), foe()])
    h = one(step(s, "gob", "attack", target="ana", crit="destiny", rolls={"test": 12, "damage": 2}), "hit")
    assert h["critical_extra"] == 8                                                 # NPCs always apply it


def test_bat37_sneak_attacks():
    s = session([hero(), foe(conditions=["unaware"])], starts="ana")
    evs = step(s, "ana", "attack", target="gob", rolls={"test": [2, 7], "damage": 1})
    t = one(evs, "test")
    assert ["sneak attack: unaware target", "BAT-37"] in t["positive"] and t["kept"] == 7
    assert one(evs, "hit")["critical"] and one(evs, "hit")["critical_extra"] == 8
    s = session([hero(weapons=["shortbow"], skills={"fight_shortbow": 0}), foe(at=(8, 2, 0), conditions=["unaware"],
                 skills={"dodge": 4})], starts="ana")
    assert one(step(s, "ana", "attack", target="gob", rolls={"test": [3, 3], "damage": 1}), "attack")["difficulty"] == 7
    s = session([hero(), foe(conditions=["helpless"])], starts="ana", options={"helpless_test": "none"})
    evs = step(s, "ana", "attack", target="gob")
    h = one(evs, "hit")
    assert h["rolled"] == 8 and h["critical"] and h["damage"] == 8 + 8 + 2 and not ev(evs, "roll")


def test_bat37_a_helpless_target_is_always_hit_but_the_die_still_reads_for_the_baton():
    """BAT-37 "o ataque sempre acerta" with BAT-08: it is still a skill test, so the kept die decides the pass;
    the option helpless_test = "none" keeps the old reading (no die: the side loses the initiative, BAT-09)."""
    for die, kept in ((1, False), (4, True)):          # even a natural 1 hits; 4 is even: the side keeps it
        s = session([hero(), hero("bia", at=(2, 4, 0)), foe(conditions=["helpless"], attributes={"physique": 12})], starts="ana")
        evs = step(s, "ana", "attack", target="gob", rolls={"test": die})
        t = one(evs, "test")
        assert t["auto"] and t["success"] and t["critical"] and t["kept"] == die and t["rule"] == "BAT-37"
        h = one(evs, "hit")
        assert h["critical"] and h["damage"] == 8 + 8 + 2 and not ev(evs, "roll", name="damage")
        ids, k, rule = baton_order.pass_targets(s.ruleset, s, A(s, "ana"))
        assert k is kept and rule == ("BAT-08" if kept else "BAT-09")
        assert ids == (["bia"] if kept else ["gob"])
    old = session([hero(), hero("bia", at=(2, 4, 0)), foe(conditions=["helpless"], attributes={"physique": 12})], starts="ana",
                  options={"helpless_test": "none"})
    step(old, "ana", "attack", target="gob")
    assert baton_order.pass_targets(old.ruleset, old, A(old, "ana"))[1:] == (False, "BAT-09")


def test_bat37_a_helpless_target_takes_the_second_weapons_maximum_too():
    """BAT-37 "o ataque sempre acerta e causa o máximo de dano possível": with two weapons (BAT-43) the second
    weapon's damage is its maximum too, not rolled (and, as BAT-36 says, added once, outside the critical extra)."""
    s = session([hero(weapons=["longsword", "dagger"], equipped=["longsword", "dagger"]),
                 foe(conditions=["helpless"], attributes={"physique": 12})], starts="ana")
    evs = step(s, "ana", "attack", target="gob", rolls={"test": 4})
    h = one(evs, "hit")
    assert h["second_weapon"] == 4 and h["damage"] == 8 + 8 + 2 + 4 and not ev(evs, "roll", name="damage")


def test_bat38_leaving_reach_provokes_an_opportunity_attack():
    s = session([hero(), foe()], starts="ana")
    evs = step(s, "ana", "move", to=[0, 2, 0], rolls={"test": 9, "damage": 4})
    one(evs, "opportunity_attack", who="gob", target="ana")
    assert one(evs, "attack", who="gob")["counter"] is True
    assert A(s, "ana").pos == (0, 2, 0) and A(s, "ana").data["vigor"] == 10 - 5


def test_bat38_only_an_enemy_wielding_a_melee_weapon_makes_an_opportunity_attack():
    """BAT-38 "um inimigo que esteja empunhando uma arma corpo a corpo": bare hands after a disarm do not provoke
    (option unarmed_opportunity = true: they do); natural weapons (a harpy's talons) do."""
    def disarmed(**opts):
        s = session([hero(), foe()], starts="ana", options=opts or None)
        step(s, "ana", "disarm", target="gob", rolls={"test": 11, "direction": 1})
        step(s, "ana", "pass", to="gob")
        step(s, "gob", "pass", to="ana")
        assert A(s, "gob").data["equipped"] == []
        return s
    s = disarmed()
    assert not [a for a in s.legal_actions() if a["action"] == "move" and a.get("declined")]
    evs = step(s, "ana", "move", to=[0, 2, 0], rolls={"test": 3})
    assert not ev(evs, "opportunity_attack") and A(s, "ana").pos == (0, 2, 0)
    s = disarmed(unarmed_opportunity=True)
    one(step(s, "ana", "move", to=[0, 2, 0], rolls={"test": 3}), "opportunity_attack", who="gob")
    s = session([hero(), ch("har", "foes", (3, 2, 0), kind="harpy")], starts="ana")
    one(step(s, "ana", "move", to=[0, 2, 0], rolls={"test": 3}), "opportunity_attack", who="har")


def test_bat39_leaving_reach_at_half_movement_does_not_provoke():
    s = session([hero(), foe()], starts="ana")
    illegal(s, "ana", "move", to=[2, 6, 0], careful=True)                           # 6 m > 4.5 m
    evs = step(s, "ana", "move", to=[2, 5, 0], careful=True)
    assert not ev(evs, "opportunity_attack") and one(evs, "careful")["rule"] == "BAT-39"


def _wall(h):
    return [("stone", (6, 0, 0), (6, 11, h - 1))]


def test_bat40_partial_cover_is_a_negative_chance_for_ranged_attacks():
    bow = dict(weapons=["shortbow"], skills={"fight_shortbow": 2})
    s = session([hero(**bow), foe(at=(7, 2, 0))], fill=_wall(1), starts="ana")
    t = one(step(s, "ana", "attack", target="gob", rolls={"test": [8, 3]}), "test")
    assert ["partial cover", "BAT-40"] in t["negative"] and t["kept"] == 3


def test_bat41_total_cover_blocks_ranged_attacks_and_leaving_it_exposes():
    bow = dict(weapons=["shortbow"], skills={"fight_shortbow": 2})
    s = session([hero(**bow), foe(at=(7, 2, 0))], fill=_wall(4), starts="ana")
    illegal(s, "ana", "attack", "BAT-41", target="gob")
    s = session([hero(**bow, at=(2, 2, 0)), foe(at=(7, 2, 0), speed_m=12.0)], fill=[("stone", (6, 0, 0), (6, 6, 3))],
                starts="ana")
    step(s, "ana", "pass", to="gob")
    evs = step(s, "gob", "move", to=[7, 8, 0], rolls={"test": 9, "damage": 2})
    one(evs, "exposed_leaving_cover", who="gob", by="ana")
    assert one(evs, "attack", who="ana")["counter"] is True


def _rider():
    return [hero("kay", at=(2, 2, 0), mount="gri", skills={"fight_longsword": 3, "ride": 1}),
            ch("gri", "party", (2, 2, 0), kind="griffon", size="large"),
            foe(at=(4, 2, 0), skills={"fight_axe": 2, "dodge": 1})]


def test_bat42_mounted_combat():
    s = session(_rider(), starts="kay")
    k, g = A(s, "kay"), A(s, "gri")
    assert k.pos == g.pos and k.data["mounted_on"] == "gri"
    t = one(step(s, "kay", "attack", target="gob", rolls={"test": [2, 9], "damage": 1}), "test")
    assert ["mounted: elevated position", "BAT-42"] in t["positive"] and t["kept"] == 9
    illegal(s, "gri", "attack", "BAT-04", target="gob")                             # the mount uses the rider's major
    illegal(s, "kay", "move", "BAT-39", to=[2, 6, 0], careful=True)                 # on foot: 9 m, not its fly 15
    step(s, "kay", "move", to=[2, 5, 0], careful=True)                              # half the griffon's 9 m
    assert g.pos == (2, 5, 0) and k.pos == g.pos
    s = session(_rider(), starts="kay")
    step(s, "gri", "attack", target="gob", weapon="talons", rolls={"test": 3})      # the mount attacks
    illegal(s, "kay", "attack", "BAT-04", target="gob")
    s = session(_rider(), starts="kay")
    step(s, "kay", "pass", to="gob")
    a = one(step(s, "gob", "attack", target="kay", rolls={"test": [2, 2]}), "attack")
    assert a["difficulty"] == 7 + 0 + 2 and a["defence"].endswith("+mount")          # + the griffon's Defence
    s = session(_rider(), starts="kay")
    step(s, "kay", "pass", to="gob")
    evs = step(s, "gob", "attack", target="gri", rolls={"test": [10, 2], "damage": 5})   # 6 damage; Ride 2+1 < 13
    assert one(evs, "attack")["difficulty"] == 9 and one(evs, "attack")["defence"] == "dodge"   # its own Defence only
    one(evs, "thrown", who="kay")
    k = A(s, "kay")
    assert not k.data.get("mounted_on") and k.has("prone") and k.pos != A(s, "gri").pos


def test_bat47_a_rider_falling_with_its_flying_mount_takes_a_bat47_wound():
    """The rider took the same fall as its mount: the wound is BAT-47's (1 per 1.5 m, Agility halves it), and
    the event says so (it said AIR-12)."""
    s = session([hero("kay", at=(2, 2, 6), mount="gri", flying=True, skills={"fight_longsword": 3, "ride": 1}),
                 ch("gri", "party", (2, 2, 6), kind="griffon", size="large", flying=True),
                 foe(at=(8, 8, 0))], starts="kay")
    evs = step(s, "gm", "condition", target="gri", add="paralyzed", rolls={"agility": [2, 2]})
    f = one(evs, "fall", who="kay")
    assert f["cause"] == "its mount fell" and f["rule"] == "BAT-47" and f["damage_rule"] == "BAT-47"
    assert f["layers"] == 6 and f["damage"] == 4                                     # 6 m = 4 x 1.5 m, Agility failed
    k = A(s, "kay")
    assert [w["severity"] for w in k.data["wounds"]] == [4] and k.hp == k.max_hp - 4
    from engine.rules.runner import describe
    assert "AIR-12" not in describe(s, f)


def test_bat43_two_weapons():
    s = session([hero(weapons=["longsword", "dagger"], equipped=["longsword", "dagger"]), foe()], starts="ana")
    h = one(step(s, "ana", "attack", target="gob", rolls={"test": 8, "damage": [3, 4]}), "hit")
    assert h["second_weapon"] == 4 and h["damage"] == 3 + 2 + 4
    assert A(s, "ana").has("exposed")                                               # the longsword is medium
    s = session([hero(weapons=["dagger", "shortsword"], equipped=["shortsword", "dagger"], skills={"fight_shortsword": 2}),
                 foe()], starts="ana")
    step(s, "ana", "attack", target="gob", rolls={"test": 8, "damage": [3, 4]})
    assert not A(s, "ana").has("exposed")


def test_bat44_elevated_position_versus_air17():
    roof = [("stone", (2, 2, 0), (2, 2, 1))]
    chars = [hero(at=(2, 2, 2), weapons=["shortbow"], skills={"fight_shortbow": 2}), foe(at=(4, 2, 0))]
    s = session(chars, fill=roof, starts="ana")
    t = one(step(s, "ana", "attack", target="gob", rolls={"test": 5}), "test")
    assert t["positive"] == []                                                      # AIR-17 wins by default
    s = session(chars, fill=roof, starts="ana", options={"air17_overrides_elevation": False})
    t = one(step(s, "ana", "attack", target="gob", rolls={"test": [5, 6]}), "test")
    assert ["elevated position", "BAT-44"] in t["positive"]


def test_bat45_numerical_advantage():
    s = session([hero("ana"), hero("bea", at=(3, 3, 0)), foe(at=(3, 2, 0))], starts="ana")
    t = one(step(s, "ana", "attack", target="gob", rolls={"test": [1, 8]}), "test")
    assert ["numerical advantage", "BAT-45"] in t["positive"] and t["kept"] == 8
    s = session([hero("ana"), hero("bea", at=(8, 8, 0)), foe(at=(3, 2, 0))], starts="ana")
    assert one(step(s, "ana", "attack", target="gob", rolls={"test": 1}), "test")["positive"] == []


def test_bat46_difficult_terrain():
    fill = FLOOR + [("mud", (4, 2, 0), (5, 2, 0)), ("coals", (4, 5, 0), (5, 5, 0))]
    s = session([hero(at=(2, 2, 1)), foe(at=(10, 10, 1))], fill=fill, starts="ana")
    evs = step(s, "ana", "move", to=[7, 2, 1], rolls={"test": 2})                    # 2 slippery cells: vs 9
    assert one(evs, "test")["difficulty"] == 9
    assert A(s, "ana").pos == (4, 2, 1) and A(s, "ana").has("prone")                # stopped midway, prone
    s = session([hero(at=(2, 2, 1)), foe(at=(10, 10, 1))], fill=fill, starts="ana")
    evs = step(s, "ana", "move", to=[7, 2, 1], rolls={"test": 9})
    assert A(s, "ana").pos == (7, 2, 1) and not A(s, "ana").has("prone")
    s = session([hero(at=(2, 5, 1)), foe(at=(10, 10, 1))], fill=fill, starts="ana")
    evs = step(s, "ana", "move", to=[7, 5, 1], rolls={"test": 2})                    # dangerous: 1 per 1.5 m
    assert one(evs, "damage", who="ana")["amount"] == 2 and A(s, "ana").pos == (7, 5, 1)


def test_bat47_a_fall_is_a_wound_halved_by_agility():
    chars = [hero(weapons=["shortbow"], skills={"fight_shortbow": 3}), ch("har", "foes", (5, 2, 7), kind="harpy",
             flying=True)]
    s = session(chars, starts="ana")
    evs = step(s, "ana", "attack", target="har", rolls={"test": 8, "agility": 2, "damage": 1, "fall": 10})
    f = one(evs, "fall", who="har")
    assert f["layers"] == 7 and f["damage_rule"] == "BAT-47" and f["damage"] == 4      # 7 m / 1.5 = 4; failed
    assert A(s, "har").data["wounds"][-1]["severity"] == 4 and A(s, "har").has("prone")
    s = session(chars, starts="ana")
    evs = step(s, "ana", "attack", target="har", rolls={"test": 8, "agility": 9, "damage": 1, "fall": 10})
    assert one(evs, "fall", who="har")["damage"] == 2                                 # 9 + 3 vs 11: halved
    s = session(chars, starts="ana", options={"air12_vs_bat47": "air12"})
    evs = step(s, "ana", "attack", target="har", rolls={"test": 8, "damage": 1, "fall": 10})
    f = one(evs, "fall", who="har")
    assert f["damage_rule"] == "AIR-12" and f["percent"] == 30 and f["damage"] == 2   # 30% of 8


def test_bat48_falling_attack():
    s = session([hero(surprised=True), ch("har", "foes", (3, 2, 4), kind="harpy", flying=True)])
    assert s.current == "har"
    evs = step(s, "har", "drop", attack="ana", rolls={"test": 9, "damage": 7})        # 4 layers: +2 steps, severity 2
    h = one(evs, "hit")
    assert h["dice"] == "1d10" and h["scale_steps"] == 2
    assert one(evs, "fall_halved")["severity"] == 1                                  # 9 + 3 >= 7 + 2
    assert A(s, "har").layer == 0 and A(s, "har").data["wounds"][-1]["severity"] == 1


def test_air12_a_deliberate_drop_that_reaches_the_ground_leaves_the_flyer_prone():
    """AIR-12 "quem chega ao chão caindo ... fica Caído": a drop (BAT-47), with or without a falling attack
    (BAT-48), is a fall to the ground like any other; option drop_prone = false lands it on its feet."""
    def harpy():
        return [ch("har", "party", (2, 2, 5), kind="harpy", flying=True, pc=True), foe(at=(3, 2, 0))]
    s = session(harpy(), starts="har")
    evs = step(s, "har", "drop", rolls={"test": 2})
    assert one(evs, "condition", who="har", condition="prone")["rule"] == "AIR-12"
    assert A(s, "har").layer == 0 and not A(s, "har").flying and A(s, "har").has("prone")
    s = session(harpy(), starts="har")
    evs = step(s, "har", "drop", attack="gob", rolls={"test": 3, "damage": 2})
    assert ev(evs, "attack", who="har") and A(s, "har").has("prone")
    s = session(harpy(), starts="har", options={"drop_prone": False})
    step(s, "har", "drop", rolls={"test": 2})
    assert A(s, "har").layer == 0 and not A(s, "har").has("prone")


def test_bat49_breath():
    s = session([hero(), foe()], starts="ana")
    evs = step(s, "gm", "breath", target="ana", minutes=2)
    assert not ev(evs, "damage")
    evs = step(s, "gm", "breath", target="ana", minutes=2, rolls={"breath": [3, 4]})
    assert [e["amount"] for e in ev(evs, "damage")] == [3, 4] and A(s, "ana").data["vigor"] == 3


def test_bat50_fire_worsens_every_turn_in_contact():
    s = session([hero(), foe()], starts="ana")
    step(s, "gm", "fire", target="gob", source="torch")
    w = A(s, "gob").data["wounds"][0]
    assert w["severity"] == 1 and w["type"] == "fire"
    step(s, "ana", "pass", to="gob")
    assert A(s, "gob").data["wounds"][0]["severity"] == 2
    step(s, "gob", "extinguish")
    step(s, "gob", "pass", to="ana")
    step(s, "ana", "pass", to="gob")
    assert A(s, "gob").data["wounds"][0]["severity"] == 2
    s = session([hero(), foe()], starts="ana", options={"fire_sources": {"brazier": [3, 2]}})
    step(s, "gm", "fire", target="gob", source="brazier")
    assert A(s, "gob").data["wounds"][0]["severity"] == 3


def test_bat51_necrotic_damage_is_direct_and_heals_only_by_magic():
    s = session([hero(armour=["mail"], items={"potion_healing": 1}, attributes={"physique": 4})],
                options={"after_combat": "continue"})
    evs = step(s, "gm", "damage", target="ana", amount=3, type="necrotic")
    d = one(evs, "damage")
    assert d["protection_absorbed"] == 0 and d["vigor_absorbed"] == 0 and d["wound"] == 3
    illegal(s, "ana", "rest", "BAT-51", kind="long", wound=1)
    illegal(s, "ana", "treat", "BAT-51", target="ana", wound=1)
    step(s, "ana", "drink", potion="healing", rolls={"heal": 3})
    assert A(s, "ana").data["wounds"] == []


def test_bat52_divine_damage_is_always_critical_against_undead():
    holy = {"name": "holy_mace", "damage": "1d6", "size": "small", "type": "divine"}
    s = session([hero(weapons=[holy], skills={"fight_holy_mace": 3}), ch("sk", "foes", (3, 2, 0), kind="skeleton")],
                starts="ana")
    h = one(step(s, "ana", "attack", target="sk", rolls={"test": 9, "damage": 2}), "hit")
    assert h["critical"] and h["critical_extra"] == 6
    s = session([hero(weapons=[holy], skills={"fight_holy_mace": 3}), foe()], starts="ana")
    assert not one(step(s, "ana", "attack", target="gob", rolls={"test": 9, "damage": 2}), "hit")["critical"]


def test_bat52_divine_damage_on_undead_keeps_the_extra_damage_on_a_natural_12():
    """BAT-52 "Dano divino é sempre considerado um dano crítico contra mortos-vivos": the critical damage always
    applies, so a PC's natural 12 cannot trade it for a Destiny point (BAT-36's choice is not offered)."""
    holy = {"name": "holy_mace", "damage": "1d6", "size": "small", "type": "divine"}
    s = session([hero(weapons=[holy], skills={"fight_holy_mace": 3}),
                 foe("sk", undead=True, protection=0, attributes={"physique": 4})], starts="ana")
    assert not [a for a in s.legal_actions() if a["action"] == "attack" and a.get("crit") == "destiny"]
    assert "crit" not in s.preview({"actor": "ana", "action": "attack", "target": "sk"}).get("choices", {})
    evs = step(s, "ana", "attack", target="sk", crit="destiny", rolls={"test": 12, "damage": 3})
    h = one(evs, "hit")
    assert h["critical"] and h["critical_extra"] == 6 and h["damage"] == 9
    assert not ev(evs, "destiny") and s.state.data["destiny"]["party"] == 0


def test_bat53_a_hallucinating_character_has_a_negative_chance_to_discern_reality():
    """BAT-53 hallucinogenic, partial effect: "Tem uma chance negativa em qualquer teste relacionado a discernir a
    realidade por 1d3 horas" -- a perception test; not an intimidation (option hallucination_tests = "all": any)."""
    def tested(skill, **opts):
        s = session([hero(), foe()], starts="ana", options=opts or None)
        step(s, "gm", "poison", target="ana", kind="hallucinogenic", potency=1, rolls={"test": 12, "poison_hours": 2})
        assert A(s, "ana").has("hallucinating") and not A(s, "ana").has("confused")
        evs = step(s, "ana", "create_opportunity", skill=skill, target="gob", rolls={"test": [8, 8]})
        return one(evs, "test")["negative"]
    assert ["hallucinating", "BAT-53"] in tested("perception")
    assert ["hallucinating", "BAT-53"] not in tested("intimidate")
    assert ["hallucinating", "BAT-53"] in tested("intimidate", hallucination_tests="all")


def test_bat53_poisons():
    s = session([hero(), foe()], starts="ana")
    evs = step(s, "gm", "poison", target="ana", kind="caustic", potency=2, rolls={"test": 3, "poison": [3, 3]})
    assert one(evs, "poisoned")["effect"] == "total" and one(evs, "damage")["wound"] == 6     # 2d6, direct
    evs = step(s, "gm", "poison", target="gob", kind="caustic", potency=2, rolls={"test": 9, "poison": [2, 2]})
    assert one(evs, "damage")["amount"] == 4                                              # 2d3 partial
    s = session([hero(), foe()], starts="ana")
    step(s, "gm", "poison", target="gob", kind="neurotoxic", potency=1, rolls={"test": 2})
    assert A(s, "gob").has("paralyzed")
    evs = step(s, "ana", "pass", to="gob", rolls={"poison": 2})
    assert one(evs, "damage", who="gob")["damage_type"] == "fatigue"
    illegal(s, "gob", "move", "BAT-61", to=[5, 5, 0])
    step(s, "gob", "resist_poison", rolls={"test": 9})
    assert not A(s, "gob").has("paralyzed")
    s = session([hero(), foe()], starts="ana")
    step(s, "gm", "poison", target="gob", kind="neurotoxic", potency=1, rolls={"test": 9})
    assert A(s, "gob").has("slow")
    s = session([hero(), foe()], starts="ana")
    evs = step(s, "gm", "poison", target="gob", kind="inoculant", potency=1, rolls={"test": 2, "poison": 4})
    assert one(evs, "damage")["amount"] == 4
    evs = step(s, "ana", "pass", to="gob", rolls={"poison": 3})
    assert one(evs, "damage", who="gob")["amount"] == 3
    s = session([hero(), foe()], starts="ana")
    step(s, "gm", "poison", target="gob", kind="hallucinogenic", potency=1, rolls={"test": 2, "poison_hours": 2})
    assert A(s, "gob").has("hallucinating") and A(s, "gob").has("confused")
    s = session([hero(attributes={"physique": 4})], options={"after_combat": "continue"})
    step(s, "gm", "poison", target="ana", kind="latent", potency=1, rolls={"test": 2, "poison_hours": 3})
    assert A(s, "ana").data["wounds"] == []
    step(s, "gm", "wait", hours=2)
    assert A(s, "ana").data["wounds"] == []
    evs = step(s, "gm", "wait", hours=1, rolls={"poison": [5, 5]})
    assert A(s, "ana").data["wounds"][0]["severity"] == 10


def test_bat42_a_rider_tripped_is_off_its_mount():
    s = session(_rider(), starts="kay")
    step(s, "kay", "pass", to="gob")
    evs = step(s, "gob", "trip", target="kay", rolls={"test": 11})
    one(evs, "thrown", who="kay")
    k = A(s, "kay")
    assert k.has("prone") and not k.data["mounted_on"] and not A(s, "gri").data["rider"]
