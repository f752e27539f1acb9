"""The Cold War actions, one function each over a `Play` (play.py): setup,
start and regroup arrange the table; place and discard are a standing
player's card moves; end-turn passes the turn. Attacks and Specials are in
attacks.py; challenges, the Triad and Fallen Leader flips in moves.py.
rules.py lists them all in ACTIONS; which action may run in which phase is
in phases.py.
"""
from __future__ import annotations

import hashlib
from typing import Any, Callable

from referee.errors import RefereeError, RuleViolation
from referee.games.cold_war import attacks, moves, rounds
from referee.games.cold_war import desk as D
from referee.games.cold_war import zones as Z
from referee.games.cold_war.play import Play

SETUP_DRAW, SETUP_PLACE, SETUP_DISCARD = 9, 6, 3


def leader_room(p: Play, player: str, adding: int) -> None:
    """House rule leader-stack: the most cards a Leader stack holds, Leader included."""
    most = int(p.rules["leader-stack"])
    have = 1 + len(p.desk(player)["assistants"])
    if have + adding > most:
        raise RuleViolation("Leader stack size", f"{player}'s Leader stack would hold {have + adding} cards; "
                                                 f"it holds at most {most} (the Leader and {most - 1} Assistant "
                                                 f"Leader(s), house rule leader-stack={most})")


def setup_counts(p: Play, types: list[str]) -> tuple[int, int]:
    """How many of the nine drawn cards a setup places and discards: 6 and 3.
    With Propaganda off (optional rule 1) a Special cannot be placed at all
    (the rulebook: Specials are discarded or placed as Propaganda), so when
    more than 3 of the nine are Specials, every Special is discarded and the
    other cards, fewer than 6, are placed."""
    if p.on("propaganda") or len(types) != SETUP_DRAW:
        return SETUP_PLACE, SETUP_DISCARD
    specials = sum(1 for t in types if t == "special")
    placed = min(SETUP_PLACE, SETUP_DRAW - specials)
    return placed, SETUP_DRAW - placed


def act_setup(p: Play) -> None:
    player = p.player(p.args.get("player"))
    desk = p.desk(player)
    if desk["set_up"]:
        raise RuleViolation("setup phase", f"{player} has already placed their six cards this round; "
                                           "undo to change them")
    placed, propaganda, discards = p.cards_arg("cards"), p.cards_arg("propaganda"), p.cards_arg("discard")
    every = placed + propaganda + discards
    p.distinct(player, every)
    stats = {cid: p.own_card(player, cid) for cid in every}
    to_place, to_discard = setup_counts(p, [stats[c]["type"] for c in every])
    why = "" if to_place == SETUP_PLACE else (f" (with propaganda=off a Special cannot be placed, so the "
                                              f"{SETUP_DRAW - to_place} Specials among the nine are all discarded)")
    if len(placed) + len(propaganda) != to_place:
        raise RuleViolation("six cards at setup", f"{player} places {len(placed) + len(propaganda)} cards; "
                                                  f"the setup phase places exactly {to_place} of the 9 drawn{why}")
    if len(discards) != to_discard:
        raise RuleViolation("nine cards at setup", f"{player} discards {len(discards)} cards; 9 are drawn, "
                                                   f"{to_place} placed and the other {to_discard} discarded{why} "
                                                   "(name them with --discard, in the order they go on the pile)")
    for cid in propaganda:
        if stats[cid]["type"] == "military":
            raise RuleViolation("Propaganda", f"{stats[cid]['name']} is Military Power; only non-Military cards "
                                              "are placed as Propaganda")
    specials = [c for c in placed if stats[c]["type"] == "special"]
    propaganda += specials
    placed = [c for c in placed if c not in specials]
    if propaganda and not p.on("propaganda"):
        raise RuleViolation("Propaganda (optional rule 1)",
                            f"{player} cannot place Propaganda: the table plays with house rule propaganda=off"
                            + (", and Special cards are not placed at setup: discard them (more than 3 Specials "
                               "among the nine: discard every one, and place the others)" if specials else ""))
    military = [c for c in placed if stats[c]["type"] == "military"]
    if propaganda and not military:
        raise RuleViolation("Propaganda joins Military cards",
                            f"{player} places Propaganda but no Military Power card for it to join")
    assistants = [c for c in placed if stats[c]["type"] == "assistant"]
    leader_room(p, player, len(assistants))
    for cid in every:
        Z.from_pile(p.f, player, cid)
    for cid in placed:
        if stats[cid]["type"] == "science":
            D.add_group(desk, "science", [cid])
    for cid in face_down_order(player, p.round, military, propaganda):
        D.add_group(desk, "military", [cid])
    desk["propaganda"] = list(propaganda)
    desk["assistants"] = assistants
    desk["discard"] = list(discards)
    Z.draw(desk, Z.HAND)
    desk["set_up"] = True
    p.say(f"{player} sets up: {len(desk['science'])} Science & Culture face up, {len(desk['military'])} "
          f"face down in Military, {len(assistants)} Assistant Leader(s) on the Leader stack, "
          f"{len(discards)} discarded; {player} draws a hand of {desk['hand']}")
    waiting = [n for n in p.names() if not p.desk(n)["set_up"]]
    p.say("waiting for: " + ", ".join(waiting) if waiting else "everyone is set up: `start` begins the round")


