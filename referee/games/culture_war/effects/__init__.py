"""Culture War's card effects: `static` (what cards in play do all the time,
and `freeze`, the board back into a State), `handlers` (each effect kind at
its moment), `context` (who acts and when), `stat_changes` and
`life_and_capital` (the kinds), `turn_effects` (a turn's start and end),
`cancel` (cancelling a card as it is played), `answers` (prompts answered
with numbers)."""
