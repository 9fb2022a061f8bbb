"""Entry point for ``flet run``, ``flet publish`` and ``flet build`` (see [tool.flet] in
pyproject.toml). ``python -m handbook serve`` is the way to serve the app locally."""

import flet as ft

from handbook.ui.app import main

if __name__ == "__main__":
    ft.run(main, assets_dir="assets", no_cdn=True)
