"""aerie import: Universal VTT and Foundry files the tests write themselves, checked voxel by voxel; bad input."""

import base64
import io
import json
import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from engine.scene import load_scene

pytestmark = pytest.mark.unit


# --- writing test maps -------------------------------------------------------------------------------------------
def map_image(w, h, fmt="PNG") -> bytes:
    """A recognisable image: the north-west quarter red, the rest sand, grid lines every 20 px."""
    im = Image.new("RGB", (w, h), (206, 188, 136))
    d = ImageDraw.Draw(im)
    d.rectangle([0, 0, w // 2 - 1, h // 2 - 1], fill=(220, 30, 30))
    for x in range(0, w, 20):
        d.line([(x, 0), (x, h)], fill=(40, 40, 40))
    for y in range(0, h, 20):
        d.line([(0, y), (w, y)], fill=(40, 40, 40))
    buf = io.BytesIO()
    im.save(buf, fmt)
    return buf.getvalue()


def P(x, y):
    return {"x": x, "y": y}


def uvtt(fmt=0.3, image_fmt="PNG", origin=(0, 0), objects=True, image=None):
    """A 10 x 10 square map (20 px squares): a room x 1..9, y 1..9 (grid units, y down) with a closed door on the
    west wall (y 4..5), an open door on the north wall (x 4..5) and a table (object line) at y 5.5, x 3..6."""
    ox, oy = origin

    def p(x, y):
        return P(x + ox, y + oy)

    d = {
        "format": fmt,
        "resolution": {"map_origin": P(ox, oy), "map_size": P(10, 10), "pixels_per_grid": 20},
        "line_of_sight": [
            [p(1, 9), p(1, 5)], [p(1, 4), p(1, 1), p(4, 1)], [p(5, 1), p(9, 1), p(9, 9), p(1, 9)],
        ],
        "portals": [
            {"position": p(1, 4.5), "bounds": [p(1, 4), p(1, 5)], "rotation": 1.5708, "closed": True,
             "freestanding": False},
            {"position": p(4.5, 1), "bounds": [p(4, 1), p(5, 1)], "rotation": 0, "closed": False,
             "freestanding": False},
        ],
        "environment": {"baked_lighting": True, "ambient_light": "ffffffff"},
        "lights": [{"position": p(5, 5), "range": 4, "intensity": 1, "color": "ffeeccaa", "shadows": True}],
        "image": image if image is not None else base64.b64encode(map_image(200, 200, image_fmt)).decode(),
    }
    if objects:
        d["objects_line_of_sight"] = [[p(3, 5.5), p(6, 5.5)]]
    return d


def write(tmp_path, name, data) -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(data))
    return p


def mat_at(scene, x, y, z) -> str:
    return scene.world.materials[scene.world.voxels[z, y, x]].name


def imported(aerie, tmp_path, src, *flags, name="scene.toml"):
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    r = aerie("import", src, "-o", out / name, *flags)
    assert r.returncode == 0, r.stderr
    return load_scene(out / name), out / name


# --- Universal VTT -----------------------------------------------------------------------------------------------
def test_uvtt_walls_doors_objects_and_heights(aerie, tmp_path):
    s, path = imported(aerie, tmp_path, write(tmp_path, "room.dd2vtt", uvtt()))
    assert s.world.size == (10, 10, 12) and s.world.cell_m == 1.5
    # UVTT y runs down the image; Aerie's north: grid y 9 (the south wall) is cell row 1, grid y 1 is row 9.
    # The west wall x = 1 takes cells x = 1, 3 m high: layers 0..2 stone, layer 3 air
    for y in (2, 3, 7, 8):
        assert [mat_at(s, 1, y, z) for z in range(4)] == ["stone"] * 3 + ["air"], y
    assert mat_at(s, 5, 1, 0) == "stone" and mat_at(s, 5, 9, 0) == "stone" and mat_at(s, 9, 5, 2) == "stone"
    # the closed door (grid y 4..5 -> cells y 5) is one cell of material door, wall high
    assert [mat_at(s, 1, 5, z) for z in range(4)] == ["door"] * 3 + ["air"]
    assert mat_at(s, 1, 4, 0) == "stone" and mat_at(s, 1, 6, 0) == "stone"
    # the open door (grid x 4..5 on the north wall) is a gap
    assert [mat_at(s, 4, 9, z) for z in range(3)] == ["air"] * 3
    assert mat_at(s, 3, 9, 0) == "stone" and mat_at(s, 5, 9, 0) == "stone"
    # the table: grid y 5.5 -> cells y 4, x 3..6, 1 m high
    assert [mat_at(s, x, 4, 0) for x in range(2, 8)] == ["air", "obstacle", "obstacle", "obstacle", "obstacle", "air"]
    assert mat_at(s, 4, 4, 1) == "air"
    # the inside is clear
    assert (s.world.voxels[:, 5:9, 2:9] == 0).all()
    # the map image is beside the scene, and the scene names it
    text = path.read_text()
    assert 'ground_image = "scene.map.png"' in text and (path.parent / "scene.map.png").is_file()
    assert s.world.ground_image == (path.parent / "scene.map.png").resolve()
    # doors are recorded as comments
    assert "# door portals[0] (closed)" in text and "# door portals[1] (open)" in text and "ignored: 1 light(s)" in text


def test_uvtt_options(aerie, tmp_path):
    src = write(tmp_path, "room.dd2vtt", uvtt())
    s, _ = imported(aerie, tmp_path, src, "--doors", "gap", "--wall-height", "5", "--object-height", "2",
                    "--layers", "20", "--wall-material", "brick")
    assert s.world.size[2] == 20
    assert [mat_at(s, 1, 3, z) for z in range(6)] == ["brick"] * 5 + ["air"]
    assert [mat_at(s, 1, 5, z) for z in range(5)] == ["air"] * 5          # the closed door is a gap
    assert [mat_at(s, 4, 4, z) for z in range(3)] == ["obstacle"] * 2 + ["air"]
    s2, _ = imported(aerie, tmp_path, src, "--cells-per-grid", "2", "--thickness", "2", name="fine.toml")
    assert s2.world.size == (20, 20, 12) and s2.world.cell_m == 0.75
    # the west wall (grid x 1 = cell 2 at 2 per square) is 2 cells thick: cells 1 and 2
    assert mat_at(s2, 1, 6, 0) == "stone" and mat_at(s2, 2, 6, 0) == "stone" and mat_at(s2, 3, 6, 0) == "air"


def test_cover_from_a_low_object_line(aerie, tmp_path):
    """The imported table (1 m) gives cover to a body behind it against a ground archer, none against a flyer."""
    s, path = imported(aerie, tmp_path, write(tmp_path, "room.dd2vtt", uvtt()))
    text = path.read_text() + "\n".join([
        "", "[[characters]]", 'id = "archer"', 'side = "a"', "at = [4, 7, 0]",
        "", "[[characters]]", 'id = "flyer"', 'side = "a"', "at = [4, 7, 7]", "flying = true",
        "", "[[characters]]", 'id = "crouched"', 'side = "b"', "at = [4, 3, 0]", 'size = "small"', ""])
    path.write_text(text)
    r = aerie("query", path, "--from", "archer", "--to", "crouched", "--json")
    assert r.returncode == 0, r.stderr
    ground = json.loads(r.stdout)
    r = aerie("query", path, "--from", "flyer", "--to", "crouched", "--json")
    air = json.loads(r.stdout)
    assert ground["cover"] in ("half", "three-quarters"), ground
    assert air["cover"] == "none", air
    assert ground["blocked_fraction"] > air["blocked_fraction"]


@pytest.mark.parametrize("image_fmt", ["PNG", "WEBP", "JPEG"])
def test_uvtt_image_formats_and_origin(aerie, tmp_path, image_fmt):
    """Format 0.2 (no object lines) and 1.0, a map_origin that is not zero, each image format."""
    for fmt, objects in ((0.2, False), (1.0, True)):
        src = write(tmp_path, f"o{fmt}.uvtt", uvtt(fmt=fmt, image_fmt=image_fmt, origin=(3, 7), objects=objects))
        s, path = imported(aerie, tmp_path, src, name=f"o{fmt}.toml")
        assert mat_at(s, 1, 3, 0) == "stone" and mat_at(s, 1, 5, 0) == "door" and mat_at(s, 4, 9, 0) == "air"
        assert mat_at(s, 4, 4, 0) == ("obstacle" if objects else "air")
        ext = {"PNG": ".png", "WEBP": ".webp", "JPEG": ".jpg"}[image_fmt]
        assert Image.open(path.parent / f"o{fmt}.map{ext}").format == image_fmt
        if not objects:
            assert "no objects_line_of_sight" in path.read_text()


def test_uvtt_image_as_a_file_path(aerie, tmp_path):
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "room.jpg").write_bytes(map_image(200, 200, "JPEG"))
    src = write(tmp_path, "room.uvtt", uvtt(fmt=1.0, image="maps/room.jpg"))
    s, path = imported(aerie, tmp_path, src)
    assert (path.parent / "scene.map.jpg").read_bytes() == (tmp_path / "maps" / "room.jpg").read_bytes()
    # a path to nothing: a plain ground, one warning line naming the key, exit 0 (as Foundry opens such a scene)
    src = write(tmp_path, "gone.uvtt", uvtt(fmt=1.0, image="modules/x/maps/gone.webp"))
    r = aerie("import", src, "-o", tmp_path / "gone.toml")
    assert r.returncode == 0, r.stderr
    assert r.stderr.strip().count("\n") == 0 and r.stderr.startswith("warning: ") and "gone.uvtt: image:" in r.stderr
    assert "ground_image" not in (tmp_path / "gone.toml").read_text()
    s, path = imported(aerie, tmp_path, src, "--no-image", name="noimg.toml")
    assert "ground_image" not in path.read_text() and s.world.ground_image is None
    s, path = imported(aerie, tmp_path, src, "--image", tmp_path / "maps" / "room.jpg", name="img.toml")
    assert s.world.ground_image.name == "img.map.jpg"


