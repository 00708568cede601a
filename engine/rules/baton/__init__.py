"""The baton ruleset ("Combate", BAT-00 to BAT-64): see docs/baton.md."""
