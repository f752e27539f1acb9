"""Battles: one unit against another, or straight at a player's LIFE; and
their exact odds.

A battle (rulebook, Combat Phase):
- each side rolls a d6: the attacker adds ATK, the defender DEF; a tie is
  rolled again (every die is kept in the log);
- higher attacker total: the defender dies and its owner loses 5;
- otherwise the attack fails and the attacker's owner loses 2; if the
  deciding attacker die was a 1 it is a critical failure and the defender
  counter-attacks with the roles swapped (a 1 in the counter-attack starts
  nothing more);
- a Hero that kills costs the opponent 10, a Hero that fails costs its
  owner 4, a Hero that dies costs its owner 10 (so 10 at most, never 20).
"""
from __future__ import annotations

from functools import partial
from typing import Any, Mapping

from referee.rules.facts import Outcome, Roll

from referee.games.culture_war.effects import handlers as fx
from referee.games.culture_war import story
from referee.games.culture_war.table.board import Board
from referee.games.culture_war.table.dice import Dice
from referee.games.culture_war.table.pieces import hero
from referee.games.culture_war.effects.static import cyber, has_trait, live_effects, stat_text, trace, unit_stat_parts

KILL, HERO_KILL = 5, 10
FAIL, HERO_FAIL = 2, 4


class Tie(Exception):
    """Raised instead of rolling a tie again while odds are worked out (board.f["_odds"])."""

    def __init__(self, start: int):
        super().__init__(start)
        self.start = start


def kill_damage(killer: Mapping[str, Any], victim: Mapping[str, Any]) -> int:
    return HERO_KILL if hero(killer) or hero(victim) else KILL


def fail_damage(attacker: Mapping[str, Any]) -> int:
    return HERO_FAIL if hero(attacker) else FAIL


def _stat_text(total: int, base: int, parts: list[tuple[int, str]], word: str) -> str:
    return stat_text(total, base, parts, word)


def _reroll(board: Board, handle: str, die: int, role: str, dice: Dice) -> int:
    """A die of this unit shown at or under a reroll effect's number is rolled again once."""
    unit = board.pieces[handle]
    limits = [(int(e["max"]), unit["name"], unit.get("card")) for e in live_effects(unit)
              if e["kind"] == "reroll" and e.get("who") == "this" and (e.get("role") is None or role == "attack")]
    limits += [(int(t.get("max") or 1), t["source"], None) for t in board.f["timed"]
               if t["stat"] == "reroll" and t.get("handle") == handle]
    fits = [lim for lim in limits if die <= lim[0]]
    if not fits:
        return die
    _, source, card = fits[0]
    trace(card, "reroll") if card else None
    again = dice()
    board.note(f"  {unit['owner']} rolls the {die} again ({source}): {again}")
    return again


def _predictable(board: Board, handle: str) -> bool:
    return any(e["kind"] == "predictable" for e in live_effects(board.pieces[handle]))


def exchange(board: Board, dice: Dice, attacker: str, defender: str, who: str) -> tuple[int, int, bool]:
    """Roll until the totals differ. Returns (attacker die, defender die, attacker won)."""
    a_unit, d_unit = board.pieces[attacker], board.pieces[defender]
    atk, atk_parts = unit_stat_parts(board, attacker, "atk", "attack", defender)
    dfn, dfn_parts = unit_stat_parts(board, defender, "def", "defend", attacker)
    board.note(f"{who}: {board.label(attacker)} {_stat_text(atk, a_unit['atk'], atk_parts, 'ATK')} "
                       f"against {board.label(defender)} {_stat_text(dfn, d_unit['def'], dfn_parts, 'DEF')}")
    while True:
        start = getattr(dice, "used", 0)
        a, d = dice(), dice()
        a = _reroll(board, attacker, a, "attack", dice)
        d = _reroll(board, defender, d, "defend", dice)
        left, right = a + atk, d + dfn
        roll = partial(Roll, a_unit["owner"], a, atk, d_unit["owner"], d, dfn)
        loses_a, loses_d = _predictable(board, attacker) and d == 6, _predictable(board, defender) and a == 6
        if loses_a != loses_d:
            trace((a_unit if loses_a else d_unit).get("card"), "predictable")
            name = (a_unit if loses_a else d_unit)["name"]
            board.tell(story.roll(roll(Outcome.PREDICTABLE, name)))
            return a, d, loses_d
        if left == right:
            if board.f.get("_odds"):
                raise Tie(start)
            board.tell(story.roll(roll(Outcome.TIE)))
            continue
        board.tell(story.roll(roll(Outcome.KILL if left > right else Outcome.FAIL)))
        return a, d, left > right


