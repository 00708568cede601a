"""The SRD creatures' charms, fears and possessions (SRD-65..72, engine/rules/dnd5e/srd_charms.py), each played
through ``aerie run`` with forced dice on a scene written here, the events read from ``--json``."""

from __future__ import annotations


import pytest

from engine.cli import main
from engine.rules.dnd5e import srd_blocks
import rules_helpers
from rules_helpers import events, make, scene_text

pytestmark = pytest.mark.unit

ARCHER = {"id": "a", "kind": "archer", "side": "blue", "at": [10, 10, 0], "max_hp": 200}





def run_scene(tmp_path, capsys, chars, script, **kw) -> list[dict]:
    """rules_helpers.run_scene on a 40 x 40 map (the charms' and fears' ranges)."""
    return rules_helpers.run_scene(tmp_path, capsys, chars, script, size=(40, 40, 12), **kw)


def test_srd65_vampire_charm_refuses_attacks_on_it_makes_the_bite_willing_and_harm_repeats_the_save(tmp_path,
                                                                                                       capsys):
    """Vampire, "Charm. ... must succeed on a DC 17 Wisdom saving throw against this magic or be charmed by the
    vampire ... it is a willing target for the vampire's bite attack. Each time the vampire or the vampire's
    companions do anything harmful to the target, it can repeat the saving throw, ending the effect on itself on a
    success." The charmed archer may not shoot the vampire (DND-54; its legal actions offer no such attack), the
    vampire bites it though it is neither grappled nor restrained; the vampire's guard spears it: a save (20)
    frees it."""
    vamp = {"id": "v", "srd": "vampire-vampire", "side": "red", "at": [10, 11, 0]}
    guard = {"id": "g", "kind": "guard", "side": "red", "at": [11, 10, 0]}
    s = make([vamp, ARCHER, guard], size=(40, 40, 12))
    s.step({"actor": "v", "action": "creature_action", "feature": "Charm", "target": "a", "rolls": {"save": 1}})
    assert "v" in s.state.actors["a"].conditions["charmed"]
    s.step({"actor": "v", "action": "end_turn"})
    legal = [x for x in s.legal_actions() if x.get("action") == "attack"]
    assert legal and all(x.get("target") != "v" for x in legal)
    evs = run_scene(tmp_path, capsys, [vamp, ARCHER, guard], [
        {"actor": "v", "action": "creature_action", "feature": "Charm", "target": "a", "rolls": {"save": 1}},
        {"actor": "v", "action": "end_turn"},
        {"actor": "a", "action": "attack", "target": "v", "weapon": "shortsword", "illegal": "DND-54"},
        {"actor": "a", "action": "end_turn"}, {"actor": "g", "action": "end_turn"},
        {"actor": "v", "action": "attack", "target": "a", "weapon": "Bite", "rolls": {"attack": 1}},
        {"actor": "v", "action": "end_turn"}, {"actor": "a", "action": "end_turn"},
        {"actor": "g", "action": "attack", "target": "a", "weapon": "spear",
         "rolls": {"attack": 18, "damage": 3, "save": 20}}])
    assert events(evs, "condition", who="a", condition="charmed", added=True)
    assert events(evs, "attack", who="v", target="a")          # the bite: "a willing target"
    assert events(evs, "charm_ended", who="a", by="v", rule="SRD-65")
    assert "charmed" not in evs[-1]["characters"]["a"]["conditions"]


