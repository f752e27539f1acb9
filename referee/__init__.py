"""referee: the scorekeeper beside a physical table.

The package is split into a pure core (model, dice, games, store, cards,
table, render) and one thin command-line layer (cli). Nothing here imports
click except cli.py, and nothing heavy (no ReportLab, no Jinja) is imported
at all, so every command starts quickly.
"""

__version__ = "0.1.0"