def kill(board: Board, killer: str, victim: str, dice: Dice | None = None) -> None:
    """`victim` dies in battle: its owner pays for it, then on-kill and death effects fire."""
    k, v = board.pieces[killer], board.pieces[victim]
    k_owner, v_owner = k["owner"], v["owner"]
    damage = kill_damage(k, v)
    if hero(k) and hero(v) and board.rules.get("hero-kills-hero") == "both":  # house rule: 10 for each
        damage = HERO_KILL * 2
    reason = "a Hero lost" if hero(v) else ("killed by a Hero" if hero(k) else "unit killed")
    piece = board.remove(victim, f"killed by #{killer} {k['name']}")
    board.change_life(v_owner, -damage, f"{reason}: #{victim} {v['name']}")
    if killer in board.pieces:
        fx.on_piece(board, killer, "on-kill", that_player=v_owner, dice=dice, moment="after the battle")
        fx.on_side(board, k_owner, "own-kill", that_player=v_owner, dice=dice, moment="after the battle")
    fx.after_death(board, piece, victim, k_owner, dice)


def _failed(board: Board, attacker: str, a_unit: Mapping[str, Any], defender: str, dice: Dice,
            counter_attack: bool = False) -> None:
    p, q = a_unit["owner"], board.pieces[defender]["owner"]
    if counter_attack and board.rules.get("counter-fail") != "normal":
        board.note("the counter-attack fails; no one loses life for it")
    else:
        board.change_life(p, -fail_damage(a_unit), f"failed attack by #{attacker} {a_unit['name']}")
    kw = dict(dice=dice, moment="after the battle")
    fx.on_piece(board, attacker, "on-fail", that_player=q, **kw)
    fx.on_side(board, p, "own-fail", that_player=q, **kw)
    fx.on_piece(board, defender, "on-repel", that_player=p, **kw)


def refusal(board: Board, attacker: str, defender: str | None) -> tuple[str, str] | None:
    """Why card text keeps `attacker` from attacking `defender` (a unit's
    handle, or None for a player's LIFE): (rule, reason), or None. The same
    for an attack and a counter-attack: our rule sheet says a counter-attack
    is an attack, so "cannot attack" and a forced target stop it too."""
    return unit_refusal(board, attacker) or target_refusal(board, attacker, defender)


def unit_refusal(board: Board, attacker: str) -> tuple[str, str] | None:
    """Why card text keeps `attacker` from attacking at all now, or None."""
    unit = board.pieces[attacker]
    label = board.label(attacker)
    if has_trait(board, attacker, "cannot-attack"):
        return f"card text: {unit['name']}", f"{label} cannot attack"
    if has_trait(board, attacker, "slow") and unit.get("since") == board.turn:
        return f"card text: {unit['name']}", f"{label} cannot attack on the turn it is played"
    return None


def target_refusal(board: Board, attacker: str, defender: str | None) -> tuple[str, str] | None:
    """Why a forced target keeps `attacker` from attacking `defender`, or None."""
    guards = forced_targets(board, attacker)
    if guards and defender not in guards:
        first = board.pieces[guards[0]]
        return (f"card text: {first['name']}",
                f"{board.label(attacker)} must attack " + " or ".join(board.label(h) for h in guards))
    return None


