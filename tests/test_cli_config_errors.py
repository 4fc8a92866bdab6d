"""Every ``gametable`` command refuses a broken config the same way (gametable/config_load.py): one
line naming the command, the file and the key, nothing started, and the command's exit status:
78 (EX_CONFIG) on stdout for the service and its panel (hardware_docs/systemd/gametable.service
names 78 in RestartPreventExitStatus=), 2 on stderr for the commands a person types."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gametable.cli import main

ROOT = Path(__file__).resolve().parent.parent
BROKEN = 'table_id = "t9"\n[panel]\nport = "eighty"\n'
KEY_ERROR = "panel.port: expected an integer from 1 to 65535, got 'eighty'"

# the command as its line names it, its arguments (CONFIG for the file), exit status, line on stdout?
COMMANDS = [
    ("gametable run", ["run", "--config", "CONFIG", "--no-hardware"], 78, True),
    ("gametable panel", ["panel", "--config", "CONFIG"], 78, True),
    ("gametable host unlock", ["host", "unlock", "--config", "CONFIG"], 2, False),
    ("gametable camera record", ["camera", "record", "DIR", "--config", "CONFIG"], 2, False),
    ("gametable venue-autostart", ["venue-autostart", "--config", "CONFIG"], 2, False),
    ("gametable replay", ["replay", "GAME", "--config", "CONFIG"], 2, False),
    ("gametable sim", ["sim", "--config", "CONFIG", "--headless"], 2, False),
]


def _argv(template: list[str], tmp_path: Path, config: Path) -> list[str]:
    given = {"CONFIG": str(config), "DIR": str(tmp_path / "strike"), "GAME": str(tmp_path / "game.jsonl")}
    return [given.get(a, a) for a in template]


@pytest.mark.parametrize(("command", "template", "status", "on_stdout"), COMMANDS, ids=[c[0] for c in COMMANDS])
def test_a_broken_config_is_one_line_naming_the_file_and_the_key_and_the_commands_status(
        command, template, status, on_stdout, tmp_path, capsys):
    config = tmp_path / "table.toml"
    config.write_text(BROKEN)
    with pytest.raises(SystemExit) as stopped:
        main(_argv(template, tmp_path, config))
    assert stopped.value.code == status
    out, err = capsys.readouterr()
    said, quiet = (out, err) if on_stdout else (err, out)
    assert said == f"{command}: config error in {config}: {KEY_ERROR}\n"
    assert quiet == ""
    assert not (tmp_path / "strike").exists()  # nothing was started or written


def test_an_unreadable_config_is_named_once(tmp_path, capsys):
    missing = tmp_path / "nowhere.toml"
    with pytest.raises(SystemExit) as stopped:
        main(["replay", str(tmp_path / "game.jsonl"), "--config", str(missing)])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"gametable replay: config error: cannot read {missing}: ") and err.count(str(missing)) == 1


def test_run_without_a_broker_host_names_the_file_and_the_key_and_exits_78(tmp_path, capsys):
    config = tmp_path / "table.toml"
    config.write_text('table_id = "t9"\n')
    with pytest.raises(SystemExit) as stopped:
        main(["run", "--config", str(config), "--no-hardware"])
    assert stopped.value.code == 78
    assert capsys.readouterr().out == (f"gametable run: config error in {config}: mqtt.host: expected the broker's "
                                       "host name (e.g. \"127.0.0.1\"), got nothing\n")


def test_the_installed_command_exits_78_for_systemd(tmp_path):
    """The status systemd sees is the process's own (SystemExit through ``python -m gametable.cli``)."""
    config = tmp_path / "table.toml"
    config.write_text(BROKEN)
    proc = subprocess.run([sys.executable, "-m", "gametable.cli", "run", "--config", str(config), "--no-hardware"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert (proc.returncode, proc.stdout, proc.stderr) == (
        78, f"gametable run: config error in {config}: {KEY_ERROR}\n", "")
