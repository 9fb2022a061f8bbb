"""The pure core: content model, loading, search, rulings and the strike window.

Imports neither flet nor tinydb (a test imports it with both blocked).
"""
