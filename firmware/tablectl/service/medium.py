"""The service's verify(seed): HMAC-SHA1 and HMAC-SHA256 of the whole program medium, keyed with a verifier's seed.

A lab's field check (as GSA's GAT asks it): the seed is the verifier's, so an answer stored beforehand
cannot be replayed. The medium, in this order (docs/technicians.md, "Field verification"): the frozen
image as it sits in memory where fwmanifest.json names one ("image": {"at", "bytes"}), then every file
the manifest lists, sorted by path, then fwmanifest.json itself; each part enters as the line
"NAME BYTES\n" and then its bytes. tools/boardops/verify.py computes the same from the release.
"""
import hashlib
import json
import os
from binascii import hexlify, unhexlify

from tablectl.certify import MANIFEST, ON_FILESYSTEM, image_region, manifest_root, memory, pieces
from tablectl.service.context import Report, feed, journal_call, refuse_if_busy, running_app
from tablectl.store import join

CHUNK = 1024  # bytes hashed between two watchdog feeds: a file's read buffer, an image's slice
BLOCK = 64  # the block of SHA-1 and SHA-256 (RFC 2104's B)
SEED_BYTES = 64  # the longest seed: one block (a longer key is hashed first, which adds nothing)


class Hmac:
    """RFC 2104 HMAC over a hashlib constructor. micropython-lib's hmac is not used: on a board it is
    mip's lib/hmac.mpy, outside the files the manifest lists and the image freezes, and the verifier
    must not rest on code that is not itself verified (a copy in this repository is not allowed)."""

    def __init__(self, key, make):
        if len(key) > BLOCK:
            key = make(key).digest()
        key = key + bytes(BLOCK - len(key))
        self.make = make
        self.inner = make(bytes(b ^ 0x36 for b in key))
        self.outer = bytes(b ^ 0x5C for b in key)

    def update(self, data):
        self.inner.update(data)

    def hexdigest(self):
        h = self.make(self.outer)
        h.update(self.inner.digest())
        return hexlify(h.digest()).decode()


def seed_bytes(seed):
    """The technician's hex seed as bytes; ValueError in one line for anything else."""
    if not isinstance(seed, str) or not 2 <= len(seed) <= 2 * SEED_BYTES or len(seed) % 2:
        raise ValueError("verify: the seed is the verifier's hex digits, an even count 2..%d, e.g. "
                         "verify('1f2e3d4c'); got %r" % (2 * SEED_BYTES, seed))
    try:
        return unhexlify(seed)
    except ValueError:
        raise ValueError("verify: the seed %r is not hex digits (0-9, a-f)" % seed)


def parts(manifest, root):
    """(name, bytes or None if missing, feeder) of every part of the medium in its order; feeder(sink)
    gives sink(data) the part's bytes a piece at a time."""
    out = []
    image = manifest.get("image")
    if image is not None:
        at, n = image_region(image)
        out.append(("image", n, lambda sink: _image(at, n, sink)))
    rom = manifest.get("romfs")
    for path in sorted(manifest["files"]) + [MANIFEST]:
        full = join(rom if rom and path not in ON_FILESYSTEM and path != MANIFEST else root, path)
        try:
            size = os.stat(full)[6]
        except OSError:
            size = None
        out.append((path, size, lambda sink, full=full: pieces(full, sink, CHUNK)))
    return out


def _image(at, n, sink):
    mem = memoryview(memory(at, n))
    for i in range(0, n, CHUNK):
        sink(mem[i:i + CHUNK])


def medium(key, manifest, root, feed_dog=None):
    """(HMAC-SHA1 hex, HMAC-SHA256 hex, [(name, bytes or None, SHA-256 hex of the part)]) of the medium."""
    macs = (Hmac(key, hashlib.sha1), Hmac(key, hashlib.sha256))
    rows = []
    for name, size, feeder in parts(manifest, root):
        header = ("%s %s\n" % (name, "missing" if size is None else size)).encode()
        digest = hashlib.sha256()  # the part's bytes alone: sha256sum of the release's file

        def sink(data):
            digest.update(data)
            for m in macs:
                m.update(data)
            if feed_dog is not None:
                feed_dog()

        for m in macs:
            m.update(header)
        if size is not None:
            feeder(sink)
        rows.append((name, size, hexlify(digest.digest()).decode()))
    return macs[0].hexdigest(), macs[1].hexdigest(), rows


def read_manifest(root):
    path = join(root, MANIFEST)
    try:
        with open(path) as f:
            manifest = json.load(f)
    except (OSError, ValueError) as e:
        raise ValueError("verify: cannot read %s (%s): deploy the release again" % (path, e))
    if not isinstance(manifest, dict) or not isinstance(manifest.get("files"), dict):
        raise ValueError("verify: %s lists no files" % path)
    return manifest


def verify(seed, root=None):
    import tablectl
    key = seed_bytes(seed)
    if not hasattr(hashlib, "sha1"):  # a port built without SSL and without a SHA-1 of its own
        raise ValueError("verify: this MicroPython has no hashlib.sha1 for the HMAC-SHA1 the lab compares: "
                         "verify on a board's firmware, or a simulator (make sim)")
    app = running_app()
    refuse_if_busy(app, "verify")  # between rounds: the hashing holds the dealer's keys up
    if root is None:
        root = manifest_root()
    manifest = read_manifest(root)
    sha1, sha256, rows = medium(key, manifest, root, lambda: feed(app))
    total = sum(r[1] or 0 for r in rows)
    journal_call(app, "verify %s sha256 %s" % (seed[:8], sha256[:16]))
    lines = ["HMAC-SHA1 %s" % sha1, "HMAC-SHA256 %s" % sha256,
             "seed %s, firmware %s, board %s: %d parts, %d bytes" % (seed, tablectl.VERSION, manifest.get("board"),
                                                                   len(rows), total)]
    lines += ["part %s %s %s" % (name, "missing" if size is None else size, digest) for name, size, digest in rows]
    return Report("verify (HMAC keyed with the seed over the program medium; docs/technicians.md)", lines,
                  {"hmac_sha1": sha1, "hmac_sha256": sha256, "version": tablectl.VERSION,
                   "board": manifest.get("board"), "parts": rows, "bytes": total})
