"""``make soak``: bots play through the whole stack while faults hit it at random.

The real daemon process (``gametable run --no-hardware``) behind a real Mosquitto, reached through
a network that can be cut; a bot plays every registered game (Coup joins by itself) through a
retrying :class:`~controller.command_client.CommandClient`. At random moments the soak
``kill -9``s the daemon (sometimes with a command in flight), restarts Mosquitto, cuts the
daemon's network, or runs an MQTT hostile-LAN phase (:data:`HOSTILE_LAN`: strangers try to take over
the daemon's client id and forge commands while the bot keeps playing); meanwhile a buggy client now
and then publishes junk on ``cmd``. Mosquitto runs exactly as shipped (hardware_docs/mosquitto:
config, ACL, a daemon and a panel user). A panel hostile-LAN phase follows
(:mod:`benchmarks.soak_hostile_lan`: slowloris, stream floods, PIN guessing at the panel). Time is compressed: a "simulated minute" is ``60 / pace_s`` inputs, and faults
arrive on that simulated clock, so 30 simulated minutes take about a minute of real time.

At the end it checks, from the journal itself:
  inputs lost        commands acknowledged ok that are not in the journal, or never answered (must be 0)
  duplicates applied command ids applied more than once (must be 0)
  hostile commands applied  junk or forged commands that got into the journal (must be 0)
  daemon kicked off  times a hostile-LAN phase disconnected the daemon from the broker (must be 0)
and that the state the broker holds (retained) equals a replay of the journal. Exit status 1 if
any of that fails or the daemon's memory grew by 10 % or more. Memory is sampled after a warm-up
and at the end; after a ``kill -9`` the new process has replayed the whole journal, so the end
figure includes the cost of the full history.

    python -m benchmarks.soak [--minutes 30] [--seed 1] [--pace-s 2] [--fault-every-s 60]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from controller.command_client import CommandClient, CommandTimeout
from controller.topics import daemon_client_id
from gametable.broker import Broker, start_table_broker
from gametable.replay import replay_lines
from gametable.testing.bots import Bot, comparable
from gametable.testing.daemon_proc import DaemonProcess
from gametable.testing.junk import random_junk
from gametable.testing.netcut import NetCut
from gametable.testing.recorder import Recorder

TABLE = "soak"
T = f"gametable/{TABLE}"
FAULTS = ("kill -9", "broker restart", "network cut", "hostile LAN")
DISCONNECTED = "disconnected from broker"  # the daemon's log line when it loses the broker


class Soak:
    def __init__(self, workdir: Path, seed: int, faults: tuple[str, ...] = FAULTS) -> None:
        self.rnd = random.Random(seed)
        self.kinds = faults
        self.broker: Broker = start_table_broker()
        self.net = NetCut(self.broker.host, self.broker.port)
        self.daemon = DaemonProcess(workdir, self.broker.host, self.net.port, TABLE,
                                    credentials={"username": "daemon", "password": self.broker.users["daemon"]})
        self.phone = Recorder(self.broker.host, self.broker.port, f"{T}/status", username="viewer",
                              password=self.broker.users["viewer"])  # a screen: status is public
        self.phone.client.reconnect_delay_set(0.05, 0.5)
        self.cc = CommandClient(self.broker.host, self.broker.port, TABLE, username="panel",
                                password=self.broker.users["panel"])
        self.bot = Bot(seed, prefix="s", max_inputs_per_game=250)
        self.synced = 0  # the last journal seq the bot's mirror has applied
        self.results: dict[str, dict[str, Any]] = {}
        self.sent: list[str] = []
        self.unanswered: list[str] = []
        self.faults: Counter[str] = Counter()
        self.junk_sent = 0
        self.hostile: Counter[str] = Counter()  # what the hostile-LAN phases tried, by kind
        self.kicked_off = 0  # times the daemon lost the broker during a hostile-LAN phase

    # --- the daemon ---------------------------------------------------------------------------
    def start_daemon(self) -> None:
        self.daemon.start_online(self.phone, timeout=30)

    def sync_mirror(self) -> None:
        """The bot plays from what the table really holds: the journal (timeouts included)."""
        for seq, cid, body in self.daemon.journal_rows(after=self.synced):
            result = self.bot.mirror.submit(json.loads(body))
            if not result.ok:  # the journal replays by construction; this would be a real bug
                raise RuntimeError(f"journal record {cid!r} does not replay: {result.error}")
            self.bot.in_game += 1
            self.synced = seq

    # --- inputs -------------------------------------------------------------------------------
    def next_command(self) -> dict[str, Any]:
        cmd = self.bot.next_command()
        self.sent.append(cmd["id"])
        return cmd

    def resolve(self, cmd: dict[str, Any]) -> None:
        """Retry ``cmd`` (same id) until the daemon answers; record the answer."""
        try:
            self.results[cmd["id"]] = self.cc.send(cmd, retry_s=1.0, timeout=60)
        except CommandTimeout:
            self.unanswered.append(cmd["id"])
        self.sync_mirror()

    def play_one(self) -> None:
        self.resolve(self.next_command())
        if self.rnd.random() < 0.1:  # a buggy or hostile client shouts junk at the table meanwhile
            self.junk_sent += 1
            self.cc.client.publish(self.cc.cmd_topic, random_junk(self.rnd), qos=1)

    # --- faults -------------------------------------------------------------------------------
    def fault(self) -> None:
        kind = self.rnd.choice(self.kinds)
        self.faults[kind] += 1
        cmd = self.next_command()  # one command is always caught by the fault
        if kind == "kill -9":
            if self.rnd.random() < 0.5:
                self.cc.publish(cmd)
                time.sleep(self.rnd.uniform(0, 0.004))  # a random point of its handling
                self.daemon.kill()
            else:
                self.daemon.kill()
                self.cc.publish(cmd)
            self.start_daemon()
        elif kind == "broker restart":
            self.broker.stop()
            self.cc.publish(cmd)  # not queued by paho (it could apply after its sender gave up): resent below
            time.sleep(self.rnd.uniform(0, 0.5))
            self.broker.restart()
        elif kind == "hostile LAN":
            self.cc.publish(cmd)
            drops = self.daemon.log_text().count(DISCONNECTED)
            for attack in HOSTILE_LAN:
                attack(self)
            self.resolve(cmd)
            self.kicked_off += self.daemon.log_text().count(DISCONNECTED) - drops
            return
        else:
            self.net.cut()
            self.cc.publish(cmd)  # the broker queues it in the daemon's session
            time.sleep(self.rnd.uniform(0, 1.0))
            self.net.restore()
        self.resolve(cmd)

    def close(self) -> None:
        self.daemon.terminate()
        self.cc.close()
        self.phone.close()
        self.net.close()
        self.broker.close()


# --- the hostile LAN ---------------------------------------------------------------
def _connect_once(soak: Soak, client_id: str, username: str | None = None, password: str | None = None) -> None:
    """One MQTT connection as ``client_id``, held until the broker answers, then dropped."""
    import threading

    import paho.mqtt.client as mqtt

    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id)
    if username:
        client.username_pw_set(username, password)
    answered = threading.Event()
    client.on_connect = lambda *a: answered.set()
    client.on_disconnect = lambda *a: answered.set()
    try:
        client.connect(soak.broker.host, soak.broker.port, keepalive=5)
    except OSError:
        return
    client.loop_start()
    answered.wait(5)
    if client.is_connected():
        # a stranger's forged command: the ACL must drop it (counted in "hostile commands applied")
        forged = {"type": "abort", "id": f"hostile-{soak.hostile['forged']}"}
        soak.hostile["forged"] += 1
        client.publish(f"{T}/cmd", json.dumps(forged), qos=1).wait_for_publish(2)
    client.disconnect()
    client.loop_stop()


def mqtt_takeover_attempts(soak: Soak) -> None:
    """Strangers on the LAN connect again and again as the daemon's public name (anonymous, or with
    a guessed password) to kick it off the broker, while the bot keeps playing."""
    public = f"gametable-daemon-{TABLE}"
    guesses = [(public, None, None), (daemon_client_id(TABLE, "guess"), None, None), (public, "daemon", "guess"),
               (public, "panel", "guess")]
    for _ in range(soak.rnd.randint(3, 8)):
        cid, user, pw = soak.rnd.choice(guesses)
        _connect_once(soak, cid, user, pw)
        soak.hostile["takeover attempts"] += 1
        soak.play_one()


# The attacks of a hostile-LAN phase; each takes the Soak (panel attacks are added beside this one).
HOSTILE_LAN: list = [mqtt_takeover_attempts]


def run_soak(minutes: float = 30.0, seed: int = 1, pace_s: float = 2.0, fault_every_s: float = 60.0,
             workdir: Path | None = None, out: Any = sys.stdout, faults: tuple[str, ...] = FAULTS) -> dict[str, float]:
    """Run the soak; returns the figures it prints."""
    workdir = workdir or Path(tempfile.mkdtemp(prefix="gametable-soak-"))
    soak = Soak(workdir, seed, faults)
    started = time.monotonic()
    try:
        soak.start_daemon()
        for _ in range(50):  # warm up before the first memory sample
            soak.play_one()
        rss_start = soak.daemon.rss_kb()
        sim_end, sim_t = minutes * 60.0, 0.0
        next_fault = soak.rnd.expovariate(1 / fault_every_s)
        while sim_t < sim_end:
            if sim_t >= next_fault:
                soak.fault()
                next_fault = sim_t + soak.rnd.expovariate(1 / fault_every_s)
            else:
                soak.play_one()
            sim_t += soak.rnd.expovariate(1 / pace_s)
        rss_end = soak.daemon.rss_kb()
        rows = soak.daemon.journal_rows()
        ids = Counter(cid for _s, cid, _b in rows if cid is not None)
        ok_ids = [i for i, r in soak.results.items() if r.get("ok")]
        lost = sum(1 for i in ok_ids if i not in ids) + len(soak.unanswered)
        duplicates = sum(n - 1 for n in ids.values() if n > 1)
        junk_applied = sum(1 for i in ids if str(i).startswith(("junk", "hostile")))
        refused = [(i, r.get("error")) for i, r in soak.results.items() if not r.get("ok")]
        expected = replay_lines([b for _s, _c, b in rows]).public_view()
        late = Recorder(soak.broker.host, soak.broker.port, f"{T}/state", username="viewer",
                        password=soak.broker.users["viewer"])  # a screen that joins late: state is public
        try:
            retained = late.wait_for(f"{T}/state", lambda m: m.retain, timeout=10).json()
        finally:
            late.close()
        state_ok = comparable(retained) == comparable(expected)
        games = Counter(json.loads(b).get("game") for _s, _c, b in rows if json.loads(b).get("type") == "new_game")
    finally:
        soak.close()
    figures = {
        "simulated minutes": minutes,
        "inputs processed": float(len(ok_ids)),
        "inputs in journal": float(len(rows)),
        **{f"games started {g}": float(n) for g, n in sorted(games.items())},
        "faults injected": float(sum(soak.faults.values())),
        **{f"faults {k}": float(v) for k, v in sorted(soak.faults.items())},
        "daemon starts": float(soak.daemon.starts),
        "inputs lost": float(lost),
        "duplicates applied": float(duplicates),
        "commands refused": float(len(refused)),
        "hostile commands sent": float(soak.junk_sent),
        "hostile commands applied": float(junk_applied),
        **{f"hostile LAN {k}": float(v) for k, v in sorted(soak.hostile.items())},
        "daemon kicked off by hostile LAN": float(soak.kicked_off),
        "retained state equals journal replay": float(state_ok),
        "daemon RSS start (KiB)": float(rss_start),
        "daemon RSS end (KiB)": float(rss_end),
        "daemon RSS growth %": round(100.0 * (rss_end - rss_start) / rss_start, 2),
        "real seconds": round(time.monotonic() - started, 1),
    }
    for name, value in figures.items():
        print(f"{name}: {value:g}", file=out)
    print(f"# journal and daemon log in {workdir}", file=out)
    for cid, error in refused[:10]:
        print(f"# refused {cid}: {error}", file=out)
    return figures


def passed(figures: dict[str, float]) -> bool:
    return (figures["inputs lost"] == 0 and figures["duplicates applied"] == 0
            and figures["hostile commands applied"] == 0 and figures["daemon kicked off by hostile LAN"] == 0
            and figures["retained state equals journal replay"] == 1.0 and figures["daemon RSS growth %"] < 10)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.soak", description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="simulated minutes of play (default 30)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pace-s", type=float, default=2.0, help="simulated seconds between inputs (mean)")
    parser.add_argument("--fault-every-s", type=float, default=60.0, help="simulated seconds between faults (mean)")
    parser.add_argument("--workdir", type=Path, help="keep the journal and daemon log here")
    parser.add_argument("--hostile-lan-s", type=float, default=20.0,
                        help="real seconds of the hostile-LAN phase (panel attacks; 0: skip)")
    parser.add_argument("--faults", default=",".join(FAULTS),
                        help=f"comma-separated kinds (default all: {','.join(FAULTS)}); leave out "
                             "'kill -9' to watch one daemon process's memory over a long run")
    args = parser.parse_args(argv)
    kinds = tuple(k.strip() for k in args.faults.split(",") if k.strip())
    unknown = [k for k in kinds if k not in FAULTS]
    if unknown or not kinds:
        parser.error(f"--faults: unknown kind(s) {unknown}; choose from {', '.join(FAULTS)}")
    figures = run_soak(args.minutes, args.seed, args.pace_s, args.fault_every_s, args.workdir, faults=kinds)
    ok = passed(figures)
    if args.hostile_lan_s > 0:  # slowloris, stream floods, PIN guessing, forged requests at the panel
        from benchmarks.soak_hostile_lan import lan_passed, run_hostile_lan

        ok = lan_passed(run_hostile_lan(args.hostile_lan_s, args.seed)) and ok
    print("soak: PASS" if ok else "soak: FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
