"""Self-play: complete games played in memory through the referee's own rules.

The simulator holds the physical truth (seats, dice from the table's seeded
roller, and for card games the printed decks by copy); each seat's agent sees
only its own player's view and picks among the moves `referee.rules.legal`
generates. Nothing here touches SQLite or words an action on the hot path;
`--keep` writes chosen games as table exports that `referee replay` loads.

    stats.py    Wilson intervals and the two-proportion test (A/B)
    agents.py   the agent kinds and the random agent; heuristic.py the games' policies,
                search.py search and cheat (PIMC), guard.py the loop guard
    play.py     one game: GameConfig in, GameRecord out
    runner.py   many games over a process pool, streamed
    summary.py  the running tally a report is drawn from
    report_pdf.py  the balance report as a PDF
"""