# --- Foundry -----------------------------------------------------------------------------------------------------
def foundry_scene(core="12.331", levels=None):
    """A 10 x 8 square scene, 100 px squares, 5 ft, padding 0.25 (so canvas = scene + 300 px x, 200 px y)."""
    px, py = 300, 200

    def c(x0, y0, x1, y1):                   # grid units to canvas pixels
        return [x0 * 100 + px, y0 * 100 + py, x1 * 100 + px, y1 * 100 + py]

    walls = [
        {"c": c(1, 1, 1, 7), "move": 20, "sight": 20, "door": 0, "ds": 0},                        # plain, full
        {"c": c(3, 1, 3, 7), "move": 20, "sight": 20, "door": 0, "ds": 0,
         "flags": {"wall-height": {"top": 10, "bottom": 0}}},                                     # 10 ft = 3 m
        {"c": c(5, 1, 5, 7), "move": 20, "sight": 20, "door": 0, "ds": 0,
         "flags": {"wall-height": {"top": 30, "bottom": 20}}},                                    # 6..9 m
        {"c": c(6, 2, 6, 3), "move": 20, "sight": 20, "door": 1, "ds": 0},                        # closed door
        {"c": c(6, 4, 6, 5), "move": 20, "sight": 20, "door": 1, "ds": 1},                        # open door
        {"c": c(7, 1, 7, 7), "move": 20, "sight": 0, "door": 0, "ds": 0},                         # movement only
        {"c": c(8, 1, 8, 7), "move": 0, "sight": 20, "door": 0, "ds": 0,
         "flags": {"levels": {"rangeBottom": 0, "rangeTop": 3}}},                                 # Levels: 0.9 m
    ]
    tokens = [
        {"name": "Goblin", "x": 200 + px, "y": 600 + py, "width": 1, "height": 1, "elevation": 0, "disposition": -1},
        {"name": "Harpy", "x": 400 + px, "y": 300 + py, "width": 1, "height": 1, "elevation": 30, "disposition": -1,
         "flags": {"aerie": {"kind": "harpy"}}},
        {"name": "Ogre", "x": 800 + px, "y": 500 + py, "width": 2, "height": 2, "elevation": 0, "disposition": 1},
    ]
    d = {"name": "Test Keep", "width": 1000, "height": 800, "padding": 0.25,
         "grid": {"type": 1, "size": 100, "distance": 5, "units": "ft"}, "walls": walls, "tokens": tokens,
         "lights": [{"x": 500, "y": 500}], "background": {"src": "keep.webp"}, "_stats": {"coreVersion": core}}
    if levels is not None:
        d["levels"] = levels
    return d