def forced_targets(board: Board, attacker: str) -> list[str]:
    """The units `attacker` must attack if it attacks at all: every enemy
    unit whose text draws enemy Cyber attacks (Forum Moderator), whoever's
    it is and whoever the attack was meant for."""
    if not cyber(board, attacker):
        return []
    owner = board.pieces[attacker]["owner"]
    guards = []
    for handle, piece in board.in_order():
        if piece["kind"] == "unit" and piece["owner"] != owner and \
                any(e["kind"] == "taunt" for e in live_effects(piece)):
            trace(piece.get("card"), "taunt")
            guards.append(handle)
    return guards


def _attacks(board: Board, attacker: str, foe_owner: str, dice: Dice, target: str | None = None) -> None:
    """`attacker` attacks (in a battle, a counter-attack or straight at LIFE):
    its on-attack effects (`target`, the unit it attacks, is "the enemy unit
    in that battle") and its owner's own-attack effects."""
    unit = board.pieces[attacker]
    kw = dict(that_player=foe_owner, dice=dice, moment="battle")
    fx.on_piece(board, attacker, "on-attack", target=target, **kw)
    fx.on_side(board, unit["owner"], "own-attack", **kw)


def _defends(board: Board, defender: str, attacker: str, dice: Dice) -> None:
    """`defender` is attacked (in a battle or a counter-attack): its on-defend effects."""
    if defender in board.pieces and attacker in board.pieces:
        fx.on_piece(board, defender, "on-defend", that_player=board.pieces[attacker]["owner"], target=attacker,
                    dice=dice, moment="battle")


def _one(board: Board, attacker: str, foe_owner: str, dice: Dice) -> bool:
    """A 1 rolled by the attacker: its on-one and its Mods' attached-one effects.
    True when one of them makes the attack fail."""
    flags: dict[str, Any] = {}
    kw = dict(that_player=foe_owner, dice=dice, battle=flags, moment="battle")
    fx.on_mods(board, attacker, "attached-one", **kw)  # the Mods first: the unit's own text may destroy it
    fx.on_piece(board, attacker, "on-one", **kw)
    return bool(flags.get("failed"))


def _round(board: Board, attacker: str, defender: str, dice: Dice, word: str) -> tuple[int, bool]:
    """One attack (a battle or a counter-attack) up to its result: (attacker die, killed)."""
    a_unit = board.pieces[attacker]
    q = board.pieces[defender]["owner"]
    a, _, won = exchange(board, dice, attacker, defender, word)
    if a == 1 and _one(board, attacker, q, dice) and won:
        board.note(f"  the 1 makes the attack fail ({a_unit['name']})")
        won = False
    if won and defender in board.pieces and attacker in board.pieces:
        keeper = fx.saved(board, defender, board.pieces[attacker]["owner"], dice, in_battle=True)
        if keeper:
            board.note(f"  {board.label(defender)} survives ({keeper}); the attack counts as failed")
            won = False
    if won and defender in board.pieces and attacker in board.pieces:
        kill(board, attacker, defender, dice)
        return a, True
    if defender in board.pieces and not board.people[a_unit["owner"]].eliminated:
        _failed(board, attacker, a_unit, defender, dice, counter_attack=word == "counter-attack")
    return a, False


def opening(board: Board, attacker: str, defender: str, dice: Dice) -> None:
    """A battle begins: the attacker is spent for the turn, then its attack
    triggers and the defender's defend triggers (odds read the stats after these)."""
    a_unit = board.pieces[attacker]
    a_unit["attacked"] = board.turn
    board.f["attacks"] = board.f.get("attacks", 0) + 1
    _attacks(board, attacker, board.pieces[defender]["owner"], dice, target=defender)
    _defends(board, defender, attacker, dice)


