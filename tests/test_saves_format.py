"""The save file: round trips, checksums, versions, and a clear error for every bad file."""

from __future__ import annotations

import dataclasses
import struct
from pathlib import Path
from typing import Any

import msgpack
import pytest

from components.registry import SAVED_COMPONENTS
from roguelike.content.terrain import Tile
from roguelike.core.snapshot import checksum, encode, to_plain
from roguelike.saves import FORMAT_VERSION, load_save, read_save, write_save
from roguelike.saves import upgrade as upgrade_module
from roguelike.saves.container import SAVE_MAGIC, seal
from roguelike.saves.slots import FILE_HEADER_SIZE, SLOT_HEADER_SIZE, SLOTS_START, newest_slot, slotted_file
from roguelike.saves.upgrade import SLOTTED_SINCE
from roguelike.saves.validate import field_checks
from roguelike.storage.errors import Damaged, SaveError
from save_helpers import envelope_middles, played, saved

REPOSITORY_SAVES = Path(__file__).resolve().parent.parent / "saves"


def reseal(path: Path, plain: Any, version: int = FORMAT_VERSION, header: Any = None) -> None:
    """Write a save whose envelope, slots and checksums are valid around any payload, in its version's layout."""
    header = header if header is not None else {"saved_at": 1, "steps": 0, "game": "test"}
    envelope = seal(SAVE_MAGIC, version, encode(header), encode(plain))
    path.write_bytes(slotted_file(envelope, version=version) if version >= SLOTTED_SINCE else envelope)


def plain_of(path: Path) -> Any:
    """The snapshot inside a save (its newest slot), as plain data, unchecked."""
    payload = newest_slot(path.read_bytes()).sealed.payload
    return msgpack.unpackb(payload, strict_map_key=False)


def reason(path: Path) -> str:
    """The error loading a save raises; it always names the file."""
    with pytest.raises(SaveError) as caught:
        load_save(path)
    assert str(path) in str(caught.value)
    return caught.value.reason


def test_the_saved_checksum_is_the_checksum_of_the_step(tmp_path: Path) -> None:
    session, step = played(tmp_path, turns=40)
    (path,) = (tmp_path / "saves").glob("*.save")
    save = read_save(path)
    assert save.checksum == step.checksum
    assert checksum(load_save(path)) == step.checksum
    assert save.header["steps"] == step.index
    session.close()


def test_a_loaded_game_plays_on_exactly_like_the_original(tmp_path: Path) -> None:
    session, _ = played(tmp_path, turns=25)
    path = next((tmp_path / "saves").glob("*.save"))
    copy = load_save(path)
    from roguelike.bots.bot import Bot

    for _ in range(40):
        session.game.apply(Bot().choose(session.game))
        copy.apply(Bot().choose(copy))
    assert checksum(copy) == checksum(session.game)
    session.close()


def test_a_save_holds_name_turn_floors_and_rng(tmp_path: Path) -> None:
    session, _ = played(tmp_path, name="Zoë 🌈", turns=30)
    game = load_save(next((tmp_path / "saves").glob("*.save")))
    assert (game.state.name, game.state.turn, game.state.depth) == (
        "Zoë 🌈",
        session.game.state.turn,
        session.game.state.depth,
    )
    assert game.state.rng.state == session.game.state.rng.state
    assert sorted(game.state.floors) == sorted(session.game.state.floors)
    session.close()


