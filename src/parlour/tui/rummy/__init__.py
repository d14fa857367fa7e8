"""The Rummy terminal app (Textual). Self-contained until the shared table pieces
(``parlour.tui.common``) land on main; :func:`~parlour.tui.rummy.app.make_app` has the shape
the shared registry expects."""
