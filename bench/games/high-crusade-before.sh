# High Crusade, four moves: the Orcs' boyz hold Static, their ladz Advance; the Free Companies'
# fireteam-1 Advances, fireteam-2 holds Static. Each Fireteam fires once a move.
hc game new karsk.hcg --roster examples/high-crusade-roster.yaml
export HC_GAME=karsk.hcg
# move
hc initiative --seed 1
hc fire boyz --at fireteam-1 -r 30 --mod firer-static --seed 11
hc morale fireteam-1 --seed 12
hc game next
hc game next
hc fire ladz --at fireteam-2 -r 30 --mod firer-advance --mod target-static --seed 13
hc morale fireteam-2 --seed 14
hc game next
hc fire fireteam-1 --at boyz -r 30 --mod firer-advance --mod target-static --seed 15
hc fire fireteam-2 --at ladz -r 30 --mod firer-static --seed 16
hc morale boyz --seed 17
hc morale ladz --seed 18
# move
hc initiative --seed 2
hc rally ladz --seed 21
hc fire fireteam-1 --at boyz -r 26 --mod firer-advance --mod target-static --seed 22
hc fire fireteam-2 --at ladz -r 26 --mod firer-static --mod target-running --seed 23
hc game next
hc game next
hc game next
hc fire boyz --at fireteam-1 -r 26 --mod firer-static --seed 24
# move
hc initiative --seed 3
hc rally ladz --seed 31
hc fire boyz --at fireteam-2 -r 20 --mod firer-static --mod target-static --seed 32
hc game next
hc game next
hc game next
hc fire fireteam-1 --at boyz -r 20 --mod firer-advance --mod target-static --seed 33
hc fire fireteam-2 --at boyz -r 20 --mod firer-static --mod target-static --seed 34
hc morale boyz --seed 35
# move
hc initiative --seed 4
hc rally ladz --seed 41
hc fire fireteam-1 --at boyz -r 16 --mod firer-advance --mod target-static --seed 42
hc morale boyz --seed 45
hc game next
hc game next
hc fire fireteam-2 --at ladz -r 22 --mod firer-static --mod target-static --seed 43
