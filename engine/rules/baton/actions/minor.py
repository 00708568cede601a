"""Baton actions resist_poison, extinguish, take_item, use_power, equip, stow, drop_item, pick_up, drink, shout: each one unit (``check`` -> plan, ``apply``),
dispatched by ``Baton.ACTIONS``. ``rs`` is the ruleset."""

from __future__ import annotations

from engine.rules.baton import baton_order, combat, health, skills, slots
from engine.rules.baton import dice as bd
from engine.rules.baton.data import POISONS, POTIONS
from engine.rules.actions import Param, Unit
from engine.rules.baton.actions import action
from engine.rules.core import Illegal

P = Param


def end_effects(rs, session, a, kinds, why: str, only=None) -> None:
    """End the lasting effects on ``a`` whose kind is in ``kinds`` (or just ``only``), then drop the ended ones from
    the list (BAT-50 fire put out, BAT-53 poison resisted, an antidote)."""
    for e in session.state.data["effects"]:
        if e is only or (only is None and e["target"] == a.id and e["kind"] in kinds):
            baton_order.end_effect(rs, session, a, e, why)
    session.state.data["effects"] = [e for e in session.state.data["effects"] if not e.get("ended")]


def unequip(holder, name: str) -> None:
    """``name`` is no longer in the holder's hands (BAT-05)."""
    holder.data["equipped"] = [e for e in holder.data["equipped"] if e != name]


def drop_weapon(session, holder, w: dict, at) -> None:
    """The weapon leaves the holder's hands and gear and lies on the ground at ``at`` (BAT-05 dropped, BAT-32
    disarmed), where anyone may pick it up."""
    unequip(holder, w["name"])
    holder.data["weapons"] = [x for x in holder.data["weapons"] if x is not w]
    session.state.data["ground_items"].append({"name": w["name"], "weapon": w, "at": list(at)})


def minor_check(rs, session, a, doing: str, key: str, *refusals) -> dict:
    """A minor action (BAT-05): its slot must be free (``doing`` says what takes it), then the first of
    ``refusals`` -- ``(refused, reason)`` pairs, in order -- that holds refuses it, naming parameter ``key``."""
    slots.check_slot(rs, session, a, "minor", doing)
    for refused, reason in refusals:
        if refused:
            raise Illegal(reason, "BAT-05", key)
    return {}


class _Minor(Unit):
    """A minor action on an item (BAT-05): ``doing`` says what takes the slot, ``key`` names the parameter the
    refusals are about, ``refusals`` gives the ``(refused, reason)`` pairs in order (:func:`minor_check`)."""
    name = key = doing = ""

    @classmethod
    def check(cls, rs, session, a, act):
        return minor_check(rs, session, a, cls.doing, cls.key, *cls.refusals(rs, session, a, act))

    @classmethod
    def refusals(cls, rs, session, a, act) -> tuple:
        return ()


class _FromHand(_Minor):
    """Stow and drop_item (BAT-05): a minor action on something in hand."""
    missing = ""

    @classmethod
    def refusals(cls, rs, session, a, act) -> tuple:
        item = act[cls.key]
        return ((item not in a.data["equipped"], f"{a.name} {cls.missing} {item}"),)


@action
class ResistPoison(Unit):
    name = "resist_poison"
    place = 16
    groups = {"then": 3}

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return [{"actor": a.id, "action": "resist_poison"}]

    @staticmethod
    def check(rs, session, a, act):
        slots.check_slot(rs, session, a, "major", "resisting the poison")
        if not health.poison_effect(rs, session, a):
            raise Illegal(f"{a.name} suffers no lasting poison", "BAT-53")
        return {}

    @staticmethod
    def apply(rs, session, a, act, plan):
        slots.use_slot(rs, session, "major", "resist poison")
        ef = health.poison_effect(rs, session, a)
        ev = skills.skill_test(rs, session, a, "physique", 7 + ef["potency"], "BAT-53", f"resist the {ef['kind']} poison", major=True)
        if ev["success"]:
            end_effects(rs, session, a, (), "resisted", only=ef)


