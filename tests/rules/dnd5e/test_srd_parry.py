"""SRD-73 Parry (bandit captain, erinyes, gladiator, knight, marilith, noble), played through ``aerie run`` with
forced dice: "The knight adds 2 to its AC against one melee attack that would hit it. To do so, the knight must see
the attacker and be wielding a melee weapon."""

from __future__ import annotations

import pytest

from test_srd_mechanics import events, run_scene

pytestmark = pytest.mark.unit

KNIGHT = {"id": "k", "srd": "knight", "side": "red", "at": [10, 11, 0]}
FIGHTER = {"id": "f", "kind": "archer", "side": "blue", "at": [10, 10, 0], "weapons": ["longsword"]}


def _attack(roll):
    return [{"actor": "f", "action": "attack", "target": "k", "weapon": "longsword", "rolls": {"attack": roll, "damage": 5}}]


def _hit_total(evs):
    return next(e for e in evs if e.get("type") == "attack")


def test_srd73_parry_turns_a_melee_hit_into_a_miss(tmp_path, capsys):
    """The knight (AC 18) parries a longsword attack that hits by 0 or 1: AC 20, a miss, no damage, its reaction
    spent; a second such attack the same round hits."""
    evs = run_scene(tmp_path, capsys, [FIGHTER, KNIGHT], _attack(1))
    bonus = _hit_total(evs)["total"] - 1
    roll = 18 - bonus                                  # total 18: hits AC 18 exactly
    evs = run_scene(tmp_path, capsys, [{**FIGHTER, "attacks": 2}, KNIGHT], _attack(roll) + _attack(roll))
    par = events(evs, "reaction", who="k", feat="parry")
    assert len(par) == 1 and par[0]["rule"] == "SRD-73" and par[0]["ac"] == 20
    atk = [e for e in evs if e.get("type") == "attack"]
    assert [e["hit"] for e in atk] == [False, True]
    assert len(events(evs, "damage", who="k")) == 1


def test_srd73_parry_not_taken_when_it_cannot_turn_the_hit_or_is_declined(tmp_path, capsys):
    """A hit by 2 or more stays a hit (no reaction spent); ``reactions = {parry = false}`` declines; a blinded knight
    does not see the attacker."""
    evs = run_scene(tmp_path, capsys, [FIGHTER, KNIGHT], _attack(1))
    bonus = _hit_total(evs)["total"] - 1
    evs = run_scene(tmp_path, capsys, [FIGHTER, KNIGHT], _attack(18 - bonus))
    assert events(evs, "reaction", who="k", feat="parry")         # the same scene, the plain knight: it parries
    for knight, roll in (({**KNIGHT}, 20 - bonus), ({**KNIGHT, "reactions": {"parry": False}}, 18 - bonus),
                         ({**KNIGHT, "conditions": ["blinded"]}, 18 - bonus)):
        evs = run_scene(tmp_path, capsys, [FIGHTER, knight], _attack(roll))
        assert not events(evs, "reaction", who="k") and _hit_total(evs)["hit"], knight


def test_srd73_a_bad_parry_key_is_one_clear_line(tmp_path, capsys):
    """``parry = 40`` or ``"two"`` on a character: exit 2, one line naming the key (and SRD-73's range)."""
    from engine.cli import main
    from rules_helpers import scene_text

    p = tmp_path / "scene.toml"
    for bad, said in ((40, "0..10 (SRD-73)"), ("two", "Expected int")):
        p.write_text(scene_text([{**KNIGHT, "parry": bad}, FIGHTER]))
        assert main(["check", str(p)]) == 2
        err = capsys.readouterr().err.strip()
        assert "characters[0].parry" in err and said in err and len(err.splitlines()) == 1, err