def test_foundry_walls_heights_doors_tokens(aerie, tmp_path):
    (tmp_path / "keep.webp").write_bytes(map_image(1000, 800, "WEBP"))
    src = write(tmp_path, "fvtt-Scene-keep.json", foundry_scene())
    s, path = imported(aerie, tmp_path, src)
    assert s.world.size[:2] == (10, 8) and s.name == "Test Keep"
    # canvas (300 + 100 x, 200 + 100 y) -> cell x, and y = 8 - grid y; wall x = 1 from grid y 1..7: cells y 1..7
    def col(x, y):
        return [mat_at(s, x, y, z) for z in range(12)]

    assert col(1, 4) == ["stone"] * 3 + ["air"] * 9                       # no flags: --wall-height 3 m
    assert col(3, 4) == ["stone"] * 3 + ["air"] * 9                       # wall-height top 10 ft = 3 m
    assert col(5, 4) == ["air"] * 6 + ["stone"] * 3 + ["air"] * 3         # 20..30 ft = 6..9 m: a gap below
    assert mat_at(s, 6, 5, 0) == "door"                                   # grid y 2..3 -> cell y 5 (closed)
    assert mat_at(s, 6, 3, 0) == "air"                                    # grid y 4..5 -> cell y 3 (open)
    assert mat_at(s, 7, 4, 0) == "barrier" and not s.world.materials[s.world.voxels[0, 4, 7]].blocks_sight
    assert col(8, 4)[:3] == ["veil", "air", "air"]                        # Levels rangeTop 3 ft = 0.9 m
    goblin, harpy, ogre = (s.character(i) for i in ("goblin", "harpy", "ogre"))
    assert goblin.at == (2, 1, 0) and goblin.side == "hostile" and not goblin.flying
    assert harpy.at == (4, 4, 9) and harpy.flying and harpy.kind == "harpy"      # 30 ft = 9 m
    assert ogre.size == "large" and ogre.side == "friendly"
    assert ogre.at[:2] in ((8, 1), (7, 1))                               # a 2 x 2 body by the east edge
    r = aerie("check", path)
    assert r.returncode == 0, r.stderr


