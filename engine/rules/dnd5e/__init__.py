"""The D&D 5e ruleset (DND-01 to DND-05, DND-10 to DND-38, DND-41 to DND-54)."""
