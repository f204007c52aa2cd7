"""Plain words for counts: "1 die", "3 dice", "1 hit", "no wounds"."""

IRREGULAR = {"die": "dice", "casualty": "casualties", "miss": "misses", "entry": "entries"}


def count(n: int, noun: str) -> str:
    """`n` and the noun in the number it takes: 1 die, 2 dice, 0 hits."""
    return f"{n} {noun if n == 1 else IRREGULAR.get(noun, noun + 's')}"
