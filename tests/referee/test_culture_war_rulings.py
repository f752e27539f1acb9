"""Culture War rulings of issue 25, walked per effect kind: taking control
for a price (class 8), cancel Flashes (class 4), prompts that change counts
(class 9) and start-of-turn timing (class 11). Each kind's situations are
listed in its test's docstring, and every card of the kind is walked through them."""
from __future__ import annotations

from dataclasses import replace

import pytest

from referee.rules import rules_for
from helpers.cardcache import cached_card
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
        args = {"player": who, "card": code, "_card": cached_card(code)}
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
    flash_card = cached_card(flash["id"])
    played = _cancel_table(card["deck"], flash["deck"])
    if not _try_play(played, "ann", cached_card(card["id"])):
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
    blank_card = {**cached_card(card["id"]), "effects": []}
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


# ---------------------------------------------------------------- class 9: prompts that change counts

DISCARDS = kind_cards("discard")
PAY_OR_DESTROY = kind_cards("pay-or-destroy")
ASKING = [c for c in rules_cards() if any(e["kind"] in ("prompt", "discard", "pay-or-destroy") for e in c["effects"])]


def _victims(card: dict) -> tuple[str, str | None]:
    who = next(e.get("who") or "you" for e in card["effects"] if e["kind"] == "discard")
    return ("ann" if who == "you" else "bo"), ("bo" if who == "target-player" else None)


def _hand(table: Faction, name: str) -> int:
    return int(table.state.player(name).fields["hand"])


def _set_hand(table: Faction, name: str, n: int) -> None:
    players = tuple(replace(p, fields={**p.fields, "hand": n}) if p.name == name else p for p in table.state.players)
    table.state = replace(table.state, players=players)


@pytest.mark.parametrize("hand", [5, 1, 0])
@pytest.mark.parametrize("card", DISCARDS, ids=lambda c: c["id"])
def test_a_discard_changes_the_hand_and_the_pile_by_its_answer(card, hand):
    """Kind discard. Situations: the player has enough cards (resolve `done`:
    the hand count drops by the amount, the pile grows by as many unnamed
    cards; naming the cards puts them in the pile by name); fewer cards than
    the amount (only what the hand holds); none (no prompt)."""
    amount = next(int(e["amount"]) for e in card["effects"] if e["kind"] == "discard")
    victim, on = _victims(card)
    for answer in ("done", "named"):
        table = Faction(card["deck"], "technocracy")
        table.act("capital", {"player": "ann", "by": 20})
        _set_hand(table, victim, hand + (1 if victim == "ann" else 0))  # ann plays the card from her hand
        draws = sum(int(e["amount"]) for e in card["effects"] if e["kind"] == "draw" and victim == "ann")
        before = _hand(table, victim) - (1 if victim == "ann" else 0) + draws
        table.play("ann", card["id"], on)
        n = min(amount, before)
        waiting = table.state.fields.get("prompts", [])
        if n == 0:
            assert not waiting
            continue
        (prompt,) = waiting
        assert prompt["player"] == victim and prompt["enter"].startswith(f"referee resolve {prompt['number']} ")
        if answer == "done":
            table.act("resolve", {"prompt": prompt["number"], "answer": "done"})
            names = ["a card no one named"] * n
        else:
            deck = table.state.player(victim).faction
            codes = [c["id"] for c in rules_cards() if c["deck"] == deck and c["type"] == "flash"][:n]
            with pytest.raises(Exception, match=f"discards {n} card"):
                table.act("resolve", {"prompt": prompt["number"], "answer": ",".join(codes + codes[:1])})
            table.act("resolve", {"prompt": prompt["number"], "answer": ",".join(codes)})
            names = [cached_card(c)["name"] for c in codes]
        assert _hand(table, victim) == before - n
        pile = table.state.fields["discards"][victim]
        assert [e["name"] for e in pile[-n:]] == names
        assert table.state.player(victim).fields["discard_pile"] == len(pile)


