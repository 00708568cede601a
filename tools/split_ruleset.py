"""One-off refactoring tool (issue 10), already applied (tools/split_dnd5e.spec, tools/split_baton.spec on the
monolithic ruleset.py of b33a015; kept to show how the split was made): split a ruleset class into action units
and mixin modules, mechanically.

    python tools/split_ruleset.py engine/rules/dnd5e/ruleset.py Dnd5e

* every pair ``_check_X`` / ``_apply_X`` becomes one unit class ``X`` (``check(rs, session, a, act)``,
  ``apply(rs, session, a, act, plan)``; ``self`` renamed ``rs``) in ``<pkg>/actions/<module>.py``, grouped in
  source order into modules of at most ~500 lines; ``self._check_X(`` calls become ``self.ACTIONS["X"].check(self, ``;
* the module-level names before the class move to ``<pkg>/common.py``;
* the remaining methods are cut, in source order, into mixin classes of at most ~35 methods / ~500 lines in
  ``<pkg>/part_*.py``; the ruleset class keeps its attributes, ``__init__`` and the first chunk, and inherits the
  others. Imports of every new module are the original ones, pruned to the names it uses.
Behaviour is unchanged by construction (the same functions, the same MRO); tools/parity.py checks it.
"""

from __future__ import annotations

import ast
import io
import re
import sys
import tokenize
from pathlib import Path

MAX_LINES, MAX_METHODS = 480, 34


def rename_self(src: str, new: str = "rs") -> str:
    out = []
    toks = list(tokenize.generate_tokens(io.StringIO(src).readline))
    for t in toks:
        if t.type == tokenize.NAME and t.string == "self":
            t = t._replace(string=new)
        out.append(t)
    return tokenize.untokenize(out)


def redirect_actions(src: str, names: set[str]) -> str:
    def sub(m):
        who, kind, name = m.group(1), m.group(2), m.group(3)
        if name not in names:
            return m.group(0)
        return f'{who}.ACTIONS["{name}"].{kind}({who}, '
    return re.sub(r"\b(self|rs)\._(check|apply)_(\w+)\(", sub, src)


def camel(name: str) -> str:
    return "".join(p.capitalize() for p in name.split("_")) or "Unit"


def used_imports(import_lines: list[str], body: str) -> str:
    """Keep, from the original import block, the names ``body`` uses."""
    tree = ast.parse("\n".join(import_lines))
    words = set(re.findall(r"\b\w+\b", body))
    out = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            if node.module == "__future__":
                out.append("from __future__ import annotations")
                continue
            keep = [a for a in node.names if (a.asname or a.name) in words]
            if keep:
                names = ", ".join(a.name + (f" as {a.asname}" if a.asname else "") for a in keep)
                line = f"from {node.module} import {names}"
                if len(line) > 116:
                    line = f"from {node.module} import ({names})"
                    # wrap
                    parts, cur = [], f"from {node.module} import ("
                    for n in names.split(", "):
                        if len(cur) + len(n) + 2 > 116:
                            parts.append(cur.rstrip())
                            cur = " " * (len(f"from {node.module} import (")) 
                        cur += n + ", "
                    line = "\n".join(parts + [cur.rstrip(", ") + ")"])
                out.append(line)
        elif isinstance(node, ast.Import):
            keep = [a for a in node.names if (a.asname or a.name).split(".")[0] in words]
            for a in keep:
                out.append(f"import {a.name}" + (f" as {a.asname}" if a.asname else ""))
    return "\n".join(out)


