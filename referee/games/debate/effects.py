"""A debate card's effects (card_sources/debate/effects.yaml) as the rules run them.

A card's printed text is generated from its `effects` list; the card index
holds that same list. `ability(effects)` turns it into the record the forum
and round-end code work from (abilities.py, forum.py, piles.py):

    timing        instant (trigger on-play, or a POTUS ability) or round-end
    target        what the ability picks: opposing-argument, facing-argument,
                  own-argument, own-gf-argument, own-thread, own-rd,
                  opposing-rd, own-tactic, host-thread, self
    action        destroy-tactic, take-control, move-rd, protect-thread, draw,
                  return-from-discard, return-to-hand, look-at-hand
    action_count  cards drawn
    max_strength  the printed strength a destroyed or taken argument may have
    crowd_shift, crowd_toward   a crowd move (mob, citizen, aligned, either)
    effects       strength/cost changes: {stat, amount, target} with target
                  target-unit (the picked argument) or target-group (the
                  picked thread's column)
    prompts       what a person must do, in the card's own words, and when

There is one handler per effect kind the referee applies (HANDLERS), and one
per kind it prompts for (PROMPTED); a kind with neither is refused here, so
a card can never pass through the referee with its text ignored.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Iterable, Mapping

from referee.errors import CardError

Record = dict[str, Any]
Handler = Callable[[Mapping[str, Any], Record], None]

TIMING = {"on-play": "instant", "ability": "instant", "round-end": "round-end", "while-in-play": "passive"}
TAKE_BACK = {"gf-argument": "own-gf-argument", "argument": "own-argument", "tactic": "own-tactic"}


def _pick(record: Record, target: str) -> None:
    if record.get("target") not in (None, target):
        raise CardError(f"a debate card's effects pick two different things ({record['target']} and {target}); "
                        "the referee takes one target per card")
    record["target"] = target


def _act(record: Record, action: str) -> None:
    if record.get("action") not in (None, action):
        raise CardError(f"a debate card has two actions ({record['action']} and {action}); the referee takes one")
    record["action"] = action


def _crowd(effect: Mapping[str, Any], record: Record) -> None:
    record["crowd_shift"] = int(effect["amount"])
    record["crowd_toward"] = effect["toward"]


def _stat(stat: str) -> Handler:
    def handle(effect: Mapping[str, Any], record: Record) -> None:
        _pick(record, effect["target"])
        record.setdefault("effects", []).append({"stat": stat, "amount": int(effect["amount"]), "target": "target-unit"})
    return handle


def _thread_bonus(effect: Mapping[str, Any], record: Record) -> None:
    _pick(record, "own-thread")
    record.setdefault("effects", []).append({"stat": "strength", "amount": int(effect["amount"]),
                                             "target": "target-group"})


def _destroy(effect: Mapping[str, Any], record: Record) -> None:
    _pick(record, effect["what"])
    _act(record, "destroy-tactic")
    if effect.get("max_strength") is not None:
        record["max_strength"] = int(effect["max_strength"])


def _take_control(effect: Mapping[str, Any], record: Record) -> None:
    _pick(record, "opposing-argument")
    _act(record, "take-control")
    if effect.get("max_strength") is not None:
        record["max_strength"] = int(effect["max_strength"])


def _draw(effect: Mapping[str, Any], record: Record) -> None:
    _act(record, "draw")
    record["action_count"] = int(effect["count"])


def _take_back(effect: Mapping[str, Any], record: Record) -> None:
    _pick(record, TAKE_BACK[effect["what"]])
    _act(record, "return-from-discard")
    record["action_count"] = 1


def _simple(action: str, target: str | None) -> Handler:
    def handle(effect: Mapping[str, Any], record: Record) -> None:
        if target:
            _pick(record, target)
        _act(record, action)
    return handle


def _device_crowd(effect: Mapping[str, Any], record: Record) -> None:
    # read by forum.device_work: a passive POTUS adding to each of its owner's devices
    record["crowd_shift"] = int(effect["amount"])
    record["crowd_toward"] = "aligned"


HANDLERS: dict[str, Handler] = {
    "crowd": _crowd,
    "strength": _stat("strength"),
    "cost": _stat("cost"),
    "thread-bonus": _thread_bonus,
    "destroy": _destroy,
    "take-control": _take_control,
    "draw": _draw,
    "take-back": _take_back,
    "move-device": _simple("move-rd", "own-rd"),
    "protect-thread": _simple("protect-thread", "host-thread"),
    "return-self": _simple("return-to-hand", "self"),
    "device-crowd": _device_crowd,
}

# Kinds a person carries out: the referee asks (referee/prompts.py) at the
# card's moment and waits for `referee resolve N done`. The action is noted
# so the rules can check the ability has something to work on.
PROMPTED: dict[str, str] = {
    "look-at-hand": "look-at-hand",
}


ASKED_AT = ("on-play", "ability")


def _plain(text: str) -> str:
    """The card's text without its bold trigger, for a prompt: "Look at your opponent's hand ..."."""
    words = re.sub(r"^\*\*[^*]*\*\*\s*", "", text.strip()).replace("**", "")
    return words[:1].upper() + words[1:]


def ability(effects: Iterable[Mapping[str, Any]], text: str | None = None) -> Record:
    """The record the rules run for a card whose `effects` are these."""
    record: Record = {}
    whens = set()
    for effect in effects:
        kind = effect.get("kind")
        when = effect.get("when", "while-in-play")
        whens.add(when)
        if kind in HANDLERS:
            HANDLERS[kind](effect, record)
        elif kind in PROMPTED:
            if when not in ASKED_AT:
                raise CardError(f"the debate referee asks for {kind!r} only as a card is played or a POTUS "
                                f"ability is used, not at {when!r}")
            _act(record, PROMPTED[kind])
            record.setdefault("prompts", []).append({"kind": kind, "when": when, "text": _plain(text or kind)})
        else:
            raise CardError(f"the debate referee has no handler for effect kind {kind!r}")
    if len(whens) > 1:
        raise CardError(f"a debate card's effects happen at one moment, not {', '.join(sorted(whens))}")
    if whens:
        record["timing"] = TIMING[whens.pop()]
    return record
