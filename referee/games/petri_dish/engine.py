"""The pure move generator for the Petri dish: positions, actions, perft.

Nothing here knows about players, tables or the log; `rules.py` translates
between a table's State and a Position. A board is a tuple of 52 signed
ints indexed like geometry.POINTS: 0 is an open foodpoint, +n a white germ
of n tokens, -n a black germ of n tokens.

Actions are tuples (kind, a, b) of ints: (PLACE, -1, at), (MOVE, from, to),
(GROW, at, -1), (DIVIDE, from, to), (PASS, -1, -1).

Two functions decide legality and they must agree: `legal_actions` is the
fast generator (perft), `refusal` explains why one action is not allowed
(the referee's check). The tests hold them to each other.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from referee.games.petri_dish.geometry import AREA_INDICES, AROUND, ORTHOGONAL, POINTS

WHITE, BLACK, DRAW = 0, 1, 2
COLOURS = ("white", "black")
PLACE, MOVE, GROW, DIVIDE, PASS = range(5)
KIND_NAMES = ("place", "move", "grow", "divide", "pass")
SIZES = (1, 2, 4)
SIZE_WORDS = {1: "small", 2: "medium", 4: "large"}

# Liberties a germ of each size must have after it moves (or arrives by division).
LIBERTIES_AFTER_MOVE = {1: 1, 2: 2, 4: 3}
# Liberties a small / medium germ must have before it grows.
LIBERTIES_TO_GROW = {1: 2, 2: 3}
# The rulebook places no liberty limit on placing; a placed germ must still live.
PLACED_NEEDS = 1


@dataclass(frozen=True, slots=True)
class Variant:
    """The numbers a table may change with house rules."""

    large_divide_liberties: int = 3  # the rulebook's typo read as "a large germ needs 3"
    areas_to_win: int = 3
    tokens: int = 16

    def divide_needs(self, size: int) -> int:
        return 2 if size == 2 else self.large_divide_liberties


STANDARD = Variant()


@dataclass(frozen=True, slots=True)
class Position:
    board: tuple[int, ...] = (0,) * len(POINTS)
    side: int = WHITE
    ply: int = 0  # actions taken so far; plies 0 and 1 are the two placements
    passed: bool = False  # the last action was a pass
    result: int | None = None  # WHITE or BLACK won, or DRAW; None while the game goes on
    variant: Variant = field(default=STANDARD)

    @property
    def placing(self) -> bool:
        return self.ply < 2

    def reserve(self, side: int) -> int:
        sign = 1 if side == WHITE else -1
        return self.variant.tokens - sum(v * sign for v in self.board if v * sign > 0)


def liberties(board: tuple[int, ...] | list[int], i: int) -> int:
    return sum(1 for k in ORTHOGONAL[i] if board[k] == 0)


def _land(board: tuple[int, ...], src: int, dst: int, value: int, left: int) -> tuple[list[int], list[int], int]:
    """Put `value` on dst (leaving `left` on src, unless src is -1), remove every
    non-moving germ left without liberties, and count the arrival's liberties.
    Only germs next to dst can lose their last liberty, so only they are looked at."""
    b = list(board)
    if src >= 0:
        b[src] = left
    b[dst] = value
    dead = [k for k in ORTHOGONAL[dst] if b[k] and not any(b[m] == 0 for m in ORTHOGONAL[k])]
    for k in dead:
        b[k] = 0
    libs = sum(1 for k in ORTHOGONAL[dst] if b[k] == 0)
    return b, dead, libs


def _arrival_ok(board: tuple[int, ...], src: int, dst: int, value: int, left: int, need: int) -> bool:
    """The fast test behind the generator: liberties of the arrival after captures."""
    free = 0
    for k in ORTHOGONAL[dst]:
        v = board[k] if k != src else left
        if v == 0:
            free += 1
        elif free + 1 <= need:  # a neighbour that dies gives a liberty back
            alive = False
            for m in ORTHOGONAL[k]:
                w = board[m] if m != src else left
                if w == 0 and m != dst:
                    alive = True
                    break
            if not alive:
                free += 1
    return free >= need


def legal_actions(pos: Position) -> list[tuple[int, int, int]]:
    """Every action the side to move may take, in canonical order:
    places, then moves, grows and divisions by point, then pass."""
    if pos.result is not None:
        return []
    board = pos.board
    sign = 1 if pos.side == WHITE else -1
    if pos.placing:
        return [(PLACE, -1, j) for j, v in enumerate(board)
                if v == 0 and _arrival_ok(board, -1, j, sign, 0, PLACED_NEEDS)]
    moves: list[tuple[int, int, int]] = []
    grows: list[tuple[int, int, int]] = []
    divides: list[tuple[int, int, int]] = []
    reserve = pos.reserve(pos.side)
    variant = pos.variant
    for i, v in enumerate(board):
        size = v * sign
        if size <= 0:
            continue
        need = LIBERTIES_AFTER_MOVE[size]
        for j in AROUND[i]:
            if board[j] == 0 and _arrival_ok(board, i, j, v, 0, need):
                moves.append((MOVE, i, j))
        if size == 4:
            can_grow = False
        else:
            can_grow = reserve >= size and liberties(board, i) >= LIBERTIES_TO_GROW[size]
        if can_grow:
            grows.append((GROW, i, -1))
        if size >= 2 and liberties(board, i) >= variant.divide_needs(size):
            half = v // 2
            half_need = LIBERTIES_AFTER_MOVE[size // 2]
            for j in AROUND[i]:
                if board[j] == 0 and _arrival_ok(board, i, j, half, half, half_need):
                    divides.append((DIVIDE, i, j))
    return moves + grows + divides + [(PASS, -1, -1)]


def winner(board: tuple[int, ...] | list[int], variant: Variant = STANDARD) -> int | None:
    """The colour that is sole occupant of enough prime areas, if any."""
    held = [0, 0]
    for area in AREA_INDICES:
        white = black = False
        for k in area:
            v = board[k]
            if v > 0:
                white = True
            elif v < 0:
                black = True
        if white and not black:
            held[WHITE] += 1
        elif black and not white:
            held[BLACK] += 1
    for colour in (WHITE, BLACK):
        if held[colour] >= variant.areas_to_win:
            return colour
    return None


@dataclass(frozen=True)
class Outcome:
    """What one action did, for telling the table."""

    position: Position
    captured: tuple[tuple[int, int], ...] = ()  # (point, signed germ) of each germ killed


def play(pos: Position, action: tuple[int, int, int]) -> Outcome:
    """The position after a legal action (not checked here: see `refusal`)."""
    kind, a, b = action
    sign = 1 if pos.side == WHITE else -1
    passed = False
    captured: list[tuple[int, int]] = []
    result = None
    if kind == PASS:
        board = pos.board
        passed = True
        if pos.passed:
            result = DRAW
    elif kind == GROW:
        cells = list(pos.board)
        cells[a] *= 2
        board = tuple(cells)
    else:
        if kind == PLACE:
            cells, dead, _ = _land(pos.board, -1, b, sign, 0)
        elif kind == MOVE:
            cells, dead, _ = _land(pos.board, a, b, pos.board[a], 0)
        else:
            half = pos.board[a] // 2
            cells, dead, _ = _land(pos.board, a, b, half, half)
        captured = [(k, pos.board[k]) for k in dead]
        board = tuple(cells)
        result = winner(board, pos.variant)
    after = replace(pos, board=board, side=1 - pos.side, ply=pos.ply + 1, passed=passed, result=result)
    return Outcome(after, tuple(captured))


def perft(pos: Position, depth: int) -> int:
    """How many action sequences of length `depth` start from `pos`."""
    if depth == 0:
        return 1
    actions = legal_actions(pos)
    if depth == 1:
        return len(actions)
    return sum(perft(play(pos, a).position, depth - 1) for a in actions)


def perft_divide(pos: Position, depth: int) -> list[tuple[tuple[int, int, int], int]]:
    """perft split by the first action (depth >= 1)."""
    return [(a, perft(play(pos, a).position, depth - 1)) for a in legal_actions(pos)]


def action_text(action: tuple[int, int, int]) -> str:
    """The canonical string: `place d4`, `move c3 d4`, `grow c3`, `divide c3 d4`, `pass`."""
    kind, a, b = action
    if kind == PLACE:
        return f"place {POINTS[b]}"
    if kind == GROW:
        return f"grow {POINTS[a]}"
    if kind == PASS:
        return "pass"
    return f"{KIND_NAMES[kind]} {POINTS[a]} {POINTS[b]}"


def position_key(pos: Position) -> str:
    """The pattern of germs plus the side to move, for spotting repetitions."""
    marks = {0: ".", 1: "a", 2: "b", 4: "c", -1: "x", -2: "y", -4: "z"}
    return "".join(marks[v] for v in pos.board) + ("w" if pos.side == WHITE else "b")


# ---- explaining a refusal -----------------------------------------------------

Refusal = tuple[str, str]  # (rule, reason)


def _germ(v: int) -> str:
    return f"{SIZE_WORDS[abs(v)]} {COLOURS[WHITE if v > 0 else BLACK]} germ"


def _plural(n: int) -> str:
    return f"{n} libert{'y' if n == 1 else 'ies'}"


def refusal(pos: Position, action: tuple[int, int, int]) -> Refusal | None:
    """Why `action` is not allowed in `pos` (rule, reason), or None if it is.

    Written rule by rule from the rulebook, separately from the generator."""
    kind, a, b = action
    sign = 1 if pos.side == WHITE else -1
    board = pos.board
    if pos.result is not None:
        return ("game over", "the game has ended")
    if pos.placing and kind != PLACE:
        return ("first turn: place a germ",
                "each player's first turn must place one small germ on an open foodpoint")
    if kind == PLACE:
        if not pos.placing:
            return ("placing only on the first turn",
                    "germs are placed only on each player's first turn; later tokens enter by growing")
        if board[b]:
            return ("one germ per foodpoint", f"{POINTS[b]} already holds a {_germ(board[b])}")
        _, _, libs = _land(board, -1, b, sign, 0)
        if libs < PLACED_NEEDS:
            return ("every germ needs a liberty", f"a germ placed on {POINTS[b]} would have no liberty")
        return None
    if kind == PASS:
        return None
    own = board[a] * sign
    if board[a] == 0:
        return ("your own germs only", f"there is no germ on {POINTS[a]}")
    if own < 0:
        return ("your own germs only", f"{POINTS[a]} holds a {_germ(board[a])}")
    word = SIZE_WORDS[own]
    if kind == GROW:
        if own == 4:
            return ("large germs do not grow", f"the germ on {POINTS[a]} is already large")
        need = LIBERTIES_TO_GROW[own]
        have = liberties(board, a)
        if have < need:
            return ("liberties before growing",
                    f"a {word} germ needs {_plural(need)} to grow and the one on {POINTS[a]} has {have}")
        reserve = pos.reserve(pos.side)
        if reserve < own:
            return ("growing takes tokens from the reserve",
                    f"growing a {word} germ takes {own} token{'s' if own > 1 else ''} "
                    f"and the reserve holds {reserve}")
        return None
    if kind == DIVIDE:
        if own == 1:
            return ("small germs do not divide", f"the germ on {POINTS[a]} is small")
        need = pos.variant.divide_needs(own)
        have = liberties(board, a)
        if have < need:
            return ("liberties before dividing",
                    f"a {word} germ needs {_plural(need)} to divide and the one on {POINTS[a]} has {have}")
    if b not in AROUND[a]:
        return ("moves reach the 8 neighbouring points",
                f"{POINTS[b]} is not next to {POINTS[a]} (orthogonally or diagonally)")
    if board[b]:
        return ("one germ per foodpoint", f"{POINTS[b]} already holds a {_germ(board[b])}")
    if kind == MOVE:
        value, left = board[a], 0
    else:
        value = left = board[a] // 2
    _, dead, libs = _land(board, a, b, value, left)
    need = LIBERTIES_AFTER_MOVE[abs(value)]
    if libs < need:
        rule = "liberties after moving" if kind == MOVE else "liberties after dividing"
        what = f"the {SIZE_WORDS[abs(value)]} germ arriving on {POINTS[b]}"
        freed = f" (counting {len(dead)} freed by captures)" if dead else ""
        return (rule, f"{what} would have {_plural(libs)}{freed} and needs {need}")
    return None
