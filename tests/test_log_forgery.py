"""A log no one can rewrite unseen: every edit of a chained log, rechained or not, keyed or not, is
caught by `hc replay`."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import FIRE_ARGS

# ---------------------------------------------------------------------------------------------
# 2. A log no one can rewrite unseen


def _log(hc, tmp_path: Path, env: dict | None = None) -> tuple[Path, list[str], str]:
    log = tmp_path / "game.log"
    receipt = ""
    for seed in range(1, 11):
        result = hc(*FIRE_ARGS, "--seed", str(seed), "--log", str(log), env=env)
        assert result.exit_code == 0
        receipt = result.stderr.strip().rpartition("receipt ")[2]
    return log, log.read_text().splitlines(), receipt


def _rechain(lines: list[str], key: bytes | None = None) -> list[str]:
    """A forger's work: every seq and prev recomputed after an edit (SHA-256, no key)."""
    from hc_cli.log.chain import chain_hash

    out, prev = [], None
    for seq, line in enumerate(lines, 1):
        entry = json.loads(line)
        entry.update(seq=seq, prev=prev)
        text = json.dumps(entry, separators=(",", ":"), ensure_ascii=False)
        prev = chain_hash(text.encode(), key)
        out.append(text)
    return out


def _replay(hc, log: Path, lines: list[str], *args: str, env: dict | None = None):
    log.write_text("".join(line + "\n" for line in lines))
    return hc("replay", str(log), *args, env=env)


def test_a_receipt_catches_a_recomputed_chain_and_a_cut_tail(hc, tmp_path):
    log, lines, receipt = _log(hc, tmp_path)
    assert receipt.startswith("10:") and len(receipt) == 11
    assert _replay(hc, log, lines, "--head", receipt).exit_code == 0
    edited = json.loads(lines[4])
    edited["result"]["outcome"] = "kill"
    forged = _rechain(lines[:4] + [json.dumps(edited)] + lines[5:])
    assert _replay(hc, log, forged).exit_code == 1  # the result no longer reproduces
    swapped = json.loads(lines[4])  # a whole other roll, from another seed: it reproduces
    swapped.update(seed=98, result=hc.json(*FIRE_ARGS, "--seed", "98"))
    forged = _rechain(lines[:4] + [json.dumps(swapped)] + lines[5:])
    assert _replay(hc, log, forged).exit_code == 0  # the chain alone cannot see it ...
    caught = _replay(hc, log, forged, "--head", receipt)
    assert caught.exit_code == 1 and "NOT reached" in caught.stdout  # ... the receipt does
    for cut in (lines[:-1], _rechain(lines[:-1]), []):
        result = _replay(hc, log, cut, "--head", receipt)
        assert result.exit_code == 1, cut


def test_entries_without_a_number_and_an_emptied_log_fail(hc, tmp_path):
    log, lines, _ = _log(hc, tmp_path)
    last = json.loads(lines[-1])
    for seq in (None, "11", True):
        extra = (
            {**last, "seq": seq}
            if seq is not None
            else {k: v for k, v in last.items() if k != "seq"}
        )
        result = _replay(hc, log, lines + [json.dumps(extra)])
        assert result.exit_code == 1 and "without a sequence number" in result.stdout
    empty = _replay(hc, log, [])
    assert empty.exit_code == 1 and "no entries" in empty.stdout


def test_a_keyed_log_cannot_be_extended_without_the_key(hc, tmp_path):
    key = {"HC_LOG_KEY": "the-referee's secret"}
    log, lines, receipt = _log(hc, tmp_path, env=key)
    assert all(json.loads(line)["mac"] == "hmac-sha256" for line in lines)
    assert _replay(hc, log, lines, "--head", receipt, env=key).exit_code == 0
    wrong = _replay(hc, log, lines, env={"HC_LOG_KEY": "a guess that is long enough"})
    assert wrong.exit_code == 2 and "the key given does not match" in wrong.stderr  # no forgery
    assert _replay(hc, log, lines).exit_code == 1  # keyed: not checked without the key
    edited = [json.dumps({**json.loads(line), "time": "2000-01-01T00:00:00Z"}) for line in lines]
    assert _replay(hc, log, _rechain(edited), env=key).exit_code == 1  # chained without it
    keyfile = tmp_path / "key"
    keyfile.write_text("the-referee's secret\n")
    assert _replay(hc, log, lines, env={"HC_LOG_KEY_FILE": str(keyfile)}).exit_code == 0


def test_the_log_says_who_chose_the_seed(hc, tmp_path):
    log = tmp_path / "g.log"
    hc(*FIRE_ARGS, "--seed", "4", "--log", str(log))
    hc(*FIRE_ARGS, "--log", str(log))
    hc(*FIRE_ARGS, "--dice", "46", "--log", str(log))
    chosen = [json.loads(line)["seed_from"] for line in log.read_text().splitlines()]
    assert chosen == ["player", "hc", None]
