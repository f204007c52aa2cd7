"""Games that remember, in layers (a module imports only those before it in this list):
rosters (roster); the game file read back, its chain checked (scan); a sealed roll's entries
as the fold checks them (seal_protocol); the fold of a game's entries into its state (fold);
the game file kept, its snapshot and its lock (store); the steps of a sealed roll (seal);
acting in a game (actions); seeing it (views); hc compare (compare); each action rated
(rating), and hc luck (luck); and which game is in force (choice)."""
