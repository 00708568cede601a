"""Rebuild the Scene documents of a Foundry v11+ LevelDB compendium folder into one JSON file per scene, as
foundryvtt-cli's ``unpack`` does (embedded walls, tiles, tokens, ... are their own keys, ``!scenes.walls!S.W``,
put back into the scene's lists). Not used by the tests; it made the Levels samples that
tests/interop/test_interop_real.py reads from AERIE_REAL_MAPS. Needs ``pip install plyvel`` (not a dependency of Aerie).

    python unpack_foundry_ldb.py PACK_FOLDER OUT_FOLDER
"""

import collections
import json
import re
import sys
from pathlib import Path

import plyvel


def main(pack: str, out: str) -> None:
    db = plyvel.DB(pack, create_if_missing=False)
    docs: dict[tuple[str, str], dict] = {}                  # (collection, id) -> document
    subs: dict[tuple[str, str, str], dict] = collections.defaultdict(dict)    # (parent, its id, embedded) -> {id: doc}
    for k, v in db:
        coll, key = k.decode()[1:].split("!", 1)
        if "." in coll:                                   # !scenes.walls!<scene id>.<wall id>
            parent, emb = coll.split(".", 1)
            pid, eid = key.split(".", 1)
            subs[(parent, pid, emb)][eid] = json.loads(v)
        else:
            docs[(coll, key)] = json.loads(v)
    Path(out).mkdir(parents=True, exist_ok=True)
    for (coll, key), d in docs.items():
        if coll != "scenes":
            continue
        for (p, pid, emb), items in subs.items():
            if p == coll and pid == key and isinstance(d.get(emb), list):
                d[emb] = [items[i] for i in d[emb] if i in items]
        name = re.sub(r"[^A-Za-z0-9]+", "-", d["name"]).strip("-")
        path = Path(out) / f"fvtt-Scene-{name}-{d.get('_stats', {}).get('coreVersion', 'unknown')}.json"
        path.write_text(json.dumps(d, indent=2))
        print(path, len(d.get("walls", [])), "walls")


if __name__ == "__main__":
    main(*sys.argv[1:3])
