"""Words for Divide & Conquer: the status part and change lines (pure)."""
from __future__ import annotations

from typing import Any, Mapping

from referee.games.divide_and_conquer import battle, zones
from referee.games.divide_and_conquer.phases import Phase, next_step, phase_of
from referee.model import State

# what an asset's or deficit's effect does, in the words of its printed strip
POWERS = {"defence-only": "only when defending", "attack-only": "only when attacking",
          "defends-all": "defends the whole base", "base-joins-attacks": "attacks from the base",
          "event-immune": "event-proof", "flips-wing": "switches wings", "cancels-assets": "silences assets"}


def _attached(a: Mapping[str, Any]) -> str:
    mod = f"{a['modifier']:+d} " if a["modifier"] else ""
    only = "" if a["ability"] == "plain" else f" [{POWERS.get(a['ability'], a['ability'])}]"
    return f"{mod}{a['name']}{only}"


def group_line(g: Mapping[str, Any]) -> str:
    wing = "L" if g["wing"] == "left" else "R"
    text = f"{g['ref']} {g['name']} {wing}{g['influence']}"
    if g["attached"]:
        text += " <- " + ", ".join(_attached(a) for a in g["attached"])
    flips = zones.scoring_wing(g) != g["wing"]
    return text + f" = {zones.value(g)}" + (f" (scores {zones.scoring_wing(g)})" if flips else "")


def status_lines(state: State) -> list[str]:
    f = state.fields
    pile = len(f["discard"]) + int(f.get("hidden_discards") or 0)
    phase = phase_of(f)
    lines = [f"phase: {phase.value}" + ("" if phase is not Phase.ACTION else
                                         f" ({state.active_player.name}: event, unaffiliate, recruit, attach, "
                                         "or declare an attack)")]
    lines.append(f"deck: {f['deck']} of {f['deck_size']} cards left; discard pile: {pile} cards "
                 f"({len(f['discard'])} seen, {int(f.get('hidden_discards') or 0)} unseen from hands)")
    if int(f.get("set_aside") or 0):
        lines.append(f"set aside unseen (out of this game): {f['set_aside']} cards")
    if f["deck"] == 0 and not state.result:
        who = f.get("last_drawer") or state.active_player.name
        lines.append(f"the deck is empty: the game ends after {who}'s turn")
    built = {name: groups for name, groups in f["bases"].items() if groups}
    lines.append("bases (each group: influence + assets - deficits; net = |right - left|):"
                 + ("" if built else " all empty"))
    for name, groups in built.items():
        lines.append(f"  {name}:")
        lines += [f"    {group_line(g)}" for g in groups]
    lines.append("unaffiliated:" + ("" if f["unaffiliated"] else " none"))
    lines += [f"    {group_line(g)}" for g in f["unaffiliated"]]
    attack = f.get("attack")
    if attack:
        _, target = zones.find(f, attack["target"])
        where = {"player": f"in {attack['defender']}'s base", "unaffiliated": "unaffiliated",
                 "own": f"in {attack['attacker']}'s own base"}[attack["kind"]]
        lines.append(f"attack: {attack['attacker']} attacks {target['name']} ({target['ref']}, {where}) "
                     f"to {attack['intent']}; next: " + next_step(attack))
        for label, groups in (("attack team", attack["team"]), ("defence", attack["defence"])):
            if groups:
                lines.append(f"  {label}: " + "; ".join(group_line(g) for g in groups))
        if attack["joined"]:
            lines.append("  joined from the base: " + ", ".join(attack["joined"]))
        a, a_parts, d, d_parts = battle.totals(f)
        chance = battle.odds(a, d)
        lines.append(f"  influence so far: attack {a} v defence {d}, each plus a d6; the attacker must beat it "
                     f"(chance {chance.numerator}/{chance.denominator})")
        lines.append(f"    attack {a}: {parts_text(a_parts)}")
        lines.append(f"    defence {d}: {parts_text(d_parts)}")
    last = f.get("last_attack")
    if last:
        lines.append(fight_line(last))
    event = f.get("last_event")
    if event and event.get("notes"):
        lines += [f"last event ({event['player']}): {note}" for note in event["notes"]]
    if state.result:
        lines.append(f"game over: {state.result}")
    return lines


