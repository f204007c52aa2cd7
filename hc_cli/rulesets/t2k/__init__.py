"""Twilight: 2000 "Combat rules v1.1": d20 tasks, direct and automatic fire, Initiative.

The declaration of its commands is in `declaration.py`; the resolvers behind them are
reached through `commands.py`, imported only when a command runs.
"""
