"""What a baton table reads: every event line of every baton demo scene (and of random baton games), and the
previews of the actions offered, speak baton terms: no ``None``, no raw JSON (``{``), no 5e-only word."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from engine.app.controller import preview_lines
from engine.app.logtext import log_entries
from engine.rules.core import Illegal
from engine.rules.session import Session
from engine.rules.runner import describe, play
from engine.scene import load_scene, parse_scene
from scenegen import baton_scene_text

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[3]
SCENES = sorted(p for p in (ROOT / "scenes").glob("*.toml") if 'ruleset = "baton"' in p.read_text(encoding="utf-8"))
#: words of D&D 5e that a baton line must not use (the baton says chances, difficulty, Life, Vigor, Protection)
FIVE_E = re.compile(r"\b(HP|AC|DC|d20|hit points?|advantage|disadvantage|bonus action|reaction|saving throw|"
                    r"death save|temp(orary)? HP|proficiency|spell slot)\b")
ALLOWED = ("numerical advantage",)      # BAT-45 "vantagem numérica": the baton's own term


def bad_line(line: str) -> str | None:
    if line is None:
        return None
    if "None" in line:
        return "None"
    if "{" in line or "}" in line:
        return "{"
    low = line
    for ok in ALLOWED:
        low = low.replace(ok, "")
    m = FIVE_E.search(low)
    return m.group(0) if m else None


def test_baton_demo_scenes_exist():
    assert len(SCENES) >= 3, SCENES


@pytest.mark.parametrize("path", SCENES, ids=lambda p: p.name)
def test_every_baton_scene_reads_in_baton_terms(path):
    lines = []

    def sink(session, evs):
        for e in evs:
            d = describe(session, e)
            if d is not None:
                lines.append((e.get("type"), d))

    session, problems = play(load_scene(str(path)), None, None, None, sink)
    assert not problems, problems
    assert len(lines) > 10
    bad = [(t, ln, why) for t, ln in lines if (why := bad_line(ln))]
    assert not bad, bad[:5]
    window = log_entries(session)                    # the window's log: the same lines plus the actions taken
    assert len(window) > len(session.actions)
    assert sum(1 for e in window if e[1] == "action") == len(session.actions)
    bad = [(ln, why) for ln, *_ in window if (why := bad_line(ln))]
    assert not bad, bad[:5]
    for a in session.state.actors.values():
        brief = session.ruleset.health_brief(session, a)
        assert not bad_line(brief) and "V" in brief and "P" in brief and "L" in brief


def test_random_baton_games_and_their_previews_read_in_baton_terms():
    """Random legal play (events and the preview lines of every action offered), a few seeded games."""
    seen_types = set()
    for g in range(6):
        rng = random.Random(1000 + g)
        s = Session(parse_scene(baton_scene_text(rng), "random.toml"), seed=g)
        for _ in range(40):
            if s.state.over:
                break
            acts = s.legal_actions()
            if not acts:
                break
            for act in acts:
                if act["action"] in ("attack", "charge", "pass"):
                    pv = s.preview(act)
                    for ln in preview_lines(pv, None, s.ruleset):
                        assert not bad_line(ln), (act, ln)
            act = rng.choice(acts)
            try:
                evs = s.step(act).log
            except Illegal:
                continue
            for e in evs:
                seen_types.add(e.get("type"))
                d = describe(s, e)
                assert not bad_line(d), (e, d)
        for ln, *_ in log_entries(s):                 # the window's log of the whole game
            assert not bad_line(ln), ln
    assert {"test", "pass", "baton"} <= seen_types


def test_the_windows_log_says_an_actions_choices_and_dice_in_words():
    """The window's log line of an action: its parameters in words (a list of ids as names, the hand-entered dice
    as "test 12"), never Python's repr or JSON."""
    from baton_util import foe, hero, session, step

    s = session([hero(name="Ana"), foe(name="Gob")], starts="ana")
    step(s, "ana", "move", to=[0, 2, 0], declined=["gob"])
    acts = [ln for ln, kind, *_ in log_entries(s) if kind == "action"]
    assert acts == ["> Ana: move (to [0, 2, 0], declined Gob)"], acts
    s = session([hero(name="Ana"), foe(name="Gob")], starts="ana")
    step(s, "ana", "attack", target="gob", crit="destiny", rolls={"test": 12, "damage": [3]})
    acts = [ln for ln, kind, *_ in log_entries(s) if kind == "action"]
    assert acts == ["> Ana: attack (target Gob, crit destiny), dice by hand: test 12, damage [3]"], acts
    assert not any(bad_line(ln) for ln, *_ in log_entries(s))


def test_the_attack_preview_speaks_of_chances_and_shows_the_difficulty():
    from baton_util import foe, hero, session

    s = session([hero(), foe(conditions=["exposed"])], starts="ana")
    lines = preview_lines(s.preview({"actor": "ana", "action": "attack", "target": "gob"}), None, s.ruleset)
    text = "\n".join(lines)
    assert "difficulty 8 (7 + dodge 1)" in text and "+exposed (BAT-59)" in text and "chance to succeed: " in text
    assert "keep the highest" in text and not bad_line(text)


def test_the_pass_preview_lists_who_may_receive_the_baton():
    from baton_util import foe, hero, session, step

    s = session([hero(), hero("bia", at=(2, 6, 0)), foe()], starts="ana")
    step(s, "ana", "attack", target="gob", rolls={"test": 4, "damage": 1})
    pv = s.preview({"actor": "ana", "action": "pass", "to": "bia"})
    assert pv["may_receive"] == ["bia"]
    assert preview_lines(pv, None, s.ruleset) == ["test die 4, even: the side keeps the initiative (BAT-08)",
                                                   "may receive the baton: bia"]


def test_the_turn_order_row_shows_protection_vigor_and_life_after_a_hit():
    from baton_util import A, foe, hero, session, step

    s = session([hero(), foe(armour=["leather"])], starts="ana")
    g = A(s, "gob")
    assert s.ruleset.health_brief(s, g) == "P3 V8/8 L8/8"
    step(s, "ana", "attack", target="gob", rolls={"test": 9, "damage": 2})            # 4: Protection 3, Vigor 1
    assert s.ruleset.health_brief(s, g) == "P0 V7/8 L8/8"
