"""The baton's action parameters (``Baton.action_specs``): name -> {parameter: Param} (engine/rules/actions.py)."""

from __future__ import annotations

from engine.rules.actions import Param
from engine.rules.baton.data import POISONS


def build_specs() -> dict:
    P = Param
    tgt = P("id", True, help="the character")
    return {
        "pass": {"to": P("id", True, help="who gets the baton")},
        "move": {"to": P("pos", True, help="the destination [x, y, layer]"),
                 "careful": P("bool", default=False, help="leave reach without provoking, at half movement"),
                 "declined": P("any", help="enemies who let the mover go without their immediate attack (BAT-38, BAT-41)")},
        "stand": {},
        "drop": {"attack": P("id", help="attack this character at the end of the fall (BAT-48)"),
                 "weapon": P("str"), "defence": P("str", choices=("best", "dodge", "shield", "defence", "none")),
                 "crit": P("str", choices=("damage", "destiny"), default="damage"),
                 "fall_test": P("str", choices=("attack", "agility", "none"), default="attack")},
        "dismount": {"to": P("pos")},
        "attack": {"target": P("id", help="a character or object id"), "weapon": P("str"),
                   "crit": P("str", choices=("damage", "destiny"), default="damage"),
                   "defence": P("str", choices=("best", "dodge", "shield", "defence", "none")),
                   "voxel": P("pos", help="a voxel [x, y, z] to attack (issue 14)")},
        "manipulate": {"target": P("id", True, help="the object to knock over (BAT-15)"), "skill": P("str"),
                       "difficulty": P("int")},
        "charge": {"target": tgt, "weapon": P("str"), "crit": P("str", choices=("damage", "destiny"), default="damage"),
                   "defence": P("str", choices=("best", "dodge", "shield", "defence", "none"))},
        "create_opportunity": {"skill": P("str", True, help="the skill used (intimidate, perform, ...)"),
                               "target": P("id"), "difficulty": P("int", default=8),
                               "effect": P("str", choices=("advantage", "expose", "shake", "stated"), default="advantage"),
                               "text": P("str", help="the effect the GM states (effect = \"stated\")")},
        "open_with": {"to": P("id", True, help="the non-surprised PC the players choose to open the initiative (BAT-02)")},
        "disarm": {"target": tgt, "weapon": P("str")},
        "dash": {},
        "grab": {"target": tgt}, "trip": {"target": tgt}, "push": {"target": tgt},
        "break_free": {},
        "resist_poison": {},
        "extinguish": {},
        "take_item": {"item": P("str", True), "from": P("str", choices=("pocket", "backpack"), default="pocket")},
        "use_power": {"kind": P("str", True, choices=("ring", "item_of_power", "miracle")), "target": P("id")},
        "equip": {"weapon": P("str", True), "hand": P("str", choices=("main", "off"), default="main")},
        "stow": {"weapon": P("str", True)},
        "drop_item": {"item": P("str", True)},
        "pick_up": {"item": P("str", True)},
        "drink": {"potion": P("str", True)},
        "shout": {"text": P("str")},
        # out of combat
        "rest": {"kind": P("str", True, choices=("short", "long")), "wound": P("int")},
        "treat": {"target": tgt, "wound": P("int", True), "kit": P("str", choices=("bandage", "splint"))},
        "wait": {"hours": P("int", default=1)},
        "day": {"days": P("int", default=1)},
        # the game master's tools (actor = "gm")
        "damage": {"target": tgt, "amount": P("int", True), "type": P("str", default="blunt")},
        "condition": {"target": tgt, "add": P("str"), "remove": P("str"), "turns": P("int")},
        "poison": {"target": tgt, "kind": P("str", True, choices=POISONS), "potency": P("int", True)},
        "fire": {"target": tgt, "source": P("str", True), "turns": P("int")},
        "breath": {"target": tgt, "minutes": P("int", True)},
    }
