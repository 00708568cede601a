"""Issue 23, the GM's table as a real session uses it: GM healing wakes a dying creature (DND-02/03) and keeps a
baton character's Life in step with its wounds (BAT-22/25); GM events read as words in both logs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.app.gmline import gm_line, save_scene
from engine.app.controller import Controller
from engine.app.gmtext import parse
from engine.app.logtext import log_entries
from engine.rules.core import Illegal
from engine.rules.session import Session
from engine.rules.runner import describe
from engine.scene import load_scene

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[2]


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
    evs = ctl.last_step.log if ctl.last_step else []
    assert not any(e.get("type") == "death_save" for e in evs)
    names = {x["action"] for x in ctl.session.legal_actions("aldric")}
    assert {"attack", "stand"} <= names


def test_gm_setting_hp_to_zero_makes_a_pc_dying_and_it_rolls_death_saves():
    sc = load_scene(ROOT / "scenes" / "dnd_death_saves.toml")
    s = Session(sc)
    evs = s.step(_gm("gm_set", target="aldric", key="hp", value=0)).log
    a = s.state.actors["aldric"]
    assert a.has("unconscious") and a.data["death"] == {"successes": 0, "failures": 0}
    assert any(e.get("type") == "dying" and e.get("rule") == "DND-02" for e in evs)
    evs = s.step({"actor": "ogre", "action": "end_turn", "rolls": {"death_save": 4}}).log
    assert any(e.get("type") == "death_save" and e.get("who") == "aldric" for e in evs)


def test_gm_events_read_as_words_in_the_window_log_and_in_aerie_run():
    sc, ctl = _downed_aldric()
    evs = ctl.step(parse("hp aldric 8", ctl.state)).log
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
    evs = s.step(_gm("gm_set", target="ines", key="hp", value=0)).log
    assert s.state.actors["ines"].dead and any(e.get("type") == "death" for e in evs)


# -- issue 23 item 3: creatures can be made --------------------------------------------------------------------------
def _imported_room(tmp_path) -> Path:
    """A map just imported (a UVTT room, no characters), the way tests/interop/test_interop.py writes one."""
    import json

    sys.path.insert(0, str(ROOT / "tests"))
    from test_interop import uvtt

    src = tmp_path / "room.dd2vtt"
    src.write_text(json.dumps(uvtt()))
    out = tmp_path / "room.toml"
    r = subprocess.run([sys.executable, "-m", "engine", "import", str(src), "-o", str(out)], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return out


def test_every_library_block_makes_a_creature_in_its_ruleset():
    from engine.rules.statblocks import library

    for path, want in (("scenes/showcase.toml", {"harpy", "giant_eagle", "wyvern", "knight", "archer"}),
                       ("scenes/baton_passing.toml", {"knight", "archer", "brigand", "harpy", "griffon"})):
        sc = load_scene(ROOT / path)
        lib = library(sc.ruleset)
        assert want <= set(lib), (path, sorted(lib))
        top = sc.world.support_layer(4, 4, sc.world.size[2] - 1)       # the surface at (4, 4)
        for i, name in enumerate(lib):
            s = Session(sc)
            s.step(_gm("gm_add", id=f"new{i}", block=name, at=[4, 4, top], side="x"))
            a = s.state.actors[f"new{i}"]
            assert a.side == "x" and a.name and a.max_hp > 0 and not a.flying, name
        s = Session(sc)
        s.step(_gm("gm_add", id="up", block="harpy", at=[4, 4, top + 3]))          # a flyer in the air flies
        assert s.state.actors["up"].flying
        with pytest.raises(Illegal) as e:                                          # a walker there is refused
            s.step(_gm("gm_add", id="k9", block="knight", at=[4, 4, top + 3]))
        assert e.value.rule == "AIR-10" and "cannot fly" in e.value.reason and "k9" not in s.state.actors


def test_add_gives_a_name_a_side_and_never_a_duplicate():
    ctl = Controller(load_scene(ROOT / "scenes" / "showcase.toml"))
    assert gm_line(ctl, 'add "Sir Roland" knight side=blue at 30 30 0') is not None, ctl.message
    a = ctl.state.actors["sir_roland"]
    assert (a.name, a.side, a.pos) == ("Sir Roland", "blue", (30, 30, 0))
    assert gm_line(ctl, "add Kestrel like Kestrel at 29 33 5") is None           # a second "Kestrel": refused
    assert "on the table already" in ctl.message[0]
    assert gm_line(ctl, "add like Kestrel at 29 33 5") is not None, ctl.message  # no name: a new one
    names = [a.name.split(" (")[0] for a in ctl.state.actors.values()]
    assert "Kestrel 2" in names and len(names) == len(set(names))
    assert gm_line(ctl, "add harpy side=blue at 28 33 6") is not None and gm_line(ctl, "add harpy at 27 33 6") is not None
    assert {"Harpy", "Harpy 2"} <= {a.name for a in ctl.state.actors.values()}
    # quoting works in every command, and remove takes the one named
    assert gm_line(ctl, 'place "Sir Roland" 31 30 0') is not None, ctl.message
    assert ctl.state.actors["sir_roland"].pos == (31, 30, 0)
    assert gm_line(ctl, 'hp "Sir Aldric" 30') is not None and ctl.state.actors["knight"].hp == 30
    assert gm_line(ctl, 'remove "Kestrel 2"') is not None
    assert "harpy_low" in ctl.state.actors and not any(a.name == "Kestrel 2" for a in ctl.state.actors.values())
    assert gm_line(ctl, 'place "Sir Roland 31 30 0') is None and "quote" in ctl.message[0]


def test_after_a_remove_older_log_lines_never_change():
    ctl = Controller(load_scene(ROOT / "scenes" / "showcase.toml"))
    gm_line(ctl, "add Gull harpy side=blue at 28 35 6")
    gm_line(ctl, "hp Gull 10")
    before = log_entries(ctl.session)
    assert any("Brann" in e[0] for e in before) and any("Gull" in e[0] for e in before)
    assert gm_line(ctl, "remove Gull") is not None and gm_line(ctl, "remove Brann") is not None, ctl.message
    after = log_entries(ctl.session)
    assert after[:len(before)] == before


def test_a_gm_builds_an_encounter_on_an_imported_map_plays_a_round_and_saves_it(tmp_path):
    room = _imported_room(tmp_path)
    ctl = Controller(load_scene(room))
    assert ctl.state.actors == {} and ctl.session.current is None
    for line in ('add "Sir Aldric" knight side=blue at 4 6 0', "add Vess archer side=blue at 3 3 0",
                 "add harpy side=red at 6 6 4", "add harpy side=red at 7 3 5"):
        assert gm_line(ctl, line) is not None, (line, ctl.message)
    assert gm_line(ctl, f"start {tmp_path / 'encounter.toml'}") is None and "now playing" in ctl.message[0], ctl.message
    assert len(ctl.state.order) == 4 and ctl.session.current in ctl.state.actors
    for _ in range(4):                                   # one round: everyone acts (or ends its turn)
        cur = ctl.session.current
        names = {a["action"] for a in ctl.session.legal_actions(cur)}
        if "dodge" in names:
            assert ctl.step({"actor": cur, "action": "dodge"}) is not None, ctl.message
        assert ctl.step({"actor": cur, "action": "end_turn"}) is not None, ctl.message
    assert ctl.state.round == 2
    gm_line(ctl, "hp Vess 3")
    out = tmp_path / "after_round.toml"
    assert gm_line(ctl, f'save scene {out} "The room, after a round"') is None and out.is_file(), ctl.message
    sc = load_scene(out)
    assert {c.name for c in sc.characters} == {"Sir Aldric", "Vess", "Harpy", "Harpy 2"}
    assert next(c for c in sc.characters if c.name == "Vess").raw["hp"] == 3
    r = subprocess.run([sys.executable, "-m", "engine", "run", str(out)], cwd=ROOT, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0 and "round 1" in r.stdout, r.stdout + r.stderr


def test_save_scene_is_whole_or_nothing_and_refuses_in_one_line(tmp_path):
    ctl = Controller(load_scene(ROOT / "scenes" / "showcase.toml"))
    bad = tmp_path / "nope" / "x.toml"
    assert save_scene(ctl, bad) is None and "does not exist" in ctl.message[0] and not bad.exists()
    assert save_scene(ctl, tmp_path / "x.json") is None and ".toml" in ctl.message[0]
    room = _imported_room(tmp_path)                     # its map image stays in its folder
    c2 = Controller(load_scene(room))
    gm_line(c2, "add knight at 4 6 0")
    (tmp_path / "elsewhere").mkdir()
    assert save_scene(c2, tmp_path / "elsewhere" / "x.toml") is None
    assert "map.ground_image" in c2.message[0] and not (tmp_path / "elsewhere" / "x.toml").exists()
    assert save_scene(c2, tmp_path / "same_folder.toml") is not None


def test_a_shipped_scene_saved_as_a_scene_keeps_its_map_cameras_and_characters(tmp_path):
    ctl = Controller(load_scene(ROOT / "scenes" / "showcase.toml"))
    gm_line(ctl, 'place "Sir Aldric" 30 30 0')
    gm_line(ctl, "cond Brann +prone")
    gm_line(ctl, "add Gull like Kestrel side=red at 28 35 6")
    gm_line(ctl, "add like Gull at 27 35 6")                          # a copy of a creature the GM added
    out = save_scene(ctl, tmp_path / "square.toml")
    assert out is not None, ctl.message
    sc = load_scene(out)
    old = ctl.scene
    assert sc.world.size == old.world.size and (sc.world.voxels == old.world.voxels).all()
    assert [c.name for c in sc.spec.cameras] == [c.name for c in old.spec.cameras] and sc.spec.flythrough
    got = {c.id: c for c in sc.characters}
    assert got["knight"].at == (30, 30, 0) and "prone" in got["wall_archer"].raw["conditions"]
    assert got["gull"].side == "red" and got["gull"].name == "Gull" and got["gull_2"].name == "Gull 2"
    assert set(got) == set(ctl.state.actors)


def test_save_scene_and_start_never_write_over_a_file_this_program_did_not_write(tmp_path):
    """``start other.toml`` reads like "open it": a monkey test typed ``start scenes/showcase.toml`` and the table
    was written over the shipped showcase. A file that exists and that this program did not write is refused, in
    one line, byte for byte as it was; a scene the GM saved here may be saved again."""
    ctl = Controller(load_scene(ROOT / "scenes" / "air_layers.toml"))
    theirs = tmp_path / "showcase.toml"
    theirs.write_bytes((ROOT / "scenes" / "showcase.toml").read_bytes())
    before = theirs.read_bytes()
    for line in (f"start {theirs}", f"save scene {theirs}"):
        assert gm_line(ctl, line) is None
        assert ctl.message[1] == "error" and "exists, and this program did not write it: not replaced" in \
            ctl.message[0], ctl.message
        assert theirs.read_bytes() == before and ctl.scene.name == load_scene(ROOT / "scenes" / "air_layers.toml").name
    mine = tmp_path / "mine.toml"
    assert gm_line(ctl, f"save scene {mine}") is None and mine.is_file(), ctl.message
    gm_line(ctl, "hp " + next(iter(ctl.state.actors.values())).name + " 1")
    assert gm_line(ctl, f"start {mine}") is None and "now playing" in ctl.message[0], ctl.message     # again: mine


def test_a_character_made_from_a_stat_block_is_drawn():
    """``add harpy side=red at ...`` (a stat block, no scene character to look like) had no render view: not drawn
    in the 3D view, and once selected with the movement overlay on, every frame raised (a monkey test)."""
    from engine.app.gmtable import gm_views
    from engine.render.state import from_session

    sc = load_scene(ROOT / "scenes" / "baton_skyfall.toml")
    ctl = Controller(sc, 3)
    assert gm_line(ctl, "add harpy side=red at 3 3 4") is not None, ctl.message
    new = next(a for a in ctl.state.actors.values() if a.id not in {c.id for c in sc.characters})
    views = {c.id: c for c in gm_views(ctl, from_session(sc, ctl.session)).characters}
    assert set(views) == set(ctl.state.actors)
    v = views[new.id]
    assert (v.x, v.y, v.layer, v.flying, v.side, v.kind) == (3, 3, 4, True, "red", "harpy")
    assert (v.footprint, v.height_layers, v.hp) == (new.footprint, new.height_layers, new.hp)
