"""Real Universal VTT exports (tests/data/interop/, where they come from: docs/interop.md). Their images are
scaled down to keep the repository small; everything else is as the exporter wrote it."""

import json
import os
from pathlib import Path

import pytest

from engine.rules.session import Session
from engine.scene import load_scene

pytestmark = pytest.mark.unit
DATA = Path(__file__).resolve().parents[1] / "data" / "interop"


def mat(s, x, y, z=0):
    return s.world.materials[s.world.voxels[z, y, x]].name


def test_dungeondraft_sample_with_an_origin(aerie, tmp_path):
    """Dungeondraft 1.0.1.3 (Imagix/uvtt2fgu exampleMaps/sampleMap.dd2vtt): format 0.3, map_origin (2, 1), a room
    on grid x 3..11, y 2..10 split by a wall at x 7 with a closed door (y 2.5..3.5) and an open one (y 8.6..9.4)."""
    r = aerie("import", DATA / "imagix_sampleMap_small.dd2vtt", "-o", tmp_path / "s.toml")
    assert r.returncode == 0, r.stderr
    s = load_scene(tmp_path / "s.toml")
    assert s.world.size == (10, 10, 12)
    # grid x 3 - origin 2 = cell 1; grid y 2 - origin 1 = 1 from the top = cell row 9
    assert all(mat(s, 1, y) == "stone" and mat(s, 9, y) == "stone" for y in range(1, 10))
    assert all(mat(s, x, 1) == "stone" and mat(s, x, 9) == "stone" for x in range(1, 10))
    # the inner wall x 7 (cell 5): the open door's middle (grid y 9 -> row 2) a gap, the closed one's (y 3 -> row
    # 8) a door; both are half a square off the grid, so each takes the one cell under its middle
    assert [mat(s, 5, y) for y in range(1, 10)] == ["stone", "air"] + ["stone"] * 5 + ["door", "stone"]
    assert (s.world.voxels[:, 3:7, 2:5] == 0).all() and (s.world.voxels[:, 3:7, 6:9] == 0).all()
    assert (s.world.voxels == s.world.material_id("obstacle")).sum() > 0      # its one object line
    assert s.world.ground_image.suffix == ".png"
    assert aerie("check", tmp_path / "s.toml").returncode == 0
    r = aerie("export", tmp_path / "s.toml", "-o", tmp_path / "s.glb")
    assert r.returncode == 0, r.stderr


def test_dungeondraft_sample_with_portals(aerie, tmp_path):
    """oganm/dd2vtt_importer test.dd2vtt: 20 x 20 squares, 9 wall polylines, 2 object lines, 3 portals."""
    src = DATA / "oganm_test_small.dd2vtt"
    d = json.loads(src.read_text())
    r = aerie("import", src, "-o", tmp_path / "s.toml")
    assert r.returncode == 0, r.stderr
    s = load_scene(tmp_path / "s.toml")
    text = (tmp_path / "s.toml").read_text()
    assert text.count("# door portals[") == len(d["portals"]) == 3
    # every closed portal's middle is a door cell, as high as the walls
    for p in d["portals"]:
        (ax, ay), (bx, by) = [(q["x"], q["y"]) for q in p["bounds"]]
        mx, my = (ax + bx) / 2, (ay + by) / 2
        x, y = int(mx + 1e-4), int(20 - my + 2e-4)
        near = s.world.voxels[:3, max(0, y - 1):y + 2, max(0, x - 1):x + 2]
        want = s.world.material_id("door") if p["closed"] else 0
        assert (near == want).any(), (p, x, y)
    # the first wall polyline: every point's cell is stone
    for q in d["line_of_sight"][0]:
        x, y = min(int(q["x"] + 1e-4), 19), min(int(20 - q["y"] + 2e-4), 19)
        assert mat(s, x, y) in ("stone", "door") or mat(s, x, y) == "air" and "(open)" in text, (q, x, y)
    assert aerie("check", tmp_path / "s.toml").returncode == 0


# --- the Levels module's sample scenes (theripper93/Levels, packs/levels-samples): real Foundry scenes with Wall
# Height flags, as Foundry 9 (NeDB .db), 12.324 and 13.342 (LevelDB, unpacked to one JSON per scene) wrote them.
# The repository has no licence, so the files are not in this one: set AERIE_REAL_MAPS to a folder holding them
# (docs/interop.md, "The real files", says how they were made); without it these tests are skipped.
REAL = Path(os.environ["AERIE_REAL_MAPS"]) if os.environ.get("AERIE_REAL_MAPS") else None
levels_samples = pytest.mark.skipif(REAL is None or not (REAL / "levels-samples-v9.db").is_file(),
                                    reason="AERIE_REAL_MAPS does not hold the Levels module's samples")
