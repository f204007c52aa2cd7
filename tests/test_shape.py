"""The package's shape, measured from its source (issue 36): no import cycle (imports inside
functions counted), no private name imported from another module, no module over 600 lines,
no function over 80. `python tests/test_shape.py` prints every breach."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "hc_cli"
MAX_MODULE = 600
MAX_FUNCTION = 80


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _imports(name: str, tree: ast.AST, known: dict[str, Path]) -> list[tuple[str, str | None]]:
    """(module imported, name taken from it or None) for every import, at any depth."""
    out: list[tuple[str, str | None]] = []
    package = name if known[name].name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(alias.name, None) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            for alias in node.names:
                if f"{base}.{alias.name}" in known:
                    out.append((f"{base}.{alias.name}", None))
                else:
                    out.append((base, alias.name))
    return [(m, n) for m, n in out if m in known]


def graph() -> tuple[dict[str, set[str]], list[str]]:
    """The import arrows between hc's modules, and every private name imported."""
    known = modules()
    arrows: dict[str, set[str]] = {}
    private = []
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        arrows[name] = set()
        for target, taken in _imports(name, tree, known):
            if target != name:
                arrows[name].add(target)
            if taken is not None and taken.startswith("_") and not taken.startswith("__"):
                private.append(f"{name} imports {target}.{taken}")
    return arrows, private


def cycles(arrows: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on.add(node)
        for nxt in arrows.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(arrows):
        if node not in index:
            visit(node)
    return found


def _package_of(module: str) -> str:
    return module if modules()[module].name == "__init__.py" else module.rpartition(".")[0]


def long_modules() -> list[str]:
    out = []
    for name, path in modules().items():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_MODULE:
            out.append(f"{name}: {lines} lines")
    return out


def long_functions() -> list[str]:
    out = []
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                size = (node.end_lineno or node.lineno) - node.lineno + 1
                if size > MAX_FUNCTION:
                    out.append(f"{name}.{node.name}: {size} lines")
    return out


def test_no_import_cycle() -> None:
    arrows, _ = graph()
    # A package's __init__ importing its own modules is no cycle of the code's.
    for name in arrows:
        arrows[name] = {t for t in arrows[name] if not name.startswith(t + ".")}
    assert cycles(arrows) == []


def test_no_private_name_imported() -> None:
    assert graph()[1] == []


def test_no_module_over_600_lines() -> None:
    assert long_modules() == []


def test_no_function_over_80_lines() -> None:
    assert long_functions() == []


def test_the_checker_sees_a_cycle_and_a_private_import() -> None:
    """The measures themselves: a made-up graph with a loop is found, one without is not."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


if __name__ == "__main__":
    arrows, private = graph()
    for name in arrows:
        arrows[name] = {t for t in arrows[name] if not name.startswith(t + ".")}
    for group in cycles(arrows):
        print("cycle:", ", ".join(group))
    for line in private + long_modules() + long_functions():
        print(line)
