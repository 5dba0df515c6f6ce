"""service.verify(seed): HMAC-SHA1 and HMAC-SHA256 keyed with the verifier's seed over the program medium (an image
in memory, every file of fwmanifest.json, the manifest), in the documented order; one changed byte anywhere
changes both and names its part; a bad seed and a round in progress are refused in one line."""
# mp-heap: 280K
# (compiled from source, with the sim board and a running fan-tan App)
import gc
import hashlib
import os
import sys
from binascii import hexlify

import board  # boards/sim

import service as repl  # firmware/service.py: a refusal is one line at the REPL
from harness.ramblockdev import flash_file, remove_dir, scratch_dir
from tablectl import app as appmod
from tablectl import service
from tablectl.config import Config
from tablectl.storage import Log
from tablectl.service import medium as fwverify
from tablectl.store import Store
from mptest import raises

try:
    import hmac as stdhmac  # CPython's: the reference the hand-written HMAC is held to
except ImportError:
    stdhmac = None

ROOTS = []


def teardown_function(function):
    appmod.current = None
    while ROOTS:
        remove_dir(ROOTS.pop())


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def address(buf):
    """The address of a bytearray's bytes (the 'image' a test board runs from)."""
    try:
        import uctypes
        return uctypes.addressof(buf)
    except ImportError:
        import ctypes
        return ctypes.addressof((ctypes.c_char * len(buf)).from_buffer(buf))


def hexed(b):
    return hexlify(b).decode()


def reference(key, make, message):
    """HMAC by CPython's hmac where there is one, else by RFC 2104's formula spelled out here."""
    if stdhmac is not None:
        return stdhmac.new(key, message, make).hexdigest()
    if len(key) > 64:
        key = make(key).digest()
    key = key + bytes(64 - len(key))
    inner = make(bytes(b ^ 0x36 for b in key) + message).digest()
    return hexed(make(bytes(b ^ 0x5C for b in key) + inner).digest())


def test_hmac_gives_the_rfc_answers():
    # RFC 2202 test 2 (HMAC-SHA1) and RFC 4231 test 2 (HMAC-SHA256): key "Jefe"
    msg = b"what do ya want for nothing?"
    h = fwverify.Hmac(b"Jefe", hashlib.sha1)
    h.update(msg)
    assert h.hexdigest() == "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"
    h = fwverify.Hmac(b"Jefe", hashlib.sha256)
    h.update(msg[:5])
    h.update(msg[5:])
    assert h.hexdigest() == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    # RFC 4231 test 6: a 131-byte key, longer than the block, is hashed first
    h = fwverify.Hmac(b"\xaa" * 131, hashlib.sha256)
    h.update(b"Test Using Larger Than Block-Size Key - Hash Key First")
    assert h.hexdigest() == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"


def test_hmac_matches_the_reference_at_every_key_length():
    for n in range(0, 140, 7):
        key = bytes((i * 37 + n) & 0xFF for i in range(n))
        for make in (hashlib.sha1, hashlib.sha256):
            h = fwverify.Hmac(key, make)
            h.update(b"medium")
            assert h.hexdigest() == reference(key, make, b"medium"), (n, make)


def new_app(game="fantan"):
    gc.collect()
    root = scratch_dir("vf")
    ROOTS.append(root)
    flash = flash_file(root)
    Config(Store(Log(flash))).change(0, game=game)
    app = appmod.App(board.make(virtual_clock=True, flash=flash), root)
    app.tick()
    appmod.current = app
    return app


def medium_root(image=None):
    """A deployed firmware in a scratch folder: two files, its manifest naming `image` if given."""
    root = scratch_dir("md")
    ROOTS.append(root)
    os.mkdir(root + "/tablectl")
    write(root + "/main.py", b"import tablectl\n")
    write(root + "/tablectl/app.mpy", bytes(range(256)) * 5)  # longer than one CHUNK
    head = '"board": "sim", "files": {"main.py": 1, "tablectl/app.mpy": 2}'
    if image is not None:
        head += ', "image": {"at": %d, "bytes": %d}' % (address(image), len(image))
    write(root + "/fwmanifest.json", ("{%s}" % head).encode())
    return root