@pytest.mark.parametrize(
    ("damage", "expected"),
    [
        (lambda data: b"", "the file is empty"),
        (lambda data: data[:5], "cut short"),
        (lambda data: data[: len(data) // 2], "cut short"),
        (lambda data: data + b"x", "unexpected bytes at its end"),
        (lambda data: b"GIF89a" + data[6:], "not a Hedonic Hypothesis save"),
        (lambda data: b'{"json": true}', "not a Hedonic Hypothesis save"),
        (lambda data: data[:200] + bytes([data[200] ^ 0x10]) + data[201:], "checksum does not match"),
        (lambda data: data[:-1] + bytes([data[-1] ^ 1]), "checksum does not match"),
        (lambda data: data[:10] + struct.pack(">I", 2**32 - 1) + data[14:], "cut short"),
        (lambda data: data[:14] + struct.pack(">I", 2**32 - 1) + data[18:], "cut short"),
    ],
    ids=[
        "empty",
        "magic-only",
        "half",
        "extra",
        "wrong-magic",
        "json",
        "flipped-bit",
        "flipped-digest",
        "absurd-header",
        "absurd-payload",
    ],
)
def test_a_damaged_single_envelope_file_gets_a_clear_reason_and_is_left_alone(
    tmp_path: Path, damage: Any, expected: str
) -> None:
    path = tmp_path / "old.save"  # formats 1 to 5: the file is one envelope
    path.write_bytes(damage((REPOSITORY_SAVES / "v5.save").read_bytes()))
    before = path.read_bytes()
    assert expected in reason(path)
    assert path.read_bytes() == before


def flipped(data: bytes, *places: int) -> bytes:
    """The bytes with every bit of each place flipped."""
    changed = bytearray(data)
    for place in places:
        changed[place] ^= 0xFF
    return bytes(changed)


@pytest.mark.parametrize(
    ("damage", "expected"),
    [
        (lambda data: b"", "the file is empty"),
        (lambda data: data[:20], "cut short"),
        (lambda data: data[: SLOTS_START + SLOT_HEADER_SIZE + 100], "cut short"),
        (lambda data: data[:-1], "the file is cut short"),
        (lambda data: data + bytes(4096), "unexpected bytes at its end"),
        (lambda data: b"GIF89a" + data[6:], "not a Hedonic Hypothesis save"),
        (lambda data: flipped(data, 12), "its header is damaged"),
        (lambda data: flipped(data, 20), "its header is damaged"),
        (
            lambda data: flipped(data, *envelope_middles(data)),
            "its checksum does not match (the file was changed or damaged)",
        ),
        (
            lambda data: flipped(data, SLOTS_START + 9, envelope_middles(data)[1]),
            "both of its copies are damaged: it is cut short; its checksum does not match",
        ),
        (lambda data: data[:FILE_HEADER_SIZE] + bytes(len(data) - FILE_HEADER_SIZE), "it holds no saved game"),
    ],
    ids=[
        "empty",
        "header-only",
        "half-a-slot",
        "last-byte-cut",
        "a-page-more",
        "wrong-magic",
        "slot-size",
        "header-digest",
        "both-envelopes",
        "length-and-envelope",
        "blank-slots",
    ],
)
def test_a_damaged_two_slot_file_gets_a_clear_reason_and_is_left_alone(
    tmp_path: Path, damage: Any, expected: str
) -> None:
    path = saved(tmp_path)
    path.write_bytes(damage(path.read_bytes()))
    before = path.read_bytes()
    assert expected in reason(path)
    assert path.read_bytes() == before


def test_a_newer_format_is_refused_saying_so(tmp_path: Path) -> None:
    path = saved(tmp_path)
    reseal(path, plain_of(path), version=FORMAT_VERSION + 1)
    assert "newer version of the game" in reason(path)


def test_a_format_older_than_any_known_is_refused(tmp_path: Path) -> None:
    path = saved(tmp_path)
    reseal(path, plain_of(path), version=0)
    assert "not one this game knows" in reason(path)


def test_old_formats_are_upgraded_one_step_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    steps: list[str] = []

    def rename_name(plain: dict[str, Any]) -> dict[str, Any]:
        steps.append("name")
        return {"name": plain["player_name"], "turns_played": plain["turns_played"]}

    def rename_turn(plain: dict[str, Any]) -> dict[str, Any]:
        steps.append("turn")
        return {"name": plain["name"], "turn": plain["turns_played"]}

    monkeypatch.setattr(upgrade_module, "UPGRADES", {1: rename_name, 2: rename_turn})
    old = {"player_name": "Ann", "turns_played": 7}
    assert upgrade_module.upgrade(old, 1, newest=3) == {"name": "Ann", "turn": 7}
    assert steps == ["name", "turn"]
    assert upgrade_module.upgrade({"name": "Bo", "turns_played": 2}, 2, newest=3) == {"name": "Bo", "turn": 2}


def test_a_missing_upgrade_step_or_a_broken_old_file_is_damaged_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(upgrade_module, "UPGRADES", {1: lambda plain: dict(plain, x=plain["missing"])})
    with pytest.raises(Damaged, match="could not be upgraded from format 1"):
        upgrade_module.upgrade({"nothing": "useful"}, 1, newest=2)
    with pytest.raises(Damaged, match="expected a map"):
        upgrade_module.upgrade([1, 2], 1, newest=2)
    with pytest.raises(Damaged, match="format 2 saves can no longer be upgraded"):
        upgrade_module.upgrade({}, 2, newest=3)


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda p: p.update(turn="12"), "turn"),
        (lambda p: p.update(turn=-1), "turn"),
        (lambda p: p.update(name=b"bytes"), "name"),
        (lambda p: p.update(rng=-1), "rng"),
        (lambda p: p.pop("seed"), "unexpected keys"),
        (lambda p: p.update(extra=1), "unexpected keys"),
        (lambda p: p.update(depth=99), "depth"),
        (lambda p: p["floors"][0].update(tiles=p["floors"][0]["tiles"][:-1]), "floors[0].tiles"),
        (lambda p: p["floors"][0].update(tiles=bytes([len(Tile)]) * len(p["floors"][0]["tiles"])), "unknown tile"),
        (lambda p: p["floors"][0].update(shape=[2, 2]), "floors[0].shape"),
        (lambda p: p["floors"][0].update(down=[500, 3]), "floors[0].down"),
        (lambda p: p["floors"].append(p["floors"][0]), "floors"),
        (lambda p: p["entities"][0][1].append(["os.system", ["rm -rf /"]]), "unknown component"),
        (lambda p: p["entities"][0][1].reverse(), "out of order"),
        (lambda p: p["entities"][0][1][0][1].append(7), "fields"),
        (lambda p: p.update(player=10**6), "player"),
        (lambda p: p.update(entities=p["entities"][::-1]), "entity ids"),
        (lambda p: p.update(messages=[[1, 2]]), "messages[0][1]"),
    ],
    ids=[
        "turn-text",
        "negative-turn",
        "name-bytes",
        "rng-range",
        "missing-key",
        "extra-key",
        "lost-floor",
        "short-tiles",
        "bad-tile",
        "floor-shape",
        "stairs-off-map",
        "repeated-floor",
        "unknown-component",
        "component-order",
        "field-count",
        "no-player",
        "entity-order",
        "message-type",
    ],
)
def test_a_well_sealed_save_of_the_wrong_shape_is_refused(tmp_path: Path, change: Any, where: str) -> None:
    path = saved(tmp_path)
    plain = plain_of(path)
    change(plain)
    reseal(path, plain)
    found = reason(path)
    assert "malformed" in found and where in found


