"""Tables reached by self-play, and every listed move played on them (not a
test module; tests/referee/test_every_listed_move.py).

A seeded self-play game (the random agent, through the real rules) is kept
with its actions and dice. Its steps are replayed through `rules.apply`
outside `unseen()`, so each state is the one the table file holds (the
ledger replays the same way), and the self-play dealer is replayed beside
them inside `unseen()`, as self-play ran it, so the hands at each step are
the true hands of that table.

A listed move is played as the table plays it (`ledger.perform`): the actor
the rules name when it has none, then `check` and `rules.play` with the
dice `dice_needed` asks for, or, for an action that rolls until it is
decided (a Culture War battle), `rules.play_drawing` with dice drawn as it
asks. Any refusal, or any other exception, is a failure.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Iterator, Mapping, Sequence

from referee.errors import RefereeError
from referee.model import Action, PlayerName, State


@dataclass(frozen=True)
class Reached:
    """One state met in a self-played game, with the true hands (None: a game without hidden cards)."""

    game: str
    seed: int
    step: int  # actions played since the setup
    state: State
    hands: Mapping[str, Sequence[str]] | None


@dataclass(frozen=True)
class Refusal:
    """A listed move the rules refused (or failed on) when it was played as listed."""

    game: str
    seed: int
    step: int
    player: str
    command: str
    text: str
    why: str

    def __str__(self) -> str:
        return (f"{self.game} seed {self.seed} step {self.step}: {self.player}'s listed move "
                f"`referee {self.command}` ({self.text}) is refused: {self.why}")


def self_played(game: str, players: int, seed: int, turns: int, agent: str = "random",
                house_rules: Sequence[str] = ()) -> tuple[Any, Any]:
    """(config, record) of one self-play game (`agent` at every seat, `house_rules`
    as `KEY=VALUE`), its actions and dice kept."""
    from referee.simulate.play import play_game
    from referee.simulate.runner import make_plan

    plan = make_plan(game, players, (), (agent,), 1, seed=seed, turn_cap=turns, keep=1, house_rules=house_rules)
    config = replace(plan.config(0), keep=True)
    return config, play_game(config)


def reached(game: str, players: int, seed: int, turns: int, samples: int, agent: str = "random",
            house_rules: Sequence[str] = ()) -> list[Reached]:
    """The table right after the setup (step 0) and `samples` states of one
    self-played game, at steps spread evenly over it."""
    from referee.rules import rules_for
    from referee.rules.unseen import unseen
    from referee.simulate.play import physical_for, setup_of

    config, record = self_played(game, players, seed, turns, agent, house_rules)
    rules = rules_for(config.game)
    steps = record.steps
    wanted = {0} | {max(1, (len(steps) * (i + 1)) // (samples + 1)) for i in range(samples)} & set(range(1, len(steps) + 1))
    hands_at: dict[int, dict[str, list[str]] | None] = {}
    with unseen():  # the dealer meets the states self-play met
        state = rules.setup(setup_of(config), record.setup_dice)
        physical = physical_for(rules, state, random.Random(f"deal:{config.seed}"))
        hands = physical.hands()
        hands_at[0] = None if hands is None else {str(k): list(v) for k, v in hands.items()}
        for i, step in enumerate(steps, start=1):
            before = state
            state = rules.apply(before, step.action, step.dice)
            physical.after(before, step.action, state)
            if i in wanted:
                hands = physical.hands()
                hands_at[i] = None if hands is None else {str(k): list(v) for k, v in hands.items()}
    state = rules.setup(setup_of(config), record.setup_dice)  # the table's own states, outside unseen()
    out = [Reached(game, seed, 0, state, hands_at[0])]
    for i, step in enumerate(steps, start=1):
        state = rules.apply(state, step.action, step.dice)
        if i in wanted:
            out.append(Reached(game, seed, i, state, hands_at[i]))
    return out


def kind_of(move: Any) -> str:
    """What a listed move is, for counting what the tables reached: its
    action's name, a battle's target (a unit or a player's life) and a card
    play's card type and whether it names a target."""
    action = move.action
    if action is None:
        return f"<CARD> {move.kind}"
    if action.name in ("battle", "window") and "direct" in move.details:
        return f"{action.name} {'a player' if move.details['direct'] else 'a unit'}"
    card = action.args.get("_card")
    if action.name == "play" and isinstance(card, Mapping):
        return f"play {card.get('type')}" + (" --on" if "on" in action.args else "")
    return action.name


def movers(state: State) -> list[PlayerName]:
    """Everyone still in: any of them may have a move now (a Flash, an answer, an alliance)."""
    return [p.name for p in state.players if not p.eliminated]


def play_as_listed(rules: Any, state: State, action: Action, seed: int) -> State:
    """`action` played on `state` as the table plays it (ledger.perform), with
    seeded dice: the state after. Raises what the rules raise."""
    from referee.rules import dice as dicelib
    from referee.rules.legal import drawing

    if action.actor is None:
        acting = rules.default_actor(state, action)
        action = replace(action, actor=acting) if acting is not None else action
    if action.name in drawing(state.game) and "rolls" not in action.args:
        _, after, _ = rules.play_drawing(state, action, dicelib.Drawn(seed, 0))
        return after
    rules.check(state, action)
    dice = dicelib.draw(seed, 0, rules.dice_needed(state, action))
    after, _ = rules.play(state, action, dice)
    return after


def every_listed(at: Reached, known: bool = True) -> Iterator[tuple[str, Any, Refusal | None]]:
    """Each listed move of each player still in at `at`, played on the state:
    (player, move, the refusal or None). `known`: each player's own hand is
    known (self-play's dealer, a hand kept on a phone), and a move without
    an action is then a refusal (every move should be concrete). Else none
    is (a physical table): a `<CARD>` move that names the printed cards it
    takes (Culture War's `details["cards"]`) is played with each of them the
    true hand holds, and a card of the hand the rules accept on a target no
    `<CARD>` move offers is a refusal too (the player could not find it)."""
    from referee.rules import rules_for
    from referee.rules.legal import legal_moves

    rules = rules_for(at.state.game)
    for name in movers(at.state):
        hand = list(at.hands.get(name, ())) if at.hands is not None else None
        hands = {name: hand} if known and hand is not None else None
        moves = legal_moves(rules, at.state, name, hands)
        for n, move in enumerate(moves):
            if move.action is None and hands is not None:
                yield name, move, _refusal(at, name, move, "listed without an action though the hand is known")
                continue
            for action in _actions(at.state, name, move, hand):
                try:
                    play_as_listed(rules, at.state, action, at.seed * 1000 + n)
                except RefereeError as exc:
                    yield name, move, _refusal(at, name, move, str(exc))
                    continue
                except Exception as exc:  # a crash is a failure too, never a pass
                    yield name, move, _refusal(at, name, move, f"{type(exc).__name__}: {exc}")
                    continue
                yield name, move, None
        if not known and hand is not None:
            for move in _unoffered(rules, at.state, name, hand, moves):
                yield name, move, _refusal(at, name, move, "the hand holds the card, and no <CARD> move offers it so")


def _actions(state: State, name: str, move: Any, hand: Sequence[str] | None) -> list[Action]:
    """The actions a listed move stands for: its own, or for a `<CARD>` move
    naming its printed cards, each of them the hand holds, played as listed."""
    if move.action is not None:
        return [move.action]
    offered = move.details.get("cards")
    if hand is None or not isinstance(offered, (list, tuple)):
        return []
    from referee.games.culture_war import legal  # lazy: only Culture War names the cards of a <CARD> move

    on = move.details.get("on")
    return [Action("play", {"player": name, "card": c, "_card": legal.card(c), **({"on": on} if on else {})},
                   PlayerName(name)) for c in dict.fromkeys(hand) if c in offered]


def _unoffered(rules: Any, state: State, name: str, hand: Sequence[str], blind: Sequence[Any]) -> list[Any]:
    """The card plays listed with the hand known that the `<CARD>` moves listed
    without it do not offer (same card, same target), where the game's
    `<CARD>` moves name their cards (Culture War's)."""
    from referee.rules.legal import legal_moves

    if state.game.value != "culture-war":
        return []
    offered = {(c, m.details.get("on")) for m in blind if m.action is None
               for c in m.details.get("cards", ()) or ()}
    known = legal_moves(rules, state, name, {name: list(hand)})
    return [m for m in known if m.action is not None and m.action.name == "play"
            and m.action.args["_card"]["type"] != "real-estate"
            and (m.action.args["card"], m.action.args.get("on")) not in offered]


def _refusal(at: Reached, player: str, move: Any, why: str) -> Refusal:
    return Refusal(at.game, at.seed, at.step, player, move.command, move.text, why)
