"""High Crusade (Wessex Games, 2nd ed.): percentile SF skirmish.

The declaration of its commands is in `declaration.py`; the resolvers behind them are
reached through `commands.py`, imported only when a command runs.
"""
