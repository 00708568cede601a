"""One row per fight, as .csv, .jsonl or .parquet (pyarrow: the ``parquet`` extra), written whole or not at all
(engine/outputs.py). Every row has every column (a character's or rule ID's column a fight lacks is 0 / empty),
the run's first columns first, then the rest sorted; ``partial`` is true on every row of an interrupted run."""

from __future__ import annotations

import csv
import io
import json
import math

from engine.extras import MissingExtra

FORMATS = (".csv", ".jsonl", ".parquet")
FIRST = ["variant", "index", "seed", "outcome", "winner", "rounds", "steps", "capped", "partial", "error", "replay"]


def columns(rows: list[dict]) -> list[str]:
    seen: set = set()
    for r in rows:
        seen.update(r)
    seen.add("partial")
    return [c for c in FIRST if c in seen] + sorted(seen - set(FIRST))


def _fill(rows: list[dict], cols: list[str], partial: bool) -> list[dict]:
    """Every row with every column: a missing count 0, a missing text empty, a missing flag false."""
    kinds: dict = {}
    for r in rows:
        for k, v in r.items():
            if v is not None and v != "":
                kinds.setdefault(k, type(v))
    blank = {bool: False, int: 0, float: 0.0, str: ""}
    out = []
    for r in rows:
        full = {c: r.get(c, blank.get(kinds.get(c, str), "")) for c in cols}
        full["partial"] = partial
        out.append(full)
    return out


def finite(obj):
    """``obj`` with every NaN or infinity (a mean over no fights) as None: JSON has no NaN (``json.dumps`` would
    write one, which no JSON reader takes)."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [finite(v) for v in obj]
    return obj


def encode(rows: list[dict], suffix: str, partial: bool = False) -> bytes:
    cols = columns(rows)
    full = _fill(rows, cols, partial)
    if suffix == ".jsonl":
        return "".join(json.dumps(finite(r), separators=(",", ":"), allow_nan=False) + "\n" for r in full).encode("utf-8")
    if suffix == ".csv":
        text = io.StringIO()
        w = csv.DictWriter(text, fieldnames=cols, lineterminator="\n")
        w.writeheader()
        w.writerows(full)
        return text.getvalue().encode("utf-8")
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ModuleNotFoundError:
        raise MissingExtra("-o .parquet needs the Python package pyarrow (the 'parquet' extra), which is not installed: "
                           "pip install 'aerie-sandbox[parquet]' (or write .csv / .jsonl)") from None
    table = pa.Table.from_pylist(full)
    table = table.replace_schema_metadata({"aerie.partial": "true" if partial else "false"})
    buf = io.BytesIO()
    pq.write_table(table, buf)
    return buf.getvalue()