def documented(root, image=None):
    """The medium as docs/technicians.md spells it: 'NAME BYTES\\n' then the bytes, part after part."""
    out = b""
    if image is not None:
        out += b"image %d\n" % len(image) + bytes(image)
    for name in ("main.py", "tablectl/app.mpy", "fwmanifest.json"):
        with open(root + "/" + name, "rb") as f:
            data = f.read()
        out += b"%s %d\n" % (name.encode(), len(data)) + data
    return out


def test_verify_is_the_hmac_of_the_documented_medium_and_each_part_its_sha256():
    app = new_app()
    image = bytearray(b"\x00\x20\x40\x00" + bytes(range(200)) * 7)  # not a multiple of CHUNK
    root = medium_root(image)
    rep = fwverify.verify("00112233445566778899aabbccddeeff", root)
    key = bytes(range(0, 256, 17))
    message = documented(root, image)
    assert rep.data["hmac_sha1"] == reference(key, hashlib.sha1, message)
    assert rep.data["hmac_sha256"] == reference(key, hashlib.sha256, message)
    names = [p[0] for p in rep.data["parts"]]
    assert names == ["image", "main.py", "tablectl/app.mpy", "fwmanifest.json"], names
    assert rep.data["parts"][0] == ("image", len(image), hexed(hashlib.sha256(bytes(image)).digest()))
    assert rep.data["parts"][2][1:] == (1280, hexed(hashlib.sha256(bytes(range(256)) * 5).digest()))
    assert rep.data["bytes"] == len(image) + 16 + 1280 + rep.data["parts"][3][1]
    text = repr(rep)
    assert "HMAC-SHA256 " + rep.data["hmac_sha256"] in text and "part image %d " % len(image) in text, text
    # the seed is the verifier's: another seed, another answer (a stored one cannot be replayed)
    other = fwverify.verify("01", root)
    assert other.data["hmac_sha256"] != rep.data["hmac_sha256"] and other.data["parts"] == rep.data["parts"]
    # a read-only call, but surveillance sees that the table was verified
    first = app.journal.records(2)[0]
    assert (first[2], first[5]) == ("service", "verify 00112233 sha256 %s" % rep.data["hmac_sha256"][:16]), first


def test_one_changed_byte_anywhere_changes_both_and_names_its_part():
    new_app()
    image = bytearray(bytes(range(256)) * 3)
    root = medium_root(image)
    seed = "c0ffee"
    first = fwverify.verify(seed, root).data

    def changed():
        now = fwverify.verify(seed, root).data
        assert now["hmac_sha1"] != first["hmac_sha1"] and now["hmac_sha256"] != first["hmac_sha256"]
        return [a[0] for a, b in zip(first["parts"], now["parts"]) if a != b]

    for at in (0, 255, len(image) - 1):  # the image in memory, where it runs: first, middle, last byte
        image[at] ^= 0x01
        assert changed() == ["image"], at
        image[at] ^= 0x01
    with open(root + "/tablectl/app.mpy", "rb") as f:
        data = bytearray(f.read())
    data[1279] ^= 0x80
    write(root + "/tablectl/app.mpy", data)
    assert changed() == ["tablectl/app.mpy"]
    write(root + "/tablectl/app.mpy", bytes(range(256)) * 5)
    assert fwverify.verify(seed, root).data == first  # put back: the same answer again
    os.remove(root + "/main.py")
    assert changed() == ["main.py"]
    assert "part main.py missing " in repr(fwverify.verify(seed, root))


