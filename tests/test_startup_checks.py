"""``gametable run`` refuses, with one line and exit 78 (no restart loop), a
journal that would live in RAM (a read-only root's overlay, tmpfs), a journal folder it cannot make
or write, and a machine the table does not support (32-bit ARM)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gametable import startup_checks
from gametable.run import run_daemon
from gametable.startup_checks import journal_refusal, platform_refusal, read_mounts, volatile_reason

ROOT = Path(__file__).resolve().parents[1]
EX_CONFIG = 78  # hardware_docs/systemd/gametable.service: RestartPreventExitStatus=78

# Raspberry Pi OS with raspi-config's "overlay file system" on (overlayroot), and a data partition.
PI_OVERLAY_ROOT = """\
19 1 0:18 / /media/root-rw rw,relatime - tmpfs tmpfs-root rw,size=950000k
20 1 179:2 / /media/root-ro ro,relatime - ext4 /dev/mmcblk0p2 ro
21 0 0:19 / / rw,relatime - overlay overlayroot rw,lowerdir=/media/root-ro,upperdir=/media/root-rw/overlay,workdir=/media/root-rw/overlay-workdir
22 21 179:3 / /srv/gametable\\040data rw,noatime - ext4 /dev/mmcblk0p3 rw
23 21 0:20 / /run rw,nosuid - tmpfs tmpfs rw,mode=755
"""
# A container's root: an overlay too, but its upper layer is on a disk.
DOCKER_ROOT = """\
30 1 0:40 / / rw,relatime - overlay overlay rw,lowerdir=/var/lib/docker/l/A,upperdir=/var/lib/docker/overlay2/x/diff,workdir=/var/lib/docker/overlay2/x/work
"""


@pytest.fixture
def no_volatile_override(monkeypatch):
    monkeypatch.delenv(startup_checks.VOLATILE_OK_ENV, raising=False)


def _mountinfo(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mountinfo"
    path.write_text(text)
    return path


@pytest.mark.usefixtures("no_volatile_override")
def test_a_journal_on_the_read_only_roots_ram_overlay_is_refused_and_the_data_partition_is_not(tmp_path):
    info = _mountinfo(tmp_path, PI_OVERLAY_ROOT)
    mounts = read_mounts(info)
    assert mounts[3].point == "/srv/gametable data"  # "\040" is a space
    assert "overlay whose writes go to RAM" in volatile_reason("/var/lib/gametable", mounts)
    assert "/run is a tmpfs (RAM)" in volatile_reason("/run/gametable", mounts)
    assert volatile_reason("/srv/gametable data/journal", mounts) is None
    message = journal_refusal("/var/lib/gametable/journal.sqlite", info)
    assert message.startswith("gametable run: journal /var/lib/gametable/journal.sqlite would be lost at power-off")
    assert "hardware_docs/pi_setup.md" in message and "\n" not in message


@pytest.mark.usefixtures("no_volatile_override")
def test_an_overlay_written_to_a_disk_is_not_volatile(tmp_path):
    assert volatile_reason("/var/lib/gametable", read_mounts(_mountinfo(tmp_path, DOCKER_ROOT))) is None


@pytest.mark.usefixtures("no_volatile_override")
def test_run_exits_78_on_a_journal_in_ram_before_touching_anything(tmp_path, monkeypatch, capsys):
    journal = tmp_path / "journal" / "j.sqlite"
    info = _mountinfo(tmp_path, f"21 0 0:19 / / rw - ext4 /dev/vda rw\n22 21 0:20 / {tmp_path} rw - tmpfs tmpfs rw\n")
    monkeypatch.setattr(startup_checks, "MOUNTINFO", str(info))
    config = tmp_path / "table.toml"
    config.write_text(f'table_id = "t"\n[journal]\npath = "{journal}"\n[mqtt]\nhost = "127.0.0.1"\nport = 1\n')
    code = run_daemon(argparse.Namespace(config=str(config), no_hardware=True))
    out = capsys.readouterr().out
    assert code == EX_CONFIG
    assert out.strip() == (f"gametable run: journal {journal} would be lost at power-off: {tmp_path} is a tmpfs "
                           "(RAM). Put [journal] path on a writable disk partition (hardware_docs/pi_setup.md, "
                           "'A read-only root')")
    assert not journal.parent.exists()


def _run(config: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gametable.cli", "run", "--no-hardware", "--config", str(config)],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)


@pytest.mark.parametrize("where", ["sysfs", "read-only folder"])
def test_a_journal_folder_that_cannot_be_made_is_one_line_and_exit_78(tmp_path, where):
    if where == "sysfs":  # a real file system that refuses new folders, even to root
        journal = Path("/sys/gametable-journal-test/j.sqlite")
    else:
        if os.geteuid() == 0:
            pytest.skip("root writes into a read-only (0555) folder")
        locked = tmp_path / "ro"
        locked.mkdir(mode=0o555)
        journal = locked / "journal" / "j.sqlite"
    config = tmp_path / "table.toml"
    config.write_text(f'table_id = "t"\n[journal]\npath = "{journal}"\n[mqtt]\nhost = "127.0.0.1"\nport = 1\n')
    r = _run(config)
    assert r.returncode == EX_CONFIG, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    assert r.stdout.strip().startswith(f"gametable run: cannot make the journal folder {journal.parent}: ")


def test_32_bit_arm_is_refused_with_what_to_install_and_64_bit_machines_are_not():
    message = platform_refusal("armv7l")
    assert message is not None and "armv7l" in message and "Raspberry Pi OS (64-bit)" in message
    assert platform_refusal("armv6l") is not None
    assert [platform_refusal(m) for m in ("aarch64", "x86_64")] == [None, None]


def test_every_dependency_is_pinned_in_constraints_txt_within_what_pyproject_allows():
    """`make` installs with ``-c constraints.txt``: each package pyproject.toml names (its extras too,
    the camera's once it lands) has one tested version there, inside its range (pymunk 7: the code
    calls Space.on_collision)."""
    import tomllib

    from packaging.requirements import Requirement

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, version = line.split("==")
            pins[name.lower().replace("_", "-")] = version
    extras = [r for name, reqs in project["optional-dependencies"].items() if name != "pi" for r in reqs]
    needed = [Requirement(r) for r in project["dependencies"] + extras]  # pi: lgpio comes from apt on the Pi
    for req in needed:
        name = req.name.lower().replace("_", "-")
        assert name in pins, f"{req.name} is not pinned in constraints.txt"
        assert req.specifier.contains(pins[name]), f"{req.name}=={pins[name]} is outside {req.specifier}"
    assert Requirement(next(r for r in project["dependencies"] if r.startswith("pymunk"))).specifier.contains("7.0")
    assert not Requirement(next(r for r in project["dependencies"] if r.startswith("pymunk"))).specifier.contains("6.9")


def test_the_unit_bounds_memory_above_the_measured_figures_and_is_spared_by_the_oom_killer():
    import configparser

    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # keep key case
    unit.read(ROOT / "hardware_docs" / "systemd" / "gametable.service")
    svc = unit["Service"]

    def mb(value: str) -> int:
        assert value.endswith("M"), value
        return int(value[:-1])

    measured_peak_rss_mb = 46  # hardware_docs/pi_setup.md, "Memory"
    assert 3 * measured_peak_rss_mb <= mb(svc["MemoryHigh"]) < mb(svc["MemoryMax"]) <= 512 // 2  # a Zero 2 W
    assert -1000 < int(svc["OOMScoreAdjust"]) < 0


def test_our_packages_are_ours_and_a_same_named_package_from_elsewhere_is_refused(tmp_path, monkeypatch):
    from gametable.startup_checks import foreign_package_refusal

    assert foreign_package_refusal() is None  # sensors, controller, web_panel: this checkout's
    (tmp_path / "lm_sensors_like").mkdir()
    (tmp_path / "lm_sensors_like" / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    refusal = foreign_package_refusal(("lm_sensors_like",))
    assert refusal is not None and "'lm_sensors_like'" in refusal and str(tmp_path) in refusal
    assert "own environment" in refusal