def test_foundry_v14_scene_levels(aerie, tmp_path):
    levels = [{"_id": "ground00000000000", "name": "Ground", "elevation": {"bottom": 0, "top": 10}},
              {"_id": "upper000000000000", "name": "Upper", "elevation": {"bottom": 10, "top": 20}}]
    d = foundry_scene(core="14.351", levels=levels)
    d["walls"] = [{"c": [400, 300, 400, 900], "move": 20, "sight": 20, "door": 0, "ds": 0,
                   "levels": ["upper000000000000"]},
                  {"c": [600, 300, 600, 900], "move": 20, "sight": 20, "door": 0, "ds": 0,
                   "levels": ["ground00000000000"]},
                  {"c": [800, 300, 800, 900], "move": 20, "sight": 20, "door": 0, "ds": 0,
                   "levels": ["ground00000000000", "upper000000000000"]}]
    d["tokens"] = []
    src = write(tmp_path, "v14.json", d)
    s, path = imported(aerie, tmp_path, src, "--no-image")
    assert [mat_at(s, 1, 4, z) for z in range(7)] == ["air"] * 3 + ["stone"] * 3 + ["air"]   # 10..20 ft
    assert [mat_at(s, 3, 4, z) for z in range(4)] == ["stone"] * 3 + ["air"]
    assert [mat_at(s, 5, 4, z) for z in range(7)] == ["stone"] * 6 + ["air"]
    assert "v14 scene levels" in path.read_text()
    # v14 keeps a background per level (the Universal Battlemap importer writes them so): the lowest level's is
    # the ground image
    (tmp_path / "ground.png").write_bytes(map_image(1000, 800))
    (tmp_path / "upper.png").write_bytes(map_image(500, 400))
    d.pop("background")
    levels[0]["background"] = {"src": "worlds/w/ground.png"}
    levels[1]["background"] = {"src": "upper.png"}
    s, path = imported(aerie, tmp_path, write(tmp_path, "v14b.json", dict(d, levels=levels[::-1])), name="b.toml")
    assert s.world.ground_image.name == "b.map.png"
    assert Image.open(s.world.ground_image).size == (1000, 800)
    assert "level 'Ground''s background" in path.read_text()


