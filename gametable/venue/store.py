"""The venue's database: every finished game and its players' results (SQLAlchemy Core).

SQLite by default (embedded, nothing to install); PostgreSQL for a venue server through the same
code (a ``postgresql://`` URL). The service keeps nothing else, so two services may share one
database: a game is stored once by its unique key, whoever sees it first.

Migrations: ``MIGRATIONS`` is an append-only list; ``schema_version`` records how many ran. They
run in one transaction that holds the database's migration lock (:func:`_lock_for_migration`), so
two services starting at the same moment on a new database migrate it once, one after the other,
and a migration that fails leaves the schema as it was.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from gametable.venue.results import Outcome

metadata = sa.MetaData()
schema_version = sa.Table("schema_version", metadata, sa.Column("version", sa.Integer, nullable=False))
games = sa.Table(
    "games", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("key", sa.String(200), nullable=False, unique=True),
    sa.Column("table_id", sa.String(64), nullable=False),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("mode", sa.String(64)),
    sa.Column("finished_at", sa.Float, nullable=False),
    sa.Column("draw", sa.Boolean, nullable=False),
    sa.Column("state", sa.Text, nullable=False),  # the final public state, as published
    sa.Column("voided_at", sa.Float),  # the venue host voided it (gametable/venue/operator.py): kept, never counted
)
results = sa.Table(
    "results", metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("player", sa.String(200), nullable=False),  # who: the venue's player id (the name for now)
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("team", sa.String(64)),
    sa.Column("rank", sa.Integer, nullable=False),
    sa.PrimaryKeyConstraint("game_id", "seat"),
    sa.Index("results_player", "player"),
)
current_games = sa.Table(  # the key of the game each table plays now (from its new_game event)
    "current_games", metadata,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("key", sa.String(200), nullable=False),
)


tournaments = sa.Table(
    "tournaments", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("format", sa.String(32), nullable=False),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("mode", sa.String(64)),
    sa.Column("players", sa.Text, nullable=False),  # JSON list of names, in seed order
    sa.Column("tables", sa.Text, nullable=False),  # JSON list of table ids it may use
    sa.Column("created_at", sa.Float, nullable=False),
)
matches = sa.Table(
    "matches", metadata,
    sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"), nullable=False),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("round", sa.Integer, nullable=False),
    sa.Column("players", sa.Text, nullable=False),  # JSON list: two names, or one for a bye
    sa.Column("winner", sa.String(200)),
    sa.Column("table_id", sa.String(64)),  # where it is offered or played
    sa.Column("offer", sa.String(200), unique=True),  # the new_game id the table starts it with
    sa.Column("awarded", sa.Boolean, nullable=False, default=False),  # decided by the venue host
    sa.PrimaryKeyConstraint("tournament_id", "number"),
)
settings = sa.Table(
    "settings", metadata,
    sa.Column("name", sa.String(64), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)


profiles = sa.Table(  # venue player profiles: the id is public, the key only its phones know
    "profiles", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("key_hash", sa.String(64), nullable=False, unique=True),  # sha256 of the key
    sa.Column("created_at", sa.Float, nullable=False),
)
current_profiles = sa.Table(  # no longer written: results carry their seats' profiles (kept: a migration made it)
    "current_profiles", metadata,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("seats", sa.Text, nullable=False),  # JSON {"1": "p-...", ...}
)
used_tickets = sa.Table(  # seat tickets redeemed (gametable/venue/tickets.py): each for one game only
    "used_tickets", metadata,
    sa.Column("nonce", sa.String(32), primary_key=True),
    sa.Column("game_key", sa.String(200), nullable=False),
    sa.Column("used_at", sa.Float, nullable=False),
)


operator_log = sa.Table(  # what the venue host changed by hand (gametable/venue/operator.py), newest last
    "operator_log", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("action", sa.String(32), nullable=False),
    sa.Column("subject", sa.String(200), nullable=False),
    sa.Column("detail", sa.Text, nullable=False),  # JSON
    sa.Column("staff", sa.String(200)),  # who made it: "owner" or a staff key's name (none before schema 6: the owner)
)
staff_keys = sa.Table(  # per-staff venue host keys (gametable/venue/staff.py): only each key's sha256 is kept
    "staff_keys", metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("key_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("revoked_at", sa.Float),
)


OWNER = "owner"  # the venue's own host key, as the operator log names it (gametable/venue/staff.py)


def log_change(conn: Connection, at: float, action: str, subject: str, staff: str, **detail: Any) -> None:
    """One line of the operator log: what the venue host (``staff``: "owner" or a staff key's name)
    changed by hand, in the transaction that changed it."""
    conn.execute(operator_log.insert().values(at=at, action=action, subject=subject, staff=staff,
                                              detail=json.dumps(detail, sort_keys=True)))


def _v1(conn: Connection) -> None:
    for table in (games, results, current_games):
        table.create(conn)


def _v2(conn: Connection) -> None:
    for table in (tournaments, matches, settings):
        table.create(conn)


def _v3(conn: Connection) -> None:
    for table in (profiles, current_profiles):
        table.create(conn)


def _v4(conn: Connection) -> None:
    used_tickets.create(conn)


def _v5(conn: Connection) -> None:
    if "voided_at" not in {c["name"] for c in sa.inspect(conn).get_columns("games")}:  # (v1 made it on a new database)
        conn.execute(sa.text("ALTER TABLE games ADD COLUMN voided_at FLOAT"))
    operator_log.create(conn)


def _v6(conn: Connection) -> None:
    if "staff" not in {c["name"] for c in sa.inspect(conn).get_columns("operator_log")}:  # (v5 made it on a new database)
        conn.execute(sa.text("ALTER TABLE operator_log ADD COLUMN staff VARCHAR(200)"))
    staff_keys.create(conn)


MIGRATIONS: list[Callable[[Connection], None]] = [_v1, _v2, _v3, _v4, _v5, _v6]


MIGRATION_LOCK = 0x6761_6D65_7461  # PostgreSQL advisory lock key of the venue's migrations ("gameta")


def _lock_for_migration(conn: Connection) -> None:
    """Hold the database's write lock until this transaction ends, before reading the schema version.

    PostgreSQL: a transaction-scoped advisory lock (a second service waits, then finds the schema
    migrated). SQLite: ``BEGIN IMMEDIATE`` takes the write lock at once (Python's sqlite3 would
    otherwise run each ``CREATE TABLE`` on its own, outside any transaction); the second service
    waits up to the driver's busy timeout (5 s).
    """
    dialect = conn.dialect.name
    if dialect == "postgresql":
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
    elif dialect == "sqlite":
        conn.exec_driver_sql("BEGIN IMMEDIATE")
    else:
        raise ValueError(f"venue database {dialect!r}: only SQLite and PostgreSQL are supported")


def _with_driver(url: str) -> sa.URL:
    """A plain ``postgresql://`` URL uses psycopg 3 (the ``venue-pg`` extra), not SQLAlchemy's
    default psycopg2; a URL naming its driver keeps it."""
    parsed = sa.make_url(url)
    return parsed.set(drivername="postgresql+psycopg") if parsed.drivername == "postgresql" else parsed


BOT_PREFIX = "bot:"  # a bot's results: stored (the game's record is whole), never in the league
REMOVED_PREFIX = "removed:"  # a deleted person's results: kept anonymous, never in the league


def player_id(name: str) -> str:
    """Who a result belongs to: one spelling per person whatever the case or spaces."""
    return " ".join(name.split()).casefold()


def is_bot(player: str) -> bool:
    """Out of the league: a bot, or a person the venue host deleted (anonymous results)."""
    return player.startswith((BOT_PREFIX, REMOVED_PREFIX))


@dataclass(frozen=True)
class StoredResult:
    game_id: int
    key: str
    table_id: str
    game: str
    mode: str | None
    finished_at: float
    player: str
    name: str
    seat: int
    team: str | None
    rank: int


class Store:
    def __init__(self, url: str) -> None:
        self.engine: Engine = sa.create_engine(_with_driver(url))
        self.migrate()

    def migrate(self) -> int:
        """Run the migrations this database has not had; returns its schema version."""
        with self.engine.begin() as conn:
            _lock_for_migration(conn)
            if not sa.inspect(conn).has_table("schema_version"):
                schema_version.create(conn)
                conn.execute(schema_version.insert().values(version=0))
            done = conn.execute(sa.select(schema_version.c.version)).scalar_one()
            for step in MIGRATIONS[done:]:
                step(conn)
            conn.execute(schema_version.update().values(version=len(MIGRATIONS)))
        return len(MIGRATIONS)

    def begin_game(self, table_id: str, key: str) -> None:
        """A table's new game, by its key (the table's current game)."""
        try:
            with self.engine.begin() as conn:
                conn.execute(current_games.delete().where(current_games.c.table_id == table_id))
                conn.execute(current_games.insert().values(table_id=table_id, key=key))
        except sa.exc.IntegrityError:  # a second service behind this database wrote the same a moment before
            pass

    @staticmethod
    def _named(conn: Connection, seats: dict[int, str]) -> dict[int, tuple[str, str]]:
        """Seat -> (profile id, profile name) for the seats whose profile exists."""
        names = {r.id: r.name for r in conn.execute(sa.select(profiles.c.id, profiles.c.name)
                                                    .where(profiles.c.id.in_(list(seats.values()))))}
        return {seat: (pid, names[pid]) for seat, pid in seats.items() if pid in names}

    def current_key(self, table_id: str) -> str | None:
        with self.engine.connect() as conn:
            return self._current_key(conn, table_id)

    @staticmethod
    def _current_key(conn: Connection, table_id: str) -> str | None:
        return conn.execute(sa.select(current_games.c.key)
                            .where(current_games.c.table_id == table_id)).scalar_one_or_none()

    def record(self, key: str, table_id: str, outcome: Outcome, state: dict[str, Any], finished_at: float,
               seat_profiles: dict[int, str], bots: frozenset[int] = frozenset()) -> bool:
        """Store a finished game once; False when its key is stored already (a bridge's redelivery,
        the table's answer seen twice, a second venue service). ``seat_profiles``: the profiles the
        seats' tickets prove; ``bots``: the seats a bot played (their results are the bot's, kept
        out of the league)."""
        try:
            with self.engine.begin() as conn:
                if conn.execute(sa.select(games.c.id).where(games.c.key == key)).first() is not None:
                    return False
                inserted = conn.execute(games.insert().values(
                    key=key, table_id=table_id, game=outcome.game, mode=outcome.mode, finished_at=finished_at,
                    draw=outcome.draw, state=json.dumps(state, sort_keys=True))).inserted_primary_key
                game_id = inserted[0] if inserted is not None else None
                bound = self._named(conn, seat_profiles)
                conn.execute(results.insert(), [
                    {"game_id": game_id, "seat": p.seat,
                     "player": BOT_PREFIX + player_id(p.name) if p.seat in bots and p.seat not in bound
                     else bound.get(p.seat, (player_id(p.name),))[0],
                     "name": bound[p.seat][1] if p.seat in bound else p.name,
                     "team": p.team, "rank": p.rank} for p in outcome.players])
        except sa.exc.IntegrityError:  # the other service stored it a moment before us
            return False
        return True

    def results(self, game: str | None = None, player: str | None = None,
                between: tuple[float, float] | None = None) -> Iterator[StoredResult]:
        """Every stored result, oldest game first (the order ratings are computed in); ``between``:
        only games finished from its first time up to, not including, its second (a season)."""
        query = (sa.select(games.c.id, games.c.key, games.c.table_id, games.c.game, games.c.mode,
                           games.c.finished_at, results.c.player, results.c.name, results.c.seat,
                           results.c.team, results.c.rank)
                 .join(results, results.c.game_id == games.c.id).where(games.c.voided_at.is_(None))
                 .order_by(games.c.id, results.c.seat))
        if game is not None:
            query = query.where(games.c.game == game)
        if player is not None:
            query = query.where(results.c.player == player)
        if between is not None:
            query = query.where(games.c.finished_at >= between[0], games.c.finished_at < between[1])
        with self.engine.connect() as conn:
            for row in conn.execute(query):
                yield StoredResult(*row)

    def game_count(self) -> int:
        with self.engine.connect() as conn:
            return conn.execute(sa.select(sa.func.count()).select_from(games)
                                .where(games.c.voided_at.is_(None))).scalar_one()

    def game_names(self) -> list[str]:
        with self.engine.connect() as conn:
            return list(conn.execute(sa.select(games.c.game).distinct().order_by(games.c.game)).scalars())

    def export(self) -> list[dict[str, Any]]:
        """Every finished game with its results (the JSON export)."""
        out: dict[int, dict[str, Any]] = {}
        for r in self.results():
            game = out.setdefault(r.game_id, {"key": r.key, "table": r.table_id, "game": r.game, "mode": r.mode,
                                              "finished_at": r.finished_at, "results": []})
            game["results"].append({"player": r.player, "name": r.name, "seat": r.seat, "team": r.team,
                                    "rank": r.rank})
        return list(out.values())

    # --- settings ------------------------------------------------------------------------------
    def setting(self, name: str, make: Callable[[], str]) -> str:
        """A venue-wide setting, made once (e.g. the venue host's key) and shared by every service."""
        query = sa.select(settings.c.value).where(settings.c.name == name)
        try:
            with self.engine.begin() as conn:
                value = conn.execute(query).scalar_one_or_none()
                if value is None:
                    value = make()
                    conn.execute(settings.insert().values(name=name, value=value))
        except sa.exc.IntegrityError:  # another service made it a moment before: theirs holds
            with self.engine.connect() as conn:
                value = conn.execute(query).scalar_one()
        return str(value)
