"""Shaders are files in ``shaders/`` at the repository root, loaded by name through :func:`load_program`."""

from __future__ import annotations

from pathlib import Path

from engine.errors import AerieError

SHADER_DIR = Path(__file__).resolve().parents[2] / "shaders"


def program_names() -> list[str]:
    """Every program: a name with a .vert and a .frag (and optionally a .geom)."""
    return sorted(p.stem for p in SHADER_DIR.glob("*.vert") if (SHADER_DIR / f"{p.stem}.frag").exists())


def source(name: str, stage: str) -> str | None:
    p = SHADER_DIR / f"{name}.{stage}"
    return p.read_text() if p.exists() else None


def load_program(ctx, name: str):
    vs, fs, gs = source(name, "vert"), source(name, "frag"), source(name, "geom")
    if vs is None or fs is None:
        raise AerieError(f"shader program {name!r}: {SHADER_DIR}/{name}.vert and .frag must both exist")
    return ctx.program(vertex_shader=vs, fragment_shader=fs, geometry_shader=gs)
