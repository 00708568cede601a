"""Aerie: a 3D sandbox for aerial tabletop combat."""

__version__ = "0.1.0"
