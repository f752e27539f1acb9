"""Culture War's rules: setup, the turn, playing cards, battles, alliances.

Every action is checked by running it on a throw-away Board, so `check`
and `apply` cannot disagree; `apply` runs it again on the real one.
`narrate` runs it a third time to say what happened, from the same dice.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Mapping, Sequence

from referee.errors import RefereeError, RuleViolation
from referee.games.culture_war import effects, phases, zones
from referee.games.culture_war import handlers as fx
from referee.games.culture_war.actions import Actions
from referee.games.culture_war.board import PLAIN, Board, DiceShortage, feeder, new_piece
from referee.games.culture_war.cards import deck_size, starting_cards
from referee.games.culture_war.house_rules import HOUSE_RULES, LIFE_BY_PLAYERS
from referee.games.culture_war.phases import ROLL_OFF_RULE
from referee.games.culture_war import phrases as _phrases
from referee.games.generic import GenericRules, _changed
from referee.model import Action, GameSlug, Setup, State

WINDOW_ALLOWS = frozenset({"settle", "resolve", "life", "capital", "crowd"})


class CultureWarRules(Actions, GenericRules):
    slug = GameSlug.CULTURE_WAR
    phrases = {**GenericRules.phrases, **_phrases.PHRASES}

    def label(self, state: State, key: str, value: object) -> str | None:
        return _phrases.label(state, key, value)

    def pieces(self, state: State) -> list[tuple[str, str]]:
        from referee.games.culture_war.view import long_handle  # lazy: only Tab completion needs it

        board = Board(state)
        return [(long_handle(board, h), f"#{h} {p['name']}") for h, p in board.pieces.items()]

    def covered(self, notes: Sequence[str], line: str) -> bool:
        """A Real Estate's coins or a piece entering play, already in the story."""
        return _phrases.covered(notes, line)

    def log_outcome(self, before: State, event: object, after: State) -> list[str]:
        """A battle's rolls, as `3+2=5 v 6+0=6 fails`."""
        if getattr(event, "action", None) not in ("battle", "settle"):
            return []
        from referee.store.events import action_of  # lazy: only the log needs it

        notes = self.narrate(before, action_of(event), event.dice)  # type: ignore[arg-type]
        return [_phrases.roll_text(n) for n in notes if n.strip().startswith("roll ")]

    title = "Culture War"
    version = "culture-war-6"  # 6: an eliminated player's truces end
    min_players, max_players = 2, 5
    has_life = True
    has_capital = True
    out_at_zero_life = True
    factions = ("anarchy", "community", "technocracy", "conservative", "libertarian")
    house_rules = HOUSE_RULES

    # ---- setup -------------------------------------------------------------

    def starting_life(self, setup: Setup, rules: Mapping[str, object]) -> int | None:
        if setup.life is not None:
            if setup.life < 1:
                raise RuleViolation("starting life", f"players must start with at least 1 life, not {setup.life}")
            self.house_rules["starting-life"].check_range(setup.life)
            return setup.life
        chosen = rules.get("starting-life")
        return int(chosen) if chosen is not None else LIFE_BY_PLAYERS[len(setup.players)]

    def starting_capital(self, rules: Mapping[str, object]) -> int | None:
        value = int(rules["starting-capital"])  # type: ignore[arg-type]
        if value < 0:
            raise RuleViolation("starting capital", f"players cannot start with {value} capital")
        return value

    def setup(self, setup: Setup, dice: Sequence[int]) -> State:
        state = super().setup(setup, dice)
        rules = state.house_rules
        seating = rules["first-player"] == "seating"
        names = [p.name for p in state.players]
        fields = {
            "order": {"mode": rules["first-player"], "settled": seating, "first": names[0] if seating else None,
                      "contenders": [] if seating else names, "rounds": []},
            "pieces": {}, "banks": {n: {} for n in names}, "timed": [], "alliances": [],
            "had_turn": [], "attacks": 0, "begun": False, "next": 1,
            "discards": {n: [] for n in names}, "removed": {n: [] for n in names},
        }
        board = Board(replace(state, fields=fields))
        for player in state.players:
            estate_card, base_card = starting_cards(player.faction) if player.faction else (None, None)
            estate = new_piece(estate_card or {"name": "Real Estate", "type": "real-estate"}, player.name, 0)
            coins = int(player.capital or 0)
            room = effects.capacity(estate)
            if coins:
                estate["coins"] = {estate.get("deck") or PLAIN: min(coins, room)}
            board.add_piece(estate)
            board.put(player.name, {player.faction or PLAIN: max(0, coins - room)})
            board.add_piece(new_piece(base_card or {"name": "Base Unit", "type": "unit", "cost": 1, "atk": 0,
                                                 "def": 0, "traits": ["base"]}, player.name, 0))
            size = deck_size(player.faction) if player.faction and rules["decks"] == "faction" else None
            board.people[player.name] = replace(player, fields={**player.fields, **zones.starting_fields(size)})
        return board.to_state()

    # ---- phases, zones and the hooks the core calls --------------------------------

    def phase(self, state: State) -> str | None:
        """roll-off, card deployment, combat or game over (see phases.py)."""
        return phases.describe(state)

    def where_is(self, state: State, card_id: str) -> list[str]:
        return [f"{p.name}'s: {place}" for p in state.players for place in zones.places(state, p.name, card_id)]

    def rules_can_decide(self, state: State) -> bool:
        """Players are out at 0 LIFE and the last one standing wins; no printed
        card ends the game another way, so until the game is won `win PLAYER`
        is an override (--force)."""
        return not state.finished

    def check(self, state: State, action: Action) -> None:
        if not state.finished and state.fields.get("window") and action.name not in WINDOW_ALLOWS:
            card = action.args.get("_card") or {}
            if action.name != "play" or card.get("type") != "flash":
                raise RuleViolation("after the dice", "a battle's dice are shown and it waits to be settled: only "
                                    "Flash cards may be played now, then `referee settle`")
        if not state.finished:
            phases.check_phase(state, action)
            zones.check(state, action)
        super().check(state, action)

    def apply(self, state: State, action: Action, dice: Sequence[int]) -> State:
        return zones.settle(state, super().apply(state, action, dice), action)

    # draw N / discard-hand CARD: what card text does to a hand -------------------

    def check_draw(self, state: State, action: Action) -> None:
        self._checked(state, action)

    def apply_draw(self, state: State, action: Action, dice: Sequence[int]) -> State:
        return self._applied(state, action, dice)

    def _do_draw(self, board: Board, args: Mapping[str, Any], dice: Any) -> None:
        name = self._acting(board, args["player"])
        zones.draw_on_board(board, name, int(args["count"]), args.get("reason") or "a card effect")

    def check_discard_hand(self, state: State, action: Action) -> None:
        self._checked(state, action)

    def apply_discard_hand(self, state: State, action: Action, dice: Sequence[int]) -> State:
        return self._applied(state, action, dice)

    def _do_discard_hand(self, board: Board, args: Mapping[str, Any], dice: Any) -> None:
        name = self._acting(board, args["player"])
        board.notes.append(f"{name} discards {args['_card']['name']} from the hand to the discard pile"
                           + (f" ({args['reason']})" if args.get("reason") else ""))

    # ---- dispatch ----------------------------------------------------------

    def dice_needed(self, state: State, action: Action) -> tuple[int, ...]:
        if action.name in ("battle", "rolloff", "window", "settle"):
            return (6,) * int(action.args.get("rolls") or 0)
        if action.name == "play":
            from referee.games.culture_war.actions import NOW_OF

            card = action.args["_card"]
            now = [e for e in effects.read(card.get("effects")) if effects.when_of(e) in NOW_OF.get(card["type"], ())]
            return (6,) * fx.rolls_in(now)
        if action.name == "end-turn":
            return (6,) * _turn_dice(state)
        return ()

    def _run(self, state: State, action: Action, dice: Callable[[], int] | None) -> Board:
        board = Board(state)
        getattr(self, "_do_" + action.name.replace("-", "_"))(board, action.args, dice)
        return board

    def narrate(self, state: State, action: Action, dice: Sequence[int]) -> list[str]:
        """What an action did, in words, replayed from the state before it."""
        if action.name == "end-turn":
            return self._end_turn(state, dice)[1]
        if not hasattr(self, "_do_" + action.name.replace("-", "_")):
            return []
        return self._run(state, action, feeder(dice)).notes

    def count_dice(self, state: State, action: Action, dice: Callable[[], int]) -> None:
        """Play an action with a dice source (to learn how many dice it takes).
        A DiceShortage carries the story so far in `notes`."""
        board = Board(state)
        try:
            getattr(self, "_do_" + action.name)(board, action.args, dice)
        except DiceShortage as exc:
            exc.notes = board.notes  # type: ignore[attr-defined]
            raise

    def _checked(self, state: State, action: Action) -> None:
        # a card that rolls as it is played is legal whatever it rolls: check it with a 3
        self._run(state, action, (lambda: 3) if action.name == "play" else _no_dice)

    def _applied(self, state: State, action: Action, dice: Sequence[int]) -> State:
        used: list[int] = []
        source = feeder(dice)

        def counted() -> int:
            used.append(source())
            return used[-1]

        try:
            board = self._run(state, action, counted)
        except DiceShortage:
            raise RuleViolation("a tie is rolled again",
                                f"the dice {_dice(dice)} run out before the battle is over; type every die") from None
        if len(used) != len(dice):
            raise RuleViolation("dice", f"{action.name} used {len(used)} of the {len(dice)} dice given")
        first = board.f["order"]["first"] if action.name == "rolloff" else None
        return board.to_state(active=board.seats.index(first) if first else state.active)

    # ---- the roll-off ------------------------------------------------------------

    def check_rolloff(self, state: State, action: Action) -> None:
        order = state.fields["order"]
        if order["settled"]:
            why = ("the table plays in seating order (house rule first-player=seating)" if order["mode"] == "seating"
                   else f"{order['first']} already goes first")
            raise RuleViolation(ROLL_OFF_RULE, f"{phases.phase_of(state).value} phase: there is no roll-off to "
                                               f"make: {why}")
        if state.turn != 1 or state.fields.get("begun"):
            raise RuleViolation(ROLL_OFF_RULE, "the roll-off comes before anyone plays")
        if int(action.args.get("rolls") or 0) < 1:
            raise RefereeError("the roll-off needs dice")

    def apply_rolloff(self, state: State, action: Action, dice: Sequence[int]) -> State:
        return self._applied(state, action, dice)

    def _do_rolloff(self, board: Board, args: Mapping[str, Any], dice: Callable[[], int]) -> None:
        order = board.f["order"]
        rolls = args.get("rolls")  # None: roll until someone has won (the seeded dice)
        used = 0
        while (used < rolls) if rolls is not None else not order["settled"]:
            if order["settled"]:
                raise RuleViolation(ROLL_OFF_RULE, f"{order['first']} won the roll-off after {used} dice; "
                                                   f"{rolls - used} more were given")
            contenders = order["contenders"]
            if rolls is not None and rolls - used < len(contenders):
                raise RuleViolation(ROLL_OFF_RULE, f"each round of the roll-off needs one die for each of "
                                                   f"{', '.join(contenders)}; {rolls - used} left")
            rolled = [[name, dice()] for name in contenders]
            used += len(contenders)
            order["rounds"].append(rolled)
            top = max(d for _, d in rolled)
            order["contenders"] = [n for n, d in rolled if d == top]
            line = "roll-off: " + ", ".join(f"{n} {d}" for n, d in rolled)
            if len(order["contenders"]) == 1:
                order.update(settled=True, first=order["contenders"][0], contenders=[])
                board.notes.append(f"{line} -> {order['first']} goes first; then "
                                   + ", ".join(play_order(board.seats, order["first"])[1:]))
            else:
                board.notes.append(f"{line} -> {' and '.join(order['contenders'])} tie on {top} and roll again")

    # ---- the turn -------------------------------------------------------------------

    def apply_end_turn(self, state: State, action: Action, dice: Sequence[int]) -> State:
        return self._end_turn(state, dice)[0]

    def _end_turn(self, state: State, dice: Sequence[int]) -> tuple[State, list[str]]:
        """The turn ends and the next player still in begins theirs; also what
        happened on the way, in words (end- and start-of-turn effects, the draw,
        production)."""
        board = Board(state)
        ending = board.active
        source = _lenient(dice)
        fx.at_turn(board, ending, "end-of-turn", source)
        if ending not in board.f["had_turn"]:
            board.f["had_turn"].append(ending)
        board.f["timed"] = [t for t in board.f["timed"] if t["until"] not in ("turn", "battle")]
        board.f["attacks"] = 0
        if not board.f["order"]["settled"]:  # a table logged before the roll-off was enforced
            board.f["order"].update(settled=True, first=board.seats[0], contenders=[])
        notes = list(board.notes)
        state = board.to_state()
        for _ in range(len(state.players)):
            if state.winner is not None:
                return state, notes
            state = _next_turn(state)
            board = Board(state)
            if board.active in board.f["had_turn"]:  # resource collection: draw, then coins
                zones.draw_on_board(board, board.active, zones.TURN_DRAW, "start of turn")
                fx.start_of_turn(board, board.active, source)
            else:
                fx.end_truces(board, board.active)
            notes += board.notes
            state = board.to_state()
            if not state.active_player.eliminated or state.winner is not None:
                break
        return state, notes

    # ---- life and capital ---------------------------------------------------------

    def apply_life(self, state: State, action: Action, dice: Sequence[int]) -> State:
        if _changed(state.player(action.args["player"]).life or 0, action.args) > 0:
            return super().apply_life(state, action, dice)  # nothing leaves play: the quick way
        board = Board(state)
        name = board.name(action.args["player"])
        board.change_life(name, _changed(board.life(name), action.args) - board.life(name),
                          action.args.get("reason") or "scorekeeper")
        return board.to_state()

    def apply_capital(self, state: State, action: Action, dice: Sequence[int]) -> State:
        board = Board(state)
        name = board.name(action.args["player"])
        delta = _changed(board.capital(name), action.args) - board.capital(name)
        why = action.args.get("reason") or "scorekeeper"
        if delta > 0:
            board.gain(name, delta, board.own_faction(name), why)
        elif delta < 0:
            board.take(name, -delta, why)
        return board.to_state()

    # ---- text -------------------------------------------------------------------------

    def render_lines(self, state: State) -> list[str]:
        from referee.games.culture_war.view import render_lines

        return [*render_lines(state), *zones.pile_lines(state)]  # the core shows the phase

    def change_lines(self, before: State, after: State) -> list[str]:
        from referee.games.culture_war.view import change_lines

        return change_lines(before, after)


