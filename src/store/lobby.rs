//! The lobby (issue 17, RULINGS S16): games created by mail and not yet
//! started, and who asked to join them. A game leaves the lobby at its
//! start, recorded in `games` like any configured game (with its dice),
//! in the commit of the `START` mail.

use super::*;

/// A game in the lobby.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LobbyRow {
    /// The tag, upper case.
    pub tag: String,
    /// The address that created it.
    pub creator: String,
    /// How many players it takes (besides the Drone).
    pub players: u8,
    /// Game Time at the start.
    pub start: String,
    /// The house rulings, as JSON.
    pub rulings: String,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// When it started, if it has.
    pub started_at: Option<DateTime<Utc>>,
}

/// A request to join a lobby game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JoinRow {
    /// The game.
    pub tag: String,
    /// The address that asked, lower case.
    pub address: String,
    /// The name asked for.
    pub name: String,
    /// When it asked (the token binds it).
    pub asked_at: DateTime<Utc>,
    /// When it was confirmed, if it was.
    pub confirmed_at: Option<DateTime<Utc>>,
}

/// A change to the lobby, made in a [`Commit`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LobbyOp {
    /// A new game in the lobby.
    Create(LobbyRow),
    /// A request to join (replacing the address's earlier, unconfirmed one).
    Ask {
        /// The game.
        tag: String,
        /// The address.
        address: String,
        /// The name.
        name: String,
        /// When it asked.
        at: DateTime<Utc>,
    },
    /// A join confirmed.
    Confirm {
        /// The game.
        tag: String,
        /// The address.
        address: String,
    },
    /// A join withdrawn.
    Leave {
        /// The game.
        tag: String,
        /// The address.
        address: String,
    },
    /// The game starts: recorded in `games` with its definition, and its
    /// dice (whose commitment the lounge was told at its creation).
    Start {
        /// The game.
        tag: String,
        /// Its definition, JSON.
        definition: String,
        /// Its dice seed, 64 hex digits.
        seed: String,
        /// The seed's commitment.
        commitment: String,
    },
    /// The game is cancelled before its start: it leaves the lobby with its
    /// joins (RULINGS S35).
    Cancel {
        /// The game.
        tag: String,
    },
}

fn lobby_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<LobbyRow> {
    Ok(LobbyRow {
        tag: r.get(0)?,
        creator: r.get(1)?,
        players: r.get(2)?,
        start: r.get(3)?,
        rulings: r.get(4)?,
        created_at: from_ms(r.get(5)?),
        started_at: r.get::<_, Option<i64>>(6)?.map(from_ms),
    })
}

fn join_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<JoinRow> {
    Ok(JoinRow {
        tag: r.get(0)?,
        address: r.get(1)?,
        name: r.get(2)?,
        asked_at: from_ms(r.get(3)?),
        confirmed_at: r.get::<_, Option<i64>>(4)?.map(from_ms),
    })
}

impl Store {
    /// Lobby game `tag` (upper case), started or not.
    pub fn lobby_game(&self, tag: &str) -> Result<Option<LobbyRow>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT tag, creator, players, start, rulings, created_at, started_at
                 FROM lobby WHERE tag = ?1",
            )?
            .query_row(params![tag], lobby_row)
            .optional()?)
    }

    /// The lobby games not yet started, by tag.
    pub fn lobby_open(&self) -> Result<Vec<LobbyRow>> {
        let mut st = self.conn.prepare_cached(
            "SELECT tag, creator, players, start, rulings, created_at, started_at
             FROM lobby WHERE started_at IS NULL ORDER BY tag",
        )?;
        let rows = st.query_map([], lobby_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Every request to join game `tag`, oldest first.
    pub fn lobby_joins(&self, tag: &str) -> Result<Vec<JoinRow>> {
        let mut st = self.conn.prepare_cached(
            "SELECT tag, address, name, asked_at, confirmed_at FROM lobby_joins
             WHERE tag = ?1 ORDER BY asked_at, address",
        )?;
        let rows = st.query_map(params![tag], join_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The unconfirmed requests to join from `address`, oldest first.
    pub fn lobby_asks_from(&self, address: &str) -> Result<Vec<JoinRow>> {
        let mut st = self.conn.prepare_cached(
            "SELECT tag, address, name, asked_at, confirmed_at FROM lobby_joins
             WHERE address = ?1 AND confirmed_at IS NULL ORDER BY asked_at, tag",
        )?;
        let rows = st.query_map(params![address], join_row)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}

/// Writes a commit's lobby changes (before its draws: a started game's
/// row must exist when its order's draw is recorded).
pub(super) fn commit(tx: &rusqlite::Transaction<'_>, c: &Commit, now: DateTime<Utc>) -> Result<()> {
    for op in &c.lobby {
        match op {
            LobbyOp::Create(g) => {
                tx.execute(
                    "INSERT INTO lobby (tag, creator, players, start, rulings, created_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![
                        g.tag,
                        g.creator,
                        g.players,
                        g.start,
                        g.rulings,
                        ms(g.created_at)
                    ],
                )?;
            }
            LobbyOp::Ask {
                tag,
                address,
                name,
                at,
            } => {
                tx.execute(
                    "INSERT INTO lobby_joins (tag, address, name, asked_at) VALUES (?1, ?2, ?3, ?4)
                     ON CONFLICT (tag, address) DO UPDATE SET name = ?3, asked_at = ?4
                     WHERE confirmed_at IS NULL",
                    params![tag, address, name, ms(*at)],
                )?;
            }
            LobbyOp::Confirm { tag, address } => {
                tx.execute(
                    "UPDATE lobby_joins SET confirmed_at = ?3
                     WHERE tag = ?1 AND address = ?2 AND confirmed_at IS NULL",
                    params![tag, address, ms(now)],
                )?;
            }
            LobbyOp::Leave { tag, address } => {
                tx.execute(
                    "DELETE FROM lobby_joins WHERE tag = ?1 AND address = ?2",
                    params![tag, address],
                )?;
            }
            LobbyOp::Start {
                tag,
                definition,
                seed,
                commitment,
            } => {
                tx.execute(
                    "UPDATE lobby SET started_at = ?2 WHERE tag = ?1",
                    params![tag, ms(now)],
                )?;
                tx.execute(
                    "INSERT INTO games (tag, definition, created_at) VALUES (?1, ?2, ?3)",
                    params![tag, definition, ms(now)],
                )?;
                tx.execute(
                    "INSERT OR IGNORE INTO dice (game, seed, commitment, created_at, published_at)
                     VALUES (?1, ?2, ?3, ?4, ?4)",
                    params![tag, seed, commitment, ms(now)],
                )?;
            }
            LobbyOp::Cancel { tag } => {
                tx.execute("DELETE FROM lobby_joins WHERE tag = ?1", params![tag])?;
                tx.execute(
                    "DELETE FROM lobby WHERE tag = ?1 AND started_at IS NULL",
                    params![tag],
                )?;
            }
        }
    }
    Ok(())
}
