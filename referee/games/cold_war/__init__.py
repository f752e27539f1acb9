"""15 Minute Cold War at the table: country decks, hands and piles, defence
stacks, Propaganda, the Nuclear Triad, Fallen Leaders and a three-round
score sheet.

- `cards`: each country's 25 cards and the game notes, read from card_sources/;
- `desk`: pure helpers on one player's cards on the table (spots with stable labels, defence);
- `zones`: the hand, the draw pile (shuffled or in a known order) and printed copies;
- `phases`: the turn structure as a state machine (setup, turn, fallen turn, over);
- `play`: one action being worked out (whose turn, cards in hand, spots, cards per turn);
- `actions`, `attacks`, `moves`, `rounds`: the actions, attack resolution, turns and rounds;
- `effects`: each card effect kind's handler (card_sources/cold-war/effects.yaml); the rest are prompts;
- `rules`: the rules object (check/apply, house rules, the core's hooks);
- `hidden`: what an action's arguments show to players (face-down cards masked);
- `view`: what `status` may show (face-down cards and hands hidden), odds, change lines;
- `commands`: the table-level functions behind the game's CLI commands.
"""
from referee.games.cold_war.rules import RULES
from referee.model import GameSlug
from referee.rules.game import Game, Part

GAME = Game(GameSlug.COLD_WAR, RULES, (Part.VIEW, Part.WORDS, Part.PHRASES, Part.COMMANDS, Part.CLI, Part.REPORT, Part.LEGAL, Part.SELFPLAY, Part.POLICY))

__all__ = ["GAME", "RULES"]
