"""The flyers' shapes (SRD-89..SRD-93, issue 44): the sheet's ``srd_shapes`` (engine/rules/dnd5e/srd_shape_data.py),
played through the ``change_shape`` action (actions/srd_shape.py). The new forms are records of the SRD bestiary,
made a sheet as Polymorph makes one (srd_polymorph.new_form, SPL-19).

* SRD-89 Change Shape (the ancient metallic dragons, the couatl, the deva): "magically polymorphs into a humanoid or
  beast that has a challenge rating no higher than its own, or back into its true form. It reverts to its true form if
  it dies." The dragon "retains its alignment, hit points, Hit Dice, ability to speak, proficiencies, Legendary
  Resistance, lair actions, and Intelligence, Wisdom, and Charisma scores, as well as this action. Its statistics and
  capabilities are otherwise replaced by those of the new form, except any class features or legendary actions of
  that form." The couatl and the deva "retain [their] game statistics ..., but [their] AC, movement modes, Strength,
  Dexterity, and other actions (the couatl) / special senses (the deva) are replaced by those of the new form, and
  [they gain] any statistics and capabilities ... that the new form has but that [they lack]. If the new form has a
  bite attack, the couatl can use its bite in that form."
* SRD-90 Shapechanger by speed (the imp, the quasit): "polymorph into a beast form that resembles a rat (speed 20 ft.),
  a raven (20 ft., fly 60 ft.), or a spider (20 ft., climb 20 ft.) ... Its statistics are the same in each form,
  except for the speed changes noted."
* SRD-91 the vampire's Shapechanger: "a Tiny bat or a Medium cloud of mist, or back into its true form. ... bat form
  ... walking speed is 5 feet, and it has a flying speed of 30 feet ... mist form, the vampire can't take any actions
  ... has a flying speed of 20 feet, can hover ... advantage on Strength, Dexterity, and Constitution saving throws,
  and it is immune to all nonmagical damage".
* SRD-92 Misty Escape: "When it drops to 0 hit points outside its resting place, the vampire transforms into a cloud of
  mist ... instead of falling unconscious ... While it has 0 hit points in mist form, it can't revert to its vampire
  form".
* SRD-93 the vampire's legendary options by its forms: "Unarmed Strike (Vampire Form Only)", "Bite (Bat or Vampire
  Form Only)" (the SRD's names of the two attacks): the legendary "The vampire makes one unarmed strike." is taken in
  its vampire form only, "one bite attack" in its bat or vampire form; in mist form neither.
"""

from __future__ import annotations

import copy

from engine.rules import aerial
from engine.rules.core import Illegal
from engine.rules.dnd5e import damage, srd_traits, text
from engine.rules.dnd5e.damage import DEATH, damage_modifier
from engine.rules.dnd5e.srd_blocks import bestiary
from engine.rules.dnd5e.srd_polymorph import KEYS as SHEET_KEYS, new_form
from engine.rules.dnd5e.srd_shape_data import in_mist, shapes, vampire_form
from engine.world.scene import SIZES

CHANGE, SPEED, VAMPIRE, MISTY, FORMS = "SRD-89", "SRD-90", "SRD-91", "SRD-92", "SRD-93"
VAMPIRE_SIZE = {"vampire": "medium", "bat": "tiny", "mist": "medium"}
#: the vampire's sheet keys a form changes ("Its statistics, other than its size and speed, are unchanged"; the attacks
#: each form has: "Unarmed Strike (Vampire Form Only)", "Bite (Bat or Vampire Form Only)")
VAMPIRE_KEYS = ("speed_m", "fly_speed_m", "hover", "weapons", "attacks", "multiattack", "creature_actions")

text.EVENT_LINES.update({
    "change_shape": text._did(lambda s, e: f"takes its {e['form']} form ({e['size']})" + (
        f" ({e['reason']})" if e.get("reason") else "")),
    "misty_escape": text._did(lambda s, e: "turns to mist at 0 hit points instead of falling unconscious"),
})




