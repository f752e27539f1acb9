"""The Cold War actions, one function each, over a `Play`.

setup, start and regroup arrange the table; place, discard, attack, special,
challenge and triad are a standing player's moves; fallen is a Fallen
Leader's flip; end-turn passes the turn.
"""
from __future__ import annotations

from typing import Callable

from referee.errors import RefereeError, RuleViolation
from referee.games.cold_war import desk as D
from referee.games.cold_war.cards import TYPE_WORDS
from referee.games.cold_war.play import Play


def act_setup(p: Play) -> None:
    player = p.player(p.args.get("player"))
    p.phase("setup", player, "set up")
    desk = p.desk(player)
    if desk["set_up"]:
        raise RuleViolation("setup phase", f"{player} has already placed their six cards this round; "
                                           "undo to change them")
    placed, propaganda, discards = p.cards_arg("cards"), p.cards_arg("propaganda"), p.cards_arg("discard")
    every = placed + propaganda + discards
    p.distinct(player, every)
    stats = {cid: p.own_card(player, cid) for cid in every}
    if len(placed) + len(propaganda) != 6:
        raise RuleViolation("six cards at setup", f"{player} places {len(placed) + len(propaganda)} cards; "
                                                  "the setup phase places exactly 6 of the 9 drawn")
    if len(discards) > 3:
        raise RuleViolation("nine cards at setup", f"{player} discards {len(discards)} cards; 9 are drawn, "
                                                   "6 placed, so at most 3 are discarded")
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
                            + (", and Special cards are not placed at setup" if specials else ""))
    military = [c for c in placed if stats[c]["type"] == "military"]
    if propaganda and not military:
        raise RuleViolation("Propaganda joins Military cards",
                            f"{player} places Propaganda but no Military Power card for it to join")
    desk["science"] = [[c] for c in placed if stats[c]["type"] == "science"]
    desk["military"] = [[c] for c in military + propaganda]
    desk["propaganda"] = list(propaganda)
    desk["assistants"] = [c for c in placed if stats[c]["type"] == "assistant"]
    desk["discard"] = list(discards)
    desk["set_up"] = True
    p.say(f"{player} sets up: {len(desk['science'])} Science & Culture face up, {len(desk['military'])} "
          f"face down in Military, {len(desk['assistants'])} Assistant Leader(s) on the Leader stack"
          + (f", {len(discards)} discarded" if discards else ""))
    waiting = [n for n in p.names() if not p.desk(n)["set_up"]]
    p.say("waiting for: " + ", ".join(waiting) if waiting else "everyone is set up: `start` begins the round")


def act_start(p: Play) -> None:
    who = p.args.get("first")
    p.phase("setup", p.player(who) if who else "the table", "start the round")
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
    player = p.player(p.args.get("player"))
    desk = p.desk(player)
    if p.f["phase"] == "setup":
        if not desk["set_up"]:
            raise RuleViolation("setup phase", f"{player} has no cards on the table yet; record the setup first")
    else:
        active = p.state.players[p.active].name
        if active != player:
            why = " (the broken stack stays weakened until then)" if desk["weakened"] else ""
            raise RuleViolation("regroup on your own turn", f"{player} can only regroup on their own turn, "
                                                            f"and it is {active}'s{why}")
        if desk["fallen"]:
            raise RuleViolation("Fallen Leader", f"{player}'s Leader has fallen; there is nothing to regroup")
    stacks = p.args.get("stacks") or []
    chosen: dict[str, list[list[str]]] = {"science": [], "military": []}
    seen: list[str] = []
    for raw in stacks:
        tokens = [raw] if isinstance(raw, str) else list(raw)
        ids: list[str] = []
        zones = set()
        for token in tokens:
            if D.is_spot(token):
                zone, gi, pos = D.parse_spot(desk, player, token)
                if zone not in D.ZONES:
                    raise RuleViolation("stacks of 3", f"{token.upper()} is on the Leader stack; only Science & "
                                                       "Culture and Military cards form stacks of 3")
                group = desk[zone][gi]
                picked = group if pos is None else [group[pos]]
            else:
                zone, cid = p.own_table_card(player, token, D.ZONES)
                picked = [cid]
            zones.add(zone)
            ids += picked
        if len(ids) != D.STACK:
            raise RuleViolation("stacks of 3", f"{player}'s stack {'+'.join(tokens)} holds {len(ids)} cards; "
                                               "a stack holds exactly 3")
        if len(zones) != 1:
            raise RuleViolation("stacks of 3", f"{player} mixes Science & Culture and Military cards in one "
                                               "stack; each stack keeps to one kind")
        for cid in ids:
            if cid in seen:
                raise RuleViolation("each card once", f"{player} puts {p.label(cid)} in two stacks")
            seen.append(cid)
        chosen[zones.pop()].append(ids)
    for zone in D.ZONES:
        singles = [[c] for group in desk[zone] for c in group if c not in seen]
        desk[zone] = chosen[zone] + singles
    desk["weakened"] = []
    parts = [f"{D.ZONE_WORDS[z]}: {len(chosen[z])} stack(s) of 3 and "
             f"{len(desk[z]) - len(chosen[z])} single card(s)" for z in D.ZONES]
    p.say(f"{player} regroups (free): " + "; ".join(parts))


