"""Propaganda challenges, the Nuclear Triad and a Fallen Leader's flip."""
from __future__ import annotations

from typing import Callable

from referee.errors import RefereeError, RuleViolation
from referee.games.cold_war import desk as D
from referee.games.cold_war import effects as E
from referee.games.cold_war import rounds
from referee.games.cold_war import window as W
from referee.games.cold_war import zones as Z
from referee.games.cold_war.attacks import resolve, wait
from referee.games.cold_war.play import Play


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
    p.use_play(mover, 1, "challenge")
    target = p.opponent(mover, p.args.get("target"), "Propaganda challenge")
    count = p.args.get("count")
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise RefereeError(f"name how many Propaganda cards {target} has, a whole number from 1")
    own = len(D.zone_cards(p.desk(mover), "military"))
    if count > own:
        raise RuleViolation("Propaganda challenge", f"{mover} has {own} Military/Propaganda card(s) on the table, "
                                                    f"so can name at most {own}, not {count}")
    own_tokens = p.cards_arg("own")
    for token in own_tokens:  # the challenger's own choice is checked now (the spots must be there)
        p.own_table_card(mover, token, ("military",))
    if W.on(p.f):
        if p.args.get("their"):
            raise RuleViolation("answers are the target's own step",
                                f"--their is {target}'s choice, not part of this command: {target} names the "
                                f"Propaganda cards they give up with `referee answer give SPOT... --by {target}`")
        if len(D.zone_cards(p.desk(target), "military")) > count:  # public: more face-down cards than named
            wait(p, {"kind": "challenge", "by": mover, "target": target, "count": count, "own": own_tokens,
                     "what": f"{mover}'s Propaganda challenge naming {count}", "then": {"advance": whole_turn}})
            return
    challenge_lands(p, mover, target, count, p.cards_arg("their"), own_tokens)
    if whole_turn:
        rounds.advance(p)


