"""aerie export: glTF 2.0 that trimesh loads back with the same triangles and bounds, +Y up, metres, materials
as glTF materials, characters at their positions, and --step N."""

import json
import struct
from pathlib import Path

import numpy as np
import pytest

from engine.scene import load_scene

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[2]
SHOWCASE = ROOT / "scenes" / "showcase.toml"
CLIMB = ROOT / "scenes" / "air_takeoff_climb.toml"
trimesh = pytest.importorskip("trimesh")


def instances(scene):
    """(node name, mesh in world coordinates) for every node that draws a mesh."""
    out = []
    for node in scene.graph.nodes_geometry:
        T, g = scene.graph[node]
        out.append((node, scene.geometry[g].copy().apply_transform(T)))
    return out


def glb_json(path):
    data = path.read_bytes()
    magic, version, _ = struct.unpack_from("<4sII", data, 0)
    n, kind = struct.unpack_from("<I4s", data, 12)
    assert magic == b"glTF" and version == 2 and kind == b"JSON"
    return json.loads(data[20:20 + n])


def export(aerie, scene_path, out, *flags):
    r = aerie("export", scene_path, "-o", out, *flags)
    assert r.returncode == 0, r.stderr
    return trimesh.load(str(out))


def test_export_an_imported_map(aerie, tmp_path):
    from test_interop import uvtt, write

    out = tmp_path / "s"
    out.mkdir()
    assert aerie("import", write(tmp_path, "room.dd2vtt", uvtt()), "-o", out / "room.toml").returncode == 0
    path = out / "room.toml"
    path.write_text(path.read_text() + '\n[[characters]]\nid = "archer"\nkind = "archer"\nat = [4, 7, 0]\n'
                    '\n[[characters]]\nid = "harpy"\nkind = "harpy"\nat = [6, 3, 6]\nflying = true\n'
                    '\n[[characters]]\nid = "scout"\nkind = "archer"\nat = [7, 7, 5]\nflying = true\n')
    scene = load_scene(path)
    from engine.interop.gltf import build_gltf_scene

    _, info = build_gltf_scene(scene)
    g = export(aerie, path, tmp_path / "room.glb")
    inst = dict(instances(g))
    assert sum(len(m.faces) for m in inst.values()) == info["triangles"]
    # bounds: +Y up, metres. 10 x 10 cells of 1.5 m, the ground slab 1 m thick under y = 0, walls 3 m high
    terrain = trimesh.util.concatenate([m for n, m in inst.items() if n.startswith("terrain_")])
    assert np.allclose(terrain.bounds, [[0, -1, -15], [15, 3, 0]])
    assert np.allclose(inst["terrain_stone"].bounds[:, 1], [0, 3])
    assert np.allclose(inst["terrain_obstacle"].bounds[:, 1], [0, 1])
    # every terrain triangle faces outwards: normals of the ground's top are +Y
    top = inst["terrain_ground_image"]
    assert np.allclose(top.face_normals, [0, 1, 0])
    # materials are glTF materials by name, with the scene's colours (linear)
    doc = glb_json(tmp_path / "room.glb")
    names = {m["name"] for m in doc["materials"]}
    assert {"stone", "door", "obstacle", "ground", "ground_image"} <= names
    stone = next(m for m in doc["materials"] if m["name"] == "stone")
    assert np.allclose(stone["pbrMetallicRoughness"]["baseColorFactor"][:3],
                       [(c / 255) ** 2.2 for c in (150, 148, 140)], atol=0.01)
    # the ground's image: the north-west corner (x 0, north = -Z) samples the red quarter
    gm = g.geometry[g.graph["terrain_ground_image"][1]]
    img = np.asarray(gm.visual.material.baseColorTexture.convert("RGB"))
    i = np.argmin(gm.vertices[:, 0] + gm.vertices[:, 2])          # smallest x, most negative z: north-west
    assert np.allclose(gm.vertices[i], [0, 0, -15]) and np.allclose(gm.visual.uv[i], [0, 1])   # trimesh: v up
    h, w = img.shape[:2]
    nw, se = img[int(0.15 * h), int(0.15 * w)], img[int(0.85 * h), int(0.85 * w)]    # image rows run north-south
    assert nw[0] > 180 and nw[1] < 80 and se[1] > 150, (nw, se)
    # and in the file itself (glTF's texture origin is the top-left): the north-west corner has uv (0, 0)
    doc_mesh = next(m for m in doc["meshes"] if m["name"] == "terrain_ground_image")
    raw = (tmp_path / "room.glb").read_bytes()
    bin_at = 20 + struct.unpack_from("<I", raw, 12)[0] + 8

    def accessor(i, k):
        a = doc["accessors"][i]
        bv = doc["bufferViews"][a["bufferView"]]
        off = bin_at + bv.get("byteOffset", 0) + a.get("byteOffset", 0)
        return np.frombuffer(raw, np.float32, a["count"] * k, off).reshape(-1, k)

    attrs = doc_mesh["primitives"][0]["attributes"]
    pos, uv = accessor(attrs["POSITION"], 3), accessor(attrs["TEXCOORD_0"], 2)
    j = np.argmin(pos[:, 0] + pos[:, 2])
    assert np.allclose(pos[j], [0, 0, -15]) and np.allclose(uv[j], [0, 0])
    # a flying archer gets the renderer's wings, the harpy has its own, the archer on the ground none
    assert {n for n in inst if n.endswith("_wings")} == {"character_scout_wings"}
    # characters: feet at their layer, centred on their cell (x east, -Z north)
    cm = 1.5
    for cid, (x, y, layer) in (("archer", (4, 7, 0)), ("harpy", (6, 3, 6))):
        b = inst[f"character_{cid}"].bounds
        assert abs(b[0, 1] - layer) < 0.05, (cid, b)
        cx, cz = (b[0, 0] + b[1, 0]) / 2, (b[0, 2] + b[1, 2]) / 2
        assert abs(cx - (x + 0.5) * cm) < 0.75 and abs(cz + (y + 0.5) * cm) < 0.75, (cid, cx, cz)


