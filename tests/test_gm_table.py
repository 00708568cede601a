"""Issue 23, the GM's table as a real session uses it: GM healing wakes a dying creature (DND-02/03) and keeps a
baton character's Life in step with its wounds (BAT-22/25); GM events read as words in both logs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.app.controller import Controller
from engine.app.gmtext import parse
from engine.app.logtext import log_entries
from engine.rules.core import Session
from engine.rules.runner import describe
from engine.world.scene import load_scene

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[1]


def _gm(action, **kw):
    return {"actor": "gm", "action": action, **kw}


def _downed_aldric():
    """The death-saves scene after the ogre's first blow: Sir Aldric at 0 HP, unconscious, prone, dying."""
    sc = load_scene(ROOT / "scenes" / "dnd_death_saves.toml")
    ctl = Controller(sc)
    ctl.step(dict(sc.spec.script[0]))
    a = ctl.state.actors["aldric"]
    assert a.hp == 0 and a.has("unconscious") and not a.data["stable"]
    return sc, ctl


def test_gm_healing_through_the_gm_line_ends_unconscious_and_dying():
    sc, ctl = _downed_aldric()
    a = ctl.state.actors["aldric"]
    a.data["death"]["failures"] = 1                     # one failure so far: healing must clear it (DND-03)
    assert ctl.step(parse("hp aldric 8", ctl.state)) is not None
    a = ctl.state.actors["aldric"]
    assert a.hp == 8 and not a.has("unconscious") and a.has("prone")        # prone stays: he stands up himself
    assert a.data["death"] == {"successes": 0, "failures": 0} and not a.data["stable"]
    # his next turn is a conscious creature's: no death save, and he can act
    ctl.step({"actor": "ogre", "action": "end_turn"})
    assert ctl.session.current == "aldric"
    evs = ctl.last_events
    assert not any(e.get("type") == "death_save" for e in evs)
    names = {x["action"] for x in ctl.session.legal_actions("aldric")}
    assert {"attack", "stand"} <= names


def test_gm_setting_hp_to_zero_makes_a_pc_dying_and_it_rolls_death_saves():
    sc = load_scene(ROOT / "scenes" / "dnd_death_saves.toml")
    s = Session(sc)
    evs = s.step(_gm("gm_set", target="aldric", key="hp", value=0))
    a = s.state.actors["aldric"]
    assert a.has("unconscious") and a.data["death"] == {"successes": 0, "failures": 0}
    assert any(e.get("type") == "dying" and e.get("rule") == "DND-02" for e in evs)
    evs = s.step({"actor": "ogre", "action": "end_turn", "rolls": {"death_save": 4}})
    assert any(e.get("type") == "death_save" and e.get("who") == "aldric" for e in evs)


def test_gm_events_read_as_words_in_the_window_log_and_in_aerie_run():
    sc, ctl = _downed_aldric()
    evs = ctl.step(parse("hp aldric 8", ctl.state))
    gm = next(e for e in evs if e["type"] == "gm")
    line = describe(ctl.session, gm)
    assert line == "GM sets Sir Aldric's HP 0 -> 8"
    assert "{" not in line
    texts = [e[0] for e in log_entries(ctl.session)]
    assert "GM sets Sir Aldric's HP 0 -> 8" in texts
    assert not any("{" in t for t in texts)


def test_gm_healing_through_aerie_run_wakes_him(tmp_path):
    acts = tmp_path / "heal.toml"
    acts.write_text(
        '[[script]]\nactor = "ogre"\naction = "attack"\ntarget = "aldric"\nrolls = { attack = 15, damage = 4 }\n'
        '[[script]]\nactor = "gm"\naction = "gm_set"\ntarget = "aldric"\nkey = "hp"\nvalue = 8\n'
        '[[script]]\nactor = "ogre"\naction = "end_turn"\n'
        '[[script]]\nactor = "aldric"\naction = "stand"\n'
        '[[expect]]\nafter = 2\ncharacter = "aldric"\nhp = 8\nconditions = ["prone"]\n')
    r = subprocess.run([sys.executable, "-m", "engine", "run", str(ROOT / "scenes" / "dnd_death_saves.toml"),
                        "--actions", str(acts)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "GM sets Sir Aldric's HP 0 -> 8" in r.stdout
    assert "Sir Aldric is no longer unconscious" in r.stdout
    assert "gm: {" not in r.stdout


def test_baton_gm_life_stays_in_step_with_the_wounds():
    """Baton Life is max Life minus the wounds (BAT-22): a GM-set Life must survive the next hit's recount, and
    Life 0 is death (BAT-25)."""
    s = Session(load_scene(ROOT / "scenes" / "baton_passing.toml"))
    rs = s.ruleset
    a = s.state.actors["ines"]
    rs.apply_damage(s, a, 4, "fire", None, "BAT-50")              # direct damage: a wound of 4
    assert a.data["wounds"] and a.hp < a.max_hp and not a.dead
    s.step(_gm("gm_set", target="ines", key="hp", value=a.max_hp))
    a = s.state.actors["ines"]
    assert a.hp == a.max_hp and a.data["life"] == a.max_hp
    assert a.data["max_life"] - sum(w["severity"] for w in a.data["wounds"]) == a.hp
    rs.apply_damage(s, a, 1, "fire", None, "BAT-50")              # Life recounted from the wounds
    assert a.hp == a.max_hp - 1
    s.step(_gm("gm_set", target="ines", key="hp", value=3))
    a = s.state.actors["ines"]
    assert a.hp == 3 and a.data["max_life"] - sum(w["severity"] for w in a.data["wounds"]) == 3
    assert a.data["vigor"] <= 3
    evs = s.step(_gm("gm_set", target="ines", key="hp", value=0))
    assert s.state.actors["ines"].dead and any(e.get("type") == "death" for e in evs)
