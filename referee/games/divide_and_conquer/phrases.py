"""Divide & Conquer actions in words (see referee/wording.py)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.model import State

if TYPE_CHECKING:  # annotations only: status never words an action
    from referee.words.wording import Words


def _attack(w: Words) -> str:
    aim = {"take-over": "to take it over", "destroy": "to destroy it"}.get(str(w.args.get("intent")), w["intent"])
    return f"{w['player']} attacks {w['target']} {aim}"


def _laid(verb: str):
    def phrase(w: Words) -> str:
        parts = []
        if w.has("cards"):
            parts.append(f"{w['player']} {verb} {w['cards']}")
        if w.has("join"):
            parts.append(f"{w['join']} joins from the base")
        for spec in w.args.get("attach") or ():
            card, _, onto = str(spec).rpartition("=")
            parts.append(f"{w.word('card', card)} goes on {_onto(w, onto)}")
        if not parts:
            return f"{w['player']} adds nothing more" if verb == "lays" else f"{w['player']} raises with nothing"
        if not w.has("cards"):
            parts[0] = f"{w['player']}: {parts[0]}"
        return "; ".join(parts)
    return phrase


def _onto(w: Words, onto: str) -> str:
    """The group a card goes on; `new:N` (the Nth group laid by the same
    command) as that group, with the g-number it gets."""
    if not onto.startswith("new:"):
        return w.word("onto", onto)
    index = int(onto[4:])
    laid = list(w.args.get("cards") or [])
    name = w.word("cards", laid[index]) if 0 <= index < len(laid) else "a group laid in this play"
    if w.state is not None and w.state.fields.get("next_ref") is not None:
        return f"{name} (g{int(w.state.fields['next_ref']) + index})"
    return name


def _event(w: Words) -> str:
    text = f"{w['player']} plays the event {w['card']}"
    if w.has("groups"):
        text += f" on {w['groups']}"
    if w.has("attachment"):
        text += f" (on the attachment {w['attachment']})"
    if w.has("pick"):
        text += f", picking {w['pick']}"
    return text


PHRASES: dict[str, Any] = {
    "recruit": "{player} recruits {card}",
    "unaffiliate": "{player} sets {card} out as unaffiliated",
    "attach": "{player} attaches {card} to {onto}",
    "event": _event,
    "attack": _attack,
    "team": _laid("lays"),
    "raise": _laid("raises with"),
    "call": "{player} calls",
    "fight": "the attack is fought",
}


def label(state: State, key: str, value: Any) -> str | None:
    """A group's handle as "Prestige Media Conglomerate (g1)"."""
    if key not in ("target", "onto", "groups", "join"):
        return None
    group = (state.fields.get("groups") or {}).get(str(value))
    if group is None:
        return None
    from referee.cards import load_index, project_root  # lazy: only when a group is named

    try:
        card = load_index(project_root()).cards.get(group["id"])
    except Exception:  # no project at hand: the handle must do
        return None
    return f"{card.name} ({value})" if card is not None else None


def fight_text(last: Any) -> str:
    """A fight as the log shows it: `6+8=14 v 1+15=16, g1 holds`."""
    a_roll, d_roll = last["dice"]
    result = (("takes over " if last["intent"] == "take-over" else "destroys ") + last["target"]
              if last["won"] else f"{last['target']} holds")
    return (f"{a_roll}+{last['attack'] - a_roll}={last['attack']} v "
            f"{d_roll}+{last['defence'] - d_roll}={last['defence']}, {result}")
