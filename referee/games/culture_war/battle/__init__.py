"""Culture War's battles: `attacks` (battle, window, settle: declaring, the
window of Flashes, settling), `fight` (one battle's dice and its story),
`odds` (exact odds), `saves` (the "would die" saves when several cards could
keep a unit alive), `drawing` (actions that take as many dice as they roll)."""