def test_foundry_v14_default_scene_layout(aerie, tmp_path):
    """The layout of a v14.363 scene as Foundry returns it: no scene background (the level has it), a gridless
    grid of 1 unit per 100 px, no padding, a token with its ``level``, walls and lights with ``levels`` lists."""
    (tmp_path / "fvtt-background.webp").write_bytes(map_image(384, 192, "WEBP"))
    d = {"_id": "NUEDEFAULTSCENE0", "name": "Foundry Virtual Tabletop", "width": 3840, "height": 1920, "padding": 0,
         "initialLevel": "defaultLevel0000",
         "grid": {"type": 0, "size": 100, "style": "solidLines", "distance": 1, "units": ""},
         "tokens": [{"name": "test", "level": "defaultLevel0000", "x": 0, "y": 0, "elevation": 0, "width": 1,
                     "height": 1, "depth": 1, "disposition": -1, "flags": {}}],
         "levels": [{"_id": "defaultLevel0000", "name": "Foundry Virtual Tabletop",
                     "elevation": {"bottom": 0, "top": 4},
                     "background": {"color": "#25070d", "src": "nue/defaultscene/fvtt-background.webp"}}],
         "lights": [{"x": 656, "y": 1473, "elevation": 0, "levels": []}],
         "walls": [{"c": [1000, 500, 1000, 1500], "move": 20, "sight": 20, "door": 0, "ds": 0, "levels": []}],
         "_stats": {"coreVersion": "14.363"}}
    s, path = imported(aerie, tmp_path, write(tmp_path, "v14-default.json", d))
    # 38.4 x 19.2 squares: stretched to 39 x 20 cells, the image with them, so walls stay where the image has them
    assert s.world.size[:2] == (39, 20) and s.world.cell_m == 1.5
    assert s.world.ground_image.suffix == ".webp"
    assert "38.4 x 19.2 cells stretched to 39 x 20" in path.read_text()
    # a wall in no level is --wall-height (3 m) high; x 1000 px of 3840 is cell 10.16 of 39
    assert [mat_at(s, 10, 10, z) for z in range(4)] == ["stone"] * 3 + ["air"]
    assert s.character("test").at == (0, 19, 0)                      # the top-left square is the north-west cell
    assert "core 14.363" in path.read_text()


