"""Property-based fuzzing (Hypothesis) of the GM's ``;`` line (engine/app/gmline.py): what a GM may type, well
formed or not. The promise: ``gm_line`` never raises; a refused line says why on the message line and leaves the
session as it was (fingerprint and events); a line that stepped leaves a log that replays to the same state."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.app.controller import Controller
from engine.app.gmline import gm_line
from engine.rules.session import Session
from engine.scene import load_scene

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[2]
PROFILE = settings(max_examples=int(os.environ.get("AERIE_FUZZ_EXAMPLES", 10_000 if os.environ.get("AERIE_FUZZ") else 60)),
                   derandomize=not os.environ.get("AERIE_FUZZ"), deadline=None, database=None,
                   suppress_health_check=list(HealthCheck))

VERBS = ["hp", "cond", "place", "add", "remove", "do", "set", "blocks", "save", "start", "roll", "HP", "Place",
         "kill", "", "undo", "turn", "x"]
WORDS = ["knight", "harpy", "giant_eagle", "wyvern", "archer", "Kestrel", '"Sir Roland"', '"open', "like", "side=blue",
         "side=", "id=x", "id=", "at", "fly", "+prone", "-prone", "+", "-", "+nope", "12", "-3", "0", "1e9", "nan",
         "99999999999999999999", "3.5", "x", "scene", "/tmp/../nowhere/x.toml", "out.txt", "=", '""', "ogre",
         "aldric", "Sir", "Aldric", "gm", "*", "1", "2", "5", "30"]
_SCENES: dict = {}


def _ctl(name):
    sc = _SCENES.get(name) or _SCENES.setdefault(name, load_scene(ROOT / "scenes" / f"{name}.toml"))
    return Controller(sc)


NUMS = ["0", "1", "5", "12", "30", "-1", "-3", "1e9", "nan", "3.5", "99999999999999999999", "x", ""]
CONDS = ["prone", "poisoned", "unconscious", "restrained", "grappled", "flying", "nope", ""]
KEYS = ["hp", "temp_hp", "layer", "flying", "exhaustion", "stable", "speed", "nope", "side", "name"]


def _line(draw, ctl) -> str:
    """A GM line: one in five any words, else a command's own shape with hostile parts."""
    names = [a.id for a in ctl.state.actors.values()] + [f'"{a.name}"' for a in ctl.state.actors.values()]
    who = st.sampled_from(names + ["nobody", '"Sir', "gm", ""])
    num = st.sampled_from(NUMS) | st.integers(-10**6, 10**6).map(str)
    if draw(st.integers(0, 4)) == 0:
        return " ".join(draw(st.lists(st.sampled_from(VERBS + WORDS) | st.text(max_size=6), max_size=8)))
    kind = draw(st.sampled_from(["hp", "cond", "place", "add", "like", "remove", "set", "order", "roll", "do",
                                 "save", "blocks"]))
    if kind == "hp":
        return f"hp {draw(who)} {draw(num)}"
    if kind == "cond":
        return f"cond {draw(who)} {draw(st.sampled_from(['+', '-', '']))}{draw(st.sampled_from(CONDS))}"
    if kind == "place":
        return f"place {draw(who)} {draw(num)} {draw(num)} {draw(num)}"
    if kind in ("add", "like"):
        name = draw(st.sampled_from(['"New One"', "Kestrel", "x", '""', "knight"]))
        what = (f"like {draw(who)}" if kind == "like"
                else draw(st.sampled_from(["knight", "harpy", "giant_eagle", "wyvern", "archer", "nope", ""])))
        extra = " ".join(draw(st.lists(st.sampled_from(["side=blue", "side=red", "side=", "id=x9", "id=", "fly"]),
                                       max_size=2)))
        return f"add {name} {what} {extra} at {draw(num)} {draw(num)} {draw(num)}"
    if kind == "remove":
        return f"remove {draw(who)}"
    if kind == "set":
        return f"set {draw(who)} {draw(st.sampled_from(KEYS))} {draw(num | st.sampled_from(['true', 'false']))}"
    if kind == "order":
        return f"order {draw(who)} after {draw(who)}"
    if kind == "roll":
        return "roll " + draw(st.sampled_from(["2d6+3", "d20", "1d0", "0d6", "999999d6", "d", "2d6+", "x"]))
    if kind == "do":
        return (f"do {draw(who)} {draw(st.sampled_from(['end_turn', 'attack', 'move', 'dash', 'nope']))} "
                + " ".join(draw(st.lists(st.sampled_from(["target=" + n for n in names] + ["to=1", "x", "=1"]),
                                         max_size=2))))
    if kind == "save":
        return f"save scene {draw(st.sampled_from(['out.toml', 'sub/x.toml', 'out.txt', '', '/proc/x.toml']))}"
    return "blocks"


@PROFILE
@given(st.sampled_from(["dnd_death_saves", "baton_passing", "showcase"]), st.data())
def test_fuzz_gm_line(tmp_path_factory, scene, data):
    tmp = tmp_path_factory.mktemp("gm")
    here = os.getcwd()
    os.chdir(tmp)              # a relative "save scene x.toml" lands in the case's own folder
    try:
        ctl = _ctl(scene)
        for _ in range(data.draw(st.integers(1, 5))):
            text = data.draw(st.composite(lambda d: _line(d, ctl))())
            before = (ctl.session.fingerprint(), len(ctl.session.events), len(ctl.session.actions))
            gm_line(ctl, text)                                          # never raises
            after = (ctl.session.fingerprint(), len(ctl.session.events), len(ctl.session.actions))
            # one line, but for a listing asked for (";blocks": one block a line, said as a "list")
            assert isinstance(ctl.message[0], str) and ("\n" not in ctl.message[0] or ctl.message[1] == "list")
            if after[2] == before[2] and ctl.question is None:
                assert after == before, text                            # refused or said: nothing changed
            if ctl.question is not None:
                break                                                   # a player's choice waits (the window's)
        again = Session(ctl.scene, ctl.session.seed)
        for a in ctl.session.actions:
            again.step(a)
        assert again.fingerprint() == ctl.session.fingerprint()
    finally:
        os.chdir(here)


def test_an_add_with_an_empty_block_is_refused_in_words():
    """Found by the fuzzer: ``add "" at 0 0 0`` was a KeyError out of the window's frame."""
    ctl = _ctl("dnd_death_saves")
    n = len(ctl.session.actions)
    assert gm_line(ctl, 'add "" at 0 0 0') is None
    assert len(ctl.session.actions) == n and ctl.message[1] == "error" and "one block" in ctl.message[0]
