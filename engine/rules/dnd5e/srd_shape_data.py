"""The flyers' shapes and planes (SRD-89..SRD-95, issue 44) as a sheet key (``srd_shapes``), read from a creature
record's text (assets/srd/creatures.json), and whether each feature is played (``status``). The rules that play
them: engine/rules/dnd5e/srd_shapes.py, srd_planes.py, actions/srd_shape.py. Metres (5 ft = 1.5 m).

``srd_shapes`` (any 5e character may carry it; a scene without it plays as before)::

    change_shape = {cr = 24.0, keeps = "dragon"}        # SRD-89 ("dragon", "couatl" or "deva": what it keeps)
    speed_forms = {rat = {speed_m = 6.0}, raven = {speed_m = 6.0, fly_speed_m = 18.0}}   # SRD-90
    vampire = {form = "bat", forms = {vampire = "vampire-vampire", bat = "vampire-bat", mist = "vampire-mist"}}  # SRD-91
    misty_escape = true                                  # SRD-92
    etherealness = {allies = 0}                          # SRD-94 (SRD-95: allies = 3, the nightmare's Ethereal Stride)
"""

from __future__ import annotations

import copy
import re

from engine.errors import SceneError
from engine.rules.dnd5e import srd_features

KEYS = ("change_shape", "speed_forms", "vampire", "misty_escape", "etherealness")
KEEPS = ("dragon", "couatl", "deva")
MOVES = ("speed_m", "fly_speed_m", "climb_speed_m", "swim_speed_m")
VAMPIRE_FORMS = ("vampire", "bat", "mist")

CHANGE_SHAPE = re.compile(
    r"^The (?P<who>dragon|couatl|deva) magically polymorphs into a humanoid or beast that has a challenge rating "
    r"(?:no higher than|equal to or less than) its own, or back into its true form\. It reverts to its true form if it "
    r"dies\. Any equipment it is wearing or carrying is absorbed or borne by the new form \(the \w+'s choice\)\. "
    r"In a new form, the (?P=who) (?P<keeps>.+)$")
KEEPS_TEXT = {
    "dragon": "retains its alignment, hit points, Hit Dice, ability to speak, proficiencies, Legendary Resistance, lair "
              "actions, and Intelligence, Wisdom, and Charisma scores, as well as this action. Its statistics and "
              "capabilities are otherwise replaced by those of the new form, except any class features or legendary "
              "actions of that form.",
    "couatl": "retains its game statistics and ability to speak, but its AC, movement modes, Strength, Dexterity, and "
              "other actions are replaced by those of the new form, and it gains any statistics and capabilities "
              "(except class features, legendary actions, and lair actions) that the new form has but that it lacks. "
              "If the new form has a bite attack, the couatl can use its bite in that form.",
    "deva": "retains its game statistics and ability to speak, but its AC, movement modes, Strength, Dexterity, and "
            "special senses are replaced by those of the new form, and it gains any statistics and capabilities "
            "(except class features, legendary actions, and lair actions) that the new form has but that it lacks.",
}
SPEED_FORMS = re.compile(r"^The (?P<who>\w+) can use its action to polymorph into a beast form that resembles "
                         r"(?P<forms>.+?), or back into its true form ?\. Its statistics are the same in each form, "
                         r"except for the speed changes noted\. Any equipment it is wearing or carrying isn ?'t "
                         r"transformed ?\. It reverts to its true form if it dies\.$")
ONE_FORM = re.compile(r"^(?:or )?an? (\w+) \((?:speed )?(\d+) ft\.(?:,? (fly|climb|swim) (\d+) ft\.)?\)$")
VAMPIRE = re.compile(r"^If the vampire isn't in sun ?light or running water, it can use its action to polymorph into a "
                     r"Tiny bat or a Medium cloud of mist, or back into its true form\. While in bat form, the vampire "
                     r"can't speak, its walking speed is 5 feet, and it has a flying speed of 30 feet\. Its statistics, "
                     r"other than its size and speed, are unchanged\. Anything it is wearing transforms with it, but "
                     r"nothing it is carrying does\. It reverts to its true form if it dies\. While in mist form, the "
                     r"vampire can't take any actions, speak, or manipulate objects\. It is weightless, has a flying "
                     r"speed of 20 feet, can hover, and can enter a hostile creature's space and stop there\. In "
                     r"addition, if air can pass through a space, the mist can do so without squeezing, and it can't "
                     r"pass through water\. It has advantage on Strength, Dexterity, and Constitution saving throws, "
                     r"and it is immune to all nonmagical damage, except the damage it takes from sunlight\.$")
