"""Generate assets/srd/creatures.json, the SRD 5.1 bestiary Aerie ships, from 5e-database's monsters.

    git clone https://github.com/5e-bits/5e-database && \\
    python tools/gen_srd_creatures.py 5e-database/src/2014/en/5e-SRD-Monsters.json [--commit SHA]

The source is the System Reference Document 5.1 by Wizards of the Coast LLC, licensed under the Creative Commons
Attribution 4.0 International licence (CC-BY-4.0); the attribution is written into the file. Every creature is
read by engine/compendium/fivee_db.py (metres, the text over the structured fields where they disagree: the
record's ``settled``) and carries ``features`` (engine/rules/dnd5e/srd_blocks.py: which the rules play).
tests/rules/dnd5e/test_srd_creatures.py checks the file against the code that reads it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.compendium.fivee_db import creatures  # noqa: E402
from engine.rules.dnd5e.srd_blocks import features  # noqa: E402

ATTRIBUTION = ("This work includes material taken from the System Reference Document 5.1 (\"SRD 5.1\") by Wizards of "
               "the Coast LLC and available at https://dnd.wizards.com/resources/systems-reference-document. The SRD "
               "5.1 is licensed under the Creative Commons Attribution 4.0 International License available at "
               "https://creativecommons.org/licenses/by/4.0/legalcode. Read from 5e-database "
               "(https://github.com/5e-bits/5e-database, src/2014/en/5e-SRD-Monsters.json); converted to metres "
               "(5 ft = 1.5 m) and parsed by Aerie.")


def build(monsters: list, commit: str) -> dict:
    out = []
    for c in creatures(monsters):
        c["features"] = features(c)
        out.append(c)
    return {"licence": "CC-BY-4.0", "attribution": ATTRIBUTION,
            "source": {"repository": "https://github.com/5e-bits/5e-database",
                       "path": "src/2014/en/5e-SRD-Monsters.json", "commit": commit},
            "generated_by": "tools/gen_srd_creatures.py", "count": len(out), "creatures": out}


def dump(data: dict) -> str:
    """One creature a line: small diffs when a rule starts playing a feature."""
    head = {k: v for k, v in data.items() if k != "creatures"}
    lines = [json.dumps(c, ensure_ascii=False, separators=(",", ":")) for c in data["creatures"]]
    body = json.dumps(head, ensure_ascii=False, indent=1)[:-2]
    return body + ',\n "creatures": [\n' + ",\n".join(lines) + "\n ]\n}\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("monsters", nargs="?", help="5e-database's src/2014/en/5e-SRD-Monsters.json")
    ap.add_argument("--features-only", action="store_true",
                    help="recompute only each creature's features (what the rules play) in the output file, "
                         "without the source (after a rule starts playing a feature)")
    ap.add_argument("--commit", default="", help="the 5e-database commit it was read at (written into the file)")
    ap.add_argument("-o", "--output", default=str(ROOT / "assets" / "srd" / "creatures.json"))
    ap.add_argument("--check", action="store_true", help="exit 1 if the output file differs from what it would write")
    a = ap.parse_args(argv)
    if a.features_only:
        data = json.loads(Path(a.output).read_text(encoding="utf-8"))
        for c in data["creatures"]:
            c["features"] = features(c)
    elif not a.monsters:
        ap.error("the monsters file is needed (or --features-only)")
    else:
        data = build(json.loads(Path(a.monsters).read_text(encoding="utf-8")), a.commit)
    text = dump(data)
    out = Path(a.output)
    if a.check:
        same = out.is_file() and out.read_text(encoding="utf-8") == text
        print(f"{out}: {'up to date' if same else 'differs: regenerate it'}")
        return 0 if same else 1
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out}: {data['count']} creatures, "
          f"{sum(1 for c in data['creatures'] if c['fly_speed_m'])} flyers, "
          f"{sum(len(c['settled']) for c in data['creatures'])} disagreements settled by the text")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
