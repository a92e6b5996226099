//! The games (issue 20): every game's definition is always at hand, its
//! live state only in a bounded cache of the games recently played,
//! loaded on demand from its snapshot. Start-up reads each game's row and
//! its snapshot's due time, no turn log, so a finished game costs a row.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use chrono::{DateTime, Utc};

use super::stored::{restore, Stored};
use super::*;
use crate::mail::classify::{GameInfo, Roster};
use crate::store::{IndexRow, Snapshot};

/// Games kept in memory by default (`[bot] cached_games`).
pub const DEFAULT_CACHED: usize = crate::config::DEFAULT_CACHED;

/// Every game's definition, and the live states of the games recently
/// used.
pub(super) struct Games {
    /// Definitions by tag (upper case).
    pub(super) defs: BTreeMap<String, GameConfigDef>,
    /// Every player's address, lower case.
    addresses: HashSet<String>,
    /// The games as classification needs them.
    pub(super) roster: Arc<Roster>,
    /// Live states of the games recently used.
    cache: RefCell<Lru>,
    /// Players' names by how they look ([`crate::text::look_alike_key`]),
    /// with a name and who it names; built at the first JOIN that asks,
    /// so start-up does not pay for it.
    by_look: RefCell<Option<HashMap<String, (String, Named)>>>,
    /// Hosted games (kinds other than Volume 1) loaded so far.
    pub(super) hosted: RefCell<HashMap<String, super::Hosted>>,
}

/// Who a player's name names, across games: only one address is of use
/// (a name several players share names none of them), so no more are kept.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Named {
    /// One address (as configured).
    One(String),
    /// Players with different addresses.
    Several,
}

impl Named {
    /// Adds `address` for this name.
    fn add(&mut self, address: &str) {
        if matches!(self, Named::One(a) if a != address) {
            *self = Named::Several;
        }
    }
}

/// A least-recently-used cache of live games.
struct Lru {
    capacity: usize,
    /// Tag to (last use, state).
    map: HashMap<String, (u64, Live)>,
    /// Last use to tag, oldest first.
    order: BTreeMap<u64, String>,
    clock: u64,
}

impl Lru {
    fn get(&mut self, tag: &str) -> Option<&Live> {
        self.clock += 1;
        let (used, live) = self.map.get_mut(tag)?;
        self.order.remove(used);
        *used = self.clock;
        self.order.insert(self.clock, tag.to_string());
        Some(live)
    }

    fn put(&mut self, live: Live) {
        self.clock += 1;
        let tag = live.game.tag.clone();
        if let Some((used, _)) = self.map.remove(&tag) {
            self.order.remove(&used);
        }
        self.shrink_to(self.capacity - 1);
        self.order.insert(self.clock, tag.clone());
        self.map.insert(tag, (self.clock, live));
    }
}

impl Lru {
    /// Evicts the least recently used until at most `n` remain.
    fn shrink_to(&mut self, n: usize) {
        while self.map.len() > n {
            let Some((_, oldest)) = self.order.pop_first() else {
                break;
            };
            self.map.remove(&oldest);
        }
    }
}

/// Records how the player `name` at `address` looks.
fn add_look(m: &mut HashMap<String, (String, Named)>, name: &str, address: &str) {
    m.entry(crate::text::look_alike_key(name))
        .and_modify(|(_, n)| n.add(address))
        .or_insert_with(|| (name.to_string(), Named::One(address.to_string())));
}

impl Games {
    fn new(defs: BTreeMap<String, GameConfigDef>, capacity: usize) -> Games {
        let addresses = defs
            .values()
            .flat_map(|d| d.players.iter().map(|p| p.1.to_ascii_lowercase()))
            .collect();
        let roster = Arc::new(Roster::new(defs.iter().map(|(t, d)| GameInfo {
            tag: t.clone(),
            players: d.players.iter().map(|p| p.0.clone()).collect(),
            kind: d.kind,
        })));
        Games {
            defs,
            addresses,
            roster,
            cache: RefCell::new(Lru {
                capacity: capacity.max(1),
                map: HashMap::new(),
                order: BTreeMap::new(),
                clock: 0,
            }),
            by_look: RefCell::new(None),
            hosted: RefCell::new(HashMap::new()),
        }
    }

    /// A player of the lounge whose name `name` can be taken for, other
    /// than the player at `address` emself (issue 40: `Rushtоn` with a
    /// Cyrillic `о` is not a new player but a disguise of Rushton's).
    pub(super) fn look_alike(&self, name: &str, address: &str) -> Option<String> {
        let mut index = self.by_look.borrow_mut();
        let index = index.get_or_insert_with(|| {
            let mut m: HashMap<String, (String, Named)> = HashMap::new();
            for (n, a) in self.defs.values().flat_map(|d| d.players.iter()) {
                add_look(&mut m, n, a);
            }
            m
        });
        let (found, named) = index.get(&crate::text::look_alike_key(name))?;
        match named {
            Named::One(a) if a.eq_ignore_ascii_case(address) => None,
            _ => Some(found.clone()),
        }
    }

