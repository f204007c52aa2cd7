"""`hc_cli.core.record` behaves as `dataclasses` does for everything hc uses: each check builds the
same class both ways and compares them."""

from __future__ import annotations

import dataclasses

import pytest

from hc_cli.core import record as rec


def _both(frozen: bool):
    """The same three classes (a base, a subclass adding and re-defaulting fields, a mutable
    one) as dataclasses and as records."""
    made = {}
    for name, deco, fld in (
        ("dc", dataclasses.dataclass, dataclasses.field),
        ("rec", rec.record, rec.field),
    ):

        class Base:
            key: str
            source: str = "seed 000"
            notes: dict = fld(default_factory=dict)

        Base = deco(frozen=frozen)(Base)

        class Weapon(Base):
            name: str = ""
            bands: tuple = ()
            source: str = "sample"  # re-defaulted: keeps its place, takes the new default

        Weapon = deco(frozen=frozen)(Weapon)
        made[name] = (Base, Weapon)
    return made["dc"], made["rec"]


@pytest.mark.parametrize("frozen", [True, False])
def test_a_record_is_built_compared_and_shown_as_a_dataclass_is(frozen):
    (dc_base, dc_weapon), (rec_base, rec_weapon) = _both(frozen)
    for dc, rc, args, kwargs in (
        (dc_base, rec_base, ("a",), {}),
        (dc_base, rec_base, ("a", "b"), {"notes": {"x": 1}}),
        (dc_weapon, rec_weapon, ("k",), {"name": "ingrave-ar", "bands": (1, 2)}),
        (dc_weapon, rec_weapon, (), {"key": "k", "source": "house"}),
    ):
        d, r = dc(*args, **kwargs), rc(*args, **kwargs)
        assert repr(d).replace("dc", "") == repr(r).replace("rec", "")
        assert [getattr(d, f.name) for f in dataclasses.fields(d)] == [
            getattr(r, n) for n in r.__record_fields__
        ]
        assert r == rc(*args, **kwargs) and r != rc("other") and r != d
        assert (dc.__hash__ is None) == (rc.__hash__ is None)
        changed = rec.replace(r, key="z")
        assert changed.key == "z" and changed.__class__ is r.__class__ and r.key != "z"
    with pytest.raises(TypeError):
        rec_base()  # a field without a default must be given, as for a dataclass
    first, second = rec_base("a"), rec_base("b")
    assert first.notes is not second.notes  # a factory's default is made for each record


def test_a_frozen_record_refuses_changes_and_hashes_its_fields():
    _, (rec_base, rec_weapon) = _both(True)
    weapon = rec_weapon("k", name="x", notes={})
    for change in (lambda: setattr(weapon, "name", "y"), lambda: delattr(weapon, "key")):
        with pytest.raises(AttributeError):
            change()
    assert hash(rec_weapon("k", name="x", notes=None)) == hash(
        rec_weapon("k", name="x", notes=None)
    )
    assert len({rec_base("a", notes=None), rec_base("a", notes=None)}) == 1


def test_a_mutable_record_is_unhashable_and_takes_new_values():
    _, (rec_base, _) = _both(False)
    base = rec_base("a")
    base.key = "b"
    assert base.key == "b"
    with pytest.raises(TypeError):
        hash(base)


def test_a_method_the_class_writes_itself_is_kept():
    @rec.record(frozen=True)
    class Shown:
        name: str

        def __repr__(self) -> str:
            return f"<{self.name}>"

    assert repr(Shown("ork")) == "<ork>" and Shown("ork") == Shown("ork")
