"""Culture War battle rulings, per effect kind and per situation its text names
(issue 25, classes 1, 2, 5, 6, 7 and 10).

Each kind's cards are read from card_sources/culture-war/*.yaml, so a new card
of the kind is walked through the same situations:

- "cannot attack" (trait cannot-attack): an attack, a counter-attack;
- attack triggers (on-attack, own-attack): a battle, a counter-attack, an attack on LIFE; odds;
- defend triggers (on-defend): defending in a battle, defending in a counter-attack;
- stats while attacking / defending (role): a battle, a counter-attack (roles swap);
- forced targets (taunt): the owner's units, a third player's unit or LIFE, a counter-attack;
- battle Flashes (before-battle): no battle pending, a unit outside it, a player outside it, in it;
- ways a battle loses a unit while its dice are shown: returned to hand, its owner out;
- "would die" saves (would-die, attached-would-die, other-would-die, shield): in battle,
  destroyed by card text, two saves at once (the owner chooses).
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from referee.errors import RefereeError
from referee.rules.facts import Kind, Outcome
from referee.rules import rules_for
from referee.games.culture_war.effects import static as fx_static
from helpers.cardcache import cached_card
from referee.games.culture_war.battle.odds import odds
from referee.model import Action, GameSlug, Setup

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "card_sources" / "culture-war"
DECKS = ("anarchy", "community", "technocracy", "conservative", "libertarian")
RULES = rules_for("culture-war")


def cards() -> list[dict]:
    return [c for deck in DECKS for c in yaml.safe_load((GAME / f"{deck}.yaml").read_text())["cards"]]


def of_kind(test) -> list[dict]:
    """Every card with an effect for which `test(effect)` holds."""
    return [c for c in cards() if any(test(e) for e in c.get("effects") or ())]


class Table:
    """Culture War for a few players, decks=mixed (anyone plays any card), seating order."""

    def __init__(self, players: tuple[str, ...] = ("ann", "bo")):
        self.state = RULES.setup(Setup(GameSlug.CULTURE_WAR, tuple((p, None) for p in players), 1, 100,
                                       {"first-player": "seating", "decks": "mixed"}), ())
        for name in players:
            self.do("capital", player=name, by=60)

    def do(self, name: str, dice: list[int] | tuple[int, ...] = (), **args) -> "Table":
        action = Action(name, args)
        RULES.check(self.state, action)
        if not dice:
            dice = [6] * len(RULES.dice_needed(self.state, action))
        before = self.state
        self.state = RULES.apply(self.state, action, list(dice))
        self.notes = [f.text for f in RULES.narrate(before, action, list(dice))]
        return self

    def play(self, who: str, code: str, on: str | None = None, dice: list[int] | tuple[int, ...] = ()) -> str | None:
        """Play a card; the handle of the piece it became, if any."""
        before = set(self.pieces)
        args = {"player": who, "card": code, "_card": cached_card(code)}
        if on is not None:
            args["on"] = on
        self.do("play", dice, **args)
        new = sorted(set(self.pieces) - before, key=int)
        return new[-1] if new else None

    def battle(self, attacker: str, defender: str, dice: list[int], window: bool = False,
               counter: bool = True) -> "Table":
        extra = {} if counter else {"counter": False}
        return self.do("window" if window else "battle", dice, attacker=attacker, defender=defender,
                       rolls=len(dice), **extra)

    def settle(self, dice: list[int] | tuple[int, ...] = ()) -> "Table":
        return self.do("settle", dice, rolls=len(dice))

    def end(self) -> "Table":
        return self.do("end-turn")

    def to(self, name: str) -> "Table":
        """End turns until it is `name`'s."""
        for _ in range(6):
            if self.state.active_player.name == name:
                return self
            self.end()
        raise AssertionError(f"never {name}'s turn")

    @property
    def pieces(self) -> dict:
        return self.state.fields["pieces"]

    def life(self, name: str) -> int:
        return self.state.player(name).life

    def base(self, name: str) -> str:
        return next(h for h, p in self.pieces.items() if p["owner"] == name and p["kind"] == "unit")


def units(players: tuple[str, ...], **decks: list[str]) -> tuple[Table, dict[str, list[str]]]:
    """A table where each player deploys the given cards on their turn; then it is the first player's turn 2."""
    t = Table(players)
    handles: dict[str, list[str]] = {}
    for name in players:
        t.to(name)
        handles[name] = [t.play(name, code) for code in decks.get(name, [])]
    t.to(players[0])
    return t, handles