def test_foundry_v9_compendium_and_character_mapping(aerie, tmp_path):
    a = foundry_scene()
    v9 = {k: v for k, v in a.items() if k not in ("grid", "background", "_stats")}
    v9.update(grid=100, gridDistance=5, gridUnits="ft", gridType=1, img="keep.png")
    for w in v9["walls"]:
        w["sense"] = 1 if w.pop("sight") else 0
        w["move"] = 1 if w["move"] else 0
    b = dict(v9, name="Other")
    db = tmp_path / "scenes.db"
    db.write_text(json.dumps(v9) + "\n" + json.dumps(b) + "\n")
    r = aerie("import", db, "-o", tmp_path / "x.toml", "--no-image")
    assert r.returncode == 2 and "holds 2 scenes; pick one with --scene NAME" in r.stderr
    (tmp_path / "chars.toml").write_text('[characters.Goblin]\nkind = "archer"\nside = "raiders"\n')
    s, _ = imported(aerie, tmp_path, db, "--scene", "Other", "--no-image", "--characters", tmp_path / "chars.toml")
    assert s.name == "Other" and mat_at(s, 1, 4, 0) == "stone" and mat_at(s, 6, 5, 0) == "door"
    g = s.character("goblin")
    assert g.kind == "archer" and g.side == "raiders"


def test_foundry_walls_in_the_padding_and_old_wall_height_flags(aerie, tmp_path):
    """Foundry lets walls lie in the scene's padding (the Levels module's sample farm has four): a wall wholly there
    is dropped, one crossing the scene's edge is cut at it; Wall Height before 3.0 wrote flags.wallHeight."""
    d = foundry_scene()
    d["tokens"] = []
    d["walls"] = [{"c": [100, 100, 250, 100], "move": 20, "sight": 20},                 # wholly in the padding
                  {"c": [300 + 250, 50, 300 + 250, 200 + 350], "move": 20, "sight": 20},   # from the padding in
                  {"c": [300 + 850, 200 + 150, 300 + 850, 200 + 650], "move": 20, "sight": 20,
                   "flags": {"wallHeight": {"wallHeightTop": 20, "wallHeightBottom": 10}}},
                  {"c": [300 + 450, 200 + 150, 300 + 450, 200 + 650], "move": 20, "sight": 20,       # a basement
                   "flags": {"wall-height": {"top": -1, "bottom": -10}}}]
    s, path = imported(aerie, tmp_path, write(tmp_path, "pad.json", d), "--no-image")
    text = path.read_text()
    assert "1 wall(s) wholly in the scene's padding dropped, 1 cut at the scene's edge" in text
    # the cut wall: grid x 2.5, from the top edge (grid y 0) to grid y 3.5 -> cells x 2, rows 8 - 0.. -> 4..7
    assert (s.world.voxels[3:, :, 0:2] == 0).all()                  # nothing from the padding wall
    # the basement wall (-10..-1 ft) is kept: the map is raised 3 layers so it stands on the ground, the file's
    # 0 ft is layer 3, and under the 0 ft floor (layer 2) is earth (this basement encloses no room to dig out)
    assert "1 wall(s) below the ground (a basement): kept, the map shifted up" in text
    assert "the file's 0 ft is layer 3" in text
    assert [mat_at(s, 4, 4, z) for z in range(4)] == ["stone"] * 3 + ["air"]   # -10..-1 ft, up to the 0 ft floor
    assert [mat_at(s, 2, y, 3) for y in range(8)] == ["air"] * 4 + ["stone"] * 4
    assert [mat_at(s, 8, 4, z) for z in range(11)] == ["earth"] * 3 + ["air"] * 3 + ["stone"] * 3 + ["air"] * 2


