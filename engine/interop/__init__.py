"""Bring your maps: Universal VTT and Foundry VTT scenes in (``aerie import``), glTF 2.0 out (``aerie export``).

Pure numpy, Pillow and trimesh; no GL. See docs/interop.md.
"""
