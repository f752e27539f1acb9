"""How a sensible Petri dish player plays (self-play's heuristic agent).

The rulebook's only way to win is to be sole occupant of three of the four
prime areas; a game is drawn only when a pass is answered by a pass, or by
a claim when a position has come round three times. The first policy here
passed whenever no single move raised its score, past a short opening: a
pass that the other player, seeing the same, answered with a pass, so every
game between two heuristic players ended drawn around move 25 with areas
still open. A player who has read the rules plays on while the game is open:

- it weighs each move on the engine the rules themselves use
  (`engine.legal_actions` / `engine.play`, the rules' one generator): one
  ply ahead for every move (`score`: the areas held alone, the race to each
  area still open and the approach to each the opponent holds alone, the
  germs' tokens there, a germ about to be killed, then tokens in play and
  liberties), then its best few against every reply (all of them, when
  those few each lose at once), so it never leaves the opponent a winning
  move or a germ to kill when it need not;
- among moves as good as the best it picks one at random, as people vary;
- it passes only when the areas are shared out two and two and no move
  gains, when every move loses ground (or the game at once), or to answer
  a pass when it does not stand clearly better; it claims a draw by
  repetition on the same terms. Past LONG actions, the longer the game,
  the more a move must gain before it plays on rather than offer or take
  the draw, so a fight that goes nowhere ends drawn before the turn cap. A position seen before is
  worth a little less, so it does not shuffle a germ back and forth.
"""
from __future__ import annotations

from typing import Mapping

from referee.games.petri_dish import engine
from referee.games.petri_dish.dish import action_args, colour_of, position_of
from referee.games.petri_dish.geometry import AREA_INDICES, AROUND, ORTHOGONAL, POINTS
from referee.model import PlayerName, State
from referee.rules.choosing import Options
from referee.rules.legal import Candidate

WIN = 1e6
HELD = 30.0  # an area held alone
RACE = 3.0  # a move nearer an open area than the opponent, per move (up to RACE_CAP)
RACE_CAP = 3
SIEGE = 2.5  # a germ within SIEGE_REACH moves of an area the opponent holds alone, per move nearer
SIEGE_REACH = 4
SEEN = 4.0  # a position that has occurred before, each time
AHEAD = 10.0  # standing less than this far better, a player takes the draw
WIDTH = 6  # the best moves one ply ahead, weighed against every reply
STUCK = -12.0  # every move loses this much: a pass is better
LONG = 120  # actions after which a player who cannot gain much offers (or takes) the draw even when ahead
CLOSE = 1.0  # moves within this of the best are as good as it

_XY = tuple(("abcdefgh".index(p[0]), int(p[1]) - 1) for p in POINTS)
_DIST = tuple(tuple(min(max(abs(x - _XY[k][0]), abs(y - _XY[k][1])) for k in area) for area in AREA_INDICES)
              for x, y in _XY)  # point -> moves to each prime area


def evaluate(state: State, player: PlayerName) -> float:
    if state.winner is not None:
        return WIN if state.winner == player else -WIN
    if state.finished:
        return 0.0
    sign = 1 if colour_of(state.player(player)) == engine.WHITE else -1
    return score(position_of(state).board, sign)


def score(board: tuple[int, ...], sign: int, my_move: bool = False) -> float:
    """The board for the colour of `sign` (+1 white, -1 black). A germ down
    to its last liberty, where one of the other colour's can step in and
    kill it, counts as nearly lost when that colour is to move (`my_move`:
    the colour of `sign` is)."""
    mine_at = [i for i, v in enumerate(board) if v * sign > 0]
    theirs_at = [i for i, v in enumerate(board) if v * sign < 0]
    total = 0.0
    held = [0, 0]
    alone: dict[int, int] = {}  # a germ that is its colour's only one in a shared area -> that area's worth
    for a, area in enumerate(AREA_INDICES):
        mine_pts = [k for k in area if board[k] * sign > 0]
        theirs_pts = [k for k in area if board[k] * sign < 0]
        mine = sum(board[k] * sign for k in mine_pts)
        theirs = -sum(board[k] * sign for k in theirs_pts)
        if mine and not theirs:
            held[0] += 1
            total += HELD + 0.5 * mine - SIEGE * max(0, SIEGE_REACH - _distance(theirs_at, a))
            if len(mine_pts) == 1:
                alone[mine_pts[0]] = alone.get(mine_pts[0], 0) + HELD // 2
            continue
        if theirs and not mine:
            held[1] += 1
            total -= HELD + 0.5 * theirs - SIEGE * max(0, SIEGE_REACH - _distance(mine_at, a))
            if len(theirs_pts) == 1:
                alone[theirs_pts[0]] = alone.get(theirs_pts[0], 0) + HELD // 2
            continue
        if mine and theirs:  # the last germ of a colour here gone: the area is the other's alone
            if len(mine_pts) == 1:
                alone[mine_pts[0]] = alone.get(mine_pts[0], 0) + HELD
            if len(theirs_pts) == 1:
                alone[theirs_pts[0]] = alone.get(theirs_pts[0], 0) + HELD
        gap = _distance(theirs_at, a) - _distance(mine_at, a)
        total += RACE * max(-RACE_CAP, min(RACE_CAP, gap)) + 1.5 * (mine - theirs)
    total += 20.0 * ((held[0] >= 2) - (held[1] >= 2))  # one more area wins
    material = sum(board) * sign
    room = 0.0
    lost = [0.0, 0.0]  # the most each colour stands to lose to a capture next move
    for i in mine_at + theirs_at:
        libs = [k for k in ORTHOGONAL[i] if board[k] == 0]
        ours = board[i] * sign > 0
        room += len(libs) if ours else -len(libs)
        if len(libs) == 1 and any(board[j] * board[i] < 0 for j in AROUND[libs[0]]):
            worth = abs(board[i]) + alone.get(i, 0)
            side = 0 if ours else 1
            lost[side] = max(lost[side], worth)
    threat, guard = (0.3, 0.9) if my_move else (0.9, 0.3)
    return total + 1.0 * material + 0.2 * room - threat * lost[0] + guard * lost[1]