def test_srd66_enslave_puts_the_target_on_the_aboleths_side_until_damage_frees_it(tmp_path, capsys):
    """Aboleth, "Enslave (3/Day). ... be magically charmed by the aboleth ... The charmed target is under the aboleth's
    control and can't take reactions ... Whenever the charmed target takes damage, the target can repeat the saving
    throw. On a success, the effect ends." The archer is played on the aboleth's side; its friend's arrow frees it
    (20) and it is blue again."""
    ab = {"id": "x", "srd": "aboleth", "side": "red", "at": [10, 14, 0]}
    friend = {**ARCHER, "id": "b", "at": [14, 10, 0]}
    evs = run_scene(tmp_path, capsys, [ab, ARCHER, friend], [
        {"actor": "x", "action": "creature_action", "feature": "Enslave", "target": "a", "rolls": {"save": 1}},
        {"actor": "x", "action": "end_turn"},
        {"actor": "a", "action": "end_turn"},
        {"actor": "b", "action": "attack", "target": "a", "weapon": "longbow",
         "rolls": {"attack": 18, "damage": 3, "save": 20}}])
    c = events(evs, "controlled", who="a", by="x", rule="SRD-66")
    assert c and c[0]["side"] == "red"
    assert events(evs, "charm_ended", who="a", by="x", rule="SRD-66")
    s = make([ab, ARCHER, friend], size=(40, 40, 12))
    s.step({"actor": "x", "action": "creature_action", "feature": "Enslave", "target": "a", "rolls": {"save": 1}})
    a = s.state.actors["a"]
    assert a.side == "red" and a.data["reaction_used"]


def test_srd67_death_glare_drops_a_frightened_target_to_zero(tmp_path, capsys):
    """Sea hag, "Death Glare. The hag targets one frightened creature she can see within 30 ft. of her. If the target
    can see the hag, it must succeed on a DC 11 Wisdom saving throw against this magic or drop to 0 hit points." An
    archer not frightened is refused; frightened, it fails (1) and drops to 0 hit points from 200."""
    hag = {"id": "h", "srd": "sea-hag", "side": "red", "at": [10, 14, 0]}
    glare = {"actor": "h", "action": "creature_action", "feature": "Death Glare", "target": "a"}
    evs = run_scene(tmp_path, capsys, [hag, ARCHER], [
        {**glare, "illegal": "SRD-67"},
        {"actor": "gm", "action": "condition", "target": "a", "add": "frightened"},
        {**glare, "rolls": {"save": 1}}])
    assert events(evs, "drop_to_zero", who="a", by="h", rule="SRD-67")
    assert evs[-1]["characters"]["a"]["hp"] == 0


def test_srd68_stone_golem_slow_takes_the_foes_it_sees_with_a_wisdom_save_each_turn(tmp_path, capsys):
    """Stone golem, "Slow (Recharge 5-6). The golem targets one or more creatures it can see within 10 ft. of it.
    Each target must make a DC 17 Wisdom saving throw against this magic. On a failed save, a target can't use
    reactions, its speed is halved, and it can't make more than one attack on its turn ... A target can repeat the
    saving throw at the end of each of its turns". Its ally beside it is not a target; the archer is slowed and
    saves with Wisdom at the end of its turn."""
    golem = {"id": "s", "srd": "stone-golem", "side": "red", "at": [10, 11, 0]}
    ally = {"id": "k", "kind": "guard", "side": "red", "at": [12, 11, 0]}
    evs = run_scene(tmp_path, capsys, [golem, ARCHER, ally], [
        {"actor": "s", "action": "creature_action", "feature": "Slow", "rolls": {"save": 1}},
        {"actor": "s", "action": "end_turn"},
        {"actor": "a", "action": "end_turn", "rolls": {"save": 20}}])
    assert events(evs, "creature_action", who="s")[0]["targets"] == ["a"]
    assert events(evs, "slowed", who="a", by="s")
    sv = events(evs, "save", who="a")
    assert [e["ability"] for e in sv] == ["wis", "wis"] and sv[-1]["success"]
    assert events(evs, "slowed", who="a", ended=True)


