"""No two modules import each other, at the top or inside a function: what both sides need lives in a module
below them (tools/rulebook: caribbean.rules, blackjack.cards; the sim board hands the link its roles)."""
import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
TREES = [("tools/rulebook", "rulebook"), ("firmware", ""), ("boards/sim", "")]


def imports(path, base, package):
    """The modules `path` imports (dotted names from `base`), relative imports resolved."""
    here = path.relative_to(base).with_suffix("").parts
    if here[-1] == "__init__":
        here = here[:-1] + ("__init__",)
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parent = list(here[:-node.level]) if node.level <= len(here) else []
                mod = ".".join(parent + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            found.add(mod)
            found.update(mod + "." + a.name if mod else a.name for a in node.names)
    if package:  # modules of a package imported by its own name (rulebook.x) or relatively (x)
        found = {m[len(package) + 1:] if m.startswith(package + ".") else m for m in found}
    return found


@pytest.mark.parametrize("folder, package", TREES)
def test_no_two_modules_import_each_other(folder, package):
    base = ROOT / folder
    modules = {}
    for path in sorted(base.rglob("*.py")):
        if "__pycache__" in path.parts or path.name == "manifest.py":
            continue
        name = ".".join(path.relative_to(base).with_suffix("").parts)
        modules[name[:-len(".__init__")] if name.endswith(".__init__") else name] = path
    deps = dict((name, imports(path, base, package) & set(modules)) for name, path in modules.items())
    cycles = sorted((a, b) for a in deps for b in deps[a] if a < b and a in deps.get(b, ()))
    assert cycles == [], cycles
