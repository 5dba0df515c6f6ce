"""No import cycle of any length, at the top or inside a function: what both sides need lives in a module below
them (tools/rulebook: caribbean.rules, blackjack.cards; the sim board hands the link its roles; the firmware
check is tablectl.certify, its report tablectl.service.firmware). The cycles are the import graph's strongly
connected components of more than one module."""
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


def modules_of(base):
    """{dotted name: path} of every module under `base` (a package by its own name)."""
    modules = {}
    for path in sorted(base.rglob("*.py")):
        if "__pycache__" in path.parts or path.name == "manifest.py":
            continue
        name = ".".join(path.relative_to(base).with_suffix("").parts)
        modules[name[:-len(".__init__")] if name.endswith(".__init__") else name] = path
    return modules


def cycles(deps):
    """The strongly connected components of more than one module of the graph {module: modules it imports}
    (Tarjan's, iterative: no recursion limit), each sorted, sorted."""
    index, low, stack, on, found = {}, {}, [], set(), []
    for root in sorted(deps):
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        work = [(root, iter(sorted(deps[root])))]
        while work:
            v, edges = work[-1]
            for w in edges:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(deps[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        found.append(sorted(comp))
    return sorted(found)


@pytest.mark.parametrize("deps, want", [
    ({"a": {"b"}, "b": {"a"}}, [["a", "b"]]),
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),  # three long, d only leads in
    ({"a": {"b"}, "b": {"c"}, "c": set()}, []),  # a chain
    ({"a": {"b", "c"}, "b": {"d"}, "c": {"d"}, "d": set()}, []),  # a diamond is no cycle
    ({"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"e"}, "e": {"c"}}, [["a", "b"], ["c", "d", "e"]]),
    ({"m%d" % i: {"m%d" % ((i + 1) % 2000)} for i in range(2000)}, [sorted("m%d" % i for i in range(2000))]),
])
def test_cycles_finds_every_strongly_connected_component(deps, want):
    assert cycles(deps) == want


def test_the_firmwares_old_three_module_cycle_is_found():
    """app -> selftest -> service.context -> app, as it was before tablectl.certify: found though no two of
    the three import each other."""
    deps = {"tablectl.app": {"tablectl.selftest"}, "tablectl.selftest": {"tablectl.service.context"},
            "tablectl.service.context": {"tablectl.app"}, "tablectl.certify": set()}
    assert cycles(deps) == [["tablectl.app", "tablectl.selftest", "tablectl.service.context"]]


@pytest.mark.parametrize("folder, package", TREES)
def test_no_import_cycle(folder, package):
    base = ROOT / folder
    modules = modules_of(base)
    deps = dict((name, imports(path, base, package) & set(modules)) for name, path in modules.items())
    assert cycles(deps) == []
