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

from helpers.listed_play import Refusal, every_listed, kind_of, reached

# game: (table sizes, turn cap) for self-play; samples: the states taken from each game
GAMES = {
    "culture-war": ((2, 3, 4, 5), 60),
    "cold-war": ((2, 3, 4), 60),
    "divide-and-conquer": ((4, 6, 8), 60),
    "petri-dish": ((2,), 60),
    "debate": ((2,), 60),
}
FAST = {  # game: (players, seed) played in the fast layer, chosen so that together they list every kind of move
    "culture-war": ((3, 12), (3, 5), (2, 10)),
    "cold-war": ((2, 2), (3, 3)),
    "divide-and-conquer": ((4, 1),),
    "petri-dish": ((2, 1), (2, 3)),
    "debate": ((2, 2),),
}
KINDS = {  # what the fast tables must list and play, with the hands known (kind_of's words)
    "culture-war": {"rolloff", "battle a unit", "battle a player", "window a unit", "settle", "play flash",
                    "play flash --on", "play happening", "play happening --on", "play mod --on", "play unit",
                    "play operation", "play real-estate", "resolve", "discard", "discard-hand", "ally", "unally",
                    "donate", "gift", "end-turn"},
    "cold-war": {"setup", "place", "regroup", "attack", "challenge", "special", "answer", "discard", "end-turn"},
    "divide-and-conquer": {"team", "attach", "attack", "event", "recruit", "fight", "raise", "call", "unaffiliate",
                           "end-turn"},
    "petri-dish": {"place", "grow", "move", "divide", "pass"},
    "debate": {"argue", "device", "ability", "end-turn", "round-end"},
}
SAMPLES = 6
SLOW_SEEDS = range(10, 13)


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


@lru_cache(maxsize=None)
def played(game: str, players: int, seed: int, known: bool) -> tuple[int, tuple[Refusal, ...], frozenset[str]]:
    """(moves played, refusals, the kinds of move played) over the sampled
    states of one self-played game."""
    count, refused, kinds = 0, [], set()
    for at in states(game, players, seed):
        for _, move, refusal in every_listed(at, known):
            count += 1
            kinds.add(kind_of(move))
            if refusal is not None:
                refused.append(refusal)
    return count, tuple(refused), frozenset(kinds)


@pytest.mark.parametrize("game, players, seed", cases())
def test_every_listed_move_plays_with_the_hands_known(game, players, seed):
    count, refused, _ = played(game, players, seed, known=True)
    assert not refused, "\n".join(map(str, refused[:10])) + f"\n({len(refused)} of {count} listed moves refused)"
    assert count >= SAMPLES  # the states were reached and their moves played: never a pass on nothing


@pytest.mark.parametrize("game, players, seed", cases())
def test_every_listed_move_plays_at_a_physical_table(game, players, seed):
    count, refused, _ = played(game, players, seed, known=False)
    assert not refused, "\n".join(map(str, refused[:10])) + f"\n({len(refused)} of {count} listed moves refused)"
    assert count >= SAMPLES


def test_every_game_is_played():
    from referee.model import GameSlug

    assert set(GAMES) == set(FAST) == set(KINDS) == {slug.value for slug in GameSlug}


@pytest.mark.parametrize("game", list(FAST))
def test_the_fast_tables_list_every_kind_of_move(game):
    """The fast layer's few games are chosen to reach every kind of move, so
    a fast pass is not a pass on a corner of the game. A change to a
    generator changes what self-play plays: when this fails, choose other
    seeds in FAST (the message names the kinds no fast game reached)."""
    met = set().union(*(played(game, players, seed, True)[2] for players, seed in FAST[game]))
    assert KINDS[game] <= met, sorted(KINDS[game] - met)


def test_a_refused_move_is_counted_and_named_with_its_game_seed_step_and_words(monkeypatch):
    """The test can fail: a move the rules refuse, listed beside the real
    ones, comes out as one refusal naming the game, seed, step and words."""
    from referee.model import Action
    from referee.rules import legal
    from referee.rules.legal import Move

    real = legal.legal_moves

    def with_a_bad_one(rules, state, player, hands=None):
        bad = Move(Action("place", {"at": "z9"}, player), "place z9", "place", "place a germ on z9")  # no such point
        return [*real(rules, state, player, hands), bad]

    states("petri-dish", 2, 1)  # reached by self-play before the listing is spoiled
    monkeypatch.setattr(legal, "legal_moves", with_a_bad_one)
    count, refused, _ = played.__wrapped__("petri-dish", 2, 1, known=True)  # not the cached count
    assert len(refused) == 2 * len(states("petri-dish", 2, 1)) and count > len(refused)  # one for each player at each state
    words = str(refused[0])
    assert words.startswith(f"petri-dish seed 1 step {refused[0].step}: ")
    assert "`referee place z9` (place a germ on z9) is refused: " in words


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
                    n, r, _ = played(game, players, seed, known)
                    totals[known] += n
                    bad += len(r)
        print(f"{game}: {totals[True]} moves with the hands known, {totals[False]} at a physical table, "
              f"{bad} refused ({time.process_time() - t:.1f} s CPU)")
