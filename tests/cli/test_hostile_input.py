"""Issue 15: every class of hostile input found by fuzzing, one test each (written before the fix, seen failing).

Each CLI case asserts the project's promise: one line on stderr naming the file and the key (or rule), exit 2,
no traceback -- and that whatever ``aerie check`` accepts, ``aerie run`` plays.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main
from engine.errors import AerieError
from engine.rules.session import Session
from engine.scene import parse_scene

ROOT = Path(__file__).resolve().parents[2]

DND = '''name = "t"
ruleset = "dnd5e"
seed = 3
[map]
size = [12, 10, 8]
[[characters]]
id = "a"
side = "red"
at = [1, 1, 0]
initiative = 20
weapons = ["longsword"]
{A}
[[characters]]
id = "b"
side = "blue"
at = [2, 1, 0]
initiative = 10
{B}
'''

BATON = '''name = "t"
ruleset = "baton"
seed = 3
initiative_starts = "a"
[map]
size = [12, 10, 8]
[[characters]]
id = "a"
side = "red"
at = [1, 1, 0]
pc = true
skills = { fight_longsword = 2, dodge = 1 }
weapons = ["longsword"]
{A}
[[characters]]
id = "b"
side = "blue"
at = [2, 1, 0]
{B}
'''

SCRIPT = '''
[[script]]
actor = "a"
action = "attack"
target = "b"
'''


def scene(tmpl=DND, a="", b="", top="", tail=""):
    for key in ("weapons", "skills"):        # a's own weapons / skills replace the template's
        if a.startswith(key + " ="):
            lines = tmpl.split("\n")
            i = next(i for i, line in enumerate(lines) if line.startswith(key + " ="))
            tmpl = "\n".join(lines[:i] + lines[i + 1:])
    return top + tmpl.replace("{A}", a).replace("{B}", b) + tail


def cli(capsys, *args):
    capsys.readouterr()
    rc = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return rc, out, err


def write(tmp_path, text, name="bad.toml"):
    p = tmp_path / name
    p.write_text(text) if isinstance(text, str) else p.write_bytes(text)
    return p


def one_line(rc, err, *needles, file="bad.toml"):
    assert rc == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert file in err, err
    for n in needles:
        assert n in err, err


def check_then_run(capsys, path):
    """check and run agree: check refuses (2, one line) or run plays it without a traceback."""
    rc, out, err = cli(capsys, "check", path)
    if rc == 2:
        one_line(rc, err, file=path.name)
        return rc, err
    assert rc == 0, err
    rc2, out2, err2 = cli(capsys, "run", path)
    assert rc2 in (0, 1), err2
    return rc, err


# ----------------------------------------------------------------------------------------------------- scenes
SCENE_CASES = {
    "TOML nested hundreds deep": (scene(tail="[options]\nx = " + "[" * 600 + "]" * 600 + "\n"), ["nested"]),
    "a 5,000-digit integer": (scene(top="seed = " + "7" * 5000 + "\n").replace("seed = 3\n", ""), ["seed"]),
    "a huge integer past JSON's range": (scene(top="").replace("seed = 3", "seed = " + "9" * 40), ["seed"]),
    "a key with a newline": (scene(top='"bad\\nkey" = 1\n'), ["unknown key", "bad\\nkey"]),
    "expect of the wrong type": (scene(tail=SCRIPT + '[[expect]]\nafter = 1\ncharacter = "b"\nhp = "lots"\n'),
                                 ["expect[0].hp"]),
    "expect.after not an integer": (scene(tail=SCRIPT + '[[expect]]\nafter = "x"\n'), ["expect[0].after"]),
    "expect.has_conditions not a list": (scene(tail=SCRIPT + '[[expect]]\nafter = 1\ncharacter = "b"\n'
                                               'has_conditions = 5\n'), ["expect[0].has_conditions"]),
    "a TOML date in options": (scene(tail="[options]\nwhen = 1979-05-27\n"), ["options.when", "date"]),
    "a TOML date in a script": (scene(tail=SCRIPT + "when = 1979-05-27T07:32:00Z\n"), ["script[0].when", "date"]),
    "a TOML date in an expectation": (scene(tail=SCRIPT + "[[expect]]\nafter = 1\ncomment = 07:32:00\n"),
                                      ["expect[0].comment", "date"]),
    "5e weapon damage = 5": (scene(a='weapons = [{ name = "club", damage = 5 }]'), ["characters[0].weapons[0].damage"]),
    "5e weapon damage 1d0": (scene(a='weapons = [{ name = "club", damage = "1d0" }]'), ["weapons[0].damage"]),
    "5e weapon damage -3d6": (scene(a='weapons = [{ name = "club", damage = "-3d6" }]'), ["weapons[0].damage"]),
    "5e weapon damage 99999999d6": (scene(a='weapons = [{ name = "club", damage = "99999999d6" }]'), ["weapons[0].damage"]),
    "5e weapon to_hit not a number": (scene(a='weapons = [{ name = "club", to_hit = "x" }]'), ["weapons[0].to_hit"]),
    "baton weapon damage -3d6": (scene(BATON, a='weapons = [{ name = "club", damage = "-3d6" }]'), ["weapons[0].damage"]),
    "reach_m = nan": (scene(a="reach_m = nan"), ["characters[0].reach_m", "finite"]),
    "speed_m = inf": (scene(a="speed_m = inf"), ["characters[0].speed_m", "finite"]),
    "options.climb_m = inf": (scene(tail="[options]\nclimb_m = inf\n"), ["options.climb_m"]),
    "a negative speed": (scene(a="speed_m = -9.0"), ["characters[0].speed_m"]),
    "a negative fly speed (baton)": (scene(BATON, a="fly_speed_m = -3.0"), ["characters[0].fly_speed_m"]),
    "negative temporary HP": (scene(a="temp_hp = -4"), ["characters[0].temp_hp"]),
    "two characters in one cell": (scene().replace("at = [2, 1, 0]", "at = [1, 1, 0]"), ["characters[1].at", "'a'"]),
    "a NaN camera": (scene(tail='[[cameras]]\nname = "c"\nposition = [nan, 1.0, 2.0]\nlook_at = [0.0, 0.0, 0.0]\n'),
                     ["cameras[0].position"]),
    "an infinite keyframe": (scene(tail='[[flythrough]]\nt = inf\nposition = [1.0, 1.0, 2.0]\nlook_at = [0.0, 0.0, 0.0]\n'),
                             ["flythrough[0].t"]),
    "a camera fov of 0": (scene(tail='[[cameras]]\nname = "c"\nposition = [1.0, 1.0, 2.0]\nlook_at = [0.0, 0.0, 0.0]\n'
                                     'fov = 0.0\n'), ["cameras[0].fov"]),
    "baton option of the wrong type": (scene(BATON, tail='[options]\nbase_difficulty = "hard"\n'),
                                       ["options.base_difficulty"]),
    "baton option out of range": (scene(BATON, tail='[options]\nchance_cap = -5\n'), ["options.chance_cap"]),
    "a typo in a 5e option": (scene(tail='[options]\ndiagonl = "5e"\n'), ["options.diagonl", "diagonal"]),
    "a typo in a baton option": (scene(BATON, tail='[options]\nlone_keep = true\n'), ["options.lone_keep", "lone_keeps"]),
    "unknown baton attribute": (scene(BATON, a="attributes = { strenght = 2 }"), ["characters[0].attributes.strenght"]),
    "unknown baton skill": (scene(BATON, a="skills = { fight_longsword = 2, dodgee = 1 }"), ["characters[0].skills.dodgee"]),
    "a model path with ..": (scene(a='model = "../../etc/passwd"'), ["characters[0].model"]),
    "an absolute model path": (scene(a='model = "/dev/zero"'), ["characters[0].model"]),
    "a kind with ..": (scene(a='kind = "../x"'), ["characters[0].kind"]),
}


@pytest.mark.unit
@pytest.mark.parametrize("case", list(SCENE_CASES))
def test_hostile_scene(capsys, tmp_path, case):
    text, needles = SCENE_CASES[case]
    p = write(tmp_path, text)
    rc, out, err = cli(capsys, "check", p)
    one_line(rc, err, *needles)


@pytest.mark.unit
def test_a_5e_scene_with_no_characters_checks_and_runs(capsys, tmp_path):
    p = write(tmp_path, 'name = "empty"\n[map]\nsize = [4, 4, 4]\n')
    check_then_run(capsys, p)


@pytest.mark.unit
def test_a_baton_scene_with_no_characters_checks_and_runs(capsys, tmp_path):
    p = write(tmp_path, 'name = "empty"\nruleset = "baton"\n[map]\nsize = [4, 4, 4]\n')
    check_then_run(capsys, p)


@pytest.mark.unit
def test_whatever_check_accepts_run_plays(capsys, tmp_path):
    """Scenes that check used to accept and run then crashed on."""
    for i, text in enumerate([
        scene(a='weapons = [{ name = "club", damage = "2d6" }]', tail=SCRIPT),
        scene(BATON, a='weapons = [{ name = "club", damage = 5 }]', tail=SCRIPT),
        scene(tail=SCRIPT + '[[expect]]\nafter = 1\ncharacter = "b"\nevents = "attack"\n'),
        scene(tail=SCRIPT + '[[expect]]\nafter = 1\nevent = 5\n'),
    ]):
        check_then_run(capsys, write(tmp_path, text, f"s{i}.toml"))


@pytest.mark.unit
def test_reading_dev_zero_is_refused_quickly():
    r = subprocess.run([sys.executable, "-m", "engine", "check", "/dev/zero"], capture_output=True, text=True,
                       timeout=60, cwd=ROOT)
    assert r.returncode == 2 and "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "/dev/zero" in r.stderr


@pytest.mark.unit
def test_a_fifo_is_refused_without_hanging(tmp_path):
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    r = subprocess.run([sys.executable, "-m", "engine", "check", str(fifo)], capture_output=True, text=True,
                       timeout=60, cwd=ROOT)
    assert r.returncode == 2 and "not a regular file" in r.stderr, r.stderr


@pytest.mark.unit
def test_a_vox_file_over_the_size_cap_is_refused_before_reading(capsys, tmp_path):
    (tmp_path / "maps").mkdir()
    with open(tmp_path / "maps" / "big.vox", "wb") as f:
        f.truncate(3 * 1024 ** 3)           # sparse: 3 GiB of nothing
    p = write(tmp_path, 'name = "t"\n[map]\nvox = "maps/big.vox"\n')
    rc, out, err = cli(capsys, "check", p)
    one_line(rc, err, "map.vox", "MiB")


@pytest.mark.unit
def test_a_fifo_as_the_map_is_refused(capsys, tmp_path):
    os.mkfifo(tmp_path / "pipe.vox")
    p = write(tmp_path, 'name = "t"\n[map]\nvox = "pipe.vox"\n')
    rc, out, err = cli(capsys, "check", p)
    one_line(rc, err, "map.vox", "not a regular file")


# ----------------------------------------------------------------------------------------------------- actions
def _session(text=None):
    return Session(parse_scene(text or scene(), "<t>"))


def _refused_unchanged(s, action):
    before = s.fingerprint()
    n = len(s.events)
    with pytest.raises(AerieError):
        s.step(action)
    assert s.fingerprint() == before and len(s.events) == n
    with pytest.raises(AerieError):
        s.preview(action)


@pytest.mark.unit
def test_a_parameter_nested_2000_deep_is_refused():
    s = _session()
    deep = []
    for _ in range(2000):
        deep = [deep]
    _refused_unchanged(s, {"actor": "a", "action": "attack", "target": "b", "comment": deep})
    _refused_unchanged(s, {"actor": "a", "action": "attack", "target": deep})


@pytest.mark.unit
@pytest.mark.parametrize("value", [float("nan"), float("inf"), {1, 2}, object(), b"x", 10 ** 30, {3: "x"}])
def test_comments_that_cannot_be_json_are_refused(value):
    s = _session()
    _refused_unchanged(s, {"actor": "a", "action": "attack", "target": "b", "comment": value})
    _refused_unchanged(s, {"actor": "a", "action": "attack", "target": "b", "note": value})


@pytest.mark.unit
def test_an_out_of_map_point_is_refused_not_ignored():
    s = _session(scene(a='spells = ["fire_bolt"]'))
    _refused_unchanged(s, {"actor": "a", "action": "cast", "spell": "fire_bolt", "target": "b", "at": [99, 1, 0]})


@pytest.mark.unit
def test_the_log_keeps_a_copy_of_the_action():
    s = _session()
    act = {"actor": "a", "action": "attack", "target": "b", "rolls": {"attack": 15, "damage": [2]}}
    s.step(act)
    log = [json.dumps(e, sort_keys=True) for e in s.events]
    act["target"] = "a"
    act["rolls"]["attack"] = 1
    assert [json.dumps(e, sort_keys=True) for e in s.events] == log
    assert s.actions[0]["target"] == "b"


@pytest.mark.unit
def test_a_save_is_a_snapshot():
    s = _session()
    s.step({"actor": "a", "action": "attack", "target": "b"})
    save = s.save()
    frozen = json.dumps(save, sort_keys=True)
    try:
        save["actions"].append({"actor": "b", "action": "end_turn"})
        save["events"].clear()
    except (AttributeError, TypeError):
        pass                        # immutable is fine too
    assert len(s.actions) == 1 and len(s.events) > 1
    assert json.dumps(s.save(), sort_keys=True) == frozen


# ----------------------------------------------------------------------------------------------------- saves/logs
def _played(tmp_path, text=None):
    p = write(tmp_path, text or scene(), "fight.toml")
    from engine.scene import load_scene

    s = Session(load_scene(p))
    s.step({"actor": "a", "action": "attack", "target": "b", "rolls": {"attack": 18, "damage": [3]}})
    return p, s


@pytest.mark.unit
@pytest.mark.parametrize("mangle", [
    lambda d: d.pop("scene"), lambda d: d.pop("seed"), lambda d: d.pop("actions"),
    lambda d: d.update(seed="x"), lambda d: d.update(actions=5), lambda d: d.update(actions=[5]),
    lambda d: d.update(options=7), lambda d: d.update(events=3), lambda d: d.update(scene=12),
    lambda d: d.update(version=99), lambda d: d.update(actions=[{"actor": "a"}]),
])
def test_a_damaged_save_is_one_clear_error(tmp_path, mangle):
    p, s = _played(tmp_path)
    d = json.loads(json.dumps(s.save()))
    mangle(d)
    with pytest.raises(AerieError):
        Session.load(d)


@pytest.mark.unit
@pytest.mark.parametrize("cut", [1, 10, 50, -3])
def test_a_truncated_log_is_one_clear_error(tmp_path, cut):
    p, s = _played(tmp_path)
    text = "".join(json.dumps(e) + "\n" for e in s.events)
    with pytest.raises(AerieError):
        Session.from_log(text[:cut].splitlines())


@pytest.mark.unit
@pytest.mark.parametrize("lines", [[], ["5"], ["null"], ["[]"], ['{"type": "session"}'], ['{"type": "action"}'],
                                   ["{}", "{}"], ['{"type": "session", "scene": 5, "seed": 1}']])
def test_a_log_of_junk_is_one_clear_error(lines):
    with pytest.raises(AerieError):
        Session.from_log(lines)


@pytest.mark.unit
@pytest.mark.parametrize("data", [[], 5, None, "x", {"type": "save"}])
def test_the_window_loads_a_junk_save_with_a_message(tmp_path, data):
    from engine.app.controller import Controller

    p, s = _played(tmp_path)
    ctl = Controller(s.scene)
    f = tmp_path / "x.save.json"
    f.write_text(json.dumps(data))
    assert ctl.load(f) is False
    assert "cannot load" in " ".join(map(str, ctl.message))


@pytest.mark.unit
def test_a_save_loads_from_any_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    p, s = _played(tmp_path)
    save = json.loads(json.dumps(s.save()))
    other = tmp_path / "elsewhere"
    other.mkdir()
    monkeypatch.chdir(other)
    s2 = Session.load(save)
    assert s2.fingerprint() == s.fingerprint()


@pytest.mark.unit
@pytest.mark.parametrize("edit", [
    lambda t: t.replace("initiative = 10\n", "initiative = 10\nmax_hp = 99\n"),
    lambda t: t.replace("initiative = 10\n", "initiative = 10\nac = 3\n"),
    lambda t: t.replace("at = [2, 1, 0]", "at = [3, 1, 0]"),
    lambda t: t.replace('name = "t"', 'name = "u"'),
])
def test_an_edited_scene_is_detected_on_load_and_replay(tmp_path, edit):
    p, s = _played(tmp_path)
    save = json.loads(json.dumps(s.save()))
    log = [json.dumps(e) for e in s.events]
    p.write_text(edit(p.read_text()))
    with pytest.raises(AerieError, match="changed"):
        Session.load(save)
    with pytest.raises(AerieError, match="changed"):
        Session.from_log(log)


# ----------------------------------------------------------------------------------------------------- CLI and outputs
@pytest.mark.parametrize("args,needle", [
    (["render", "scenes/showcase.toml", "-o", "OUT.png", "--orbit", "inf"], "--orbit"),
    (["render", "scenes/showcase.toml", "-o", "OUT.png", "--orbit", "nan"], "--orbit"),
    (["flythrough", "scenes/showcase.toml", "-o", "OUT.mp4", "--seconds", "nan"], "--seconds"),
    (["flythrough", "scenes/showcase.toml", "-o", "OUT.mp4", "--seconds", "inf"], "--seconds"),
    (["flythrough", "scenes/showcase.toml", "-o", "OUT.mp4", "--seconds", "1e9"], "--seconds"),
    (["flythrough", "scenes/showcase.toml", "-o", "OUT.mp4", "--fps", "100000"], "--fps"),
    (["render", "scenes/showcase.toml", "-o", "OUT.png", "--step", "-1"], "--step"),
    (["run", "scenes/showcase.toml", "--seed", "1" + "0" * 30], "--seed"),
])
@pytest.mark.unit
def test_bad_numbers_on_the_command_line(capsys, tmp_path, args, needle):
    args = [str(tmp_path / a[4:]) if a.startswith("OUT.") else a for a in args]
    with pytest.raises(SystemExit) as e:
        main(args)
    out, err = capsys.readouterr()
    assert e.value.code == 2 and needle in err and len(err.strip().splitlines()) == 1, err
    assert not list(tmp_path.iterdir())


@pytest.mark.unit
@pytest.mark.parametrize("content,suffix", [('{"script": 5}', ".json"), ('{"script": [5]}', ".json"),
                                            ('{"expect": {"a": 1}}', ".json"), ('{"scrpt": []}', ".json"),
                                            ("5\n", ".jsonl"), ("script = 5\n", ".toml"),
                                            ('[[script]]\nwhen = 1979-05-27\n', ".toml")])
def test_a_bad_actions_file(capsys, tmp_path, content, suffix):
    f = tmp_path / f"acts{suffix}"
    f.write_text(content)
    rc, out, err = cli(capsys, "run", ROOT / "scenes/air_reach.toml", "--actions", f)
    one_line(rc, err, file=f.name)


@pytest.mark.unit
def test_run_log_refuses_to_overwrite_its_own_scene(capsys, tmp_path):
    p = write(tmp_path, scene(tail=SCRIPT), "fight.toml")
    before = p.read_bytes()
    rc, out, err = cli(capsys, "run", p, "--log", p)
    one_line(rc, err, "input", file="fight.toml")
    assert p.read_bytes() == before


@pytest.mark.unit
def test_run_log_refuses_to_overwrite_its_actions_file(capsys, tmp_path):
    p = write(tmp_path, scene(), "fight.toml")
    acts = tmp_path / "acts.toml"
    acts.write_text(SCRIPT)
    before = acts.read_bytes()
    rc, out, err = cli(capsys, "run", p, "--actions", acts, "--log", acts)
    one_line(rc, err, "input", file="acts.toml")
    assert acts.read_bytes() == before


@pytest.mark.unit
def test_illegal_step_exit_status_is_documented_the_same_everywhere():
    """An illegal step is bad input (exit 2); failed expectations on a legal script exit 1: both documents say so."""
    readme = " ".join((ROOT / "README.md").read_text().split())
    core = " ".join((ROOT / "docs/rules-core.md").read_text().split())
    assert "is bad input too: one line naming the step, the key and the rule, exit status 2" in readme
    assert "expectations fail exits with status 1" in readme
    assert "a step that is illegal or malformed" in core and "exit status 1 when every step was legal" in core


@pytest.mark.unit
def test_an_illegal_step_exits_2_with_one_line_and_a_failed_expectation_exits_1(tmp_path):
    import subprocess
    import sys

    scene = ROOT / "scenes" / "air_layers.toml"
    bad = tmp_path / "bad.json"
    bad.write_text('[{"actor": "nobody", "action": "end_turn"}]')
    r = subprocess.run([sys.executable, "-m", "engine", "run", str(scene), "--actions", str(bad)],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "script[0]" in r.stderr, r.stderr
    fail = tmp_path / "fail.json"
    fail.write_text('{"script": [], "expect": [{"after": 0, "character": "%s", "hp": -999}]}' % _first_id(scene))
    r = subprocess.run([sys.executable, "-m", "engine", "run", str(scene), "--actions", str(fail)],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr


def _first_id(scene):
    from engine.scene import load_scene

    return load_scene(scene).characters[0].id


@pytest.mark.gl
def test_a_replay_refused_at_step_3_keeps_the_old_video(capsys, tmp_path):
    p = write(tmp_path, scene(tail='''
[[script]]
actor = "a"
action = "end_turn"
[[script]]
actor = "b"
action = "end_turn"
[[script]]
actor = "a"
action = "move"
to = [11, 9, 7]
'''), "fight.toml")
    out = tmp_path / "fight.mp4"
    out.write_bytes(b"the old video")
    rc, _, err = cli(capsys, "replay", p, "-o", out, "--fps", "4", "--size", "64x48")
    err = "\n".join(line for line in err.splitlines() if " frames, " not in line)     # the progress bar
    one_line(rc, err, "script[2]", file="fight.toml")
    assert out.read_bytes() == b"the old video"
    assert [f.name for f in tmp_path.iterdir() if ".tmp-" in f.name] == []


@pytest.mark.gl
def test_render_refuses_to_overwrite_its_scene(capsys, tmp_path):
    p = write(tmp_path, scene(), "fight.png")          # a scene file that happens to end in .png
    before = p.read_bytes()
    rc, _, err = cli(capsys, "render", p, "-o", p, "--size", "64x48")
    one_line(rc, err, "input", file="fight.png")
    assert p.read_bytes() == before


@pytest.mark.unit
@pytest.mark.parametrize("name", ["dnd5e", "baton"])
def test_every_default_option_is_declared_and_valid(name):
    """A ruleset's DEFAULT_OPTIONS and its typed SPECS agree (a new option must be declared to be usable)."""
    from engine.rules.options import specs_for, validate_options
    from engine.rules.ruleset import get_ruleset

    rs = type(get_ruleset(name))
    specs = specs_for(name)
    assert set(rs.DEFAULT_OPTIONS) <= set(specs), set(rs.DEFAULT_OPTIONS) - set(specs)
    defaults = {k: v for k, v in rs.DEFAULT_OPTIONS.items() if v is not None}
    defaults = json.loads(json.dumps(defaults))          # as a scene would write them (lists, not tuples)
    assert validate_options(specs, defaults) == defaults


