"""The static offline PWA build (``python -m tools.pwa``): see ``build.py``."""
