"""boards/esp32/partitions.csv, the ESP32 build's partition table: well-formed by ESP-IDF's rules (names and types
it knows, data partitions on 4 KB and apps on 64 KB boundaries, after the table itself, no overlap, within 4 MiB),
with the partitions the firmware and MicroPython look up by label: `vfs` (the filesystem, modules/flashbdev.py),
`romfs` (esp32_partition.c) and the log's raw region, the label boards/esp32/board.py asks for."""
import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
TABLE = ROOT / "boards" / "esp32" / "partitions.csv"
FLASH = 4 * 1024 * 1024
TABLE_END = 0x8000 + 0x1000  # ESP-IDF's partition table at its default offset, one sector
TYPES = {"app": 0x00, "data": 0x01}
# ESP-IDF's subtype names (components/partition_table/gen_esp32part.py)
SUBTYPES = {"app": {"factory": 0x00}, "data": {"ota": 0x00, "phy": 0x01, "nvs": 0x02, "coredump": 0x03,
                                               "nvs_keys": 0x04, "efuse": 0x05, "undefined": 0x06,
                                               "esphttpd": 0x80, "fat": 0x81, "spiffs": 0x82, "littlefs": 0x83}}


def rows(text):
    """[(name, type, subtype number, offset, size)] of a partition table CSV; ValueError on a bad row."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.split("#")[0].strip()
        if not line:
            continue
        f = [v.strip() for v in line.split(",")]
        if len(f) < 5 or f[1] not in TYPES:
            raise ValueError("line %d: want name, type, subtype, offset, size: %r" % (n, line))
        sub = f[2]
        sub = int(sub, 0) if sub[:2] == "0x" else SUBTYPES[f[1]].get(sub)
        if sub is None or len(f[0]) > 15:
            raise ValueError("line %d: unknown subtype or a label longer than 15: %r" % (n, line))
        out.append((f[0], f[1], sub, int(f[3], 0), int(f[4], 0)))
    return out


def problems(table):
    found = []
    names = [r[0] for r in table]
    if len(set(names)) != len(names):
        found.append("a label twice")
    end = TABLE_END
    for name, kind, _, at, size in sorted(table, key=lambda r: r[3]):
        align = 0x10000 if kind == "app" else 0x1000
        if at % align or size % 0x1000 or size <= 0:
            found.append("%s not aligned" % name)
        if at < end:
            found.append("%s overlaps what comes before it" % name)
        end = at + size
    if end > FLASH:
        found.append("past 4 MiB")
    return found


def board_label():
    """The label boards/esp32/board.py's log_region() passes to esp32.Partition.find."""
    tree = ast.parse((ROOT / "boards" / "esp32" / "board.py").read_text())
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "log_region")
    calls = [c for c in ast.walk(fn) if isinstance(c, ast.Call) and getattr(c.func, "attr", "") == "find"]
    return [k.value.value for c in calls for k in c.keywords if k.arg == "label"]


def test_the_table_is_well_formed_and_has_every_partition_looked_up_by_label():
    table = rows(TABLE.read_text())
    assert problems(table) == []
    by = {r[0]: r for r in table}
    assert board_label() == ["tablelog"]
    assert by["tablelog"][1:3] == ("data", 0x06) and by["tablelog"][4] == 1 << 20  # 256 blocks, as the Pico's
    assert by["vfs"][1] == "data" and by["vfs"][4] >= 1 << 20
    assert by["romfs"][1:3] == ("data", 0x8f)  # MicroPython's ROMFS subtype
    assert by["factory"][1:3] == ("app", 0x00) and by["factory"][4] >= 0x1D0000  # the firmware frozen in


@pytest.mark.parametrize("damage, why", [
    (("tablelog, data, 0x06,      0x300000,", "tablelog, data, 0x06,      0x2FF000,"), "overlaps"),
    (("tablelog, data, 0x06,      0x300000,", "tablelog, data, 0x06,      0x300800,"), "not aligned"),
    (("0x300000, 0x100000", "0x300000, 0x101000"), "past 4 MiB"),
    (("factory,  app,  factory,   0x10000,", "factory,  app,  factory,   0x11000,"), "not aligned"),
    (("vfs,      data, fat,", "tablelog, data, fat,"), "a label twice"),
])
def test_each_kind_of_damage_is_caught(damage, why):
    """The checker itself: each rule broken once in a copy of the table is found."""
    text = TABLE.read_text()
    assert damage[0] in text
    assert any(why in p for p in problems(rows(text.replace(damage[0], damage[1], 1))))


def test_a_row_ESP_IDF_would_refuse_is_refused():
    for bad in ("x, data, nosuch, 0x9000, 0x1000", "x, blob, nvs, 0x9000, 0x1000",
                "a_label_of_16_chr, data, nvs, 0x9000, 0x1000", "x, data, nvs, 0x9000"):
        with pytest.raises(ValueError):
            rows(bad)
