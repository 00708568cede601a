"""The feats on the character sheet (DND-F00, F02): validated at load (``setup``: names, prerequisites, ability
increases, the choices and the policies; Elemental Adept taken several times), and shown (``sheet`` for the JSON
state, ``panel_rows`` for the character panel). Split from ``feats.py`` (modules under 620 lines); ``feats``
re-exports them."""

from __future__ import annotations

from engine.errors import SceneError
from engine.rules.dnd5e import feats_data


def _f():
    return feats_data


#: DND-F02 l. 71: "Można wybrać wielokrotnie, za każdym razem trzeba wybrać inny typ obrażeń"
REPEATABLE = ("elemental_adept",)
ELEMENTS = ("thunder", "lightning", "acid", "fire", "cold")      # l. 68: dźwięk, elektryczność, kwas, ogień, zimno


def _elements(n: int, raw, file, key) -> list[str]:
    """Elemental Adept taken ``n`` times (DND-F02): one element each time, all different; ``feat_choices``'s
    ``elemental_adept`` is one name (taken once; default fire) or a list of ``n`` names."""
    if n == 0:
        return []
    path = f"{key}.feat_choices.elemental_adept"
    picks = ["fire"] if raw is None and n == 1 else [raw] if isinstance(raw, str) else list(raw or [])
    if len(picks) != n:
        raise SceneError(file, path, f"elemental_adept is taken {n} times: list {n} different elements "
                         f"(from {', '.join(sorted(ELEMENTS))}), one each time (DND-F02)")
    for i, e in enumerate(picks):
        if e not in ELEMENTS:
            raise SceneError(file, path + (f"[{i}]" if not isinstance(raw, str) else ""),
                             f"{e!r}: one of {', '.join(sorted(ELEMENTS))}")
    if len(set(picks)) != n:
        raise SceneError(file, path, "a different element each time the feat is taken (DND-F02)")
    return picks


def setup(raw_feats, raw_choices, raw_reactions, abilities: dict, spells: list, file, key,
          rulebook: bool = False) -> dict:
    """Validate the scene's feats (DND-F00), apply their ability increases to ``abilities`` (in place, max 20) and
    return the actor data fields the feats need."""
    F = _f()
    FEATS, REACTIONS, MANOEUVRES, closest = F.FEATS, F.REACTIONS, F.MANOEUVRES, F.closest
    feats = []
    for j, f in enumerate(raw_feats or []):
        if f not in FEATS:
            raise SceneError(file, f"{key}.feats[{j}]", f"unknown feat {f!r}; did you mean {closest(f, FEATS)!r}? "
                             "(snake_case of the catalogue's names, DND-F01..F42)")
        if f in feats and f not in REPEATABLE:
            raise SceneError(file, f"{key}.feats[{j}]", f"{f} is taken twice; each feat once (DND-F00)")
        feats.append(f)
    choices = dict(raw_choices or {})
    for k, v in choices.items():
        if k not in feats:
            raise SceneError(file, f"{key}.feat_choices.{k}", f"{k!r} is not one of this character's feats")
    increases = {}
    for f in feats:
        asi = FEATS[f]["asi"]
        if asi is None:
            continue
        opts = (asi,) if isinstance(asi, str) else asi
        pick = choices.get(f, opts[0])
        if not isinstance(pick, str):
            raise SceneError(file, f"{key}.feat_choices.{f}", f"{f} raises one of {', '.join(opts)}: one name, not a list")
        if pick not in opts:
            raise SceneError(file, f"{key}.feat_choices.{f}", f"{f} raises one of {', '.join(opts)}, not {pick!r}")
        abilities[pick] = min(20, abilities[pick] + 1)
        increases[f] = pick
    for j, f in enumerate(feats):    # DND-F00: the prerequisite must hold when the feat is taken
        why = F.unmet(F.prereq(f, rulebook), abilities, spells)
        if why:
            raise SceneError(file, f"{key}.feats[{j}]", f"{f} needs {why} (DND-F00)")
    rx = dict(raw_reactions or {})
    for k, v in rx.items():
        if k not in REACTIONS:
            raise SceneError(file, f"{key}.reactions.{k}", f"unknown reaction; one of {', '.join(REACTIONS)} "
                             f"(did you mean {closest(k, REACTIONS)!r}?)")
        if not isinstance(v, bool):
            raise SceneError(file, f"{key}.reactions.{k}", "true (take it, the default) or false (decline)")
    elements = _elements(feats.count("elemental_adept"), choices.get("elemental_adept"), file, key)
    out = {"feats": feats, "feat_increases": increases, "luck": 3 if "lucky" in feats else 0}
    if rulebook and any(f in F.RULEBOOK_PREREQS for f in feats):
        out["rulebook_prereqs"] = True
    if "martial_adept" in feats:
        ms = str(choices.get("martial_adept", "trip+precision")).split("+")
        if len(ms) != 2 or len(set(ms)) != 2 or any(m not in MANOEUVRES for m in ms):
            raise SceneError(file, f"{key}.feat_choices.martial_adept", "two manoeuvres joined by +, from "
                             + ", ".join(MANOEUVRES) + " (e.g. \"trip+precision\")")
        out["manoeuvres"] = ms
        out["superiority"] = 1
    if elements:
        out["elements"] = elements
    if rx:
        out["reactions"] = rx
    return out


def sheet(a) -> list[dict]:
    """The character's feats for the JSON state and the panel: name, id, scope, ability raised, usable now."""
    FEATS, has = _f().FEATS, _f().has
    return [{"feat": f, "id": FEATS[f]["id"], "name": FEATS[f]["name"], "scope": FEATS[f]["scope"],
             "increase": a.data["feat_increases"].get(f), "usable": has(a, f)} for f in dict.fromkeys(a.data.get("feats", []))]


def panel_rows(a) -> list[str]:
    """The character panel's rows: every feat (sheet feats too), the raised ability, luck points, unusable ones."""
    FEATS, has = _f().FEATS, _f().has
    rows = []
    names = []
    for f in dict.fromkeys(a.data["feats"]):
        n = FEATS[f]["name"]
        if f == "elemental_adept":
            n += " (" + ", ".join(a.data["elements"]) + ")"
        inc = a.data["feat_increases"].get(f)
        if inc:
            n += f" (+1 {inc.capitalize()})"
        if FEATS[f]["scope"] == "sheet":
            n += " [sheet]"
        if not has(a, f):
            n += " [unusable: prerequisite lost]"
        names.append(n)
    rows.append("Feats: " + ", ".join(names))
    if "lucky" in a.data["feats"]:
        rows.append(f"Luck points {a.data['luck']}/3")
    return rows
