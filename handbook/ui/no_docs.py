"""A FastAPI application without its OpenAPI schema and docs pages: the served handbook answers
``/openapi.json``, ``/docs`` and ``/redoc`` as any unknown path (:mod:`handbook.ui.serving`, 3)."""

from __future__ import annotations

from typing import Any

DOCS_ATTRIBUTES = ("openapi_url", "docs_url", "redoc_url", "swagger_ui_oauth2_redirect_url")


def without_docs(app: Any) -> Any:
    """``app`` (a FastAPI application) without the routes of its OpenAPI schema and its docs
    pages (``/openapi.json``, ``/docs``, ``/docs/oauth2-redirect``, ``/redoc``); returns it."""
    paths = {getattr(app, a, None) for a in DOCS_ATTRIBUTES} - {None}
    app.router.routes[:] = [r for r in app.router.routes if getattr(r, "path", None) not in paths]
    for a in DOCS_ATTRIBUTES:
        setattr(app, a, None)
    return app


def without_any_docs(app: Any) -> Any:
    """``app`` and every FastAPI application mounted in it (Flet's ``ft.run(export_asgi_app=True)``
    mounts its app inside another) without their docs routes (:func:`without_docs`); returns it."""
    without_docs(app)
    for route in app.router.routes:
        inner = getattr(route, "app", None)
        if hasattr(inner, "router") and hasattr(inner, "docs_url"):
            without_any_docs(inner)
    return app
