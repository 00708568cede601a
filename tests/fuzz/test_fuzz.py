"""Property-based fuzzing (Hypothesis) of every boundary a user reaches: the scene parser, the .vox reader,
Session.step / preview, Session.load / from_log and the CLI.

Each target asserts the same three promises (docs/reliability.md):
  1. only the project's own errors come out (AerieError and its subclasses), each one line;
  2. after a refusal the state is unchanged (fingerprint, event count, dice);
  3. outputs are never partial (a log is whole JSON lines; a refused command leaves the old file byte for byte).

``make test`` runs the ``ci`` profile (derandomized, a few hundred cases a target, well under a minute in all);
``make fuzz`` runs the ``fuzz`` profile (AERIE_FUZZ=1: 10,000 cases a target, random seeds).
"""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import AerieError
from engine.rules.core import dumps
from engine.rules.session import Session
from engine.scene import parse_scene
from engine.world.vox import read_vox, vox_bytes

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[2]
SCENES = ROOT / "scenes"

settings.register_profile("ci", max_examples=int(os.environ.get("AERIE_FUZZ_EXAMPLES", 60)), derandomize=True,
                          deadline=None, database=None, suppress_health_check=list(HealthCheck))
settings.register_profile("fuzz", max_examples=int(os.environ.get("AERIE_FUZZ_EXAMPLES", 10_000)),
                          deadline=None, database=None, suppress_health_check=list(HealthCheck))
settings.load_profile("fuzz" if os.environ.get("AERIE_FUZZ") else "ci")

COUNTS: dict[str, dict[str, int]] = {}


def _count(target: str, outcome: str) -> None:
    c = COUNTS.setdefault(target, {})
    c[outcome] = c.get(outcome, 0) + 1


@pytest.fixture(scope="module", autouse=True)
def _report():
    yield
    path = os.environ.get("AERIE_FUZZ_REPORT")
    if path:
        old = json.loads(Path(path).read_text()) if Path(path).exists() else {}
        for k, v in COUNTS.items():
            old[k] = v
        Path(path).write_text(json.dumps(old, indent=1, sort_keys=True))


def one_line(e: BaseException) -> None:
    assert isinstance(e, AerieError), repr(e)
    assert "\n" not in str(e) and "\r" not in str(e), repr(str(e))


# ------------------------------------------------------------------------------------------ values a user types
def _toml_str(s: str) -> str:
    return json.dumps(s)        # JSON string escapes are TOML basic-string escapes


scalars = st.one_of(
    st.integers(min_value=-(2 ** 70), max_value=2 ** 70), st.sampled_from([0, 1, -1, 2 ** 53, 2 ** 53 + 1, 10 ** 30]),
    st.floats(allow_nan=True, allow_infinity=True), st.booleans(),
    st.text(max_size=12), st.sampled_from(["", "1d0", "-3d6", "99999999d6", "2d6", "d8", "..", "/dev/zero",
                                           "../../etc/passwd", "a\nb", "nan", "inf", "5e", "@assets/../x"]))
toml_scalars = st.one_of(
    st.integers(min_value=-(2 ** 70), max_value=2 ** 70).map(str),
    st.sampled_from(["nan", "inf", "-inf", "1e308", "-0.0", "0.5", "true", "false", "1979-05-27", "07:32:00",
                     "1979-05-27T07:32:00Z", "9" * 5000, "[]", "{}", "[[[[[[[[1]]]]]]]]", "[" * 300 + "]" * 300,
                     '"1d0"', '"-3d6"', '"99999999d6"', '"../../x"', '"/dev/zero"', '"a\\nb"', '"generic"']),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.text(max_size=10).map(_toml_str))
toml_values = st.recursive(toml_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4).map(lambda xs: "[" + ", ".join(xs) + "]"),
    st.dictionaries(st.from_regex(r"[a-z_]{1,8}", fullmatch=True), inner, max_size=3).map(
        lambda d: "{ " + ", ".join(f"{k} = {v}" for k, v in d.items()) + " }")), max_leaves=8)