def traced(card_id: str, kind: str) -> bool:
    return (card_id, kind) in fx_static.TRACE


# ---------------------------------------------------------------- class 2: "cannot attack"

CANNOT_ATTACK = of_kind(lambda e: e["kind"] == "trait" and e["trait"] == "cannot-attack")


def _cannot_attack_unit(t: Table, card: dict, owner: str) -> str:
    """A unit of `owner` that cannot attack because of `card` (the card itself, or a Mod on a plain unit)."""
    t.to(owner)
    if card["type"] == "mod":
        unit = t.play(owner, "conservative-militia-volunteer")
        t.play(owner, card["id"], on=unit)
        return unit
    return t.play(owner, card["id"])


def test_cannot_attack_cards_are_found():
    assert {c["id"] for c in CANNOT_ATTACK} >= {"conservative-mall-walkers", "community-safe-space",
                                                 "technocracy-firewall-daemon"}


@pytest.mark.parametrize("card", CANNOT_ATTACK, ids=lambda c: c["id"])
def test_cannot_attack_stops_an_attack(card):
    t, _ = units(("ann", "bo"))
    foe_card = "technocracy-predictive-model" if card["id"] == "technocracy-firewall-daemon" else "conservative-beat-cop"
    t.to("bo")
    foe = t.play("bo", foe_card)
    unit = _cannot_attack_unit(t, card, "ann")
    t.end().to("ann")
    with pytest.raises(RefereeError, match="cannot attack"):
        t.battle(unit, foe, [6, 1])


@pytest.mark.parametrize("card", CANNOT_ATTACK, ids=lambda c: c["id"])
def test_cannot_attack_stops_a_counter_attack(card):
    """The attacker rolls a 1 and fails: the defender may not counter-attack, since
    a counter-attack is an attack (the battle takes its two dice and no more)."""
    t, _ = units(("ann", "bo"))
    unit = _cannot_attack_unit(t, card, "bo")
    attacker_card = "anarchy-script-kiddie" if card["id"] == "technocracy-firewall-daemon" \
        else "anarchy-window-smasher"
    t.to("ann")
    attacker = t.play("ann", attacker_card)
    t.end().to("bo").end().to("ann")
    before = t.life("ann")
    t.battle(attacker, unit, [1, 6])  # a critical failure
    assert attacker in t.pieces
    assert t.life("ann") == before - 2  # the failure, and nothing from a counter-attack
    with pytest.raises(RefereeError, match="used 2 of the 4 dice"):
        t.to("bo").end().to("ann").battle(attacker, unit, [1, 6, 6, 1])


def test_issue_example_mall_walkers_do_not_counter_attack_window_smasher():
    t, h = units(("ann", "cy"), ann=["anarchy-window-smasher"], cy=["conservative-mall-walkers"])
    smasher, walkers = h["ann"][0], h["cy"][0]
    with pytest.raises(RefereeError, match="used 2 of the 4 dice"):
        t.battle(smasher, walkers, [1, 5, 4, 2])
    t.battle(smasher, walkers, [1, 5])
    assert smasher in t.pieces and t.life("ann") == 98


def test_a_unit_that_can_attack_still_counter_attacks():
    t, h = units(("ann", "cy"), ann=["anarchy-window-smasher"], cy=["conservative-militia-volunteer"])
    t.battle(h["ann"][0], h["cy"][0], [1, 5, 4, 1])  # 4+1 against 1+0: the counter-attack kills
    assert h["ann"][0] not in t.pieces and t.life("ann") == 100 - 2 - 5


# ---------------------------------------------------------------- class 6: attack and defend triggers

ON_ATTACK = of_kind(lambda e: e.get("when") == "on-attack")
OWN_ATTACK = of_kind(lambda e: e.get("when") == "own-attack")
ON_DEFEND = of_kind(lambda e: e.get("when") == "on-defend")


def _attack_trigger_table(card: dict) -> tuple[Table, str, str]:
    """ann's unit whose attack fires `card` (the card itself, or a plain unit beside an
    own-attack Operation) against bo's Militia Volunteer."""
    t, h = units(("ann", "bo"), bo=["conservative-militia-volunteer"])
    t.to("bo").end().to("ann")
    played = t.play("ann", card["id"])
    attacker = played if card["type"] == "unit" else t.play("ann", "anarchy-window-smasher")
    t.end().to("bo").end().to("ann")
    return t, attacker, h["bo"][0]