def test_a_bad_seed_or_a_round_in_progress_is_refused_in_one_line():
    app = new_app()
    root = medium_root()
    for seed in ("abc", "", "zz", 1234, None, "0" * 130):
        msg = raises(ValueError, fwverify.verify, seed, root)
        assert msg.startswith("verify: the seed") and "\n" not in msg, msg
        assert repr(repl.verify(seed)).startswith("REFUSED: verify: the seed"), seed
    seq = app.journal.seq
    app.board.set_service_key(False)  # a lab verifies with the key off: it changes nothing
    app.tick()
    assert fwverify.verify("ab", root).data["hmac_sha256"]
    assert app.controller.handle("SHAKE")  # FT-4: a round opens
    msg = raises(ValueError, fwverify.verify, "ab", root)
    assert msg.startswith("verify refused: ") and "\n" not in msg, msg
    assert app.journal.seq == seq + 2  # key_off, the one verify; nothing for the refusals


class NoSha1:
    """hashlib as a MicroPython built without SSL and without a SHA-1 of its own has it."""
    sha256 = hashlib.sha256


def test_a_micropython_without_sha1_refuses_in_one_line_before_anything_is_journalled():
    app = new_app()
    root = medium_root()
    seq = app.journal.seq
    real, fwverify.hashlib = fwverify.hashlib, NoSha1
    try:
        msg = raises(ValueError, fwverify.verify, "ab", root)
        assert msg.startswith("verify: this MicroPython has no hashlib.sha1") and "\n" not in msg, msg
        assert repr(repl.verify("ab")).startswith("REFUSED: verify: this MicroPython has no hashlib.sha1")
    finally:
        fwverify.hashlib = real
    assert app.journal.seq == seq


def test_verify_feeds_the_watchdog_while_it_hashes():
    app = new_app()
    image = bytearray(20 * fwverify.CHUNK)
    root = medium_root(image)
    app.board.wdt.feed()  # started, as the running App's supervisor has it (context.feed starts none)
    before = app.board.wdt.feeds
    fwverify.verify("ab", root)
    assert app.board.wdt.feeds - before >= 20 + 2  # a feed a chunk at least


def built_root():
    """The built firmware's folder (.mpy files + fwmanifest.json), as test_selftest finds it."""
    if sys.implementation.name == "micropython":  # the build folder is on sys.path (harness.mpy drives the port)
        from tablectl.certify import manifest_root
        return manifest_root()
    from harness import mpy
    mpy.ensure_build()
    return str(mpy.BUILD)


def test_verify_of_the_built_firmware():
    new_app()
    rep = fwverify.verify("5eed", built_root())
    names = [p[0] for p in rep.data["parts"]]
    assert names[-1] == "fwmanifest.json" and "main.py" in names and "tablectl/service/medium.mpy" in names, names
    assert "image" not in names  # the sim board runs from files only
    assert None not in [p[1] for p in rep.data["parts"]]


def test_the_boot_check_compares_the_running_image_with_the_releases_digest():
    from tablectl import certify
    image = bytearray(bytes(range(256)) * 9)
    root = medium_root(image)
    with open(root + "/fwmanifest.json") as f:
        text = f.read()
    digest = hexed(hashlib.sha256(bytes(image)).digest())
    from tablectl.crc import crc32
    with open(root + "/main.py", "rb") as f:
        main_crc = crc32(f.read())
    with open(root + "/tablectl/app.mpy", "rb") as f:
        app_crc = crc32(f.read())
    text = text.replace('"main.py": 1', '"main.py": %d' % main_crc).replace('"tablectl/app.mpy": 2',
                                                                           '"tablectl/app.mpy": %d' % app_crc)
    write(root + "/fwmanifest.json", text[:-2].encode() + (', "sha256": "%s"}}' % digest).encode())
    assert certify.boot_check(root) == "", certify.examine(root)
    image[2000] ^= 0x04  # one bit of the image where it runs
    assert certify.boot_check(root) == "FIRMWARE CHANGED: image changed"
    new_app()
    rep = service.selftest(root)
    assert rep.data["bad"] == ["image"] and "image SHA-256 mismatch" in repr(rep), repr(rep)
    image[2000] ^= 0x04
    assert certify.boot_check(root) == ""
    write(root + "/fwmanifest.json", text[:-2].encode() + b', "at": -1}}')
    assert "image must give its address" in certify.boot_check(root)
