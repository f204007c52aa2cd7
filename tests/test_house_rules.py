"""House rules: laid over the bundled tables in order; broken files named by file, line, key."""

from __future__ import annotations

from pathlib import Path

import pytest

NEW_WEAPON = """\
ruleset: high-crusade
weapons:
  laser-carbine:
    name: Laser carbine
    bands:
      - {up_to: 10, chance: 80, penetration: 5}
      - {up_to: 30, chance: 55, penetration: 4}
"""


def test_add_a_weapon(hc, house):
    path = house(NEW_WEAPON)
    out = hc.json(
        "fire", "-w", "laser-carbine", "-r", "20", "-t", "orc", "--rules", path, "--dice", "5,5"
    )
    assert (out["chance"], out["penetration"], out["outcome"]) == (55, 4, "kill")
    assert out["sample_values"] == [
        "orc DF 4"
    ]  # the house weapon is the players' own, not a sample


def test_change_a_band_replaces_the_list(hc, house):
    path = house(
        "ruleset: high-crusade\nweapons:\n  ingrave-ar:\n    bands:\n"
        "      - {up_to: 20, chance: 90, penetration: 6}\n"
    )
    out = hc.json(
        "fire", "-w", "ingrave-ar", "-r", "14", "-t", "crusader", "--rules", path, "--seed", "1"
    )
    assert (out["band"], out["chance"], out["penetration"]) == ('0-20"', 90, 6)
    assert out["sample_values"] == ["crusader DF 5"]
    assert "out of range" in hc.error(
        "fire", "-w", "ingrave-ar", "-r", "30", "-t", "orc", "--rules", path
    )


def test_add_a_modifier_usable_by_name(hc, house):
    path = house(
        "ruleset: high-crusade\nmodifiers:\n  acid-fog:\n    value: -15\n"
        "    applies_to: chance\n    description: the swamps of Kessel IV\n"
    )
    out = hc.json(
        "fire",
        "--chance",
        "65",
        "--penetration",
        "4",
        "--df",
        "4",
        "--mod",
        "acid-fog",
        "--rules",
        path,
        "--dice",
        "6,0",
    )
    assert out["modifiers"][0]["name"] == "acid-fog"
    assert out["modifiers"][0]["source"] == "house.yaml"  # the file that added it, by name
    assert (out["chance"], out["outcome"]) == (50, "miss")


def test_remove_an_entry(hc, house):
    path = house("ruleset: high-crusade\nremove:\n  weapons: [pagan-smg]\n")
    assert "unknown weapon 'pagan-smg'" in hc.error(
        "fire", "-w", "pagan-smg", "-r", "5", "-t", "orc", "--rules", path
    )


def test_later_files_win(hc, house, clean_environment: Path):
    config = clean_environment / "config" / "hc"
    config.mkdir(parents=True)
    (config / "a.yaml").write_text("ruleset: high-crusade\ntroops:\n  orc: {defence: 6}\n")
    base = ("fire", "--chance", "50", "--penetration", "7", "-t", "orc", "--seed", "1")
    assert hc.json(*base)["defence"] == 6
    env_file = house("ruleset: high-crusade\ntroops:\n  orc: {defence: 7}\n", "env.yaml")
    assert hc.json(*base, env={"HC_RULES": env_file})["defence"] == 7
    cli_file = house("ruleset: high-crusade\ntroops:\n  orc: {defence: 8}\n", "cli.yaml")
    assert hc.json(*base, "--rules", cli_file, env={"HC_RULES": env_file})["defence"] == 8


def test_a_file_asked_for_another_ruleset_is_refused(hc, house, monkeypatch):
    """The player must not believe house rules were in force when they were not."""
    path = house("ruleset: rogue-trader\nweapons:\n  lasgun: {name: x}\n")
    fire = ("fire", "-w", "ingrave-ar", "-r", "1", "-t", "orc", "--seed", "1")
    err = hc.error(*fire, "--rules", path)
    assert f"{path}:1: ruleset: the file is for rogue-trader" in err
    assert "the rule set in force is high-crusade" in err and "--ruleset rogue-trader" in err
    monkeypatch.setenv("HC_RULES", path)
    assert "the file is for rogue-trader" in hc.error(*fire)


