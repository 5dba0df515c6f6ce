"""Debian's headless Chromium (`make browser` installs it with apt), as the browser tests drive it through
Playwright: the simulator's page (sim/test_browser.py) and the pit sign (link/test_sign_browser.py)."""
import pathlib

import pytest

CHROMIUM = "/usr/bin/chromium"
# --no-sandbox: Chromium will not start as root without it (a container, CI)
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def need_chromium():
    # a failure rather than a skip: `make test` installs it, so a missing browser is a broken set-up
    if not pathlib.Path(CHROMIUM).exists():
        pytest.fail("no %s: run `make browser` (Debian's chromium)" % CHROMIUM)


def launch(playwright, profile_dir, width):
    """A Chromium context with its profile in profile_dir and width x 700 pages; close it after.
    need_chromium() first: without the browser, Playwright's own error does not say how to get it."""
    return playwright.chromium.launch_persistent_context(
        str(profile_dir), executable_path=CHROMIUM, headless=True, args=ARGS,
        viewport={"width": width, "height": 700})
