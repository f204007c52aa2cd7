"""hc: dice and resolution for tabletop miniatures wargames."""

__version__ = "0.1.0"
