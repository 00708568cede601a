"""The baton ruleset ("Combate", BAT-00 to BAT-64): see docs/baton.md."""

from engine.rules.registry import RulesetInfo

RULESET = RulesetInfo(
    name="baton",
    title="Baton (Combate)",
    ruleset="engine.rules.baton.ruleset:Baton",
    character_check="engine.rules.baton.schema:check_character",
    schema="engine.rules.baton.schema:BatonStats",
    cover_levels=(("none", 0.0), ("partial", 0.25), ("total", 1.0)),
    cover_rule="BAT-40/BAT-41",
    doc="docs/baton.md",
    extra={"catalogue": "engine.rules.baton.catalogue",
           "quotes": "engine.rules.baton.quotes",     # the document's words of each BAT rule
           # the catalogue's "where" prefixes: `name`s after one are looked up in that module
           "where": {"baton": "engine.rules.baton.ruleset",
                     **{f"baton {m.replace('_', ' ')}" if m != "baton_order" else "baton order": f"engine.rules.baton.{m}"
                        for m in ("baton_order", "choices", "combat", "health", "mounts", "setup", "skills", "slots")}}},
)
