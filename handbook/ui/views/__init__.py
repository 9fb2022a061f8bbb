"""One module per area; each exposes view builders ``build_*(ctx, **params) -> ft.View``
(see the contract at the top of :mod:`handbook.ui.routes`)."""