def main(path: str, clsname: str, spec: dict | None = None) -> None:
    """``spec``: {"actions": {module: [action, ...]}, "parts": {module: (ClassName, doc, [method, ...])}};
    anything not named stays where the chunking puts it."""
    spec = spec or {}
    p = Path(path)
    text = p.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    tree = ast.parse(text)
    pkg_dir = p.parent
    pkg = ".".join(pkg_dir.parts)
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == clsname)
    doc_end = tree.body[0].end_lineno if isinstance(tree.body[0], ast.Expr) else 0
    imports = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    import_lines = ["".join(lines[n.lineno - 1:n.end_lineno]) for n in imports]
    first_after_imports = max(n.end_lineno for n in imports)
    common_src = "".join(lines[first_after_imports:cls.lineno - 1 - len(cls.decorator_list)]).strip("\n")
    common_names = []
    for n in tree.body:
        if n.lineno > first_after_imports and n.lineno < cls.lineno:
            if isinstance(n, (ast.FunctionDef, ast.ClassDef)):
                common_names.append(n.name)
            elif isinstance(n, ast.Assign):
                common_names += [t.id for t in n.targets if isinstance(t, ast.Name)]

    # class members with their source spans (each method takes the comment lines above it)
    members = []
    prev_end = cls.body[0].lineno - 1 if not (isinstance(cls.body[0], ast.Expr)) else cls.body[0].end_lineno
    late_attrs = []
    for node in cls.body:
        if isinstance(node, ast.FunctionDef):
            start = prev_end + 1
            members.append((node.name, start, node.end_lineno, node))
            prev_end = node.end_lineno
        else:
            if members:       # a class attribute between methods: it joins the class head
                late_attrs.append("".join(lines[prev_end:node.end_lineno]).strip("\n") + "\n")
            prev_end = node.end_lineno
    class_head = "".join(lines[cls.lineno - 1:members[0][1] - 1]).rstrip("\n") + "\n" + "".join(late_attrs) + "\n"
    tail = "".join(lines[cls.end_lineno:])

    def src_of(m):
        return "".join(lines[m[1] - 1:m[2]])

    names = {m[0] for m in members}
    # an action has an ``_apply_X`` (its ``_check_X`` joins it); a lone ``_check_X`` is a helper (``_check_over``)
    action_set = {n[len("_apply_"):] for n in names if n.startswith("_apply_")}
    is_unit = lambda n: (n.startswith("_apply_") or (n.startswith("_check_") and n[len("_check_"):] in action_set))
    for m in members:
        if "super()" in src_of(m) and m[0] != "__init__":
            raise SystemExit(f"{m[0]} uses super()")

    # -- action units, in source order
    order = []
    for m in members:
        for pre in ("_check_", "_apply_"):
            if is_unit(m[0]) and m[0].startswith(pre) and m[0][len(pre):] not in order:
                order.append(m[0][len(pre):])
    by_name = {m[0]: m for m in members}
    units = []
    for a in order:
        parts = []
        for kind in ("check", "apply"):
            m = by_name.get(f"_{kind}_{a}")
            if m is None:
                continue
            s = src_of(m)
            s = re.sub(rf"def _{kind}_{a}\(self", f"def {kind}(rs", s, count=1)
            s = rename_self(s)
            s = redirect_actions(s, action_set)
            s = re.sub(r"^(\s*)def ", r"\1@staticmethod\n\1def ", s, count=1, flags=re.M)
            parts.append(s.rstrip("\n") + "\n")
        body = f"class {camel(a)}:\n    name = \"{a}\"\n\n" + "\n".join(parts)
        units.append((a, body))
    chunks, cur, n = [], [], 0
    if spec.get("actions"):
        where = {a: m for m, lst in spec["actions"].items() for a in lst}
        missing = [a for a, _ in units if a not in where]
        if missing:
            raise SystemExit(f"actions not placed: {missing}")
        chunk_names = list(spec["actions"])
        chunks = [[(a, b) for a, b in units if where[a] == m] for m in chunk_names]
        units_left = []
    else:
        chunk_names = None
        units_left = units
    for a, body in units_left:
        k = body.count("\n")
        if cur and n + k > MAX_LINES:
            chunks.append(cur)
            cur, n = [], 0
        cur.append((a, body))
        n += k + 3
    if cur:
        chunks.append(cur)
    if chunk_names is None:
        chunk_names = [c[0][0] for c in chunks]
    (pkg_dir / "actions").mkdir(exist_ok=True)
    unit_imports = []
    all_import_lines = import_lines + [f"from {pkg}.common import {', '.join(common_names)}"]
    for modname, chunk in zip(chunk_names, chunks):
        body = "\n\n".join(b for _, b in chunk)
        doc = (f'"""{clsname} actions {", ".join(a for a, _ in chunk)}: each one unit (``check`` -> plan, '
               f'``apply``),\ndispatched by ``{clsname}.ACTIONS``. ``rs`` is the ruleset."""\n\n')
        out = doc + used_imports(all_import_lines, body) + "\n\n\n" + body
        (pkg_dir / "actions" / f"{modname}.py").write_text(out.rstrip("\n") + "\n", encoding="utf-8")
        unit_imports.append(f"from {pkg}.actions.{modname} import {', '.join(camel(a) for a, _ in chunk)}")
    (pkg_dir / "actions" / "__init__.py").write_text(f'"""The {clsname} actions, one unit each."""\n', encoding="utf-8")

    # -- the rest: mixins
    rest = [m for m in members if not is_unit(m[0])]
    keep_first = [m for m in rest if m[0] == "__init__"]
    others = [m for m in rest if m[0] != "__init__"]
    groups, cur, n = [], [], 0
    if spec.get("parts"):
        placed = {meth: mod for mod, (_, _, lst) in spec["parts"].items() for meth in lst}
        unknown = sorted(set(placed) - {m[0] for m in others})
        if unknown:
            raise SystemExit(f"no such methods: {unknown}")
        main_g = [(m, redirect_actions(src_of(m), action_set)) for m in others if m[0] not in placed]
        part_gs = [(mod, cn, doc, [(m, redirect_actions(src_of(m), action_set)) for m in others if placed.get(m[0]) == mod])
                   for mod, (cn, doc, _) in spec["parts"].items()]
        others = []
    for m in others:
        s = redirect_actions(src_of(m), action_set)
        k = s.count("\n")
        if cur and (n + k > MAX_LINES or len(cur) >= MAX_METHODS):
            groups.append(cur)
            cur, n = [], 0
        cur.append((m, s))
        n += k
    if cur:
        groups.append(cur)
    if spec.get("parts"):
        main_group = main_g
        mixin_groups = part_gs
    else:
        main_group = groups[0]
        mixin_groups = [(f"part{gi}", f"_{clsname}Part{gi}", f"Part {gi} of the {clsname} ruleset's methods", g)
                        for gi, g in enumerate(groups[1:], 1)]
    mixin_names = []
    for mname, cname, doc, g in mixin_groups:
        body = (f"class {cname}:\n    \"\"\"{doc} (a mixin of {clsname}: ``self`` is the ruleset).\"\"\"\n\n"
                + "".join(s for _, s in g).lstrip("\n"))
        out = (f'"""{doc}."""\n\n' + used_imports(all_import_lines, body) + "\n\n\n" + body)
        (pkg_dir / f"{mname}.py").write_text(out.rstrip("\n") + "\n", encoding="utf-8")
        mixin_names.append((mname, cname))

    # -- common.py
    common = (f'"""Module-level names of the {clsname} ruleset (shared by its ruleset, parts and actions)."""\n\n'
              + used_imports(import_lines, common_src) + "\n\n\n" + common_src + "\n")
    (pkg_dir / "common.py").write_text(common, encoding="utf-8")

    # -- the ruleset module
    head = "".join(lines[:first_after_imports])
    new_head_imports = head + f"from {pkg}.common import {', '.join(common_names)}  # noqa: F401\n"
    new_head_imports += "".join(f"from {pkg}.{m} import {c}\n" for m, c in mixin_names)
    new_head_imports += "\n".join(unit_imports) + "\n"
    bases = re.search(rf"class {clsname}\((.*?)\):", class_head).group(1)
    class_head = class_head.replace(f"class {clsname}({bases}):",
                                    f"class {clsname}({', '.join(c for _, c in mixin_names)}, {bases}):", 1)
    body = "".join(redirect_actions(src_of(m), action_set) for m in keep_first) + "".join(s for _, s in main_group)
    table = (f"\n\n#: the action table: name -> unit (``check(rs, session, actor, action) -> plan``, "
             f"``apply(rs, session, actor, action, plan)``)\n{clsname}.ACTIONS = {{\n" +
             "".join(f'    "{a}": {camel(a)},\n' for a in order) + "}\n")
    out = new_head_imports + "\n\n" + class_head + body + tail.rstrip("\n") + "\n" + table
    p.write_text(out, encoding="utf-8")
    print(f"{len(units)} action units in {len(chunks)} modules; {len(mixin_groups)} mixins; main class "
          f"{len(keep_first) + len(main_group)} methods; mixins " + ", ".join(f"{c}: {len(g)}" for _, c, _, g in mixin_groups))


if __name__ == "__main__":
    spec = None
    if len(sys.argv) > 3:
        ns: dict = {}
        exec(Path(sys.argv[3]).read_text(), ns)
        spec = ns["SPEC"]
    main(sys.argv[1], sys.argv[2], spec)
