"""Property-based fuzzing (Hypothesis) of what a player's page may send the table (engine/serve/messages.py and
engine/serve/table.py), well formed or not. The promise: nothing raises; a message is either refused with one line
(as text it never reaches the table) or handled with one reply; a refused or illegal one changes nothing (the
session's fingerprint and actions); every reply is JSON-able."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.app.controller import Controller
from engine.serve import messages as M
from engine.serve.table import Table
from serve_util import SCENE

pytestmark = [pytest.mark.unit, pytest.mark.slow]
PROFILE = settings(max_examples=int(os.environ.get("AERIE_FUZZ_EXAMPLES", 10_000 if os.environ.get("AERIE_FUZZ") else 60)),
                   derandomize=not os.environ.get("AERIE_FUZZ"), deadline=None, database=None,
                   suppress_health_check=list(HealthCheck))
_CTL: dict = {}


def _table(tmp_path_factory):
    if "t" not in _CTL:
        from engine.scene import load_scene

        p = tmp_path_factory.mktemp("fuzz_serve") / "yard.toml"
        p.write_text(SCENE)
        ctl = Controller(load_scene(p))
        _CTL["t"] = Table(lambda: ctl, glb=b"")
        _CTL["ctl"] = ctl
    return _CTL["t"], _CTL["ctl"]


NAMES = ["aldo", "bea", "gorm", "vex", "gm", "", "x" * 70, "end_turn", "move", "attack", "dash", "damage", "heal",
         "cast", "rolls", "__class__", "to", "target", "actor", "action"]
SCAL = st.one_of(st.none(), st.booleans(), st.integers(-2 ** 40, 2 ** 40), st.floats(allow_nan=True),
                 st.sampled_from(NAMES), st.text(max_size=80))
VAL = st.recursive(SCAL, lambda c: st.one_of(st.lists(c, max_size=5), st.dictionaries(st.sampled_from(NAMES), c,
                                                                                         max_size=5)), max_leaves=20)
ACTION = st.dictionaries(st.one_of(st.sampled_from(NAMES), st.text(max_size=10)), VAL, max_size=8)
MSG = st.one_of(
    st.fixed_dictionaries({"type": st.sampled_from(["act", "preview"]), "action": ACTION}),
    st.fixed_dictionaries({"type": st.sampled_from(["act", "preview"]),
                           "action": st.fixed_dictionaries({"actor": st.sampled_from(NAMES),
                                                            "action": st.sampled_from(NAMES)},
                                                           optional={"to": st.lists(st.integers(-3, 20), max_size=4),
                                                                     "target": st.sampled_from(NAMES)})}),
    st.fixed_dictionaries({"type": st.just("answer"), "key": VAL, "i": VAL}),
    st.dictionaries(st.sampled_from(["type", "action", "key", "i", "x"]), VAL, max_size=4),
)
RAW = st.one_of(MSG.map(json.dumps), st.text(max_size=200), st.binary(max_size=100).map(lambda b: b.decode("latin-1")))


@PROFILE
@given(raw=RAW, side=st.sampled_from(["blue", "red"]))
def test_fuzz_a_page_message(tmp_path_factory, raw, side):
    table, ctl = _table(tmp_path_factory)
    replies: list = []
    table.on_reply = lambda conn, msg: replies.append(msg)
    before, n = ctl.session.fingerprint(), len(ctl.session.actions)
    try:
        msg = M.parse(raw)
    except M.BadMessage as e:
        assert str(e) and "\n" not in str(e)
        return
    table.submit(side, 1, msg)
    table.pump()
    assert len(replies) == 1, replies
    json.dumps(replies[0])
    if replies[0]["type"] == "error" or msg["type"] != "act":
        assert ctl.session.fingerprint() == before and len(ctl.session.actions) == n
    if len(ctl.session.actions) > 3:                  # keep the fight at its start: undo what the fuzz played
        ctl.undo()
