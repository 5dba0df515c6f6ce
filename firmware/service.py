"""Technician service at the REPL: `import service; service.status()` (tablectl/service/__init__.py lists every call).

The same calls as tablectl.service, for a person: a refused or invalid call (a ValueError there, or a
TypeError for arguments the call does not take) comes back as a Refused, which the REPL shows as one line `REFUSED: <reason>` instead of a traceback, and
which is false with the reason in `.reason` for a script that tests it. Scripts that want the
exception import tablectl.service instead.
"""
from tablectl import service as _service
from tablectl.service import Report, use  # noqa: F401


class Refused:
    """What a refused call returns at the REPL: false, its reason in `.reason`, shown as one line."""

    def __init__(self, reason):
        self.reason = reason

    def __bool__(self):
        return False

    def __repr__(self):
        return "REFUSED: " + self.reason

    __str__ = __repr__


def _refusing(name, call):
    def refusing(*args, **kw):
        try:
            return call(*args, **kw)
        except ValueError as e:
            return Refused(str(e))
        except TypeError as e:  # arguments the call does not take (meters(1)): one line too, naming it
            return Refused("%s(): %s (docs/technicians.md lists each call)" % (name, e))
    return refusing


for _name in _service.CALLS:
    globals()[_name] = _refusing(_name, getattr(_service, _name))
