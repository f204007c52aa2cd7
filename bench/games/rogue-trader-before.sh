# Rogue Trader, four turns: the marines advance and fire, the lascannon hunts the carnosaur;
# the boyz close in and fire, the carnosaur charges.
hc game new hunt.hcg --roster examples/rogue-trader-roster.yaml
export HC_GAME=hunt.hcg
# turn
hc initiative --seed 1
hc move marines
hc fire marines --at boyz --range 20 --seed 11
hc fire lascannon-team --at carnosaur --range 30 --seed 12
hc game next
# turn
hc move boyz
hc move carnosaur
hc fire boyz --at marines --range 16 --seed 21
hc game next
# turn
hc fire marines --at boyz --range 14 --seed 31
hc fire lascannon-team --at carnosaur --range 18 --seed 32
hc game next
# turn
hc move boyz --charge
hc move carnosaur --charge
