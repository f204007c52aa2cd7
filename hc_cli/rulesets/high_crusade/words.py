"""High Crusade's words for the move and for morale, as the texts put them: plain strings,
shared by the resolvers and the game (which imports nothing heavier to say them)."""

MOVE_SEQUENCE = (
    "{a} moves its Fireteams",
    "{a} may fire any or all of its Fireteams",
    "{b} moves",
    "{a} may fire the Fireteams that have not fired this move",
    "{b} fires",
)

ROUT_MEANS = (
    "it must at once make a full Advance move toward its own table edge, and again "
    "every move until a Regroup order rallies it (hc rally)"
)

RETREAT_MEANS = "it retreats another full Advance move toward its own table edge"

ROUT_ORDER = "rout"  # the order the game gives a routed Fireteam (orders.yaml)
STATIC_ORDER = "static"  # and a rallied one, for the rest of the move (seed 001)

RALLIED_MEANS = (
    "it stays Static for the rest of this move: it counts as a Static target and "
    "may not fire; next move it takes orders as normal"
)