def current(a) -> str:
    """The form it has now: ``true`` or the form's name (an SRD id for Change Shape)."""
    v = vampire_form(a)
    if v is not None:
        return "true" if v == "vampire" else v
    return (a.data.get("shape_form") or {}).get("form", "true")


# -- the forms it may take --------------------------------------------------------------------------------------------

def change_forms(a) -> list[dict]:
    """SRD-89: the humanoids and beasts of the bestiary whose challenge rating is no higher than its own."""
    cr = float(shapes(a)["change_shape"]["cr"])
    return [c for c in bestiary().values() if c["type"] in ("humanoid", "beast") and c["cr"] <= cr]


def options(a) -> list[str]:
    """A short, deterministic listing: its true form when changed; else the best flying form (the highest challenge
    rating, then hit points, then id) and the best other one (Change Shape), or each form it lists."""
    ss = shapes(a)
    now = current(a)
    out = [] if now == "true" else ["true"]
    if "change_shape" in ss:
        fs = change_forms(a)
        for group in ([c for c in fs if c["fly_speed_m"]], [c for c in fs if not c["fly_speed_m"]]):
            if group:
                out.append(max(group, key=lambda c: (c["cr"], c["hp"], c["id"]))["id"])
    elif "speed_forms" in ss:
        out += sorted(ss["speed_forms"])
    elif "vampire" in ss:
        out += ["bat", "mist"]
    return [f for f in out if f != now]


def check(rs, session, a, form) -> str:
    ss = shapes(a)
    rule = CHANGE if "change_shape" in ss else SPEED if "speed_forms" in ss else VAMPIRE
    if not form:
        raise Illegal(f"{a.name} takes a form: one of {', '.join(options(a)) or 'none'}", rule, "form")
    form = str(form).lower()
    if a.data.get("misty_zero"):
        raise Illegal(f"{a.name} has 0 hit points in mist form: it can't revert (Misty Escape)", MISTY, "form")
    if form == current(a):
        raise Illegal(f"{a.name} is already in its {form} form", rule, "form")
    if form == "true":
        return form
    if "change_shape" in ss:
        c = bestiary().get(form)
        if c is None or c["type"] not in ("humanoid", "beast"):
            raise Illegal(f"Change Shape takes the form of a humanoid or beast of the SRD (`aerie compendium "
                          f"creatures beast`), not {form!r}", CHANGE, "form")
        if c["cr"] > float(ss["change_shape"]["cr"]):
            raise Illegal(f"a {c['name']} (CR {c['cr']:g}) is above {a.name}'s challenge rating "
                          f"{ss['change_shape']['cr']:g}", CHANGE, "form")
        return form
    listed = sorted(ss["speed_forms"]) if "speed_forms" in ss else ["bat", "mist"]
    if form not in listed:
        raise Illegal(f"{a.name}'s forms: {', '.join(listed + ['true'])}", rule, "form")
    return form


# -- taking a form ----------------------------------------------------------------------------------------------------

def _body(session, a, size: str) -> None:
    """The new form's size where it stands (its corner cell kept); kept as it is where that body does not fit."""
    if size not in SIZES or size == a.size:
        return
    old = (a.size, a.footprint, a.height_layers, a.eye_m)
    a.size = size
    a.footprint, a.height_layers, a.eye_m = SIZES[size]
    if not aerial.body_fits(session, a, a.x, a.y, a.layer) or aerial.body_in_the_way(session, a, a.pos) is not None:
        a.size, a.footprint, a.height_layers, a.eye_m = old


def _falls(session, a, rule: str) -> None:
    """Aloft in a form without a fly speed, it falls (AIR-10, AIR-12), as the succubus's wingless form (SRD-37)."""
    if a.flying and not a.can_fly and not a.dead:
        session.emit({"type": "flight_lost", "who": a.id, "reason": "a form without a fly speed", "rule": "AIR-10",
                      "because": rule})
        aerial.fall(session, a, None, "AIR-10", "took a form without a fly speed")


