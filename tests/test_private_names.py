"""No private name crosses a module boundary in ``handbook/``: a name that starts with ``_`` is its
module's own, and what another module uses gets a public name (issue 47). Ruff's
``import-private-name`` (PLC2701, a preview rule in ruff 0.17.5) cannot keep this here: it ignores
every import whose module is in the importing file's own top-level package, i.e. all of
``handbook``'s imports of ``handbook``. This test reads every module with :mod:`ast` instead:
``from M import _x`` (absolute or relative; dunders such as ``__version__`` are public) where ``M``
is another module of ``handbook``, and ``import handbook.a._b``.

Run by ``make test`` (it is collected with the unit tests); a new crossing fails it with the file,
the line and the name. Ruff's PLC2701 (on in ``pyproject.toml``) catches the other half: a private
``handbook`` name imported from outside the package (``tools/``, ``main.py``).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "handbook"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_imports(path: Path) -> list[tuple[str, str, int]]:
    """``(imported module, name, line)`` for each private name ``path`` imports from another
    module of ``handbook``."""
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if source.split(".")[0] != "handbook" or source == here:
                continue
            out += [(source, a.name, node.lineno) for a in node.names if _private(a.name)]
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("handbook.") and any(_private(p) for p in a.name.split(".")):
                    out.append((a.name, a.name.rpartition(".")[2], node.lineno))
    return out


def crossings() -> list[str]:
    """Each private import found, as ``file:line imports name from module``."""
    return [f"{path.relative_to(ROOT)}:{line} imports {name} from {source}"
            for path in sorted(PACKAGE.rglob("*.py")) for source, name, line in private_imports(path)]


def test_no_private_name_crosses_a_module_boundary():
    bad = crossings()
    assert not bad, "private names imported from another module (give them public names):\n  " + "\n  ".join(bad)


def test_the_checker_sees_absolute_relative_and_dotted_imports(tmp_path, monkeypatch):
    pkg = tmp_path / "handbook" / "core"
    pkg.mkdir(parents=True)
    (tmp_path / "handbook" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("from .hand import _fu\n")
    (pkg / "final.py").write_text("from handbook.core.rulings import SEATS, _library\nimport handbook.core._x\n"
                                  "from handbook.core import __version__\nfrom .final import _own\n")
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    assert private_imports(pkg / "__init__.py") == [("handbook.core.hand", "_fu", 1)]
    assert private_imports(pkg / "final.py") == [("handbook.core.rulings", "_library", 1),
                                                 ("handbook.core._x", "_x", 2)]
