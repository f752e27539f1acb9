"""Culture War's table as data: `board` (a working copy of the table that the
steps change), `zones` (hands, decks and discard piles), `phases` (the turn's
phases and what each allows), `cards` (the printed decks) and `house_rules`."""