def _gains(mine: dict, new: dict) -> dict:
    """The couatl's and the deva's "gains any statistics and capabilities ... that the new form has but that it
    lacks": resistances, immunities, traits, saving throw and skill proficiencies added to its own."""
    out: dict = {k: sorted(set(mine.get(k) or ()) | set(new.get(k) or ()))
                 for k in ("resist", "immune", "condition_immunities", "srd_traits", "saves")}
    out["skills"] = {**(new.get("skills") or {}), **(mine.get("skills") or {})}
    return out


def _change_sheet(a, keeps: str, new: dict) -> dict:
    """The sheet keys of its new form (SRD-89), from its own (``a.data``) and the form's (``new``)."""
    mine = a.data
    if keeps == "dragon":
        ab = {**new["abilities"], **{k: mine["abilities"][k] for k in ("int", "wis", "cha") if k in mine["abilities"]}}
        shift = int(mine["prof"]) - int(new["prof"])         # "retains ... proficiencies": its bonus, not the form's
        weapons = [{**w, "to_hit": w["to_hit"] + shift} if isinstance(w.get("to_hit"), int) else w
                   for w in new["weapons"]]
        return {**new, "abilities": ab, "weapons": weapons, "prof": mine["prof"], "saves": list(mine["saves"]),
                "skills": dict(mine.get("skills") or {}), "legendary_resistance": mine.get("legendary_resistance"),
                "legendary": None}
    out = {k: copy.deepcopy(mine.get(k)) for k in SHEET_KEYS}
    out.update({k: new.get(k) for k in ("ac", "speed_m", "fly_speed_m", "swim_speed_m", "hover")})
    out["abilities"] = {**mine["abilities"], "str": new["abilities"]["str"], "dex": new["abilities"]["dex"]}
    out.update(_gains(mine, new))
    names = {w["name"].lower() for w in new["weapons"]}
    if keeps == "couatl":                    # "other actions are replaced"; "can use its bite in that form"
        own_bite = [w for w in mine["weapons"] if w["name"].lower() == "bite" and "bite" in names]
        out["weapons"] = [w for w in new["weapons"] if not (own_bite and w["name"].lower() == "bite")] + own_bite
        out["attacks"], out["multiattack"] = new["attacks"], new.get("multiattack")
        out["creature_actions"] = new.get("creature_actions")
    else:                                    # the deva keeps its actions and gains the form's
        have = {w["name"].lower() for w in mine["weapons"]}
        out["weapons"] = list(mine["weapons"]) + [w for w in new["weapons"] if w["name"].lower() not in have]
        out["creature_actions"] = (mine.get("creature_actions") or []) + (new.get("creature_actions") or [])
    return out


def _set_sheet(a, sheet: dict) -> None:
    for k in SHEET_KEYS:
        a.data.pop(k, None)
    a.data.update({k: v for k, v in sheet.items() if v is not None or k in ("fly_speed_m", "swim_speed_m")})
    a.can_fly = a.data.get("fly_speed_m") is not None


def change_shape(rs, session, a, form: str, reason: str = "") -> None:
    """Take ``form`` (``true``: back): SRD-89's humanoid or beast, SRD-90's speeds, SRD-91's bat or mist."""
    ss = shapes(a)
    if "vampire" in ss:
        _vampire(rs, session, a, form, reason)
        return
    held = a.data.pop("shape_form", None)
    if held is not None:                     # back to the true form first (a form to a form passes through it)
        _set_sheet(a, held["sheet"])
        a.size, a.footprint, a.height_layers, a.eye_m = held["body"]
        a.can_fly = held["can_fly"]
    rule = CHANGE if "change_shape" in ss else SPEED
    if form != "true":
        saved = {"form": form, "sheet": {k: copy.deepcopy(a.data.get(k)) for k in SHEET_KEYS},
                 "body": [a.size, a.footprint, a.height_layers, a.eye_m], "can_fly": a.can_fly}
        if rule == CHANGE:
            new, _, size = new_form(rs, form)
            new["creature_type"] = bestiary()[form]["type"]
            _set_sheet(a, _change_sheet(a, ss["change_shape"]["keeps"], new))
            _body(session, a, size)
        else:                                # "Its statistics are the same in each form, except for the speed"
            sp = ss["speed_forms"][form]
            a.data["speed_m"] = float(sp["speed_m"])
            a.data["fly_speed_m"] = sp.get("fly_speed_m")
            a.data["swim_speed_m"] = sp.get("swim_speed_m")
            a.can_fly = sp.get("fly_speed_m") is not None
        a.data["shape_form"] = saved
    session.emit({"type": "change_shape", "who": a.id, "form": form, "size": a.size, "can_fly": a.can_fly,
                  **({"reason": reason} if reason else {}), "rule": rule})
    _falls(session, a, rule)


