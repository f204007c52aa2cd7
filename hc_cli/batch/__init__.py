"""`hc batch`: JSON Lines in, one resolution a line out, in order."""
