"""How the package's messages quote a value they were given (an argument, a path, what a file
holds): its ``repr``, so escaped (control characters, lone surrogates and other invisible text
shown as escapes), and cut to ``MOST_SHOWN`` characters, so that a message stays one short line
whatever it was given."""

from typing import Any

#: The most characters of a value a message quotes (as ply's other front ends quote).
MOST_SHOWN = 40


def shown(value: Any) -> str:
    """``value`` as a message quotes it: its ``repr``, at most ``MOST_SHOWN`` characters, then
    ``…`` when cut."""
    text = repr(value)
    return text if len(text) <= MOST_SHOWN else text[:MOST_SHOWN] + "…"