@action
class Extinguish(Unit):
    name = "extinguish"
    place = 17
    groups = {"then": 4}

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return [{"actor": a.id, "action": "extinguish"}]

    @staticmethod
    def check(rs, session, a, act):
        slots.check_slot(rs, session, a, "major", "putting out the fire")
        if not any(e["target"] == a.id and e["kind"] == "burning" for e in session.state.data["effects"]):
            raise Illegal(f"{a.name} is not burning", "BAT-50")
        return {}

    @staticmethod
    def apply(rs, session, a, act, plan):
        slots.use_slot(rs, session, "major", "extinguish")
        end_effects(rs, session, a, ("burning",), "put out")


def major_or_minor(rs, session, a, major: bool, doing: str) -> dict:
    """take_item and use_power: the major action (BAT-04) or the minor one (BAT-05), as their parameter says; the
    plan names the slot and its rule."""
    slot = "major" if major else "minor"
    slots.check_slot(rs, session, a, slot, doing)
    return {"slot": slot, "rule": slots.SLOT_RULES[slot]}


@action
class TakeItem(Unit):
    name = "take_item"
    place = 18
    PARAMS = {"item": P("str", True), "from": P("str", choices=("pocket", "backpack"), default="pocket")}

    @staticmethod
    def check(rs, session, a, act):
        plan = major_or_minor(rs, session, a, act["from"] == "backpack", f"taking an item from the {act['from']}")
        if a.data["items"].get(act["item"], 0) <= 0:
            raise Illegal(f"{a.name} carries no {act['item']}", plan["rule"], "item")
        return plan

    @staticmethod
    def apply(rs, session, a, act, plan):
        slots.use_slot(rs, session, plan["slot"], f"take {act['item']}")
        a.data.setdefault("in_hand", [])
        session.emit({"type": "take_item", "who": a.id, "item": act["item"], "from": act["from"], "rule": plan["rule"]})


@action
class UsePower(Unit):
    name = "use_power"
    place = 19
    PARAMS = {"kind": P("str", True, choices=("ring", "item_of_power", "miracle")), "target": P("id")}

    @staticmethod
    def check(rs, session, a, act):
        return major_or_minor(rs, session, a, act["kind"] == "ring", f"activating a {act['kind']}")

    @staticmethod
    def apply(rs, session, a, act, plan):
        slots.use_slot(rs, session, plan["slot"], act["kind"])
        session.emit({"type": "use_power", "who": a.id, "kind": act["kind"], "target": act.get("target"),
                      "rule": plan["rule"],
                      "note": "the effect is the table's: the document gives no powers"})


@action
class Equip(_Minor):
    name, key, doing = "equip", "weapon", "equipping a weapon"
    place = 20
    hotkey = "9"
    groups = {"then": 8}
    PARAMS = {"weapon": P("str", True), "hand": P("str", choices=("main", "off"), default="main")}

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return [{"actor": a.id, "action": "equip", "weapon": w["name"]} for w in a.data["weapons"]]

    @classmethod
    def refusals(cls, rs, session, a, act) -> tuple:
        name = act["weapon"]
        return ((name != "shield" and not any(w["name"] == name for w in a.data["weapons"]), f"{a.name} has no {name}"),
                (name in a.data["equipped"], f"{a.name} already holds its {name}"))

    @staticmethod
    def apply(rs, session, a, act, plan):
        slots.use_slot(rs, session, "minor", "equip")
        eq = [e for e in a.data["equipped"] if e != "unarmed"]
        if act["hand"] == "main":
            eq = [act["weapon"]] + eq[1:2]
        else:
            eq = (eq[:1] or ["unarmed"]) + [act["weapon"]]
        a.data["equipped"] = eq
        session.emit({"type": "equip", "who": a.id, "weapon": act["weapon"], "hand": act["hand"], "rule": "BAT-05"})


@action
class Stow(_FromHand):
    name, key, doing, missing = "stow", "weapon", "stowing a weapon", "does not hold a"
    place = 21
    PARAMS = {"weapon": P("str", True)}

    @staticmethod
    def apply(rs, session, a, act, plan):
        slots.use_slot(rs, session, "minor", "stow")
        unequip(a, act["weapon"])
        session.emit({"type": "stow", "who": a.id, "weapon": act["weapon"], "rule": "BAT-05"})