def act_place(p: Play) -> None:
    mover = p.standing_mover("build defence")
    p.use_play(mover)
    cid = str(p.args.get("card"))
    card = p.from_hand(mover, cid)
    desk = p.desk(mover)
    as_propaganda = bool(p.args.get("propaganda")) or card["type"] == "special"
    if card["type"] == "military":
        if p.args.get("propaganda"):
            raise RuleViolation("Propaganda", f"{card['name']} is Military Power; only non-Military cards are "
                                              "placed as Propaganda")
        desk["military"].append([cid])
        p.say(f"{mover} places a card face down in Military (M{len(desk['military'])})")
        return
    if as_propaganda:
        if not p.on("propaganda"):
            raise RuleViolation("Propaganda (optional rule 1)",
                                f"{mover} cannot place Propaganda: the table plays with house rule propaganda=off")
        if not any(c not in desk["propaganda"] for g in desk["military"] for c in g):
            raise RuleViolation("Propaganda joins Military cards",
                                f"{mover} has no Military Power card on the table for Propaganda to join")
        desk["military"].append([cid])
        desk["propaganda"].append(cid)
        p.say(f"{mover} places a card face down in Military (M{len(desk['military'])})")
    elif card["type"] == "science":
        desk["science"].append([cid])
        p.say(f"{mover} places {card['name']} face up (S{len(desk['science'])}, defence {card['defence']})")
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


def act_attack(p: Play) -> None:
    mover = p.standing_mover("attack")
    p.use_play(mover)
    ids = p.cards_arg("cards")
    if not 1 <= len(ids) <= 2:
        raise RuleViolation("one or two Military cards", f"{mover} attacks with {len(ids)} cards; an attack uses "
                                                         "1 Military Power card or 2 combined")
    p.distinct(mover, ids)
    value = 0
    for cid in ids:
        card = p.from_hand(mover, cid)
        if card["type"] != "military":
            raise RuleViolation("attacks use Military Power", f"{card['name']} is {TYPE_WORDS[card['type']]}, "
                                                              f"so {mover} cannot attack with it")
        value += int(card["attack"])
    target = p.opponent(mover, p.args.get("target"), "attack")
    verb = "combined attack" if len(ids) == 2 else "attack"
    p.attack(mover, value, ids, target, p.args.get("at"), verb)


