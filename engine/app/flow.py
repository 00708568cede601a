"""The turn's flow, for the window and its tests (pure; functions of the controller, so it stays small): one
hotkey per action kind, T over the targets, the greyed actions and why, and dice entered by hand as one die each."""

from __future__ import annotations

from engine.errors import AerieError
from engine.rules.core import Illegal
from engine.rules.events import Roll, StepResult

HOTKEYS = "1234567890"


def hotkeys(ctl) -> dict[str, str]:
    """{action name: key}: ONE key per action kind, whoever acts (attack is the same key for every character):
    each action's unit names its own (``Unit.hotkey``); a ruleset whose units name none: its first ten actions take
    1..9, 0."""
    rs = ctl.session.ruleset
    hotkeys_of = getattr(getattr(rs, "ACTIONS", None), "hotkeys", None)
    keyed = hotkeys_of() if hotkeys_of is not None else {}
    if keyed:
        return keyed
    kinds = [n for n in ctl.specs() if n not in set(getattr(rs, "GM_ACTIONS", ()))]
    return {n: HOTKEYS[i] for i, n in enumerate(kinds[:len(HOTKEYS)])}


def next_target(ctl) -> None:
    """T: the next target the core offers for the composed action; with one it says so, with none it says why."""
    p = ctl.pending
    if p is None:
        ctl.say("T picks the next target of the action being composed: choose an action first")
        return
    k = next((k for k, kind in p.needs if kind == "id"), None)
    if k is None:
        ctl.say(f"{p.name.replace('_', ' ')} has no target to cycle")
        return
    opts = []
    for v in p.variants:
        if k in v and v[k] not in opts:
            opts.append(v[k])
    if not opts:
        ctl.say(f"{p.name.replace('_', ' ')}: no target the rules offer now", "error")
        return
    if len(opts) == 1:
        ctl.choose_param(k, opts[0])
        who = ctl.state.actors.get(opts[0])
        ctl.say(f"{who.name if who else opts[0]} is the only target {p.name.replace('_', ' ')} can take now")
        return
    cur = p.params.get(k)
    i = opts.index(cur) if cur in opts else -1
    ctl.choose_param(k, opts[(i + 1) % len(opts)])


def greyed_actions(ctl, sel: str | None = None) -> list[dict]:
    """The character's actions that are not legal now, each with the core's reason: with every possible
    target tried, a target that is out of reach says so (the nearest one, with the core's figures)."""
    from engine.rules.core import BadAction

    s = ctl.session
    sel = sel or ctl.selected
    if sel not in s.state.actors:
        return []
    me = s.state.actors[sel]
    legal = {a.get("action") for a in ctl.legal()} if sel == ctl.selected else \
        {a.get("action") for a in s.legal_actions(sel)}
    gm_only = set(s.ruleset.GM_ACTIONS)
    others = sorted((a for a in s.state.actors.values() if a.id != sel and not a.dead),
                    key=lambda o: (o.side == me.side, (o.x - me.x) ** 2 + (o.y - me.y) ** 2 + (o.layer - me.layer) ** 2))
    out = []
    units = getattr(s.ruleset, "ACTIONS", None) or {}
    for name, spec in s.ruleset.action_specs().items():
        if name in legal or name in gm_only:
            continue
        unit = units.get(name)
        if unit is not None and not unit.offered(s.ruleset, s, me):
            continue                # not this character's action at all (another creature's stat block's)
        cands, targeted = [{"actor": sel, "action": name}], False
        for k, p in spec.items():
            if p.kind == "id" and (p.required or k == "target"):     # an attack's target may be optional
                cands = [dict(c, **{k: o.id}) for c in cands for o in others[:8]]
                targeted = True
            elif p.required and p.kind == "pos":
                cands = [dict(c, **{k: list(me.pos)}) for c in cands]
            elif p.required and p.choices:
                cands = [dict(c, **{k: p.choices[0]}) for c in cands]
        reason = None
        for c in cands[:8]:
            try:
                s.check(c)
            except Illegal as e:
                if isinstance(e, BadAction):
                    reason = reason or (f"needs {e.path}" if e.path else e.reason)
                    continue
                reason = e.reason + (f" ({e.rule})" if e.rule and f"({e.rule})" not in e.reason else "")
                if targeted and e.path in ("target", "to") and len(cands) > 1:
                    reason = f"no target within reach now - the nearest: {reason}"
                break
            except AerieError as e:
                reason = reason or str(e)
                continue
        if targeted and not others:
            reason = "no one else on the table to take it on"
        elif targeted and (reason is None or reason.startswith("needs ")):
            reason = f"needs a target, and none is within reach or allowed now ({reason or 'not possible now'})"
        out.append({"action": name, "label": name.replace("_", " "), "reason": reason or "not possible now"})
    return out


def take(ctl, act: dict, answered: dict | None, asking: bool) -> StepResult:
    """The session's step, in ask mode when the window asks."""
    if ctl.ask and asking:
        return ctl.session.step(act, ask=answered or {})
    return ctl.session.step(act)


def one_die_each(ctl, act: dict, answered: dict | None, asking: bool) -> tuple[dict, StepResult, list[str]]:
    """Take ``act``; a number entered by hand is one die (R: ``attack 18``): when the action rolled more dice
    of that name (disadvantage's second d20, an Agility test after the attack's test), it is taken
    again with the number on the first die only, and the note says what the others rolled."""
    res = take(ctl, act, answered, asking)
    given = act.get("rolls")
    rolls: dict = given if isinstance(given, dict) else {}
    hand = {k for k, v in rolls.items() if isinstance(v, int) and k in ctl.hand_names}
    rolled = [e.name for e in res.events if isinstance(e, Roll)]
    twice = [k for k in hand if rolled.count(k) > 1]
    if not twice:
        return act, res, []
    ctl._rebuild(list(ctl.session.actions)[:-1])
    act = {**act, "rolls": {k: ([v] if k in twice else v) for k, v in rolls.items()}}
    res = take(ctl, act, answered, asking)
    notes = []
    for k in twice:
        got = [e for e in res.events if isinstance(e, Roll) and e.name == k]
        notes.append(f"{k} {rolls[k]} went on the first die only; rolled: "
                     + ", ".join(f"{e.result}" + (f" ({e.purpose})" if e.purpose else "")
                                 for e in got[1:])
                     + f" (enter every die to give them all: {k} {rolls[k]} N)")
    return act, res, notes


def two_dice_hint(ctl, name: str, nums: list) -> str:
    """When the action being composed rolls this die twice (advantage or disadvantage), say so at once."""
    act = ctl.action()
    if act is None or len(nums) != 1 or name != "attack":
        return ""
    pv = ctl.preview_of(act).get("preview") or {}
    adv, dis = bool(pv.get("advantage")), bool(pv.get("disadvantage"))
    if adv == dis:
        return ""
    return (f"; {'advantage' if adv else 'disadvantage'}: two d20s - {nums[0]} is the first, the second is "
            f"rolled (or enter both: {name} {nums[0]} N)")