    /// Gives every other cached game the Gambits game `tag` declared: they
    /// join the lounge's registry at once (Rule 1.18.2, RULINGS E111).
    pub(super) fn share_gambits(&self, tag: &str, gambits: &[crate::kinds::vol1::Gambit]) {
        for (t, (_, live)) in self.cache.borrow_mut().map.iter_mut() {
            if t != tag {
                live.game.start.gambits.lounge.extend_from_slice(gambits);
                live.game.state.gambits.lounge.extend_from_slice(gambits);
            }
        }
    }

    /// Whether `address` is a player's in any game.
    pub(super) fn is_registered(&self, address: &str) -> bool {
        self.addresses.contains(&address.to_ascii_lowercase())
    }

    /// Adds a game started since the lounge was loaded (by mail, issue
    /// 17): its definition, its players' addresses and names, the roster.
    pub(super) fn add(&mut self, tag: String, def: GameConfigDef) {
        for (name, address) in &def.players {
            self.addresses.insert(address.to_ascii_lowercase());
            if let Some(m) = self.by_look.get_mut().as_mut() {
                add_look(m, name, address);
            }
        }
        self.defs.insert(tag, def);
        self.roster = Arc::new(Roster::new(self.defs.iter().map(|(t, d)| GameInfo {
            tag: t.clone(),
            players: d.players.iter().map(|p| p.0.clone()).collect(),
            kind: d.kind,
        })));
    }

    /// Keeps `live` as its game's state.
    pub(super) fn put(&self, live: Live) {
        self.cache.borrow_mut().put(live);
    }

    /// Keeps `h` as its hosted game's state: at most `[bot] cached_games`
    /// of them, another one dropped to make room (it is loaded again from
    /// its snapshot when next needed).
    pub(super) fn put_hosted(&self, h: super::Hosted) {
        let capacity = self.cache.borrow().capacity;
        let mut hosted = self.hosted.borrow_mut();
        if hosted.len() >= capacity && !hosted.contains_key(&h.def.tag) {
            if let Some(k) = hosted.keys().next().cloned() {
                hosted.remove(&k);
            }
        }
        hosted.insert(h.def.tag.clone(), h);
    }

    /// Empties the cache: each game is loaded again when next needed.
    pub(super) fn forget_all(&self) {
        self.hosted.borrow_mut().clear();
        self.cache.borrow_mut().shrink_to(0);
    }

    /// How many live states are cached.
    pub(super) fn cached(&self) -> usize {
        self.cache.borrow().map.len()
    }
}

impl Referee {
    /// Loads the lounge: records any configured game not yet stored (one
    /// transaction), then reads every game's definition and schedules it
    /// from its snapshot's due time. A game with no snapshot, or one that
    /// no longer matches its log or the Speaker's settings, is loaded
    /// (replayed when it must be) and its snapshot written.
    ///
    /// # Errors
    ///
    /// [`RefereeError::Game`] when a configured game is invalid or a stored
    /// one does not rebuild; [`RefereeError::Store`] when the database
    /// fails.
    pub fn load(
        map: &'static Map,
        me: Identity,
        speaker: SpeakerConfig,
        configured: &[GameConfig],
        store: &mut Store,
        now: DateTime<Utc>,
    ) -> Result<Referee, RefereeError> {
        let mut new = Vec::with_capacity(configured.len());
        let mut pictures = HashMap::with_capacity(configured.len());
        for g in configured {
            let def = Definition {
                config: GameConfigDef::from(g),
            };
            def.config.check(map).map_err(|detail| RefereeError::Game {
                tag: g.tag.clone(),
                detail,
            })?;
            let tag = g.tag.to_uppercase();
            pictures.insert(tag.clone(), g.picture);
            new.push((tag, serde_json::to_string(&def).expect("serialisable")));
        }
        store.ensure_games(&new, now)?;
        drop(new);
        let due_key = snapshot::due_key(&speaker);
        let mut defs = BTreeMap::new();
        let mut due = Vec::new();
        let mut stale = Vec::new();
        let mut changed = Vec::new();
        for row in store.index()? {
            let mut def = serde_json::from_str::<Definition>(&row.game.definition)
                .map_err(|e| RefereeError::Game {
                    tag: row.game.tag.clone(),
                    detail: e.to_string(),
                })?
                .config;
            // Presentation, not a rule of the game: the configuration's
            // current choice holds, and is recorded (an unchanged games
            // file is not read again).
            if let Some(p) = pictures.get(&row.game.tag) {
                if def.picture != *p {
                    def.picture = *p;
                    let json = serde_json::to_string(&Definition {
                        config: def.clone(),
                    });
                    changed.push((row.game.tag.clone(), json.expect("serialisable")));
                }
            }
            match fresh(&row, &due_key, def.snapshot_version()) {
                Some(at) => due.extend(at.map(|t| (t, row.game.tag.clone()))),
                None => stale.push(row.game.tag.clone()),
            }
            defs.insert(row.game.tag, def);
        }
        store.set_definitions(&changed)?;
        let mut r = Referee {
            map,
            me,
            games: Games::new(defs, DEFAULT_CACHED),
            speaker,
            due_key,
            agenda: Default::default(),
            due: Default::default(),
            limits: LimitsConfig::default(),
            stopwatch: monotonic(),
            lobby: None,
            absence: crate::config::AbsenceConfig::default(),
            rules_url: None,
            quota: Default::default(),
        };
        for (t, tag) in due {
            r.due.insert(tag.clone(), t);
            r.agenda.insert((t, tag));
        }
        if !stale.is_empty() {
            tracing::info!(
                games = stale.len(),
                "loading games without a current snapshot"
            );
        }
        let mut rows = Vec::with_capacity(stale.len().min(1000));
        for tag in &stale {
            if r.is_hosted(tag) {
                let h = r.hosted(store, tag)?;
                rows.push(r.hosted_snapshot(&h));
                r.reschedule_hosted(&h);
                continue;
            }
            let live = r.live(store, tag)?;
            rows.push(r.snapshot_row(&live));
            r.reschedule_live(&live);
            if rows.len() == 1000 {
                store.put_snapshots(&rows)?;
                rows.clear();
            }
        }
        store.put_snapshots(&rows)?;
        Ok(r)
    }

