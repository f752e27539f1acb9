"""Card and POTUS abilities, resolved when played.

A card's ability is the record effects.py builds from its printed effects.
Strength and cost changes, column bonuses, crowd shifts, destroying, taking
control, moving a device, protecting a thread, drawing and taking a card
back from the discard pile. Looking at the opponent's hand changes nothing
the referee keeps: it is a prompt (moves._ask). A destroyed tactic goes to its owner's discard pile, one
returned to the hand goes back into its owner's hand (see piles.py).

Every function works on a deep copy of `State.fields` and raises
RuleViolation, naming the player and the rule, when the ability cannot be
used as asked. A POTUS ability with nothing to work on is refused (it would
be spent for nothing); a tactic's ability with nothing to work on fizzles,
and the tactic still counts.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from referee.errors import RuleViolation
from referee.games.debate import forum as fm
from referee.games.debate import piles

FORUM_ACTIONS = ("destroy-tactic", "take-control", "move-rd", "protect-thread")
UNIT_TARGETS = ("own-argument", "own-gf-argument", "opposing-argument", "facing-argument", "self")


@dataclass(frozen=True)
class Play:
    fields: dict[str, Any]
    crowd: int
    names: Sequence[str]
    player: str
    card: Mapping[str, Any]
    host: int | None  # the thread a device or argument was played into; None for a POTUS
    opts: Mapping[str, Any]  # target (thread), device (card id), to (thread), toward (mob|citizen), back (card id)

    @property
    def potus(self) -> bool:
        return self.host is None


def _who(play: Play) -> str:
    if play.potus and play.card.get("ability"):
        return f"{play.player}'s {play.card['ability']} ({play.card['name']})"
    return f"{play.player}'s {play.card['name']}"


def _need(play: Play, key: str, what: str) -> Any:
    value = play.opts.get(key)
    if value is None:
        flag = {"target": "--target THREAD", "device": "--device CARD", "to": "--to THREAD",
                "toward": "--toward mob|citizen"}[key]
        raise RuleViolation("ability target", f"{_who(play)} needs {what}: give {flag}")
    if key in ("target", "to") and (not isinstance(value, int) or not 1 <= value <= fm.THREADS):
        raise RuleViolation("threads 1-7", f"{_who(play)}: the forum has threads 1 to 7, not {value!r}")
    return value


def _protected(fields: Mapping[str, Any], side: str, thread: int, actor: str | None) -> bool:
    return any(p["thread"] == thread and p["by"] == side and actor != side for p in fields.get("protected") or ())


def _find_device(slot: Mapping[str, Any], code: str, side: str, thread: int) -> int:
    wanted = str(code).strip().casefold()
    for i, device in enumerate(slot["devices"]):
        if wanted in (device["id"].casefold(), device["name"].casefold()):
            return i
    have = ", ".join(d["id"] for d in slot["devices"]) or "none"
    raise RuleViolation("devices go on arguments", f"{side}'s thread {thread} holds no device {code!r} "
                        f"(devices there: {have})")


def target_slot(play: Play) -> tuple[str, int] | None:
    """(side, thread) the ability hits, or None when it hits nothing in the forum."""
    kind = play.card.get("target")
    action = play.card.get("action")
    effects = play.card.get("effects") or ()
    hits_forum = action in FORUM_ACTIONS or any(e.get("target") in ("target-unit", "target-group") for e in effects)
    if not hits_forum:
        return None
    me, them = play.player, fm.opponent(play.names, play.player)
    forum = play.fields["forum"]
    if kind == "facing-argument":
        return (them, play.host) if play.host else None
    if kind == "self" or kind == "host-thread":
        return (me, play.host) if play.host else None
    side = them if kind in ("opposing-argument", "opposing-rd") else me
    thread = _need(play, "target", "a thread")
    if kind == "own-thread":
        if not forum[side][thread - 1]:
            raise RuleViolation("ability target", f"{_who(play)} picks one of {side}'s threads, and {side} has "
                                f"no argument in thread {thread}: there is nothing there to strengthen")
        return side, thread
    slot = forum[side][thread - 1]
    if not slot:
        raise RuleViolation("ability target", f"{_who(play)} needs an argument in {side}'s thread {thread}, "
                            "and that thread is empty")
    if kind == "own-gf-argument" and slot["argument"]["alignment"] != "gf":
        raise RuleViolation("ability target", f"{_who(play)} picks a Good Faith argument; "
                            f"{slot['argument']['name']} is Bad Faith")
    return side, thread


def resolve(play: Play) -> tuple[dict[str, Any], int]:
    """The forum and the crowd after an instant ability (a POTUS's, or a
    tactic's as it is played)."""
    fields, crowd = play.fields, play.crowd
    card = play.card
    where = target_slot(play)
    forum = fields["forum"]
    action = card.get("action")
    if where is not None and action in ("destroy-tactic", "take-control"):
        side, thread = where
        if _protected(fields, side, thread, play.player):
            raise RuleViolation("protected thread", f"{side} protected thread {thread} this round, so "
                                f"{_who(play)} cannot destroy or take anything there")
        slot = forum[side][thread - 1]
        if not slot:
            raise RuleViolation("ability target", f"{_who(play)}: {side}'s thread {thread} is empty")
        rd = card.get("target") in ("own-rd", "opposing-rd")
        limit = card.get("max_strength")
        if not rd and limit is not None and int(slot["argument"]["strength"]) > int(limit):
            raise RuleViolation(f"{card['name']} limit", f"{_who(play)} only reaches arguments of printed "
                                f"strength {limit} or less; {slot['argument']['name']} has {slot['argument']['strength']}")
        if action == "destroy-tactic":
            if rd:
                gone = slot["devices"].pop(_find_device(slot, _need(play, "device", "a device"), side, thread))
                piles.to_discard(fields, [gone], side)
            else:
                piles.to_discard(fields, [slot["argument"], *slot["devices"]], side)
                forum[side][thread - 1] = None
        else:
            to = _need(play, "to", "an empty thread on your side")
            if forum[play.player][to - 1]:
                raise RuleViolation("one argument per thread", f"{_who(play)} needs an empty thread; "
                                    f"{play.player}'s thread {to} is taken")
            forum[play.player][to - 1] = {"argument": slot["argument"], "devices": [], "mods": slot["mods"]}
            piles.to_discard(fields, slot["devices"], side)  # devices left without their argument
            forum[side][thread - 1] = None
    elif where is not None and action == "move-rd":
        side, thread = where
        slot = forum[side][thread - 1]
        device = slot["devices"].pop(_find_device(slot, _need(play, "device", "a device"), side, thread))
        to = _need(play, "to", "the argument to move it onto")
        dest = forum[play.player][to - 1]
        if to == thread and side == play.player:
            raise RuleViolation("devices go on arguments", f"{_who(play)} moves {device['name']} onto another "
                                f"argument; it already sits on {play.player}'s thread {to}")
        if not dest:
            raise RuleViolation("devices go on arguments", f"{_who(play)} needs another argument of "
                                f"{play.player}'s to move {device['name']} onto; thread {to} has none")
        dest["devices"].append(device)
    elif where is not None and action == "protect-thread":
        fields["protected"] = [*fields.get("protected", []), {"thread": where[1], "by": play.player}]
    elif action == "draw":
        drawn = piles.draw(fields["piles"][play.player], int(card.get("action_count") or 1))
        if not drawn and play.potus:
            raise RuleViolation("ability target", f"{_who(play)}: {play.player}'s draw pile and discard pile "
                                "are both empty, so there is nothing to draw")
    elif action == "return-from-discard":
        took = piles.from_discard(fields, play.player, play.opts.get("back"), _who(play), card.get("target"))
        if not took and play.potus:
            what = piles.TAKE_BACK.get(card.get("target") or "", "tactic")
            raise RuleViolation("ability target", f"{_who(play)}: {play.player}'s discard pile holds no {what} "
                                "to take back")
    for effect in card.get("effects") or ():
        amount = int(effect["amount"])
        if effect.get("target") == "target-group" and where is not None:
            columns = fields["columns"][where[0]]
            columns[where[1] - 1] += amount
        elif effect.get("target") in ("target-unit", "attached"):
            spot = where if effect.get("target") == "target-unit" else ((play.player, play.host) if play.host else None)
            if spot is None or not forum[spot[0]][spot[1] - 1]:
                continue  # nothing there: the change fizzles
            forum[spot[0]][spot[1] - 1]["mods"].append(
                {"stat": effect["stat"], "amount": amount, "source": card["name"]})
    shift = card.get("crowd_shift")
    toward = card.get("crowd_toward")
    if shift and toward:
        crowd = fm.clamp_crowd(crowd + _direction(play, toward) * int(shift))
    return fields, crowd


def _direction(play: Play, toward: str) -> int:
    if toward in fm.TOWARD:
        return fm.TOWARD[toward]
    if toward == "aligned":
        slot = play.fields["forum"][play.player][play.host - 1] if play.host else None
        return fm.sign_of(slot["argument"]["alignment"]) if slot else 0
    chosen = _need(play, "toward", "a direction for the crowd")
    if chosen not in fm.TOWARD:
        raise RuleViolation("crowd direction", f"{_who(play)}: the crowd moves toward mob or citizen, not {chosen!r}")
    return fm.TOWARD[chosen]


def remove_tactic(fields: dict[str, Any], names: Sequence[str], side: str, thread: int, device: str | None,
                  actor: str | None, verb: str) -> dict[str, Any]:
    """Take an argument (with the devices on it) or one device out of the
    forum: destroyed, or returned to its owner's hand. Either way it costs
    nothing at round end and its round-end work (crowd work included) is gone;
    instant abilities it already used stay done."""
    slot = fields["forum"][side][thread - 1]
    if not slot:
        raise RuleViolation("emptied thread", f"{side} has nothing in thread {thread} to {verb}")
    if verb == "destroy" and actor is not None and _protected(fields, side, thread, actor):
        raise RuleViolation("protected thread", f"{side} protected thread {thread} this round, so {actor} "
                            "cannot destroy anything there")
    move = piles.to_discard if verb == "destroy" else piles.to_hand
    if device is not None:
        move(fields, [slot["devices"].pop(_find_device(slot, device, side, thread))], side)
    else:
        move(fields, [slot["argument"], *slot["devices"]], side)
        fields["forum"][side][thread - 1] = None
    return fields
