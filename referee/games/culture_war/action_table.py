"""Culture War's table of actions: each action's step, check and dice by a
plain import (loaded on first use of `RULES.actions`: the reading commands
never play an action, so the action code and the card handlers behind it load
only for the commands that do)."""
from __future__ import annotations

from referee.games.culture_war import actions, alliances, turns
from referee.games.culture_war.battle import attacks
from referee.games.culture_war.board_actions import _card_rolls, _first_player, _rolled, board_action
from referee.rules import ActionSpec
from referee.rules.shared import check_capital, check_end_turn, check_life

ACTIONS: tuple[ActionSpec, ...] = (
    board_action("rolloff", turns.rolloff, dice=_rolled, check=turns.check_rolloff,
                 then=_first_player),
    ActionSpec("end-turn", check_end_turn, turns.apply_end_turn, dice=turns.turn_dice,
               narrate=turns.narrate_end_turn, play=turns.play_end_turn),
    board_action("play", actions.play, dice=_card_rolls, check_roll=3),
    board_action("seize", actions.seize),
    board_action("battle", attacks.battle, dice=_rolled, check=attacks.check_battle),
    board_action("window", attacks.window, dice=_rolled, check=attacks.check_window),
    board_action("settle", attacks.settle, dice=_rolled, check=attacks.check_settle),
    board_action("ally", alliances.ally),
    board_action("unally", alliances.unally),
    board_action("donate", alliances.donate),
    board_action("gift", alliances.gift),
    board_action("discard", actions.discard),
    board_action("draw", actions.draw),
    board_action("discard-hand", actions.discard_hand),
    ActionSpec("life", check_life, actions.apply_life),
    ActionSpec("capital", check_capital, actions.apply_capital),
)