KEYS = ["name", "ruleset", "seed", "version", "size", "cell_m", "vox", "at", "id", "side", "flying", "kind", "model",
        "size", "height_layers", "eye_m", "max_hp", "hp", "temp_hp", "ac", "speed_m", "fly_speed_m", "reach_m",
        "weapons", "damage", "to_hit", "abilities", "attributes", "skills", "spells", "conditions", "initiative",
        "mount", "diagonal", "climb_m", "descend_m", "chance_cap", "base_difficulty", "rolls", "after", "character",
        "events", "event", "position", "look_at", "fov", "t", "actor", "action", "target", "to", "comment",
        "fall_cap_percent", "upkeep", "cover_thresholds", "fire_sources", "damage_scale", "protection", "vigor",
        "wounds", "items", "equipped", "defence", "\"bad\\nkey\"", "unknown_key", "diagonl"]
TABLES = ["[map]", "[options]", "[[characters]]", "[[script]]", "[[expect]]", "[[cameras]]", "[[flythrough]]",
          "[materials.moss]", "[map.vox_materials]", "[[map.fill]]"]

_SCENE_TEXTS = {p.name: p.read_text() for p in sorted(SCENES.glob("*.toml")) if p.name != "showcase.toml"}


@st.composite
def mutated_scene(draw):
    name = draw(st.sampled_from(sorted(_SCENE_TEXTS)))
    lines = _SCENE_TEXTS[name].splitlines()
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["value", "value", "value", "insert", "delete", "duplicate", "table", "truncate"]))
        i = draw(st.integers(0, max(len(lines) - 1, 0)))
        if op == "value":
            idx = [j for j, line in enumerate(lines) if re.match(r"\s*[A-Za-z_\"]+\s*=", line)]
            if idx:
                j = idx[i % len(idx)]
                key = lines[j].split("=", 1)[0]
                lines[j] = f"{key}= {draw(toml_values)}"
        elif op == "insert":
            lines.insert(i, f"{draw(st.sampled_from(KEYS))} = {draw(toml_values)}")
        elif op == "delete" and lines:
            del lines[i]
        elif op == "duplicate" and lines:
            lines.insert(i, lines[i])
        elif op == "table":
            lines.insert(i, draw(st.sampled_from(TABLES)))
        elif op == "truncate":
            lines = lines[: i + 1]
    return name, "\n".join(lines) + "\n"


@settings(max_examples=settings().max_examples)
@given(mutated_scene())
def test_fuzz_scene_parser(case):
    """Whatever the parser accepts, a session starts on and its script plays; whatever it refuses, it refuses
    with one line naming the file."""
    from engine.rules.runner import play

    name, text = case
    try:
        scene = parse_scene(text, "fuzz.toml", SCENES)
    except AerieError as e:
        one_line(e)
        assert str(e).startswith("fuzz.toml"), str(e)
        _count("scene parser", "refused")
        return
    except Exception as e:  # noqa: BLE001 -- the point of the test
        raise AssertionError(f"{type(e).__name__} from a mutation of {name}: {e}\n---\n{text}") from e
    try:
        session, problems = play(scene)         # "aerie run": must not crash (illegal steps are results)
    except AerieError as e:
        one_line(e)
        _count("scene parser", "accepted, run refused input")
        return
    for ev in session.events:
        assert json.loads(dumps(ev)) == json.loads(json.dumps(ev)), ev      # the log is JSON, no NaN
    _count("scene parser", "accepted and played")


# ------------------------------------------------------------------------------------------------- .vox
def _valid_vox(seed: int) -> bytes:
    rng = np.random.default_rng(seed)
    shape = tuple(int(v) for v in rng.integers(1, 9, 3))
    vox = (rng.random(shape) < 0.3).astype(np.uint8) * rng.integers(1, 255, shape).astype(np.uint8)
    return vox_bytes(vox, version=int(rng.choice([150, 200])))