def test_config_files_for_another_ruleset_are_skipped_and_said(hc, clean_environment):
    conf = clean_environment / "config" / "hc"
    conf.mkdir(parents=True)
    (conf / "rt.yaml").write_text("ruleset: rogue-trader\nweapons:\n  lasgun: {name: x}\n")
    fire = ("fire", "-w", "ingrave-ar", "-r", "1", "-t", "orc", "--seed", "1")
    assert hc.json(*fire)["chance"] == 75
    listing = hc("tables troops")
    assert listing.exit_code == 0
    assert f"skipped (for another rule set): {conf / 'rt.yaml'} (for rogue-trader)" in " ".join(
        listing.stdout.split()
    )
    assert hc.json("tables troops")["skipped"] == [f"{conf / 'rt.yaml'} (for rogue-trader)"]


def test_tables_show_where_each_value_came_from(hc, house):
    path = house("ruleset: high-crusade\ntroops:\n  orc: {defence: 6}\n")
    listing = hc.json("tables", "troops", "--rules", path)
    orc = listing["tables"]["troops"]["orc"]
    assert orc["defence"] == 6
    assert orc["changed_by"] == {"defence": path}
    assert orc["file"] == "troops.yaml"
    text = hc("tables", "troops", "--rules", path).stdout
    assert f"changed by {path} (defence)" in " ".join(text.split())


def _error_for(hc, house, text: str) -> str:
    path = house(text)
    return hc.error("fire", "--chance", "1", "--penetration", "1", "--df", "1", "--rules", path)


HOUSE_ERRORS = {  # a house-rules file, and what its error must say
    "bad_yaml_names_file_and_line": (
        "ruleset: high-crusade\nweapons:\n  x: {name: [unclosed\n",
        ["house.yaml:4", "not valid YAML"],
    ),
    "unknown_key_names_file_line_and_key": (
        "ruleset: high-crusade\ntroops:\n  orc:\n    defense: 6\n",
        ["house.yaml:4: troops.orc.defense: unknown key", "did you mean 'defence'?"],
    ),
    "wrong_type": (
        "ruleset: high-crusade\ntroops:\n  orc:\n    defence: six\n",
        ["house.yaml:4: troops.orc.defence: 'six' is not a whole number"],
    ),
    "negative_chance": (
        NEW_WEAPON.replace("chance: 80", "chance: -80"),
        ["house.yaml:6: weapons.laser-carbine.bands[0].chance: -80 is below"],
    ),
    "overlapping_bands": (
        NEW_WEAPON.replace("up_to: 30", "up_to: 8"),
        ["weapons.laser-carbine.bands[1].up_to: 8 overlaps the band before it", "house.yaml"],
    ),
    "missing_required_field_of_a_new_entry": (
        "ruleset: high-crusade\ntroops:\n  ogre:\n    melee: 4\n",
        ["house.yaml:3: troops.ogre.defence: missing"],
    ),
    "missing_ruleset": ("troops:\n  orc: {defence: 6}\n", ["house.yaml:1: ruleset: missing"]),
    "removing_an_unknown_entry": (
        "ruleset: high-crusade\nremove:\n  weapons: [pagan-sm]\n",
        ["house.yaml:3: remove.weapons: unknown weapon 'pagan-sm'"],
    ),
    "duplicate_key": (
        "ruleset: high-crusade\ntroops:\n  orc: {defence: 6}\n  orc: {defence: 7}\n",
        ["house.yaml:4: orc: given twice (first on line 3)"],
    ),
    # Issue 37: a name or a description holding an escape sequence (OSC 8 hides a link, OSC 52
    # sets the clipboard) would reach the terminal through hc tables: refused where it stands.
    "an_escape_in_a_weapon_name": (
        NEW_WEAPON.replace("laser-carbine:", '"laser\\e]52;c;aGk=\\a":'),
        ["house.yaml:3: laser\\x1b]52;c;aGk=\\x07: holds a control character"],
    ),
    "an_escape_in_a_description": (
        "ruleset: high-crusade\nmodifiers:\n  fog:\n    value: -15\n    applies_to: chance\n"
        '    description: "a \\e]8;;http://x\\a link"\n',
        ["house.yaml:6: description: holds a control character"],
    ),
    "a_tab_in_a_troop_name": (
        'ruleset: high-crusade\ntroops:\n  "o\\trc": {defence: 6}\n',
        ["house.yaml:3: o\\trc: holds a control character"],
    ),
    "every_problem_is_reported": (
        "ruleset: high-crusade\ntroops:\n  orc:\n    defense: 6\n    melee: x\n",
        ["defense: unknown key", "melee: 'x' is not a whole number"],
    ),
}


