"""The rule catalogue as data, and docs/rules.md generated from it (``aerie rules --markdown``).

Every rule lives in the catalogue of the layer that resolves it: ``engine/rules/aerial_catalogue.py`` (AIR, the
shared aerial layer) and each registered ruleset's ``catalogue`` module (``RulesetInfo.catalogue``). An entry says
the rule in short, its status, the decision taken, where it is resolved and the tests that fail when it breaks;
this module resolves "where" into ``module:function`` (only names that exist), lists the scene option keys the
decision names, and renders the page. ``tests/structure/test_rules_doc.py`` fails when the committed page differs from the
generated one or names a test that does not exist.
"""

from __future__ import annotations

import importlib
import sys
import re
from engine.rules import aerial_catalogue, aerial_quotes, registry
import inspect
from engine.rules.actions import describe
from engine.rules.ruleset import get_ruleset

#: module abbreviations used in the catalogues' ``where`` (every ruleset adds its own: ``RulesetInfo.extra["where"]``)
SHARED_WHERE = {"core": "engine.rules.core", "aerial": "engine.rules.aerial", "runner": "engine.rules.runner"}
#: scene [options] keys the aerial layer reads
AERIAL_OPTIONS = ("diagonal", "climb_m", "descend_m", "fall_damage_rounding", "fall_cap_percent", "upkeep",
                  "air_speed", "cover_thresholds", "rolls")

PREAMBLE = '# Rules reference\n\nEvery rule of the three source documents, by its catalogue ID (the rule catalogue `CATALOGUE.md`: AIR-* from\n`000_d3146b5d9a01d6bb.txt`, \"Combate Aéreo\"; BAT-* from `001_9a1f9b532ead407c.txt`, \"Combate\"; DND-* from\n`004_5d8774dfa45f46a9.txt`, \"D&D 5e Mechanika\"), with what Aerie does about it, where, and the test\nthat would fail if it broke. Status: **built** (resolved by the program, tested), **planned** (not yet implemented;\nthe issue that will build it is named).\n\nThe rules core (issue 3) and the baton ruleset (issue 6) record their detailed decisions in\n[`rules-core.md`](rules-core.md) and [`baton.md`](baton.md); this table is the index.\n\n## Decisions on the world and line of sight\n\n- **Layers and positions (AIR-02).** "A camada 0 é o chão: quem voa até 1m acima do chão está na camada 1". Aerie\n  uses the altitude of the feet: layer 0 stands on the ground, layer 1 is up to 1 m above it. A character standing\n  on a roof whose top voxel is z = 5 is at layer 6 (the documents count from the ground; the roof is the ground\n  there) — GAP "the layer of a character standing on a roof".\n- **Bodies.** Footprint / body height / eye height by size: tiny 1 cell, 1 layer, 0.5 m; small 1, 1, 0.9 m; medium\n  1, 2, 1.6 m; large 2, 3, 2.6 m; huge 3, 4, 3.6 m; gargantuan 4, 6, 5.5 m. Scenes may set `height_layers` and `eye_m`.\n- **Sight lines (AIR-13, AIR-16).** From the attacker\'s eye (centre of its footprint, `layer + eye_m`) to 36 points\n  inside the target\'s body: a 3 × 3 grid across it (offsets −0.3, 0, +0.3 of its footprint width from the centre) at\n  4 heights (`layer + h × 0.1, 0.37, 0.63, 0.9`). The floor under either character\'s own feet never counts (its\n  support voxels are treated as clear): a character at a roof\'s edge is not covered by its own roof; a roof edge\n  between the two is real cover.\n- **Cover thresholds** (blocked fraction f of those 36 lines; a scene may override with\n  `[options] cover_thresholds`):\n\n{cover_table}\n\n  Why: "um obstáculo que fica abaixo da linha não protege, e um que corta a linha dá cobertura parcial (ou total, se\n  for uma parede)" — an obstacle that cuts a few lines at the very edge of a body is not cover (below 25%); one\n  that cuts every line is total. The document\'s examples (AIR-14) come out as it says: half / partial behind a\n  1 m wall from the ground, none from high above, total behind a wall taller than the flyer.\n- **Visible (AIR-15, DND-26)**: at least one of the 36 lines is clear.\n- **Glass and water** do not block sight; foliage does (and is not solid: flyers may enter a canopy).\n\n## Decisions on the gaps the catalogue names\n\nEach is quoted and decided in the ruleset\'s own page; the other reading is a scene `[options]` key.\n\n| gap (CATALOGUE) | decision | where | option |\n|---|---|---|---|\n| What "Graze" is | 5e: any hit (not a failed save) triggers the fall roll; baton: any successful attack | rules-core.md, baton.md | `fall_roll_on` |\n| The cell size that makes 4 m "double the horizontal" | one cell = `cell_m` (1.5 m); diagonals cost one cell as in 5e | rules-core.md | `diagonal = "5e" / "euclidean" / "5-10-5"` |\n| Rounding of 5% of max HP | rounded down (a 1-layer fall deals 0) | rules-core.md | `fall_damage_rounding`, `fall_cap_percent` |\n| Standing on a roof | a roof is ground: layers are counted from the highest support under the footprint; the layer of a character on a roof is the altitude of its feet (top voxel z = 5 → layer 6) | above, rules-core.md | — |\n| AIR-12 and BAT-47 / DND falls | 5e: AIR-12 is the fall damage. Baton: a fall to the ground is a BAT-47 wound (1 per 1.5 m, halved by Agility), Prone as AIR-12 says | baton.md | `air12_vs_bat47 = "bat47" / "air12"` |\n| AIR-17 against BAT-44 / BAT-42 | height gives no bonus; a mounted rider keeps BAT-42\'s elevated-position chance (its position, not measured height) | baton.md | `air17_overrides_elevation` |\n\nThis page is generated from the registry (`aerie rules --markdown > docs/rules.md`; `tests/structure/test_rules_doc.py`\nfails when the committed page differs): each ruleset\'s catalogue (`engine/rules/<ruleset>/catalogue.py`, the aerial\nrules in `engine/rules/aerial_catalogue.py`). The `where` column names `module:function` where the function exists\n(checked when the page is generated), else the text as written; `options` are the scene `[options]` keys the\ndecision names.\n\n'