@st.composite
def hostile_vox(draw):
    data = bytearray(_valid_vox(draw(st.integers(0, 50))))
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.sampled_from(["byte", "int32", "cut", "insert", "splice"]))
        i = draw(st.integers(0, max(len(data) - 1, 0)))
        if op == "byte" and data:
            data[i] = draw(st.integers(0, 255))
        elif op == "int32" and len(data) >= i + 4:
            v = draw(st.sampled_from([0, -1, 1, 2 ** 31 - 1, -(2 ** 31), 256, 1 << 20, 0x7FFF0000]))
            data[i:i + 4] = int(v).to_bytes(4, "little", signed=True)
        elif op == "cut":
            del data[i:]
        elif op == "insert":
            data[i:i] = draw(st.binary(max_size=32))
        elif op == "splice":
            data[i:i] = data[: draw(st.integers(0, 64))]
    return bytes(data)


@given(hostile_vox())
def test_fuzz_vox_reader(data):
    try:
        m = read_vox(data, name="fuzz.vox", max_voxels=1 << 22, max_side=1024)
    except AerieError as e:
        one_line(e)
        assert str(e).startswith("fuzz.vox"), str(e)
        _count(".vox reader", "refused")
        return
    assert m.voxels.ndim == 3 and m.voxels.dtype == np.uint8 and m.voxels.size <= 1 << 22
    _count(".vox reader", "read")


# ------------------------------------------------------------------------------------------------- actions
_DUEL = '''name = "duel"
ruleset = "{ruleset}"
seed = 4
initiative_starts = "a"
[map]
size = [10, 8, 8]
fill = [{{ material = "stone", from = [5, 0, 0], to = [5, 3, 1] }}]
[[characters]]
id = "a"
side = "red"
at = [1, 1, 0]
{a}
[[characters]]
id = "h"
side = "blue"
at = [2, 2, 3]
flying = true
{h}
'''
_SESSIONS = {
    "dnd5e": _DUEL.format(ruleset="dnd5e", a='weapons = ["longsword", "shortbow"]\nspells = ["fire_bolt", "magic_missile"]\ninitiative = 20',
                          h='kind = "harpy"\ninitiative = 5').replace('initiative_starts = "a"\n', ""),
    "baton": _DUEL.format(ruleset="baton", a='pc = true\nskills = { fight_longsword = 2, dodge = 1 }\nweapons = ["longsword", "shortbow"]',
                          h='kind = "harpy"'),
}
_SCENE_OBJ = {k: parse_scene(v, f"<{k}>") for k, v in _SESSIONS.items()}

