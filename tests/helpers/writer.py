"""A writer process for the crash and two-writer tests (not a test module).

    python writer.py DB PLAYER COUNT [GO_FILE]

Waits for GO_FILE to exist (if given), then adds 1 capital to PLAYER COUNT
times (forever if COUNT is 0) through the referee core, each with the reason
"PLAYER-i", and prints i after each action has been committed.
"""
import sys
import time
from pathlib import Path

from referee.table import operations as table


def main() -> None:
    db, player, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    if len(sys.argv) > 4:
        go = Path(sys.argv[4])
        while not go.exists():
            time.sleep(0.001)
    i = 0
    while count == 0 or i < count:
        table.act(db, "capital", {"player": player, "by": 1, "reason": f"{player}-{i}"})
        print(i, flush=True)
        i += 1


if __name__ == "__main__":
    main()
