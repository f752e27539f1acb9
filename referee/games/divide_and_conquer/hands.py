"""The scorekeeper's correction of a hand's count (`hand PLAYER +N|-N|=N`), pure.

The referee counts hands (6 dealt, 1 drawn a turn, cards played, events);
a correction is for when the table and the count disagree. It keeps every
card somewhere: cards added come from the deck, cards taken away go to the
discard pile unseen.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from referee.errors import RuleViolation
from referee.rules.shared import changed, check_change
from referee.model import Action, State


def check_correction(state: State, args: Mapping[str, Any]) -> None:
    if not isinstance(args.get("player"), str):
        raise RuleViolation("the command's arguments", "hand: name the player whose count changes")
    player = state.player(args["player"])
    check_change(args, f"{player.name}'s hand")
    now = int(player.fields["hand"])
    after = changed(now, args)
    if after < 0:
        raise RuleViolation("cards come from the hand", f"{player.name} cannot hold fewer than 0 cards")
    deck = int(state.fields["deck"])
    if after - now > deck:
        raise RuleViolation("cards come from the deck", f"{player.name}'s hand can grow by at most {deck}: "
                            f"the extra cards come from the deck, which holds {deck}")


def apply_correction(state: State, args: Mapping[str, Any]) -> State:
    player = state.player(args["player"])
    now = int(player.fields["hand"])
    more = changed(now, args) - now
    fields = dict(state.fields)
    if more > 0:
        fields["deck"] = int(fields["deck"]) - more
    else:
        fields["hidden_discards"] = int(fields.get("hidden_discards") or 0) - more
    state = replace(state, fields=fields)
    return state.with_player(replace(player, fields={**player.fields, "hand": now + more}))


def put_down(action: Action) -> list[str]:
    """The card ids an action puts down from the actor's hand."""
    args = action.args
    if action.name in ("event", "unaffiliate", "recruit", "attach"):
        return [str(args["card"])]
    if action.name in ("team", "raise"):
        return [*(str(c) for c in args.get("cards") or ()), *(str(a["card"]["id"]) for a in args.get("_attach") or ())]
    return []
