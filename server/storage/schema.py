"""The database's schema: Boneyard's ``application_id`` and the migrations that make each version.

A database is at schema version ``n`` (``PRAGMA user_version``) when ``MIGRATIONS[:n]`` ran on it;
:mod:`boneyard.server.storage.db` checks the version when it opens a file and runs the steps it lacks.
"""

from __future__ import annotations

APPLICATION_ID = 0x426F6E79
"""``PRAGMA application_id`` of a Boneyard database ("Bony")."""

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: tables, their seats and the current game's actions; resume tokens; finished games' records.
    (
        f"PRAGMA application_id = {APPLICATION_ID}",
        """CREATE TABLE tables (
            table_id TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            options TEXT NOT NULL,
            turn_seconds INTEGER,
            status TEXT NOT NULL,
            games INTEGER NOT NULL,
            seed TEXT,
            rematch TEXT NOT NULL,
            deadline REAL,
            deadline_move INTEGER
        ) WITHOUT ROWID""",
        """CREATE TABLE seats (
            table_id TEXT NOT NULL,
            seat INTEGER NOT NULL,
            name TEXT,
            bot INTEGER NOT NULL,
            auto INTEGER NOT NULL,
            token TEXT,
            PRIMARY KEY (table_id, seat)
        ) WITHOUT ROWID""",
        """CREATE TABLE sessions (
            token TEXT PRIMARY KEY,
            player_id TEXT NOT NULL,
            name TEXT NOT NULL
        ) WITHOUT ROWID""",
        """CREATE TABLE actions (
            table_id TEXT NOT NULL,
            game INTEGER NOT NULL,
            move INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            action TEXT NOT NULL,
            auto INTEGER NOT NULL,
            PRIMARY KEY (table_id, game, move)
        ) WITHOUT ROWID""",
        """CREATE TABLE records (
            record_id TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            record TEXT NOT NULL
        )""",
    ),
    # 2: when each game finished, so that exports come out in the order games ended.
    (
        "ALTER TABLE records ADD COLUMN finished REAL NOT NULL DEFAULT 0",
        "CREATE INDEX records_by_finish ON records (finished)",
    ),
    # 3: a seat's turn timeouts in a row; a session's last seq and message log, kept over a graceful
    # restart so that a resume after it replays exactly what was missed.
    (
        "ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE sessions ADD COLUMN seq INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE sessions ADD COLUMN log BLOB",
    ),
    # 4: a table's bot delay, as its creator set it (NULL: the server's setting).
    ("ALTER TABLE tables ADD COLUMN bot_delay_ms INTEGER",),
    # 5: the record id of the last game finished at a table (in its description).
    ("ALTER TABLE tables ADD COLUMN record_id TEXT",),
    # 6: fair deals: the current game's deal algorithm (NULL: a game stored before, dealt by the keyed
    # dealer from `seed`), the players' contributed seeds (JSON, by seat) and whether the first deal is
    # made (0: the game still waits for seeds).
    (
        "ALTER TABLE tables ADD COLUMN deal_algorithm TEXT",
        "ALTER TABLE tables ADD COLUMN player_seeds TEXT",
        "ALTER TABLE tables ADD COLUMN dealt INTEGER NOT NULL DEFAULT 1",
    ),
    # 7: who created a table, and a private table's invite code.
    (
        "ALTER TABLE tables ADD COLUMN owner TEXT",
        "ALTER TABLE tables ADD COLUMN invite TEXT",
    ),
    # 8: the level of the bot playing a seat.
    ("ALTER TABLE seats ADD COLUMN level TEXT NOT NULL DEFAULT 'basic'",),
    # 9: exact resumes after a crash: where each action's messages ended in each seated session's
    # numbering (JSON, see boneyard.server.storage.crashlog), and the numbering's epoch (one per connection).
    (
        "ALTER TABLE actions ADD COLUMN ends TEXT",
        "ALTER TABLE sessions ADD COLUMN epoch INTEGER",
    ),
    # 10: a table's pause between hands as its creator set it (NULL: the server's setting), and while it
    # pauses, the seats ready (JSON; NULL: no pause). The pause's end is stored as the turn's deadline.
    (
        "ALTER TABLE tables ADD COLUMN hand_pause_ms INTEGER",
        "ALTER TABLE tables ADD COLUMN hand_ready TEXT",
    ),
    # 11: one row per action, appended: the deadline of the move after an action goes in the action's row
    # (the table's row keeps the deadline of a game's first move), and the rows are kept in the order they
    # were written, found through an index. (Clustered by table, every commit rewrote a page per table that
    # had acted: twice the CPU per action at 300 tables.)
    (
        """CREATE TABLE actions_by_arrival (
            table_id TEXT NOT NULL,
            game INTEGER NOT NULL,
            move INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            action TEXT NOT NULL,
            auto INTEGER NOT NULL,
            ends TEXT,
            deadline REAL
        )""",
        """INSERT INTO actions_by_arrival (table_id, game, move, seat, action, auto, ends)
            SELECT table_id, game, move, seat, action, auto, ends FROM actions
            ORDER BY table_id, game, move""",
        "DROP TABLE actions",
        "ALTER TABLE actions_by_arrival RENAME TO actions",
        "CREATE UNIQUE INDEX actions_by_move ON actions (table_id, game, move)",
    ),
    # 12: accounts (feature accounts): each account by the key of its name (the name rules), its public
    # keys, one-time link codes as their SHA-256 (an operator's recovery code is one); the account a
    # session is signed in to (NULL: a guest). An untimed table's bot seats opened to all (bot_seats).
    # Ratings (feature ratings): a rated table's kind, each player's rating per kind (an account's key or
    # bot-<level>), and each rated game of each player. Players' reports to the operator (moderation).
    (
        """CREATE TABLE accounts (
            key TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            created REAL NOT NULL,
            banned INTEGER NOT NULL DEFAULT 0
        ) WITHOUT ROWID""",
        """CREATE TABLE account_keys (
            public_key TEXT PRIMARY KEY,
            account TEXT NOT NULL,
            added REAL NOT NULL
        ) WITHOUT ROWID""",
        """CREATE TABLE link_codes (
            code_hash TEXT PRIMARY KEY,
            account TEXT NOT NULL,
            expires REAL NOT NULL
        ) WITHOUT ROWID""",
        "ALTER TABLE sessions ADD COLUMN account TEXT",
        "ALTER TABLE tables ADD COLUMN open_bot_seats INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE tables ADD COLUMN rated TEXT",
        """CREATE TABLE ratings (
            player TEXT NOT NULL,
            kind TEXT NOT NULL,
            mu REAL NOT NULL,
            sigma REAL NOT NULL,
            games INTEGER NOT NULL,
            wins INTEGER NOT NULL,
            PRIMARY KEY (player, kind)
        ) WITHOUT ROWID""",
        """CREATE TABLE rated_games (
            player TEXT NOT NULL,
            kind TEXT NOT NULL,
            seat INTEGER NOT NULL,
            record_id TEXT,
            finished REAL NOT NULL,
            before INTEGER NOT NULL,
            after INTEGER NOT NULL,
            won INTEGER NOT NULL
        )""",
        "CREATE INDEX rated_games_by_player ON rated_games (player, finished)",
        """CREATE TABLE reports (
            reporter TEXT NOT NULL,
            account TEXT,
            player TEXT NOT NULL,
            reason TEXT NOT NULL,
            at REAL NOT NULL
        )""",
    ),
    # 13: each account's mutes (the display names whose chat it hides), kept from one sign-in to the next.
    (
        """CREATE TABLE mutes (
            account TEXT NOT NULL,
            muted TEXT NOT NULL,
            PRIMARY KEY (account, muted)
        ) WITHOUT ROWID""",
    ),
    # 14: who left a rated game in progress (JSON, [[seat, account, name], ...]; NULL: nobody), so that a
    # restart does not let them escape its loss (feature ratings).
    ("ALTER TABLE tables ADD COLUMN rated_left TEXT",),
)
"""``MIGRATIONS[n]`` takes a database from schema version ``n`` to ``n + 1``. Append only: a step,
once released, never changes, so that a database written by any older version opens in this one."""

SCHEMA_VERSION = len(MIGRATIONS)
