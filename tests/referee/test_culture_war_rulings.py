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


# ---------------------------------------------------------------- class 4: cancel Flashes

CANCELS = kind_cards("cancel")
CANCELLED = [c for c in rules_cards() if c["type"] in ("happening", "operation")]


def _cancel_table(ann: str, bo: str) -> Faction:
    """ann to play with coins and a second unit; bo with coins and one more unit."""
    table = Faction(ann, bo)
    table.act("capital", {"player": "ann", "by": 30})
    table.act("capital", {"player": "bo", "by": 30})
    fields = {**table.state.fields, "pieces": {h: dict(p) for h, p in table.state.fields["pieces"].items()}}
    fields["pieces"]["3"]["coins"] = {}  # bo's Real Estate is empty: Dumpster Fire may destroy it
    table.state = replace(table.state, fields=fields)
    return table


def _try_play(table: Faction, who: str, card: dict) -> bool:
    """Play `card` (a stats dict) with the first target the rules accept."""
    start = table.state
    for on in [None, *table.handles(who, "unit"), *table.handles(who, "estate"),
               *[h for h in table.state.fields["pieces"] if table.state.fields["pieces"][h]["owner"] != who], "bo"]:
        args = {"player": who, "card": card["id"], "_card": card}
        if on is not None:
            args["on"] = on
        try:
            table.act("play", args)
        except Exception:
            table.state = start
            continue
        for prompt in list(table.state.fields.get("prompts", [])):
            table.act("resolve", {"prompt": prompt["number"]})
        return True
    return False


def _public(table: Faction) -> dict:
    s = table.state
    keep = ("pieces", "banks", "timed", "discards", "truce", "no_income")
    return {"players": [(p.name, p.life, p.capital, p.eliminated, dict(p.fields)) for p in s.players],
            "fields": {k: s.fields.get(k) for k in keep}}


@pytest.mark.parametrize("flash", CANCELS, ids=lambda c: c["id"])
@pytest.mark.parametrize("card", CANCELLED, ids=lambda c: c["id"])
def test_a_cancel_undoes_every_effect_of_the_card_and_it_stays_paid(card, flash):
    """Kind cancel. Situations: an opponent's Happening (or Operation) just
    played: the cancel leaves the table as if the card had done nothing, the
    card paid and discarded; a card type the Flash does not cancel: refused;
    after any other action: refused; the player's own card: refused."""
    what = next(e["what"] for e in flash["effects"] if e["kind"] == "cancel")
    flash_card = resolve(flash["id"])
    played = _cancel_table(card["deck"], flash["deck"])
    if not _try_play(played, "ann", resolve(card["id"])):
        pytest.skip(f"{card['id']} needs more on the table")
    target = played.state.fields.get("cancellable")
    assert target and target["card"] == card["id"]
    on_args = {"player": "bo", "card": flash["id"], "_card": flash_card}
    if card["type"] not in ("happening",) and what == "happening":
        with pytest.raises(Exception, match="cancels a Happening"):
            played.act("play", on_args)
        return
    own = Faction(card["deck"], flash["deck"])
    own.state = played.state
    with pytest.raises(Exception, match="own"):
        own.act("play", {**on_args, "player": "ann"})
    # expected: the same card without effects, then the Flash without its cancel
    blank = _cancel_table(card["deck"], flash["deck"])
    blank_card = {**resolve(card["id"]), "effects": []}
    assert _try_play(blank, "ann", blank_card)
    if card["type"] == "operation":
        blank.act("discard", {"piece": blank.handles("ann", "operation")[-1]})
    blank.act("play", {**on_args, "_card": {**flash_card, "effects": [e for e in flash_card["effects"]
                                                                     if e["kind"] != "cancel"]}})
    later = Faction(card["deck"], flash["deck"])
    later.state = played.state
    later.act("end-turn", {})
    with pytest.raises(Exception, match="no card has just been played"):
        later.act("play", on_args)
    played.act("play", on_args)
    assert _public(played) == _public(blank)
    assert "cancellable" not in played.state.fields


def test_a_cancel_comes_only_as_the_card_is_played():
    table = _cancel_table("anarchy", "conservative")
    table.play("ann", "anarchy-riot-night")
    table.act("capital", {"player": "ann", "by": 1})      # a correction keeps the moment open
    table.play("ann", "anarchy-window-smasher")             # another card closes it
    with pytest.raises(Exception, match="no card has just been played"):
        table.play("bo", "conservative-letter-of-complaint")


def test_the_cancel_flashes_are_cards_of_the_cancel_kind():
    assert {c["id"] for c in CANCELS} == {"conservative-letter-of-complaint", "libertarian-not-my-problem"}
