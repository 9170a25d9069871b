"""unonet: UNO over the network from a terminal.

This package is the engine (cards, rules, the match state machine, views and bot policies).
It does no I/O; `unonet.cli` is the one module that wires the layers into the `unonet` command.
"""

__version__ = "0.1.0"
