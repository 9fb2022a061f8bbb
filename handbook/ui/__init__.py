"""The Flet user interface: ``handbook.ui.app`` (app factory and server), ``routes`` (the route
table and the view-builder contract), ``context`` (what every view receives) and ``views``."""
