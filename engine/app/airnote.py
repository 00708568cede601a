"""AIR-09 said where a flyer's move is refused for want of movement (issue 40 item 12): in the air a flyer moves
at its ground speed (the document's reading), not its fly speed, unless the scene sets the option
``air_speed = "fly_speed"``. A GM who meets the refusal learns both there, not from docs/rules.md. Pure."""

from __future__ import annotations

from engine.rules.options import specs_for
from engine.app.tokens import short_name


def air_speed_note(session, act: dict | None, reason: str) -> str:
    """The note for a refused move or climb of ``act``'s flyer, or "" where AIR-09 is not why."""
    if not isinstance(act, dict) or act.get("action") != "move" or "movement" not in str(reason):
        return ""
    a = session.state.actors.get(act.get("actor")) if isinstance(act.get("actor"), str) else None
    if a is None or not a.can_fly:
        return ""
    d = a.data if isinstance(a.data, dict) else {}
    fly, ground = d.get("fly_speed_m"), d.get("speed_m")
    if not (isinstance(fly, (int, float)) and isinstance(ground, (int, float)) and fly > ground):
        return ""
    spec = (specs_for(session.ruleset.name) or {}).get("air_speed")
    if spec is None:
        return ""
    now = session.ruleset.opt("air_speed")
    if (spec.default if now is None else now) != "ground":
        return ""
    return (f"AIR-09: in the air {short_name(a)} moves at its ground speed, {ground:g} m a turn, not its fly "
            f"speed {fly:g} m; the scene option air_speed = \"fly_speed\" ([options] in the scene file) flies at "
            "the fly speed")
