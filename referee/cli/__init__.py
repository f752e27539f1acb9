"""The `referee` command line: the edge that parses words, calls one core
function and prints its result (`main.py` holds the group; a game's own
commands are `referee/games/<game>/cli.py`). Nothing below this layer imports it."""