def test_attack_trigger_cards_are_found():
    assert {c["id"] for c in ON_ATTACK} >= {"community-slam-poet", "libertarian-seastead-founder",
                                             "libertarian-bootstrap-hustler"}
    assert ON_DEFEND and OWN_ATTACK


def stats_shown(card: dict, notes: list[str], word: str) -> bool:
    """Whether every stats change the card's attack trigger makes is in the battle's line for `word`."""
    line = next(n for n in notes if n.startswith(f"{word}:"))
    changes = [f"{e[s]:+d} {card['name']}" for e in card["effects"]
               if e["kind"] == "stats" and e.get("when") == "on-attack" for s in ("atk", "def") if e.get(s)]
    return all(c in line for c in changes)


@pytest.mark.parametrize("card", ON_ATTACK + OWN_ATTACK, ids=lambda c: c["id"])
def test_attack_triggers_act_in_a_battle(card):
    t, attacker, defender = _attack_trigger_table(card)
    fx_static.TRACE.clear()
    t.battle(attacker, defender, [2, 6])
    kinds = {e["kind"] for e in card["effects"] if e.get("when") in ("on-attack", "own-attack")}
    assert all(traced(card["id"], k) for k in kinds), (kinds, fx_static.TRACE)
    assert stats_shown(card, t.notes, "battle"), t.notes


@pytest.mark.parametrize("card", ON_ATTACK, ids=lambda c: c["id"])
def test_attack_triggers_act_in_a_counter_attack(card):
    """bo's unit with the trigger is attacked; ann rolls a 1 and fails; it counter-attacks."""
    t, h = units(("ann", "bo"), ann=["anarchy-window-smasher"])
    t.to("bo")
    unit = t.play("bo", card["id"])
    t.end().to("ann")
    fx_static.TRACE.clear()
    t.battle(h["ann"][0], unit, [1, 6, 6, 1])
    kinds = {e["kind"] for e in card["effects"] if e.get("when") == "on-attack"}
    assert all(traced(card["id"], k) for k in kinds), (kinds, fx_static.TRACE)
    assert stats_shown(card, t.notes, "counter-attack"), t.notes


@pytest.mark.parametrize("card", ON_ATTACK + OWN_ATTACK, ids=lambda c: c["id"])
def test_attack_triggers_act_in_an_attack_on_life(card):
    t, attacker, defender = _attack_trigger_table(card)
    t.do("discard", piece=defender)
    t.do("discard", piece=t.base("bo"))
    fx_static.TRACE.clear()
    t.battle(attacker, "bo", [])
    kinds = {e["kind"] for e in card["effects"] if e.get("when") in ("on-attack", "own-attack")}
    kinds -= {"stats"} if any(e.get("who") == "enemy-unit" for e in card["effects"]) else set()  # no enemy unit
    assert all(traced(card["id"], k) for k in kinds), (kinds, fx_static.TRACE)


def test_issue_example_slam_poet_lowers_the_defence_in_the_battle_and_in_the_odds():
    t, h = units(("ann", "bo"), ann=["community-slam-poet"], bo=["conservative-porch-sentinel"])
    poet, sentinel = h["ann"][0], h["bo"][0]
    o = odds(t.state, poet, sentinel)
    assert (o.atk, o.dfn) == (2, 0)  # Porch Sentinel's DEF 1, -1 for that battle
    # with DEF 0 a 2 against a 4 ties (2+2 = 4+0) and is rolled again; with DEF 1 it would fail
    t.battle(poet, sentinel, [2, 4, 3, 1])
    assert sentinel not in t.pieces
    assert t.life("bo") == 95 and t.life("ann") == 99  # Porch Sentinel: the attacking player loses 1
    # the -1 lasts for that battle only: it is gone afterwards
    assert not [x for x in t.state.fields["timed"] if x.get("source") == "Slam Poet"]


def test_odds_count_every_attack_trigger_the_battle_counts():
    """Seastead Founder: +3 ATK whenever it attacks; odds show the ATK of the battle."""
    t, h = units(("ann", "bo"), ann=["libertarian-seastead-founder"], bo=["conservative-militia-volunteer"])
    assert odds(t.state, h["ann"][0], h["bo"][0]).atk == 6
    assert odds(t.state, h["ann"][0], h["bo"][0]).dfn == 4  # 2 printed, +2 while defending


@pytest.mark.parametrize("card", ON_DEFEND, ids=lambda c: c["id"])
def test_defend_triggers_act_when_defending_in_a_battle(card):
    t, h = units(("ann", "bo"), ann=["anarchy-window-smasher"], bo=[card["id"]])
    fx_static.TRACE.clear()
    t.battle(h["ann"][0], h["bo"][0], [2, 6])
    assert all(traced(card["id"], e["kind"]) for e in card["effects"] if e.get("when") == "on-defend")


