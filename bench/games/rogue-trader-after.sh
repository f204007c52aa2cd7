# Rogue Trader, four turns, played as in rogue-trader-before.sh, a turn ending by itself once
# every unit of the side has acted (the player's setting), units of one order in one line.
# settings: turn_ends_by_itself = true
hc game new hunt.hcg --roster examples/rogue-trader-roster.yaml
export HC_GAME=hunt.hcg
# turn
hc initiative --seed 1
hc move marines
hc fire marines --at boyz --range 20 --seed 11
hc fire lascannon-team --at carnosaur --range 30 --seed 12
# turn
hc move boyz carnosaur
hc fire boyz --at marines --range 16 --seed 21
# turn
hc fire marines --at boyz --range 14 --seed 31
hc fire lascannon-team --at carnosaur --range 18 --seed 32
# turn
hc move boyz carnosaur --charge
