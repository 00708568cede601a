"""``aerie compendium spells [TEXT] [--json]``: the SRD 5.1's 319 spells (assets/srd/spells.json), filtered by TEXT
(a case-insensitive part of the index or the name), as one JSON array (``--json``) or one line each."""

from __future__ import annotations

import json

from engine.rules.dnd5e.srd_spells import catalogue, omits

FIELDS = ("id", "name", "level", "school", "casting_time", "range", "range_m", "area", "components", "ritual",
          "concentration", "duration", "attack", "damage", "heal", "save", "castable", "why")


def add_arguments(parser) -> None:
    parser.add_argument("text", nargs="?", default="", help="only spells whose index or name contains TEXT")
    parser.add_argument("--json", action="store_true", help="one JSON array of the spells (with their text)")
    parser.add_argument("--castable", action="store_true", help="only the spells the rules cast")


def select(text: str = "", castable: bool = False) -> list[dict]:
    t = text.lower()
    out = []
    for s in catalogue().values():
        if t and t not in s["id"] and t not in s["name"].lower():
            continue
        if castable and not s["castable"]:
            continue
        out.append({**{k: s[k] for k in FIELDS}, "omits": omits(s), "desc": s["desc"],
                    "higher_level": s["higher_level"]})
    return out


def _line(s: dict) -> str:
    rng = f"{s['range_m']:g} m" if s["range_m"] is not None else s["range"]
    area = f", {s['area']['shape']} {s['area']['size_m']:g} m" if s["area"] else ""
    lvl = "cantrip" if s["level"] == 0 else f"level {s['level']}"
    state = "castable" if s["castable"] else f"not castable: {s['why']}"
    return f"{s['id']}: {s['name']}, {lvl} {s['school']}, {s['casting_time']}, {rng}{area}; {state}"


def run(args) -> int:
    rows = select(args.text, args.castable)
    if args.json:
        print(json.dumps(rows, ensure_ascii=False))
    else:
        for s in rows:
            print(_line(s))
        print(f"{len(rows)} spell{'s' if len(rows) != 1 else ''} (SRD 5.1, CC-BY-4.0: see assets/srd/spells.json)")
    return 0
