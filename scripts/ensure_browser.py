"""Make sure Debian's Chromium is there for the browser tests.

As root (CI, a fresh machine) it installs the Debian packages ``chromium``
and ``chromium-driver`` with apt when /usr/bin/chromium is missing. Without
root it only says what to run; the browser tests then fail under CI=true and
skip elsewhere.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

CHROMIUM = "/usr/bin/chromium"


def main() -> int:
    if os.path.exists(CHROMIUM):
        return 0
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        print(f"{CHROMIUM} is missing: run 'sudo apt-get install chromium chromium-driver' for the browser tests")
        return 0
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    print("installing Debian's chromium for the browser tests …", flush=True)
    subprocess.run(["apt-get", "update", "-qq"], check=False, env=env)
    done = subprocess.run(
        ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "chromium", "chromium-driver", "fonts-dejavu-core"],
        check=False,
        env=env,
    )
    if done.returncode != 0:
        print("could not install chromium; the browser tests will fail under CI=true", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
