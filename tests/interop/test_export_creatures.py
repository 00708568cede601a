"""`aerie export` draws an SRD creature as the renderer does (engine/render/creatures.drawn_look): a young red
dragon is its family's mesh, red, at its size; a scene's own model and a shipped kind keep theirs."""

import numpy as np
import pytest

from rules_helpers import make_scene

pytestmark = pytest.mark.unit

CHARS = [
    {"id": "dragon", "srd": "young-red-dragon", "side": "enemies", "flying": True, "at": [1, 1, 3]},
    {"id": "stand_in", "srd": "young-red-dragon", "model": "generic", "side": "enemies", "flying": True,
     "at": [5, 5, 3]},
    {"id": "archer", "kind": "archer", "side": "players", "at": [8, 8, 0], "max_hp": 11, "ac": 13,
     "abilities": {"dex": 16}, "weapons": ["longbow"]},
]


def test_export_draws_the_srd_creature():
    from engine.interop.gltf import build_gltf_scene

    out, info = build_gltf_scene(make_scene(CHARS, "export.toml", size=(10, 10, 8)))
    assert info["characters"] == 3
    dragon, stand_in = out.geometry["character_dragon"], out.geometry["character_stand_in"]
    assert len(dragon.faces) > 2 * len(stand_in.faces)     # the dragon's mesh, not the generic cone with wings
    own = dragon.visual.vertex_colors
    own = own[own[:, 3] == 255, :3].astype(int)
    r, g, b = own.mean(axis=0)
    assert r > g + 40 and r > b + 40
    lo, hi = dragon.bounds                                  # +Y up: the body 3 layers high, feet at layer 3
    assert 3.0 <= lo[1] and hi[1] < 3.0 + 2.85 * 1.4
    assert "character_archer_wings" not in out.geometry and "character_dragon_wings" not in out.geometry
    assert np.isfinite(dragon.vertices).all()
