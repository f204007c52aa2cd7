"""Found in a play-test of Twilight: 2000 (seed 002), outside a game: a misspelt choice gets
hc's did-you-mean."""

from __future__ import annotations

import pytest

T2K = "--ruleset t2k --game none"
FIRE = f"fire {T2K} --asset 12 --strength 5 --weapon m16a2 -r 20"


@pytest.mark.parametrize(
    ("command", "said"),
    [
        (f"{FIRE} --shot burts", "did you mean 'burst'?"),
        (f"{FIRE} --shot quik", "did you mean 'quick'?"),
        (f"{FIRE} --shot zzz", "aimed, quick, aimed-burst or burst"),
        (f"{FIRE} --shot quick --movement saddle --riding 9 --gait trotign", "'trotting'?"),
        (f"deviate {T2K} --range 30 --band lnog", "did you mean 'long'?"),
    ],
)
def test_a_misspelt_choice_is_met_with_did_you_mean(hc, command, said):
    out = hc(command)
    assert out.exit_code == 2 and said in out.stderr, out.output
