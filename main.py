"""Entry point for ``flet run``, ``flet publish`` and ``flet build`` (see [tool.flet] in
pyproject.toml). ``python -m handbook serve`` is the way to serve the app locally."""

import flet as ft

from handbook.startup import mark
from handbook.ui.app import install_spa_fallback, main

if __name__ == "__main__":
    mark("imports_done")
    install_spa_fallback()  # deep links such as /rules/azrm/2.4 (a no-op where flet-web is absent)
    ft.run(main, assets_dir="assets", no_cdn=True)
