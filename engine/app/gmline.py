"""The GM's line in the window (``;``), beyond the table's actions (engine/app/gmtext.py parses those): the
stat-block library, save the table as a scene, start it. Pure; functions of the controller."""

from __future__ import annotations

import shlex
from pathlib import Path

from engine.errors import AerieError
from engine.rules.session import Session
from engine.rules.events import StepResult


def gm_line(ctl, text: str) -> StepResult | None:
    """One GM command (engine/app/gmtext.py): a table action is stepped like any action; ``blocks`` lists the
    stat-block library; ``save scene PATH.toml [NAME]`` writes the table as a new scene (never over a file this
    program did not write). The outcome is in
    ``message`` (an error says what to type)."""
    from engine.app.gmtext import parse, words_of

    try:
        w = words_of(text) if text.split()[:1] and text.split()[0].lower() in ("save", "start", "blocks") else []
        if w and w[0].lower() == "blocks":
            return say_blocks(ctl)
        if w and w[0].lower() == "save":
            if len(w) not in (3, 4) or w[1].lower() != "scene":
                raise ValueError('save scene PATH.toml ["SCENE NAME"]')
            save_scene(ctl, w[2], w[3] if len(w) == 4 else None)
            return None
        if w and w[0].lower() == "start":
            if len(w) not in (2, 3):
                raise ValueError('start PATH.toml ["SCENE NAME"]: save the table as a scene and play it')
            start_scene(ctl, w[1], w[2] if len(w) == 3 else None)
            return None
        text, place = _place_in_order(text, ctl.state)
        at_cursor = " at " not in f" {text.lower()} " and [t.lower() for t in text.split()[:1]] == ["add"]
        act = parse(text, ctl.state, ctl.scene, cursor=ctl.hover)
    except ValueError as e:
        ctl.say(f"GM: {e}", "error")
        return None
    if act is None:
        return None
    if at_cursor:                        # ;add without at: the cursor's cell, or the nearest free one for its size
        act = nearest_free(ctl, act)
    res = ctl.step(act)
    if res is not None and act.get("action") == "gm_add" and act["id"] in ctl.state.order:
        take_its_turn_place(ctl, act["id"], place)
    return res


def _place_in_order(text: str, state) -> tuple[str, tuple[str, str] | None]:
    """``add ... after NAME`` (or ``before NAME``): the place the GM gives the new creature in the turn order,
    taken off the command."""
    from engine.app.gmtext import _who, words_of

    w = words_of(text) if text.split()[:1] and text.split()[0].lower() == "add" else []
    if len(w) >= 3 and w[-2].lower() in ("after", "before"):
        return shlex.join(w[:-2]), (w[-2].lower(), _who(w[-1], state))
    return text, None


def initiatives(session) -> dict[str, int]:
    """Every character's initiative total as the log has it: the ruleset's ``initiative`` events, and the GM's
    initiative rolls for creatures added during the fight (table rolls labelled "initiative of NAME")."""
    names = {a.name: cid for cid, a in session.state.actors.items()}
    out: dict[str, int] = {}
    for e in session.events:
        if e.get("type") == "initiative" and isinstance(e.get("total"), int):
            out[e["who"]] = e["total"]
        elif e.get("type") == "table_roll" and str(e.get("label", "")).startswith("initiative of "):
            cid = names.get(e["label"][len("initiative of "):])
            if cid is not None:
                out[cid] = e["total"]
    return out


def take_its_turn_place(ctl, cid: str, place: tuple[str, str] | None) -> None:
    """A creature added during a fight (``gm_add`` puts it last in the turn order): at the place the GM gave it
    (``after NAME``), else where its own initiative roll puts it -- d20 plus its Dexterity modifier, a recorded
    ``gm_roll`` ("initiative of NAME", a GM line in the log), then a ``gm_order`` before the first whose total is
    lower. A ruleset that rolls no initiative (the log has none) keeps it last."""
    if place is not None:
        ctl.step({"actor": "gm", "action": "gm_order", "target": cid, place[0]: place[1]})
        return
    known = initiatives(ctl.session)
    if not known:
        return
    a = ctl.state.actors[cid]
    dex = (a.data.get("abilities") or {}).get("dex")
    mod = (int(dex) - 10) // 2 if isinstance(dex, int) else 0
    dice = "d20" + (f"{mod:+d}" if mod else "")
    if ctl.step({"actor": "gm", "action": "gm_roll", "dice": dice, "label": f"initiative of {a.name}"}) is None:
        return
    total = ctl.session.events[-1]["total"]
    # by the totals, not by the list: a scene's initiative_starts turns the order round
    ranked = sorted((c for c in ctl.state.order if c != cid and c in known), key=lambda c: -known[c])
    below = next((c for c in ranked if known[c] < total), None)
    rel, other = ("before", below) if below is not None else ("after", ranked[-1] if ranked else None)
    if other is not None:
        ctl.step({"actor": "gm", "action": "gm_order", "target": cid, rel: other})
    name = ctl.state.actors[other].name.split(" (")[0] if other else ""
    ctl.say(f"GM adds {a.name}: initiative {total}" + (f", {rel} {name} in the turn order" if other else ""))


