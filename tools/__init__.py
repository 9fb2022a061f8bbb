"""Build tools of the project (not shipped with the app)."""