def test_srd70_quasit_scare_repeats_with_disadvantage_in_sight_and_the_visage_spares_the_undead(tmp_path, capsys):
    """Quasit, "Scare (1/Day). ... frightened for 1 minute. The target can repeat the saving throw at the end of each
    of its turns, with disadvantage if the quasit is within line of sight"; ghost, "Horrifying Visage. Each non-undead
    creature within 60 ft. of the ghost that can see it ... If a target's saving throw is successful or the effect
    ends for it ...". The archer's end-of-turn save rolls two dice (20 and 1: the 1 counts); the skeleton (undead)
    near the ghost makes no save, the archer is frightened."""
    q = {"id": "q", "srd": "quasit", "side": "red", "at": [10, 13, 0]}
    evs = run_scene(tmp_path, capsys, [q, ARCHER], [
        {"actor": "q", "action": "creature_action", "feature": "Scare", "target": "a", "rolls": {"save": 1}},
        {"actor": "q", "action": "end_turn"},
        {"actor": "a", "action": "end_turn", "rolls": {"save": [20, 1]}}])
    end = events(evs, "save", who="a")[-1]
    assert not end["success"] and "frightened" in evs[-1]["characters"]["a"]["conditions"]
    assert end["roll"] == 1 and end["disadvantage"] == ["Quasit is within line of sight"]
    ghost = {"id": "h", "srd": "ghost", "side": "red", "at": [10, 14, 0]}
    skel = {"id": "k", "srd": "skeleton", "side": "blue", "at": [12, 10, 0]}
    evs = run_scene(tmp_path, capsys, [ghost, ARCHER, skel], [
        {"actor": "h", "action": "creature_action", "feature": "Horrifying Visage", "rolls": {"save": 1}}])
    assert events(evs, "creature_action", who="h")[0]["targets"] == ["a"]
    assert events(evs, "condition", who="a", condition="frightened", added=True)


def test_srd69_a_success_or_the_end_of_the_effect_makes_it_immune(tmp_path, capsys):
    """Ghost, "If a target's saving throw is successful or the effect ends for it, the target is immune to this
    ghost's Horrifying Visage for the next 24 hours"; succubus, "If the target successfully saves against the effect,
    or if the effect on it ends, the target is immune to this fiend's Charm for the next 24 hours." The archer that
    saved (20) makes no save against the second Visage; the one whose charm a hit ended (its save 20) is immune."""
    ghost = {"id": "h", "srd": "ghost", "side": "red", "at": [10, 14, 0]}
    visage = {"actor": "h", "action": "creature_action", "feature": "Horrifying Visage"}
    evs = run_scene(tmp_path, capsys, [ghost, ARCHER], [
        {**visage, "rolls": {"save": 20}}, {"actor": "h", "action": "end_turn"},
        {"actor": "a", "action": "end_turn"}, visage])
    assert events(evs, "charm_immune", who="a", by="h", rule="SRD-69")
    assert events(evs, "charm_spared", who="a", by="h", rule="SRD-69")
    assert len(events(evs, "save", who="a")) == 1
    fiend = {"id": "f", "srd": "succubus-incubus", "side": "red", "at": [10, 14, 0]}
    charm = {"actor": "f", "action": "creature_action", "feature": "Charm", "target": "a"}
    friend = {**ARCHER, "id": "b", "at": [14, 10, 0]}
    evs = run_scene(tmp_path, capsys, [fiend, ARCHER, friend], [
        {**charm, "rolls": {"save": 1}}, {"actor": "f", "action": "end_turn"},
        {"actor": "a", "action": "end_turn"},
        {"actor": "b", "action": "attack", "target": "a", "weapon": "longbow",
         "rolls": {"attack": 18, "damage": 3, "save": 20}},
        {"actor": "b", "action": "end_turn"}, charm])
    assert events(evs, "charm_ended", who="a", by="f", rule="SRD-66")
    assert events(evs, "charm_immune", who="a", by="f", rule="SRD-69")
    assert events(evs, "charm_spared", who="a", by="f", rule="SRD-69")