@pytest.mark.unit
@pytest.mark.parametrize("args", [
    ["run", "SCENE", "--actions", "\x00"], ["check", "a\x00b.toml"], ["run", "SCENE", "--log", "x\x00.jsonl"],
    ["render", "SCENE", "-o", "x\x00.png"],
])
def test_a_path_with_a_nul_byte(capsys, tmp_path, args):
    """Found by `make fuzz` (the CLI target): os.open raised ValueError on a NUL in a path."""
    p = write(tmp_path, scene(), "s.toml")
    args = [str(p) if a == "SCENE" else a for a in args]
    rc, out, err = cli(capsys, *args)
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "NUL" in err, err


@pytest.mark.unit
def test_an_argument_with_a_control_character(capsys):
    """Found by the fuzz CLI target: argparse's own message for an argument holding \\x85 printed two lines."""
    with pytest.raises(SystemExit) as e:
        main(["check", "a.toml", "\x85x"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and len(err.strip().splitlines()) == 1 and "\\x85" in err, err


@pytest.mark.unit
def test_the_capture_tools_json_flags_say_what_is_wrong_in_one_line(tmp_path):
    """python -m engine.app.capture (the README's stills): --actions / --compose / --answers take inline JSON or a
    file; bad ones are one line naming the flag, exit 2 -- checked before any window opens (no display needed)."""
    import subprocess
    import sys

    from engine.app.capture import BadArgument, json_arg

    f = tmp_path / "acts.json"
    f.write_text('[{"actor": "kite", "action": "end_turn"}]')
    assert json_arg("--actions", str(f)) == [{"actor": "kite", "action": "end_turn"}]
    assert json_arg("--compose", '{"action": "attack"}') == {"action": "attack"}
    for flag, text, says in (("--actions", str(tmp_path / "none.json"), "no such file"),
                             ("--compose", "{bad", "not JSON"), ("--answers", "[1,", "not JSON")):
        with pytest.raises(BadArgument, match=says) as e:
            json_arg(flag, text)
        assert str(e.value).startswith(flag) and "\n" not in str(e.value)
    r = subprocess.run([sys.executable, "-m", "engine.app.capture", str(tmp_path / "no.toml"), "-o", str(tmp_path / "x.png")],
                       capture_output=True, text=True, timeout=120, env={k: v for k, v in __import__("os").environ.items()
                                                                        if k != "DISPLAY"})
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr, r.stderr
    assert "xvfb-run" in r.stderr                                       # no display: it says how to get one


BAD_AFTER_FAILS = SCRIPT + '''
[[script]]
actor = "a"
action = "fly"

[[expect]]
after = 1
character = "a"
hp = -5

[[expect]]
after = 0
character = "b"
hp = -7
'''


@pytest.mark.unit
def test_a_bad_step_after_failed_expectations_is_one_line_and_the_log_is_kept(capsys, tmp_path):
    """A malformed step is bad input: one line (the expectations that failed before it counted on it; they were a
    line each, found by fuzzing) and exit 2, and --log leaves the previous file as it was (it was replaced)."""
    p = write(tmp_path, scene(), "fight.toml")
    acts = tmp_path / "acts.toml"
    acts.write_text(BAD_AFTER_FAILS)
    log = tmp_path / "log.jsonl"
    log.write_text("OLD\n")
    rc, out, err = cli(capsys, "run", p, "--actions", acts, "--log", log)
    one_line(rc, err, "script[1].action", "unknown action 'fly'", "2 expectation(s) failed before it", file="fight.toml")
    assert log.read_text() == "OLD\n"
    # a legal script whose expectations fail is a result: exit 1, a line each, and the log written
    acts.write_text(BAD_AFTER_FAILS.replace('action = "fly"', 'action = "end_turn"'))
    rc, out, err = cli(capsys, "run", p, "--actions", acts, "--log", log)
    assert rc == 1 and len(err.strip().splitlines()) == 2, err
    assert log.read_text() != "OLD\n"


@pytest.mark.unit
@pytest.mark.parametrize("cmd", [["flythrough", "--seconds", "1", "--fps", "2", "-o"], ["render", "-o"]])
def test_a_folder_that_holds_no_new_file_is_refused_before_the_work(capsys, tmp_path, cmd):
    """/proc passes the permission test even for root: the video was encoded, then ffmpeg printed three lines of
    its own and the error came after (found by fuzzing); now the output's temporary file is made first."""
    if not os.path.isdir("/proc/self"):
        pytest.skip("no /proc here")
    p = write(tmp_path, scene(), "s.toml")
    out = "/proc/aerie-x.gif" if cmd[0] == "flythrough" else "/proc/aerie-x.png"
    rc, so, err = cli(capsys, cmd[0], p, *cmd[1:], out, "--size", "32x32")
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "cannot write there" in err, err