def act_special(p: Play) -> None:
    mover = p.standing_mover("play a Special")
    p.use_play(mover)
    cid = str(p.args.get("card"))
    card = p.from_hand(mover, cid)
    if card["type"] != "special":
        raise RuleViolation("Special cards", f"{card['name']} is {TYPE_WORDS[card['type']]}, not a Special")
    action = card.get("action")
    if action in ("block", "redirect"):
        raise RuleViolation("Special timing", f"{card['name']} answers an attack aimed at its owner; {mover} "
                                              "plays it as --block or --redirect when attacked")
    target = p.opponent(mover, p.args.get("target"), "Special cards")
    D.to_discard(p.f, cid)
    if action == "redeploy":
        used = p.cards_arg("with")
        if not 1 <= len(used) <= 2:
            raise RuleViolation("redeploy", f"{card['name']} sends 1 or 2 of {mover}'s own face-down Military "
                                            f"Power cards into attack, not {len(used)}")
        ids = []
        value = 0
        for token in used:
            zone, own = p.own_table_card(mover, token, ("military",))
            if own in p.desk(mover)["propaganda"] or p.card(own)["type"] != "military":
                raise RuleViolation("redeploy", f"{p.label(own)} is a Propaganda card; only Military Power "
                                                "cards are redeployed")
            if own in ids:
                raise RuleViolation("each card once", f"{mover} names {p.label(own)} twice")
            ids.append(own)
        for own in ids:
            D.take(p.f, mover, "military", own, mover)
            value += int(p.card(own)["attack"])
        p.say(f"{mover} plays {card['name']}: " + ", ".join(p.label(c) for c in ids) + " leave the table to attack")
        p.attack(mover, value, ids, target, p.args.get("at"), "redeployed attack")
        return
    if p.args.get("redirect") is not None:
        raise RuleViolation("redirect", "a redirect answers an attack, not a Special that removes a card")
    zone = {"remove-science": "science", "remove-military": "military", "remove-assistant": "assistants"}[action]
    at = p.args.get("at")
    if not isinstance(at, str) or not at:
        example = {"science": "S1 or S1.2", "military": "M1 or M1.2", "assistants": "A1"}[zone]
        raise RefereeError(f"say which card {card['name']} removes from {target}'s table: --at {example}")
    have = p.desk(target)[zone]
    if not have:
        raise RuleViolation(card["name"], f"{target} has no {D.ZONE_WORDS[zone] if zone != 'assistants' else 'Assistant Leader'}"
                                          " card on the table to remove")
    _, victim = p.own_table_card(target, at, (zone,))
    block = p.args.get("block")
    if block is not None:
        answer = p.from_hand(target, block)
        if answer["type"] != "special" or answer.get("action") != "block":
            raise RuleViolation("block", f"{answer['name']} is not a Special that blocks")
        D.to_discard(p.f, block)
        p.say(f"{target} blocks {mover}'s {card['name']} with {answer['name']}: it fails")
        return
    broke = D.take(p.f, target, zone, victim, mover)
    D.to_discard(p.f, victim)
    p.say(f"{mover} plays {card['name']}: {target} discards {p.label(victim)}"
          + (f"; the stack of 3 breaks and stays weakened until {target}'s turn" if broke else ""))


