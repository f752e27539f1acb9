"""Card effects as the referee applies them (pure).

Every asset, deficit and event carries one effect in the card sources
(`effects`, kinds and triggers in card_sources/divide-and-conquer/
effects.yaml); its printed text is generated from that effect. Each kind has
one handler here, which names the moments (triggers) it may carry, the card
types it may sit on, and what it sets on the card the rules read:

- an asset or deficit gets `modifier` and `ability`, which zones.value (every
  attack, every defence, the final count), zones.has (defends-all,
  base-joins-attacks, event-immune), zones.scoring_wing (the final count)
  and zones.live (cancels-assets) apply;
- an event gets `action`, `scope`, `zone`, `wing` and `count`, which
  events.play applies when it is played.

A kind marked `applied: true` in effects.yaml with no handler here fails a
test (tests/referee/test_rules_divide_and_conquer_effects.py), and so does a
card whose effect this module cannot turn into those fields.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from referee.errors import CardError

ATTACHED = ("asset", "deficit")
EVENT = ("event",)
DEFAULT_WHEN = "while-in-play"


@dataclass(frozen=True)
class Handler:
    moments: tuple[str, ...]               # the triggers this kind may carry
    types: tuple[str, ...]                 # the card types it may sit on
    fields: Callable[[Mapping[str, Any]], dict[str, Any]]
    applied_by: str                        # where the rules apply it, in words


def _power(ability: str) -> Callable[[Mapping[str, Any]], dict[str, Any]]:
    return lambda e: {"modifier": 0, "ability": ability}


def _event(scope: str, action: str, zone: str | None = None) -> Callable[[Mapping[str, Any]], dict[str, Any]]:
    return lambda e: {"scope": scope, "action": action, "zone": zone, "wing": e.get("wing"), "count": e.get("count")}


FIGHT_ABILITY = {"on-attack": "attack-only", "on-defend": "defence-only"}

HANDLERS: dict[str, Handler] = {
    # assets and deficits: on the group under the card
    "influence": Handler(("while-in-play",), ATTACHED,
                         lambda e: {"modifier": int(e["amount"]), "ability": "plain"},
                         "zones.value: every attack, every defence and the final count"),
    "fight-influence": Handler(tuple(FIGHT_ABILITY), ATTACHED,
                               lambda e: {"modifier": int(e["amount"]), "ability": FIGHT_ABILITY[e["when"]]},
                               "zones.value with role attack / defence (battle.totals); never at the final count"),
    "defends-all": Handler(("while-in-play",), ATTACHED, _power("defends-all"),
                           "battle.totals: the group joins every defence of its base, once"),
    "base-joins-attacks": Handler(("while-in-play",), ATTACHED, _power("base-joins-attacks"),
                                  "battle.lay: the group may join its controller's attack team from the base"),
    "event-immune": Handler(("while-in-play",), ATTACHED, _power("event-immune"),
                            "events: the group and its cards cannot be picked or hit"),
    "flips-wing": Handler(("final-count",), ATTACHED, _power("flips-wing"),
                          "zones.scoring_wing: the group scores for the other wing"),
    "cancels-assets": Handler(("while-in-play",), ATTACHED, _power("cancels-assets"),
                              "zones.live: every asset on the group counts for nothing"),
    # events: once, when played
    "discard-group": Handler(("on-play",), EVENT, _event("one-target", "destroy-group", "base"),
                             "events.play: the picked group and its cards go to the discard pile"),
    "each-discards-group": Handler(("on-play",), EVENT, _event("everyone", "destroy-group", "base"),
                                   "events.play: each base hit gives up one group, its owner's pick"),
    "unaffiliate-group": Handler(("on-play",), EVENT, _event("one-target", "unaffiliate-group", "base"),
                                 "events.play: the picked group moves to the unaffiliated area"),
    "claim-unaffiliated": Handler(("on-play",), EVENT, _event("one-target", "claim-group", "unaffiliated"),
                                  "events.play: the picked unaffiliated group joins the player's base"),
    "discard-attachment": Handler(("on-play",), EVENT, _event("one-target", "discard-attachment", "anywhere"),
                                  "events.play: the picked asset or deficit goes to the discard pile"),
    "player-draws": Handler(("on-play",), EVENT, _event("one-player", "draw-cards"),
                            "events.play: the picked player draws (the deck and hand counts)"),
    "blind-discard": Handler(("on-play",), EVENT, _event("one-player", "discard-hand"),
                             "events.play: cards leave the picked player's hand, unseen, for the discard pile"),
    "take-from-hand": Handler(("on-play",), EVENT, _event("one-player", "steal-hand-card"),
                              "events.play: cards move from the picked player's hand to the player's"),
    "everyone-draws": Handler(("on-play",), EVENT, _event("everyone", "draw-cards"),
                              "events.play: each player draws in turn from the player of the event"),
    "everyone-discards": Handler(("on-play",), EVENT, _event("everyone", "discard-hand"),
                                 "events.play: each hand loses cards, unseen, to the discard pile"),
    "pass-left": Handler(("on-play",), EVENT, _event("everyone", "pass-hand-left"),
                         "events.play: each hand passes cards to the left, all at once"),
}


def card_fields(card_id: str, card_type: str, effects: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """What the rules read from a card's one effect (see the module doc);
    CardError, naming the card, for an effect the referee cannot apply."""
    if len(effects) != 1:
        raise CardError(f"card {card_id} has {len(effects)} effects; a Divide & Conquer {card_type} has exactly one")
    effect = effects[0]
    kind = effect.get("kind")
    handler = HANDLERS.get(str(kind))
    if handler is None:
        raise CardError(f"card {card_id}: the referee has no handler for effect kind {kind!r}")
    if card_type not in handler.types:
        raise CardError(f"card {card_id}: effect {kind} goes on {' or '.join(handler.types)} cards, not a {card_type}")
    when = effect.get("when", DEFAULT_WHEN)
    if when not in handler.moments:
        raise CardError(f"card {card_id}: effect {kind} happens {' or '.join(handler.moments)}, not {when}")
    return {k: v for k, v in handler.fields(effect).items() if v is not None}
