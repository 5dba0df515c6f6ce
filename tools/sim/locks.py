"""One simulator per board folder and per terminal link: flock'ed lock files naming the holder's pid, page, terminal and folder.

    lock = folder_lock(state_dir).acquire()   # InUse (one line: who holds it, what to do) if taken
    lock.describe(url=..., pty=..., state=...) # what a refused second simulator is told
    lock.release()

Two micropython processes on one folder would both write its records and journal (duplicate
sequence numbers); two simulators on one terminal link take it from each other, and the one that
stops deletes it. The lock is the kernel's (flock), not the file's existence: it goes when its
holder's process ends, however it ends (even SIGKILL), so a killed simulator never leaves a lock
behind and a recycled pid can never keep one. The file stays (emptied on release): unlinking a lock
file races with a process that has just opened it.
"""
import fcntl
import json
import os
import pathlib

from sim.board_process import BoardError

FOLDER_LOCK = "sim.lock"  # inside the board's folder, beside sim.log


class InUse(BoardError):
    """Another simulator holds the folder or the link; the message names it and says how to proceed."""


def shown(path):
    """A path as the user typed it: relative to the working directory when it lies below it."""
    path = pathlib.Path(os.path.abspath(str(path)))
    try:
        return str(path.relative_to(pathlib.Path.cwd()))
    except ValueError:
        return str(path)


class Lock:
    """`path` the lock file; `what` the thing it guards; `field` the holder's field naming that thing
    (not repeated in the refusal); `instead` how to run a second simulator without it."""

    def __init__(self, path, what, field, instead):
        self.path = pathlib.Path(path)
        self.what = what
        self.field = field
        self.instead = instead
        self.fd = None
        self.info = {}

    def acquire(self):
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(str(self.path), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read(fd)
            os.close(fd)
            raise InUse(self.refusal(holder)) from None
        except BaseException:
            os.close(fd)
            raise
        self.fd = fd
        self.describe(pid=os.getpid())
        return self

    def describe(self, **info):
        """Add to what the lock file says about this simulator (pid, url, pty, state)."""
        if self.fd is None:
            raise BoardError("describe() without the lock")
        self.info.update(info)
        data = json.dumps(self.info).encode()
        os.ftruncate(self.fd, 0)
        os.pwrite(self.fd, data, 0)

    def refusal(self, holder):
        who = "another simulator"
        if isinstance(holder.get("pid"), int):
            parts = ["pid %d" % holder["pid"]]
            for key, label in (("url", "page"), ("pty", "terminal"), ("state", "folder")):
                if holder.get(key) and key != self.field:
                    parts.append("%s %s" % (label, holder[key]))
            who += " (%s)" % ", ".join(parts)
        return "%s is in use by %s: stop that one first (Ctrl-C in its shell), or %s" % (
            shown(self.what), who, self.instead)

    def release(self):
        if self.fd is None:
            return
        try:
            os.ftruncate(self.fd, 0)
            fcntl.flock(self.fd, fcntl.LOCK_UN)
        finally:
            os.close(self.fd)
            self.fd = None
            self.info = {}


def folder_lock(folder):
    return Lock(pathlib.Path(folder) / FOLDER_LOCK, folder, "state", "give this one its own folder with --state")


def link_lock(link):
    link = pathlib.Path(link)
    return Lock(link.with_name(link.name + ".lock"), link, "pty",
                "give this one its own terminal link with --pty-link")


def _read(fd):
    """What the holder wrote; {} while it is still starting (nothing written yet) or if unreadable."""
    try:
        holder = json.loads(os.pread(fd, 4096, 0).decode() or "{}")
    except ValueError:
        return {}
    return holder if isinstance(holder, dict) else {}