def challenge_lands(p: Play, mover: str, target: str, count: int, their: list[str], own: list[str]) -> None:
    """The challenge is judged: `their` is the target's choice of the Propaganda cards they give up
    (spots, in order of preference), `own` the challenger's of their own Military cards."""
    tdesk = p.desk(target)
    actual = len(tdesk["propaganda"])
    hit, miss = min(count, actual), max(0, count - actual)
    theirs = _chosen(p, target, their, hit, lambda c: c in tdesk["propaganda"],
                     "Propaganda card", tdesk["propaganda"])
    mine_all = D.zone_cards(p.desk(mover), "military")
    mine = _chosen(p, mover, own, miss, lambda c: c in mine_all,
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
    if p.rules.get("challenge-cost") == "turn":
        p.f["moves"]["discards"] = max(p.f["moves"]["discards"], 1)


def _chosen(p: Play, holder: str, tokens: list[str], count: int, ok: Callable[[str], bool], what: str,
            pool: list[str]) -> list[str]:
    """The `count` cards `holder` gives up. `tokens` (spots or ids on
    `holder`'s Military side) are `holder`'s choice in order of preference:
    those that fit (`ok`) go first, and the last cards of `pool` make up the
    rest. A named card that does not fit is passed over, never refused: how
    many cards go, and whether a face-down card is Propaganda, is for the
    challenge to show once it is made, not for a refusal to tell for free.
    Only what anyone can see is refused: a spot that is not there, a card
    named twice."""
    ids: list[str] = []
    for token in tokens:
        _, cid = p.own_table_card(holder, token, ("military",))
        if cid in ids:
            raise RuleViolation("each card once", f"{holder} names {token.upper() if D.is_spot(token) else token} twice")
        ids.append(cid)
    chosen = [cid for cid in ids if ok(cid)][:count]
    for cid in reversed(pool):
        if len(chosen) >= count:
            break
        if cid not in chosen:
            chosen.append(cid)
    return chosen


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
        card = p.own_card(mover, cid)
        if card["type"] != "military" or not E.has(card, "triad"):
            raise RuleViolation("Nuclear Triad", f"{card['name']} has no Nuclear Triad icon")
        legs.add(card.get("triad_leg"))
    if len(legs) != 3:
        raise RuleViolation("Nuclear Triad", f"{mover}'s Triad needs one land, one sea and one air card")
    for cid in ids:
        p.from_hand(mover, cid)
    target = p.opponent(mover, p.args.get("target"), "Nuclear Triad")
    moves["plays"], moves["discards"] = 2, 1
    if W.on(p.f):
        W.no_inline(p.args, target)
        if W.could_answer(p.f, target, "triad"):
            wait(p, {"kind": "triad", "by": mover, "target": target, "cards": list(ids),
                     "what": f"{mover}'s Nuclear Triad", "then": {"advance": True}})
            return
    triad_lands(p, mover, ids, target)
    rounds.advance(p)


def triad_lands(p: Play, mover: str, ids: list[str], target: str) -> None:
    """The Triad lands with the target's answer: both Shields (`shields`) or none."""
    if p.args.get("block") is not None or p.args.get("redirect") is not None:
        raise RuleViolation("Nuclear Triad", "only both Shield cards answer the Nuclear Triad; a block or a "
                                             "redirect does not")
    shields = take_shields(p, target)
    for cid in ids:
        D.to_removed(p.f, cid)
    if shields:
        for cid in shields:
            D.to_removed(p.f, cid)
        p.say(f"{mover} launches the Nuclear Triad at {target}; {target}'s two Shields stop it. The Triad "
              "and both Shields are removed from the game")
        p.draw_back(target, 2, "the Shields")
        for cid in shields:
            E.ask(p, target, cid, p.card(cid), "while-in-play")
    else:
        tdesk = p.desk(target)
        gone = D.defence_cards(p.f, target)
        for cid in gone:
            D.to_removed(p.f, cid)
        tdesk.update(science=[], military=[], propaganda=[], weakened=[])
        p.say(f"{mover} launches the Nuclear Triad at {target}: {len(gone)} defence card(s) are removed from the "
              f"game; only the Leader stack is left. {mover}'s Triad is removed from the game too")
    for cid in ids:
        E.ask(p, mover, cid, p.card(cid), "while-in-play")


def act_fallen(p: Play) -> None:
    mover = p.mover("flip a Fallen Leader card")
    desk = p.desk(mover)
    if not desk["fallen"]:
        raise RuleViolation("Fallen Leader", f"{mover}'s Leader still stands; only a Fallen Leader flips cards")
    target = p.opponent(mover, p.args.get("target"), "Fallen Leader")
    if Z.next_flip(desk)[0] == "nothing":
        raise RuleViolation("Fallen Leader", f"{mover} has no card left to flip; end the turn")
    cid = str(p.args.get("card"))
    card = p.own_card(mover, cid)
    if Z.flip(p.f, mover, cid):
        p.say(f"{mover}'s draw pile is empty: the discard pile turns over, unshuffled, as the new one")
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
        if not resolve(p, mover, int(card["attack"]), [cid], target, at, "Fallen Leader attack",
                       {"advance": True}):
            return  # the target's answer lands it, and passes the turn
    elif kind == "lend":
        spot = D.add_group(p.desk(target), "science", [cid])
        desk["lent"].append(cid)
        p.say(f"{mover} flips {card['name']}: lent to {target} as a Science & Culture defence card "
              f"({spot}, defence {card['defence']}); it returns to {mover} when it falls")
    else:
        D.to_discard(p.f, cid)
        p.say(f"{mover} flips {card['name']}: no effect, discarded")
    rounds.advance(p)


def take_shields(p: Play, target: str) -> list[str]:
    """Effect `shield`: the two Shield cards `target` answers a Nuclear Triad
    with (--shield, none or both), taken from the hand; the caller removes
    them from the game with the Triad."""
    shields = p.cards_arg("shields")
    if shields:
        p.distinct(target, shields)
        if len(shields) != 2:
            raise RuleViolation("Shields", f"{target} needs both Shield cards to stop the Triad, not {len(shields)}")
        for cid in shields:
            card = p.own_card(target, cid)
            if card["type"] != "special" or not E.has(card, "shield"):
                raise RuleViolation("Shields", f"{card['name']} carries no Shield icon")
            p.from_hand(target, cid)
    return shields