def test_export_the_showcase_and_a_step(aerie, tmp_path):
    from engine.interop.gltf import build_gltf_scene
    from engine.render.mesh import mesh_region

    scene = load_scene(SHOWCASE)
    g = export(aerie, SHOWCASE, tmp_path / "show.glb")
    inst = dict(instances(g))
    _, info = build_gltf_scene(scene)
    assert sum(len(m.faces) for m in inst.values()) == info["triangles"]
    o, t = mesh_region(scene.world.voxels, scene.world.materials, chunk=1 << 20)
    assert info["terrain_triangles"] == 2 * (len(o) + len(t))
    X, Y, Z = scene.world.size
    top = max(float(m.bounds[1, 1]) for n, m in inst.items() if n.startswith("terrain_"))
    hm = scene.world.heightmap()
    assert top == pytest.approx(float(hm.max()))                   # the tallest column, in metres, along +Y
    bodies = [n for n in inst if n.startswith("character_") and not n.endswith("_wings")]
    assert len(bodies) == len(scene.characters)
    # flyers without wings of their own get the renderer's pair; walkers and winged models do not
    flyers = {c.id for c in scene.characters if c.flying and (c.kind or "") not in ("harpy", "wyvern_rider", "wyvern")}
    assert {n[len("character_"):-len("_wings")] for n in inst if n.endswith("_wings")} == flyers

    # --step N: the state after N script steps (a refused step, marked illegal, changes nothing)
    sc = load_scene(CLIMB)
    k0 = dict(instances(export(aerie, CLIMB, tmp_path / "s0.glb")))["character_kestrel"]
    k1 = dict(instances(export(aerie, CLIMB, tmp_path / "s1.glb", "--step", "1")))[
        "character_kestrel"]
    k2 = dict(instances(export(aerie, CLIMB, tmp_path / "s2.glb", "--step", "2")))[
        "character_kestrel"]
    x0, y0, l0 = sc.character("kestrel").at
    assert abs(k0.bounds[0, 1] - l0) < 0.05
    assert abs(k1.bounds[0, 1] - 1) < 0.05                         # moved to [2, 2, 1]
    assert np.allclose(k1.bounds, k2.bounds)
    r = aerie("export", CLIMB, "-o", tmp_path / "s.glb", "--step", "99")
    assert r.returncode == 2 and "--step 99" in r.stderr and not (tmp_path / "s.glb").exists()
    r = aerie("export", CLIMB, "-o", tmp_path / "s.gltf")
    assert r.returncode == 2 and ".glb" in r.stderr


