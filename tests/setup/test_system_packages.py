"""Tests of `just system-packages`, the one list of Debian packages that `just test` installs.

The recipe runs for real, in a shadowed environment: SYSTEM_PACKAGES_ROOT points its checks at a
temporary folder, and a folder first on PATH holds an `id` that says who we are and an `apt-get`
that logs its arguments and "installs" by creating the package's file under that folder. Nothing is
installed or removed on this machine. Run by `just system-packages-test` (part of `just test`); JUST
names the just binary (the recipe passes its own), else `just` on PATH.
"""

import os
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
JUST = os.environ.get("JUST") or shutil.which("just") or "just"


def package_files():
    """The recipe's list as (package, file pattern) pairs, read from the justfile itself."""
    out = subprocess.run(
        [JUST, "--justfile", str(REPO / "justfile"), "--evaluate", "system_packages"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return [tuple(line.split()) for line in out.splitlines() if line.strip()]


PACKAGES = package_files()


def concrete(pattern):
    """A path the pattern matches (python3* becomes python3.11)."""
    return pattern.replace("*", ".11")


class SystemPackages(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="system-packages-test-"))
        self.addCleanup(shutil.rmtree, self.tmp)
        self.root = self.tmp / "root"
        self.root.mkdir()
        self.bin = self.tmp / "bin"
        self.bin.mkdir()
        self.apt_log = self.tmp / "apt-get.log"

    def install(self, *packages):
        for package, pattern in PACKAGES:
            if package in packages:
                path = self.root / concrete(pattern).lstrip("/")
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text("")

    def install_all_but(self, *absent):
        self.install(*[p for p, _ in PACKAGES if p not in absent])

    def shadow(self, uid, apt_installs=True):
        """An `id` that says uid and an `apt-get` that logs, and creates the files it installs."""
        (self.bin / "id").write_text(f'#!/bin/sh\n[ "$1" = -u ] && echo {uid}\n')
        cases = "".join(
            f'      {p}) mkdir -p "$(dirname "$root{concrete(f)}")" && : > "$root{concrete(f)}" ;;\n'
            for p, f in PACKAGES
        )
        creating = (
            f'if [ "$1" = install ]; then\n  for p in "$@"; do\n    case "$p" in\n{cases}    esac\n  done\nfi\n'
            if apt_installs
            else ""
        )
        (self.bin / "apt-get").write_text(
            "#!/bin/bash\n"
            f'root="{self.root}"\n'
            f'echo "DEBIAN_FRONTEND=${{DEBIAN_FRONTEND:-}} $*" >> "{self.apt_log}"\n' + creating
        )
        for tool in ("id", "apt-get"):
            (self.bin / tool).chmod(0o755)

    def run_recipe(self, *args, root=None):
        env = dict(os.environ)
        env["PATH"] = f"{self.bin}:{env['PATH']}"
        env.pop("DEBIAN_FRONTEND", None)
        env["SYSTEM_PACKAGES_ROOT"] = str(self.root) if root is None else root
        return subprocess.run(
            [JUST, "--justfile", str(REPO / "justfile"), "system-packages", *args],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )

    def apt_calls(self):
        return self.apt_log.read_text().splitlines() if self.apt_log.exists() else []

    def test_does_nothing_when_every_file_is_there(self):
        self.install_all_but()
        self.shadow(uid=1000)
        r = self.run_recipe()
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, "", ""))
        self.assertEqual(self.apt_calls(), [])

    def test_names_the_missing_packages_and_the_apt_get_line_when_not_root(self):
        self.install_all_but("nginx-light", "fonts-noto-cjk")
        self.shadow(uid=1000)
        r = self.run_recipe()
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertEqual(
            r.stderr.splitlines()[:2],
            [
                "error: these Debian packages are missing: nginx-light fonts-noto-cjk",
                "install them as root (then run this again): "
                "apt-get update && apt-get install -y nginx-light fonts-noto-cjk",
            ],
        )
        self.assertEqual(self.apt_calls(), [])

    def test_a_bare_machine_needs_every_package_in_the_lists_order(self):
        self.shadow(uid=1000)
        r = self.run_recipe()
        self.assertEqual(r.returncode, 1)
        names = " ".join(p for p, _ in PACKAGES)
        self.assertIn(f"apt-get install -y {names}\n", r.stderr)

    def test_installs_exactly_the_missing_packages_as_root_once(self):
        self.install_all_but("hey", "chromium-driver")
        self.shadow(uid=0)
        r = self.run_recipe()
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(
            self.apt_calls(),
            ["DEBIAN_FRONTEND= update", "DEBIAN_FRONTEND=noninteractive install -y hey chromium-driver"],
        )
        again = self.run_recipe()
        self.assertEqual((again.returncode, again.stdout), (0, ""))
        self.assertEqual(len(self.apt_calls()), 2, "a second run must not call apt-get")

    def test_fails_naming_the_file_when_apt_get_does_not_provide_it(self):
        self.install_all_but("hey")
        self.shadow(uid=0, apt_installs=False)
        r = self.run_recipe()
        self.assertEqual(r.returncode, 1)
        self.assertIn("error: apt-get installed hey but /usr/bin/hey is still missing", r.stderr)

    def test_checks_only_the_packages_a_recipe_names(self):
        self.install("openjdk-17-jre-headless", "python3-venv")
        self.shadow(uid=1000)
        self.assertEqual(self.run_recipe("openjdk-17-jre-headless", "python3-venv").returncode, 0)
        r = self.run_recipe("openjdk-17-jre-headless", "hey")
        self.assertEqual(r.returncode, 1)
        self.assertIn("apt-get install -y hey\n", r.stderr)

    def test_refuses_a_package_that_is_not_on_the_list(self):
        self.shadow(uid=0)
        r = self.run_recipe("java")
        self.assertEqual(r.returncode, 2)
        self.assertIn("error: system-packages: java is not one of: nginx-light ", r.stderr)
        self.assertEqual(self.apt_calls(), [])

    def test_every_installed_package_provides_its_file_on_this_machine(self):
        """On this machine (no shadow root): each listed package that dpkg says is installed has the
        file the recipe checks for, so a wrong path cannot make every run reinstall it."""
        if shutil.which("dpkg-query") is None:
            self.skipTest("not a Debian machine")
        self.shadow(uid=1000)
        for package, _ in PACKAGES:
            status = subprocess.run(
                ["dpkg-query", "-W", "-f=${db:Status-Status}", package], capture_output=True, text=True
            ).stdout
            with self.subTest(package=package):
                if status != "installed":
                    self.skipTest(f"{package} is not installed here")
                r = self.run_recipe(package, root="")
                self.assertEqual((r.returncode, r.stderr), (0, ""))


if __name__ == "__main__":
    unittest.main()
