"""`aerie query`: the geometry between two characters, as data and as a readable explanation."""

from __future__ import annotations

from engine.errors import AerieError
from engine.rules.registry import info
from engine.world.cover import cover_between
from engine.world.geometry import Body, distance_m, engaged, layers_apart


def _char(scene, cid: str, flag: str):
    try:
        return scene.character(cid)
    except KeyError:
        ids = ", ".join(c.id for c in scene.characters) or "none"
        raise AerieError(f"{scene.path}: {flag}: no character {cid!r} (characters: {ids})") from None


def query(scene, a_id: str, b_id: str, a_at=None, b_at=None) -> dict:
    a, b = _char(scene, a_id, "--from"), _char(scene, b_id, "--to")
    ba, bb = Body.of(a, a_at), Body.of(b, b_at)
    cov = cover_between(scene.world, ba, bb, info(scene.ruleset).cover_levels, scene.spec.options.get("cover_thresholds"))
    out = {
        "from": a.id,
        "to": b.id,
        "from_position": [ba.x, ba.y, ba.layer],
        "to_position": [bb.x, bb.y, bb.layer],
        "distance_m": round(distance_m(ba, bb, scene.world.cell_m), 4),
        "layers_apart": layers_apart(ba, bb),
        "engaged": engaged(ba, bb),
        "visible": cov.visible,
        "blocked_fraction": round(cov.blocked_fraction, 4),
        "rays": len(cov.blocked),
        "rays_blocked": sum(cov.blocked),
        "cover": cov.level,
        "ruleset": scene.ruleset,
    }
    notes = info(scene.ruleset).ruleset_class().query_notes(scene, a, b, out)
    if notes:
        out["features"] = notes       # which feature (5e: feat) changes which of these numbers
    return out


def cover_rule(ruleset: str) -> str:
    return info(ruleset).cover_rule


def explain(scene, r: dict) -> str:
    lines = [
        f"{r['from']} at {r['from_position']} -> {r['to']} at {r['to_position']} ({scene.ruleset})",
        f"  distance: {r['distance_m']:.2f} m in a straight line, counting height (AIR-03); "
        f"{r['layers_apart']} layer(s) apart (AIR-02: layers are 1 m)",
        f"  engaged: {'yes' if r['engaged'] else 'no'} (AIR-04: neighbouring cell, same layer or one apart)",
        f"  line of sight: {r['rays_blocked']} of {r['rays']} sight lines from {r['from']}'s eye to {r['to']}'s body "
        f"are blocked ({r['blocked_fraction']:.0%}); computed by the program (AIR-13, AIR-16)",
        f"  visible: {'yes' if r['visible'] else 'no'} (AIR-15)",
        f"  cover: {r['cover']} ({cover_rule(scene.ruleset)}; thresholds in docs/rules.md)",
    ]
    for n in r.get("features", []):
        lines.append(f"  {n['feature']}: {n['text']} ({n['rule']})")
    return "\n".join(lines)
