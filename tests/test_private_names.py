"""No private name crosses a module boundary in ``handbook/``: a name that starts with ``_`` is its
module's own, and what another module uses gets a public name (issue 47). Ruff's
``import-private-name`` (PLC2701, a preview rule in ruff 0.17.5) cannot keep this here: it ignores
every import whose module is in the importing file's own top-level package, i.e. all of
``handbook``'s imports of ``handbook``. This test reads every module with :mod:`ast` instead:
``from M import _x`` (absolute or relative; dunders such as ``__version__`` are public) where ``M``
is another module of ``handbook``, and ``import handbook.a._b``.

:data:`NOT_YET` lists the modules other branches are rewriting at the same time (issues 44, 45, 46,
43); each pair is an import this test lets through until that branch lands, and the test fails once
an entry is no longer needed, so the list only shrinks.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "handbook"

#: modules owned by branches in progress: (importing module, imported module) -> the issue
OWNED = {
    "handbook.ledger": "issue 44 (the ledger)",
    "handbook.storage": "issue 46 (storage)",
    "handbook.access": "issue 46 (security)",
    "handbook.ui.serving": "issue 46 (security)",
    "handbook.ui.views.search": "issue 43 (the search page)",
    "handbook.core.search.ranking": "issue 43 (the search)",
    "handbook.core.search.learned": "issue 43 (the search)",
    "handbook.core.search.grammar": "issue 43 (the search)",
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _owner(module: str) -> str | None:
    for prefix, issue in OWNED.items():
        if module == prefix or module.startswith(prefix + "."):
            return issue
    return None


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


def crossings() -> tuple[list[str], list[str]]:
    """The private imports found: those no owned module excuses, and those it does."""
    bad, excused = [], []
    for path in sorted(PACKAGE.rglob("*.py")):
        here = module_name(path)
        for source, name, line in private_imports(path):
            issue = _owner(here) or _owner(source)
            text = f"{path.relative_to(ROOT)}:{line} imports {name} from {source}"
            (excused if issue else bad).append(text + (f" ({issue})" if issue else ""))
    return bad, excused


def test_no_private_name_crosses_a_module_boundary():
    bad, _ = crossings()
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
