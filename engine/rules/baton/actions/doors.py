"""Baton: opening a door (the doors of imported maps and scenes' ``[[objects]]`` with ``door = true``).

The baton document names no doors. It lists what the minor action is for (BAT-05, l. 26-33): "Soltar ou pegar um
item no chão", handling a thing within reach; and the major action's create opportunity (BAT-15, l. 20):
"manipular o campo de batalha". Decision: swinging an unlocked door open is a minor action, standing next to it, as
handling an object is; option ``door_action = "major"`` reads it as manipulating the battlefield (the major
action). A locked door is broken (``attack`` on it, BAT-12) or knocked down (``manipulate``, BAT-15); a secret
door opens once found (the game master's tools). The door's voxels leave the way (``objects.open_door``), as an
opened door's do under the 5e rules.
"""

from __future__ import annotations

from engine.rules import objects
from engine.rules.actions import Param, Unit
from engine.rules.baton import mounts, slots
from engine.rules.baton.actions import action
from engine.rules.core import Illegal

RULES = {"minor": "BAT-05", "major": "BAT-04"}


def _slot(rs) -> str:
    return "major" if rs.opt("door_action") == "major" else "minor"


@action
class OpenDoor(Unit):
    """Open an unlocked door next to the character: the minor action (BAT-05; option ``door_action``)."""
    name = "open_door"
    PARAMS = {"target": Param("id", True, help="the door (an object with door = true), not locked")}
    LINES = {"door_opened": lambda session, e, n, r: f"{n('by')} opens {e['target']}{r}"}

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        # listed for the holder after the declared groups (no group names it): every closed door it may open
        out = []
        for o in objects._objects(session):
            st = session.state.objects[o.id]
            if o.door and not st["open"] and not st.get("locked") and st.get("found", True) and not st["destroyed"]:
                out.append({"actor": a.id, "action": "open_door", "target": o.id})
        return out

    @staticmethod
    def check(rs, session, a, act):
        slot = _slot(rs)
        slots.check_slot(rs, session, a, slot, "opening a door")
        rule = RULES[slot]
        o = objects.closed_door(session, act["target"], rule, ": break it (attack) or knock it down (manipulate, BAT-15)")
        if not objects.next_to(session, mounts.body_of(rs, session, a).body(), a, o):
            raise Illegal(f"{a.name} must stand next to {o.name} to open it", rule, "target")
        return {"target": o.id, "slot": slot}

    @staticmethod
    def preview(rs, session, a, act, plan):
        return {"target": plan["target"], "takes": f"the {plan['slot']} action ({RULES[plan['slot']]})"}

    @staticmethod
    def apply(rs, session, a, act, plan):
        slots.use_slot(rs, session, plan["slot"], "open a door")
        objects.open_door(session, objects.find_object(session, plan["target"]), a.id, RULES[plan["slot"]])