@pytest.mark.parametrize("card", ON_DEFEND, ids=lambda c: c["id"])
def test_defend_triggers_act_when_defending_in_a_counter_attack(card):
    """ann's unit with the trigger attacks, rolls a 1 and fails; bo's unit
    counter-attacks, so ann's unit defends."""
    t, h = units(("ann", "bo"), ann=[card["id"]], bo=["conservative-militia-volunteer"])
    fx_static.TRACE.clear()
    t.battle(h["ann"][0], h["bo"][0], [1, 6], counter=False)  # it attacks: it does not defend
    assert not [k for c, k in fx_static.TRACE if c == card["id"]]
    t.to("bo").end().to("ann")
    t.battle(h["ann"][0], h["bo"][0], [1, 6, 1, 6])  # now bo counter-attacks (and fails)
    assert all(traced(card["id"], e["kind"]) for e in card["effects"] if e.get("when") == "on-defend")


def test_issue_example_porch_sentinel_defending_in_a_counter_attack():
    t, h = units(("ann", "bo"), ann=["conservative-porch-sentinel"], bo=["conservative-militia-volunteer"])
    t.battle(h["ann"][0], h["bo"][0], [1, 6, 1, 6])
    # ann fails (-2); bo's Volunteer counter-attacks: bo is the attacking player and loses 1
    # for the Sentinel defending; the counter-attack fails (free, by the house rule)
    assert (t.life("ann"), t.life("bo")) == (98, 99)


ROLE_STATS = of_kind(lambda e: e["kind"] == "stats" and e.get("role") and e.get("when") in (None, "while-in-play"))


@pytest.mark.parametrize("card", ROLE_STATS, ids=lambda c: c["id"])
def test_stats_for_a_role_follow_the_role_in_a_counter_attack(card):
    """A unit gets its attacking bonus when it counter-attacks and its defending
    bonus when it defends in a counter-attack, and not the other."""
    effect = next(e for e in card["effects"] if e["kind"] == "stats" and e.get("role"))
    stat = "atk" if effect.get("atk") else "def"
    role = effect["role"]
    t = Table()
    t.to("bo")
    if card["type"] == "unit":
        unit = t.play("bo", card["id"])
    else:
        t.play("bo", card["id"])
        unit = t.play("bo", "anarchy-window-smasher")
    t.end().to("ann")
    foe = t.play("ann", "anarchy-masked-rioter")
    t.end().to("bo").end().to("ann")
    t.battle(foe, unit, [1, 6, 6, 1])  # ann fails on a 1; bo's unit counter-attacks
    bonus = f"{effect[stat]:+d} {card['name']}"
    mine = effect["who"] in ("this", "your-units")  # bo's unit, else ann's (enemy units)
    for word in ("battle", "counter-attack"):
        line = next(n for n in t.notes if n.startswith(f"{word}:"))
        attacking, defending = line.split(" against ")
        bo_attacks = word == "counter-attack"
        wanted_attacking = role == "attacking" and (mine == bo_attacks)
        wanted_defending = role == "defending" and (mine != bo_attacks)
        assert (bonus in attacking) == wanted_attacking and (bonus in defending) == wanted_defending, line


# ---------------------------------------------------------------- class 7: forced targets


TAUNTS = of_kind(lambda e: e["kind"] == "taunt")


def test_forced_target_cards_are_found():
    assert {c["id"] for c in TAUNTS} >= {"conservative-forum-moderator"}


@pytest.mark.parametrize("card", TAUNTS, ids=lambda c: c["id"])
def test_forced_target_binds_every_enemys_cyber_attackers(card):
    """cy's Forum Moderator: ann's Cyber unit may not attack bo's Cyber unit, nor bo's
    LIFE (bo has no Cyber unit left), while an enemy's Moderator is in play; it may attack the Moderator."""
    t, h = units(("ann", "bo", "cy"), ann=["anarchy-script-kiddie"], bo=["libertarian-encryption-purist"],
                 cy=[card["id"]])
    attacker, purist, moderator = h["ann"][0], h["bo"][0], h["cy"][0]
    with pytest.raises(RefereeError, match="must attack cy's #"):
        t.battle(attacker, purist, [6, 1])
    t.do("discard", piece=purist)
    with pytest.raises(RefereeError, match="must attack cy's #"):
        t.battle(attacker, "bo", [])
    t.battle(attacker, moderator, [6, 1])
    assert moderator not in t.pieces