def _catalogues():
    """[(ruleset info or None, catalogue module)]: the aerial layer's first, then each ruleset's."""

    out = [(None, aerial_catalogue)]
    for info in registry.infos():
        mods = info.extra.get("catalogue") or []
        for mod in [mods] if isinstance(mods, str) else mods:
            out.append((info, importlib.import_module(mod)))
    return out


def quotes() -> dict[str, str]:
    """{rule ID: the source document's own words it implements}: the aerial layer's (``aerial_quotes``) and each
    ruleset's (``RulesetInfo.extra["quotes"]``, a module with ``QUOTES``), kept in the package, so that the page
    stands alone."""

    out = dict(aerial_quotes.QUOTES)
    for info in registry.infos():
        mod = info.extra.get("quotes")
        if mod:
            out.update(importlib.import_module(mod).QUOTES)
    return out


def _id_key(rid: str):
    m = re.match(r"([A-Z]+)-(F?)(\d+)", rid)
    return (m.group(1), m.group(2), int(m.group(3))) if m else (rid, "", 0)


def all_rules() -> list[dict]:
    seen: dict = {}
    for info, mod in _catalogues():
        for r in mod.RULES:
            seen.setdefault(r["id"], dict(r, _info=info))
    return [seen[k] for k in sorted(seen, key=_id_key)]


def _module_file(modname: str) -> str:
    return modname.replace(".", "/") + ".py"


