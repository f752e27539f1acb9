"""`answer`: the target of a waiting action answers it (window.py), and the
action lands.

    answer none                          it lands as made
    answer block CARD                    a Special that blocks (attack or Special)
    answer redirect CARD --onto P:SPOT   a Special that redirects an attack
    answer shield CARD CARD              both Shields against the Nuclear Triad
    answer give SPOT...                  which Propaganda cards a challenge takes (the loser's choice)

Only the target answers (`--by` is checked; without it the target is meant,
as the mover is meant by the turn's other commands); `--timeout` records
that no answer came in time, which anyone may record, and lands it as
`none` does. The answering cards come from the target's hand and are
played face up, so the answer is shown to everyone.
"""
from __future__ import annotations

from referee.errors import RuleViolation
from referee.games.cold_war import attacks, moves, rounds
from referee.games.cold_war import effects as E
from referee.games.cold_war import window as W
from referee.games.cold_war.play import Play

GIVEN = {"block": "block", "redirect": "redirect", "shields": "shield", "their": "give"}


def act_answer(p: Play) -> None:
    pending = W.waiting(p.f)
    if pending is None:
        raise RuleViolation("answers", "nothing waits for an answer now")
    if set(pending) <= {"kind", "by", "target", "what", "answers"}:
        # a table sampled from a player's view holds only the public part of what waits (window.public):
        # the waiting action cannot be carried out on it, so the answer is refused there, never a crash
        raise RuleViolation("answers", f"what waits for {pending.get('target')}'s answer is not known on this table")
    target = pending["target"]
    actor = p.action.actor
    timeout = bool(p.args.get("timeout"))
    if actor is not None and not timeout and p.state.player(actor).name != target:
        raise RuleViolation("answers", f"{pending['what']} is aimed at {target}, so only {target} answers it, "
                                       f"not {p.state.player(actor).name}")
    given = [GIVEN[k] for k in GIVEN if p.args.get(k)]
    allowed = W.KINDS[pending["kind"]]
    if timeout and given:
        raise RuleViolation("answers", "a timeout answers nothing; name no card with --timeout")
    if len(given) > 1:
        raise RuleViolation("answers", f"{target} answers once: " + " or ".join(given) + ", not both")
    if given and given[0] not in allowed:
        raise RuleViolation("answers", f"{pending['what']} is answered by " + " or ".join(allowed)
                            + f" (or none), not by {given[0]}")
    if p.args.get("onto") is not None and not p.args.get("redirect"):
        raise RuleViolation("answers", "--onto goes with `answer redirect CARD`")
    p.f["pending"] = None
    if timeout:  # (a plain `none` adds no line: the log's own line says it, and the landing follows)
        p.say(f"no answer from {target} in time: {pending['what']} goes ahead")
    by, then = pending["by"], pending.get("then") or {}
    landed = True
    if pending["kind"] == "attack":
        attacks.land(p, by, int(pending["value"]), list(pending["used"]), target, pending["at"], pending["verb"])
    elif pending["kind"] == "challenge":
        moves.challenge_lands(p, by, target, int(pending["count"]), p.cards_arg("their"), list(pending["own"]))
    elif pending["kind"] == "remove":
        card = p.card(pending["card"])
        landed = attacks.remove_lands(p, by, card, target, pending["zone"], pending["victim"])
    else:
        moves.triad_lands(p, by, list(pending["cards"]), target)
    ask = then.get("ask")
    if landed and ask:
        E.ask(p, by, ask, p.card(ask), "your-turn")
    if then.get("advance"):
        rounds.advance(p)