def test_botnet_swarm_leaves_the_hand_at_4_after_resolve():
    """The issue's example: bo holds 5; Botnet Swarm's random discard, answered, leaves 4."""
    table = Faction("anarchy", "technocracy")
    table.act("capital", {"player": "ann", "by": 5})
    assert _hand(table, "bo") == 5
    table.play("ann", "anarchy-botnet-swarm")
    with pytest.raises(Exception, match="must wait"):
        table.act("discard-hand", {"player": "bo", "card": "technocracy-data-intern",
                                   "_card": cached_card("technocracy-data-intern")})
    table.act("resolve", {})
    assert _hand(table, "bo") == 4


@pytest.mark.parametrize("card", PAY_OR_DESTROY, ids=lambda c: c["id"])
@pytest.mark.parametrize("situation", ["pay", "destroy", "cannot-pay", "alone"])
def test_pay_or_destroy_takes_the_coins_or_the_unit_as_its_answer(card, situation):
    """Kind pay-or-destroy. Situations: the player pays (capital drops by the
    amount); destroys another unit (it goes to the discard pile, no LIFE is
    lost); cannot pay (only units are offered); has no other unit (no prompt)."""
    amount = next(int(e["amount"]) for e in card["effects"] if e["kind"] == "pay-or-destroy")
    table = Faction(card["deck"], "technocracy")
    cost = int(cached_card(card["id"])["cost"])
    table.act("capital", {"player": "ann", "to": cost + (0 if situation == "cannot-pay" else amount)})
    if situation == "alone":
        table.act("discard", {"piece": table.handles("ann")[0]})
    table.play("ann", card["id"])
    waiting = table.state.fields.get("prompts", [])
    if situation == "alone":
        assert not waiting
        return
    (prompt,) = waiting
    other = table.handles("ann")[0]
    assert prompt["choices"] == ([] if situation == "cannot-pay" else ["pay"]) + [other]
    assert "{" not in prompt["text"] and prompt["enter"] == f"referee resolve {prompt['number']} " + \
        "|".join(prompt["choices"])
    life = table.state.player("ann").life
    if situation == "pay":
        table.act("resolve", {"answer": "pay"})
        assert table.state.player("ann").capital == 0 and other in table.state.fields["pieces"]
    else:
        if situation == "cannot-pay":
            with pytest.raises(Exception, match="takes one of"):
                table.act("resolve", {"answer": "pay"})
        table.act("resolve", {"answer": other})
        assert other not in table.state.fields["pieces"]
        assert table.state.fields["discards"]["ann"][-1]["kind"] == "unit"
    assert table.state.player("ann").life == life


@pytest.mark.parametrize("card", ASKING, ids=lambda c: c["id"])
def test_every_prompt_is_in_words_and_names_its_command(card):
    """Every card that asks the table something: its prompt shows no raw
    {placeholder} and says which referee command answers it."""
    table = Faction(None, None, decks="mixed")
    table.act("capital", {"player": "ann", "by": 20})
    for on in (None, "bo", *table.handles("bo")):
        try:
            table.play("ann", card["id"], on)
            break
        except Exception:
            continue
    waiting = table.state.fields.get("prompts", [])
    assert waiting, f"{card['id']} raised no prompt"
    for prompt in waiting:
        assert "{" not in prompt["text"] and "}" not in prompt["text"], prompt["text"]
        assert prompt["enter"].startswith("referee "), prompt["enter"]


def test_the_counting_prompts_are_cards_of_their_kinds():
    assert {c["id"] for c in DISCARDS} == {"anarchy-botnet-swarm", "anarchy-leaked-group-chat",
                                           "technocracy-data-harvest"}
    assert {c["id"] for c in PAY_OR_DESTROY} == {"community-callout-specialist"}


# ---------------------------------------------------------------- class 11: the start of a turn

STARTING = [c for c in rules_cards() if any(e.get("when") in ("start-of-turn", "owner-turn") for e in c["effects"])]


