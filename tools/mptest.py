"""Tiny test runner for the MicroPython unix port (unittest is not installable there offline).

    micropython -X heapsize=64K tools/mptest.py test_mod [test_mod ...]

Runs every function named test_* of each module in name order; a test passes unless it raises.
As pytest does, a module's setup_function(function) runs before each test and its
teardown_function(function) after it, passed or failed (a failing teardown fails the test); only
the one-argument form. A test raises Skip('why') when the runtime lacks a feature. Prints one line
per test and a closing 'mptest: N passed, N failed, N skipped'; exits 1 if anything failed.
The same modules are collected by pytest on CPython: those with a '# mp-heap:' line (host_tests/README.md).
"""
import sys


try:  # under pytest a Skip is pytest's own skip, so CPython runs report it as skipped
    import pytest

    Skip = pytest.skip.Exception
except ImportError:
    class Skip(Exception):
        pass


def raises(exc, fn, *args, **kw):
    """The message of the `exc` that fn(*args, **kw) raises; AssertionError if it raises none."""
    try:
        fn(*args, **kw)
    except exc as e:
        return str(e)
    raise AssertionError("%s not raised" % exc.__name__)


def run(names):
    passed = failed = skipped = 0
    for name in names:
        try:
            mod = __import__(name)
        except Exception as e:  # an import failure is every test of the module failing
            print("FAIL %s (import): %s: %s" % (name, type(e).__name__, e))
            failed += 1
            continue
        setup = getattr(mod, "setup_function", None)
        teardown = getattr(mod, "teardown_function", None)
        for attr in sorted(dir(mod)):
            if not attr.startswith("test_"):
                continue
            fn = getattr(mod, attr)
            error = None
            try:
                if setup is not None:
                    setup(fn)
                fn()
            except (Skip, Exception) as e:  # a skip too (pytest's is no Exception): the teardown still runs
                error = e
            if teardown is not None:
                try:
                    teardown(fn)
                except Exception as e:
                    error = error or e
            if isinstance(error, Skip):
                skipped += 1
                print("SKIP %s.%s: %s" % (name, attr, error))
            elif error is not None:
                failed += 1
                print("FAIL %s.%s: %s: %s" % (name, attr, type(error).__name__, error))
                sys.print_exception(error) if hasattr(sys, "print_exception") else None
            else:
                passed += 1
                print("ok   %s.%s" % (name, attr))
    print("mptest: %d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return failed


if __name__ == "__main__":
    sys.exit(1 if run(sys.argv[1:]) else 0)
