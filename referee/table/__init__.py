"""The table spine: one table file, its append-only event log and what is
read from it.

- `store/`: the SQLite file and its event rows;
- `ledger`: every write (setup, actions, rolls, undo, redo), one transaction each;
- `operations`: one function per table command (new, act, status, undo, ...);
- `history`, `transfer`, `results`, `views`, `public`, `moves`, `scan`: what
  the commands hand back and read.

It stands on the rules contract (`referee.rules`) and the games, and below the
words, the CLI, the phone server and self-play."""
