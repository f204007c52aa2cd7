# Twilight: 2000, the combat turn of t2k-before.sh: the character whose action it is acts
# unnamed, and the same shot again is hc again.
hc game new kalisz.hcg --roster examples/t2k-roster.yaml
export HC_GAME=kalisz.hcg
hc initiative --seed 1
# turn
hc fire --at ivanov --range 40 --seed 11
hc fire --at kowalski --range 40 --seed 12
hc fire --at popov --range 60 --seed 13
hc again kowalski --seed 14
hc fire --at nguyen --range 60 --seed 15
# turn
hc again kowalski --seed 21
hc again nguyen --seed 22
hc again ivanov --seed 23
hc again popov --seed 24
# turn
hc fire --at popov --range 50 --seed 31
hc fire --at ivanov --range 40 --shot burst --seed 32
