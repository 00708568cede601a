"""The renderer: the only package that imports moderngl. It draws the world and the state, never changes them.

Pure numpy parts (meshing, cameras, overlay geometry) live in modules that do not import moderngl:
``mesh``, ``camera``, ``state``, ``geometry``. GL lives in ``context``, ``shaders``, ``renderer``.
"""
