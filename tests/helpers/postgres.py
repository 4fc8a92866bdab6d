"""A real PostgreSQL for the venue's store tests: its own cluster in a temp folder, on a free
loopback port, stopped at the end (as the tests start Mosquitto). Debian's ``postgresql`` package
(the Makefile's ``test-deps``) and the ``psycopg`` driver (the ``venue-pg`` extra)."""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path

from gametable.broker import free_port


def _bin_dir() -> Path | None:
    """Debian keeps the server's programs out of PATH (``/usr/lib/postgresql/<n>/bin``)."""
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return Path(versions[-1]).parent if versions else None


def why_not() -> str | None:
    """Why a PostgreSQL cannot be started here (the skip reason), or None."""
    if _bin_dir() is None:
        return "PostgreSQL is not installed (Debian package postgresql: make test-deps)"
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "the psycopg driver is not installed (pip install -e '.[venue-pg]')"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "running as root without runuser: PostgreSQL refuses to run as root"
    return None


class Postgres:
    """One cluster; ``new_database()`` gives each test an empty database of its own."""

    def __init__(self) -> None:
        bin_dir = _bin_dir()
        assert bin_dir is not None, why_not()
        self._bin = bin_dir
        self.port = free_port()
        self._dir = Path(tempfile.mkdtemp(prefix="gametable-pg-"))
        self._data = self._dir / "data"
        self._as_user: list[str] = []
        if os.geteuid() == 0:  # CI runs as root; the server must not
            self._as_user = ["runuser", "-u", "postgres", "--"]
            shutil.chown(self._dir, "postgres")
        self._run("initdb", "-D", str(self._data), "-U", "venue", "-A", "trust", "--no-sync", "-E", "UTF8")
        options = f"-h 127.0.0.1 -p {self.port} -k {self._dir} -c fsync=off -c full_page_writes=off"
        self._run("pg_ctl", "-D", str(self._data), "-o", options, "-l", str(self._dir / "log"), "-w", "start")

    def _run(self, program: str, *args: str) -> None:
        subprocess.run([*self._as_user, str(self._bin / program), *args], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=self._dir)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://venue@127.0.0.1:{self.port}/{database}"  # as a venue.toml says it

    def new_database(self) -> str:
        """An empty database's SQLAlchemy URL (a fresh name each call)."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=venue dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def close(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self._data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self._dir, ignore_errors=True)


