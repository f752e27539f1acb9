"""How a sensible Culture War player plays (self-play's heuristic agent).

Read from the rulebook's turn: collect, deploy, fight, end the turn.
- Real Estate first while the board is small (each one pays a coin a turn
  and costs one more than the last), then the best unit the coins buy (a
  unit is worth its ATK and DEF, a Hero more), then Mods (a stat boost on
  the own unit that fights best, a penalty on the enemy's best unit), and
  any other card (Happenings, Operations, Flashes) when playing it leaves
  the player better off on their own view, coins spent counted;
- then every unit that has not attacked fights where the odds favour it:
  the chance of a kill from the two dice (ties rerolled), worth 5 LIFE (10
  for a Hero) and the enemy unit, against the 2 (Hero 4) a failure costs
  and a counter-attack after a roll of 1; straight at LIFE whenever the
  enemy has nothing to defend with;
- then it ends the turn.
Alliances change no rule but let life and coins be given: the policy never
allies, and never gives life or capital away. A discard a card asks for
gives up the cheapest cards; any other prompt is answered by what leaves
the player best off.

Only the player's own view is read (Board.reading(view)); `check` judges.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Mapping

from referee.games.culture_war.effects import static as effects
from referee.games.culture_war.table import zones
from referee.games.culture_war.table.board import Board
from referee.errors import RefereeError
from referee.model import Action, PlayerName, State
from referee.rules import prompts
from referee.rules.choosing import Options
from referee.rules.legal import Candidate

IDLE = frozenset({"ally", "unally"})
ESTATES_EARLY = 3  # Real Estate bought before units while the player owns fewer than this
FIGHT_FLOOR = 0.25  # an attack is made when its expected worth passes this
PLAY_FLOOR = 0.5  # a card other than a unit or Mod is played when it is worth this much


def undoes(earlier: Action, later: Action) -> bool:
    """An alliance made and ended (or ended and made) in one turn changes nothing."""
    return {earlier.name, later.name} == {"ally", "unally"}


# ---- the odds of a fight ---------------------------------------------------------------------


@lru_cache(maxsize=None)
def duel(atk: int, dfn: int) -> tuple[float, float]:
    """(chance the attacker wins, chance it fails rolling a 1), two d6, ties rerolled."""
    win = lose = crit = 0
    for x in range(1, 7):
        for y in range(1, 7):
            if atk + x > dfn + y:
                win += 1
            elif atk + x < dfn + y:
                lose += 1
                crit += x == 1
    total = win + lose
    return (win / total, crit / total) if total else (0.5, 0.0)


class Reader:
    """The player's view of the board, each unit's true ATK and DEF read once."""

    def __init__(self, state: State):
        self.state = state
        self.board = Board.reading(state)
        self._stats: dict[str, tuple[int, int]] = {}
        self._hero: dict[str, bool] = {}

    def stats(self, handle: str) -> tuple[int, int]:
        if handle not in self._stats:
            with effects.steady(self.board):
                s = effects.unit_stats(self.board, handle)
            self._stats[handle] = (s["atk"], s["def"])
        return self._stats[handle]

    def hero(self, handle: str) -> bool:
        if handle not in self._hero:
            self._hero[handle] = effects.hero(self.board, handle)
        return self._hero[handle]

    def worth(self, handle: str) -> float:
        atk, dfn = self.stats(handle)
        return 2.0 + 1.5 * (atk + dfn) + (6.0 if self.hero(handle) else 0.0)

    def fight(self, me: str, attacker: str, defender: str) -> float:
        """The expected LIFE swing of an attack, units counted at their worth."""
        board = self.board
        hero = self.hero(attacker)
        if defender not in board.pieces:  # straight at LIFE
            damage = int(board.rules.get("unopposed-hero-damage" if hero else "unopposed-damage", 10 if hero else 5))
            finish = 20.0 if board.life(defender) <= damage else 0.0
            return damage + finish + self.weakest(me, defender)
        atk, my_def = self.stats(attacker)
        their_atk, dfn = self.stats(defender)
        p_win, p_crit = duel(atk, dfn)
        p_counter = duel(their_atk, my_def)[0]
        kill = (10.0 if hero else 5.0) + self.worth(defender)
        fail = 4.0 if hero else 2.0
        lost = (10.0 if hero else 5.0) + self.worth(attacker)
        owner = board.pieces[defender]["owner"]
        return p_win * kill - (1 - p_win) * fail - p_crit * p_counter * lost + self.weakest(me, owner)

    def weakest(self, me: str, target: str) -> float:
        """A little more for hitting the rival closest to going out."""
        rivals = [n for n in self.board.live() if n != me]
        if len(rivals) < 2 or target not in rivals:
            return 0.0
        return 0.5 if self.board.life(target) == min(self.board.life(n) for n in rivals) else 0.0

    def standing(self, player: PlayerName) -> float:
        """LIFE, the board at its true ATK and DEF, Real Estate, coins and cards,
        the player's against the strongest rival still in."""
        state, board = self.state, self.board
        if state.winner is not None:
            return 1e6 if state.winner == player else -1e6
        me = state.player(player)
        if me.eliminated:
            return -1e6
        worth: dict[str, float] = {p.name: 0.0 for p in state.players}
        for handle, piece in board.pieces.items():
            owner = piece.get("owner")
            if owner not in worth:
                continue
            kind = piece.get("kind")
            if kind == "unit":
                worth[owner] += self.worth(handle)
            elif kind == zones.ESTATE_KIND:
                worth[owner] += 5.0
            else:
                worth[owner] += 3.0
        for p in state.players:
            worth[p.name] += 0.9 * board.capital(p.name) + 1.5 * int(p.fields.get("hand", 0))
        others = [float(p.life or 0) + worth[p.name] for p in state.players
                  if p.name != me.name and not p.eliminated]
        return float(me.life or 0) + worth[me.name] - (max(others) if others else 0.0) - 8.0 * len(others)