@pytest.mark.parametrize("card", TAUNTS, ids=lambda c: c["id"])
def test_forced_target_binds_a_counter_attack(card):
    """ann's Cyber unit attacks bo's Forum Moderator (it must), rolls a 1 and fails.
    bo's Moderator would counter-attack it, but ann's own Forum Moderator draws every
    enemy Cyber attack, a counter-attack included; without it the Moderator strikes back."""
    for ann_has_one, dice in ((True, [1, 6]), (False, [1, 6, 6, 1])):
        decks = ["anarchy-script-kiddie"] + ([card["id"]] if ann_has_one else [])
        t, h = units(("ann", "bo"), ann=decks, bo=[card["id"]])
        t.battle(h["ann"][0], h["bo"][0], dice)
        said = [n for n in t.notes if "cannot counter-attack" in n]
        assert bool(said) == ann_has_one, t.notes
        assert (h["ann"][0] in t.pieces) == ann_has_one


@pytest.mark.parametrize("card", TAUNTS, ids=lambda c: c["id"])
def test_forced_target_of_the_owner_still_binds(card):
    t, h = units(("ann", "bo"), ann=["anarchy-script-kiddie"],
                 bo=["anarchy-script-kiddie", card["id"]])
    with pytest.raises(RefereeError, match="must attack"):
        t.battle(h["ann"][0], h["bo"][0], [6, 1])
    t.battle(h["ann"][0], h["bo"][1], [6, 1])


@pytest.mark.parametrize("card", TAUNTS, ids=lambda c: c["id"])
def test_forced_target_does_not_bind_a_plain_unit(card):
    t, h = units(("ann", "bo", "cy"), ann=["anarchy-window-smasher"], bo=["conservative-beat-cop"],
                 cy=[card["id"]])
    t.battle(h["ann"][0], h["bo"][0], [6, 1])
    assert h["bo"][0] not in t.pieces


# ---------------------------------------------------------------- class 1: battle Flashes belong to the battle

BATTLE_FLASHES = of_kind(lambda e: e.get("when") == "before-battle")


def _side(card: dict) -> str:
    """Whose unit in the battle the Flash acts on: "yours" or "enemy"."""
    who = {e.get("who") for e in card["effects"] if e.get("when") == "before-battle"}
    return "enemy" if "enemy-unit" in who else "yours"


def _three() -> tuple[Table, dict[str, list[str]]]:
    """ann's Window Smasher and bo's Militia Volunteer; cy's Beat Cop stands by. ann's turn."""
    return units(("ann", "bo", "cy"), ann=["anarchy-window-smasher"], bo=["conservative-militia-volunteer"],
                 cy=["conservative-beat-cop"])


def test_battle_flashes_are_found():
    assert len(BATTLE_FLASHES) >= 12 and all(c["type"] == "flash" for c in BATTLE_FLASHES)


@pytest.mark.parametrize("card", BATTLE_FLASHES, ids=lambda c: c["id"])
def test_a_battle_flash_is_refused_with_no_battle_pending(card):
    t, h = _three()
    for who, unit in (("ann", h["ann"][0]), ("bo", h["bo"][0])):
        target = unit if (who == "ann") == (_side(card) == "yours") else h["bo" if who == "ann" else "ann"][0]
        with pytest.raises(RefereeError, match="no battle is pending"):
            t.play(who, card["id"], on=target)


@pytest.mark.parametrize("card", BATTLE_FLASHES, ids=lambda c: c["id"])
def test_a_battle_flash_is_refused_on_a_unit_outside_the_pending_battle(card):
    t, h = _three()
    t.battle(h["ann"][0], h["bo"][0], [3, 4], window=True)
    with pytest.raises(RefereeError, match="not in the pending battle"):
        t.play("bo", card["id"], on=h["cy"][0])
    with pytest.raises(RefereeError, match="not in the pending battle"):
        t.play("ann", card["id"], on=t.base("ann"))


@pytest.mark.parametrize("card", BATTLE_FLASHES, ids=lambda c: c["id"])
def test_a_battle_flash_is_refused_from_a_player_with_no_unit_in_the_battle(card):
    t, h = _three()
    t.battle(h["ann"][0], h["bo"][0], [3, 4], window=True)
    for on in (None, h["ann"][0], h["bo"][0]):
        with pytest.raises(RefereeError, match="cy has no unit in the pending battle"):
            t.play("cy", card["id"], on=on)


