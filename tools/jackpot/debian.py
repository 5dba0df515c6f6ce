"""Debian packages the link's processes need (mosquitto, postgresql), installed by apt when missing, as make does."""
import os
import subprocess


def apt_install(*packages):
    """apt-get install (as root, or with sudo), without recommended packages; waits for another apt's lock
    (make test on a shared machine). OSError or CalledProcessError if it cannot."""
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    lock = ["-o", "DPkg::Lock::Timeout=300"]
    subprocess.run(sudo + ["apt-get"] + lock + ["update", "-qq"], check=True, env=env, stdout=subprocess.DEVNULL)
    subprocess.run(sudo + ["apt-get"] + lock + ["install", "-y", "-qq", "--no-install-recommends"] + list(packages),
                   check=True, env=env, stdout=subprocess.DEVNULL)