json_like = st.recursive(
    scalars | st.none(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=10)
hostile_value = st.one_of(
    json_like, st.just(float("nan")), st.frozensets(st.integers(), max_size=2), st.binary(max_size=4),
    st.builds(object), st.integers(min_value=0, max_value=3000).map(lambda n: _nest(n)),
    st.lists(st.integers(-3, 20), min_size=3, max_size=3), st.sampled_from(["a", "h", "gm", "nobody", ""]))


def _nest(n):
    v = []
    for _ in range(n):
        v = [v]
    return v


@st.composite
def action(draw, ruleset):
    s = _SCENE_OBJ[ruleset]
    names = sorted(Session(s).ruleset.action_specs())
    act = {}
    if draw(st.integers(0, 9)):
        act["actor"] = draw(st.sampled_from(["a", "h", "gm", "nobody", 5]))
    if draw(st.integers(0, 9)):
        act["action"] = draw(st.sampled_from(names + ["fly_to_the_moon", None]))
    keys = ["target", "to", "at", "weapon", "spell", "rolls", "comment", "note", "amount", "type", "skill",
            "difficulty", "effect", "ally", "add", "remove", "careful", "defence", "object", "mount", "x"]
    for k in draw(st.lists(st.sampled_from(keys), max_size=4, unique=True)):
        if k == "rolls":
            act[k] = draw(st.dictionaries(st.sampled_from(["attack", "damage", "fall", "save", "test", "x"]),
                                          st.integers(-2, 30) | st.lists(st.integers(-2, 30), max_size=3) | hostile_value,
                                          max_size=3))
        elif k in ("to", "at"):
            act[k] = draw(st.lists(st.integers(-3, 12), min_size=3, max_size=3) | hostile_value)
        else:
            act[k] = draw(hostile_value)
    return act


def _state(s):
    return s.fingerprint(), len(s.events), len(s.actions)


@pytest.mark.parametrize("ruleset", ["dnd5e", "baton"])
def test_fuzz_step_and_preview(ruleset):
    """A sequence of hostile actions: each is refused with a project error and nothing changes, or it is played
    and its events are whole JSON; preview never raises anything else and never changes the state."""

    @given(st.data())
    def run(data):
        s = Session(_SCENE_OBJ[ruleset])
        for _ in range(data.draw(st.integers(1, 8))):
            kind = data.draw(st.sampled_from(["legal", "mutated legal", "hostile"]))
            legal = s.legal_actions() if kind != "hostile" else []
            if legal:
                act = json.loads(json.dumps(data.draw(st.sampled_from(legal))))
                if kind == "mutated legal":        # one parameter changed, added or dropped
                    k = data.draw(st.sampled_from(sorted(act) + ["rolls", "comment", "to", "target", "at"]))
                    if data.draw(st.booleans()) and k in act:
                        del act[k]
                    else:
                        act[k] = data.draw(hostile_value | st.lists(st.integers(-3, 12), min_size=3, max_size=3))
            else:
                act = data.draw(action(ruleset))
            before = _state(s)
            try:
                s.preview(act)
            except AerieError as e:
                one_line(e)
            except Exception as e:  # noqa: BLE001
                raise AssertionError(f"preview({act!r}) raised {type(e).__name__}: {e}") from e
            assert _state(s) == before, "preview changed the state"
            snapshot = json.dumps(act, sort_keys=True, default=repr) if _jsonable(act) else None
            try:
                evs = s.step(act).log
            except AerieError as e:
                one_line(e)
                assert _state(s) == before, "a refused step changed the state"
                _count(f"Session.step ({ruleset})", "refused")
                continue
            except Exception as e:  # noqa: BLE001
                raise AssertionError(f"step({act!r}) raised {type(e).__name__}: {e}") from e
            for ev in evs:
                json.loads(dumps(ev))
            if snapshot is not None and isinstance(act, dict):       # the log holds a copy, not the caller's dict
                act.clear()
                assert evs[0]["type"] == "action" and json.dumps(evs[0]["action"], sort_keys=True) == snapshot
            _count(f"Session.step ({ruleset})", "played")
        # the log that came out replays to the same state
        assert Session.from_log([dumps(e) for e in s.events], scene=_SCENE_OBJ[ruleset]).fingerprint() == s.fingerprint()

    run()


def _jsonable(v) -> bool:
    try:
        json.dumps(v, allow_nan=False)
        return True
    except (TypeError, ValueError, RecursionError):
        return False


# ------------------------------------------------------------------------------------------------- saves, logs
def _played(ruleset="dnd5e"):
    s = Session(_SCENE_OBJ[ruleset])
    for a in s.legal_actions()[:3]:
        try:
            s.step(a)
        except AerieError:
            pass
    return s


_SAVE = _played().save()
_LOG = [dumps(e) for e in _played().events]


@st.composite
def damaged_save(draw):
    d = json.loads(json.dumps(_SAVE))
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["drop", "set", "action", "event", "junk", "param", "param"]))
        if op == "param" and isinstance(d.get("actions"), list) and d["actions"]:   # one action's parameter
            a = d["actions"][draw(st.integers(0, len(d["actions"]) - 1))]
            if isinstance(a, dict):
                a[draw(st.sampled_from(sorted(a) + ["rolls", "comment"]))] = draw(json_like)
        elif op == "drop" and d:
            d.pop(draw(st.sampled_from(sorted(d))), None)
        elif op == "set":
            d[draw(st.sampled_from(["type", "version", "scene", "seed", "options", "actions", "events", "scene_hash"]))] = \
                draw(json_like)
        elif op == "action" and isinstance(d.get("actions"), list) and d["actions"]:
            i = draw(st.integers(0, len(d["actions"]) - 1))
            d["actions"][i] = draw(json_like)
        elif op == "event" and isinstance(d.get("events"), list) and d["events"]:
            i = draw(st.integers(0, len(d["events"]) - 1))
            d["events"][i] = draw(json_like)
        elif op == "junk":
            return draw(json_like)
    return d