@pytest.mark.parametrize("card", BATTLE_FLASHES, ids=lambda c: c["id"])
@pytest.mark.parametrize("who", ["ann", "bo"])
def test_a_battle_flash_acts_on_its_side_of_the_pending_battle(card, who):
    """Played by either player of the battle, without --on it finds its unit: the
    player's own, or the enemy one if the card says so; naming the other is refused."""
    t, h = _three()
    t.battle(h["ann"][0], h["bo"][0], [3, 4], window=True)
    other = "bo" if who == "ann" else "ann"
    mine, theirs = h[who][0], h[other][0]
    wanted, wrong = (mine, theirs) if _side(card) == "yours" else (theirs, mine)
    with pytest.raises(RefereeError, match="choose the target"):
        t.play(who, card["id"], on=wrong)
    fx_static.TRACE.clear()
    t.play(who, card["id"])
    if card["id"] == "anarchy-scatter":
        assert wanted not in t.pieces and "window" not in t.state.fields
        return
    timed = [x for x in t.state.fields["timed"] if x.get("source") == card["name"]]
    assert timed and {x["handle"] for x in timed} == {wanted}, t.state.fields["timed"]


def test_issue_example_human_chain_with_no_battle_declared():
    """`play community-human-chain --on cy/volunteer-recruit` (cy's Base Unit), no battle declared."""
    t, _ = units(("ann", "cy"))
    t.to("cy")
    with pytest.raises(RefereeError, match="no battle is pending"):
        t.play("cy", "community-human-chain", on=t.base("cy"))


# ---------------------------------------------------------------- class 5: a battle that loses a unit ends


@pytest.mark.parametrize("side", ["attacker", "defender"])
def test_scatter_after_the_dice_ends_the_battle_and_the_table_goes_on(side):
    """Scatter! returns the player's own unit in the battle to their hand: the battle
    ends as the card says (no one loses LIFE), the window closes, the turn goes on."""
    t, h = units(("ann", "bo"), ann=["anarchy-window-smasher"], bo=["conservative-militia-volunteer"])
    smasher, volunteer = h["ann"][0], h["bo"][0]
    t.battle(smasher, volunteer, [6, 1], window=True)
    who = "ann" if side == "attacker" else "bo"
    unit = smasher if side == "attacker" else volunteer
    t.play(who, "anarchy-scatter")
    assert unit not in t.pieces and "window" not in t.state.fields
    assert (t.life("ann"), t.life("bo")) == (100, 100)
    assert any("ends before it is settled" in n for n in t.notes)
    with pytest.raises(RefereeError, match="no battle waits"):
        t.settle()
    if side == "defender":  # the attacker has made its attack
        with pytest.raises(RefereeError, match="already attacked"):
            t.battle(smasher, t.base("bo"), [6, 1])
    t.end()
    assert t.state.active_player.name == "bo"


def test_a_player_out_while_the_dice_are_shown_ends_the_battle():
    """ann, at 1 LIFE, plays Read the Fine Print in her own battle: it costs her 1 LIFE, she
    is out and her units leave play; the battle ends and the table goes on with bo and cy."""
    t, h = _three()
    t.do("life", player="ann", to=1)
    t.battle(h["ann"][0], h["bo"][0], [6, 1], window=True)
    t.play("ann", "libertarian-read-the-fine-print")
    assert t.state.player("ann").eliminated and "window" not in t.state.fields
    assert t.life("bo") == 100
    t.end()


def test_the_scorekeeper_putting_a_player_out_ends_the_battle_too():
    t, h = _three()
    t.battle(h["ann"][0], h["bo"][0], [6, 1], window=True)
    t.do("life", player="bo", to=0)
    assert "window" not in t.state.fields and h["ann"][0] in t.pieces
    t.end()


# ---------------------------------------------------------------- class 10: "would die" saves

SAVE_TRIGGERS = ("would-die", "attached-would-die", "other-would-die")
SAVES = of_kind(lambda e: e.get("when") in SAVE_TRIGGERS)
SHIELDS = of_kind(lambda e: e["kind"] == "shield")


def _saved_unit(t: Table, card: dict, victim_code: str = "conservative-militia-volunteer") -> str:
    """On ann's turn: the unit `card` would keep alive (the card itself, a unit
    carrying it as a Mod, or a unit beside it)."""
    if card["type"] == "unit" and any(e.get("when") == "would-die" for e in card["effects"]):
        return t.play("ann", card["id"])
    victim = t.play("ann", victim_code)
    if card["type"] == "mod":
        t.play("ann", card["id"], on=victim)
    else:
        t.play("ann", card["id"])
    return victim