def test_srd71_possession_plays_the_body_on_the_ghosts_side_until_it_drops_to_zero(tmp_path, capsys):
    """Ghost, "Possession (Recharge 6). One humanoid that the ghost can see within 5 ft. of it must succeed on a DC
    13 Charisma saving throw or be possessed by the ghost; the ghost then disappears ... it retains its ...
    Intelligence, Wisdom, Charisma ... The possession lasts until the body drops to 0 hit points". The archer is on
    the ghost's side with the ghost's Wisdom; the ghost's own turn does nothing; the friend's arrow that drops the
    body to 0 ends it: the archer is blue again, its own Wisdom back."""
    ghost = {"id": "h", "srd": "ghost", "side": "red", "at": [10, 11, 0]}
    weak = {**ARCHER, "max_hp": 3}
    friend = {**ARCHER, "id": "b", "at": [16, 10, 0]}
    s = make([ghost, weak, friend], size=(40, 40, 12))
    wis = s.state.actors["a"].data["abilities"]["wis"]
    s.step({"actor": "h", "action": "creature_action", "feature": "Possession", "target": "a", "rolls": {"save": 1}})
    a = s.state.actors["a"]
    assert a.side == "red" and a.data["abilities"]["wis"] == s.state.actors["h"].data["abilities"]["wis"] != wis
    assert not a.has("incapacitated")
    evs = run_scene(tmp_path, capsys, [ghost, weak, friend], [
        {"actor": "h", "action": "creature_action", "feature": "Possession", "target": "a", "rolls": {"save": 1}},
        {"actor": "h", "action": "end_turn"},
        {"actor": "a", "action": "end_turn"},
        {"actor": "b", "action": "attack", "target": "a", "weapon": "longbow", "rolls": {"attack": 18, "damage": 8}},
        {"actor": "b", "action": "end_turn"},
        {"actor": "h", "action": "end_turn"}])
    assert events(evs, "possessed", who="a", by="h", rule="SRD-71")
    assert events(evs, "possession_ended", who="a", by="h", rule="SRD-71")
    assert events(evs, "possessing", who="h", rule="SRD-71") == []     # ended before the ghost's next turn
    assert evs[-1]["characters"]["a"]["hp"] == 0


def test_srd72_luring_song_draws_the_charmed_target_to_the_harpy(tmp_path, capsys):
    """Harpy, "Luring Song. ... Every humanoid and giant within 300 ft. of the harpy that can hear the song must
    succeed on a DC 11 Wisdom saving throw or be charmed until the song ends ... While charmed by the harpy, a target
    is incapacitated ... If the charmed target is more than 5 ft. away from the harpy, the must move on its turn
    toward the harpy by the most direct route ... A creature can also repeat the saving throw at the end of each of
    its turns." The archer 9 m off walks to the harpy at its turn's start, then saves (20) and is free."""
    harpy = {"id": "h", "srd": "harpy", "side": "red", "at": [10, 16, 0]}
    evs = run_scene(tmp_path, capsys, [harpy, ARCHER], [
        {"actor": "h", "action": "creature_action", "feature": "Luring Song", "rolls": {"save": 1}},
        {"actor": "h", "action": "end_turn", "rolls": {"save": 20}}])     # the archer's turn passes, then its save
    assert not events(evs, "song")          # round 2: no one is charmed, the harpy need not sing on
    assert events(evs, "condition", who="a", condition="incapacitated", added=True)
    lured = events(evs, "lured", who="a", by="h", rule="SRD-72")
    assert lured and lured[0]["to"][1] > 10
    assert events(evs, "charm_ended", who="a", by="h", rule="SRD-72")
    assert not {"charmed", "incapacitated"} & set(evs[-1]["characters"]["a"]["conditions"])


def test_features_named_with_why():
    """Heart Sight and Antennae stay unmodelled with a reason; the charms are played."""
    b = srd_blocks.bestiary()
    st = {(c, f["name"]): f for c in ("sprite", "rust-monster", "dryad")
          for f in srd_blocks.features(b[c])}
    assert not st[("sprite", "Heart Sight")]["modelled"] and "alignment" in st[("sprite", "Heart Sight")]["why"]
    assert not st[("rust-monster", "Antennae")]["modelled"]
    assert st[("dryad", "Fey Charm")]["modelled"]


