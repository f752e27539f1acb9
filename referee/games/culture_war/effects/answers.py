"""Answers to the Culture War prompts that change numbers (issue 25, class 9):
a prompt whose card changes counts takes the numbers as its answer, and the
referee applies them.

- discard (Botnet Swarm, Leaked Group Chat, Data Harvest): `resolve N CARD[,CARD]`
  names the discarded cards, which leave the hand count for the discard pile
  (checked like `discard-hand`: the player's deck, a free copy); `resolve N
  done` for a random discard no one names: the hand count still drops and the
  pile holds that many unnamed cards.
- pay-or-destroy (Callout Specialist): `resolve N pay` pays, `resolve N 7`
  destroys unit #7 of the player's, and no one loses LIFE for it.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from referee.rules import prompts
from referee.errors import RuleViolation
from referee.games.culture_war.table import zones
from referee.model import State

UNNAMED = {"card": None, "name": "a card no one named", "kind": "card"}


def check(state: State, prompt: prompts.Prompt, answer: str) -> None:
    data = prompt.data or {}
    if "discard" in data:
        _discards(state, prompt, data["discard"], answer)
    elif "pay-or-destroy" in data:
        _pay_or_destroy(state, data["pay-or-destroy"], answer)


def apply(state: State, prompt: prompts.Prompt, answer: str) -> State:
    data = prompt.data or {}
    if "discard" in data:
        return _apply_discards(state, prompt, data["discard"], answer)
    if "pay-or-destroy" in data:
        return _apply_pay_or_destroy(state, prompt, data["pay-or-destroy"], answer)
    return state


def _discards(state: State, prompt: prompts.Prompt, want: Mapping[str, Any], answer: str) -> list[dict[str, Any]]:
    """The cards an answer names (empty for `done`), checked."""
    name, count = want["player"], int(want["count"])
    if answer == "done":
        return []
    if not want.get("counted"):
        raise RuleViolation("card text", f"prompt {prompt.number} ({prompt.card}): the referee keeps no hand for "
                                         f"{name}; answer with `referee resolve {prompt.number} done`")
    from referee.games.culture_war.table.cards import resolve  # lazy: the card index, read only when a card is named

    codes = [c for c in answer.split(",") if c]
    if len(codes) != count:
        raise RuleViolation("card text", f"prompt {prompt.number} ({prompt.card}): {name} discards {count} "
                                         f"card{'s' if count > 1 else ''}; name {count} with "
                                         f"`referee resolve {prompt.number} {','.join(['CARD'] * count)}`, "
                                         f"not {len(codes)}")
    cards = [resolve(c) for c in codes]
    seen = state
    for card in cards:
        zones.check_deck(seen, name, card, "discard")
        zones.check_copy(seen, name, card, "discard")
        if card.get("type") == "real-estate":
            raise RuleViolation(zones.HAND_RULE, f"{card['name']} is Real Estate, which is never in a hand")
        fields = dict(seen.fields)
        fields["discards"] = {**fields["discards"], name: [*fields["discards"].get(name, []),
                                                           zones.entry(card, zones.PILE_KINDS[card["type"]])]}
        seen = replace(seen, fields=fields)  # two copies named at once count as two
    return cards


def _apply_discards(state: State, prompt: prompts.Prompt, want: Mapping[str, Any], answer: str) -> State:
    name, count = want["player"], int(want["count"])
    cards = _discards(state, prompt, want, answer)
    if not want.get("counted"):
        return state
    entries = [zones.entry(c, zones.PILE_KINDS[c["type"]]) for c in cards] or [dict(UNNAMED)] * count
    fields = dict(state.fields)
    fields["discards"] = {**fields["discards"], name: [*fields["discards"].get(name, []), *entries]}
    player = state.player(name)
    pf = dict(player.fields)
    pf["hand"] = max(0, int(pf.get("hand", 0)) - count)
    pf["discard_pile"] = len(fields["discards"][name])
    players = tuple(replace(p, fields=pf) if p.name == name else p for p in state.players)
    return replace(state, players=players, fields=fields)


def _pay_or_destroy(state: State, want: Mapping[str, Any], answer: str) -> None:
    from referee.games.culture_war.table.board import Board  # lazy: only an answer plays on the board

    board = Board(state)
    name, amount = want["player"], int(want["amount"])
    if answer == "pay":
        if board.capital(name) < amount:
            raise RuleViolation("card text", f"{name} has {board.capital(name)} Capital and cannot pay {amount}")
        return
    piece = board.pieces.get(answer)
    if piece is None or piece["owner"] != name or piece["kind"] != "unit":
        raise RuleViolation("card text", f"#{answer} is not a unit of {name}'s in play")


def _apply_pay_or_destroy(state: State, prompt: prompts.Prompt, want: Mapping[str, Any], answer: str) -> State:
    from referee.games.culture_war.effects import handlers as fx  # lazy: as above
    from referee.games.culture_war.table.board import Board  # lazy: as above
    from referee.games.culture_war.table.payments import take_coins  # lazy: as above
    from referee.games.culture_war.effects.static import freeze  # lazy: as above

    _pay_or_destroy(state, want, answer)
    board = Board(state)
    name = want["player"]
    if answer == "pay":
        take_coins(board, name, int(want["amount"]), prompt.card)
    else:
        fx.dies(board, answer, f"destroyed for {prompt.card}; no LIFE is lost for it", None)
    return freeze(board)