def nearest_free(ctl, act: dict, reach: int = 8) -> dict:
    """``act`` (a gm_add) at the nearest cell to its ``at`` where the rules let it stand (its size, what is there,
    ground under a walker: ``Session.check``), at the same layer, then on the surface below; unchanged when none
    in ``reach`` cells is (the step says why)."""
    x, y, layer = act["at"]
    w = ctl.scene.world
    nx, ny = w.size[:2]
    for r in range(reach + 1):
        ring = [(x + dx, y + dy) for dx in range(-r, r + 1) for dy in range(-r, r + 1) if max(abs(dx), abs(dy)) == r]
        for cx, cy in sorted(ring, key=lambda c: (c[0] - x) ** 2 + (c[1] - y) ** 2):
            if not (0 <= cx < nx and 0 <= cy < ny):
                continue
            for cl in dict.fromkeys((layer, w.support_layer(cx, cy, layer))):
                cand = dict(act, at=[cx, cy, int(cl)])
                try:
                    ctl.session.check(cand)
                except AerieError as e:
                    if getattr(e, "path", "at") not in ("at", "flying"):
                        return act       # not a question of where (a name taken...): the step says it
                    continue
                return cand
    return act


def say_blocks(ctl):
    """``blocks``: the library's stat blocks, one line."""
    from engine.rules.statblocks import about

    try:
        rows = about(ctl.scene.ruleset)
    except AerieError as e:
        ctl.say(str(e), "error")
        return None
    if not rows:
        ctl.say(f"no stat-block library for {ctl.scene.ruleset}", "info")
        return None
    # one block a line, said as it is (a "list": the message line renames no character's id in it, "knight")
    ctl.say(f"stat blocks ({len(rows)}; ;add NAME BLOCK at x y layer):\n"
            + "\n".join(f"{n}: {a}" for n, a in rows), "list")
    return None


def save_scene(ctl, path, name: str | None = None) -> Path | None:
    """The table as a new scene file (engine/app/scenesave.py): whole or not at all; one line either way."""
    from engine.app import files, scenesave
    from engine.inputs import exists

    # a file this program did not write is never replaced: ``start scenes/showcase.toml``, typed to open the
    # showcase, wrote the table over it (a monkey test did); the GM's own saves may be written again
    try:
        if exists(path) and not files.ours(path):
            raise AerieError(f"{path}: exists, and this program did not write it: not replaced (give a new name; "
                             "Ctrl+O opens a scene or a save)")
        p, dead = scenesave.save_scene(ctl.session, path, name)
    except AerieError as e:
        ctl.say(f"cannot save the scene: {e}", "error")
        return None
    files.wrote(p)
    n = len(ctl.state.actors) - len(dead)
    ctl.say(f"saved the table as a scene: {p} ({n} character(s)"
            + (f"; the dead left out: {', '.join(dead)}" if dead else "") + f"; aerie run {p} plays it)")
    return p


def start_scene(ctl, path, name: str | None = None) -> bool:
    """Save the table as a scene and play it from its start: the ruleset rolls initiative for everyone on it
    (a map just imported has no fight until then). A new encounter: undo starts afresh from here."""
    from engine.scene import load_scene

    p = save_scene(ctl, path, name)
    if p is None:
        return False
    said = ctl.message[0]
    try:
        sc = load_scene(p)
        s = Session(sc)
    except AerieError as e:
        ctl.say(f"cannot play the saved scene: {e}", "error")
        return False
    ctl.scene, ctl.session, ctl.seed = sc, s, s.seed
    ctl.question = ctl.pending = ctl.statement = None
    ctl.redo_stack.clear()
    ctl.forced = {}
    ctl.last_step = None
    ctl.selected = s.current
    ctl._after_state_change()
    ctl.say(said.replace("; aerie run", "; now playing it, round 1; aerie run"))
    return True
