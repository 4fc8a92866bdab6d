"""Read the top-level parameters of a printed part's OpenSCAD file (``name = value;  // why``).

Why: the geometry tests (tests/test_printable_parts.py) check the parts from the same numbers
OpenSCAD renders them from, without needing openscad itself. Only plain assignments are read:
numbers, strings, true/false, vectors, arithmetic and names assigned above.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from pathlib import Path
from typing import Any

_ASSIGN = re.compile(r"^([A-Za-z_]\w*)\s*=\s*(.+?);\s*(?://.*)?$")
_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}
_FUNCS = {"sin": lambda d: math.sin(math.radians(d)), "cos": lambda d: math.cos(math.radians(d)),
          "tan": lambda d: math.tan(math.radians(d)), "sqrt": math.sqrt, "max": max, "min": min}


def _eval(node: ast.AST, names: dict[str, Any]) -> Any:  # noqa: C901 - one small expression walker
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float | str):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in ("true", "false"):
            return node.id == "true"
        if node.id not in names:
            raise ValueError(f"unknown name {node.id!r}")
        return names[node.id]
    if isinstance(node, ast.List):
        return [_eval(e, names) for e in node.elts]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_eval(node.operand, names)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return _BINARY[type(node.op)](_eval(node.left, names), _eval(node.right, names))
    if isinstance(node, ast.Subscript):
        return _eval(node.value, names)[_eval(node.slice, names)]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCS:
        return _FUNCS[node.func.id](*(_eval(a, names) for a in node.args))
    raise ValueError(f"not a plain parameter expression: {ast.dump(node)}")


def read(path: str | Path) -> dict[str, Any]:
    """The file's top-level assignments, in order; a line that is not one is skipped."""
    names: dict[str, Any] = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        m = _ASSIGN.match(line.strip()) if not line.startswith((" ", "\t")) else None
        if m is None:
            continue
        names[m.group(1)] = _eval(ast.parse(m.group(2), mode="eval").body, names)
    return names