def _vampire(rs, session, a, form: str, reason: str) -> None:
    """SRD-91: the form's record (vampire-bat, vampire-mist, vampire-vampire) gives its speeds and its attacks."""
    v = shapes(a)["vampire"]
    name = "vampire" if form == "true" else form
    new, _, _ = new_form(rs, v["forms"][name])
    for k in VAMPIRE_KEYS:
        a.data.pop(k, None)
    a.data.update({k: new.get(k) for k in VAMPIRE_KEYS if new.get(k) is not None or k == "fly_speed_m"})
    if name == "mist":
        a.data["hover"] = True               # "can hover"
    a.can_fly = a.data.get("fly_speed_m") is not None
    v["form"] = name
    _body(session, a, VAMPIRE_SIZE[name])
    session.emit({"type": "change_shape", "who": a.id, "form": form, "size": a.size, "can_fly": a.can_fly,
                  **({"reason": reason} if reason else {}), "rule": MISTY if reason else VAMPIRE})
    _falls(session, a, VAMPIRE)


@DEATH.rule(CHANGE)
def true_shape_on_death(rs, session, a):
    """"It reverts to its true form if it dies." (SRD-89, SRD-90, SRD-91)"""
    if current(a) != "true":
        change_shape(rs, session, a, "true", "it dies")


# -- the mist (SRD-91) and Misty Escape (SRD-92) ----------------------------------------------------------------------

def mist_acts(rs, session, a, w) -> None:
    """"While in mist form, the vampire can't take any actions": no attack, the legendary ones included."""
    if in_mist(a):
        raise Illegal(f"{a.name} is a cloud of mist: it can't take any actions", VAMPIRE, "weapon")


@damage_modifier(VAMPIRE)
def mist_immune_to_nonmagical(rs, session, a, dmg):
    """"it is immune to all nonmagical damage": a weapon's without the magical property, and a fall's (AIR-12)."""
    if not in_mist(a) or dmg["amount"] <= 0:
        return
    w = dmg.get("weapon")
    if (w is not None and "magical" not in (w.get("properties") or ())) or dmg["rule"] == "AIR-12":
        dmg["amount"] = 0
        dmg["notes"].append("mist form: immune to nonmagical damage (SRD-91)")


def misty_escape(rs, session, a, excess: int, dtype: str, source, rule: str) -> bool:
    """SRD-92: damage that drops it to 0 turns it to mist at 0 hit points instead of falling unconscious (a monster's
    death at 0 HP, DND-02, included); damage left over of at least its max HP still kills it (DND-01)."""
    if not shapes(a).get("misty_escape") or a.hp == 0 or excess >= a.max_hp or a.dead:
        return False
    a.hp = 0
    session.emit({"type": "hp", "who": a.id, "hp": 0, "max_hp": a.max_hp})
    a.data["misty_zero"] = True
    a.data["stable"] = True                  # no death saves: it is not dying
    session.emit({"type": "misty_escape", "who": a.id, "rule": MISTY})
    if not in_mist(a):
        _vampire(rs, session, a, "mist", "Misty Escape")
    damage.check_over(rs, session)
    return True


srd_traits.ATTACK_CHECKS.append(mist_acts)
damage.AT_ZERO.append(misty_escape)