def face_down_order(player: str, round_no: int, military: list[str], propaganda: list[str]) -> list[str]:
    """The order the face-down cards of a setup take the M spots: the
    Military cards in the order typed, with the Propaganda cards mixed in
    among them. Where each Propaganda card goes is drawn from a hash of all
    the face-down cards, so it follows neither from the order they were typed
    in nor from the list (`--propaganda` or a Special among the cards) that
    named them: a player who sees only face-down cards cannot tell where the
    Propaganda sits. The same cards always give the same spots, so the log
    replays exactly."""
    if not propaganda:
        return list(military)
    key = "|".join([player, str(round_no), *sorted(military + propaganda)])

    def draw(text: str) -> str:
        return hashlib.sha256(f"{key}|{text}".encode()).hexdigest()

    total = len(military) + len(propaganda)
    slots = sorted(sorted(range(total), key=lambda i: draw(f"slot {i}"))[:len(propaganda)])
    props = iter(sorted(propaganda, key=draw))
    rest = iter(military)
    return [next(props) if i in slots else next(rest) for i in range(total)]


def act_start(p: Play) -> None:
    who = p.args.get("first")
    waiting = [n for n in p.names() if not p.desk(n)["set_up"]]
    if waiting:
        raise RuleViolation("setup phase", f"{', '.join(waiting)} must record their setup before play starts")
    first = p.player(who) if who else (p.f.get("first") or p.names()[0])
    p.f["phase"] = "play"
    p.active = p.names().index(first)
    p.f["moves"] = {"plays": 0, "discards": 0}
    p.desk(first)["weakened"] = []
    p.say(f"round {p.round} begins: {first} plays first, then clockwise")


def act_regroup(p: Play) -> None:
    """Break the stacks named by --break, then form the stacks named by
    --stack from single cards. Every other spot stays as it is."""
    player = p.player(p.args.get("player"))
    desk = p.desk(player)
    if p.f["phase"] == "setup":
        if not desk["set_up"]:
            raise RuleViolation("setup phase", f"{player} has no cards on the table yet; record the setup first")
    else:
        active = p.active_name()
        if active != player:
            why = " (the broken stack stays weakened until then)" if desk["weakened"] else ""
            raise RuleViolation("regroup on your own turn", f"{player} can only regroup on their own turn, "
                                                            f"and it is {active}'s{why}")
        if desk["fallen"]:
            raise RuleViolation("Fallen Leader", f"{player}'s Leader has fallen; there is nothing to regroup")
    breaks = p.cards_arg("break")
    stacks = p.args.get("stacks") or []
    if not breaks and not stacks:
        raise RefereeError(f"say what {player} regroups: --stack A,B,C forms a stack of 3, --break M1 breaks one")
    broken = [_break(p, player, token) for token in breaks]
    formed = [_form(p, player, [raw] if isinstance(raw, str) else list(raw)) for raw in stacks]
    desk["weakened"] = []
    parts = [f"breaks {lbl}" for lbl in broken] + [f"forms {lbl}" for lbl in formed]
    p.say(f"{player} regroups (free): " + ", ".join(parts) + "; every other spot stays as it was")


def _break(p: Play, player: str, token: str) -> str:
    desk = p.desk(player)
    zone, group, pos = D.parse_spot(desk, player, token)
    if zone not in D.ZONES or pos is not None or len(group["cards"]) != D.STACK:
        raise RuleViolation("stacks of 3", f"{token.upper()} is not one of {player}'s stacks of 3; "
                                           "--break takes a stack's spot, like M1")
    desk[zone].remove(group)
    for i, cid in enumerate(group["cards"]):
        D.add_group(desk, zone, [cid], group["n"] if i == 0 else None)
    return D.label(zone, group)


