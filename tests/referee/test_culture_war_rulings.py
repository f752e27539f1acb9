"""Culture War rulings of issue 25, walked per effect kind: taking control
for a price (class 8), cancel Flashes (class 4), prompts that change counts
(class 9) and start-of-turn timing (class 11). Each kind's situations are
listed in its test's docstring, and every card of the kind is walked through them."""
from __future__ import annotations

from dataclasses import replace

import pytest

from referee.games import rules_for
from referee.games.culture_war.cards import resolve
from referee.model import Action, GameSlug, Setup
from test_culture_war_effects import DECKS, rules_cards


def kind_cards(kind: str) -> list[dict]:
    return [c for c in rules_cards() if any(e["kind"] == kind for e in c["effects"])]


class Faction:
    """A two-player table with faction decks (the normal game): each player
    plays their own deck, so coins are their own faction's."""

    def __init__(self, ann: str, bo: str, decks: str = "faction"):
        self.rules = rules_for("culture-war")
        self.state = self.rules.setup(Setup(GameSlug.CULTURE_WAR, (("ann", ann), ("bo", bo)), 1, 100,
                                            {"first-player": "seating", "decks": decks}), ())

    def act(self, name: str, args: dict, dice: tuple[int, ...] = ()) -> None:
        action = Action(name, args)
        self.rules.check(self.state, action)
        self.state = self.rules.apply(self.state, action, dice or self.rules.dice_needed(self.state, action))

    def play(self, who: str, code: str, on: str | None = None) -> None:
        args = {"player": who, "card": code, "_card": resolve(code)}
        if on is not None:
            args["on"] = on
        self.act("play", args)

    def handles(self, owner: str, kind: str = "unit") -> list[str]:
        return [h for h, p in sorted(self.state.fields["pieces"].items(), key=lambda kv: int(kv[0]))
                if p["owner"] == owner and p["kind"] == kind]


# ---------------------------------------------------------------- class 8: a price for control

FOR_SALE = kind_cards("for-sale")


@pytest.mark.parametrize("buyer", DECKS)
@pytest.mark.parametrize("card", FOR_SALE, ids=lambda c: c["id"])
def test_a_price_for_control_is_paid_with_the_buyer_s_own_coins_in_a_normal_game(card, buyer):
    """Kind for-sale. Situations: an opponent of another faction pays the
    printed price on their turn (a normal game: their own coins pay all of
    it); the same with exactly one coin too few (refused); with mixed decks,
    the card's faction decides and other factions' coins pay at most half."""
    price = next(int(e["price"]) for e in card["effects"] if e["kind"] == "for-sale")
    if buyer == card["deck"]:
        pytest.skip("a deck's own card")
    for short in (0, 1):
        table = Faction(card["deck"], buyer)
        table.act("capital", {"player": "ann", "by": 10})
        table.play("ann", card["id"])
        table.act("end-turn", {})
        have = table.state.player("bo").capital
        if have != price - short:
            table.act("capital", {"player": "bo", "by": price - short - have} if price - short - have
                      else {"player": "bo", "to": price - short})
        unit = table.handles("ann")[-1]
        if short:
            with pytest.raises(Exception, match="needs"):
                table.act("seize", {"player": "bo", "piece": unit})
        else:
            table.act("seize", {"player": "bo", "piece": unit})
            assert table.state.fields["pieces"][unit]["owner"] == "bo"
            assert table.state.player("bo").capital == 0
    mixed = Faction(None, None, decks="mixed")
    mixed.act("capital", {"player": "ann", "by": 10})
    mixed.play("ann", card["id"])
    mixed.act("end-turn", {})
    unit = mixed.handles("ann")[-1]
    fields = dict(mixed.state.fields)
    fields["banks"] = {**fields["banks"], "bo": {buyer: price}}
    pieces = {h: dict(p) for h, p in fields["pieces"].items()}
    for h, p in pieces.items():
        if p["kind"] == "estate" and p["owner"] == "bo":
            p["coins"] = {}
    fields["pieces"] = pieces
    mixed.state = replace(mixed.state, fields=fields)
    with pytest.raises(Exception, match="at most"):
        mixed.act("seize", {"player": "bo", "piece": unit})
