"""``aerie compendium creatures [TEXT] [--fly] [--cr LO[-HI]] [--json]``: the SRD 5.1 bestiary (CC-BY-4.0) as a
table of name, CR, size, type and speeds, or one JSON array (``--json``) with every creature's numbers and
``features`` (``{name, modelled, why}``: what the rules play and what they leave out).

TEXT: every word must match the creature's id, name, type, subtype or size (``dragon red``, ``fiend``), or its
challenge rating written ``cr5`` / ``cr1/2``. Reads assets/srd/creatures.json only (no rules are imported).
"""

from __future__ import annotations

import json
from fractions import Fraction

from engine.errors import AerieError

#: the keys --json gives each creature (the record's own, less the parse's working fields)
JSON_KEYS = ("id", "name", "size", "type", "subtype", "alignment", "cr", "xp", "proficiency_bonus", "ac", "ac_type",
             "hp", "hp_formula", "speed_m", "fly_speed_m", "hover", "climb_speed_m", "swim_speed_m", "burrow_speed_m",
             "abilities", "saves", "skills", "senses", "languages", "damage_resistances", "damage_immunities",
             "damage_vulnerabilities", "condition_immunities", "legendary_points")


def add_arguments(p) -> None:
    p.add_argument("text", nargs="*", metavar="TEXT",
                   help="words that must all match: name, id, type, subtype, size, or cr5 / cr1/2")
    p.add_argument("--fly", action="store_true", help="only the creatures with a fly speed")
    p.add_argument("--cr", metavar="LO[-HI]", help="challenge rating, one value or a range: 5, 1/4-2, 10-30")
    p.add_argument("--json", action="store_true", help="one JSON array with every matching creature's numbers")


def _cr_text(cr) -> str:
    return str(Fraction(cr).limit_denominator(8)) if cr else "0"


def _cr_range(text: str) -> tuple[float, float]:
    try:
        lo, _, hi = text.partition("-")
        a, b = float(Fraction(lo)), float(Fraction(hi or lo))
    except (ValueError, ZeroDivisionError):
        raise AerieError(f"--cr {text}: a challenge rating or a range, like 5, 1/2 or 1/4-2") from None
    if a > b:
        raise AerieError(f"--cr {text}: the range's low end is above its high end")
    return a, b


def load() -> list[dict]:
    from engine.resources import resource_dir

    p = resource_dir("assets") / "srd" / "creatures.json"
    try:
        return json.loads(p.read_text(encoding="utf-8"))["creatures"]
    except (OSError, ValueError, KeyError) as e:
        raise AerieError(f"assets/srd/creatures.json: cannot read the SRD bestiary: {e}") from None


def _matches(c: dict, words: list[str]) -> bool:
    hay = " ".join(str(c.get(k) or "") for k in ("id", "name", "type", "subtype", "size")).lower()
    for w in words:
        w = w.lower()
        if w.startswith("cr") and len(w) > 2:
            if w[2:].lstrip("=") != _cr_text(c["cr"]):
                return False
        elif w not in hay:
            return False
    return True


def select(creatures: list[dict], text: list[str], fly: bool = False, cr: str | None = None) -> list[dict]:
    lo, hi = _cr_range(cr) if cr else (0.0, 99.0)
    return [c for c in creatures if _matches(c, text) and (not fly or c["fly_speed_m"] > 0) and lo <= c["cr"] <= hi]


def as_json(c: dict) -> dict:
    out = {k: c.get(k) for k in JSON_KEYS}
    out["actions"] = [f["name"] for f in c["actions"]]
    for sec in ("traits", "reactions", "legendary_actions"):
        out[sec] = [f["name"] for f in c[sec]]
    out["features"] = [{"name": f["name"], "section": f["section"], "modelled": f["modelled"], "why": f["why"]}
                       for f in c["features"]]
    out["source"] = c["source"]
    return out


def _speeds(c: dict) -> str:
    parts = [f"{c['speed_m']:g} m"]
    for k, label in (("fly_speed_m", "fly"), ("climb_speed_m", "climb"), ("swim_speed_m", "swim"),
                     ("burrow_speed_m", "burrow")):
        if c[k]:
            parts.append(f"{label} {c[k]:g} m" + (" (hover)" if k == "fly_speed_m" and c["hover"] else ""))
    return ", ".join(parts)


def run(args) -> int:
    found = select(load(), args.text, args.fly, args.cr)
    if args.json:
        print(json.dumps([as_json(c) for c in found], ensure_ascii=False))
        return 0
    if not found:
        print("no creature matches", " ".join(args.text) or "")
        return 0
    rows = [(c["name"], _cr_text(c["cr"]), c["size"], c["type"], _speeds(c)) for c in found]
    head = ("name", "CR", "size", "type", "speeds")
    w = [max(len(r[i]) for r in rows + [head]) for i in range(4)]
    lines = ["  ".join(h.ljust(w[i]) if i < 4 else h for i, h in enumerate(head))]
    lines += ["  ".join(v.ljust(w[i]) if i < 4 else v for i, v in enumerate(r)) for r in rows]
    flyers = sum(1 for c in found if c["fly_speed_m"])
    lines.append(f"{len(found)} creature(s), {flyers} with a fly speed -- SRD 5.1, CC-BY-4.0 (assets/srd/creatures.json)")
    print("\n".join(lines))
    return 0
