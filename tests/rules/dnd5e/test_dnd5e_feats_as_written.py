"""Issue 24, "Wrong today": the 5e feats read clause by clause against ``004_...`` (DND-F00..F42, DND-34).

Every test writes a scene with a script and forced dice and plays it through ``aerie run --json`` (the CLI's own
path: scene load, the script's steps, the event log), then reads the events it printed."""

from __future__ import annotations

import json

import pytest

from engine.cli import main
from rules_helpers import _toml, scene_text

pytestmark = pytest.mark.unit


def run(tmp_path, capsys, chars, script, options=None, fill=(), size=(12, 12, 6)):
    """``aerie run SCENE --json`` on a scene written from ``chars`` and ``script``: (exit code, events, stderr)."""
    extra = "".join("[[script]]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in st.items()) for st in script)
    p = tmp_path / "scene.toml"
    p.write_text(scene_text(chars, size=size, fill=fill, options=options, extra=extra))
    capsys.readouterr()
    rc = main(["run", str(p), "--json"])
    cap = capsys.readouterr()
    events = [json.loads(ln) for ln in cap.out.splitlines() if ln.startswith("{")]
    return rc, events, cap.err


def finds(events, type_, **fields):
    return [e for e in events if e["type"] == type_ and all(e.get(k) == v for k, v in fields.items())]


def rolls(events, name):
    return [e for e in events if e["type"] == "roll" and e.get("name") == name]


def ok(res):
    rc, events, err = res
    assert rc == 0, err
    return events


def knight(i="k", side="r", at=(5, 5, 0), **kw):
    return {"id": i, "kind": "knight", "side": side, "at": list(at)} | kw


def guard(i="g", side="b", at=(6, 5, 0), **kw):
    return {"id": i, "kind": "guard", "side": side, "at": list(at)} | kw


# DND-F15 Polearm Master, l. 148-149 ---------------------------------------------------------------------------------
def test_dnd_f15_butt_end_not_for_the_pike(tmp_path, capsys):
    """The bonus attack names quarterstaff, glaive, halberd and spear; the pike is only in the reach clause."""
    swing = {"actor": "k", "action": "attack", "target": "g", "rolls": {"attack": 2}}
    butt = {"actor": "k", "action": "attack", "target": "g", "bonus": True, "bonus_from": "polearm_master",
            "rolls": {"attack": 15, "damage": 3}}
    for weapon, legal in (("glaive", True), ("pike", False)):
        rc, events, err = run(tmp_path, capsys, [knight(weapons=[weapon], feats=["polearm_master"]), guard(at=(7, 5, 0))],
                              [{**swing, "weapon": weapon}, {**butt, "weapon": weapon}])
        if legal:
            assert rc == 0, err
            e = finds(events, "attack", kind="bonus")[0]
            assert e["bonus_from"] == "polearm_master" and e["weapon"] == "glaive"
        else:
            assert rc == 2 and "script[1]" in err and "DND-F15" in err, err


# DND-F00 prerequisites: the document's "Wymagania" lines only ----------------------------------------------------------
@pytest.mark.parametrize("feat,sheet", [("skulker", {"abilities": {"dex": 10}}), ("grappler", {"abilities": {"str": 10}}),
                                        ("war_caster", {})])
def test_dnd_f00_prerequisites_are_the_documents(tmp_path, capsys, feat, sheet):
    """Skulker, Grappler and War Caster have no "Wymagania" in 004_; the rulebook's are option
    feat_prerequisites = "rulebook"."""
    ch = knight(weapons=["longsword"], feats=[feat], **sheet)
    end = [{"actor": "k", "action": "end_turn"}]
    events = ok(run(tmp_path, capsys, [ch, guard(at=(9, 9, 0))], end))
    assert finds(events, "state")[-1]["characters"]["k"]["feats"] == [feat]
    rc, _, err = run(tmp_path, capsys, [ch, guard(at=(9, 9, 0))], end, options={"feat_prerequisites": "rulebook"})
    assert rc == 2 and "characters[0].feats[0]" in err and "DND-F00" in err, err


def test_dnd_f00_grappler_without_str_13_pins(tmp_path, capsys):
    """Grappler is usable (not only loaded) without Str 13: the pin is an action."""
    chars = [knight(weapons=["unarmed"], feats=["grappler"], abilities={"str": 10}, skills={"athletics": 1}),
             guard()]
    script = [{"actor": "k", "action": "grapple", "target": "g", "rolls": {"check": 18, "contest": 2}},
              {"actor": "k", "action": "end_turn"}, {"actor": "g", "action": "end_turn"},
              {"actor": "k", "action": "grapple", "target": "g", "pin": True, "rolls": {"check": 18, "contest": 2}}]
    rc, events, err = run(tmp_path, capsys, chars, script)
    assert rc == 0, err
    assert finds(events, "feat", feat="grappler", rule="DND-F41")


# DND-F02 Elemental Adept, l. 66-71 -------------------------------------------------------------------------------------
def mage(i="m", at=(5, 5, 0), **kw):
    return {"id": i, "kind": "mage", "side": "r", "at": list(at)} | kw


def test_dnd_f02_elemental_adept_taken_twice_two_elements(tmp_path, capsys):
    """ "Można wybrać wielokrotnie, za każdym razem trzeba wybrać inny typ obrażeń": taken twice, fire and cold
    each ignore resistance; the same element twice, or a count that does not match, is refused."""
    m = mage(spells=["fire_bolt", "ray_of_frost"], feats=["elemental_adept", "elemental_adept"],
             feat_choices={"elemental_adept": ["fire", "cold"]})
    t = guard("t", at=(8, 5, 0), resistances=["fire", "cold"], max_hp=90)
    script = [{"actor": "m", "action": "cast", "spell": "fire_bolt", "target": "t", "rolls": {"attack": 18, "damage": 7}},
              {"actor": "m", "action": "end_turn"}, {"actor": "t", "action": "end_turn"},
              {"actor": "m", "action": "cast", "spell": "ray_of_frost", "target": "t", "rolls": {"attack": 18, "damage": 1}}]
    events = ok(run(tmp_path, capsys, [m, t], script))
    dmg = finds(events, "damage", who="t")
    assert [d["amount"] for d in dmg] == [14, 4]          # 2d10 fire unhalved; 2d8 cold of 1s read as 2s, unhalved
    rows = finds(events, "state")[-1]["characters"]["m"]["feats"]
    assert rows == ["elemental_adept", "elemental_adept"]
    for bad, word in ((["fire", "fire"], "different"), (["fire"], "2 times"), ("fire", "2 times")):
        rc, _, err = run(tmp_path, capsys, [{**m, "feat_choices": {"elemental_adept": bad}}, t], script[:1])
        assert rc == 2 and "characters[0].feat_choices.elemental_adept" in err and word in err, err


def test_dnd_f02_elemental_adept_ones_on_spells_and_the_any_damage_option(tmp_path, capsys):
    """l. 70 "kiedy zadajesz obrażenia wybranego przez ciebie typu" names no spell: the default keeps the 1s rule to
    its spells (the sentence follows "Rzucane przez ciebie zaklęcia" and the rulebook's reads "for a spell");
    elemental_adept_ones = "any_damage" applies it to a fire weapon too."""
    blade = {"name": "flame_blade", "damage": "2d6", "type": "fire", "properties": []}
    k = knight(weapons=[blade], spells=["fire_bolt"], feats=["elemental_adept"])
    script = [{"actor": "k", "action": "attack", "target": "g", "weapon": "flame_blade",
               "rolls": {"attack": 18, "damage": [1, 1]}}]
    for opt, amount in ((None, 2 + 3), ("any_damage", 4 + 3)):
        events = ok(run(tmp_path, capsys, [k, guard(max_hp=40)], script,
                        options={"elemental_adept_ones": opt} if opt else None))
        assert finds(events, "damage", who="g")[0]["amount"] == amount


# DND-F24 Dual Wielder, l. 203 -------------------------------------------------------------------------------------------
def test_dnd_f24_dual_wielder_fights_with_non_light_one_handed_weapons(tmp_path, capsys):
    """ "możesz walczyć dwiema broniami nawet wtedy gdy używasz jednoręcznych broni, które nie są lekkie": a
    longsword, then the off-hand rapier; without the feat DND-29 refuses it; a two-handed weapon stays refused."""
    script = [{"actor": "k", "action": "attack", "target": "g", "weapon": "longsword", "rolls": {"attack": 3}},
              {"actor": "k", "action": "attack", "target": "g", "weapon": "rapier", "bonus": True,
               "rolls": {"attack": 17, "damage": 5}}]
    events = ok(run(tmp_path, capsys, [knight(weapons=["longsword", "rapier"], feats=["dual_wielder"]),
                                       guard(max_hp=30)], script))
    off = finds(events, "attack", kind="bonus", weapon="rapier")[0]
    assert off["hit"] and finds(events, "damage", who="g")[0]["amount"] == 5     # no ability modifier (DND-29)
    rc, _, err = run(tmp_path, capsys, [knight(weapons=["longsword", "rapier"]), guard()], script)
    assert rc == 2 and "DND-29" in err, err
    two = [{**script[0], "weapon": "greatsword"}, {**script[1], "weapon": "longsword"}]
    rc, _, err = run(tmp_path, capsys, [knight(weapons=["greatsword", "longsword"], feats=["dual_wielder"]), guard()], two)
    assert rc == 2 and "DND-29" in err, err


def test_dnd_f24_dual_wielder_ac_needs_a_one_handed_melee_weapon_in_each_hand():
    """l. 202 "dostajesz premię +1 do KP, jeśli dzierżysz po jednej broni białej w każdej ręce": a greatsword takes
    both hands and an unarmed strike is no weapon held, so neither is the second weapon; two longswords are."""
    from rules_helpers import make

    def ac(weapons):
        return make([knight(weapons=weapons, feats=["dual_wielder"], ac=16), guard()]).state.actors["k"].data["ac"]
    assert ac(["longsword", "rapier"]) == 17
    assert ac(["greatsword", "longsword"]) == 16
    assert ac(["longsword", "unarmed"]) == 16
    assert ac(["greatsword", "maul"]) == 16


# DND-F36 Healer, l. 273-274 ---------------------------------------------------------------------------------------------------
def test_dnd_f36_stabilising_with_the_kit_spends_a_use():
    """l. 273 "Gdy wykorzystujesz torbę lekarską aby ustabilizować umierającą istotę, to przywracasz jej dodatkowo 1 PW";
    l. 274 "jedno użycie torby lekarskiej": one kit is one use; stabilising with it spends it as tending does, so a
    Healer with one kit stabilises one dying ally with 1 HP, the next with Medicine alone."""
    from rules_helpers import find, make, step
    s = make([knight("h", feats=["healer"], items=["healers_kit"]), knight("d", at=(6, 5, 0), hp=0, pc=True),
              knight("e", at=(4, 5, 0), hp=0, pc=True), guard(at=(11, 11, 0))])
    evs = step(s, "h", "stabilize", target="d", rolls={"check": 15})
    assert find(evs, "stabilize")["healers_kit"] and s.state.actors["d"].hp == 1
    assert s.state.actors["h"].data["items"] == []
    s.state.turn["action"] = False                       # a later turn's action
    evs = step(s, "h", "stabilize", target="e", rolls={"check": 15})
    assert "healers_kit" not in find(evs, "stabilize") and s.state.actors["e"].hp == 0
    assert s.state.actors["e"].data["stable"]


# DND-F37 Sentinel, l. 280 ------------------------------------------------------------------------------------------------
def test_dnd_f37_sentinel_answers_a_spell_attack_on_someone_else():
    """l. 280 "kiedy przeciwnik, w promieniu 1,5 m od ciebie, który wykonuje atak w inny cel jak ty ... możesz
    wykorzystać reakcję by wykonać atak bronią wręcz przeciwko atakującemu": a Fire Bolt at an ally is an attack
    (l. 395 "test ataku dystansowego (za pomocą broni lub czaru)"), so the Sentinel beside the mage strikes it."""
    from rules_helpers import find, make, step
    mage = {"id": "m", "kind": "mage", "side": "b", "at": [5, 4, 0], "spells": ["fire_bolt"]}
    s = make([mage, knight("k", at=(5, 5, 0), feats=["sentinel"]), knight("ally", at=(5, 0, 0))])
    evs = step(s, "m", "cast", spell="fire_bolt", target="ally", rolls={"attack": [2, 2], "damage": 3})
    assert find(evs, "reaction", who="k", feat="sentinel", target="m")
    assert find(evs, "attack", who="k", target="m", kind="reaction")


# DND-F12 Mounted Combatant, l. 131 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("option", [None, "melee"])
def test_dnd_f12_mounted_combatant_advantage_on_any_attack_roll(option):
    """l. 131 "masz ułatwienie w testach ataku przeciwko niedosiadającym wierzchowca wrogom mniejszym od twojego
    wierzchowca": attack rolls, a ranged one too (a rider's longbow); option ``mounted_combatant_attack = "melee"``:
    the rulebook's melee attack rolls only."""
    from rules_helpers import find, make, step
    rider = {"id": "r", "kind": "wyvern_rider", "side": "b", "at": [4, 4, 0], "feats": ["mounted_combatant"],
             "weapons": ["longbow"]}
    mount = {"id": "w", "kind": "griffon", "size": "large", "side": "b", "at": [5, 4, 0], "controlled_mount": True}
    s = make([rider, mount, guard("e", side="r", at=(10, 4, 0), max_hp=90)],
             options={"mounted_combatant_attack": option} if option else None)
    step(s, "r", "mount", target="w")
    att = find(step(s, "r", "attack", target="e", weapon="longbow", rolls={"attack": [3, 15], "damage": 1}), "attack")
    assert att["melee"] is False
    assert any("Mounted Combatant" in x for x in att["advantage"]) == (option is None)


# DND-F21 Defensive Duelist, l. 185 ------------------------------------------------------------------------------------------
def test_dnd_f21_defensive_duelist_against_an_unseen_attacker_one_handed_finesse_only():
    """l. 185 "Kiedy trzymasz jednoręczną broń finezyjną, w której używaniu masz biegłość, a twój przeciwnik trafia
    cię atakiem wręcz, możesz w ramach reakcji dodać swoją premię z biegłości do KP": no sight asked, so an
    invisible attacker's hit is turned too; a two-handed finesse weapon (a custom table) is not one-handed."""
    from rules_helpers import find, make, step
    duelist = {"id": "d", "kind": "rogue", "side": "b", "at": [6, 5, 0], "feats": ["defensive_duelist"]}
    s = make([knight("f", weapons=["longsword"], invisible=True), duelist])
    att = find(step(s, "f", "attack", target="d", rolls={"attack": [10, 10]}), "attack")   # 10 + 6 = 16 >= AC 15
    assert not att["hit"] and find(s.events, "reaction", feat="defensive_duelist")
    glaive = {"name": "elven_glaive", "damage": "1d10", "type": "slashing", "properties": ["finesse", "two-handed"]}
    s = make([knight("f", weapons=["longsword"]), {**duelist, "weapons": [glaive]}])
    att = find(step(s, "f", "attack", target="d", rolls={"attack": 10, "damage": 1}), "attack")
    assert att["hit"] and not find(s.events, "reaction", feat="defensive_duelist")


# DND-F10 Alert, l. 121 ----------------------------------------------------------------------------------------------------
def test_dnd_f10_alert_unseen_attacker_gains_no_advantage(tmp_path, capsys):
    """ "twoi przeciwnicy nie otrzymują ułatwienia w testach ataku gdy ich nie widzisz": an invisible attacker
    rolls one d20 against an Alert knight; the event names Alert only when it changed the roll."""
    script = [{"actor": "g", "action": "attack", "target": "k", "rolls": {"attack": [4, 19]}}]
    chars = [guard(side="b", at=(6, 5, 0), invisible=True, initiative=30), knight(feats=["alert"], initiative=10)]
    events = ok(run(tmp_path, capsys, chars, script))
    att = finds(events, "attack", who="g")[0]
    assert att["advantage"] == [] and att["roll"] == 4 and len(rolls(events, "attack")) == 1
    assert att["feats"] == ["alert"] and "DND-F10" in att["rules"]
    # prone within 1.5 m: the advantage stays, Alert changed nothing and is not named
    chars[1] = knight(feats=["alert"], initiative=10, conditions=["prone"])
    att = finds(ok(run(tmp_path, capsys, chars, script)), "attack", who="g")[0]
    assert att["advantage"] == ["the target is prone, attacker within 1.5 m"] and att["roll"] == 19
    assert "feats" not in att and "DND-F10" not in att["rules"]


# DND-F26 Inspiring Leader, l. 214 -------------------------------------------------------------------------------------------
def test_dnd_f26_inspiring_leader_heard_through_a_wall(tmp_path, capsys):
    """ "mogących cię widzieć lub słyszeć": behind a tall wall 4.5 m away the ally hears the speech; a deafened
    ally behind it does not, a deafened one in sight does; beyond 9 m nobody."""
    wall = [("stone", (6, 2, 0), (6, 8, 3))]
    chars = [knight("l", feats=["inspiring_leader"], abilities={"cha": 15}),
             knight("behind", at=(8, 5, 0)), knight("deaf_behind", at=(8, 6, 0), conditions=["deafened"]),
             knight("deaf_seen", at=(5, 7, 0), conditions=["deafened"]), knight("far", at=(5, 12, 0)),
             guard(at=(11, 16, 0))]
    events = ok(run(tmp_path, capsys, chars, [{"actor": "gm", "action": "inspire", "target": "l"}], fill=wall,
                    size=(12, 18, 6)))
    assert finds(events, "feat", feat="inspiring_leader")[0]["inspired"] == ["l", "behind", "deaf_seen"]


# DND-F37 Sentinel, l. 280 -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("option", [None, "attacker"])
def test_dnd_f37_sentinel_exempt_reading(tmp_path, capsys, option):
    """ "kiedy przeciwnik ... wykonuje atak w inny cel jak ty (i nie mający atutu wartownik)": by default the
    attacked target with Sentinel gives the Sentinel beside the attacker no reaction (the rulebook's sentence);
    with sentinel_exempt = "attacker" an attacker with Sentinel is the one exempt."""
    def reacted(attacker_feats, target_feats):
        chars = [guard("g", at=(5, 4, 0), feats=attacker_feats, initiative=30), knight("k", feats=["sentinel"]),
                 knight("ally", at=(4, 4, 0), feats=target_feats)]
        events = ok(run(tmp_path, capsys, chars, [{"actor": "g", "action": "attack", "target": "ally",
                                                   "rolls": {"attack": 2}}],
                        options={"sentinel_exempt": option} if option else None))
        return bool(finds(events, "reaction", who="k", feat="sentinel"))
    assert reacted([], [])
    assert reacted(["sentinel"], []) is (option != "attacker")
    assert reacted([], ["sentinel"]) is (option == "attacker")


# DND-34 Knocking out, l. 441 ----------------------------------------------------------------------------------------------
def test_dnd34_knock_out_with_any_attack_and_the_melee_option(tmp_path, capsys):
    """ "Jeśli zadałeś obrażenia istocie i jej PW zostało zredukowane do 0 to możesz podjąć decyzję, że zamiast
    zabijać to ogłuszasz cel": no word of melee; a crossbow bolt knocks out. knock_out = "melee": the rulebook's."""
    script = [{"actor": "k", "action": "attack", "target": "g", "weapon": "heavy_crossbow", "knock_out": True,
               "rolls": {"attack": 19, "damage": 8}}]
    chars = [knight(weapons=["heavy_crossbow"]), guard(at=(5, 9, 0), hp=3)]
    events = ok(run(tmp_path, capsys, chars, script))
    g = finds(events, "state")[-1]["characters"]["g"]
    assert g["hp"] == 0 and "unconscious" in g["conditions"] and not finds(events, "death", who="g")
    assert finds(events, "condition", who="g", condition="unconscious", rule="DND-34")
    rc, _, err = run(tmp_path, capsys, chars, script, options={"knock_out": "melee"})
    assert rc == 2 and "DND-34" in err and "script[0].knock_out" in err, err


# DND-F20 Shield Master, l. 178-179 ------------------------------------------------------------------------------------------
def test_dnd_f20_shield_master_scopes(tmp_path, capsys):
    """l. 178: the shield's +2 to a Dex save "przeciwko zaklęciu lub innemu efektowi, którego celem jesteś tylko ty":
    a trap aimed at it gets it, a fireball that also catches an ally does not. l. 179 "jeśli jesteś celem zaklęcia,
    które pozwala na rzuty obronne na zręczność by otrzymać połowę obrażeń": the reaction's no damage on a
    successful save works inside the fireball too."""
    chars = [mage(at=(1, 1, 0), spells=["fireball"], initiative=30), knight("k", side="b", at=(7, 5, 0), feats=["shield_master"]),
             knight("ally", side="b", at=(9, 5, 0))]
    boom = {"actor": "m", "action": "cast", "spell": "fireball", "at": [8, 5, 0], "rolls": {"damage": [3] * 8}}
    events = ok(run(tmp_path, capsys, chars, [{**boom, "rolls": {**boom["rolls"], "save": 13}}]))
    sv = finds(events, "save", who="k")[0]
    assert sv["dc"] == 14 and sv["total"] == 13 and not sv["success"]          # no +2: not the only target
    events = ok(run(tmp_path, capsys, chars, [{**boom, "rolls": {**boom["rolls"], "save": 18}}]))
    assert finds(events, "reaction", who="k", feat="shield_master", rule="DND-F20")
    assert not finds(events, "damage", who="k") and finds(events, "damage", who="ally")[0]["amount"] == 12
    trap = {"actor": "gm", "action": "trap", "target": "k", "save": "dex", "dc": 15, "damage": "2d10", "type": "piercing",
            "half": False, "rolls": {"save": 13, "trap": [5, 5]}}
    events = ok(run(tmp_path, capsys, chars, [trap]))
    sv = finds(events, "save", who="k")[0]
    assert sv["total"] == 15 and sv["success"] and not finds(events, "damage", who="k")


# DND-F32 Lucky, l. 250-253 --------------------------------------------------------------------------------------------------
def _luck(events, who):
    return finds(events, "state")[-1]["characters"][who]["data"]["luck"]


def test_dnd_f32_luck_cancels(tmp_path, capsys):
    """l. 253 "punkty szczęścia wydaje więcej jak jedna istota to ich działanie wzajemnie się znosi i nie wykonuje
    się dodatkowych rzutów": the archer spends a point on its roll of 18 (a hit), the knight spends one against it:
    both points gone, no luck die rolled (the knight's own d20 neither), the 18 stands."""
    chars = [{"id": "a", "kind": "archer", "side": "r", "at": [1, 5, 0], "feats": ["lucky"]},
             knight("k", side="b", at=(9, 5, 0), feats=["lucky"])]
    shot = {"actor": "a", "action": "attack", "target": "k", "weapon": "longbow", "lucky": True,
            "rolls": {"attack": 18, "luck": 2, "damage": 4}}
    events = ok(run(tmp_path, capsys, chars, [{**shot, "reactions": {"k": {"lucky": True}}}]))
    att = finds(events, "attack", who="a")[0]
    assert rolls(events, "luck") == [] and att["roll"] == 18 and att["hit"] and att["luck_cancelled_by"] == "k"
    assert finds(events, "feat", who="k", feat="lucky", cancels="a", rule="DND-F32")
    assert _luck(events, "a") == 2 and _luck(events, "k") == 2
    # the knight keeps its point (its default): the archer's luck die is rolled, and no second luck on that roll
    events = ok(run(tmp_path, capsys, chars, [{**shot, "rolls": {"attack": 3, "luck": 19, "damage": 4}}]))
    att = finds(events, "attack", who="a")[0]
    assert [r["result"] for r in rolls(events, "luck")] == [19] and att["roll"] == 19 and "luck_cancelled_by" not in att
    assert _luck(events, "a") == 2 and _luck(events, "k") == 3


def test_dnd_f32_lucky_on_ability_checks(tmp_path, capsys):
    """l. 250 "Ilekroć wykonujesz test ataku, cechy lub rzut obronny": a grapple's Athletics check (the grappler's)
    and the target's contest roll, and a Stealth check to hide, each take one more d20, the higher kept."""
    chars = [knight("k", feats=["lucky"], weapons=["unarmed"]), guard(feats=["lucky"])]
    grab = {"actor": "k", "action": "grapple", "target": "g", "reactions": {"k": {"lucky": True}, "g": {"lucky": True}},
            "rolls": {"check": 2, "contest": 3, "luck": [17, 20]}}
    events = ok(run(tmp_path, capsys, chars, [grab]))
    lucky = finds(events, "feat", feat="lucky", rule="DND-F32")
    assert [(e["who"], e["check_roll"], e["luck"], e["kept"]) for e in lucky] == [("k", 2, 17, 17), ("g", 3, 20, 20)]
    c = finds(events, "contest")[0]
    assert c["attacker_total"] == 17 + 3 + 3 and c["defender_total"] == 20 + 1 and c["success"]
    assert _luck(events, "k") == 2 and _luck(events, "g") == 2
    # declined (the default): no luck die
    events = ok(run(tmp_path, capsys, chars, [{**grab, "reactions": {}}]))
    assert rolls(events, "luck") == [] and _luck(events, "k") == 3
    # Hide (DND-23): a Stealth check
    hide = [{"actor": "k", "action": "hide", "reactions": {"k": {"lucky": True}}, "rolls": {"check": 4, "luck": 15}}]
    events = ok(run(tmp_path, capsys, [knight("k", feats=["lucky"]), guard(at=(11, 11, 0))], hide,
                    fill=[("stone", (6, 3, 0), (6, 8, 3))]))
    assert finds(events, "check", who="k", skill="stealth")[0]["roll"] == 15


def test_dnd_f32_lucky_questions_go_to_the_players(tmp_path):
    """The window asks (engine/rules/choices.py, ask mode): the knight's player whether to cancel the archer's luck,
    the grappler's player whether to spend a point on its check; answered, the log is the script's."""
    from engine.rules.choices import ChoiceNeeded
    from rules_helpers import make
    chars = [{"id": "a", "kind": "archer", "side": "r", "at": [1, 5, 0], "feats": ["lucky"]},
             knight("k", side="b", at=(9, 5, 0), feats=["lucky"], pc=True)]
    s = make(chars)
    with pytest.raises(ChoiceNeeded) as q:
        s.step({"actor": "a", "action": "attack", "target": "k", "weapon": "longbow", "lucky": True,
                "rolls": {"attack": 18}}, ask={})
    p = q.value.point
    assert (p.key, p.chooser, p.rule, p.role) == ("reactions.k.lucky", "k", "DND-F32", "reaction")
    assert "cancel" in p.options[True] and "18" in p.question
    s = make([knight("k", feats=["lucky"], weapons=["unarmed"], pc=True), guard()])
    with pytest.raises(ChoiceNeeded) as q:
        s.step({"actor": "k", "action": "grapple", "target": "g", "rolls": {"check": 2}}, ask={})
    assert (q.value.point.key, q.value.point.chooser) == ("reactions.k.lucky", "k") and "check" in q.value.point.question


def test_dnd_f32_lucky_on_saves_and_death_saves_before_the_result_is_known():
    """l. 251 "O podjęciu tego działania możesz zdecydować się po wykonaniu pierwszego rzutu, ale zanim poznasz jego
    rezultat": a save's luck point is decided on the die, before it is compared with the DC (it was offered only once
    the save had failed); l. 31 "specjalny rzut obronny przeciw śmierci": a death save is a save, Lucky applies."""
    from engine.rules.choices import ChoiceNeeded
    from rules_helpers import find, make, step
    mage = {"id": "m", "kind": "mage", "side": "r", "at": [5, 5, 0], "spells": ["burning_hands"]}
    s = make([mage, knight("k", side="b", at=(7, 5, 0), feats=["lucky"], pc=True)])
    with pytest.raises(ChoiceNeeded) as q:                 # a die of 18 (a success) is offered too, the DC not told
        s.step({"actor": "m", "action": "cast", "spell": "burning_hands", "target": "k", "rolls": {"save": 18}}, ask={})
    p = q.value.point
    assert (p.key, p.chooser, p.rule) == ("reactions.k.lucky", "k", "DND-F32") and "18" in p.question
    assert "fail" not in p.question and "DC" not in p.question and "succe" not in p.question
    s = make([mage, knight("k", side="b", at=(7, 5, 0), feats=["lucky"], reactions={"lucky": True})])
    evs = step(s, "m", "cast", spell="burning_hands", target="k", rolls={"save": 18, "luck": 4, "damage": 3})
    assert find(evs, "feat", who="k", feat="lucky", save_roll=18, luck=4, kept=18) and find(evs, "save", who="k")["success"]
    assert s.state.actors["k"].data["luck"] == 2          # the point is spent: it was decided before the result
    # the death save: a dying Lucky knight rolls 4, its luck die 15 -- a success
    s = make([knight("a", at=(1, 1, 0)), knight("k", side="b", at=(7, 5, 0), feats=["lucky"], pc=True, hp=0,
                                              reactions={"lucky": True}), knight("b", side="b", at=(10, 10, 0))])
    evs = step(s, "a", "end_turn", rolls={"death_save": 4, "luck": 15})
    assert find(evs, "feat", who="k", feat="lucky", save_roll=4, luck=15, kept=15, rule="DND-F32")
    assert find(evs, "death_save", who="k", result=15, successes=1, failures=0)
    assert s.state.actors["k"].data["luck"] == 2


# DND-F14 War Caster, l. 144 -----------------------------------------------------------------------------------------------
def test_dnd_f14_war_caster_any_one_action_single_target_spell(tmp_path, capsys):
    """ "Zaklęcie musi mieć czas rzucania równy jednej akcji i celować tylko w jedną istotę": hold person at the
    guard leaving its reach (a Wis save, paralysed, a 2nd-level slot spent); an area spell (burning hands) is not
    offered: the dagger's opportunity attack is made instead."""
    def leave(spells):
        m = mage(spells=spells, feats=["war_caster"], weapons=["dagger"], reactions={"war_caster": True},
                 spell_slots={"1": 2, "2": 1}, initiative=10)
        events = ok(run(tmp_path, capsys, [guard("g", at=(5, 4, 0), initiative=30), m],
                        [{"actor": "g", "action": "move", "to": [5, 1, 0], "rolls": {"save": 3, "attack": 2}}]))
        return events, finds(events, "opportunity_attack", who="m")[0]
    events, oa = leave(["hold_person"])
    assert oa["rule"] == "DND-F14" and oa["spell"] == "hold_person" and oa["slot"] == 2
    assert finds(events, "save", who="g", ability="wis")[0]["success"] is False
    assert finds(events, "condition", who="g", condition="paralyzed", added=True, source="m")
    assert finds(events, "state")[-1]["characters"]["m"]["data"]["spell_slots"]["2"] == 0
    events, oa = leave(["burning_hands"])
    assert oa["weapon"] == "dagger" and "spell" not in oa


# DND-F04 Athlete, l. 83, against AIR-07 -------------------------------------------------------------------------------------
def test_dnd_f04_athlete_climb_reading_and_the_free_option(tmp_path, capsys):
    """ "wspinaczka nie kosztuje cię dodatkowej szybkości" against AIR-07 "Climbing one layer costs 4 m (double the
    horizontal cost)": by default an Athlete stepping up a ledge pays AIR-07 (1.5 m across + 4 m up);
    athlete_climb = "free" drops the doubling (+2 m); a knight without the feat pays AIR-07 either way."""
    ledge = [("stone", (6, 5, 0), (6, 5, 0))]
    up = [{"actor": "k", "action": "move", "to": [6, 5, 1]}]
    for feats_, opt, cost in (([], "free", 5.5), (["athlete"], None, 5.5), (["athlete"], "free", 3.5)):
        events = ok(run(tmp_path, capsys, [knight(feats=feats_), guard(at=(11, 11, 0))], up, fill=ledge,
                        options={"athlete_climb": opt} if opt else None))
        assert finds(events, "move", who="k")[0]["cost_m"] == cost


# DND-F33 Moderately Armored, l. 256-258 ------------------------------------------------------------------------------------
def test_dnd_f33_moderately_armored_literal_prerequisite_option(tmp_path, capsys):
    """l. 258 "Wymagania: biegłość w średnich pancerzach" names the proficiency the feat itself gives: read as a slip
    for light (the SRD's), the default; moderately_armored_prereq = "medium" takes the words as written."""
    end = [{"actor": "k", "action": "end_turn"}]
    def load(profs, opt):
        return run(tmp_path, capsys, [knight(armor="breastplate", armor_proficiencies=profs, feats=["moderately_armored"]),
                                      guard(at=(11, 11, 0))], end, options={"moderately_armored_prereq": opt} if opt else None)
    assert ok(load(["light"], None))
    rc, _, err = load(["light"], "medium")
    assert rc == 2 and "characters[0].feats[0]" in err and "medium armour" in err, err
    assert ok(load(["light", "medium"], "medium"))
    rc, _, err = load([], None)
    assert rc == 2 and "light armour" in err, err
