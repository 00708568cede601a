"""The rules core. Pure: never imports pyglet or moderngl (tests/structure/test_purity.py checks it)."""
