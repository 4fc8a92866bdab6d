"""Checks ``gametable run`` makes before it opens the journal: faults no restart can fix.

Each returns one line for the console (and systemd's log) or None. ``gametable run`` exits 78
(EX_CONFIG) on any of them, the status the systemd unit's ``RestartPreventExitStatus=`` names, so
a Pi with a wrong OS or a journal on RAM says why once instead of restarting every 2 s.
"""

from __future__ import annotations

import os
import platform
import re
from dataclasses import dataclass
from pathlib import Path

# Where the wheels the table needs exist (pymunk 7 has none for 32-bit ARM): 64-bit Raspberry Pi
# OS on a Pi 3, 4, 5 or Zero 2 W, and 64-bit PCs for the simulator (README.md, hardware_docs/pi_setup.md).
SUPPORTED_MACHINES = ("aarch64", "arm64", "x86_64", "amd64")
VOLATILE_TYPES = ("tmpfs", "ramfs")
# Tests and a RAM-only demo may keep a journal on tmpfs on purpose (a CI machine's /tmp may be one).
VOLATILE_OK_ENV = "GAMETABLE_VOLATILE_JOURNAL_OK"
MOUNTINFO = "/proc/self/mountinfo"


def platform_refusal(machine: str | None = None) -> str | None:
    """32-bit ARM (armv7l, armv6l) and anything else without the wheels the table installs."""
    machine = (machine or platform.machine()).lower()
    if machine in SUPPORTED_MACHINES:
        return None
    return (f"gametable run: this is a {machine} system; the table runs on 64-bit Raspberry Pi OS (Bookworm) "
            "on a Pi 3, 4, 5 or Zero 2 W, or a 64-bit PC (pymunk 7 has no 32-bit ARM build): "
            "install Raspberry Pi OS (64-bit), see hardware_docs/pi_setup.md")


@dataclass(frozen=True)
class Mount:
    point: str
    fstype: str
    source: str
    options: str  # the file system's own (super) options: an overlay's upperdir is here


def read_mounts(mountinfo: str | Path = MOUNTINFO) -> list[Mount]:
    """``/proc/self/mountinfo`` (proc(5)): mount point is field 5, after `` - `` type, source, options."""
    mounts = []
    for line in Path(mountinfo).read_text(encoding="utf-8", errors="replace").splitlines():
        head, sep, tail = line.partition(" - ")
        fields, rest = head.split(), tail.split()
        if not sep or len(fields) < 5 or len(rest) < 2:
            continue
        point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[4])  # "\040": a space
        mounts.append(Mount(point, rest[0], rest[1], rest[2] if len(rest) > 2 else ""))
    return mounts


def mount_of(path: str, mounts: list[Mount]) -> Mount | None:
    """The mount holding ``path`` (the last mounted of the longest matching mount points)."""
    best: Mount | None = None
    for mount in mounts:
        point = mount.point.rstrip("/") or "/"
        if (path == point or path.startswith(point.rstrip("/") + "/")) and \
                (best is None or len(point) >= len(best.point.rstrip("/") or "/")):
            best = mount
    return best


def volatile_reason(path: str, mounts: list[Mount]) -> str | None:
    """Why a file at ``path`` would be lost at power-off: tmpfs/ramfs, or an overlay whose upper
    (written) layer is in RAM, as Raspberry Pi OS's "overlay file system" (overlayroot) makes it."""
    mount = mount_of(path, mounts)
    if mount is None:
        return None
    if mount.fstype in VOLATILE_TYPES:
        return f"{mount.point} is a {mount.fstype} (RAM)"
    if mount.fstype == "overlay":
        upper = next((o[len("upperdir="):] for o in mount.options.split(",") if o.startswith("upperdir=")), "")
        below = mount_of(upper, [m for m in mounts if m is not mount]) if upper else None
        if mount.source == "overlayroot" or (below is not None and below.fstype in VOLATILE_TYPES):
            return f"{mount.point} is an overlay whose writes go to RAM (the read-only root's overlay file system)"
    return None


def existing_ancestor(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def journal_refusal(journal: str, mountinfo: str | Path | None = None) -> str | None:
    """A journal that would vanish at power-off, or a folder for it that cannot be made or written."""
    if journal == ":memory:":
        return None
    folder = Path(journal).absolute().parent
    if not os.environ.get(VOLATILE_OK_ENV):
        try:
            mounts = read_mounts(mountinfo or MOUNTINFO)
        except OSError:  # no /proc (not Linux): nothing to tell
            mounts = []
        where = str(existing_ancestor(folder).resolve())
        why = volatile_reason(where, mounts)
        if why is not None:
            return (f"gametable run: journal {journal} would be lost at power-off: {why}. Put [journal] path on a "
                    "writable disk partition (hardware_docs/pi_setup.md, 'A read-only root')")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return (f"gametable run: cannot make the journal folder {folder}: {exc.strerror or exc}; create it on a "
                "writable partition (or set [journal] path), see hardware_docs/pi_setup.md")
    if not os.access(folder, os.W_OK | os.X_OK):
        return (f"gametable run: the journal folder {folder} is not writable (a read-only disk, or its owner): "
                "the table cannot record a single input; see hardware_docs/pi_setup.md")
    return None


# Our top-level import names that another distribution could also install (README.md, "Import
# names"): PySensors installs ``sensors`` too, and whichever was installed last wins the folder.
OWN_PACKAGES = ("sensors", "controller", "web_panel")


def foreign_package_refusal(names: tuple[str, ...] = OWN_PACKAGES) -> str | None:
    """A package of ours shadowed by another distribution's of the same name, named before it breaks."""
    import importlib.util

    home = Path(__file__).resolve().parent.parent
    for name in names:
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None else None
        if origin is None or Path(origin).resolve().parent.parent != home:
            where = origin or "nowhere"
            return (f"the package {name!r} found at {where} is not gametable's (expected under {home}): "
                    f"another distribution installs the same name; give gametable its own environment")
    return None


def startup_refusal(journal: str) -> str | None:
    """The first fault of this machine or this journal's storage that no restart can fix."""
    return platform_refusal() or foreign_package_refusal() or journal_refusal(journal)