def test_save_cards_are_found():
    assert {c["id"] for c in SAVES} >= {"anarchy-leaderless-crowd", "libertarian-bug-out-bag",
                                         "libertarian-private-fire-brigade"}
    assert {c["id"] for c in SHIELDS} == {"community-group-hug"}


@pytest.mark.parametrize("card", SAVES, ids=lambda c: c["id"])
def test_a_save_keeps_its_unit_alive_in_battle(card):
    t, h = units(("ann", "bo"), bo=["anarchy-masked-rioter"])
    t.to("ann")
    victim = _saved_unit(t, card)
    t.end().to("bo")
    roll = [6] if card["id"] == "anarchy-leaderless-crowd" else []
    t.battle(h["bo"][0], victim, [6, 1] + roll)  # a kill; a survival roll (the crowd's) reads a 6
    assert victim in t.pieces and t.life("ann") == 100
    assert t.life("bo") == 98  # the attack counts as failed


@pytest.mark.parametrize("card", SAVES, ids=lambda c: c["id"])
def test_a_save_keeps_its_unit_alive_when_card_text_destroys_it(card):
    """Quarterly Review destroys a unit of yours (and refunds its cost): a card that
    keeps the unit alive holds here too, and nothing is refunded for a unit still in play."""
    t, _ = units(("ann", "bo"))
    victim = _saved_unit(t, card)
    t.end().to("bo").end().to("ann")
    capital = t.state.player("ann").capital
    t.play("ann", "technocracy-quarterly-review", on=victim)  # dice: 6 for a survival roll
    assert victim in t.pieces, t.notes
    assert any("survives" in n for n in t.notes)
    paid = 2 if card["id"] == "libertarian-private-fire-brigade" else 0
    assert t.state.player("ann").capital == capital - paid  # Quarterly Review costs 0; no refund


@pytest.mark.parametrize("card", [c for c in SAVES if c["id"] != "anarchy-leaderless-crowd"], ids=lambda c: c["id"])
def test_a_save_keeps_a_unit_alive_that_its_own_text_destroys(card):
    """Window Smasher's end-of-turn roll of 1 destroys it: a Bag on it or a Fire Brigade beside it saves it."""
    t, _ = units(("ann", "bo"))
    victim = _saved_unit(t, card, "anarchy-window-smasher")
    t.do("end-turn", [1])
    assert victim in t.pieces and any("survives" in n for n in t.notes), t.notes


@pytest.mark.parametrize("card", SHIELDS, ids=lambda c: c["id"])
def test_a_battle_shield_saves_in_its_battle_only(card):
    t, h = units(("ann", "bo"), ann=["conservative-militia-volunteer"], bo=["anarchy-masked-rioter"])
    t.to("bo")
    t.battle(h["bo"][0], h["ann"][0], [6, 1], window=True)
    t.play("ann", card["id"])
    t.settle()
    assert h["ann"][0] in t.pieces and t.pieces[h["ann"][0]]["adj"]["def"] == -1
    assert not [x for x in t.state.fields["timed"] if x["stat"] == "shield"]  # used up with its battle


def _two_saves() -> tuple[Table, str]:
    """ann's Window Smasher carries a Bug-Out Bag, and ann's Private Fire Brigade stands beside it."""
    t, _ = units(("ann", "bo"), bo=["anarchy-masked-rioter"])
    t.to("ann")
    smasher = t.play("ann", "anarchy-window-smasher")
    t.play("ann", "libertarian-private-fire-brigade")
    t.play("ann", "libertarian-bug-out-bag", on=smasher)
    return t, smasher


def test_two_saves_the_owner_is_asked_and_play_waits():
    t, smasher = _two_saves()
    waiting = t.state.fields["prompts"]
    assert len(waiting) == 1 and waiting[0]["player"] == "ann"
    assert waiting[0]["choices"] == ["bug-out-bag", "private-fire-brigade"]
    assert f"#{smasher} Window Smasher would die" in waiting[0]["text"]
    with pytest.raises(RefereeError, match="waiting for ann"):
        t.end()
    with pytest.raises(RefereeError, match="takes one of: bug-out-bag, private-fire-brigade"):
        t.do("resolve", prompt=waiting[0]["number"], answer="leaderless-crowd")