def test_foundry_ground_image_from_tiles(aerie, tmp_path):
    """A scene without a background whose floors are tiles (the Levels module's Ice Palace): the ground image is
    composed of the ground tiles at their rectangles, over the scene's background colour; upper floors are left
    out (v12+: the lowest elevation at or above 0; v9-v11: the tiles not overhead)."""
    (tmp_path / "floor 1.png").write_bytes(map_image(400, 400))           # red NW quarter, see map_image
    Image.new("RGB", (400, 400), (0, 0, 255)).save(tmp_path / "upper.png")
    d = foundry_scene()
    d["tokens"] = []
    del d["background"]
    d["backgroundColor"] = "#00ff00"
    d["tiles"] = [{"texture": {"src": "worlds/w/floor%201.png"}, "x": 300 + 100, "y": 200 + 100, "width": 400,
                   "height": 400, "elevation": 0},
                  {"texture": {"src": "upper.png"}, "x": 300, "y": 200, "width": 1000, "height": 800, "elevation": 10},
                  {"texture": {"src": "cellar.png"}, "x": 300, "y": 200, "width": 1000, "height": 800, "elevation": -10}]
    s, path = imported(aerie, tmp_path, write(tmp_path, "tiles.json", d))
    assert "composed of the scene's ground tiles (tiles[0] 'floor 1.png')" in path.read_text()
    g = Image.open(s.world.ground_image).convert("RGB")
    assert g.size == (1000, 800)
    assert g.getpixel((50, 50)) == (0, 255, 0)                          # outside the tile: the background colour
    assert g.getpixel((150, 150)) == Image.open(tmp_path / "floor 1.png").convert("RGB").getpixel((50, 50))
    assert g.getpixel((900, 700)) == (0, 255, 0)
    # v9: "overhead" says which are floors above
    d9 = dict(d, tiles=[{"img": "floor%201.png", "x": 400, "y": 300, "width": 400, "height": 400, "overhead": False},
                        {"img": "upper.png", "x": 300, "y": 200, "width": 1000, "height": 800, "overhead": True}])
    s, path = imported(aerie, tmp_path, write(tmp_path, "tiles9.json", d9), name="t9.toml")
    assert Image.open(s.world.ground_image).convert("RGB").getpixel((50, 50)) == (0, 255, 0)
    # the ground tile's image missing: a plain ground, one warning line, exit 0
    d9["tiles"][0]["img"] = "nowhere.png"
    d9["tiles"] = d9["tiles"][:1]
    r = aerie("import", write(tmp_path, "tiles_missing.json", d9), "-o", tmp_path / "tm.toml")
    assert r.returncode == 0 and r.stderr.count("\n") == 1 and "tiles[0].img: the image 'nowhere.png'" in r.stderr
    assert load_scene(tmp_path / "tm.toml").world.ground_image is None


# --- bad input: one line naming the file and the key, exit 2, nothing written -------------------------------------
def _refused(aerie, tmp_path, src, expect, *flags):
    out = tmp_path / "bad"
    out.mkdir(exist_ok=True)
    r = aerie("import", src, "-o", out / "scene.toml", *flags)
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    assert Path(src).name in lines[0] and expect in lines[0], lines[0]
    assert list(out.iterdir()) == []
    return lines[0]


