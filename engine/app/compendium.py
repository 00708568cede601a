"""The GM's compendium in the window (issue 44, "In the window"): every creature the table can take, from every
library the ruleset has, searched as the GM types; the highlighted one's stat block with what the rules model; Enter
puts it at the cursor. Pure: no pyglet (the mode, engine/app/modes/compendium.py, and the panel,
engine/app/sections/compendium.py, draw and take the keys).

The libraries, served the same way whatever the ruleset:
  - the shipped stat blocks, ``assets/statblocks/<ruleset>.toml`` (each ruleset's profiles or ready blocks);
  - the scene's own ``statblocks = [...]`` files (``aerie import`` writes them);
  - the SRD 5.1 bestiary (assets/srd/creatures.json, CC-BY-4.0), for a ruleset whose registry entry expands
    ``srd = ID`` (``character_blocks``): nothing here names a ruleset.

A creature goes on the table through the GM's own actions, recorded like any other: ``gm_add`` (``block`` or
``srd``) at the nearest free cell for its size (engine/app/gmline.py's), then its initiative: a ``gm_roll`` of
1d20 + its Dex modifier labelled "initiative NAME", and a ``gm_order`` that puts it among the others by their
initiative totals (the ruleset's own ``initiative`` events and the earlier initiative rolls of the table).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

SRD_LIBRARY = "SRD 5.1 (CC-BY-4.0)"
FLY_WORDS = ("flies", "fly", "flying", "flyer", "flyers")


@dataclass(frozen=True)
class Entry:
    """One creature of a library: ``how`` is the gm_add key that takes it (``srd`` or ``block``), ``ref`` its value."""

    how: str
    ref: str
    name: str
    type: str
    cr: float | None
    flies: bool
    size: str
    library: str
    record: dict = field(default_factory=dict, compare=False, hash=False, repr=False)


def cr_text(cr) -> str:
    return "-" if cr is None else (str(Fraction(cr).limit_denominator(8)) if cr else "0")


def _srd_records() -> dict[str, dict]:
    from engine.compendium.creatures import load

    return {c["id"]: c for c in load()}


def _block_entry(bid: str, t: dict, library: str, srd: dict[str, dict]) -> Entry:
    rec = srd.get(str(t.get("srd", ""))) if t.get("srd") else None
    if rec is not None:                          # a block naming an SRD creature shows that creature's numbers
        return Entry("block", bid, str(t.get("name") or rec["name"]), rec["type"], rec["cr"],
                     bool(rec["fly_speed_m"] or t.get("flying")), str(t.get("size") or rec["size"]), library,
                     {**rec, "block": t})
    flies = bool(t.get("fly_speed_m") or t.get("flying"))
    cr = t.get("cr")
    return Entry("block", bid, str(t.get("name") or bid), str(t.get("type") or t.get("kind") or ""),
                 float(cr) if isinstance(cr, (int, float)) else None, flies, str(t.get("size") or "medium"),
                 library, {"block": t})


def entries(scene) -> list[Entry]:
    """Every creature ``scene``'s ruleset can put on its table: the shipped blocks, the scene's statblocks files,
    then the SRD bestiary where the ruleset has one."""
    from engine.rules import registry
    from engine.rules.statblocks import library, library_path, read_library

    ruleset = scene.ruleset
    has_srd = bool(registry.info(ruleset).extra.get("character_blocks"))
    srd = _srd_records() if has_srd else {}
    out = [_block_entry(b, t, f"assets/statblocks/{library_path(ruleset).name}", srd)
           for b, t in library(ruleset).items()]
    for p in getattr(scene, "files", ()):
        if str(p).endswith(".toml"):
            try:
                lib = read_library(p, p.name, ValueError)
            except ValueError:
                continue                         # the scene loaded it already: unreadable now is not the GM's search
            out += [_block_entry(b, t, p.name, srd) for b, t in lib.items()]
    out += [Entry("srd", c["id"], c["name"], c["type"], c["cr"], bool(c["fly_speed_m"]), c["size"], SRD_LIBRARY, c)
            for c in srd.values()]
    return out


def _cr_ok(e: Entry, w: str) -> bool:
    """``cr5``, ``cr1/2``, ``cr1-5`` (a range)."""
    spec = w[2:].lstrip("=")
    if e.cr is None:
        return False
    try:
        lo, _, hi = spec.partition("-")
        a, b = float(Fraction(lo)), float(Fraction(hi or lo))
    except (ValueError, ZeroDivisionError):
        return False
    return a <= e.cr <= b


def search(items: list[Entry], query: str) -> list[Entry]:
    """The entries every word of ``query`` matches (any case): a word in the name, id, type, size or library;
    ``cr5`` / ``cr1/2`` / ``cr1-5`` the challenge rating; ``flies`` (fly, flying, flyer) only the flyers. The
    exact and leading name matches first, then the rest in library order."""
    words = query.lower().split()
    out = []
    for e in items:
        hay = f"{e.name} {e.ref} {e.type} {e.size} {e.library}".lower()
        ok = True
        for w in words:
            if w in FLY_WORDS:
                ok = e.flies
            elif w.startswith("cr") and len(w) > 2 and (w[2].isdigit() or w[2] == "="):
                ok = _cr_ok(e, w)
            else:
                ok = w in hay
            if not ok:
                break
        if ok:
            out.append(e)
    text = " ".join(w for w in words if w not in FLY_WORDS and not w.startswith("cr"))
    if text:
        out.sort(key=lambda e: (e.name.lower() != text, not e.name.lower().startswith(text)))
    return out


def _mod(score) -> int:
    return (int(score) - 10) // 2


def stat_lines(e: Entry) -> list[tuple[str, str]]:
    """The stat block as (text, tone) lines -- tone ``head``, ``fg``, ``dim``, ``good`` (modelled) or ``bad`` (left
    out, with why)."""
    r = e.record
    lines = [(f"{e.name}  ({e.library}: {e.how} {e.ref})", "head")]
    if "features" not in r:                      # a library block: its own keys
        t = r.get("block", {})
        if t.get("about"):
            lines.append((str(t["about"]), "fg"))
        keys = [f"{k} {t[k]}" for k in ("kind", "size", "max_hp", "ac", "speed_m", "fly_speed_m", "flying")
                if k in t]
        if keys:
            lines.append(("  ".join(keys), "fg"))
        for k in ("abilities", "weapons", "spells"):
            if k in t:
                lines.append((f"{k}: {t[k]}", "dim"))
        lines.append(("the ruleset's own block: every key is played as a scene character's", "dim"))
        return lines
    sub = f" ({r['subtype']})" if r.get("subtype") else ""
    lines.append((f"{r['size']} {r['type']}{sub}, {r.get('alignment') or ''}   CR {cr_text(r['cr'])}"
                  f"   prof +{r.get('proficiency_bonus', 2)}", "fg"))
    lines.append((f"AC {r['ac']}   HP {r['hp']} ({r.get('hp_formula', '')})   speed {r['speed_m']:g} m"
                  + "".join(f", {lab} {r[k]:g} m" for k, lab in (("fly_speed_m", "fly"), ("climb_speed_m", "climb"),
                                                                ("swim_speed_m", "swim"), ("burrow_speed_m", "burrow"))
                            if r.get(k))
                  + (" (hover)" if r.get("hover") else ""), "fg"))
    ab = r.get("abilities", {})
    lines.append(("   ".join(f"{k.upper()} {v} ({_mod(v):+d})" for k, v in ab.items()), "fg"))
    for k, lab in (("damage_resistances", "resists"), ("damage_immunities", "immune"),
                   ("damage_vulnerabilities", "vulnerable"), ("condition_immunities", "condition immunities")):
        if r.get(k):
            lines.append((f"{lab}: {', '.join(map(str, r[k]))}", "dim"))
    feats = r.get("features", [])
    done = sum(1 for f in feats if f["modelled"])
    lines.append((f"features: {done} of {len(feats)} modelled", "head"))
    for f in feats:
        sec = {"traits": "trait", "actions": "action", "reactions": "reaction",
               "legendary_actions": "legendary"}.get(f.get("section", ""), f.get("section", ""))
        if f["modelled"]:
            lines.append((f"  + {f['name']} ({sec})", "good"))
        else:
            lines.append((f"  - {f['name']} ({sec}): not modelled - {f['why']}", "bad"))
    return lines


def add_action(e: Entry, state, scene, at, side: str | None = None) -> dict:
    """The ``gm_add`` that takes ``e`` to cell ``at``: a new id and a name no one on the table has."""
    from engine.app.gmtext import new_id

    taken = {(a.name or "").split(" (")[0].lower() for a in state.actors.values()}
    name, n = e.name, 2
    while name.lower() in taken:
        name, n = f"{e.name} {n}", n + 1
    act: dict = {"actor": "gm", "action": "gm_add", "id": new_id(name, state, scene), e.how: e.ref, "name": name,
                 "at": [int(v) for v in at]}
    if side:
        act["side"] = side
    return act


def _field(e, k):
    return e.get(k) if isinstance(e, dict) else getattr(e, k, None)


def initiative_totals(events) -> dict[str, int]:
    """Each creature's initiative so far: the ruleset's ``initiative`` events, then the table's rolls labelled
    "initiative ID" (the compendium's), the later over the earlier."""
    out: dict[str, int] = {}
    for ev in events:
        kind = _field(ev, "type")
        if kind == "initiative" and isinstance(_field(ev, "total"), int):
            out[str(_field(ev, "who"))] = _field(ev, "total")
        elif kind == "table_roll" and str(_field(ev, "label") or "").startswith("initiative "):
            out[str(_field(ev, "label")).split(" ", 1)[1]] = int(_field(ev, "total"))
    return out


def initiative_dice(actor) -> str:
    """1d20 + the Dex modifier where the sheet has abilities (+ a fixed bonus of none otherwise)."""
    ab = (actor.data or {}).get("abilities") if isinstance(actor.data, dict) else None
    dex = ab.get("dex") if isinstance(ab, dict) else None
    if isinstance(dex, int):
        m = _mod(dex)
        return f"1d20{m:+d}" if m else "1d20"
    return "1d20"


def order_action(cid: str, total: int, order: list[str], totals: dict[str, int]) -> dict | None:
    """The ``gm_order`` that puts ``cid`` (last in ``order``) after the last one whose initiative beats or ties
    ``total``, or before the first when it beats them all; None where it is last already (or nobody is rolled)."""
    others = [o for o in order if o != cid]
    ranked = [o for o in others if o in totals]
    if not ranked:
        return None
    ahead = [o for o in others if totals.get(o, -10**9) >= total]
    if ahead:
        after = ahead[-1]
        if others and after == others[-1]:
            return None
        return {"actor": "gm", "action": "gm_order", "target": cid, "after": after}
    return {"actor": "gm", "action": "gm_order", "target": cid, "before": others[0]}


def put(ctl, e: Entry, side: str | None = None):
    """Enter in the compendium: ``e`` at the cursor's cell and layer (the nearest free cell for its size), then its
    initiative rolled and its place in the turn order -- three GM actions, each in the log. The new id, or None
    when the rules refused (the message line says why)."""
    from engine.app.gmline import nearest_free

    at = ctl.hover or (0, 0, ctl.cursor_layer)
    act = nearest_free(ctl, add_action(e, ctl.state, ctl.scene, (at[0], at[1], ctl.cursor_layer if ctl.hover is None
                                                                     else at[2]), side))
    if ctl.step(act) is None:
        return None
    cid = act["id"]
    said = ctl.message[0]
    a = ctl.state.actors[cid]
    if ctl.state.order and cid in ctl.state.order:
        res = ctl.step({"actor": "gm", "action": "gm_roll", "dice": initiative_dice(a), "label": f"initiative {cid}"})
        if res is not None:
            total = initiative_totals(ctl.session.events).get(cid)
            o = order_action(cid, total, list(ctl.state.order), initiative_totals(ctl.session.events)) \
                if total is not None else None
            if o is not None:
                ctl.step(o)
            ctl.say(f"{said}; initiative {total}: {place_text(ctl, cid)}")
    ctl.select(cid)
    return cid


def place_text(ctl, cid: str) -> str:
    order = list(ctl.state.order)
    i = order.index(cid)
    return f"{i + 1} of {len(order)} in the turn order"
