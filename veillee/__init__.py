"""Veillée: old regional card games in the browser.

Layers (see DESIGN.md): ``games`` and ``sheets`` are pure rules; ``tables``, ``store`` and ``bus``
run tables; ``web`` serves them.
"""

__version__ = "0.1.0"