def act_challenge(p: Play) -> None:
    mover = p.standing_mover("challenge Propaganda")
    if not p.on("propaganda"):
        raise RuleViolation("Propaganda (optional rule 1)", f"{mover} cannot challenge: the table plays with "
                                                            "house rule propaganda=off")
    whole_turn = p.rules.get("challenge-cost") == "turn"
    moves = p.f["moves"]
    if whole_turn and (moves["plays"] or moves["discards"]):
        raise RuleViolation("a challenge is the whole turn", f"{mover} has already moved this turn; with "
                                                             "house rule challenge-cost=turn a challenge is the whole turn")
    p.use_play(mover)
    target = p.opponent(mover, p.args.get("target"), "Propaganda challenge")
    count = p.args.get("count")
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise RefereeError(f"name how many Propaganda cards {target} has, a whole number from 1")
    own = sum(len(g) for g in p.desk(mover)["military"])
    if count > own:
        raise RuleViolation("Propaganda challenge", f"{mover} has {own} Military/Propaganda card(s) on the table, "
                                                    f"so can name at most {own}, not {count}")
    tdesk = p.desk(target)
    actual = len(tdesk["propaganda"])
    hit, miss = min(count, actual), max(0, count - actual)
    theirs = _chosen(p, target, p.cards_arg("their"), hit, lambda c: c in tdesk["propaganda"],
                     "Propaganda card", tdesk["propaganda"])
    mine_all = [c for g in p.desk(mover)["military"] for c in g]
    mine = _chosen(p, mover, p.cards_arg("own"), miss, lambda c: c in mine_all,
                   "Military/Propaganda card", mine_all)
    for holder, ids in ((target, theirs), (mover, mine)):
        for cid in ids:
            D.take(p.f, holder, "military", cid, mover)
            D.to_discard(p.f, cid)
    if miss == 0:
        p.say(f"{mover} names {count}: right; {target} discards {hit} Propaganda card(s): "
              + ", ".join(p.label(c) for c in theirs))
    else:
        lost = ", ".join(p.label(c) for c in mine)
        p.say(f"{mover} names {count} but {target} had {actual}: {target} discards {hit} Propaganda card(s)"
              + (" (" + ", ".join(p.label(c) for c in theirs) + ")" if theirs else "")
              + f" and {mover} discards {miss} Military card(s) ({lost})")
    if whole_turn:
        moves["discards"] = max(moves["discards"], 1)
        p.advance()


def _chosen(p: Play, holder: str, tokens: list[str], count: int, ok: Callable[[str], bool], what: str,
            pool: list[str]) -> list[str]:
    """The cards `holder` gives up: named ones, else the last `count` of `pool`."""
    if not tokens:
        return list(reversed(pool))[:count] if count else []
    ids = []
    for token in tokens:
        _, cid = p.own_table_card(holder, token, ("military",))
        if not ok(cid):
            raise RuleViolation("Propaganda challenge", f"{p.label(cid)} is not one of {holder}'s {what}s")
        if cid in ids:
            raise RuleViolation("each card once", f"{holder} names {p.label(cid)} twice")
        ids.append(cid)
    if len(ids) != count:
        raise RuleViolation("Propaganda challenge", f"{holder} must give up {count} {what}(s), not {len(ids)}")
    return ids


def act_triad(p: Play) -> None:
    mover = p.standing_mover("launch the Nuclear Triad")
    if not p.on("nuclear-triad"):
        raise RuleViolation("Nuclear Triad (optional rule 2)", f"{mover} cannot launch it: the table plays with "
                                                               "house rule nuclear-triad=off")
    moves = p.f["moves"]
    if moves["plays"] or moves["discards"]:
        raise RuleViolation("the Nuclear Triad is the whole turn", f"{mover} has already moved this turn; the "
                                                                   "Triad takes the whole turn, discard included")
    ids = p.cards_arg("cards")
    p.distinct(mover, ids)
    if len(ids) != 3:
        raise RuleViolation("Nuclear Triad", f"{mover} names {len(ids)} cards; the Triad is all 3 Triad cards")
    legs = set()
    for cid in ids:
        card = p.from_hand(mover, cid)
        if card["type"] != "military" or not card.get("triad"):
            raise RuleViolation("Nuclear Triad", f"{card['name']} has no Nuclear Triad icon")
        legs.add(card.get("triad_leg"))
    if len(legs) != 3:
        raise RuleViolation("Nuclear Triad", f"{mover}'s Triad needs one land, one sea and one air card")
    target = p.opponent(mover, p.args.get("target"), "Nuclear Triad")
    shields = p.cards_arg("shields")
    if shields:
        p.distinct(target, shields)
        if len(shields) != 2:
            raise RuleViolation("Shields", f"{target} needs both Shield cards to stop the Triad, not {len(shields)}")
        for cid in shields:
            card = p.from_hand(target, cid)
            if card["type"] != "special" or not card.get("shield"):
                raise RuleViolation("Shields", f"{card['name']} carries no Shield icon")
    for cid in ids:
        D.to_removed(p.f, cid)
    if shields:
        for cid in shields:
            D.to_removed(p.f, cid)
        p.say(f"{mover} launches the Nuclear Triad at {target}; {target}'s two Shields stop it. The Triad "
              "and both Shields are removed from the game")
    else:
        tdesk = p.desk(target)
        gone = D.defence_cards(p.f, target)
        for cid in gone:
            D.to_removed(p.f, cid)
        tdesk.update(science=[], military=[], propaganda=[], weakened=[])
        p.say(f"{mover} launches the Nuclear Triad at {target}: {len(gone)} defence card(s) are removed from the "
              f"game; only the Leader stack is left. {mover}'s Triad is removed from the game too")
    moves["plays"], moves["discards"] = 2, 1
    p.advance()


