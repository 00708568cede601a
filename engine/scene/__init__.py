"""Scenes, a layer above the rules: a scene file's world (engine/world) with its characters, options, script and
expectations, validated by the registry's ruleset without starting a game (engine/scene/load.py)."""

from engine.scene.load import (SCENE_VERSION, Character, CharacterCommon, Scene, SceneSpec, load_scene, parse_scene,
                               scene_from_data, scene_inputs)
from engine.world.scene import SIZES, supported

__all__ = ["SCENE_VERSION", "SIZES", "Character", "CharacterCommon", "Scene", "SceneSpec", "load_scene", "parse_scene",
           "scene_from_data", "scene_inputs", "supported"]
