"""Breathing and light in a fight (SRD-81..SRD-86, issue 44), as the SRD 5.1 writes them (the sheet's
``srd_exposure``, engine/rules/dnd5e/srd_exposure.py; the catalogue: srd_catalogue_breath.py):

* SRD-81 Suffocating (SRD 5.1, "The Environment"): "A creature can hold its breath for a number of minutes equal to
  1 + its Constitution modifier (minimum of 30 seconds). When a creature runs out of breath or is choking, it can
  survive for a number of rounds equal to its Constitution modifier (minimum of 1 round). At the start of its next
  turn, it drops to 0 hit points and is dying, and it can't regain hit points or be stabilized until it can breathe
  again." Hold Breath: "The crocodile can hold its breath for 15 minutes."
* SRD-82 Amphibious: "The dragon can breathe air and water."; Water Breathing: "The shark can breathe only
  underwater."
* SRD-83 the scene's light (option ``light``): sunlight under the open sky, bright light.
* SRD-84 Sunlight Sensitivity: "While in sunlight, the wraith has disadvantage on attack rolls, as well as on Wisdom
  (Perception) checks that rely on sight."; Light Sensitivity: "While in bright light, the cloaker has disadvantage
  on attack rolls and Wisdom (Perception) checks that rely on sight."
* SRD-85 Sunlight Hypersensitivity: "The vampire takes 20 radiant damage when it starts its turn in sunlight. While
  in sunlight, it has disadvantage on attack rolls and ability checks."
* SRD-86 Harmed by Running Water: "The vampire takes 20 acid damage if it ends its turn in running water."
"""

from __future__ import annotations

from engine.rules import aerial
from engine.rules.dnd5e import conditions, damage, text
from engine.rules.dnd5e.advantage import DIS, source
from engine.rules.dnd5e.common import mod
from engine.rules.dnd5e.srd_exposure import BREATHLESS_TYPES, exposure, in_bright_light, in_material, in_sunlight
from engine.rules.dnd5e.turns import TURN_END, TURN_START

ROUND_S = 6                      # a round is 6 seconds (SRD, "Combat")

text.EVENT_LINES.update({
    "holds_breath": text._did(lambda s, e: f"holds its breath underwater ({e['rounds']} rounds)"),
    "suffocating": text._did(lambda s, e: f"runs out of breath: it survives {e['rounds']} more round(s)"),
    "suffocated": text._did(lambda s, e: "suffocates: it drops to 0 hit points"),
})


# -- SRD-81, SRD-82 breathing ----------------------------------------------------------------------------------------

def underwater(rs, session, a) -> bool:
    """DND-37's ``underwater = true``, or the body's top layer all in water (a voxel of the material water or of a
    running water's, option ``running_water``)."""
    if a.data.get("underwater"):
        return True
    w = session.world
    X, Y, Z = w.size
    top = a.layer + a.height_layers - 1
    if not 0 <= top < Z:
        return False
    water = ("water", *rs.opt("running_water"))
    ids = {i for i, m in enumerate(w.materials) if m.name in water}
    return bool(ids) and all(0 <= a.x + i < X and 0 <= a.y + j < Y and int(w.voxels[top, a.y + j, a.x + i]) in ids
                             for i in range(a.footprint) for j in range(a.footprint))


def breathes_underwater(a) -> str | None:
    """Why ``a`` does not suffocate underwater, or None: Amphibious / Water Breathing (SRD-82), a type that does not
    breathe (a construct, an undead), a water creature (a swim speed and no other)."""
    if exposure(a).get("breathes_water"):
        return "it can breathe water"
    if a.data.get("creature_type") in BREATHLESS_TYPES:
        return f"a{'n' if a.data['creature_type'][0] in 'aeiou' else ''} {a.data['creature_type']} does not breathe"
    if a.data.get("swim_speed_m") and not a.data.get("speed_m") and not a.can_fly:
        return "a water creature (a swim speed only)"
    return None