def act_fallen(p: Play) -> None:
    mover = p.mover("flip a Fallen Leader card")
    desk = p.desk(mover)
    if not desk["fallen"]:
        raise RuleViolation("Fallen Leader", f"{mover}'s Leader still stands; only a Fallen Leader flips cards")
    target = p.opponent(mover, p.args.get("target"), "Fallen Leader")
    if not desk["pile"]:
        desk["pile"], desk["discard"] = desk["discard"], []
        if desk["pile"]:
            p.say(f"{mover}'s draw pile is empty: the discard pile turns over, unshuffled, as the new one")
    if not desk["pile"]:
        raise RuleViolation("Fallen Leader", f"{mover} has no card left to flip; end the turn")
    cid = str(p.args.get("card"))
    p.own_card(mover, cid)
    if cid not in desk["pile"]:
        raise RuleViolation("draw pile", f"{p.label(cid)} is not in {mover}'s draw pile")
    desk["pile"].remove(cid)
    card = p.card(cid)
    kind = card.get("fallen_draw")
    if kind != "attack":
        for key in ("at", "block", "redirect", "onto"):
            if p.args.get(key) is not None:
                raise RefereeError(f"--{key.replace('_', '-')} only applies when the flipped card attacks; "
                                   f"{card['name']} does not")
    if kind == "attack":
        p.say(f"{mover} flips {card['name']} at {target}: an attack of {card['attack']}")
        at = p.args.get("at")
        if at is None and not D.defence_cards(p.f, target):
            at = "L"
        p.attack(mover, int(card["attack"]), [cid], target, at, "Fallen Leader attack")
    elif kind == "lend":
        p.desk(target)["science"].append([cid])
        desk["lent"].append(cid)
        p.say(f"{mover} flips {card['name']}: lent to {target} as a Science & Culture defence card "
              f"(S{len(p.desk(target)['science'])}, defence {card['defence']}); it returns to {mover} when it falls")
    else:
        D.to_discard(p.f, cid)
        p.say(f"{mover} flips {card['name']}: no effect, discarded")
    p.advance()


def act_end_turn(p: Play) -> None:
    mover = p.mover("end the turn")
    desk = p.desk(mover)
    moved = p.f["moves"]["plays"] or p.f["moves"]["discards"]
    if desk["fallen"] and not moved:  # (a Leader that fell during its own turn just ends it)
        if desk["pile"] or desk["discard"]:
            raise RuleViolation("a Fallen Leader flips a card each turn",
                                f"{mover} must flip a card at a target (`fallen`) before the turn passes")
    elif not desk["fallen"] and p.f["moves"]["discards"] < 1:
        raise RuleViolation("discard one card each turn", f"{mover} must discard one card before ending the turn")
    p.advance()


HANDLERS: dict[str, Callable[[Play], None]] = {
    "setup": act_setup, "start": act_start, "regroup": act_regroup, "place": act_place,
    "discard": act_discard, "attack": act_attack, "special": act_special, "challenge": act_challenge,
    "triad": act_triad, "fallen": act_fallen, "end-turn": act_end_turn,
}