@given(damaged_save())
def test_fuzz_session_load(save):
    try:
        s = Session.load(save, scene=_SCENE_OBJ["dnd5e"] if isinstance(save, dict) and "scene" in save else None)
    except AerieError as e:
        one_line(e)
        _count("Session.load", "refused")
        return
    except Exception as e:  # noqa: BLE001
        raise AssertionError(f"load raised {type(e).__name__}: {e} for {save!r}") from e
    assert [dumps(e) for e in s.events][1:] == [dumps(e) for e in save["events"]][1:] if "events" in save else True
    _count("Session.load", "loaded")


@st.composite
def damaged_log(draw):
    lines = list(_LOG)
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["cut", "drop", "swap", "junk", "edit"]))
        i = draw(st.integers(0, len(lines) - 1)) if lines else 0
        if op == "cut" and lines:
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
        elif op == "drop" and lines:
            del lines[i]
        elif op == "swap" and len(lines) > 1:
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "junk":
            lines.insert(i, draw(st.text(max_size=20) | json_like.map(json.dumps)))
        elif op == "edit" and lines:
            try:
                e = json.loads(lines[i])
            except ValueError:
                continue
            if isinstance(e, dict) and e:
                e[draw(st.sampled_from(sorted(e)))] = draw(json_like)
                lines[i] = json.dumps(e)
    return lines


@given(damaged_log())
def test_fuzz_session_from_log(lines):
    try:
        s = Session.from_log(lines, scene=_SCENE_OBJ["dnd5e"])
    except AerieError as e:
        one_line(e)
        _count("Session.from_log", "refused")
        return
    except Exception as e:  # noqa: BLE001
        raise AssertionError(f"from_log raised {type(e).__name__}: {e} for {lines!r}") from e
    _count("Session.from_log", "loaded")
    assert s.events[0]["type"] == "session"


# ------------------------------------------------------------------------------------------------- the CLI
TOKENS = ["check", "run", "render", "flythrough", "replay", "query", "play", "bench", "demo", "--seed", "--orbit",
          "--seconds", "--fps", "--size", "--step", "--camera", "--overlay", "--actions", "--log", "--json", "-o",
          "--from", "--to", "nan", "inf", "-inf", "1e999", "-1", "0", "3", "1280x720", "0x0", "99999x2", "x.png",
          "x.mp4", "LOG", "SCENE", "ACTS", "1" + "0" * 30, "--", "-", ""]


def _materialise(argv, tmp):
    out = []
    for t in argv:
        out.append({"LOG": str(tmp / "old.log"), "SCENE": str(tmp / "s.toml"), "ACTS": str(tmp / "acts.json"),
                    "x.png": str(tmp / "x.png"), "x.mp4": str(tmp / "x.mp4")}.get(t, t))
    return out


_TINY = '''name = "tiny"
seed = 1
[map]
size = [6, 6, 4]
[[characters]]
id = "a"
side = "r"
at = [1, 1, 0]
initiative = 9
weapons = ["dagger"]
[[characters]]
id = "b"
side = "b"
at = [2, 1, 0]
initiative = 3
[[script]]
actor = "a"
action = "attack"
target = "b"
'''