def _form(p: Play, player: str, tokens: list[str]) -> str:
    desk = p.desk(player)
    groups: list[dict] = []
    zones = set()
    for token in tokens:
        if D.is_spot(token):
            zone, group, pos = D.parse_spot(desk, player, token)
            if zone not in D.ZONES:
                raise RuleViolation("stacks of 3", f"{token.upper()} is on the Leader stack; only Science & "
                                                   "Culture and Military cards form stacks of 3")
        else:
            zone, cid = p.own_table_card(player, token, D.ZONES)
            group = D.group_of(desk, zone, cid)
        if len(group["cards"]) != 1:
            lbl = D.label(zone, group)
            raise RuleViolation("stacks of 3", f"{token.upper() if D.is_spot(token) else 'that card'} is in "
                                               f"{player}'s stack {lbl}; break it first (--break {lbl})")
        if any(g is group for g in groups):
            raise RuleViolation("each card once", f"{player} puts {D.label(zone, group)} in a stack twice")
        zones.add(zone)
        groups.append(group)
    if len(groups) != D.STACK:
        raise RuleViolation("stacks of 3", f"{player}'s stack {'+'.join(tokens)} holds {len(groups)} cards; "
                                           "a stack holds exactly 3")
    if len(zones) != 1:
        raise RuleViolation("stacks of 3", f"{player} mixes Science & Culture and Military cards in one "
                                           "stack; each stack keeps to one kind")
    zone = zones.pop()
    for group in groups:
        desk[zone].remove(group)
    return D.add_group(desk, zone, [g["cards"][0] for g in groups], min(g["n"] for g in groups))


def act_place(p: Play) -> None:
    mover = p.standing_mover("build defence")
    p.use_play(mover, 1, "placement")
    cid = str(p.args.get("card"))
    card = p.own_card(mover, cid)
    desk = p.desk(mover)
    as_propaganda = bool(p.args.get("propaganda")) or card["type"] == "special"
    if card["type"] == "military":
        if p.args.get("propaganda"):
            raise RuleViolation("Propaganda", f"{card['name']} is Military Power; only non-Military cards are "
                                              "placed as Propaganda")
    elif as_propaganda:
        if not p.on("propaganda"):
            raise RuleViolation("Propaganda (optional rule 1)",
                                f"{mover} cannot place Propaganda: the table plays with house rule propaganda=off")
        if not any(c not in desk["propaganda"] for c in D.zone_cards(desk, "military")):
            raise RuleViolation("Propaganda joins Military cards",
                                f"{mover} has no Military Power card on the table for Propaganda to join")
    elif card["type"] == "assistant":
        leader_room(p, mover, 1)
    p.from_hand(mover, cid)
    if card["type"] == "military" or as_propaganda:
        spot = D.add_group(desk, "military", [cid])
        if as_propaganda:
            desk["propaganda"].append(cid)
        p.say(f"{mover} places a card face down in Military ({spot})")
    elif card["type"] == "science":
        spot = D.add_group(desk, "science", [cid])
        p.say(f"{mover} places {card['name']} face up ({spot}, defence {card['defence']})")
    else:
        desk["assistants"].append(cid)
        p.say(f"{mover} adds {card['name']} to the Leader stack (defence +{card['defence']})")


def act_discard(p: Play) -> None:
    mover = p.standing_mover("discard")
    ids = p.cards_arg("cards")
    if not ids:
        raise RefereeError("name the card(s) to discard")
    p.distinct(mover, ids)
    moves = p.f["moves"]
    if moves["plays"] + moves["discards"] + len(ids) > 3:
        raise RuleViolation("three cards a turn", f"{mover} has {3 - moves['plays'] - moves['discards']} card "
                                                  f"move(s) left this turn, not {len(ids)}")
    for cid in ids:
        p.from_hand(mover, cid)
        D.to_discard(p.f, cid)
    moves["discards"] += len(ids)
    p.say(f"{mover} discards " + ", ".join(p.label(c) for c in ids))


def act_end_turn(p: Play) -> None:
    mover = p.mover("end the turn")
    desk = p.desk(mover)
    moved = p.f["moves"]["plays"] or p.f["moves"]["discards"]
    if desk["fallen"] and not moved:  # (a Leader that fell during its own turn just ends it)
        if Z.next_flip(desk)[0] != "nothing":
            raise RuleViolation("a Fallen Leader flips a card each turn",
                                f"{mover} must flip a card at a target (`fallen`) before the turn passes")
    elif not desk["fallen"] and p.f["moves"]["discards"] < 1 and desk["hand"] > 0:
        raise RuleViolation("discard one card each turn", f"{mover} must discard one card before ending the turn")
    rounds.advance(p)


# Each card effect kind the referee applies (effects.HANDLED) -> its function.
EFFECT_HANDLERS: dict[str, Callable[..., Any]] = {
    **attacks.SPECIAL_ACTIONS, "shield": moves.take_shields, "triad": moves.act_triad,
}
