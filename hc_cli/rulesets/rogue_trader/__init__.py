"""Warhammer 40,000: Rogue Trader (1987): D6 to hit, to wound, save.

The declaration of its commands is in `declaration.py`; the resolvers behind them are
reached through `commands.py`, imported only when a command runs.
"""
