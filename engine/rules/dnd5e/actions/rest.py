"""Dnd5e game master tools for what lies outside a fight's six-second turns (``actor = "gm"``, like ``inspire``):

* ``short_rest``: the game master rules that a short rest (an hour) took place for one character: it spends
  ``dice`` hit dice, each a die named ``hit_die`` + its Con modifier (DND-F23 Durable: a result below twice the Con
  modifier, at least 2, counts as that); its Martial Adept die (DND-F01) comes back, and Healer (DND-F36) and
  Inspiring Leader (DND-F26) may help it again.
* ``trap``: a trap goes off on a character: a saving throw (DND-F05 Dungeon Delver: advantage) and damage (dice named
  ``trap``, source ``trap``: Dungeon Delver's resistance), half (or none) on a success.
* ``secret_door``: is a secret door there found? Passive Perception / Investigation against its DC (DND-F29
  Observant +5), or ``active = true``: the character searches (DND-19), a check; Dungeon Delver: advantage (on a
  passive score, +5: 5e's rule for a passive check with advantage).

Each unit: ``check(rs, session, act) -> plan``, ``apply(rs, session, act, plan)``; its event line is its ``LINES``.
"""

from __future__ import annotations

from engine.rules.actions import Param, Unit
from engine.rules.core import Illegal
from engine.rules.dnd5e.actions import action
from engine.rules.dnd5e import conditions, damage, feats
from engine.rules.dnd5e.common import dice_spec, mod
from engine.rules import objects


def _living(session, act):
    t = session.actor(act["target"], "target")
    if t.dead:
        raise Illegal(f"{t.name} is dead", "DND-01", "target")
    return t


P = Param


@action
class ShortRest(Unit):
    name = "short_rest"
    place = 29
    PARAMS = {"target": P("id", True, help="the character the game master rules has rested an hour"),
              "dice": P("int", help="hit dice to spend (default 1)")}
    LINES = {"short_rest": lambda session, e, n, r: _short_rest_line(session, e, n, r)}

    @staticmethod
    def check(rs, session, act):
        t = _living(session, act)
        left = t.data["hit_dice"] if "hit_dice" in t.data else t.data["level"]
        n = act.get("dice", 1 if left else 0)
        if n < 0:
            raise Illegal("dice must not be negative", "DND-F23", "dice")
        if n > left:
            raise Illegal(f"{t.name} has {left} hit dice left, not {n}", "DND-F23", "dice")
        return {"target": t.id, "dice": n}

    @staticmethod
    def apply(rs, session, act, plan):
        t = session.state.actors[plan["target"]]
        d = t.data
        if "hit_dice" not in d:                      # a sheet without hit dice: d8s, as many as its level
            d["hit_die"], d["hit_dice"] = 8, d["level"]
        con = mod(d["abilities"]["con"])
        durable = bool(d.get("feats")) and feats.has(t, "durable")
        floor = max(2, 2 * con)
        total, dice = 0, []
        for _ in range(plan["dice"]):
            (r,) = session.roll("hit_die", d["hit_die"], who=t.id, rule="DND-F23" if durable else "DND-02",
                                purpose="a hit die on a short rest")
            if durable and rs.opt("durable_minimum") == "die":
                got = max(r, floor) + con           # the document: die results below 2 x Con mod count as it
            elif durable:
                got = max(r + con, floor)           # the SRD: at least 2 x Con mod regained from the die
            else:
                got = r + con
            got = max(0, got)
            dice.append({"die": r, "hp": got})
            total += got
        d["hit_dice"] -= plan["dice"]
        ev = {"type": "short_rest", "who": t.id, "dice": dice, "hit_dice_left": d["hit_dice"], "rule": "DND-F23"}
        if durable:
            ev["durable_minimum"] = floor
        session.emit(ev)
        damage.heal(rs, session, t, total, "DND-02")
        if "manoeuvres" in d:
            d["superiority"] = 1                    # DND-F01: "after a short or long rest"
        for k in ("healer_tended", "inspired"):     # DND-F36, DND-F26: "until a short or long rest"
            lst = session.state.data.get(k)
            if lst and t.id in lst:
                lst[:] = [i for i in lst if i != t.id]