@pytest.mark.parametrize("choice", ["bug-out-bag", "private-fire-brigade"])
@pytest.mark.parametrize("situation", ["battle", "card text", "its own text"])
def test_two_saves_the_owners_choice_acts_first(choice, situation):
    t, smasher = _two_saves()
    t.do("resolve", prompt=t.state.fields["prompts"][0]["number"], answer=choice)
    capital = t.state.player("ann").capital
    if situation == "battle":
        t.end().to("bo")
        rioter = next(h for h, p in t.pieces.items() if p["name"] == "Masked Rioter")
        t.battle(rioter, smasher, [6, 1])
    elif situation == "card text":
        t.play("ann", "technocracy-quarterly-review", on=smasher)  # costs 0
    else:
        t.do("end-turn", [1])
    assert smasher in t.pieces
    bag = [m["card"] for m in t.pieces[smasher]["mods"]]
    if choice == "bug-out-bag":  # the Bag is discarded instead; nothing is paid
        assert bag == [] and t.state.player("ann").capital == capital
    else:  # the Fire Brigade is paid; the Bag stays
        assert bag == ["libertarian-bug-out-bag"] and t.state.player("ann").capital == capital - 2


def test_one_save_asks_nothing():
    t, _ = units(("ann", "bo"))
    victim = t.play("ann", "anarchy-window-smasher")
    t.play("ann", "libertarian-bug-out-bag", on=victim)
    assert not t.state.fields.get("prompts")


# ---------------------------------------------------------------- the window's preview: facts chosen by kind

SHOWN = "if nothing is played: "


def _preview(notes: list[str]) -> list[str]:
    return [n[len(SHOWN):] for n in notes if n.startswith(SHOWN)]


def _told_by_settle(t: Table) -> list:
    """The facts `settle` tells with the dice shown and no Flash played (nothing is applied)."""
    return RULES.narrate(t.state, Action("settle", {"rolls": 0}), [])


def _critical_window(defender_name: str | None = None) -> Table:
    """ann's Window Smasher rolls a 1 against bo's Militia Volunteer and fails, with no
    counter-attack: the battle needs no more dice, so the preview tells its result.
    `defender_name`: the Volunteer as a card of another name would print it."""
    t, h = units(("ann", "bo"), ann=["anarchy-window-smasher"], bo=["conservative-militia-volunteer"])
    smasher, volunteer = h["ann"][0], h["bo"][0]
    if defender_name is not None:
        pieces = {**t.pieces, volunteer: {**t.pieces[volunteer], "name": defender_name}}
        t.state = replace(t.state, fields={**t.state.fields, "pieces": pieces})
    return t.battle(smasher, volunteer, [1, 6], window=True, counter=False)


def test_the_preview_is_the_roll_and_the_critical_failure_that_settle_then_tells():
    t = _critical_window()
    told = _told_by_settle(t)
    chosen = [f for f in told if f.kind in (Kind.ROLL, Kind.CRITICAL)]
    assert [f.kind for f in chosen] == [Kind.ROLL, Kind.CRITICAL]
    assert (chosen[0].roll.a, chosen[0].roll.outcome, chosen[1].who) == (1, Outcome.FAIL, "ann")
    assert len(told) > len(chosen) + 1  # settle tells more: the match-up, ann's lost life, no counter-attack
    preview = _preview(t.notes)
    assert preview == [f.text.strip() for f in chosen]
    life = t.life("ann")
    t.settle()
    assert t.life("ann") == life - 2
    assert [n.strip() for n in t.notes if n.strip() in preview] == preview  # settle says what it promised


def test_the_preview_of_a_kill_is_its_roll_alone():
    t, h = units(("ann", "bo"), ann=["anarchy-window-smasher"], bo=["conservative-militia-volunteer"])
    t.battle(h["ann"][0], h["bo"][0], [6, 1], window=True)
    [roll] = [f for f in _told_by_settle(t) if f.kind is Kind.ROLL]
    assert roll.roll.outcome is Outcome.KILL
    assert _preview(t.notes) == [roll.text.strip()]


def test_the_preview_chooses_by_kind_not_by_the_words_of_a_card_name():
    """A unit whose name holds the words a roll's line has ("roll", "->") is named in
    the match-up line settle tells first: the preview still shows only the roll and
    the critical failure."""
    plain, named = _critical_window(), _critical_window("Payroll Troll -> Bot")
    match_up = _told_by_settle(named)[0]
    assert "Payroll Troll -> Bot" in match_up.text and match_up.kind is Kind.STORY
    assert _preview(named.notes) == _preview(plain.notes)
    assert [line.split(" ")[0] for line in _preview(named.notes)] == ["roll", "critical"]
