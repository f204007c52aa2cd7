"""Caches validated and rebuilt when wrong, and the rule sets found without them: a plain checkout
runs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import FIRE_ARGS, run_hc

# ---------------------------------------------------------------------------------------------
# 8. Caches validated, rebuilt when wrong


def _caches(clean_environment: Path, prefix: str) -> list[Path]:
    return sorted((clean_environment / "cache" / "hc").glob(prefix + "*"))


DEEP = b"[\x01\x00\x00\x00" * 200_000 + b"N"  # 200,000 lists, one in another, in marshal


@pytest.mark.parametrize(
    "content",
    [{"tables": {}}, {"tables": {"weapons": {"x": "y"}}}, DEEP, b"garbage", ["ingrave-ar"]],
    ids=["no tables", "entries as text", "deep", "garbage", "a list"],
)
def test_caches_wrong_inside_are_rebuilt(hc, clean_environment, content):
    import marshal
    import zlib

    assert hc("fire", *FIRE_ARGS[1:], "--seed", "1").exit_code == 0
    env = {"_HC_COMPLETE": "complete_bash", "COMP_WORDS": "hc fire --weapon ing"}
    for path in _caches(clean_environment, ""):
        source, _, _ = marshal.loads(path.read_bytes())
        body = content if isinstance(content, bytes) else marshal.dumps(content)
        # The right source and a checksum that matches: only what is inside is wrong.
        path.write_bytes(marshal.dumps((source, zlib.crc32(body), body)))
    for args in (("fire", *FIRE_ARGS[1:], "--seed", "1"), ("tables",)):
        result = hc(*args)
        assert result.exit_code == 0, result.output
    tab = run_hc(env={**env, "COMP_CWORD": "3", "XDG_CACHE_HOME": str(clean_environment / "cache")})
    assert tab.returncode == 0 and "ingrave-ar" in tab.stdout


def test_a_rule_set_cache_naming_a_module_gone_is_rescanned(clean_environment):
    env = {"XDG_CACHE_HOME": str(clean_environment / "cache")}
    assert run_hc("--help", env=env).returncode == 0  # every rule set: the entry points read
    import marshal

    from hc_cli.tables.files import read_cache, write_cache

    (cache,) = _caches(clean_environment, "rulesets")
    source = marshal.loads(cache.read_bytes())[0]
    refs = read_cache(str(cache), source, 10**6)
    gone = {**refs, "high-crusade": "hc_cli.gone:DECLARATION", "zzz": "hc_cli.gone:DECLARATION"}
    write_cache(str(cache), source, gone)
    result = run_hc(*FIRE_ARGS, "--seed", "1", env=env)  # a bundled rule set: never the cache's
    assert result.returncode == 0, result.stderr
    result = run_hc(*FIRE_ARGS, "--seed", "1", "--ruleset", "zzz", env=env)
    assert result.returncode == 2 and "unknown rule set 'zzz'" in result.stderr
    assert b"hc_cli.gone" not in cache.read_bytes()  # written again from the entry points


def test_a_plain_checkout_runs_its_bundled_rule_sets(tmp_path):
    """No package metadata at all (a checkout on the import path, hc not installed): the
    bundled rule sets are registered in code."""
    import shutil

    root = Path(__file__).resolve().parent.parent
    shutil.copytree(root / "hc_cli", tmp_path / "hc_cli", ignore=shutil.ignore_patterns("*.pyc"))
    shutil.copytree(root / "rules_data", tmp_path / "rules_data")
    probe = (
        "import sys, importlib.metadata as m\n"
        "m.entry_points = lambda **k: []  # nothing installed\n"
        "sys.argv = ['hc', 'fire', '--ruleset', 'rogue-trader', '--bs', '4', '-w', 'bolt-gun',"
        " '-r', '10', '-t', 'ork', '--seed', '1', '-q']\n"
        "from hc_cli.cli.main import main\n"
        "main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "c")},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