@action
class DropItem(_FromHand):
    name, key, doing, missing = "drop_item", "item", "dropping an item", "holds no"
    place = 22
    PARAMS = {"item": P("str", True)}

    @staticmethod
    def apply(rs, session, a, act, plan):
        slots.use_slot(rs, session, "minor", "drop item")
        w = next(x for x in a.data["weapons"] if x["name"] == act["item"])
        z = session.world.support_layer(a.x, a.y, a.layer)
        drop_weapon(session, a, w, [a.x, a.y, z])
        session.emit({"type": "drop_item", "who": a.id, "item": w["name"], "at": [a.x, a.y, z], "rule": "BAT-05"})


@action
class PickUp(_Minor):
    name, key, doing = "pick_up", "item", "picking up an item"
    place = 23
    groups = {"then": 10}
    PARAMS = {"item": P("str", True)}

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return [{"actor": a.id, "action": "pick_up", "item": it["name"]} for it in session.state.data["ground_items"]]

    @classmethod
    def refusals(cls, rs, session, a, act) -> tuple:
        return ((combat.ground_item(rs, session, a, act["item"]) is None,
                 f"no {act['item']} on the ground within reach of {a.name}"),)

    @staticmethod
    def apply(rs, session, a, act, plan):
        slots.use_slot(rs, session, "minor", "pick up")
        i = combat.ground_item(rs, session, a, act["item"])
        it = session.state.data["ground_items"].pop(i)
        a.data["weapons"].insert(0, it["weapon"])
        a.data["equipped"] = [it["name"]] + [e for e in a.data["equipped"] if e != "unarmed"][:1]
        session.emit({"type": "pick_up", "who": a.id, "item": it["name"], "rule": "BAT-05"})


@action
class Drink(_Minor):
    name, key, doing = "drink", "potion", "drinking a potion"
    place = 24
    groups = {"then": 9}
    PARAMS = {"potion": P("str", True)}

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return [{"actor": a.id, "action": "drink", "potion": p} for p in POTIONS]

    @classmethod
    def refusals(cls, rs, session, a, act) -> tuple:
        p = act["potion"]
        return ((p not in POTIONS, f"unknown potion {p!r}; one of {', '.join(POTIONS)}"),
                (a.data["items"].get(f"potion_{p}", 0) <= 0, f"{a.name} has no potion_{p}"))

    @staticmethod
    def apply(rs, session, a, act, plan):
        slots.use_slot(rs, session, "minor", "drink")
        p = act["potion"]
        a.data["items"][f"potion_{p}"] -= 1
        eff = POTIONS[p]
        session.emit({"type": "drink", "who": a.id, "potion": p, "rule": "BAT-05"})
        if "heal_wound" in eff and a.data["wounds"]:
            n, s, b = bd.parse(eff["heal_wound"])
            r = sum(session.roll("heal", s, n, who=a.id, rule="BAT-51", purpose="healing potion")) + b
            w = max(a.data["wounds"], key=lambda w: (w["severity"], -w["id"]))
            w["severity"] -= r
            session.emit({"type": "wound_healed", "who": a.id, "wound": w["id"], "by": r, "magical": True, "rule": "BAT-51"})
            a.data["wounds"] = [x for x in a.data["wounds"] if x["severity"] > 0]
            health.sync_life(rs, a)
        if "vigor" in eff:
            n, s, b = bd.parse(eff["vigor"])
            r = sum(session.roll("heal", s, n, who=a.id, rule="BAT-20", purpose="vigor potion")) + b
            a.data["vigor"] = min(a.data["max_vigor"], a.data["vigor"] + r)
        if eff.get("cure_poison"):
            end_effects(rs, session, a, POISONS, "antidote")


@action
class Shout(Unit):
    name = "shout"
    place = 25
    hotkey = "0"
    groups = {"then": 7}
    PARAMS = {"text": P("str")}

    @staticmethod
    def candidates(rs, session, a, ctx, item):
        return [{"actor": a.id, "action": "shout"}]

    @staticmethod
    def check(rs, session, a, act):
        return minor_check(rs, session, a, "shouting a command", "")

    @staticmethod
    def apply(rs, session, a, act, plan):
        slots.use_slot(rs, session, "minor", "shout")
        session.emit({"type": "shout", "who": a.id, "text": act.get("text", ""), "rule": "BAT-05"})
