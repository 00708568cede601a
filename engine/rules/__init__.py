"""The rules core. Pure: never imports pyglet or moderngl (tests/test_purity.py checks it)."""