def evaluate(state: State, player: PlayerName) -> float:
    """How the table stands for `player` (Reader.standing)."""
    return Reader(state).standing(player)


# ---- the choice ----------------------------------------------------------------------------


def choose(o: Options) -> Candidate | None:
    view, me = o.view, str(o.player)
    rolloff = o.legal_ones("rolloff")
    if rolloff:
        return rolloff[0]
    if any(p.player == me for p in prompts.pending(view)):
        return _answer_prompt(o, Reader(view))
    board = view.fields
    if board.get("window"):
        return o.best((1.0, c) for c in o.each("settle")) or o.best((0.0, c) for c in o.each("end-turn"))
    if view.active_player.name != me:
        return None
    reader = Reader(view)
    return (_card_play(o, reader) or o.best((1.0, c) for c in o.each("seize"))
            or _attack(o, reader) or o.best((0.0, c) for c in o.each("end-turn")))


def _card_play(o: Options, reader: Reader) -> Candidate | None:
    """Scored before judging: `best` asks `check` from the top down."""
    me, board = str(o.player), reader.board
    exposed = not board.owned(me, "unit") and any(p.get("kind") == "unit" and p.get("owner") != me
                                                   for p in board.pieces.values())
    early = len(board.owned(me, zones.ESTATE_KIND)) < ESTATES_EARLY and not exposed  # defenders first when bare
    rich = board.capital(me) >= effects.estate_cost(board, me) + 1
    scored: list[tuple[float, Candidate]] = []
    others: list[Candidate] = []
    for c in o.each("play"):
        card = _card(c)
        kind = card["type"]
        if kind == "real-estate":
            if early or rich:
                scored.append(((100.0 if early else 10.0) + o.rng.random(), c))
        elif kind == "unit":
            scored.append((50.0 + _printed_worth(card), c))
        elif kind == "mod":
            worth = _mod_worth(reader, me, c)
            if worth > 0:
                scored.append((20.0 + worth, c))
        else:
            others.append(c)
    chosen = o.best(scored)
    if chosen is not None or not others:
        return chosen
    weighed = o.memo.setdefault("weighed", set())  # cards found not worth playing this turn
    fresh = [c for c in others if c.action.args["card"] not in weighed]
    if not fresh:
        return None
    now = reader.standing(o.player)
    tried = []
    for c in fresh:
        if not o.legal(c):
            continue
        after = o.after(c.action)
        if after is not None:
            tried.append((Reader(after).standing(o.player) - now, c))
    chosen = o.best(tried, floor=PLAY_FLOOR)
    if chosen is None:
        weighed.update(c.action.args["card"] for c in fresh)
    return chosen


