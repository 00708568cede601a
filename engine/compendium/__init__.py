"""``aerie compendium SECTION``: the SRD's reference data as JSON, one module per section.

Each section module has ``add_arguments(parser)`` and ``run(args) -> int``; cli.py builds one sub-command per
entry of ``SECTIONS`` (imported only when it runs)."""

from __future__ import annotations

SECTIONS = {"spells": "engine.compendium.spells"}
