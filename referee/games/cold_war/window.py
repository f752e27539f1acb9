"""The answer window: an attack, a Special, a Nuclear Triad or a Fallen
Leader's attack aimed at a player waits for that player's own answer.

From rules version cold-war-6 an action aimed at a player does all its own
work (the cards leave the hand, the spot is checked) and then, when the
target could answer it, stops: `pending` records what waits, the phase is
"answer", and only the target's `answer` (answer.py) goes on: block,
redirect onto another player, both Shields, or none. The action then
resolves exactly as it would have with that answer.

Whether the window opens is decided from what every player can see, never
from a hidden card, so its presence tells nothing: the target must hold
enough cards (one, two for the Shields), and their country deck must print a
card that answers this kind of action with a copy not in their discard pile
(the deck lists are public, the discard pile is face up). The referee does
not see hands, and a face-down card, a shuffled pile or a card sent to the
box unseen might be the answering one, so those never close the window: it
opens whenever an answer is possible by the rules from what is public. A
table started under an earlier version (its setup records the version)
keeps answers as options of the mover's command (`fields["answers"]` is
"inline"), so its log replays as it was played.
"""
from __future__ import annotations

import re
from typing import Any, Mapping

from referee.errors import RuleViolation
from referee.games.cold_war import effects as E

WINDOW, INLINE = "window", "inline"
FIRST_WINDOWED = 6  # cold-war-6: the first rules version with the answer window
FIRST_BY_SPOT = 7  # cold-war-7: a face-down card on the table is named by its spot, never by id
ANSWER_ARGS = ("block", "redirect", "onto", "onto_at", "shields")
# what each kind of waiting action may be answered with (the effect kinds of the answering cards)
KINDS = {"attack": ("block", "redirect"), "remove": ("block",), "triad": ("shield",), "challenge": ("give",)}
NEEDS = {"attack": 1, "remove": 1, "triad": 2}
# (a Propaganda challenge waits when the target has more face-down cards than it names, a public count: its
# loser chooses which Propaganda cards go, `answer give SPOT...`; `none` gives the last placed)


def since(version: str | None, first: int) -> bool:
    """Whether a table started under `version` (None: made in code, the
    current rules) plays by a rule that came in with cold-war-`first`."""
    if version is None:
        return True
    found = re.fullmatch(r"cold-war-(\d+)", version)
    return bool(found) and int(found.group(1)) >= first


def mode_for(version: str | None) -> str:
    """WINDOW for a table started under cold-war-6 or later, or made in code
    (None: the current rules); INLINE for an older log."""
    return WINDOW if since(version, FIRST_WINDOWED) else INLINE


def on(f: Mapping[str, Any]) -> bool:
    return f.get("answers") == WINDOW


def waiting(f: Mapping[str, Any]) -> dict[str, Any] | None:
    pending = f.get("pending")
    return pending if isinstance(pending, dict) else None


def could_answer(f: Mapping[str, Any], target: str, kind: str) -> bool:
    """Whether `target` could answer an action of `kind` by the rules, judged
    from public facts only (see the module's docstring)."""
    desk = f["desks"][target]
    need = NEEDS[kind]
    if desk["fallen"] or int(desk["hand"]) < need:
        return False
    cards = f["decks"][target]["cards"]
    fits = [cid for cid, stats in cards.items()
            if stats.get("type") == "special" and any(E.has(stats, k) for k in KINDS[kind])]
    copies = sum(max(1, int(cards[c].get("quantity") or 1)) for c in fits)
    free = copies - sum(1 for c in desk["discard"] if c in fits)
    return min(int(desk["hand"]), free) >= need


def no_inline(args: Mapping[str, Any], target: str) -> None:
    """With the window, the mover's command carries no answer: the target answers themselves."""
    given = [k for k in ANSWER_ARGS if args.get(k) not in (None, [], "")]
    if given:
        flag = given[0].replace("_", "-").replace("shields", "shield")
        raise RuleViolation("answers are the target's own step",
                            f"--{flag} is {target}'s answer, not part of this command: once the action is made, "
                            f"{target} answers with `referee answer ... --by {target}` (block, redirect, shield "
                            "or none)")


def public(pending: Mapping[str, Any]) -> dict[str, Any]:
    """What every player sees of the waiting action: who waits on whom, for
    what, and which answers the rules allow (never a face-down card)."""
    return {"kind": pending["kind"], "by": pending["by"], "target": pending["target"],
            "what": pending["what"], "answers": [*KINDS[pending["kind"]], "none"]}


def answer_hint(pending: Mapping[str, Any]) -> str:
    target = pending["target"]
    forms = {"block": "answer block CARD", "redirect": "answer redirect CARD --onto PLAYER:SPOT",
             "shield": "answer shield CARD CARD", "give": "answer give SPOT..."}
    ways = [forms[k] for k in KINDS[pending["kind"]]] + ["answer none"]
    return f"{target} answers {pending['what']}: " + ", ".join(f"`{w} --by {target}`" for w in ways)
