"""Shaders are files in ``shaders/`` (found by :func:`engine.resources.resource_dir`), loaded by name through
:func:`load_program`."""

from __future__ import annotations


from engine.errors import AerieError
from engine.resources import resource_dir

SHADER_DIR = resource_dir("shaders")


def program_names() -> list[str]:
    """Every program: a name with a .vert and a .frag (and optionally a .geom)."""
    return sorted(p.stem for p in SHADER_DIR.glob("*.vert") if (SHADER_DIR / f"{p.stem}.frag").exists())


def source(name: str, stage: str) -> str | None:
    p = SHADER_DIR / f"{name}.{stage}"
    return p.read_text() if p.exists() else None


def with_defines(src: str | None, defines) -> str | None:
    """Insert ``#define NAME VALUE`` lines after the ``#version`` line (compile-time variants: llvmpipe runs both
    sides of a branch on a uniform, so variants are chosen when compiling, not per pixel)."""
    if src is None or not defines:
        return src
    lines = src.split("\n")
    at = 1 if lines and lines[0].startswith("#version") else 0
    extra = [f"#define {k} {v}" for k, v in dict(defines).items()]
    return "\n".join(lines[:at] + extra + lines[at:])


def load_program(ctx, name: str, defines=None):
    vs, fs, gs = source(name, "vert"), source(name, "frag"), source(name, "geom")
    if vs is None or fs is None:
        raise AerieError(f"shader program {name!r}: {SHADER_DIR}/{name}.vert and .frag must both exist")
    return ctx.program(vertex_shader=with_defines(vs, defines), fragment_shader=with_defines(fs, defines),
                       geometry_shader=with_defines(gs, defines))


# Compile-time variants a test compiles besides the plain programs.
VARIANTS = {"terrain": ({"BAKED": 1}, {"BAKED": 1, "FLAT": 1}, {"BAKED": 1, "GROUND_IMAGE": 1}, {"GROUND_IMAGE": 1},
                       {"BAKED": 1, "GROUND_IMAGE": 1, "FLOOR_IMAGES": 1}, {"FLOOR_IMAGES": 1})}
