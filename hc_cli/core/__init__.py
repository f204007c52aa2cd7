"""The pure core: dice sources, exact odds, roll notation, the Resolution model, records and
the plain words they use. Nothing here knows the command line (a lint rule keeps it so)."""