def _lookup(modname: str, cls, name: str):
    """'module.py:function' / 'module.py:Class.method' when ``name`` exists there, else None."""
    try:
        m = importlib.import_module(modname)
    except ImportError:
        return None
    if cls is not None:
        unit = re.match(r"_(check|apply)_(\w+)$", name)
        if unit and unit.group(2) in getattr(cls, "ACTIONS", {}):      # an action's check / apply: its unit
            u = cls.ACTIONS[unit.group(2)]
            return f"{_module_file(u.__module__)}:{u.__name__}.{unit.group(1)}"
        if hasattr(cls, name):
            owner = next((c for c in cls.__mro__ if name in c.__dict__), cls)
            return f"{_module_file(owner.__module__)}:{owner.__name__}.{name}"
        package = cls.__module__.rpartition(".")[0]
        for c in cls.__mro__:          # a function of the module of the ruleset class or of a base of it
            cm = sys.modules.get(c.__module__)
            if cm is not None and c.__module__.startswith(package + ".") and callable(vars(cm).get(name)):
                return f"{_module_file(c.__module__)}:{name}"
    if name in vars(m):
        return f"{_module_file(modname)}:{name}"
    return None


def resolve_where(text: str, info) -> list[str]:
    """The catalogue's "where" (``aerial `reach`, `explain_unreachable`; 5e `_attack_plan```) as a list of
    ``module.py:function`` refs (names that exist) and, for the rest, the words as written."""

    aliases = dict(SHARED_WHERE)
    classes = {}
    for i in registry.infos():
        aliases.update(i.extra.get("where", {}))
        rc = i.ruleset_class()
        classes[rc.__module__] = rc
    if info is not None:
        aliases.update(info.extra.get("where", {}))
    default_mod = info.ruleset_class().__module__ if info is not None else None
    out = []
    for clause in re.split(r";\s*", text):
        mod = default_mod
        for piece in re.split(r",\s*(?![^()]*\))", clause):
            piece = piece.strip()
            if not piece:
                continue
            m = re.match(r"^([^`]*?)\s*((?:`[^`]+`(?:\s*\S*?)?\s*)*)$", piece)
            prefix, names = (m.group(1).strip(), m.group(2)) if m else (piece, "")
            if prefix:
                if prefix in aliases:
                    mod = aliases[prefix]
                elif re.fullmatch(r"[\w/]+\.py", prefix):
                    mod = prefix[:-3].replace("/", ".")
                    if not names:
                        out.append(prefix)
                        continue
                else:
                    out.append(piece)
                    continue
            found = re.findall(r"`([^`]+)`", names)
            if not found:
                if piece:
                    out.append(piece)
                continue
            for name in found:
                if re.fullmatch(r"[\w/]+\.py", name):           # `<ruleset>/dice.py`
                    path = name if name.startswith("engine/") else f"engine/rules/{name}"
                    mod = path[:-3].replace("/", ".")
                    out.append(path)
                    continue
                base = re.match(r"[A-Za-z_]\w*", name)
                ref = _lookup(mod, classes.get(mod), base.group(0)) if (base and mod) else None
                out.append(ref or f"`{name}`")
    return out


_OPTION_RULES: dict | None = None


def _option_rules() -> dict:
    """{rule ID: option keys} from the rule IDs in each ruleset's option declarations: its ``OPTION_SPECS`` help
    texts, and the comments of a ``DEFAULT_OPTIONS`` written out in its class."""
    global _OPTION_RULES
    if _OPTION_RULES is None:


        out: dict = {}
        for info in registry.infos():
            cls = info.ruleset_class()
            src = inspect.getsource(cls)
            i = src.find("DEFAULT_OPTIONS")
            body = src[i:src.find("\n    }", i)] if i >= 0 else ""
            for line in body.splitlines():
                keys = re.findall(r'"([a-z_0-9]+)":', line)
                ids = re.findall(r"\b(?:[A-Z]{2,5})-F?\d+\b", line.partition("#")[2])
                for rid in ids:
                    out.setdefault(rid, set()).update(k for k in keys if k in cls.DEFAULT_OPTIONS)
            for k, spec in (cls.OPTION_SPECS or {}).items():
                if k in AERIAL_OPTIONS:
                    continue              # the aerial keys' rules are the aerial catalogue's (AERIAL_OPTIONS)
                for rid in re.findall(r"\b(?:[A-Z]{2,5})-F?\d+\b", spec.help):
                    out.setdefault(rid, set()).add(k)
        _OPTION_RULES = out
    return _OPTION_RULES


