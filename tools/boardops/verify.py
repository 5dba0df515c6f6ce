"""The lab's field check: a table's service.verify(seed) against the release it claims, MATCH or MISMATCH and what differs.

    make verify PORT=/dev/ttyACM0 SEED=1f2e3d4c [RELEASE=build/release/pico-0.1.0]
    python tools/boardops/verify.py --port PORT --seed SEED [--release DIR]

Through the real mpremote (`resume`: the controller keeps running) it reads the firmware version from
service.status() and the table's answer from service.verify(seed); it computes HMAC-SHA1 and HMAC-SHA256
keyed with the same seed over the release's medium (tools/boardops/release.py: build/release/BOARD-VERSION unless
RELEASE names one), in the order docs/technicians.md gives, and compares. Exit 0 MATCH, 1 MISMATCH, 2 when
the check could not be made (one line on stderr).
"""
import argparse
import hashlib
import hmac
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
from building import build_mpy
from boardops import release


class VerifyError(Exception):
    """The check could not be made, said in one line."""


def board_exec(port, code, timeout):
    """What `code` printed on the table's REPL (mpremote resume exec); VerifyError if it failed or refused."""
    proc = subprocess.run([build_mpy.venv_tool("mpremote") or "mpremote", "connect", str(port), "resume", "exec", code],
                          capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    if proc.returncode != 0:
        raise VerifyError("mpremote on %s: %s" % (port, (proc.stdout + proc.stderr).strip().splitlines()[-1:]))
    if proc.stdout.startswith("REFUSED: "):
        raise VerifyError("the table refused: " + proc.stdout.strip()[9:])
    return proc.stdout


def board_call(port, expr, timeout):
    """The report of service.<expr> (its lines, a line at a time: the whole report as one string wants a
    block as long as it)."""
    return board_exec(port, "import service\nr = service.%s\n"
                      "r.emit(lambda s: print(s, end='')) if hasattr(r, 'emit') else print(r)" % expr, timeout)


def answer(text):
    """The table's verify report as {'hmac_sha1', 'hmac_sha256', 'board', 'parts': {name: (bytes, sha256)}}."""
    out = {"parts": {}, "order": []}
    for line in text.splitlines():
        words = line.split()
        if len(words) == 2 and words[0] in ("HMAC-SHA1", "HMAC-SHA256"):
            out["hmac_" + words[0][5:].lower()] = words[1]
        elif len(words) == 4 and words[0] == "part":
            out["parts"][words[1]] = (words[2], words[3])
            out["order"].append(words[1])
        elif line.strip().startswith("seed ") and ", board " in line:
            out["board"] = line.split(", board ")[1].split(":")[0]
    if "hmac_sha1" not in out or "hmac_sha256" not in out or "board" not in out:
        raise VerifyError("the table's verify answer has no HMACs: %r" % text[:200])
    return out


def expected(folder, key):
    """(HMAC-SHA1, HMAC-SHA256, {name: (bytes, sha256)}, order) of the release in `folder` for `key`."""
    parts = release.medium_parts(folder)
    macs = [hmac.new(key, digestmod=hashlib.sha1), hmac.new(key, digestmod=hashlib.sha256)]
    for piece in release.framed(parts):
        for m in macs:
            m.update(piece)
    return (macs[0].hexdigest(), macs[1].hexdigest(),
            {name: (str(len(data)), release.sha256(data)) for name, data in parts}, [n for n, _ in parts])


def differences(table, want):
    """What differs, a line each: a part changed, missing on the table, or not in the release."""
    lines = []
    for name in want[3]:
        got = table["parts"].get(name)
        if got is None:
            lines.append("%s: not in the table's medium" % name)
        elif got[0] == "missing":
            lines.append("%s: missing on the table" % name)
        elif got != want[2][name]:
            lines.append("%s: differs (table %s bytes sha256 %s, release %s bytes sha256 %s)"
                         % (name, got[0], got[1][:16], want[2][name][0], want[2][name][1][:16]))
    lines += ["%s: on the table, not in the release" % n for n in table["order"] if n not in want[2]]
    if not lines and table["order"] != want[3]:
        lines.append("the parts are in another order: %s" % " ".join(table["order"]))
    return lines


def verify(port, seed, folder=None, timeout=120):
    """(matched, lines to print)."""
    try:
        key = bytes.fromhex(seed)
    except (TypeError, ValueError):
        raise VerifyError("SEED must be hex digits, an even count, got %r" % seed)
    if not key:
        raise VerifyError("SEED is empty: give the lab's hex seed, e.g. SEED=1f2e3d4c")
    status = board_call(port, "status()", timeout)
    claimed = [line.split()[-1] for line in status.splitlines() if line.strip().startswith("firmware tablectl ")]
    if not claimed:
        raise VerifyError("the table's status() names no firmware version (a firmware before 0.1.0's verify)")
    table = answer(board_call(port, "verify(%r)" % seed, timeout))
    folder = pathlib.Path(folder) if folder else build_mpy.ROOT / "build" / "release" / (
        "%s-%s" % (table["board"], claimed[0]))
    if not (folder / "files" / build_mpy.FWMANIFEST).exists():
        raise VerifyError("no release %s for the table's claim (board %s, firmware %s): make release BOARD=%s, "
                          "or RELEASE=<the certified release's folder>" % (folder, table["board"], claimed[0],
                                                                          table["board"]))
    want = expected(folder, key)
    ok = (table["hmac_sha1"], table["hmac_sha256"]) == want[:2]
    lines = ["%s: table at %s, firmware %s, board %s, release %s" % ("MATCH" if ok else "MISMATCH", port, claimed[0],
                                                                   table["board"], folder),
             "HMAC-SHA1   table %s release %s" % (table["hmac_sha1"], want[0]),
             "HMAC-SHA256 table %s release %s" % (table["hmac_sha256"], want[1])]
    if not ok:
        lines += differences(table, want) or ["every part's SHA-256 agrees, the HMACs do not: the table's "
                                              "verify is not the certified one"]
    return ok, lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", required=True)
    ap.add_argument("--seed", required=True)
    ap.add_argument("--release", default=None)
    ap.add_argument("--timeout", type=float, default=120)
    args = ap.parse_args(argv)
    try:
        ok, lines = verify(args.port, args.seed, args.release, args.timeout)
    except (VerifyError, subprocess.TimeoutExpired) as e:
        print("verify: %s" % e, file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
