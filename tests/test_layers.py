"""voice_host's sub-packages import only downward, in the order sound flows (README "What is inside")."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

VOICE_HOST = Path(__file__).resolve().parent.parent / "voice_host"

#: Which sub-packages each one may import from. The mouth sits beside the loop, not on it: the listener
#: and the Host's voice meet only in the screen's wiring (screen/voice_io.py).
MAY_IMPORT = {
    "ears": set(),
    "understanding": {"ears"},
    "loop": {"ears", "understanding"},
    "mouth": {"ears"},
    "screen": {"ears", "understanding", "loop", "mouth"},
    "cli": {"ears", "understanding", "loop", "mouth", "screen"},
}


def imported_layers(path: Path) -> set[str]:
    """The voice_host sub-packages a module imports (at the top, inside functions or for type checking)."""
    layers: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            names = [node.module]
        for name in names:
            parts = name.split(".")
            if parts[0] == "voice_host" and len(parts) > 1:
                layers.add(parts[1])
    return layers


@pytest.mark.parametrize("layer", sorted(MAY_IMPORT))
def test_a_layer_imports_only_the_layers_below_it(layer: str) -> None:
    modules = sorted((VOICE_HOST / layer).rglob("*.py"))
    assert modules
    upward = {
        str(module.relative_to(VOICE_HOST)): sorted(imported_layers(module) - MAY_IMPORT[layer] - {layer})
        for module in modules
        if imported_layers(module) - MAY_IMPORT[layer] - {layer}
    }
    assert upward == {}


def test_every_layer_is_known() -> None:
    packages = {path.parent.name for path in VOICE_HOST.glob("*/__init__.py")}
    assert packages == set(MAY_IMPORT)
