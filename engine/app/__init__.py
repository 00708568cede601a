"""The interactive window (`aerie play`): a pure controller (controller.py), camera control and picking (numpy),
and the pyglet window that draws through the one renderer (window.py). See docs/window.md."""