FLAGS = {
    "check": [], "query": ["--from", "--to", "--json"],
    "run": ["--seed", "--actions", "--json", "--log"],
    "render": ["-o", "--size", "--camera", "--orbit", "--step", "--seed", "--overlay"],
    "flythrough": ["-o", "--seconds", "--fps", "--size"], "replay": ["-o", "--fps", "--size", "--seed", "--actions"],
    "play": ["--seed", "--size"], "bench": ["--rays", "--seed", "--quick"], "demo": ["--scene"],
}
VALUES = ["nan", "inf", "-inf", "1e999", "-1", "0", "3", "2.5", "1280x720", "0x0", "99999x2", "x.png", "x.mp4",
          "LOG", "SCENE", "ACTS", "1" + "0" * 30, "a", "b", "nobody", "grid:2", "reach:a", "sightlines:a:b", "-", ""]


@st.composite
def argv(draw):
    """Mostly well-formed command lines with hostile values; sometimes random tokens."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.lists(st.sampled_from(TOKENS) | st.text(max_size=6), max_size=8))
    cmd = draw(st.sampled_from(sorted(FLAGS)))
    out = [cmd] + ([] if cmd in ("bench", "demo") else [draw(st.sampled_from(["SCENE", "SCENE", "SCENE", "ACTS", "LOG", "nope.toml"]))])
    if cmd == "bench":
        out.append(draw(st.sampled_from(["los", "rules", "render", "window", "x"])))
    for f in draw(st.lists(st.sampled_from(FLAGS[cmd] or ["--x"]), max_size=4)):
        out.append(f)
        if f not in ("--json", "--quick"):
            out.append(draw(st.sampled_from(VALUES) | st.text(max_size=5)))
    return out


@given(argv())
def test_fuzz_cli_arguments(tmp_path_factory, argv):
    """The argument parser: exit 2 with one line, or a namespace of finite numbers. ``check`` and ``run`` are then
    run for real: a refused command leaves an existing output byte for byte, a finished one writes it whole."""
    import contextlib
    import io

    from engine.cli import build_parser, main

    tmp = tmp_path_factory.mktemp("cli")
    (tmp / "s.toml").write_text(_TINY)
    (tmp / "acts.json").write_text('[{"actor": "a", "action": "end_turn"}]')
    (tmp / "old.log").write_text("OLD\n")
    args = _materialise(argv, tmp)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            ns = build_parser().parse_args(args)
        except SystemExit as e:
            assert e.code in (0, 2), e.code
            assert len(err.getvalue().strip().splitlines()) <= 1 or e.code == 0, err.getvalue()
            _count("CLI arguments", "refused by the parser" if e.code else "help")
            return
    for v in vars(ns).values():
        if isinstance(v, float):
            assert math.isfinite(v), ns
    if ns.command not in ("check", "run"):
        _count("CLI arguments", "parsed")
        return
    err = io.StringIO()
    before = {p.name for p in tmp.iterdir()}
    here = os.getcwd()
    os.chdir(tmp)                  # a relative --log lands in the case's own folder, never in the checkout
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            rc = main(args)
        log_target = os.path.abspath(ns.log) if ns.command == "run" and ns.log else None
    finally:
        os.chdir(here)
    assert rc in (0, 1, 2), rc
    if rc == 2:
        assert len(err.getvalue().strip().splitlines()) == 1, err.getvalue()
    log = (tmp / "old.log").read_text()
    if log != "OLD\n":
        assert ns.command == "run" and rc in (0, 1) and log_target == str(tmp / "old.log")
    for p in tmp.iterdir():
        if p.name not in before:         # a new file: only the log asked for, whole
            assert log_target == str(p) and rc in (0, 1), p
        if (p.name == "old.log" or (rc in (0, 1) and str(p) == log_target)) and p.read_text() != "OLD\n":
            for line in p.read_text().splitlines():
                json.loads(line)                        # whole, never partial
    assert (tmp / "s.toml").read_text() == _TINY and not [p for p in tmp.iterdir() if ".tmp-" in p.name]
    _count("CLI arguments", f"ran, exit {rc}")
