"""The import structure: floors (errors … lang, models, report, registry) and one wing per suite family on them
(gender, zero_pronoun, contrastive, winox, dip); layers import only downward, wings never import each other, and no
module imports itself back through others.

Every import in the package (module level or inside a function) is read with ``ast``; each module belongs to a layer,
and an import may go to the same or a lower layer only. Within one layer only a package's own modules may import each
other, and the module graph has no cycle. Moving a result class or a helper to the wrong layer fails here with the
two module names."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "discotest"

# top-level module or package -> layer; higher layers may import lower ones, never the reverse
LAYERS = {
    # floors
    "errors": 0, "version": 0, "progress": 0, "stats": 0, "timing": 0, "values": 1, "atomic": 1, "engine": 1,
    "cache": 2, "data": 3, "lang": 4, "models": 5, "report": 6, "registry": 7,
    # wings: one package per suite family; a wing uses the floors and never another wing
    "gender": 8, "zero_pronoun": 8, "contrastive": 8, "winox": 8, "dip": 8,
    # the top: registration of every wing, the API, the CLI
    "families": 9, "cards": 10, "api": 11, "cli": 12, "__init__": 13, "__main__": 13,
}
WINGS = ("gender", "zero_pronoun", "contrastive", "winox", "dip")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("discotest"):
            base = node.module.removeprefix("discotest").lstrip(".")
            for alias in node.names:
                candidate = f"{base}.{alias.name}" if base else alias.name
                found.add(candidate if (SRC / Path(*candidate.split("."))).with_suffix(".py").exists()
                          or (SRC / Path(*candidate.split("."))).is_dir() else base)
        elif isinstance(node, ast.Import):
            found |= {a.name.removeprefix("discotest.") for a in node.names if a.name.startswith("discotest.")}
    return {f for f in found if f}


def _graph() -> dict[str, set[str]]:
    return {_module_name(p): _imports(p) for p in SRC.rglob("*.py")}


def _layer(module: str) -> int:
    return LAYERS[module.split(".")[0]]


def test_every_module_has_a_layer():
    assert not sorted({m.split(".")[0] for m in _graph()} - set(LAYERS))


def test_imports_only_go_down():
    upward = []
    for module, imported in _graph().items():
        for other in imported:
            if other == "discotest":
                continue
            same_package = module.split(".")[0] == other.split(".")[0]
            if _layer(other) > _layer(module) or (_layer(other) == _layer(module) and not same_package):
                upward.append(f"{module} -> {other}")
    assert not upward, upward


def test_no_import_cycles():
    graph = _graph()
    known = set(graph)

    def resolve(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    edges = {m: {r for r in map(resolve, imported) if r and r != m} for m, imported in graph.items()}
    state: dict[str, int] = {}
    cycles = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(edges[node]):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join([*path[path.index(nxt):], nxt]))
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node, [node])
    # a package's __init__ re-exporting its submodules is not a cycle with them: they never import it back
    assert not cycles, cycles


def test_wings_never_import_each_other():
    """One wing per suite family: a family's code uses the floors (lang, data, models, report, registry …) and never
    another family's, so a family can be read, changed or removed alone."""
    crossing = [f"{module} -> {other}" for module, imported in _graph().items() for other in imported
                if module.split(".")[0] in WINGS and other.split(".")[0] in WINGS
                and module.split(".")[0] != other.split(".")[0]]
    assert not crossing, crossing


def test_every_command_goes_through_the_api():
    """``cli/``: one module per command, and each command's ``run`` does its work through ``discotest.api`` (the
    Python API mirrors the CLI), so nothing a user can do on the command line is missing from Python."""
    from discotest.cli.dispatch import COMMANDS

    bypassing = []
    for command in COMMANDS:
        tree = ast.parse(Path(command.__file__).read_text("utf-8"))
        run = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "run")
        calls = {f"{n.func.value.id}.{n.func.attr}" for n in ast.walk(run) if isinstance(n, ast.Call)
                 and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name)}
        if not any(call.startswith("api.") for call in calls):
            bypassing.append(command.NAME)
    assert not bypassing, bypassing