def fight(board: Board, attacker: str, defender: str, dice: Dice, counter: bool = True) -> None:
    """One battle, start to finish, written to `board` (notes say what happened)."""
    a_unit, d_unit = board.pieces[attacker], board.pieces[defender]
    p, q = a_unit["owner"], d_unit["owner"]
    opening(board, attacker, defender, dice)
    critical = countered = False
    if attacker in board.pieces and defender in board.pieces:
        a, killed = _round(board, attacker, defender, dice, "battle")
        if not killed and a == 1 and attacker in board.pieces and defender in board.pieces:
            critical = True
            board.tell(story.critical(p))
            barred = refusal(board, defender, attacker)
            if counter and barred:
                board.note(f"{q} cannot counter-attack: {barred[1]} ({barred[0]}; a counter-attack is an attack)")
            elif counter:
                countered = _counter(board, defender, attacker, dice)
            else:
                board.note(f"{q} does not counter-attack")
    if board.f.get("_odds"):
        board.f["_result"] = {"critical": critical, "counter_kill": countered}
    board.f["timed"] = [t for t in board.f["timed"]
                        if not (t["until"] == "battle" and t.get("handle") in (attacker, defender))]


def _counter(board: Board, attacker: str, defender: str, dice: Dice) -> bool:
    """The defender strikes back; its on-attack effects fire (both halves of a
    sentence apply together, in counter-attacks too), then the defend effects
    of the unit it strikes. True if it kills."""
    _attacks(board, attacker, board.pieces[defender]["owner"], dice, target=defender)
    _defends(board, defender, attacker, dice)
    if attacker not in board.pieces or defender not in board.pieces:
        return False
    d, killed = _round(board, attacker, defender, dice, "counter-attack")
    if d == 1:
        board.note("a 1 in a counter-attack starts no further counter-attack")
    return killed


def end_if_broken(board: Board) -> bool:
    """A battle waiting after its dice ends at once when card text (Scatter's
    return to hand, a unit destroyed, its owner out of the game, a change of
    control) leaves it without its two sides: no dice are rolled for it and
    nobody loses LIFE for it; a unit still in play has made its attack.
    True if it ended."""
    window = board.f.get("window")
    if not window:
        return False
    a, d = window["attacker"], window["defender"]
    gone = [h for h in (a, d) if h not in board.pieces]
    if not gone and board.pieces[a]["owner"] != board.pieces[d]["owner"]:
        return False
    board.f.pop("window")
    if a in board.pieces:
        board.pieces[a]["attacked"] = board.turn
    board.f["attacks"] = board.f.get("attacks", 0) + 1
    board.f["timed"] = [t for t in board.f["timed"] if not (t["until"] == "battle" and t.get("handle") in (a, d))]
    why = " and ".join(f"#{h}" for h in gone) + (" has" if len(gone) == 1 else " have") + " left play" \
        if gone else "both units are now on one side"
    board.note(f"the battle of #{a} against #{d} ends before it is settled: {why}; "
                       "no dice are rolled for it and no one loses LIFE for it")
    return True


def strike(board: Board, attacker: str, target: str, dice: Dice | None = None) -> None:
    """An attack on a player's LIFE (allowed when they have nothing to defend with)."""
    unit = board.pieces[attacker]
    unit["attacked"] = board.turn
    board.f["attacks"] = board.f.get("attacks", 0) + 1
    board.note(f"{board.label(attacker)} attacks {target}'s LIFE directly")
    _attacks(board, attacker, target, dice)  # type: ignore[arg-type]
    if attacker not in board.pieces:
        return
    key = "unopposed-hero-damage" if hero(unit) else "unopposed-damage"
    lost = board.change_life(target, -int(board.rules.get(key, 0)), f"direct attack by #{attacker} {unit['name']}")
    if lost:
        fx.on_piece(board, attacker, "on-direct", that_player=target, dice=dice, moment="after the battle")


__all__ = ["fight", "strike", "kill", "exchange", "Tie", "has_trait"]
