"""The README's promise: on a fresh Debian machine `make test` sets up what the tests need. As
root it installs Debian's Chromium with apt-get; otherwise it prints the one command to run and
stops. Checked through the Makefile itself, with apt-get and id replaced on the PATH."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def make_chromium(
    tmp_path: Path, uid: int, present: bool = False
) -> subprocess.CompletedProcess[str]:
    """``make chromium`` for a Chromium expected at ``tmp_path/chromium``, as user ``uid``; the
    stub apt-get logs its arguments and "installs" that file."""
    stubs = tmp_path / "bin"
    stubs.mkdir()
    target = tmp_path / "chromium"
    log = tmp_path / "apt-get.log"
    scripts = {
        "apt-get": (
            f'echo "$*" >> {log}\n'
            f'case "$*" in *install*) touch {target}; chmod +x {target};; esac\n'
        ),
        "id": f"echo {uid}\n",
    }
    for name, body in scripts.items():
        (stubs / name).write_text("#!/bin/sh\n" + body)
        (stubs / name).chmod(0o755)
    if present:
        target.touch(mode=0o755)
    env = {k: v for k, v in os.environ.items() if k != "VEILLEE_CHROMIUM"}
    env["PATH"] = f"{stubs}:{env['PATH']}"
    return subprocess.run(
        ["make", "-s", "--no-print-directory", "chromium", f"CHROMIUM={target}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_as_root_make_test_installs_chromium_with_apt_get(tmp_path: Path) -> None:
    done = make_chromium(tmp_path, uid=0)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "apt-get.log").read_text().splitlines() == [
        "update -qq",
        "install -y -qq chromium",
    ]
    assert (tmp_path / "chromium").is_file()


def test_otherwise_it_prints_the_one_command_and_stops(tmp_path: Path) -> None:
    done = make_chromium(tmp_path, uid=1000)
    assert done.returncode != 0
    assert "sudo apt-get install -y chromium" in done.stdout
    assert not (tmp_path / "apt-get.log").exists()


def test_with_chromium_there_nothing_is_installed(tmp_path: Path) -> None:
    done = make_chromium(tmp_path, uid=0, present=True)
    assert done.returncode == 0 and done.stdout == ""
    assert not (tmp_path / "apt-get.log").exists()
