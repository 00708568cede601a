"""The shipped character models: valid glTF 2.0 binaries (the spec's structural rules checked here, then a trimesh
round trip), +Y up, front towards +Z, in metres, and exactly the geometry make_models builds."""

import json
import struct
import sys
from pathlib import Path

import numpy as np
import pytest
import trimesh

from engine.resources import resource_dir

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))     # the developer's model builder
from make_models import MODELS, TO_GLTF, build  # noqa: E402

pytestmark = pytest.mark.unit

MODEL_DIR = resource_dir("assets") / "models"
# componentType -> (numpy dtype); type -> components (glTF 2.0, 3.6.2)
COMPONENT = {5120: np.int8, 5121: np.uint8, 5122: np.int16, 5123: np.uint16, 5125: np.uint32, 5126: np.float32}
WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}


def _glb(path):
    data = path.read_bytes()
    magic, version, length = struct.unpack_from("<4sII", data, 0)
    assert (magic, version, length) == (b"glTF", 2, len(data)), path.name
    jlen, jtype = struct.unpack_from("<I4s", data, 12)
    assert jtype == b"JSON" and jlen % 4 == 0
    doc = json.loads(data[20:20 + jlen])
    blen, btype = struct.unpack_from("<I4s", data, 20 + jlen)
    assert btype == b"BIN\x00" and 28 + jlen + blen == len(data)
    return doc, data[28 + jlen:28 + jlen + blen]


def _accessor(doc, binary, i):
    a = doc["accessors"][i]
    view = doc["bufferViews"][a["bufferView"]]
    dtype, width = COMPONENT[a["componentType"]], WIDTH[a["type"]]
    start = view.get("byteOffset", 0) + a.get("byteOffset", 0)
    nbytes = a["count"] * width * np.dtype(dtype).itemsize
    assert start + nbytes <= view.get("byteOffset", 0) + view["byteLength"] <= len(binary)
    return a, np.frombuffer(binary, dtype, a["count"] * width, start).reshape(a["count"], width)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_model_is_valid_gltf2(name):
    doc, binary = _glb(MODEL_DIR / f"{name}.glb")
    assert doc["asset"]["version"] == "2.0"
    assert doc["buffers"][0]["byteLength"] == len(binary)
    for mesh in doc["meshes"]:
        for prim in mesh["primitives"]:
            assert prim.get("mode", 4) == 4                                  # triangles
            pa, pos = _accessor(doc, binary, prim["attributes"]["POSITION"])
            assert pa["type"] == "VEC3" and pa["componentType"] == 5126
            # POSITION must carry min and max (3.6.2.5), and they must be the data's
            assert np.allclose(pa["min"], pos.min(axis=0)) and np.allclose(pa["max"], pos.max(axis=0))
            ia, idx = _accessor(doc, binary, prim["indices"])
            assert ia["type"] == "SCALAR" and ia["count"] % 3 == 0 and idx.max() < pa["count"]
            if "COLOR_0" in prim["attributes"]:
                ca, _ = _accessor(doc, binary, prim["attributes"]["COLOR_0"])
                assert ca["type"] in ("VEC3", "VEC4") and (ca["componentType"] == 5126 or ca.get("normalized"))


@pytest.mark.parametrize("name", sorted(MODELS))
def test_model_round_trip_is_y_up_metres_and_the_built_geometry(name):
    loaded = trimesh.load(str(MODEL_DIR / f"{name}.glb"), force="mesh")
    built = build(name)
    expect = trimesh.transform_points(built.vertices, TO_GLTF)
    assert len(loaded.faces) == len(built.faces)
    assert np.allclose(np.sort(loaded.vertices, axis=0), np.sort(expect, axis=0), atol=1e-5)
    lo, hi = loaded.bounds
    if name != "wings":                          # feet at the origin, standing up along +Y, 1.6-2.8 m tall
        assert abs(lo[1]) < 1e-6 and 1.6 < hi[1] < 2.8
        assert hi[1] > hi[2] - lo[2] or name == "wyvern_rider"   # taller than deep, but a wyvern is long
    # triangle by triangle, corners in the same order: the winding (which side is the front) survives, as the
    # axis change is a rotation, not a mirror
    assert abs(np.linalg.det(TO_GLTF[:3, :3]) - 1) < 1e-12
    tri = trimesh.transform_points(built.triangles.reshape(-1, 3), TO_GLTF).reshape(-1, 3, 3)
    assert np.allclose(loaded.triangles, tri, atol=1e-5)


def test_front_faces_plus_z():
    """The knight's visor slit is on the front of the helm: glTF puts an asset's front at +Z."""
    loaded = trimesh.load(str(MODEL_DIR / "knight.glb"), force="mesh")
    head = loaded.vertices[loaded.vertices[:, 1] > 1.6]
    assert head[:, 2].max() > -head[:, 2].min() + 0.01   # the helm reaches further forward (+Z) than back


def test_the_renderer_turns_them_back_to_the_world_axes():
    from engine.render.renderer import GLTF_TO_WORLD

    assert np.allclose(GLTF_TO_WORLD @ TO_GLTF, np.eye(4))
    loaded = trimesh.load(str(MODEL_DIR / "archer.glb"), force="mesh")
    loaded.apply_transform(GLTF_TO_WORLD)
    assert np.allclose(np.sort(loaded.vertices, axis=0), np.sort(build("archer").vertices, axis=0), atol=1e-5)
