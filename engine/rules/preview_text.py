"""The preview's words for the aerial rules every ruleset shares (AIR-*): a move's cost spelt out (horizontal,
climb and descent AIR-07, take-off AIR-06, the upkeep of flight AIR-08/AIR-10), an attack's cover (AIR-13..16) and
whether a hit makes a flyer roll to fall (AIR-11), the movement left and which reading of AIR-09 is in force. The
ruleset adds its own words through its hooks (``move_preview_lines``, ``HIT_ROLL``, ``upkeep_name``, a preview's
``notes`` and ``lines``); the window (engine/app/controller.py ``preview_lines``) only lays them out."""

from __future__ import annotations

from engine.rules.options import specs_for
from engine.rules.registry import default


def fmt(v) -> str:
    """A value in a preview or log line: floats short, yes / no, short lists in brackets."""
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (list, tuple)) and len(v) <= 4 and all(isinstance(i, (int, float)) for i in v):
        return "[" + ", ".join(fmt(i) for i in v) + "]"
    if isinstance(v, dict):
        return ", ".join(f"{k} {fmt(x)}" for k, x in v.items())
    return str(v)


def _ruleset_class(ruleset):
    return ruleset if ruleset is not None else default().ruleset_class()


def move_lines(pv: dict, ruleset=None) -> list[str]:
    """A move's preview (``cost_m``, its parts, the path, landing or staying aloft) as lines; ``ruleset``: the
    Ruleset class whose words fill in (default: the default ruleset's)."""
    path = pv.get("path") or []
    out = []
    if path:
        out.append(f"path: {len(path) - 1} step(s), {fmt(path[0])} -> {fmt(path[-1])}")
    parts = [f"horizontal {fmt(pv.get('horizontal_m', 0))} m"]
    if pv.get("climb_m"):
        parts.append(f"climb {fmt(pv['climb_m'])} m ({pv.get('layers_up', '?')} layer(s) up, AIR-07)")
    if pv.get("descend_m"):
        parts.append(f"descent {fmt(pv['descend_m'])} m ({pv.get('layers_down', '?')} down, AIR-07)")
    if pv.get("takeoff_m"):
        parts.append(f"take-off {fmt(pv['takeoff_m'])} m (x{pv.get('takeoffs', 1)}, AIR-06)")
    out.append(f"cost: {fmt(pv.get('cost_m', '?'))} m = " + " + ".join(parts))
    if "left_after_m" in pv:
        out.append(f"movement left after: {fmt(pv['left_after_m'])} m")
    out += _ruleset_class(ruleset).move_preview_lines(pv)     # the upkeep of flight, in the ruleset's words
    if pv.get("lands"):
        out.append("lands on a surface")
    elif pv.get("ends_aloft"):
        out.append("ends in the air")
    if pv.get("falls_at_end_of_turn"):
        out.append(f"FALLS at the end of the turn (no {_ruleset_class(ruleset).upkeep_name} to stay aloft, AIR-08/AIR-10)")
    if pv.get("provokes"):
        out.append("provokes opportunity attacks from: " + ", ".join(map(str, pv["provokes"])))
    return out


def attack_lines(pv: dict, base_ac=None, ruleset=None) -> list[str]:
    """An attack's preview (cover, advantage, the chance to hit, a flyer's fall roll, an object's HP) as lines;
    ``base_ac``: the target's AC without cover, to spell the cover bonus out."""
    out = []
    kind = "melee" if pv.get("melee") else "ranged"
    dist = f", {pv['distance_m']:.1f} m" if isinstance(pv.get("distance_m"), (int, float)) else ""
    out.append(f"{pv.get('weapon', 'attack')} ({kind}) at {pv.get('target', '?')}{dist}")
    if "cover" in pv:
        bf = pv.get("blocked_fraction")
        n = f" - {round(bf * 36)}/36 sight lines blocked ({bf:.0%})" if isinstance(bf, (int, float)) else ""
        out.append(f"cover: {pv['cover']}{n} (AIR-13..16)")
    if "target_ac" in pv:
        if isinstance(base_ac, int) and isinstance(pv["target_ac"], int):
            out.append(f"cover bonus {pv['target_ac'] - base_ac:+d} to AC: {base_ac} -> {pv['target_ac']}")
        else:
            out.append(f"target AC with cover: {pv['target_ac']}")
    def reasons(v):
        items = []
        for r in v or []:
            if isinstance(r, (list, tuple)) and r:
                items.append(f"{r[0]}" + (f" ({r[1]})" if len(r) > 1 and r[1] else ""))
            else:
                items.append(str(r))
        return ", ".join(items) or "none"
    adv, dis = pv.get("advantage"), pv.get("disadvantage")
    out.append(f"advantage: {reasons(adv)}")
    out.append(f"disadvantage: {reasons(dis)}")
    if "hit_chance" in pv:
        b = pv.get("to_hit_bonus")
        roll = _ruleset_class(ruleset).HIT_ROLL       # the ruleset's words for the roll against the target
        out.append(f"CHANCE TO HIT: {pv['hit_chance']:.0%}" + (f" ({roll.format(bonus=b, target=pv.get('target_ac'))})"
                                                                 if isinstance(b, int) and roll else ""))
    if pv.get("height"):
        out.append(f"height: {pv['height']}")
    if pv.get("object"):                     # an object or a voxel (issue 14): its HP and what breaking opens
        out.append(f"object: {pv.get('hp')}/{pv.get('max_hp')} HP, aimed at voxel {pv.get('voxel')}")
        opens = pv.get("opens") or []
        out += [f"breaking it opens {o['text']}" for o in opens if isinstance(o, dict) and "text" in o] or \
            ["breaking it opens no sight line to a foe"]
        return out
    if pv.get("target_flying") or pv.get("fall_roll_on_hit"):
        ch = pv.get("chance_fall_roll_moves_it")
        out.append("a hit makes the flyer roll to fall (AIR-11)" + (f": {ch:.0%} it drops" if isinstance(ch, (int, float)) else ""))
    else:
        out.append("target is not flying: a hit cannot make it fall")
    out += [str(n) for n in pv.get("notes") or ()]     # the ruleset's own lines (5e: loading, concentration)
    return out


def movement_text(session, a) -> str:
    """"movement left: 6 m", and for a flyer whose fly speed is not what it moves at aloft, which reading of AIR-09
    is in force (the ruleset's options whose help names AIR-09, with their values)."""
    rs = session.ruleset
    left = rs.movement_left(session, a, a.flying or a.can_fly)
    out = f"movement left: {left:g} m"
    d = a.data or {}
    fly, ground = d.get("fly_speed_m"), d.get("speed_m")
    if not (a.can_fly and isinstance(fly, (int, float)) and isinstance(ground, (int, float)) and fly != ground):
        return out
    same = abs(rs.movement_left(session, a, True) - rs.movement_left(session, a, False)) < 1e-9
    # the value in force: the scene's, else the option's default (a scene that sets none read "air_speed = None")
    opts = [f"{k} = {spec.default if rs.opt(k) is None else rs.opt(k)}" for k, spec in (specs_for(rs.name) or {}).items()
            if "AIR-09" in str(getattr(spec, "help", "") or "")]
    why = f" {', '.join(opts)}" if opts else ""
    if same:          # short: the Selected panel's row (AIR-09 is the reading, the option names it)
        return out + f" (AIR-09{why}: not fly speed {fly:g} m)"
    return out + f" (AIR-09{why}: fly speed {fly:g} m)"
