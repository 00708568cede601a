"""One simulated fight: its seed from (run seed, index), the policies playing it, and its row of results.

A fight is a pure function of (scene, options, fight seed, policies, round cap, after-script): the session's dice
are seeded with the fight's seed and the policies draw from their own ``random.Random`` seeded from it too, so
the same fight gives the same row on any worker, in any order. The actions it played (the scene's script first
when ``after_script``) replay with ``aerie run SCENE --seed SEED --actions fight_N.json`` to the same event log.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import random
import traceback
from collections import Counter
from dataclasses import dataclass, field

from engine.rules.session import Session
from engine.scene import Scene
from engine.sim.policies import down, resolve

#: a fight that takes more steps than this per round and character is stopped (a policy that never ends a turn)
STEPS_PER_ROUND_AND_CHARACTER = 400


def fight_seed(seed: int, index: int) -> int:
    """The dice seed of fight ``index`` of a run with ``seed``: 52 bits of SHA-256, the same on every machine
    (and a valid ``aerie run --seed``)."""
    h = hashlib.sha256(f"aerie-simulate:{int(seed)}:{int(index)}".encode()).digest()
    return int.from_bytes(h[:8], "big") >> 12


@dataclass
class Plan:
    """What every fight of a run variant shares (sent to a worker once)."""
    scene: Scene
    policies: dict                      # side -> policy spec (resolved in the worker)
    max_rounds: int = 30
    after_script: bool = False
    options: dict = field(default_factory=dict)
    variant: str = "a"
    scene_arg: str = ""                 # how the user named the scene (for the replay command)
    prefix: list = field(default_factory=list)   # actions played first, with base_seed's dice (a state to go on from)
    base_seed: int | None = None

    def __getstate__(self):
        """Sent to workers without the world's lookup tables (rebuilt there on first use; memoryviews do not
        pickle): the scene otherwise as it is."""
        st = dict(self.__dict__)
        w = getattr(self.scene, "world", None)
        if w is not None and getattr(w, "_luts", None):
            w2 = copy.copy(w)
            w2._luts = {}
            st["scene"] = dataclasses.replace(self.scene, world=w2)
        return st


def replay_command(plan: Plan, seed: int, index: int) -> str:
    return f"aerie run {plan.scene_arg or plan.scene.path} --seed {seed} --actions fight_{index}.json"


def play(plan: Plan, seed: int, index: int, fns: dict | None = None) -> tuple[dict, list]:
    """(row, actions) of fight ``index``; a fight that raises gives a row with ``error`` and its replay command."""
    fseed = fight_seed(seed, index)
    session = None
    try:
        fns = fns or {s: resolve(p) for s, p in plan.policies.items()}
        session = Session(plan.scene, fseed if plan.base_seed is None else plan.base_seed, plan.options or None)
        if plan.after_script:
            play_script(session, plan.scene.spec.script)
        for a in plan.prefix:          # go on from a game's state: its actions again, with its own dice...
            session.step(a)
        if plan.base_seed is not None:  # ...then this fight's dice (a game at its start too: else all are one fight)
            session.dice.rng = random.Random(fseed)
        downs = _run(session, plan, fns, random.Random(f"aerie-policy:{fseed}"))
        return row_of(plan, session, index, fseed, downs), list(session.actions)
    except Exception as e:        # recorded, the run goes on (exit status 1 at the end)
        row = {"variant": plan.variant, "index": index, "seed": fseed, "outcome": "error", "winner": "",
               "rounds": session.state.round if session else 0, "steps": len(session.actions) if session else 0,
               "error": f"{type(e).__name__}: {e}"[:500], "replay": replay_command(plan, fseed, index),
               "where": traceback.format_exc(limit=-1).strip().splitlines()[-2].strip() if session else ""}
        return row, list(session.actions) if session else []


class ScriptRefused(Exception):
    """The scene's script did not play under this fight's dice and options as written (a step refused, or a step
    it marks ``illegal`` was legal): the fight is recorded as an error with its replay command."""


def play_script(session, script) -> None:
    """The scene's script on the fight's session, exactly as ``aerie run`` plays it (``runner.play``): a step it
    marks ``illegal`` must be refused (by that rule, when it names one) and changes nothing."""
    from engine.rules.runner import play

    _, problems = play(session.scene, script=script, expects=[], session=session)
    if problems:
        raise ScriptRefused(str(problems[0]))


def _run(session, plan: Plan, fns: dict, rng: random.Random) -> dict:
    """Play to the end or the round cap; returns {character: [x, y, layer] where it went down}."""
    downs: dict = {}
    cap = STEPS_PER_ROUND_AND_CHARACTER * max(1, len(session.state.actors)) * (plan.max_rounds + 1)
    st = session.state
    for a in st.actors.values():
        if down(a):
            downs[a.id] = list(a.pos)
    while not st.over and st.round <= plan.max_rounds and len(session.actions) < cap:
        aid = st.current
        if aid is None:
            break
        actor = st.actors[aid]
        act = fns[actor.side](session, actor, rng)
        if act is None:
            break
        evs = session.step(act).log
        st = session.state           # a failed step may restore a copy
        for e in evs:
            who = e.get("who")
            if who in st.actors and who not in downs and down(st.actors[who]):
                downs[who] = list(st.actors[who].pos)
    return downs


def row_of(plan: Plan, session, index: int, fseed: int, downs: dict) -> dict:
    """One fight's results, flat (a column per character and rule ID): outcome, winner, rounds; per character
    down, where, damage dealt and taken, falls and fall damage; attacks per cover level; rule IDs fired."""
    st = session.state
    draw = not st.over
    row: dict = {"variant": plan.variant, "index": index, "seed": fseed,
                 "outcome": "draw" if draw else ("win" if st.winner else "draw"), "winner": st.winner or "",
                 "rounds": min(st.round, plan.max_rounds) if draw else st.round, "steps": len(session.actions),
                 "capped": draw and st.round > plan.max_rounds, "error": "", "replay": ""}
    dealt, taken, falls, fall_dmg, cover, rules = _tally(session)
    for a in st.actors.values():
        row[f"{a.id}.side"] = a.side
        row[f"{a.id}.down"] = a.id in downs or down(a)
        where = downs.get(a.id) or (list(a.pos) if down(a) else None)
        row[f"{a.id}.down_x"], row[f"{a.id}.down_y"], row[f"{a.id}.down_layer"] = where or (-1, -1, -1)
        row[f"{a.id}.hp"] = a.hp
        row[f"{a.id}.dealt"] = dealt[a.id]
        row[f"{a.id}.taken"] = taken[a.id]
        row[f"{a.id}.falls"] = falls[a.id]
        row[f"{a.id}.fall_damage"] = fall_dmg[a.id]
    for lv, n in sorted(cover.items()):
        row[f"attacks.cover.{lv}"] = n
    for r, n in sorted(rules.items()):
        row[f"rule.{r}"] = n
    return row


def _tally(session):
    """From the event log: damage dealt and taken (a damage event is an attack's when it follows that attack's
    hit on the same target, a fall's when it follows the fall), falls and their damage, attacks per cover level,
    rule IDs (an event's ``rule``; ``A+B`` counts both)."""
    dealt: Counter = Counter()
    taken: Counter = Counter()
    falls: Counter = Counter()
    fall_dmg: Counter = Counter()
    cover: Counter = Counter()
    rules: Counter = Counter()
    attacker = target = None
    fall_of = None
    for e in session.events:
        t = e.get("type")
        r = e.get("rule")
        if isinstance(r, str) and r:
            for part in r.split("+"):
                rules[part] += 1
        if t == "action":
            attacker = target = fall_of = None
        elif t == "attack":
            attacker, target, fall_of = e.get("who"), e.get("target"), None
            cover[str(e.get("cover", "none"))] += 1
        elif t == "fall":
            falls[e.get("who")] += 1
            fall_dmg[e.get("who")] += int(e.get("damage") or 0)
            fall_of = e.get("who")
        elif t == "damage":
            who, amount = e.get("who"), int(e.get("amount") or 0)
            taken[who] += amount
            if who == fall_of:
                fall_of = None
            else:
                src = e.get("source") or (attacker if who == target else None)
                if src:
                    dealt[src] += amount
    return dealt, taken, falls, fall_dmg, cover, rules
