"""What the table may see of a Cold War game.

`visible_state` swaps the rules' private bookkeeping in `State.fields` for a
public view: face-down Military cards show only how many there are, unless
their owner is named in `reveal`. `status` (text and JSON) is drawn from that
view only, so it cannot show a hidden card by mistake. The view's words
(`view.render_lines`) read it; the rules hand it out (`RULES.visible_state`).
"""
from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any, Mapping, Sequence

from referee.rules import prompts
from referee.games.cold_war import desk as D
from referee.games.cold_war import window as W
from referee.games.cold_war import zones as Z
from referee.games.cold_war.phases import phase_of
from referee.model import State


def reveal_names(state: State, reveal: Sequence[str]) -> list[str]:
    names: list[str] = []
    for name in reveal:
        if name.strip().lower() == "all" and not any(p.name.lower() == "all" for p in state.players):
            return [p.name for p in state.players]
        found = state.player(name).name
        if found not in names:
            names.append(found)
    return names


def visible_state(state: State, reveal: Sequence[str]) -> State:
    f = state.fields
    if "desks" not in f:  # already a public view
        return state
    shown = reveal_names(state, reveal)
    pd = int(state.house_rules["propaganda-defence"])
    tables = {p.name: _table(f, p.name, p.name in shown, pd) for p in state.players}
    totals = {p.name: sum(f["scores"][p.name]) for p in state.players}
    standings = sorted(state.players, key=lambda p: -totals[p.name])
    public = {
        "phase": phase_of(state),
        "rounds": int(state.house_rules["rounds"]),
        "moves": dict(f["moves"]),
        "revealed": shown,
        "tables": tables,
        "scores": {n: list(v) for n, v in f["scores"].items()},
        "standings": [{"player": p.name, "total": totals[p.name], "rounds": list(f["scores"][p.name])}
                      for p in standings],
        "knocked_out": list(f["knocked_out"]),
        "fallen_defeats": dict(f["fallen_defeats"]),
        "result": f.get("result"),
        "report": list(f.get("report") or []),
    }
    pending = W.waiting(f)
    if pending is not None:  # what waits for whose answer: never a face-down card
        public["pending"] = W.public(pending)
    public["names"] = _names(f, tables)
    for key in (prompts.FIELD, prompts.NEXT):  # a card's prompt names only face-up cards: it is shown to all
        if key in f:
            public[key] = copy.deepcopy(f[key])
    return replace(state, fields=public)


def _names(f: Mapping[str, Any], tables: Mapping[str, Any]) -> dict[str, str]:
    """The printed name of every card the public view shows by id (for `status`'s words)."""
    ids: set[str] = set()
    for t in tables.values():
        ids.update(t["leader_stack"]["cards"] if "leader_stack" in t else [t["leader"]["card"]])
        ids.update(t.get("lent") or [])
        ids.update(t["discard"])
        for s in t["science"].values():
            ids.update(s["cards"])
        for m in t["military"].values():
            ids.update(m["cards"] or [])
        ids.update(t["hand"].get("known") or [])
    return {cid: D.name_of(f, cid) for cid in sorted(ids)}


def _table(f: Mapping[str, Any], name: str, show: bool, pd: int) -> dict[str, Any]:
    desk, deck = f["desks"][name], f["decks"][name]
    leader = D.card(f, deck["leader"])
    out: dict[str, Any] = {
        "country": deck["country"],
        "set_up": desk["set_up"],
        "fallen": desk["fallen"],
    }
    if desk["fallen"]:
        out["leader"] = {"card": leader["id"], "name": leader.get("fallen_name", leader["name"]), "fallen": True}
        out["lent"] = list(desk["lent"])
    else:
        stack = D.leader_stack(f, name)
        out["leader"] = {"card": leader["id"], "name": leader["name"], "defence": leader.get("defence", 0),
                         "fallen": False}
        out["leader_stack"] = {"cards": stack, "defence": sum(int(D.card(f, c).get("defence", 0)) for c in stack)}
        out["assistants"] = {f"A{i}": {"card": c, "defence": D.card(f, c).get("defence", 0)}
                             for i, c in enumerate(desk["assistants"], start=1)}
    science: dict[str, Any] = {}
    military: dict[str, Any] = {}
    for label, zone, group in D.spots(desk):
        if zone == "science":
            entry = {"cards": list(group), "stack": len(group) == D.STACK,
                     "defence": D.group_defence(f, name, group, pd)}
            lent = {c: D.owner(f, c) for c in group if D.owner(f, c) != name}
            if lent:
                entry["lent_by"] = lent
            science[label] = entry
        elif show:
            military[label] = {"face_down": len(group), "stack": len(group) == D.STACK, "cards": list(group),
                               "propaganda": [c for c in group if c in desk["propaganda"]],
                               "defence": D.group_defence(f, name, group, pd)}
        else:
            military[label] = {"face_down": len(group), "stack": len(group) == D.STACK, "cards": None,
                               "defence": None}
    out["counts"] = {"science": len(D.zone_cards(desk, "science")),
                     "military": len(D.zone_cards(desk, "military")),
                     "assistants": len(desk["assistants"]),
                     "hand": int(desk["hand"]), "draw_pile": Z.pile_size(desk),
                     "discard_pile": len(desk["discard"]), "removed": len(desk["removed"])}
    out["pile"] = Z.pile_size(desk)
    out["draw_pile"] = {"cards": Z.pile_size(desk), "turned_over": int(desk["resets"]),
                        "order_known": bool(desk["order"])}
    out["hand"] = {"cards": int(desk["hand"])}
    out["removed"] = len(desk["removed"])
    if show:
        out["hand"]["known"] = list(desk["known"])
        out["hand"]["hand_or_draw_pile"] = sorted(desk["unseen"])
        out["draw_pile"]["order"] = list(desk["order"])
        out["removed_cards"] = list(desk["removed"])
    out.update(science=science, military=military, weakened=list(desk["weakened"]),
               discard=list(desk["discard"]))
    return out