@action
class Trap(Unit):
    name = "trap"
    place = 30
    PARAMS = {"target": P("id", True, help="the character the trap goes off on"),
              "save": P("str", choices=("str", "dex", "con", "int", "wis", "cha"), default="dex"),
              "dc": P("int", default=15), "damage": P("str", default="2d10", help="dice like 2d10 (named trap)"),
              "type": P("str", default="piercing"), "half": P("bool", default=True, help="half damage on a save (false: none)")}
    LINES = {"trap": lambda session, e, n, r: (f"a trap goes off on {n('who')}: {e['save'].upper()} save DC {e['dc']}, "
                                               f"{e['damage']} {e['damage_type']}{r}")}

    @staticmethod
    def check(rs, session, act):
        t = _living(session, act)
        try:
            dice_spec(act["damage"])
        except ValueError:
            raise Illegal(f"damage {act['damage']!r} is not like 2d10", "DND-F05", "damage") from None
        if not 1 <= act["dc"] <= 30:
            raise Illegal("a DC is 1..30", "DND-F05", "dc")
        return {"target": t.id}

    @staticmethod
    def apply(rs, session, act, plan):
        t = session.state.actors[plan["target"]]
        delver = bool(t.data.get("feats")) and feats.has(t, "dungeon_delver")
        session.emit({"type": "trap", "who": t.id, "save": act["save"], "dc": act["dc"], "damage": act["damage"],
                      "damage_type": act["type"], "rule": "DND-F05" if delver else "DND-33"})
        ok = conditions.saving_throw(rs, session, t, act["save"], act["dc"], None, "DND-33", "against a trap",
                             advantage="Dungeon Delver: advantage against a trap (DND-F05)" if delver else None,
                             sole_target=True)       # the trap is aimed at this one creature (Shield Master, DND-F20)
        n, s = dice_spec(act["damage"])
        amount = sum(session.roll("trap", s, n, who=t.id, rule="DND-33", purpose="the trap's damage")) if n else 0
        if ok:
            amount = amount // 2 if act["half"] else 0
        rs.apply_damage(session, t, amount, act["type"], "trap", "DND-33")


@action
class SecretDoor(Unit):
    name = "secret_door"
    place = 31
    PARAMS = {"target": P("id", True, help="the character who may find it"), "dc": P("int", default=15),
              "skill": P("str", choices=("perception", "investigation"), default="perception"),
              "active": P("bool", default=False, help="the character searches (a check), not its passive score"),
              "door": P("id", help="the secret door object found on a success (then it can be opened)")}
    LINES = {"secret_door": lambda session, e, n, r: _secret_door_line(session, e, n, r)}

    @staticmethod
    def check(rs, session, act):
        t = _living(session, act)
        if not 1 <= act["dc"] <= 30:
            raise Illegal("a DC is 1..30", "DND-19", "dc")
        if act["active"]:
            if conditions.incapacitated(rs, t):
                raise Illegal(f"{t.name} is incapacitated and cannot search", "DND-19", "target")
        door = act.get("door")
        if door is not None:

            o = objects.find_object(session, door)
            if o is None or not o.secret:
                raise Illegal(f"no secret door {door!r}", "DND-19", "door")
        return {"target": t.id}

    @staticmethod
    def apply(rs, session, act, plan):
        t = session.state.actors[plan["target"]]
        skill = act["skill"]
        delver = bool(t.data.get("feats")) and feats.has(t, "dungeon_delver")
        why = "Dungeon Delver: advantage to find a secret door (DND-F05)" if delver else None
        ev = {"type": "secret_door", "who": t.id, "skill": skill, "dc": act["dc"]}
        if act["active"]:
            total = conditions.check_roll(rs, session, t, skill, "check", "DND-19", f"{skill.capitalize()} to find a secret door",
                                  advantage=why)
            ev["total"] = total
        else:
            total = conditions.passive(rs, t, skill) + (5 if delver else 0)
            ev["passive"] = total
        ev["found"] = total >= act["dc"]
        feats_ = [f for f, on in (("dungeon_delver", delver),
                                  ("observant", not act["active"] and bool(t.data.get("feats")) and feats.has(t, "observant")
                                   and skill in ("perception", "investigation"))) if on]
        if feats_:
            ev["feats"] = feats_
        ev["rule"] = "+".join(["DND-19"] + [feats.FEAT_ID[f] for f in feats_])
        if act.get("door") is not None:
            ev["door"] = act["door"]
            if ev["found"]:
                session.state.objects[act["door"]]["found"] = True
        session.emit(ev)


def _short_rest_line(session, e, n, r):
    got = sum(d["hp"] for d in e["dice"])
    return f"{n('who')} rests: {len(e['dice'])} hit dice, {got} HP ({e['hit_dice_left']} left){r}"


def _secret_door_line(session, e, n, r):
    how = f"passive {e['skill']} {e['passive']}" if "passive" in e else f"{e['skill']} {e['total']}"
    return f"{n('who')} {'finds' if e['found'] else 'does not find'} the secret door ({how} vs DC {e['dc']}){r}"
