"""Cold War actions in words (see referee/wording.py). Face-down cards are
already "a face-down card" in what players read (referee/public.py)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from referee.model import State

if TYPE_CHECKING:  # annotations only: status never words an action
    from referee.words.wording import Words


def _answers(w: Words) -> str:
    text = ""
    if w.has("block"):
        text += f"; blocked by {w['block']}"
    if w.has("redirect"):
        text += f"; redirected by {w['redirect']}"
    if w.has("onto"):
        text += f" onto {w['onto']}" + (f"'s {w['onto_at']}" if w.has("onto_at") else "")
    return text


def _attack(w: Words) -> str:
    return f"{w['who']} attacks {w['target']}'s {w['at']} with {w['cards']}" + _answers(w)


def _special(w: Words) -> str:
    text = f"{w['who']} plays {w['card']} against {w['target']}"
    if w.has("at"):
        text += f" at {w['at']}"
    if w.has("with"):
        text += f" with {w['with']}"
    return text + _answers(w)


def _fallen(w: Words) -> str:
    text = f"{w['who']}'s fallen leader plays {w['card']} against {w['target']}"
    return text + (f" at {w['at']}" if w.has("at") else "") + _answers(w)


def _setup(w: Words) -> str:
    text = f"{w['player']} sets up {w['cards']}"
    if w.has("propaganda"):
        text += f"; propaganda {w['propaganda']}"
    if w.has("discard"):
        text += f"; discards {w['discard']}"
    return text


def _challenge(w: Words) -> str:
    text = f"{w['who']} challenges {w['target']} ({w['count']} card{'s' if w.args.get('count') != 1 else ''})"
    if w.has("their"):
        text += f": their {w['their']}"
    if w.has("own"):
        text += f" against {w['own']}"
    return text


def _regroup(w: Words) -> str:
    parts = [" + ".join(stack) for stack in (w.args.get("stacks") or ())]
    text = f"{w['player']} regroups" + (f" {'; '.join(parts)}" if parts else "")
    return text + (f", breaking {w['break']}" if w.has("break") else "")


def _answer(w: Words) -> str:
    if w.has("block"):
        return f"{w['who']} answers with a block: {w['block']}"
    if w.has("redirect"):
        onto = f" onto {w['onto']}" + (f"'s {w['onto_at']}" if w.has("onto_at") else "") if w.has("onto") else ""
        return f"{w['who']} answers with a redirect: {w['redirect']}{onto}"
    if w.has("shields"):
        return f"{w['who']} answers with both Shields: {w['shields']}"
    return "the clock runs out" if w.args.get("timeout") else f"{w['who']} does not answer"


PHRASES: dict[str, Any] = {
    "setup": _setup,
    "start": ["{first} goes first", "play begins"],
    "regroup": _regroup,
    "place": lambda w: f"{w['who']} places {w['card']}" + (" as propaganda" if w.args.get("propaganda") else ""),
    "discard": "{who} discards {cards}",
    "attack": _attack,
    "special": _special,
    "challenge": _challenge,
    "triad": ["{who} launches a Nuclear Triad at {target} ({cards}); shields {shields}",
              "{who} launches a Nuclear Triad at {target} ({cards})"],
    "fallen": _fallen,
    "answer": _answer,
}


def label(state: State, key: str, value: Any) -> str | None:
    """The leader's spot `L` reads "leader" (stacks keep their names, M1, S2)."""
    return "leader" if key in ("at", "onto_at") and value == "L" else None
