"""The debate game: POTUS, fortitude, the forum of 2 x 7 threads and the
crowd. `rules` holds the table rules, `forum` the round-end arithmetic,
`abilities` what cards do as they are played, `text` the words, and
`commands` the table-level functions behind the debate's CLI commands."""
from referee.games.debate.rules import RULES

__all__ = ["RULES"]
