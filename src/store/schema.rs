//! The database's schema: its tables, and the version this build writes.

pub(super) const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    tag TEXT PRIMARY KEY,
    definition TEXT NOT NULL,        -- JSON: start time and players
    created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS turns (
    game TEXT NOT NULL REFERENCES games(tag),
    n INTEGER NOT NULL,              -- 1-based turn number
    player TEXT NOT NULL,
    play TEXT NOT NULL,              -- the canonical play line
    message_id TEXT NOT NULL,
    submitted_at INTEGER NOT NULL,   -- ms since the epoch, when the server received it
    PRIMARY KEY (game, n)
);
CREATE TABLE IF NOT EXISTS processed (
    message_id TEXT PRIMARY KEY,
    source TEXT NOT NULL,            -- mailbox name, or "maildir"
    uidvalidity INTEGER,
    uid INTEGER,
    received_at INTEGER NOT NULL,
    game TEXT,
    kind TEXT NOT NULL,
    summary TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS processed_uid ON processed (source, uidvalidity, uid);
CREATE TABLE IF NOT EXISTS mailboxes (
    source TEXT PRIMARY KEY,
    uidvalidity INTEGER NOT NULL,
    last_uid INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY,
    message_id TEXT NOT NULL UNIQUE,
    envelope_from TEXT NOT NULL,
    recipients TEXT NOT NULL,        -- comma-separated
    raw BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    attempt_started_at INTEGER,      -- set while a delivery is under way
    sent_at INTEGER,
    last_error TEXT
);
CREATE INDEX IF NOT EXISTS outbox_due ON outbox (sent_at, next_attempt_at);
CREATE TABLE IF NOT EXISTS outbox_pictures (
    message_id TEXT PRIMARY KEY REFERENCES outbox(message_id),
    owed TEXT NOT NULL               -- JSON: the reply and the scene of the picture drawn when it is sent
);
CREATE INDEX IF NOT EXISTS outbox_created ON outbox (created_at);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    at INTEGER NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL               -- JSON
);
CREATE INDEX IF NOT EXISTS events_game ON events (game, id);
CREATE TABLE IF NOT EXISTS snapshots (
    game TEXT PRIMARY KEY REFERENCES games(tag),
    version TEXT NOT NULL,           -- the encoding's version: another is rebuilt by replay
    turns INTEGER NOT NULL,          -- the turns folded (the log's last n)
    last_event INTEGER NOT NULL,     -- the game's last event id folded, 0 for none
    due_key TEXT NOT NULL,           -- the Speaker settings due_at was computed under
    due_at INTEGER,                  -- ms since the epoch: when the Speaker next owes the game
    state TEXT NOT NULL              -- JSON: the game's state after its last turn
);
-- Start-up reads every snapshot's head, not its state: from this index
-- alone (8 MB at 100,000 games) rather than from the table's rows (200 MB).
CREATE INDEX IF NOT EXISTS snapshots_head
    ON snapshots (game, version, turns, last_event, due_key, due_at);
CREATE TABLE IF NOT EXISTS quarantine (
    id INTEGER PRIMARY KEY,
    message_id TEXT NOT NULL,
    source TEXT NOT NULL,
    uidvalidity INTEGER,
    uid INTEGER,
    at INTEGER NOT NULL,             -- ms since the epoch, when it was set aside
    reason TEXT NOT NULL,
    raw BLOB NOT NULL                -- the mail as received (its head, when too large)
);
CREATE TABLE IF NOT EXISTS timers (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    due_at INTEGER NOT NULL,
    done_at INTEGER,
    UNIQUE (game, kind, key)
);
-- The bot's dice (RULINGS S14): each game's secret seed, kept here alone
-- until the game ends, and every draw made from it.
CREATE TABLE IF NOT EXISTS dice (
    game TEXT PRIMARY KEY REFERENCES games(tag),
    seed TEXT NOT NULL,              -- 64 hex digits: secret until revealed_at
    commitment TEXT NOT NULL,        -- hex SHA-256 of the seed's bytes
    created_at INTEGER NOT NULL,
    published_at INTEGER,            -- when the commitment was queued to the lounge
    revealed_at INTEGER              -- when the seed was queued to the lounge
);
CREATE INDEX IF NOT EXISTS dice_unpublished ON dice (game) WHERE published_at IS NULL;
CREATE TABLE IF NOT EXISTS draws (
    game TEXT NOT NULL REFERENCES games(tag),
    turn INTEGER NOT NULL,
    name TEXT NOT NULL,
    sides INTEGER NOT NULL,
    value INTEGER NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (game, turn, name)   -- a draw is made once: a retry finds it
);
-- Gambits declared by legal Declaractions (Rule 1.18.2, RULINGS E111): kept
-- after their game ends, given to every game of the lounge.
CREATE TABLE IF NOT EXISTS gambits (
    game TEXT NOT NULL,
    turn INTEGER NOT NULL,           -- the turn that declared it: taken back with it
    name TEXT NOT NULL,
    data TEXT NOT NULL,              -- JSON: the Gambit (name, cost, steps, who)
    at INTEGER NOT NULL,
    PRIMARY KEY (game, turn, name)
);
-- Stalemate agreements standing (Rule 1.1.11, RULINGS S22): one a player,
-- for the log as it was (its length and last turn) when made.
CREATE TABLE IF NOT EXISTS stalemate (
    game TEXT NOT NULL REFERENCES games(tag),
    player TEXT NOT NULL,
    turns INTEGER NOT NULL,
    last TEXT NOT NULL,              -- Message-ID of the log's last turn then, '' for none
    at INTEGER NOT NULL,
    PRIMARY KEY (game, player)
);
-- Each ended game once (Rules 1.1.5, 1.1.9): the key that keeps its Points
-- from being awarded twice.
CREATE TABLE IF NOT EXISTS endings (
    game TEXT PRIMARY KEY REFERENCES games(tag),
    outcome TEXT NOT NULL,           -- won | stalemate
    winner TEXT,
    turns INTEGER NOT NULL,
    at INTEGER NOT NULL
);
-- The Points ledger (Rule 1.1.9, RULINGS S23 - S24): what each ended game
-- gave or took from each of its players.
CREATE TABLE IF NOT EXISTS points (
    game TEXT NOT NULL REFERENCES endings(game),
    player TEXT NOT NULL,            -- as the game named em
    pkey TEXT NOT NULL,              -- the name, case folded: one player across games
    delta INTEGER NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (game, pkey)
);
-- The lobby (issue 17, RULINGS S16): games created by mail, until they
-- start (then they are in games too), and who asked to join them.
CREATE TABLE IF NOT EXISTS lobby (
    tag TEXT PRIMARY KEY,
    creator TEXT NOT NULL,           -- the address that created it
    players INTEGER NOT NULL,        -- how many players it takes
    start TEXT NOT NULL,             -- Game Time at the start
    rulings TEXT NOT NULL,           -- JSON: the house rulings
    created_at INTEGER NOT NULL,
    started_at INTEGER               -- when START made it a game
);
CREATE TABLE IF NOT EXISTS lobby_joins (
    tag TEXT NOT NULL REFERENCES lobby(tag),
    address TEXT NOT NULL,           -- lower case: the join counts from here alone
    name TEXT NOT NULL,
    asked_at INTEGER NOT NULL,       -- ms since the epoch: the token binds it
    confirmed_at INTEGER,            -- when CONFIRM came back from the address
    PRIMARY KEY (tag, address)
);
-- Requests to join that ended without a game (issue 39): left, replaced by
-- a later JOIN from the address, or their game cancelled. Kept so that a
-- late CONFIRM, whose token still matches one, is told which.
CREATE TABLE IF NOT EXISTS lobby_closed (
    tag TEXT NOT NULL,
    address TEXT NOT NULL,
    name TEXT NOT NULL,
    asked_at INTEGER NOT NULL,       -- as in lobby_joins: the token binds it
    why TEXT NOT NULL,               -- left | replaced | cancelled
    closed_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS lobby_closed_address ON lobby_closed (address);
-- Lobby games cancelled before their start (RULINGS S35), by tag: the tag
-- is free again, but a JOIN naming it is told the game was cancelled.
CREATE TABLE IF NOT EXISTS lobby_cancelled (
    tag TEXT NOT NULL,
    cancelled_at INTEGER NOT NULL
);
"#;

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = 1;
