"""Every listed move plays as listed (issue 36 item 3), in every game.

Random reachable tables: seeded self-play games (the random agent, through
the real rules), sampled at steps spread over each game
(tests/helpers/listed_play.py). On each, every move `legal_moves` lists for
every player still in (anyone may have a move: a Flash, an answer, an
alliance) is played on the state as the table plays it: `check`, then
`rules.play` with seeded dice (a battle: `play_drawing`). A refusal, or any
exception, is a failure that names the game, the seed, the step, the player
and the move's command and words.

Twice over: with each player's own hand known (self-play's dealer, a hand
kept on a phone), where every move must be concrete; and at a physical
table, hands unknown, where the concrete moves must play and Culture War's
`<CARD>` moves are played with each card they offer that the true hand
holds (and a card of the hand the rules take on a target must be offered).

The fast layer plays a few games of each; the slow one many more, at every
table size.
"""
from __future__ import annotations

from functools import lru_cache

import pytest

from helpers.listed_play import Refusal, every_listed, reached

# game: (table sizes, turn cap) for self-play; samples: the states taken from each game
GAMES = {
    "culture-war": ((2, 3, 4, 5), 60),
    "cold-war": ((2, 3, 4), 60),
    "divide-and-conquer": ((4, 6, 8), 60),
    "petri-dish": ((2,), 60),
    "debate": ((2,), 60),
}
FAST = {  # game: (players, seed) played in the fast layer
    "culture-war": ((3, 1), (2, 4)),
    "cold-war": ((2, 1), (3, 2)),
    "divide-and-conquer": ((4, 1),),
    "petri-dish": ((2, 1),),
    "debate": ((2, 1),),
}
SAMPLES = 6
SLOW_SEEDS = range(10, 16)


def cases() -> list:
    out = []
    for game, runs in FAST.items():
        out += [pytest.param(game, players, seed, id=f"{game}-{players}p-seed{seed}") for players, seed in runs]
    for game, (sizes, _) in GAMES.items():
        out += [pytest.param(game, players, seed, id=f"{game}-{players}p-seed{seed}", marks=pytest.mark.slow)
                for players in sizes for seed in SLOW_SEEDS]
    return out


@lru_cache(maxsize=None)
def states(game: str, players: int, seed: int) -> tuple:
    """The sampled states of one self-played game (both tests play on them)."""
    return tuple(reached(game, players, seed, GAMES[game][1], SAMPLES))


def played(game: str, players: int, seed: int, known: bool) -> tuple[int, list[Refusal]]:
    """(moves played, refusals) over the sampled states of one self-played game."""
    count, refused = 0, []
    for at in states(game, players, seed):
        for _, _, refusal in every_listed(at, known):
            count += 1
            if refusal is not None:
                refused.append(refusal)
    return count, refused


@pytest.mark.parametrize("game, players, seed", cases())
def test_every_listed_move_plays_with_the_hands_known(game, players, seed):
    count, refused = played(game, players, seed, known=True)
    assert not refused, "\n".join(map(str, refused[:10])) + f"\n({len(refused)} of {count} listed moves refused)"
    assert count >= SAMPLES  # the states were reached and their moves played: never a pass on nothing


@pytest.mark.parametrize("game, players, seed", cases())
def test_every_listed_move_plays_at_a_physical_table(game, players, seed):
    count, refused = played(game, players, seed, known=False)
    assert not refused, "\n".join(map(str, refused[:10])) + f"\n({len(refused)} of {count} listed moves refused)"
    assert count >= SAMPLES


def test_every_game_is_played():
    from referee.model import GameSlug

    assert set(GAMES) == set(FAST) == {slug.value for slug in GameSlug}


def test_a_refused_move_is_counted_and_named_with_its_game_seed_step_and_words(monkeypatch):
    """The test can fail: a move the rules refuse, listed beside the real
    ones, comes out as one refusal naming the game, seed, step and words."""
    from referee.model import Action
    from referee.rules import legal
    from referee.rules.legal import Move

    real = legal.legal_moves

    def with_a_bad_one(rules, state, player, hands=None):
        taken = next(p for p, germ in state.fields["board"].items() if germ)  # a point a germ already holds
        bad = Move(Action("place", {"at": taken}, player), f"place {taken}", "place", f"place a germ on {taken}")
        return [*real(rules, state, player, hands), bad]

    states("petri-dish", 2, 1)  # reached by self-play before the listing is spoiled
    monkeypatch.setattr(legal, "legal_moves", with_a_bad_one)
    count, refused = played("petri-dish", 2, 1, known=True)
    assert len(refused) == 2 * SAMPLES and count > len(refused)  # one for each player at each state
    words = str(refused[0])
    assert words.startswith(f"petri-dish seed 1 step {refused[0].step}: ")
    assert "`referee place " in words and "(place a germ on " in words


if __name__ == "__main__":  # the counts for a report: moves played per game, fast and slow layers
    import sys
    import time

    for game, (sizes, _) in GAMES.items():
        t = time.process_time()
        totals = {True: 0, False: 0}
        bad = 0
        for players in sizes:
            for seed in (SLOW_SEEDS if "--slow" in sys.argv else [s for p, s in FAST[game] if p == players]):
                for known in (True, False):
                    n, r = played(game, players, seed, known)
                    totals[known] += n
                    bad += len(r)
        print(f"{game}: {totals[True]} moves with the hands known, {totals[False]} at a physical table, "
              f"{bad} refused ({time.process_time() - t:.1f} s CPU)")