def held_rounds(a) -> int:
    """Rounds of held breath: Hold Breath's minutes, else 1 + Con modifier minutes, at least 30 seconds."""
    minutes = exposure(a).get("hold_breath_min")
    if minutes is None:
        minutes = 1 + mod(a.data["abilities"]["con"])
    return max(30 // ROUND_S, int(minutes) * 60 // ROUND_S)


def _drops(rs, session, a) -> None:
    """"it drops to 0 hit points and is dying" (a monster with ``monsters_die_at_0`` dies, DND-02)."""
    a.hp = 0
    a.data["breath"]["suffocated"] = True
    session.emit({"type": "suffocated", "who": a.id, "rule": "SRD-81"})
    session.emit({"type": "hp", "who": a.id, "hp": 0, "max_hp": a.max_hp})
    if not a.data["pc"] and rs.opt("monsters_die_at_0"):
        damage.die(rs, session, a, "suffocated (a monster dies at 0 HP)", "SRD-81")
        return
    a.data["death"] = {"successes": 0, "failures": 0}
    a.data["stable"] = False
    session.emit({"type": "dying", "who": a.id, "rule": "SRD-81"})
    conditions.add_condition(rs, session, a, "unconscious", "SRD-81")
    aerial.check_grounded(session, a)
    damage.check_over(rs, session)


@TURN_START.rule("SRD-81")
def suffocation(rs, session, a):
    """Each turn it starts underwater counts a round of held breath; after ``held_rounds`` it runs out of breath
    (a ``suffocating`` event) and survives Con modifier rounds (at least 1); at the start of its next turn it drops
    to 0 hit points and is dying. Out of the water it breathes again (the count starts over). Option
    ``suffocation = false``: no one suffocates."""
    if a.dead or not rs.opt("suffocation"):
        return
    if not underwater(rs, session, a):
        a.data.pop("breath", None)
        return
    if a.hp <= 0 or breathes_underwater(a):
        return
    b = a.data.setdefault("breath", {"rounds": 0})
    b["rounds"] += 1
    held, survive = held_rounds(a), max(1, mod(a.data["abilities"]["con"]))
    if b["rounds"] == 1:
        session.emit({"type": "holds_breath", "who": a.id, "rounds": held, "rule": "SRD-81"})
    elif b["rounds"] == held + 1:
        session.emit({"type": "suffocating", "who": a.id, "rounds": survive, "rule": "SRD-81"})
    elif b["rounds"] > held + survive:
        _drops(rs, session, a)


def no_breath_no_healing(a, what: str):
    """"it can't regain hit points ... until it can breathe again": refused while it lies suffocated underwater."""
    if what == "heal" and (a.data.get("breath") or {}).get("suffocated"):
        return "it cannot breathe (suffocated underwater)", "SRD-81"
    return None


damage.NO_HEALING.append(no_breath_no_healing)


# -- SRD-84, SRD-85 light --------------------------------------------------------------------------------------------

def light_flaw(rs, session, a, checks: bool) -> str | None:
    """Why ``a`` has disadvantage from the light now (attack rolls; ``checks``: an ability check), or None."""
    ex = exposure(a)
    if not ex:
        return None
    if ex.get("sunlight_hypersensitivity") and in_sunlight(rs, session, a):
        return "in sunlight (Sunlight Hypersensitivity, SRD-85)"
    if checks:
        return None
    if ex.get("sunlight_sensitivity") and in_sunlight(rs, session, a):
        return "in sunlight (Sunlight Sensitivity, SRD-84)"
    if ex.get("light_sensitivity") and in_bright_light(rs, session, a):
        return "in bright light (Light Sensitivity, SRD-84)"
    return None


@source("SRD-84")
def light_sensitivity(rs, session, a, t, plan, ctx):
    why = light_flaw(rs, session, a, False)
    if why:
        yield DIS, f"the attacker is {why}", "SRD-85" if "SRD-85" in why else "SRD-84"


def check_flaw(rs, session, a, ability: str, what: str) -> str | None:
    """SRD-84: a Wisdom (Perception) check (the Search action: it relies on sight); SRD-85: any ability check."""
    why = light_flaw(rs, session, a, True)
    if why:
        return why
    if what == "Perception":
        return light_flaw(rs, session, a, False)
    return None


conditions.CHECK_DISADVANTAGE.append(check_flaw)


@TURN_START.rule("SRD-85")
def sunlight_burns(rs, session, a):
    """"The vampire takes 20 radiant damage when it starts its turn in sunlight.\""""
    n = exposure(a).get("sunlight_hypersensitivity")
    if n and not a.dead and in_sunlight(rs, session, a):
        rs.apply_damage(session, a, int(n), "radiant", None, "SRD-85")


# -- SRD-86 running water --------------------------------------------------------------------------------------------

def in_running_water(rs, session, a) -> bool:
    return in_material(session, a, tuple(rs.opt("running_water")))


@TURN_END.rule("SRD-86")
def running_water(rs, session, a):
    """"The vampire takes 20 acid damage if it ends its turn in running water" (a voxel of its body is of the
    materials the option ``running_water`` names)."""
    n = exposure(a).get("running_water")
    if n and not a.dead and in_running_water(rs, session, a):
        rs.apply_damage(session, a, int(n), "acid", None, "SRD-86")
