# Twilight: 2000, one combat turn at the bridge: each character fires when his place in the
# order comes (the extra action of kowalski too), or passes.
hc game new kalisz.hcg --roster examples/t2k-roster.yaml
export HC_GAME=kalisz.hcg
hc initiative --seed 1
# turn
hc fire kowalski --at ivanov --range 40 --seed 11
hc fire ivanov --at kowalski --range 40 --seed 12
hc fire nguyen --at popov --range 60 --seed 13
hc fire kowalski --at ivanov --range 40 --seed 14
hc fire popov --at nguyen --range 60 --seed 15
# turn
hc fire kowalski --at ivanov --range 40 --seed 21
hc fire nguyen --at popov --range 60 --seed 22
hc fire ivanov --at kowalski --range 40 --seed 23
hc fire popov --at nguyen --range 60 --seed 24
# turn
hc fire kowalski --at popov --range 50 --seed 31
hc fire nguyen --at ivanov --range 40 --shot burst --seed 32