def _card(c: Candidate) -> Mapping[str, Any]:
    return c.action.args["_card"]


def _printed_worth(card: Mapping[str, Any]) -> float:
    hero = "hero" in (card.get("traits") or ())
    return 1.5 * (int(card.get("atk") or 0) + int(card.get("def") or 0)) + (6.0 if hero else 0.0) \
        + 0.5 * len(card.get("effects") or ()) - 0.2 * int(card.get("cost") or 0)


def _mod_worth(reader: Reader, me: str, c: Candidate) -> float:
    """A stat Mod on the own unit that gains most from it, a penalty on the enemy's best unit."""
    on = c.action.args.get("on")
    piece = reader.board.pieces.get(str(on)) if on is not None else None
    if piece is None:
        return 0.0
    printed = _card(c).get("effects") or ()
    gain = sum(int(e.get("atk") or 0) + int(e.get("def") or 0) for e in printed if e.get("kind") == "stats")
    own = piece.get("owner") == me
    unit = piece.get("kind") == "unit"
    if unit and gain:
        helps = gain > 0 if own else gain < 0  # a boost on one's own unit, a penalty on the enemy's
        return abs(gain) + 0.1 * reader.worth(str(on)) if helps else 0.0
    for e in printed:
        kind = e.get("kind")
        if kind == "production":  # more coins on one's own Real Estate, fewer on a rival's
            if (int(e.get("amount") or 0) > 0) == own:
                return 1.0
        elif kind == "trait":  # cyber, protected on one's own; cannot-attack on a rival's
            if (e.get("trait") == "cannot-attack") != own:
                return 1.0 + (0.1 * reader.worth(str(on)) if unit else 0.0)
        elif kind in ("disable", "pay-or-discard") and not own:
            return 1.0 + (0.1 * reader.worth(str(on)) if unit else 0.0)
    return 0.0


def _attack(o: Options, reader: Reader) -> Candidate | None:
    me = str(o.player)
    scored = []
    for c in o.each("battle"):
        args = c.action.args
        if args.get("counter") is False:  # the defender's choice: a sensible one counter-attacks
            continue
        scored.append((reader.fight(me, str(args["attacker"]), str(args["defender"])), c))
    return o.best(scored, floor=FIGHT_FLOOR)


def _answer_prompt(o: Options, reader: Reader) -> Candidate | None:
    """A discard gives up the cheapest cards (or piece); anything else, what scores best a move ahead."""
    me, board = str(o.player), reader.board
    named = []
    for c in o.each("resolve", "discard-hand", "discard"):
        args = c.action.args
        if c.action.name == "discard-hand":
            named.append((-int(args["_card"].get("cost") or 0), c))
        elif c.action.name == "discard":
            piece = board.pieces.get(str(args["piece"]), {})
            if piece.get("owner") == me:
                worth = reader.worth(str(args["piece"])) if piece.get("kind") == "unit" else 5.0
                named.append((-worth, c))
        elif "," in str(args.get("answer")) or _is_card(str(args.get("answer"))):
            cards = str(args["answer"]).split(",")
            named.append((-sum(_cost(card) for card in cards), c))
    if named:
        return o.best(named)
    return None  # the lookahead weighs the prompt's own answers


def _is_card(answer: str) -> bool:
    return answer not in ("done", "skip") and "-" in answer


def _cost(card_id: str) -> int:
    from referee.games.culture_war.table.cards import card  # lazy: the card index

    try:
        return int(card(card_id).get("cost") or 0)
    except RefereeError:  # an id the index lacks costs nothing to give up
        return 0