@pytest.mark.parametrize(("text", "said"), HOUSE_ERRORS.values(), ids=HOUSE_ERRORS)
def test_a_bad_house_rules_file_is_refused_saying_where_and_why(hc, house, text, said):
    err = _error_for(hc, house, text)
    for part in said:
        assert part in err


def test_missing_file(hc):
    assert "house-rules file 'nope.yaml' does not exist" in hc.error(
        "fire --chance 1 --penetration 1 --df 1 --rules nope.yaml"
    )


def test_cache_follows_a_changed_file(hc, house):
    path = house("ruleset: high-crusade\ntroops:\n  orc: {defence: 6}\n")
    base = (
        "fire",
        "--chance",
        "50",
        "--penetration",
        "7",
        "-t",
        "orc",
        "--rules",
        path,
        "--seed",
        "1",
    )
    assert hc.json(*base)["defence"] == 6
    import os

    Path(path).write_text("ruleset: high-crusade\ntroops:\n  orc: {defence: 9}\n")
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert hc.json(*base)["defence"] == 9


def test_house_rules_are_visible_in_every_result(hc, house):
    """A number a house rule changed carries the file's name as its source, the footer names
    the files in force, --json lists them, and a reading a house file chose says so."""
    path = house(
        "ruleset: high-crusade\nweapons:\n  ingrave-ar:\n    bands:\n"
        "      - {up_to: 12, chance: 80, penetration: 4}\n"
        "      - {up_to: 24, chance: 70, penetration: 4}\n"
        "readings:\n  casualty-modifier: {choice: per-casualty}\n"
        "troops:\n  ogre: {defence: 7, melee: 2, morale: 1}\n"
    )
    fire = ("fire", "-w", "ingrave-ar", "-r", "14", "-t", "orc", "--seed", "1", "--rules", path)
    text = hc(*fire).stdout
    assert 'house rules in force: house.yaml; deciding here: ingrave-ar band 12-24": 70/4' in (
        " ".join(text.split())
    )
    out = hc.json(*fire)
    assert out["house_rules"] == ["house.yaml"]
    assert out["house_values"] == ['ingrave-ar band 12-24": 70/4 (house.yaml)']
    melee = hc.json("melee", "--attacker", "ogre", "--defender", "orc", "--dice", "5,5",
                    "--rules", path)  # fmt: skip
    assert melee["modifiers"][0]["source"] == "house.yaml"
    rally = hc.json("rally", "--troop", "crusader", "--casualties", "2", "--dice", "6",
                    "--rules", path)  # fmt: skip
    assert "casualty-modifier = per-casualty (chosen by house.yaml)" in rally["readings"]


def test_rules_check_names_the_house_file_for_a_bad_reading(hc, house):
    path = house("ruleset: t2k\nreadings:\n  recoil-floor: {choice: sometimes}\n", "broken.yaml")
    err = hc.error("rules", "check", path)
    assert "broken.yaml:3: readings.recoil-floor.choice: 'sometimes'" in err
    assert "readings.yaml" not in err