def test_bad_input(aerie, tmp_path):
    p = tmp_path / "notjson.dd2vtt"
    p.write_text("this is not json")
    _refused(aerie, tmp_path, p, "not JSON")
    _refused(aerie, tmp_path, write(tmp_path, "other.json", {"hello": 1}), "neither a Universal VTT map")
    d = uvtt()
    d["image"] = d["image"][: len(d["image"]) // 2 + 1]
    _refused(aerie, tmp_path, write(tmp_path, "trunc.dd2vtt", d), "image: the base64 image does not decode")
    d = uvtt()
    d["image"] = d["image"][: (len(d["image"]) // 8) * 4]            # whole base64 quads: decodes, PNG cut short
    _refused(aerie, tmp_path, write(tmp_path, "trunc2.dd2vtt", d), "image: the image does not decode")
    d = uvtt()
    d["line_of_sight"][1].append(P(14, 3))
    _refused(aerie, tmp_path, write(tmp_path, "outside.dd2vtt", d), "line_of_sight[1][3]: point (14, 3) is outside")
    d = uvtt()
    d["resolution"]["map_size"] = P(1500, 10)
    _refused(aerie, tmp_path, write(tmp_path, "huge.dd2vtt", d), "resolution.map_size: the map is 1500 x 10 cells")
    d = uvtt()
    d["resolution"]["map_size"] = P(1000, 1000)
    _refused(aerie, tmp_path, write(tmp_path, "deep.dd2vtt", d), "resolution.map_size: the map is 1000 x 1000 cells x 100",
             "--layers", "100")
    d = uvtt(fmt=0.9)
    _refused(aerie, tmp_path, write(tmp_path, "fmt.dd2vtt", d), "format: Universal VTT format 0.9 is not supported")
    big = tmp_path / "big.dd2vtt"
    with open(big, "wb") as f:                                      # 200 MB, sparse: refused before reading
        f.truncate(200 * 1024 * 1024)
    _refused(aerie, tmp_path, big, "over the cap of 128 MiB")
    d = foundry_scene()
    d["walls"][2]["c"] = [0, 0, 5000, 100]
    _refused(aerie, tmp_path, write(tmp_path, "fv.json", d), "walls[2].c: point (5000, 100) px is outside the canvas",
             "--no-image")
    d = foundry_scene()
    d["walls"][1]["flags"]["wall-height"]["top"] = "high"
    _refused(aerie, tmp_path, write(tmp_path, "fh.json", d), 'walls[1].flags["wall-height"].top', "--no-image")
    d = foundry_scene()
    d["grid"]["type"] = 2
    _refused(aerie, tmp_path, write(tmp_path, "hex.json", d), "grid.type: grid type 2 is a hex grid", "--no-image")
    # a missing image is not a bad file: a plain ground, one warning line, exit 0 (--image still sets one)
    r = aerie("import", write(tmp_path, "nobg.json", foundry_scene()), "-o", tmp_path / "nobg.toml")
    assert r.returncode == 0 and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.startswith("warning: ") and "nobg.json: background.src: the image 'keep.webp'" in r.stderr
    assert "ground_image" not in (tmp_path / "nobg.toml").read_text()
    (tmp_path / "given.png").write_bytes(map_image(100, 80))
    r = aerie("import", tmp_path / "nobg.json", "-o", tmp_path / "given.toml", "--image", tmp_path / "given.png")
    assert r.returncode == 0 and r.stderr == "" and load_scene(tmp_path / "given.toml").world.ground_image is not None


def test_output_written_whole_or_not_at_all(aerie, tmp_path):
    src = write(tmp_path, "room.dd2vtt", uvtt())
    r = aerie("import", src, "-o", tmp_path / "nodir" / "scene.toml")
    assert r.returncode == 2 and "does not exist" in r.stderr
    out = tmp_path / "o"
    out.mkdir()
    (out / "scene.toml").write_text("old")
    d = uvtt()
    d["portals"][0]["closed"] = "yes"
    r = aerie("import", write(tmp_path, "bad.dd2vtt", d), "-o", out / "scene.toml")
    assert r.returncode == 2 and "portals[0].closed" in r.stderr
    assert (out / "scene.toml").read_text() == "old" and sorted(os.listdir(out)) == ["scene.toml"]


def test_the_same_map_imports_to_the_same_bytes(aerie, tmp_path):
    src = write(tmp_path, "room.dd2vtt", uvtt())
    a, pa = imported(aerie, tmp_path, src, name="a.toml")
    b, pb = imported(aerie, tmp_path, src, name="b.toml")
    assert pa.read_text().replace("a.map.png", "X").replace("a.toml", "Y") == \
        pb.read_text().replace("b.map.png", "X").replace("b.toml", "Y")
    assert (pa.parent / "a.map.png").read_bytes() == (pb.parent / "b.map.png").read_bytes()
    assert np.array_equal(a.world.voxels, b.world.voxels)