def test_srd65_the_fey_charm_ends_when_the_dryad_dies_and_takes_no_creature_that_does_not_see_her(tmp_path, capsys):
    """Dryad, "Fey Charm. The dryad targets one humanoid or beast that she can see within 30 feet of her. If the
    target can see the dryad, it must succeed on a DC 14 Wisdom saving throw or be magically charmed ... the effect
    lasts 24 hours or until the dryad dies". A blinded archer makes no save; the other, charmed, is free when the
    GM's 100 damage kills the dryad."""
    dryad = {"id": "d", "srd": "dryad", "side": "red", "at": [10, 14, 0]}
    blind = {**ARCHER, "id": "b", "at": [14, 10, 0], "conditions": ["blinded"]}
    charm = {"actor": "d", "action": "creature_action", "feature": "Fey Charm"}
    evs = run_scene(tmp_path, capsys, [dryad, ARCHER, blind], [
        {**charm, "target": "b", "rolls": {"save": 1}}, {"actor": "d", "action": "end_turn"},
        {"actor": "a", "action": "end_turn"}, {"actor": "b", "action": "end_turn"},
        {**charm, "target": "a", "rolls": {"save": 1}},
        {"actor": "gm", "action": "damage", "target": "d", "amount": 100}])
    assert events(evs, "charm_spared", who="b", by="d", rule="SRD-65") and not events(evs, "save", who="b")
    assert events(evs, "condition", who="a", condition="charmed", added=True)
    assert events(evs, "charm_ended", who="a", by="d", why="Dryad died")
    assert "charmed" not in evs[-1]["characters"]["a"]["conditions"]


@pytest.mark.parametrize("policy", ["random", "aggressive", "cautious"])
def test_the_policies_play_the_charms_without_raising(tmp_path, capsys, policy):
    """Every creature of SRD-65..72 against two archers and a guard, three rounds with each shipped policy: no
    fight raises (``aerie simulate`` exits 1 when one does)."""
    reds = ["vampire-vampire", "dryad", "succubus-incubus", "aboleth", "sea-hag", "stone-golem", "ghost", "harpy",
            "quasit"]
    chars = [{"id": f"r{i}", "srd": r, "side": "red", "at": [3 + 4 * i, 22, 0]} for i, r in enumerate(reds)]
    chars += [{"id": f"b{i}", "kind": k, "side": "blue", "at": [6 + 8 * i, 16, 0]}
              for i, k in enumerate(("archer", "guard", "archer"))]
    p = tmp_path / "s.toml"
    p.write_text(scene_text(chars, size=(40, 40, 12)))
    rc = main(["simulate", str(p), "--runs", "2", "--workers", "1", "--max-rounds", "3", "--policy", f"red={policy}",
               "--policy", f"blue={policy}", "-q"])
    out = capsys.readouterr()
    assert rc == 0, out.out + out.err


def test_srd65_the_dryad_holds_one_humanoid_and_up_to_three_beasts():
    """Dryad, "The dryad can have no more than one humanoid and up to three beasts charmed at a time.": a second
    humanoid frees the first; a beast charmed beside it frees no one."""
    dryad = {"id": "d", "srd": "dryad", "side": "red", "at": [10, 14, 0]}
    b = {**ARCHER, "id": "b", "at": [14, 10, 0]}
    wolf = {"id": "w", "srd": "wolf", "side": "blue", "at": [6, 10, 0]}
    s = make([dryad, ARCHER, b, wolf], size=(40, 40, 12))
    charm = {"actor": "d", "action": "creature_action", "feature": "Fey Charm", "rolls": {"save": 1}}
    s.step({**charm, "target": "a"})
    for who in ("d", "a", "b", "w"):
        s.step({"actor": who, "action": "end_turn"})
    s.step({**charm, "target": "w"})
    assert s.state.actors["a"].has("charmed") and s.state.actors["w"].has("charmed")
    for who in ("d", "a", "b", "w"):
        s.step({"actor": who, "action": "end_turn"})
    s.step({**charm, "target": "b"})
    a, bb, w = (s.state.actors[x] for x in "abw")
    assert not a.has("charmed") and bb.has("charmed") and w.has("charmed")