def option_keys(rule: dict) -> list[str]:
    """The scene option keys of a rule: named in its decision, or tagged with its ID in ``DEFAULT_OPTIONS``."""

    known = set(AERIAL_OPTIONS)
    for info in registry.infos():
        known |= set(info.ruleset_class().DEFAULT_OPTIONS)
    text = rule.get("decision", "") + " " + rule.get("where", "")
    words = set(re.findall(r"`([a-z_0-9]+)(?: = [^`]*)?`", text)) | set(re.findall(r"\b([a-z][a-z_0-9]+) = ", text))
    words |= _option_rules().get(rule["id"], set())
    return sorted(words & known)


def _cover_table() -> str:

    rows = ["  | ruleset | cover levels by the blocked fraction f of the 36 sight lines |", "  |---|---|"]
    for info in registry.infos():
        if not info.extra.get("catalogue"):
            continue             # a ruleset without a catalogue (an add-on, a test's) has no rows here either
        lv = info.cover_levels
        parts = []
        for i, (name, start) in enumerate(lv):
            end = lv[i + 1][1] if i + 1 < len(lv) else None
            if end is None:
                parts.append(f"{name}: f = 1" if start == 1.0 else f"{name}: f ≥ {start:g}")
            elif start == 0.0:
                parts.append(f"{name}: f < {end:g}")
            else:
                parts.append(f"{name}: {start:g} ≤ f < {end:g}")
        rows.append(f"  | {info.name} ({info.cover_rule}) | " + "; ".join(parts) + " |")
    return "\n".join(rows)


def _cell(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def markdown() -> str:
    lines = [PREAMBLE.replace("{cover_table}", _cover_table()).rstrip("\n"), "", "## Every ID", "",
             "The document's words are quoted as the source document writes them (Portuguese for AIR and BAT, Polish "
             "for DND; ` … ` marks words left out); the rule column is their English gloss, the catalogue's.", "",
             "| ID | rule | the document's words | status | decision | where (module:function) | tests | options |",
             "|---|---|---|---|---|---|---|---|"]
    said = quotes()
    for r in all_rules():
        where = ", ".join(f"`{w}`" if ":" in w and not w.startswith("`") else w
                          for w in resolve_where(r.get("where", ""), r["_info"])) if r.get("where") else ""
        tests = ", ".join(f"`{t}`" for t in r.get("tests", []))
        opts = ", ".join(f"`{o}`" for o in option_keys(r))
        quote = f'"{said[r["id"]]}"' if r["id"] in said else ""
        lines.append(f"| {r['id']} | {_cell(r['rule'])} | {_cell(quote)} | {_cell(r['status'])} | {_cell(r.get('decision', ''))} | "
                     f"{_cell(where)} | {_cell(tests)} | {opts} |")
    return "\n".join(lines) + "\n"


def actions_text(name: str | None = None) -> str:
    """``aerie rules --actions [RULESET]``: each ruleset's actions and their parameters, one line an action, derived
    from its registered action classes (``engine.rules.actions.describe``)."""

    names = [registry.info(name).name] if name else registry.names()
    out = []
    for n in names:
        out += [f"{n}:"] + [f"  {line}" for line in describe(get_ruleset(n))]
    return "\n".join(out) + "\n"


def cmd_rules(args) -> int:

    if getattr(args, "markdown", False):
        sys.stdout.write(markdown())
        return 0
    if getattr(args, "actions", None) is not None:
        sys.stdout.write(actions_text(args.actions or None))
        return 0
    for r in all_rules():
        sys.stdout.write(f"{r['id']:8} {r['status'][:7]:7} {r['rule'][:90]}\n")
    return 0
