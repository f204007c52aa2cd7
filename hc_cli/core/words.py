"""Plain words for counts: "1 die", "3 dice", "1 hit", "no wounds"."""

IRREGULAR = {"die": "dice", "casualty": "casualties", "miss": "misses", "entry": "entries"}


def count(n: int, noun: str) -> str:
    """`n` and the noun in the number it takes: 1 die, 2 dice, 0 hits."""
    return f"{n} {noun if n == 1 else IRREGULAR.get(noun, noun + 's')}"


def printable(text: str) -> str:
    """Text from a file as one line a terminal or a shell comment shows as it is: every control
    character (a newline, an escape sequence, NUL) written as its escape, so nothing a file
    holds can move the cursor, retitle the terminal or break a table."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


def shown_as_is(text: str, lines: bool) -> bool:
    """Whether a file's text prints as it is: no control character (an escape sequence could
    retitle the terminal, set its clipboard or hide a link); `lines`: newlines are text too."""
    return all(c.isprintable() or (lines and c == "\n") for c in text)