    /// Sets how many games' live states are kept in memory (`[bot]
    /// cached_games`; at least one).
    pub fn set_cached_games(&mut self, n: usize) {
        let mut cache = self.games.cache.borrow_mut();
        cache.capacity = n.max(1);
        let keep = cache.capacity;
        cache.shrink_to(keep);
    }

    /// How many games' live states are in memory now.
    pub fn cached_games(&self) -> usize {
        self.games.cached()
    }

    /// The tags of every game, in order.
    pub fn tags(&self) -> impl Iterator<Item = &String> {
        self.games.defs.keys()
    }

    /// Whether there is a game `tag` (upper case).
    pub fn has_game(&self, tag: &str) -> bool {
        self.games.defs.contains_key(tag)
    }

    /// A copy of game `tag` (upper case) as it stands, from the cache, or
    /// loaded from its snapshot (or by replay when the snapshot does not
    /// fit its log) and cached.
    ///
    /// # Errors
    ///
    /// [`RefereeError::Game`] when there is no such game or it does not
    /// rebuild; [`RefereeError::Store`] when the database fails.
    pub fn live(&self, store: &Store, tag: &str) -> Result<Live, RefereeError> {
        if let Some(live) = self.games.cache.borrow_mut().get(tag) {
            return Ok(live.clone());
        }
        let missing = || RefereeError::Game {
            tag: tag.to_string(),
            detail: "no such game".into(),
        };
        let def = self.games.defs.get(tag).ok_or_else(missing)?;
        if !def.is_vol1() {
            return Err(RefereeError::Game {
                tag: tag.to_string(),
                detail: format!("a game of {}, not of Volume 1", def.kind),
            });
        }
        let row = store.game(tag)?.ok_or_else(missing)?;
        let snap = store.snapshot(tag)?;
        let (stored, _) = restore(self.map, store, &row, snap.as_ref())?;
        let live = live_of(stored, def.picture, store)?;
        self.games.put(live.clone());
        Ok(live)
    }
}

/// When a game whose snapshot is current is next due (`Some(None)`: never),
/// or `None` when its snapshot is missing or not current.
/// `version` is the encoding the game's snapshot must have: Volume 1's, or
/// its kind's.
fn fresh(row: &IndexRow, due_key: &str, version: &str) -> Option<Option<DateTime<Utc>>> {
    let Snapshot {
        row: s,
        turns,
        last_event,
    } = row.snapshot.as_ref()?;
    let current = s.version == version
        && s.due_key == due_key
        && (*turns, *last_event) == (row.turns, row.last_event);
    current.then_some(s.due_at)
}

/// The live game of a stored one: the Speaker's view folded from its
/// events, and whether this turn's reminder went out.
fn live_of(stored: Stored, picture: bool, store: &Store) -> Result<Live, RefereeError> {
    let Stored {
        mut def,
        game,
        turns,
        events,
        created_at,
        acks,
        ended,
    } = stored;
    def.picture = picture;
    let n_turns = turns.len();
    let (pending, paused) = speaker::load(&events, n_turns);
    let (questionable, held, resumed_at) = buzz::load(&events);
    let reminded = store.timer_done(&game.tag, "reminder", &(n_turns + 1).to_string())?;
    let dice = dice::seed_of(store, &game.tag)?;
    let absences = super::absence::load(&events);
    let mut live = Live {
        def,
        game,
        turns,
        created_at,
        questionable,
        held,
        resumed_at,
        acks,
        reminded_for: reminded.then_some(n_turns as u64 + 1),
        ended,
        pending,
        paused,
        dice,
        absences,
        late: Default::default(),
    };
    super::late::load(store, &mut live, &events)?;
    Ok(live)
}
