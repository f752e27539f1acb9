"""Perft for the Petri dish, checked against an independent brute force.

`Brute` below re-implements the rulebook from scratch: points are strings,
the board is a dict, neighbours come from coordinate arithmetic, and after
every arrival it looks at *every* germ on the dish for one without
liberties. It shares no code with referee.games.petri_dish. The pinned
counts were produced by this brute force and are checked against both it
and the real generator, so a change in either shows.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from referee.games.petri_dish import engine
from referee.games.petri_dish.geometry import INDEX

# ---- the brute force ---------------------------------------------------------

ROWS = {1: "cdef", 2: "bcdefg", 3: "abcdefgh", 4: "abcdefgh", 5: "abcdefgh", 6: "abcdefgh",
        7: "bcdefg", 8: "cdef"}
FOOD = frozenset(f"{f}{r}" for r, files in ROWS.items() for f in files)
AREAS = [set(a.split()) for a in ("a3 b3 c3 b2 c2 c1", "f3 g3 h3 f2 g2 f1",
                                  "a6 b6 c6 b7 c7 c8", "f6 g6 h6 f7 g7 f8")]
STEP4 = ((1, 0), (-1, 0), (0, 1), (0, -1))
STEP8 = STEP4 + ((1, 1), (1, -1), (-1, 1), (-1, -1))
AFTER = {1: 1, 2: 2, 4: 3}  # liberties needed after arriving
TOKENS = 16


def shift(p: str, dx: int, dy: int) -> str | None:
    q = f"{chr(ord(p[0]) + dx)}{int(p[1]) + dy}"
    return q if q in FOOD else None


def orth(p: str) -> list[str]:
    return [q for d in STEP4 if (q := shift(p, *d))]


def ring(p: str) -> list[str]:
    return [q for d in STEP8 if (q := shift(p, *d))]


def open_orth(board: dict, p: str) -> int:
    return sum(1 for q in orth(p) if q not in board)


def area_holder(board: dict, need: int = 3) -> str | None:
    for me in "WB":
        held = 0
        for area in AREAS:
            colours = {board[p][0] for p in area if p in board}
            held += colours == {me}
        if held >= need:
            return me
    return None


@dataclass(frozen=True)
class Brute:
    board: dict = field(default_factory=dict)  # point -> (colour "W"/"B", size)
    mover: str = "W"
    turns: int = 0
    passed: bool = False
    over: bool = False
    large_divides_at: int = 3

    def reserve(self, colour: str) -> int:
        return TOKENS - sum(s for c, s in self.board.values() if c == colour)

    def _next(self, board: dict, passed: bool = False, over: bool = False) -> "Brute":
        if area_holder(board) is not None:
            over = True
        return Brute(board, "B" if self.mover == "W" else "W", self.turns + 1, passed, over,
                     self.large_divides_at)

    def _arrive(self, src: str | None, dst: str, germ: tuple, left: tuple | None) -> dict | None:
        board = dict(self.board)
        if src is not None:
            if left is None:
                del board[src]
            else:
                board[src] = left
        board[dst] = germ
        dead = [p for p in board if p != dst and open_orth(board, p) == 0]
        for p in dead:
            del board[p]
        return board if open_orth(board, dst) >= AFTER[germ[1]] else None

    def successors(self) -> list[tuple[str, "Brute"]]:
        if self.over:
            return []
        me = self.mover
        out = []
        if self.turns < 2:
            for p in sorted(FOOD - set(self.board)):
                board = self._arrive(None, p, (me, 1), None)
                if board is not None:
                    out.append((f"place {p}", self._next(board)))
            return out
        for p, (colour, size) in sorted(self.board.items()):
            if colour != me:
                continue
            for q in ring(p):
                if q in self.board:
                    continue
                board = self._arrive(p, q, (me, size), None)
                if board is not None:
                    out.append((f"move {p} {q}", self._next(board)))
            if size < 4 and self.reserve(me) >= size and open_orth(self.board, p) >= (2 if size == 1 else 3):
                board = dict(self.board)
                board[p] = (me, size * 2)
                out.append((f"grow {p}", self._next(board)))
            if size > 1 and open_orth(self.board, p) >= (2 if size == 2 else self.large_divides_at):
                half = (me, size // 2)
                for q in ring(p):
                    if q in self.board:
                        continue
                    board = self._arrive(p, q, half, half)
                    if board is not None:
                        out.append((f"divide {p} {q}", self._next(board)))
        out.append(("pass", self._next(dict(self.board), passed=True, over=self.passed)))
        return out

    def perft(self, depth: int) -> int:
        if depth == 0:
            return 1
        nexts = self.successors()
        if depth == 1:
            return len(nexts)
        return sum(n.perft(depth - 1) for _, n in nexts)

    def healthy(self) -> bool:
        """Every germ has a liberty, sizes are 1/2/4, reserves are within 0..16."""
        return (all(p in FOOD for p in self.board)
                and all(open_orth(self.board, p) >= 1 for p in self.board)
                and all(s in (1, 2, 4) for _, s in self.board.values())
                and all(0 <= self.reserve(c) <= TOKENS for c in "WB"))


def diagram(text: str) -> dict:
    """Rows from rank 8 down to rank 1; each row lists its foodpoints left to
    right: `.` open, `W1 W2 W4` white germs, `B1 B2 B4` black germs."""
    rows = [line.split() for line in text.strip().splitlines()]
    assert len(rows) == 8
    board = {}
    for rank, cells in zip(range(8, 0, -1), rows):
        assert len(cells) == len(ROWS[rank]), f"rank {rank} has {len(ROWS[rank])} points"
        for f, cell in zip(ROWS[rank], cells):
            if cell != ".":
                board[f"{f}{rank}"] = (cell[0], int(cell[1]))
    return board


# ---- positions ---------------------------------------------------------------

MIDGAME = {
    # self-capture (d3 to c3 kills white c4), a capture on c1 (b2 to c2), mixed sizes
    "skirmish": ("W", False, """
          .  .  .  .
       .  .  .  .  .  .
    .  .  .  .  .  .  .  .
    .  .  B1 .  .  .  .  .
    .  B1 W1 B1 .  .  .  .
    .  .  .  W2 .  .  .  .
       W1 .  .  .  .  .
          B1 W1 .  .
    """),
    # white holds two areas alone; black leaving g3 hands white the game
    "near-win": ("B", False, """
          .  .  .  .
       .  W1 .  .  .  .
    .  .  .  .  .  B2 .  .
    .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .
    .  W2 .  .  .  W1 B1 .
       .  .  .  .  .  .
          .  .  .  .
    """),
    # white has 1 token left, black none; white's pass would end the game
    "reserves-out": ("W", True, """
          .  .  .  .
       .  B4 .  .  .  .
    .  .  .  W4 .  .  W1 .
    .  .  .  .  .  .  .  B4
    .  W2 .  W4 .  W4 .  .
    .  .  .  .  .  .  .  .
       .  .  B4 B4 .  .
          .  .  .  .
    """),
    # a tight knot in the centre: most moves touch several germs
    "knot": ("B", False, """
          .  .  .  .
       .  .  .  .  .  .
    .  .  .  .  .  .  .  .
    .  .  W1 B2 W1 .  .  .
    .  .  B1 W2 B1 .  .  .
    .  .  W1 .  W1 .  .  .
       .  .  .  .  .  .
          .  .  .  .
    """),
}

# (name, depth) -> count, produced by Brute.perft (reserves-out stops at 2: 3 takes the brute force 10 s)
PINNED = {
    ("empty", 1): 52,  # every foodpoint
    ("empty", 2): 2652,  # 52 x 51: black places on any other point
    ("empty", 3): 22280,
    ("skirmish", 1): 28,
    ("skirmish", 2): 623,
    ("skirmish", 3): 17252,
    ("near-win", 1): 25,
    ("near-win", 2): 705,
    ("near-win", 3): 16851,
    ("reserves-out", 1): 69,
    ("reserves-out", 2): 2464,
    ("knot", 1): 12,
    ("knot", 2): 363,
    ("knot", 3): 6894,
}


def brute_of(name: str) -> Brute:
    if name == "empty":
        return Brute()
    mover, passed, text = MIDGAME[name]
    return Brute(diagram(text), mover, 20, passed)


def position_of(b: Brute, variant: engine.Variant = engine.STANDARD) -> engine.Position:
    cells = [0] * len(INDEX)
    for p, (colour, size) in b.board.items():
        cells[INDEX[p]] = size if colour == "W" else -size
    return engine.Position(tuple(cells), engine.WHITE if b.mover == "W" else engine.BLACK,
                           b.turns, b.passed, None, variant)


# ---- tests -----------------------------------------------------------------------


def test_the_brute_force_geometry_matches_the_house_rules():
    assert len(FOOD) == 52
    assert [len(ROWS[r]) for r in range(1, 9)] == [4, 6, 8, 8, 8, 8, 6, 4]
    assert all(len(a) == 6 for a in AREAS) and len(set().union(*AREAS)) == 24
    assert set().union(*AREAS) <= FOOD
    assert "b2" in ring("a3") and "b2" not in orth("a3")  # across the cut corner


@pytest.mark.parametrize("name", MIDGAME)
def test_midgame_positions_are_legal_and_show_what_they_claim(name):
    b = brute_of(name)
    assert b.healthy() and area_holder(b.board) is None
    labels = {label: nxt for label, nxt in b.successors()}
    if name == "skirmish":
        assert "c4" not in labels["move d3 c3"].board  # white kills its own germ
        assert "c1" not in labels["move b2 c2"].board  # and black's in the corner
    if name == "near-win":
        assert labels["move g3 h4"].over and area_holder(labels["move g3 h4"].board) == "W"
    if name == "reserves-out":
        assert b.reserve("W") == 1 and b.reserve("B") == 0
        assert "grow g6" in labels and "grow b4" not in labels
        assert labels["pass"].over


@pytest.mark.parametrize("name,depth", [pytest.param(n, d, marks=[pytest.mark.slow] if d >= 3 else [])
                                        for n, d in sorted(PINNED)])  # depth 3: thousands of positions
def test_perft_matches_the_brute_force(name, depth):
    b = brute_of(name)
    expected = b.perft(depth)
    assert expected == PINNED[(name, depth)]
    assert engine.perft(position_of(b), depth) == expected


@pytest.mark.parametrize("name", ["empty", *MIDGAME])
def test_generator_lists_the_same_actions_as_the_brute_force(name):
    b = brute_of(name)
    pos = position_of(b)
    mine = [engine.action_text(a) for a in engine.legal_actions(pos)]
    theirs = [label for label, _ in b.successors()]
    assert len(mine) == len(set(mine))
    assert sorted(mine) == sorted(theirs)
    successors = dict(b.successors())
    for action in engine.legal_actions(pos):  # and every resulting position agrees
        after = engine.play(pos, action).position
        nxt = successors[engine.action_text(action)]
        assert after.board == position_of(nxt).board
        assert (after.side, after.passed) == (position_of(nxt).side, nxt.passed)
        assert (after.result is not None) == nxt.over

def test_house_rule_two_liberties_for_a_large_division_matches_the_brute_force():
    board = diagram("""
          .  .  .  .
       .  .  .  .  .  .
    .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  .
    .  .  .  .  .  .  .  B1
    .  .  W1 .  .  .  .  .
       .  W4 W1 .  .  .
          .  .  .  .
    """)
    for need in (2, 3):
        b = Brute(board, "W", 10, False, large_divides_at=need)
        pos = position_of(b, engine.Variant(large_divide_liberties=need))
        divides = [engine.action_text(a) for a in engine.legal_actions(pos) if a[0] == engine.DIVIDE]
        assert sorted(divides) == sorted(label for label, _ in b.successors() if label.startswith("divide"))
        assert bool(divides) == (need == 2)
        assert engine.perft(pos, 2) == b.perft(2)