MISTY = re.compile(r"^When it drops to 0 hit points outside its resting place, the vampire transforms into a cloud of "
                   r"mist \(as in the Shapechanger trait\) instead of falling unconscious, provided that it isn't in "
                   r"sunlight or running water\. If it can't transform, it is destroyed\. While it has 0 hit points in "
                   r"mist form, it can't revert to its vampire form, and it must reach its resting place within 2 hours "
                   r"or be destroyed\. Once in its resting place, it reverts to its vampire form\. It is then paralyzed "
                   r"until it regains at least 1 hit point\. After spending 1 hour in its resting place with 0 hit "
                   r"points, it regains 1 hit point\.$")
ETHEREAL = re.compile(r"^The ghost enters the Ethereal Plane from the Material Plane, or vice versa\. It is visible on "
                      r"the Material Plane while it is in the Border Ethereal, and vice versa, yet it can't affect or be "
                      r"affected by anything on the other plane\.$")
STRIDE = re.compile(r"^The nightmare and up to (\w+) willing creatures within 5 feet of it magically enter the Ethereal "
                    r"Plane from the Material Plane, or vice versa\.$")
FIEND_ETHEREAL = re.compile(r"^The fiend magically enters the Ethereal Plane from the Material Plane, or vice versa\.$")
COUNTS = {"one": 1, "two": 2, "three": 3, "four": 4}
#: the vampire's legendary options by its forms (SRD-93): the attack each names, the form the SRD allows it in
VAMPIRE_LEGENDARY = {"the vampire makes one unarmed strike.": "Unarmed Strike",
                     "the vampire makes one bite attack.": "Bite"}


def shapes(a) -> dict:
    return a.data.get("srd_shapes") or {}


def vampire_form(a) -> str | None:
    return (shapes(a).get("vampire") or {}).get("form")


def in_mist(a) -> bool:
    return vampire_form(a) == "mist"


def mist_save_advantage(a, ability: str) -> str | None:
    """SRD-91, the mist: "It has advantage on Strength, Dexterity, and Constitution saving throws.\""""
    return "mist form (SRD-91)" if in_mist(a) and ability in ("str", "dex", "con") else None


def _text(f: dict) -> str:
    return " ".join(f["desc"].split())


def _speeds(forms: str) -> dict | None:
    out: dict = {}
    for part in re.split(r", (?=(?:or )?an? )", forms):
        m = ONE_FORM.match(part.strip())
        if m is None:
            return None
        e = {"speed_m": round(int(m.group(2)) * 0.3, 2)}
        if m.group(3):
            e[f"{m.group(3)}_speed_m"] = round(int(m.group(4)) * 0.3, 2)
        out[m.group(1).lower()] = e
    return out or None


def vampire_forms(c: dict) -> dict:
    base = c["id"].rsplit("-", 1)[0]
    return {k: f"{base}-{k}" for k in VAMPIRE_FORMS}


def read(c: dict, section: str, f: dict) -> tuple[str, object] | None:
    """(key, entry) for a feature of SRD-89..96 whose text is the one the rules play, or None."""
    name, text = srd_features._name(f["name"]), _text(f)
    if section == "actions" and name == "change shape" and (m := CHANGE_SHAPE.match(text)) \
            and m.group("keeps") == KEEPS_TEXT[m.group("who")]:
        return "change_shape", {"cr": float(c["cr"]), "keeps": m.group("who")}
    if section == "traits" and name == "shapechanger":
        if (m := SPEED_FORMS.match(text)) and (forms := _speeds(m.group("forms"))):
            return "speed_forms", forms
        if VAMPIRE.match(text) and c["id"].rsplit("-", 1)[-1] in VAMPIRE_FORMS:
            return "vampire", {"form": c["id"].rsplit("-", 1)[-1], "forms": vampire_forms(c)}
    if section == "traits" and name == "misty escape" and MISTY.match(text):
        return "misty_escape", True
    if section == "actions" and name == "etherealness" and (ETHEREAL.match(text) or FIEND_ETHEREAL.match(text)):
        return "etherealness", {"allies": 0}
    if section == "actions" and name == "ethereal stride" and (m := STRIDE.match(text)) and m.group(1) in COUNTS:
        return "etherealness", {"allies": COUNTS[m.group(1)]}
    return None


