"""Games that remember: the game file (store), its chain read back and folded, acting in it,
seeing it, which game is in force, and rosters."""
