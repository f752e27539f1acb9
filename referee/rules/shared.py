"""The actions every game shares, and SHARED_ACTIONS, their table:

    life      {"player", "by" | "to", "reason"?}   only where the game keeps life
    capital   {"player", "by" | "to", "reason"?}   only where the game keeps capital
    crowd     {"by" | "to", "reason"?}             only where the game has a crowd track
    end-turn  {}                                   play passes to the next player still in
    win       {"player", "force"?}                 the table declares a winner: refused while the
                                                   rules can still decide, unless forced (an override)
    resolve   {"prompt"?, "answer"?}               answers a card's prompt (referee/prompts.py)

GenericRules starts from this table; a game adds its own actions and may
replace one of these with its own (Culture War's `life` acts on its board).
Each function takes the game's rules first and reads only the settings
listed in `Settings`.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Mapping, Protocol, Sequence

from referee.rules import prompts
from referee.errors import RefereeError, RuleViolation
from referee.rules import ActionSpec
from referee.model import Action, GameSlug, Player, State

MAX_AMOUNT = 1_000_000


class Settings(Protocol):
    """What the shared actions read from a game's rules (GenericRules has it all)."""

    slug: GameSlug
    title: str
    has_life: bool
    has_capital: bool
    out_at_zero_life: bool
    crowd_limit: int | None

    def rules_can_decide(self, state: State) -> bool: ...

    def check_prompt_answer(self, state: State, prompt: prompts.Prompt, answer: str) -> None: ...

    def apply_prompt_answer(self, state: State, prompt: prompts.Prompt, answer: str,
                            dice: Sequence[int]) -> State: ...


# ---- life ------------------------------------------------------------------


def check_life(rules: Settings, state: State, action: Action) -> None:
    if not rules.has_life:
        raise RuleViolation("life", f"{rules.slug.value} keeps no life total")
    player = live_player(state, action.args["player"])
    check_change(action.args, f"{player.name}'s life")


def apply_life(rules: Settings, state: State, action: Action, dice: Sequence[int]) -> State:
    player = state.player(action.args["player"])
    life = max(0, changed(player.life or 0, action.args))
    out = rules.out_at_zero_life and life == 0
    state = state.with_player(replace(player, life=life, eliminated=player.eliminated or out))
    return decide_by_elimination(rules, state)


def decide_by_elimination(rules: Settings, state: State) -> State:
    """When elimination decides the game, the last player standing wins."""
    standing = [p for p in state.players if not p.eliminated]
    if rules.out_at_zero_life and len(standing) == 1 and state.winner is None:
        return replace(state, winner=standing[0].name)
    return state


# ---- capital ---------------------------------------------------------------


def check_capital(rules: Settings, state: State, action: Action) -> None:
    if not rules.has_capital:
        raise RuleViolation("capital", f"{rules.slug.value} keeps no capital")
    player = live_player(state, action.args["player"])
    check_change(action.args, f"{player.name}'s capital")
    after = changed(player.capital or 0, action.args)
    if after < 0:
        raise RuleViolation(
            "capital cannot go below 0",
            f"{player.name} has {player.capital} capital; that change would leave {after}",
        )


def apply_capital(rules: Settings, state: State, action: Action, dice: Sequence[int]) -> State:
    player = state.player(action.args["player"])
    return state.with_player(replace(player, capital=changed(player.capital or 0, action.args)))


# ---- crowd -----------------------------------------------------------------


def check_crowd(rules: Settings, state: State, action: Action) -> None:
    limit = rules.crowd_limit
    if limit is None:
        raise RuleViolation("crowd", f"{rules.slug.value} has no crowd track")
    check_change(action.args, "the crowd", allow_negative=True)
    target = action.args.get("to")
    if target is not None and abs(target) > limit:
        raise RuleViolation(
            "crowd track", f"the crowd runs from -{limit} to +{limit}; it cannot be set to {target}",
        )


def apply_crowd(rules: Settings, state: State, action: Action, dice: Sequence[int]) -> State:
    limit = rules.crowd_limit or 0
    crowd = max(-limit, min(limit, changed(state.crowd or 0, action.args)))
    return replace(state, crowd=crowd)