def test_every_component_field_is_checked_by_its_type(tmp_path: Path) -> None:
    path = saved(tmp_path)
    plain = plain_of(path)
    player = next(packed for entity, packed in plain["entities"] if entity == plain["player"])
    state_of_mind = next(pair for pair in player if pair[0] == "state_of_mind")
    state_of_mind[1][0] = "high"
    reseal(path, plain)
    assert "state_of_mind[0]" in reason(path)


def test_a_new_component_is_validated_from_its_dataclass_without_new_code(monkeypatch: pytest.MonkeyPatch) -> None:
    from roguelike.saves import validate

    @dataclasses.dataclass
    class Glow:
        colour: tuple[int, int, int]
        label: str | None
        counts: dict[str, int]

    monkeypatch.setitem(SAVED_COMPONENTS, "glow", Glow)
    field_checks.cache_clear()
    try:
        validate.check_entity([["glow", [[1, 2, 3], None, {"a": 1}]]], "e")
        wrong: list[list[object]] = [[[1, 2], None, {}], [[1, 2, 3], 5, {}], [[1, 2, 3], None, {"a": "1"}]]
        for bad in wrong:
            with pytest.raises(validate.Malformed):
                validate.check_entity([["glow", bad]], "e")
    finally:
        field_checks.cache_clear()


def test_every_saved_component_has_field_types_saves_can_check() -> None:
    for name in SAVED_COMPONENTS:
        assert len(field_checks(name)) == len(dataclasses.fields(SAVED_COMPONENTS[name]))


@pytest.mark.parametrize(
    ("payload", "expected"),
    [
        (b"\x91" * 100_000 + b"\xc0", "cannot be decoded"),
        (b"\xdd\xff\xff\xff\xff", "cannot be decoded"),
        (b"\xdb\x7f\xff\xff\xff", "cannot be decoded"),
        (b"\xa3\xff\xfe\xfd", "cannot be decoded"),
        (b"\xd6\x05\x00\x00\x00\x01", "cannot be decoded"),
        (b"\xc1", "cannot be decoded"),
        (b"\x81\x91\x01\x02", "cannot be decoded"),
        (b"\xc0\xc0", "cannot be decoded"),
        (b"\x92\x01\x02", "malformed"),
    ],
    ids=[
        "deep-nesting",
        "absurd-array",
        "absurd-string",
        "invalid-utf8",
        "extension",
        "reserved-byte",
        "unhashable-key",
        "extra-data",
        "a-list",
    ],
)
def test_hostile_payloads_inside_a_valid_envelope_are_save_errors(
    tmp_path: Path, payload: bytes, expected: str
) -> None:
    path = tmp_path / "hostile.save"
    header = encode({"saved_at": 1, "steps": 0, "game": "x"})
    path.write_bytes(slotted_file(seal(SAVE_MAGIC, FORMAT_VERSION, header, payload)))
    assert expected in reason(path)


def test_a_huge_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.save"
    with open(path, "wb") as file:
        file.truncate(64 * 1024 * 1024)
    assert "too large" in reason(path)


def test_a_folder_or_a_missing_file_is_a_save_error(tmp_path: Path) -> None:
    (tmp_path / "folder.save").mkdir()
    assert "not a regular file" in reason(tmp_path / "folder.save") or "directory" in reason(tmp_path / "folder.save")
    assert "no longer exists" in reason(tmp_path / "missing.save")


def test_write_save_then_read_save_gives_back_the_snapshot(tmp_path: Path) -> None:
    session, _ = played(tmp_path, turns=5)
    path = tmp_path / "elsewhere" / "copy.save"
    snapshot = encode(to_plain(session.game))
    write_save(path, snapshot, steps=5)
    save = read_save(path)
    assert encode(save.plain) == snapshot
    assert save.header["steps"] == 5
    assert save.version == FORMAT_VERSION
    session.close()


def test_every_committed_format_version_still_loads() -> None:
    files = sorted(REPOSITORY_SAVES.glob("*.save"))
    versions = {read_save(path).version for path in files}
    assert versions == set(range(1, FORMAT_VERSION + 1)), "commit a save written by each format version to saves/"
    for path in files:
        game = load_save(path)
        from roguelike.bots.bot import Bot

        for _ in range(10):
            game.apply(Bot().choose(game))
        assert game.state.turn > 0