FARM = "Baileywiki The Town - Farm (Levels Demo)"
ICE = "Ice Palace by AndyTheBrave"


def _levels_import(aerie, tmp_path, name, *src):
    out = tmp_path / name
    out.mkdir()
    r = aerie("import", *src, "-o", out / "scene.toml")
    assert r.returncode == 0, r.stderr
    assert aerie("check", out / "scene.toml").returncode == 0
    return load_scene(out / "scene.toml"), (out / "scene.toml").read_text()


@levels_samples
def test_levels_sample_farm_wall_heights(aerie, tmp_path):
    """Baileywiki's farm: walls 0..9 ft, a second floor 10..19 ft, a basement -10..-1 ft (kept: the map is raised
    3 layers, the file's 0 ft is layer 3), walls in the scene's padding (dropped or cut); v9, v12 and v13 agree
    (the LevelDB exports when AERIE_REAL_MAPS has them unpacked)."""
    scenes = [_levels_import(aerie, tmp_path, "v9", REAL / "levels-samples-v9.db", "--scene", FARM)]
    for v in ("v12.324", "v13.342"):
        if (REAL / f"fvtt-Scene-farm-{v}.json").is_file():
            scenes.append(_levels_import(aerie, tmp_path, v, REAL / f"fvtt-Scene-farm-{v}.json"))
    for s, text in scenes:
        assert s.world.size == (34, 34, 17)
        assert "3 wall(s) wholly in the scene's padding dropped, 1 cut at the scene's edge" in text
        assert "185 with a top or bottom" in text and "15 wall(s) below the ground (a basement): kept" in text
        assert "the file's 0 ft is layer 3" in text
        assert (s.world.voxels == scenes[0][0].world.voxels).all()
        assert s.world.ground_image is not None

    def col(x, y):
        return [mat(s, x, y, z) for z in range(10)]

    s, text = scenes[-1]
    assert col(30, 11) == ["earth"] * 3 + ["door"] * 2 + ["wood"] + ["barrier"] * 3 + ["air"]   # walls[4], a rail
    assert col(6, 4) == ["earth"] * 3 + ["door"] * 2 + ["air"] * 5                             # walls[40]: 0..7 ft
    assert col(17, 4)[:2] == ["air"] * 2 and col(17, 4)[6:8] == ["door"] * 2    # a basement; walls[167] upstairs
    # the storeys: the 0 ft floor over the whole map (earth, the basements dug out under it), floors at 10 and
    # 20 ft from the Levels tiles' opaque areas; 24 doors are [[objects]] doors
    assert "storey '10 ft' (10 ft): floor on layer 5 (wood)" in text and "storey '20 ft' (20 ft): floor on layer 8" in text
    assert len(s.objects) == 24 and all(o.door for o in s.objects)
    ses = Session(s, 1)
    assert ses.state.objects["door19"]["open"] is False


@levels_samples
def test_levels_sample_ice_palace_floors_and_tiles(aerie, tmp_path):
    """AndyTheBrave's Ice Palace: four floors (0..9, 10..19, 20..29, 30..39 ft, some flags written as strings), no
    background image: the ground is its first-floor tile, each upper floor its tiles' opaque area less Levels'
    holes and stairs, drawn with its tiles."""
    s, text = _levels_import(aerie, tmp_path, "v9", REAL / "levels-samples-v9.db", "--scene", ICE)
    if (REAL / "fvtt-Scene-icepalace-v13.342.json").is_file():
        s13, _ = _levels_import(aerie, tmp_path, "v13", REAL / "fvtt-Scene-icepalace-v13.342.json")
        assert (s.world.voxels == s13.world.voxels).all()
    assert s.world.size == (50, 50, 20)
    per_layer = [int((s.world.voxels[z] > 0).sum()) for z in range(12)]
    assert per_layer[0:2] == [215] * 2 and per_layer[3:5] == [191] * 2 and per_layer[6:8] == [164] * 2
    assert per_layer[2] > 215 and per_layer[5] > 191                      # the floors at 10 and 20 ft
    assert "tiles[0] 'First Floor.webp')" in text and "Levels: 2 hole(s), 10 stair(s)" in text
    assert [z for z, _ in s.world.floor_images] == [2, 5, 8]
