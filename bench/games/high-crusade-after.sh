# High Crusade, four moves, played as in high-crusade-before.sh with the game keeping the
# orders (given once), passing the steps with nothing left to do, and several units a line.
hc game new karsk.hcg --roster examples/high-crusade-roster.yaml
export HC_GAME=karsk.hcg
# move
hc initiative --seed 1
hc orders Orcs static ladz=advance
hc orders advance fireteam-2=static
hc fire boyz --at fireteam-1 -r 30 --seed 11
hc morale fireteam-1 --seed 12
hc game next
hc game next
hc fire ladz --at fireteam-2 -r 30 --seed 13
hc morale fireteam-2 --seed 14
hc fire fireteam-1 --at boyz -r 30 --seed 15
hc fire fireteam-2 --at ladz -r 30 --seed 16
hc morale --due --seed 17
# move
hc initiative --seed 2
hc rally ladz --seed 21
hc fire fireteam-1 --at boyz -r 26 --seed 22
hc fire fireteam-2 --at ladz -r 26 --seed 23
hc fire boyz --at fireteam-1 -r 26 --seed 24
# move
hc initiative --seed 3
hc rally ladz --seed 31
hc fire boyz --at fireteam-2 -r 20 --seed 32
hc fire fireteam-1 fireteam-2 --at boyz -r 20 --seed 33
hc morale boyz --seed 35
# move
hc initiative --seed 4
hc rally ladz --seed 41
hc fire fireteam-1 --at boyz -r 16 --seed 42
hc morale boyz --seed 45
hc game next
hc game next
hc fire fireteam-2 --at ladz -r 22 --seed 43