def play_order(seats: Sequence[str], first: str) -> list[str]:
    """Seats from the first player round the table (the order --player gave)."""
    k = list(seats).index(first)
    return list(seats[k:]) + list(seats[:k])


def _next_turn(state: State) -> State:
    """Play passes to the next player still in; a round ends when it passes the first player."""
    count = len(state.players)
    first = state.fields["order"].get("first")
    start = state.index_of(first) if first else 0
    nxt = state.active
    for _ in range(count):
        nxt = (nxt + 1) % count
        if not state.players[nxt].eliminated:
            break
    wrapped = (nxt - start) % count <= (state.active - start) % count
    return replace(state, active=nxt, turn=state.turn + 1, round=state.round + (1 if wrapped else 0))


def _turn_dice(state: State) -> int:
    """Dice an end-turn rolls: the ending player's end-of-turn rolls, then the
    next player's start-of-turn rolls (from their second turn)."""
    board = Board(state)
    count = fx.turn_dice(board, board.active, "end-of-turn")
    nxt = Board(_next_turn(state))
    if nxt.active in board.f["had_turn"] or nxt.active == board.active:
        count += fx.turn_dice(nxt, nxt.active, "start-of-turn")
    return count


def _lenient(values: Sequence[int]) -> Callable[[], int]:
    """The dice of an end-turn in order. They are counted before the turn ends
    (`_turn_dice`); should a roll come that was not counted, it reads 3, a face
    no printed roll acts on."""
    it = iter(values)
    return lambda: next(it, 3)


def _no_dice() -> int:
    raise DiceShortage("checking an action rolls no dice")


def _dice(values: Sequence[int]) -> str:
    return ",".join(map(str, values)) or "(none)"