def _vampire_legendary(c: dict) -> dict | None:
    """SRD-93: the vampire's legendary options in each of its forms: Move, and the attacks it names by their names
    (a form that lacks the attack cannot take the option: srd_legendary finds no such weapon)."""
    opts = []
    for f in c["legendary_actions"]:
        own = srd_features.legendary(f)
        w = VAMPIRE_LEGENDARY.get(_text(f).lower())
        if own is not None:
            opts.append(own)
        elif w:
            name = re.sub(r"\s*\(Costs \d+ Actions\)", "", f["name"]).strip()
            opts.append({"name": name, "cost": int(f.get("cost", 1)), "kind": "attack", "weapon": w})
        else:
            return None
    return {"points": int(c.get("legendary_points") or 3), "options": opts} if opts else None


def character_keys(c: dict) -> dict:
    """The sheet keys these features give a creature record (merged into srd_blocks.character's)."""
    out: dict = {}
    shapes: dict = {}
    for section in ("traits", "actions"):
        for f in c[section]:
            got = read(c, section, f)
            if got is not None:
                shapes[got[0]] = got[1]
    if shapes:
        out["srd_shapes"] = shapes
    v = shapes.get("vampire")
    if v is not None:
        lg = _vampire_legendary(c)
        if lg is not None:
            out["legendary"] = lg
        if v["form"] == "bat":
            out["size"] = "tiny"           # "a Tiny bat"
        if v["form"] == "mist":
            out["hover"] = True            # "can hover"
    return out


def status(c: dict, section: str, f: dict) -> tuple[bool, str] | None:
    """(modelled, why) for a feature of SRD-89..96, or None (the next family decides)."""
    if section == "legendary_actions":
        if _text(f).lower() in VAMPIRE_LEGENDARY and "vampire" in (character_keys(c).get("srd_shapes") or {}):
            return True, ""
        return None
    return (True, "") if read(c, section, f) is not None else None


# -- the sheet key --------------------------------------------------------------------------------------------------

def _num(v, lo: float, hi: float) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and lo <= v <= hi


def check(raw: dict, file: str, key: str) -> None:
    ss = raw.get("srd_shapes")
    if ss is None:
        return
    k = f"{key}.srd_shapes"
    if not isinstance(ss, dict):
        raise SceneError(file, k, "a table: " + ", ".join(KEYS))
    for name in ss:
        if name not in KEYS:
            raise SceneError(file, f"{k}.{name}", "unknown; one of " + ", ".join(KEYS))
    cs = ss.get("change_shape")
    if cs is not None and not (isinstance(cs, dict) and _num(cs.get("cr"), 0, 30) and cs.get("keeps") in KEEPS):
        raise SceneError(file, f"{k}.change_shape", "{cr = 0..30, keeps = " + " | ".join(KEEPS) + "}")
    sf = ss.get("speed_forms")
    if sf is not None and not (isinstance(sf, dict) and sf and all(
            isinstance(n, str) and isinstance(e, dict) and set(e) <= set(MOVES) and "speed_m" in e
            and all(_num(x, 0, 1000) for x in e.values()) for n, e in sf.items())):
        raise SceneError(file, f"{k}.speed_forms", "{form = {speed_m, fly_speed_m, climb_speed_m, swim_speed_m}}")
    v = ss.get("vampire")
    if v is not None and not (isinstance(v, dict) and v.get("form") in VAMPIRE_FORMS and isinstance(v.get("forms"), dict)
                              and set(v["forms"]) == set(VAMPIRE_FORMS)
                              and all(isinstance(x, str) for x in v["forms"].values())):
        raise SceneError(file, f"{k}.vampire", "{form = vampire | bat | mist, forms = {vampire, bat, mist = SRD ids}}")
    if "misty_escape" in ss and not isinstance(ss["misty_escape"], bool):
        raise SceneError(file, f"{k}.misty_escape", "true or false")
    e = ss.get("etherealness")
    if e is not None and not (isinstance(e, dict) and isinstance(e.get("allies", 0), int) and 0 <= e.get("allies", 0) <= 8):
        raise SceneError(file, f"{k}.etherealness", "{allies = 0..8}")


def setup(data: dict, raw: dict) -> None:
    if raw.get("srd_shapes"):
        data["srd_shapes"] = copy.deepcopy(dict(raw["srd_shapes"]))
