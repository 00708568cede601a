"""Several targets for an area spell (issue 23 item 9): while an action that the rules resolve against an area is
composed -- a fireball, burning hands, thunderwave -- the window rings every creature the area would catch and
lists them in the preview; Enter casts it once, at all of them.

Who is caught is never computed here: it is the rules' own answer, the preview's ``targets`` (the ruleset's
plan, with the spell's area, line of effect and all). The point
of origin is the action's optional position parameter (``at``): a click on a cell with nobody there sets it, a
click on a character the action may name aims at that character. Aimed at a point, the action leaves out the target its
listed variants name (``{"spell": "fireball", "at": [12, 6, 5]}``, as a scene script writes it). Nothing here
names a ruleset."""

from __future__ import annotations

import functools
import json

# the position parameters that are a point of origin (an attack's optional ``voxel`` is a block of terrain aimed
# at, a dismount's ``to`` where it lands: a click on a cell does not set those)
POINT_PARAMS = ("at",)


@functools.cache
def _srd() -> dict[str, dict]:
    from engine.compendium.spells import select      # the SRD's 319 spells: read once, when a spell is aimed

    try:
        return {s["id"]: s for s in select()}
    except Exception:   # noqa: BLE001 - the areas of the ruleset's own spells still show without the data
        return {}


def srd_spell(spell: str) -> dict | None:
    """The SRD data of ``spell`` (ids there use -, the scenes' may use _), or None. Here, not in the cast menu's
    section (engine/app/sections/castmenu.py), so that the spell areas' overlay does not import the sections."""
    return _srd().get(spell) or _srd().get(spell.replace("_", "-"))


def preview(win) -> dict | None:
    """The composed action's legal preview, once the worker has it (None otherwise)."""
    ctl = win.ctl
    act = ctl.action()
    if act is None:
        return None
    ok, res = win.jobs.result("preview", (ctl.state_version, json.dumps(act, sort_keys=True)))
    if not ok or not isinstance(res, dict) or not res.get("ok"):
        return None
    return res.get("preview") or {}


def point_param(ctl) -> str | None:
    """The composed action's optional position parameter (a point of origin: ``at``), when it has one that is not
    the destination it needs."""
    p = ctl.pending
    if p is None:
        return None
    needs = dict(p.needs)
    spec = ctl.specs().get(p.name, {})
    return next((k for k, prm in spec.items() if k in POINT_PARAMS and prm.kind == "pos" and k not in needs), None)


def caught(win) -> list[str]:
    """The ids the composed action would catch, by the rules' preview: its ``targets`` when an area is in play
    (more than one, or an action aimed at a point); [] otherwise (a single target has its own ring)."""
    pv = preview(win)
    if not pv:
        return []
    t = pv.get("targets")
    if not isinstance(t, list):
        return []
    act = win.ctl.action() or {}
    k = point_param(win.ctl)
    if len(t) < 2 and not (k and act.get(k) is not None):
        return []
    return [c for c in t if c in win.ctl.state.actors]


def aim_at(ctl, k: str, cell) -> None:
    """The composed action aimed at a point (its parameter ``k``), the target its variants name left out."""
    ctl.pending.params[k] = [int(v) for v in cell]
    ctl.pending.drop = {"target"} if ctl.pending.params.get("target") is None else set()   # the point, not a target
    ctl._changed()


def aim(win, hit) -> bool:
    """A click while composing an action with a point of origin: on a cell with nobody there, that point (the
    rules decide what it catches); on a character one of its variants names, aimed at it. True when taken."""
    ctl = win.ctl
    k = point_param(ctl)
    if k is None:
        return False
    if hit.get("char") is not None:          # a character: aimed at it (when the action's variants name it)
        cid = hit["char"].char
        p = ctl.pending
        if not any(v.get("target") == cid and all(v.get(q, x) == x for q, x in p.params.items()
                                                  if q not in (k, "target")) for v in p.variants):
            return False
        p.params.pop(k, None)
        p.params["target"], p.drop, p.variant_i = cid, set(), 0
        ctl._changed()
        win.say(f"{p.name}: aimed at {win.name(cid)}", toast=False)
        return True
    if hit.get("cell") is None:
        return False
    aim_at(ctl, k, hit["cell"].cell)
    win.say(f"{ctl.pending.name}: aimed at {ctl.pending.params[k]} (the preview lists who it catches)", toast=False)
    return True


def row(win) -> str | None:
    """The preview's line: "caught by the area (2): Shrike, Kestrel - Enter casts once, at all of them"."""
    who = caught(win)
    if not who:
        return None
    return (f"caught by the area ({len(who)}): " + ", ".join(win.name(c) for c in who)
            + " - Enter: one action, at all of them")


def rings(win, pr, rs, ring_at) -> None:
    """An orange ring at the feet of every creature the area catches (only those drawn: the player view leaves
    out whom its side cannot see)."""
    cm = win.scene.world.cell_m
    shown = {c.id for c in rs.characters}
    for cid in caught(win):
        if cid in shown:
            ring_at(pr, rs, cid, cm, (255, 150, 40, 255))