@pytest.mark.parametrize("card", STARTING, ids=lambda c: c["id"])
def test_start_of_turn_text_acts_before_the_draw_and_the_coins(card):
    """Triggers start-of-turn and owner-turn. Situation: the owner's turn
    begins (their second): the card's text acts first, then the turn's
    draw, then production (the rule sheet's "Card text")."""
    from referee.games.culture_war import turns

    owner_turn = any(e.get("when") == "owner-turn" for e in card["effects"])
    table = Faction(None, None, decks="mixed")
    table.act("capital", {"player": "ann", "by": 20})
    table.act("capital", {"player": "bo", "by": 20})
    players = tuple(replace(p, fields={"hand": 2, "draw_pile": 20, "discard_pile": 0}) for p in table.state.players)
    table.state = replace(table.state, players=players)
    if owner_turn:
        table.play("ann", "conservative-pension-fund")
        table.act("end-turn", {})
        table.play("bo", card["id"], table.handles("ann", "operation")[-1])
    else:
        table.play("ann", card["id"], table.handles("ann", "estate")[-1] if card["type"] == "mod" else None)
        table.act("end-turn", {})
    assert table.state.active_player.name == "bo"
    dice = table.rules.dice_needed(table.state, Action("end-turn", {}))
    notes = [f.text for f in turns.end_turn(table.state, (1,) * len(dice))[1]]
    name = card["name"]
    mine = [i for i, n in enumerate(notes) if (name in n or (owner_turn and "Pension Fund" in n)) and " produces" not in n]
    drawn = [i for i, n in enumerate(notes) if "(start of turn)" in n]
    made = [i for i, n in enumerate(notes) if " produces" in n and n.startswith("ann")]
    assert mine, f"{name} left no note at the start of ann's turn: {notes}"
    assert drawn and made, notes
    assert max(mine) < drawn[0] < made[0], notes


def test_kpi_dashboard_counts_the_hand_before_the_draw():
    """The issue's example: with 2 cards in hand as the turn begins, KPI Dashboard draws one, then the turn's draw."""
    table = Faction("technocracy", "anarchy")
    table.act("capital", {"player": "ann", "by": 10})
    table.play("ann", "technocracy-kpi-dashboard")
    _set_hand(table, "ann", 2)
    table.act("end-turn", {})
    table.act("end-turn", {})
    assert _hand(table, "ann") == 4


# ---------------------------------------------------------------- the coverage `pnp list` reports


def test_the_coverage_pnp_list_reports_is_what_the_referee_does():
    """`pnp list culture-war` counts per deck the cards the referee applies in
    full and those left to a person (a prompt). Recomputed here from the
    referee's own handlers: a card is `prompt` exactly when one of its
    effects (nested ones included) is carried out by the prompt handler,
    which applies nothing; every other kind changes the table itself, asking
    at most for the numbers it then applies (a discard, pay or destroy)."""
    from collections import Counter
    from pathlib import Path

    from pnp.extras.listing import card_rows, coverage_counts
    from referee.games.culture_war.effects import handlers

    def kinds(effects):
        for e in effects:
            yield e["kind"]
            yield from kinds(e.get("then") if isinstance(e.get("then"), list) else [])
            for outcome in (e.get("outcomes") or {}).values():
                yield from kinds(outcome)

    rows = card_rows(Path(__file__).resolve().parents[2], "culture-war")
    expected: dict = {}
    for r in rows:
        if not r["effects"]:
            value = "none"
        elif any(handlers.HANDLERS[k] is handlers._prompt for k in kinds(r["effects"])):
            value = "prompt"
        else:
            value = "full"
        assert r["coverage"] == value, r["id"]
        expected.setdefault(("culture-war", r["deck"]), Counter())[value] += 1
    assert coverage_counts(rows) == expected
    prompted = {r["id"] for r in rows if r["coverage"] == "prompt"}
    assert prompted == {"technocracy-data-intern", "technocracy-recommender-bot"}  # look at cards: a person's job