def _distance(germs: list[int], area: int) -> int:
    """Moves (to any of the 8 neighbours) from the nearest germ to the area; 9 with none."""
    return min((_DIST[g][area] for g in germs), default=9)


def _reply(pos: engine.Position, sign: int) -> float:
    """The board for `sign` after the opponent's best reply in `pos` (they are to move)."""
    worst = score(pos.board, sign, True)  # a pass
    for act in engine.legal_actions(pos):
        if act[0] == engine.PASS:
            continue
        after = engine.play(pos, act).position
        if after.result == pos.side:
            return -WIN
        worst = min(worst, score(after.board, sign, True))
    return worst


def choose(o: Options) -> Candidate | None:
    pos = position_of(o.view)
    sign = 1 if pos.side == engine.WHITE else -1
    by_key: dict[tuple[str, tuple], Candidate] = {}
    claim: Candidate | None = None
    for c in o.each():
        if c.action.name == "claim-draw":
            claim = c
            continue
        by_key[_key(c.action.name, c.action.args)] = c
    now = score(pos.board, sign)
    seen: Mapping[str, int] = o.view.fields.get("seen_positions") or {}
    ranked: list[tuple[float, float, engine.Position, Candidate]] = []
    pass_move: Candidate | None = None
    for act in engine.legal_actions(pos):
        name, args = action_args(act)
        c = by_key.get(_key(name, args))
        if c is None:  # the guard does not offer it
            continue
        if act[0] == engine.PASS:
            pass_move = c
            continue
        after = engine.play(pos, act).position
        if after.result == pos.side:
            return c
        value = score(after.board, sign) - SEEN * seen.get(engine.position_key(after), 0)
        ranked.append((value, o.rng.random(), after, c))
    ranked.sort(key=lambda t: (-t[0], t[1]))
    level = now < AHEAD
    if claim is not None and level:
        return claim
    if pos.passed and pass_move is not None and level:  # the opponent passed: a pass is a draw
        return pass_move
    if not ranked:
        return pass_move or claim
    deeper = [(_reply(after, sign) - SEEN * seen.get(engine.position_key(after), 0), value, tie, c)
              for value, tie, after, c in ranked[:WIDTH]]
    for value, tie, after, c in ranked[WIDTH:]:  # the best few all lose at once: look for a move that holds
        if max(t[0] for t in deeper) > -WIN:
            break
        deeper.append((_reply(after, sign) - SEEN * seen.get(engine.position_key(after), 0), value, tie, c))
    deeper.sort(key=lambda t: (-t[0], -t[1], t[2]))
    top = deeper[0][0]
    if top <= -WIN and pass_move is not None:  # every move weighed lets the opponent win: the pass may not
        return pass_move
    long = pos.ply > LONG
    patience = 0.5 + max(0, pos.ply - LONG) / 10  # the longer the game, the more a move must gain to play on
    if pass_move is not None and (level and (_settled(pos.board) or pos.passed) or long) \
            and top <= _reply(pos, sign) + patience:
        return pass_move  # the areas are shared out (or the game drags on) and no move gains: a pass offers the draw
    if deeper[0][1] < now + STUCK and pass_move is not None:
        return pass_move
    close = [t for t in deeper if t[0] >= top - CLOSE]  # moves as good as the best, as a person's choice varies
    return close[o.rng.randrange(len(close))][3]


def _settled(board: tuple[int, ...]) -> bool:
    """Every prime area is held alone, two by each colour."""
    held = [0, 0]
    for area in AREA_INDICES:
        white = any(board[k] > 0 for k in area)
        black = any(board[k] < 0 for k in area)
        if white == black:
            return False
        held[0 if white else 1] += 1
    return held == [2, 2]


def _key(name: str, args: Mapping[str, object]) -> tuple[str, tuple]:
    return name, tuple(sorted((k, str(v)) for k, v in args.items() if not str(k).startswith("_")))