# ---- turns and the end -----------------------------------------------------


def check_end_turn(rules: Settings, state: State, action: Action) -> None:
    active = state.active_player
    if action.actor is not None and state.player(action.actor).name != active.name:
        actor = state.player(action.actor).name
        raise RuleViolation("turn order", f"it is {active.name}'s turn, so {actor} cannot end it")


def apply_end_turn(rules: Settings, state: State, action: Action, dice: Sequence[int]) -> State:
    count = len(state.players)
    nxt = state.active
    for _ in range(count):
        nxt = (nxt + 1) % count
        if not state.players[nxt].eliminated:
            break
    wrapped = nxt <= state.active
    return replace(state, active=nxt, turn=state.turn + 1, round=state.round + (1 if wrapped else 0))


def check_win(rules: Settings, state: State, action: Action) -> None:
    player = live_player(state, action.args["player"])
    if not action.args.get("force") and rules.rules_can_decide(state):
        raise RuleViolation(
            "the rules decide the winner",
            f"the rules of {rules.title or rules.slug.value} can still decide this game, so {player.name} "
            f"is not declared the winner; `win {player.name} --force` declares it by hand, "
            "logged as an override",
        )


def apply_win(rules: Settings, state: State, action: Action, dice: Sequence[int]) -> State:
    return replace(state, winner=state.player(action.args["player"]).name)


# ---- prompts -----------------------------------------------------------------


def check_resolve(rules: Settings, state: State, action: Action) -> None:
    prompt = prompts.find(state, action.args.get("prompt"))
    answer = prompts.check_answer(prompt, action.args.get("answer"))
    if action.actor is not None and state.player(action.actor).name != prompt.player:
        raise RuleViolation("card text", f"prompt {prompt.number} is for {prompt.player}, not {action.actor}")
    rules.check_prompt_answer(state, prompt, answer)


def apply_resolve(rules: Settings, state: State, action: Action, dice: Sequence[int]) -> State:
    prompt = prompts.find(state, action.args.get("prompt"))
    answer = prompts.check_answer(prompt, action.args.get("answer"))
    return rules.apply_prompt_answer(prompts.settle(state, prompt.number), prompt, answer, dice)


SHARED_ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("life", check_life, apply_life),
    ActionSpec("capital", check_capital, apply_capital),
    ActionSpec("crowd", check_crowd, apply_crowd),
    ActionSpec("end-turn", check_end_turn, apply_end_turn),
    ActionSpec("win", check_win, apply_win),
    ActionSpec("resolve", check_resolve, apply_resolve),
)


# ---- helpers ---------------------------------------------------------------


def live_player(state: State, name: str) -> Player:
    player = state.player(name)
    if player.eliminated:
        raise RuleViolation("elimination", f"{player.name} is out of the game")
    return player


def check_change(args: Mapping[str, object], what: str, allow_negative: bool = False) -> None:
    """An action changes a number either `by` a signed amount or `to` a value."""
    by, to = args.get("by"), args.get("to")
    if (by is None) == (to is None):
        raise RefereeError(f"{what}: give exactly one change, like -5, +3 or =10")
    value = by if by is not None else to
    if not isinstance(value, int) or isinstance(value, bool) or abs(value) > MAX_AMOUNT:
        raise RefereeError(f"{what}: {value!r} is not a sensible amount")
    if by == 0:
        raise RefereeError(f"{what}: a change of 0 changes nothing")
    if to is not None and to < 0 and not allow_negative:
        raise RefereeError(f"{what} cannot be set below 0 (asked for {to})")


def changed(current: int, args: Mapping[str, object]) -> int:
    """The number after a `by` or `to` change."""
    to = args.get("to")
    return int(to) if to is not None else current + int(args["by"])  # type: ignore[arg-type]


# The shared actions in words (referee/wording.py); a game's own phrases come on top.
SHARED_PHRASES: dict[str, object] = {
    "end-turn": "{who} ends the turn",
    "resolve": ["prompt {prompt} answered: {answer}", "prompt {prompt} answered", "the waiting prompt is answered: {answer}",
                "the waiting prompt is answered"],
}
