"""The command line, `landlord-dsl`.

`main.py` parses the arguments; `rules.py` runs the commands on rule files,
`games.py` those that play games.
"""

from .._moved import forwarded_attribute
from .main import build_parser, main

__all__ = ["build_parser", "main"]


def __getattr__(name: str) -> object:
    """Return a name 0.1 had at this path (landlord_dsl.cli), from its new module, with a DeprecationWarning."""
    return forwarded_attribute("cli", name)
