"""`referee tune GAME`: the smallest changes to card numbers (or house rules)
that bring a game to a stated fairness, found by self-play and verified on
fresh seeds. knobs (--vary), apply (a change in a copy of the sources),
fairness (--target, the gap), engine (where games are played), search
(coordinate descent with sequential pruning), run (the whole, verified)."""