def check_gltf(path):
    """The glTF 2.0 rules a viewer depends on (the Khronos validator's errors, checked by hand): one JSON and one
    BIN chunk, every index in range, views inside the buffer, POSITION accessors with min/max that hold, index
    counts multiples of 3 and below the vertex count, materials, textures and images that exist."""
    raw = Path(path).read_bytes()
    magic, version, length = struct.unpack_from("<4sII", raw, 0)
    assert magic == b"glTF" and version == 2 and length == len(raw)
    jn, jt = struct.unpack_from("<I4s", raw, 12)
    doc = json.loads(raw[20:20 + jn])
    bn, bt = struct.unpack_from("<I4s", raw, 20 + jn)
    assert jt == b"JSON" and bt == b"BIN\x00" and jn % 4 == 0
    binary = raw[28 + jn:28 + jn + bn]
    assert doc["asset"]["version"] == "2.0"
    assert len(doc["buffers"]) == 1 and doc["buffers"][0]["byteLength"] <= bn
    for bv in doc["bufferViews"]:
        assert bv["buffer"] == 0 and bv.get("byteOffset", 0) + bv["byteLength"] <= bn
    sizes = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}
    dtypes = {5126: np.float32, 5125: np.uint32, 5123: np.uint16, 5121: np.uint8}

    def read(i):
        a = doc["accessors"][i]
        bv = doc["bufferViews"][a["bufferView"]]
        k = sizes[a["type"]]
        dt = np.dtype(dtypes[a["componentType"]])
        off = bv.get("byteOffset", 0) + a.get("byteOffset", 0)
        assert bv.get("byteStride", k * dt.itemsize) == k * dt.itemsize
        assert off + a["count"] * k * dt.itemsize <= bv.get("byteOffset", 0) + bv["byteLength"]
        return a, np.frombuffer(binary, dt, a["count"] * k, off).reshape(-1, k)

    n_mat, n_tex = len(doc.get("materials", [])), len(doc.get("textures", []))
    for mesh in doc["meshes"]:
        for prim in mesh["primitives"]:
            a, pos = read(prim["attributes"]["POSITION"])
            assert np.isfinite(pos).all()
            assert np.allclose(a["min"], pos.min(axis=0), atol=1e-5) and np.allclose(a["max"], pos.max(axis=0), atol=1e-5)
            for name, idx in prim["attributes"].items():
                assert doc["accessors"][idx]["count"] == len(pos), name
                # the Khronos validator's BUFFER_VIEW_TARGET_MISSING: vertex data's views say ARRAY_BUFFER
                assert doc["bufferViews"][doc["accessors"][idx]["bufferView"]].get("target") == 34962, name
            if "indices" in prim:
                _, ind = read(prim["indices"])
                assert len(ind) % 3 == 0 and ind.max() < len(pos)
                assert doc["bufferViews"][doc["accessors"][prim["indices"]]["bufferView"]].get("target") == 34963
            assert prim.get("material", 0) < n_mat
    for m in doc.get("materials", []):
        t = m.get("pbrMetallicRoughness", {}).get("baseColorTexture")
        assert t is None or t["index"] < n_tex
    for t in doc.get("textures", []):
        assert t["source"] < len(doc["images"])
    for im in doc.get("images", []):
        assert im["mimeType"] in ("image/png", "image/jpeg") and im["bufferView"] < len(doc["bufferViews"])
    for node in doc["nodes"]:
        assert node.get("mesh", 0) < len(doc["meshes"])
    for i in doc["scenes"][doc.get("scene", 0)]["nodes"]:
        assert i < len(doc["nodes"])
    return doc


def test_the_glb_keeps_the_rules_a_viewer_relies_on(aerie, tmp_path):
    from test_interop import uvtt, write

    out = tmp_path / "s"
    out.mkdir()
    assert aerie("import", write(tmp_path, "room.dd2vtt", uvtt()), "-o", out / "room.toml").returncode == 0
    docs = []
    for scene, glb in ((out / "room.toml", tmp_path / "room.glb"), (SHOWCASE, tmp_path / "show.glb")):
        export(aerie, scene, glb)
        docs.append(check_gltf(glb))
    room, show = docs
    assert len(room["images"]) == 1 and "images" not in show       # the map image, embedded; none without one
    assert len(show["materials"]) >= 10 and all(m["name"] for m in show["materials"])