def fight_line(last: Mapping[str, Any]) -> str:
    a_roll, d_roll = last["dice"]
    outcome = ("won: " + ("took over " if last["intent"] == "take-over" else "destroyed ") + last["target"]
               if last["won"] else f"lost: {last['target']} holds")
    sources = ""
    if last.get("attack_parts") is not None:
        sources = (f" (attack: {parts_text(last['attack_parts'])}; "
                   f"defence: {parts_text(last['defence_parts'])})")
    return (f"last attack: {last['attacker']} rolled {a_roll} + {last['attack'] - a_roll} = {last['attack']} "
            f"v {d_roll} + {last['defence'] - d_roll} = {last['defence']}; {outcome}{sources}")


def parts_text(parts) -> str:
    """Where a side's influence comes from: each group, with the cards on it counted in."""
    return ", ".join(f"{label} {value}" for label, value in parts) or "nothing but the die"


def _where(fields: Mapping[str, Any]) -> dict[str, tuple[str, int]]:
    out = {}
    for owner, groups in zones.places(fields):
        for g in groups:
            out[g["ref"]] = (f"{owner}'s base" if owner else "unaffiliated", len(g["attached"]))
    attack = fields.get("attack") or {}
    for label, key in (("attack team", "team"), ("defence", "defence")):
        for g in attack.get(key) or ():
            out[g["ref"]] = (label, len(g["attached"]))
    return out


def _names(fields: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    out = {}
    for _, groups in zones.places(fields):
        for g in groups:
            out[g["ref"]] = g
    for key in ("team", "defence"):
        for g in (fields.get("attack") or {}).get(key) or ():
            out[g["ref"]] = g
    return out


def change_lines(before: State, after: State) -> list[str]:
    old, new = _where(before.fields), _where(after.fields)
    groups = {**_names(before.fields), **_names(after.fields)}
    out = []
    for ref in dict.fromkeys([*old, *new]):
        g = groups[ref]
        a, b = old.get(ref), new.get(ref)
        if a is None:
            out.append(f"{ref} {g['name']}: hand -> {b[0]}")
        elif b is None:
            out.append(f"{ref} {g['name']}: {a[0]} -> discard pile")
        else:
            if a[0] != b[0]:
                out.append(f"{ref} {g['name']}: {a[0]} -> {b[0]}")
            if b[1] > a[1]:
                out += [f"{ref} {g['name']} <- {_attached(x)}" for x in g["attached"][a[1]:]]
            elif b[1] < a[1]:
                out.append(f"{ref} {g['name']}: {a[1] - b[1]} attached card(s) discarded")
    fa, fb = before.fields, after.fields
    if fa["deck"] != fb["deck"]:
        out.append(f"deck {fa['deck']} -> {fb['deck']}")
    if fb.get("attack") and (not fa.get("attack") or fa["attack"]["stage"] != fb["attack"]["stage"]):
        out.append(f"attack, phase {fb['attack']['stage']}: next " + next_step(fb["attack"]))
    if fb.get("last_event") and fb.get("last_event") != fa.get("last_event"):
        event, was = fb["last_event"], fa.get("last_event") or {}
        same = (was.get("turn"), was.get("card")) == (event.get("turn"), event.get("card"))
        new_notes = list(event["notes"])[len(was.get("notes") or ()) if same else 0:]  # an owner's pick adds one
        out += new_notes or ([] if same else [f"{event['name']} goes to the discard pile"])
    if fb.get("last_attack") and fb.get("last_attack") != fa.get("last_attack"):
        out.append(fight_line(fb["last_attack"]))
    if after.result and not before.result:
        out.append(f"the last card's drawer has had their turn: game over. {after.result}")
        if fb.get("hands_discarded"):
            out.append(f"{fb['hands_discarded']} cards left in hands are discarded")
    return out
