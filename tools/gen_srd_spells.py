"""Generate assets/srd/spells.json from 5e-database's ``src/2014/en/5e-SRD-Spells.json`` (the SRD 5.1's 319 spells).

    git clone https://github.com/5e-bits/5e-database   (or any checkout of it)
    python tools/gen_srd_spells.py --source 5e-database/src/2014/en/5e-SRD-Spells.json

Metric as everywhere in Aerie: 5 ft = 1.5 m (feet x 0.3; a mile = 1500 m). Each spell keeps the SRD's numbers:
range, area (shape and size: a sphere's / cylinder's radius, a cube's edge, a cone's / line's length), damage by
slot or character level, healing by slot, the save and what a success does, concentration and duration. ``castable``
and ``why`` come from the engine (``engine.rules.dnd5e.srd_spells.support``): what Aerie's rules resolve of it.
The SRD is Wizards of the Coast's, under CC-BY-4.0: the file carries the attribution it asks for.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.rules.dnd5e.srd_spells import support  # noqa: E402

OUT = ROOT / "assets" / "srd" / "spells.json"
ATTRIBUTION = ("This work includes material taken from the System Reference Document 5.1 (\"SRD 5.1\") by Wizards of "
               "the Coast LLC and available at https://dnd.wizards.com/resources/systems-reference-document. The SRD "
               "5.1 is licensed under the Creative Commons Attribution 4.0 International License available at "
               "https://creativecommons.org/licenses/by/4.0/legalcode. Data via 5e-database (github.com/5e-bits/"
               "5e-database, src/2014/en/5e-SRD-Spells.json), converted to metres (5 ft = 1.5 m) by "
               "tools/gen_srd_spells.py.")
CONDITIONS = ("blinded", "charmed", "deafened", "frightened", "grappled", "incapacitated", "invisible", "paralyzed",
              "petrified", "poisoned", "prone", "restrained", "stunned", "unconscious")


def feet_to_m(ft: float) -> float:
    """5 ft = 1.5 m."""
    return round(ft * 0.3, 2)


def range_m(text: str) -> float | None:
    """"150 feet" -> 45.0; "1 mile" -> 1500; Self, Touch, Sight, Special, Unlimited -> None."""
    m = re.fullmatch(r"(\d+) (feet|foot|miles?)", text.strip())
    if not m:
        return None
    n = int(m.group(1))
    return float(n * 1500) if m.group(2).startswith("mile") else feet_to_m(n)


def metric_text(text: str) -> str:
    """"15-foot cube" -> "4.5-m cube" in prose we copy (duration, range text stays as the SRD writes it)."""
    return re.sub(r"(\d+)[- ](?:feet|foot)", lambda m: f"{feet_to_m(int(m.group(1))):g} m", text)


def conditions_in(desc: str) -> list[str]:
    """The condition names the spell's text mentions (a hint for the reader; the engine's table decides)."""
    t = desc.lower()
    return [c for c in CONDITIONS if re.search(rf"\b{c}\b", t)]


def convert(s: dict) -> dict:
    desc = "\n".join(s.get("desc", []))
    dmg = s.get("damage") or {}
    damage = None
    if dmg:
        by = "slot" if "damage_at_slot_level" in dmg else "character_level" if "damage_at_character_level" in dmg else None
        dice = dmg.get("damage_at_slot_level") or dmg.get("damage_at_character_level") or {}
        damage = {"type": (dmg.get("damage_type") or {}).get("index"), "by": by, "dice": dict(dice)}
    heal = {"by": "slot", "dice": dict(s["heal_at_slot_level"])} if s.get("heal_at_slot_level") else None
    dc = s.get("dc")
    save = {"ability": dc["dc_type"]["index"], "success": dc.get("dc_success", "none")} if dc else None
    aoe = s.get("area_of_effect")
    area = {"shape": aoe["type"], "size_m": feet_to_m(aoe["size"])} if aoe else None
    out = {
        "id": s["index"], "name": s["name"], "level": s["level"], "school": s["school"]["index"],
        "casting_time": s["casting_time"], "range": s["range"], "range_m": range_m(s["range"]), "area": area,
        "components": s.get("components", []), "ritual": bool(s.get("ritual")),
        "concentration": bool(s.get("concentration")), "duration": s["duration"],
        "attack": s.get("attack_type"), "damage": damage, "heal": heal, "save": save,
        "conditions_mentioned": conditions_in(desc),
        "classes": sorted(c["index"] for c in s.get("classes", [])),
        "desc": metric_text(desc), "higher_level": metric_text("\n".join(s.get("higher_level", []))) or None,
    }
    ok, why = support(out)
    out["castable"] = ok
    out["why"] = why
    return out


def build(source: Path) -> dict:
    raw = json.loads(source.read_text())
    spells = [convert(s) for s in sorted(raw, key=lambda s: (s["level"], s["index"]))]
    return {"license": "CC-BY-4.0", "attribution": ATTRIBUTION, "source": "5e-bits/5e-database src/2014/en/5e-SRD-Spells.json",
            "count": len(spells), "spells": spells}


def refresh(path: Path) -> dict:
    """The committed file with ``castable`` / ``why`` as the engine says now (after a rule makes a spell castable)."""
    data = json.loads(path.read_text())
    for s in data["spells"]:
        s["castable"], s["why"] = support(s)
    return data


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--source", type=Path, help="5e-database's src/2014/en/5e-SRD-Spells.json")
    g.add_argument("--refresh", action="store_true",
                   help="keep the committed file's data, recompute only castable / why from the engine")
    p.add_argument("-o", "--out", type=Path, default=OUT)
    a = p.parse_args(argv)
    data = refresh(a.out) if a.refresh else build(a.source)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    print(f"{a.out}: {data['count']} spells, {sum(s['castable'] for s in data['spells'])} castable")
    return 0


if __name__ == "__main__":
    sys.exit(main())
