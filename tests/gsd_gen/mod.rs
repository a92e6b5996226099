//! Random canonical GSDs and games for the property tests of issue 39
//! (`tests/gsd_layouts_prop.rs`, `tests/gsd_mail_roundtrip.rs`).
//!
//! [`gsd`] draws a typed [`Gsd`] that the engine accepts
//! (`GameState::from_gsd`): players whose names carry accents, apostrophes,
//! hyphens, digits and several words, token counts, Homes, LV and Charge,
//! every kind of box, and Plays of every form (Bifurcated Moves, Passes
//! with a position, escalators, `via:` lists, the Actions of the index,
//! directives and long prose comments). Its canonical text is
//! `mornbot::gsd::render`, the renderer mornbot writes its own GSDs with.
//!
//! [`legal_play`] draws a Play the engine judges Legal in a state: a game
//! is a fold of them, as the daemon keeps it.
#![allow(dead_code)]

use chrono::Weekday;
use mornbot::engine::{adjudicate, GameState, Verdict};
use mornbot::gsd::{
    parse_action, Action, Colour, Comment, Courier, Disruption, GameTime, Good, Gsd, Hat, Item,
    LineState, Luggage, Marked, Move, Place, Play, PlayItem, PlayerRow, Possession, Quality, Stack,
    StackMarker, StationMark, Target, Tokens, GOODS, SPECS,
};
use mornbot::map::{LineCode, Map, StationId};
use proptest::prelude::*;
use proptest::sample::select;

pub fn map() -> &'static Map {
    Map::london_1999()
}

/// Players' names as people have them: accents (some outside
/// Windows-1252), apostrophes, hyphens, several words, a digit, a title.
pub const NAMES: [&str; 16] = [
    "Rushton",
    "Cryer",
    "Brooke-Taylor",
    "O'Neill",
    "D'Arcy",
    "Zoë Lyons",
    "Jürgen",
    "Dáithí",
    "Søren",
    "Łucja",
    "Renée Côté",
    "Mx Lee",
    "Henry VIII",
    "Zed 2",
    "Dr. Who",
    "Siân",
];

pub fn station() -> impl Strategy<Value = String> {
    let names: Vec<String> = map().stations().iter().map(|s| s.name.clone()).collect();
    select(names)
}

pub fn line() -> impl Strategy<Value = LineCode> {
    select(LineCode::ALL.to_vec())
}

pub fn day() -> impl Strategy<Value = Weekday> {
    select(vec![
        Weekday::Mon,
        Weekday::Tue,
        Weekday::Wed,
        Weekday::Thu,
        Weekday::Fri,
        Weekday::Sat,
        Weekday::Sun,
    ])
}

pub fn colour() -> impl Strategy<Value = Colour> {
    select(Colour::ALL.to_vec())
}

/// Words of prose comments: some accented, some with apostrophes.
const WORDS: [&str; 32] = [
    "the",
    "Central",
    "line",
    "was",
    "closed",
    "again",
    "so",
    "I",
    "went",
    "round",
    "by",
    "way",
    "of",
    "Bank,",
    "which",
    "nobody",
    "expected.",
    "Sorry!",
    "can't",
    "won't",
    "à",
    "bientôt",
    "déjà",
    "vu",
    "naïve",
    "plan",
    "it's",
    "late",
    "Tuesday",
    "really?",
    "well",
    "done.",
];

/// A prose comment of `words` words, single-spaced (a comment's text is
/// kept as written, so a layout never changes its spacing).
pub fn prose(words: std::ops::Range<usize>) -> impl Strategy<Value = String> {
    proptest::collection::vec(select(WORDS.to_vec()), words).prop_map(|w| w.join(" "))
}

/// A comment: prose (short or long) or a directive as players write them.
pub fn comment() -> impl Strategy<Value = Comment> {
    let directive = prop_oneof![
        (0u32..20).prop_map(|n| format!("LV {n}")),
        colour().prop_map(|c| format!("takes {}", c.name())),
        colour().prop_map(|c| format!("claims {} from Rushton", c.name())),
        station().prop_map(|s| format!("Tokens to {s}")),
        (1u32..48).prop_map(|h| format!("waits {h} hours")),
        Just("yodels".to_string()),
        (1u32..7).prop_map(|n| format!("rolled {n}")),
        (station(), station()).prop_map(|(p, d)| format!("Pick-up {p}, Destination {d}")),
    ];
    prop_oneof![
        3 => prose(1..6),
        2 => prose(12..24),
        1 => directive,
    ]
    .prop_filter_map("a comment that reads", |t| Comment::read(&t, map()).ok())
}

/// Every Action of the index, from its example (`grammar/actions.toml`).
pub fn actions() -> Vec<Action> {
    static ACTIONS: std::sync::OnceLock<Vec<Action>> = std::sync::OnceLock::new();
    ACTIONS
        .get_or_init(|| {
            SPECS
                .iter()
                .map(|s| {
                    parse_action(s.example, map())
                        .unwrap_or_else(|e| panic!("{}: {e:?}", s.example))
                })
                .collect()
        })
        .clone()
}

pub fn action() -> impl Strategy<Value = Action> {
    select(actions())
}

fn place(name: &str) -> Place {
    Place::Station(map().find(name).expect("a station of the map"))
}

pub fn to(station: String, line: Option<LineCode>) -> Target {
    Target {
        place: place(&station),
        station,
        line,
    }
}

fn target() -> impl Strategy<Value = Target> {
    (station(), proptest::option::of(line())).prop_map(|(s, l)| to(s, l))
}

fn simple_move() -> impl Strategy<Value = Move> {
    prop_oneof![
        6 => (
            station(),
            proptest::option::of(line()),
            proptest::collection::vec(line(), 0..3),
            proptest::option::weighted(0.1, station()),
        )
            .prop_map(|(station, line, via, escalator_to)| Move::To {
                dest: to(station, line),
                via,
                escalator_to: escalator_to.map(|e| to(e, None)),
            }),
        1 => proptest::option::of(target()).prop_map(Move::Pass),
        1 => proptest::option::of(target()).prop_map(Move::Farkle),
        1 => Just(Move::Timeout),
    ]
}

fn a_move() -> impl Strategy<Value = Move> {
    prop_oneof![
        6 => simple_move(),
        1 => (simple_move(), simple_move())
            .prop_map(|(a, b)| Move::Bifurcated(Box::new(a), Box::new(b))),
    ]
}

fn play_item() -> impl Strategy<Value = PlayItem> {
    prop_oneof![
        3 => action().prop_map(PlayItem::Action),
        2 => comment().prop_map(PlayItem::Comment),
    ]
}

/// A Play by one of `players`, of any form.
pub fn play(players: Vec<String>) -> impl Strategy<Value = Play> {
    (
        select(players),
        proptest::collection::vec(play_item(), 0..3),
        a_move(),
        proptest::collection::vec(play_item(), 0..3),
        proptest::collection::vec(play_item(), 0..2),
    )
        .prop_map(|(player, before, mv, after, between)| {
            let between = if matches!(mv, Move::Bifurcated(..)) {
                between
            } else {
                vec![]
            };
            Play {
                player,
                before,
                mv,
                between,
                after,
            }
        })
}

fn disruption(players: Vec<String>) -> impl Strategy<Value = Disruption> {
    prop_oneof![
        (
            station(),
            select(StationMark::ALL.iter().map(|m| m.0).collect::<Vec<_>>())
        )
            .prop_map(|(station, mark)| Disruption::Station { station, mark }),
        (station(), station(), line()).prop_map(|(from, to, line)| Disruption::PeggedSegment {
            from,
            to,
            line
        }),
        (
            line(),
            prop_oneof![
                Just(LineState::Normal),
                select(vec![
                    "N-S",
                    "S-N",
                    "E-W",
                    "W-E",
                    "Clockwise",
                    "Anti-Clockwise"
                ])
                .prop_map(|d| LineState::OneWay(d.to_string())),
                Just(LineState::Electrified),
                Just(LineState::PowerFailure),
                Just(LineState::Soaped),
                (0u32..20).prop_map(LineState::SpeedLimit),
            ]
        )
            .prop_map(|(line, state)| Disruption::Line { line, state }),
        select(vec![
            Disruption::Knip,
            Disruption::BridgesUp,
            Disruption::ParksAndGreens,
            Disruption::Gapminding,
            Disruption::VenbackerLadder,
            Disruption::DollisHillLoop,
            Disruption::Sgronk,
            Disruption::SpeedCraze,
            Disruption::ChargeSpiral(mornbot::gsd::Spiral::Inwards),
            Disruption::ChargeSpiral(mornbot::gsd::Spiral::Outwards),
        ]),
        colour().prop_map(Disruption::Bock),
        proptest::option::of(day()).prop_map(Disruption::UpcomingHoliday),
        // A Token Cascade's focus is a player of the game (Rule 1.7.36).
        (select(players), 0u32..40)
            .prop_map(|(focus, moves)| Disruption::TokenCascade { focus, moves }),
    ]
}

fn item() -> impl Strategy<Value = Item> {
    prop_oneof![
        proptest::sample::subsequence(Hat::ALL.to_vec(), 1..=8).prop_map(Item::Hats),
        day().prop_map(Item::Paper),
        day().prop_map(Item::Rover),
        station().prop_map(|name| Item::Stub {
            at: map().find(&name).unwrap(),
            name,
        }),
        (2u8..=6).prop_map(Item::ZonePass),
        station().prop_map(|name| Item::Toff {
            at: map().find(&name).unwrap(),
            name,
        }),
        (
            select(GOODS.iter().map(|g| g.good).collect::<Vec<_>>()),
            0u8..3,
            any::<bool>(),
            proptest::option::of(1u32..100)
        )
            .prop_map(|(good, stars, on, n)| Item::Good {
                good,
                stars,
                on: on && good.is(Quality::Electrical),
                n: n.filter(|_| good.spec().form.is_some_and(|f| f.ends_with(" <N>"))),
            })
            .prop_filter("a parameterised kind is written by its form", |i| {
                !matches!(
                    i,
                    Item::Good {
                        good: Good::Hat
                            | Good::Newspaper
                            | Good::AllDayRoverCard
                            | Good::Stub
                            | Good::ZonePass,
                        ..
                    }
                )
            }),
    ]
}

fn possession() -> impl Strategy<Value = Possession> {
    (
        item(),
        proptest::bool::weighted(0.2),
        proptest::bool::weighted(0.1),
    )
        .prop_map(|(item, worn, nantucket)| Possession {
            item,
            worn,
            nantucket,
        })
}

fn quadrants_of(station: &str) -> Vec<u8> {
    map()
        .station(map().lookup(station).unwrap())
        .quadrants
        .clone()
}

/// 1 to `max` distinct names of [`NAMES`], in a random order.
pub fn names(max: usize) -> impl Strategy<Value = Vec<String>> {
    proptest::sample::subsequence(NAMES.to_vec(), 1..=max)
        .prop_shuffle()
        .prop_map(|v| v.into_iter().map(String::from).collect())
}

fn row(name: String) -> impl Strategy<Value = PlayerRow> {
    (
        proptest::bool::weighted(0.85),
        proptest::option::weighted(0.7, station()),
        0u32..12,
        -120i32..121,
        proptest::array::uniform7(prop_oneof![3 => 0u32..10, 1 => 0u32..150]),
    )
        .prop_map(move |(active, home, lv, charge, t)| PlayerRow {
            name: name.clone(),
            active,
            home,
            lv,
            charge,
            tokens: Tokens(t),
        })
}

/// A canonical GSD the engine accepts: Game Time set, every station of
/// the map, a Token Cascade's focus a player, at most one PoID.
pub fn gsd() -> impl Strategy<Value = Gsd> {
    names(6)
        .prop_flat_map(|names| {
            let rows: Vec<_> = names.iter().cloned().map(row).collect();
            let luggage = proptest::sample::subsequence(names.clone(), 0..=names.len())
                .prop_flat_map(|who| {
                    who.into_iter()
                        .map(|n| {
                            proptest::collection::vec(possession(), 0..4).prop_map(move |items| {
                                Luggage {
                                    player: n.clone(),
                                    items,
                                }
                            })
                        })
                        .collect::<Vec<_>>()
                });
            (
                proptest::option::weighted(0.7, "[A-Z]{2}[0-9]{1,3}"),
                rows,
                proptest::collection::vec(disruption(names.clone()), 0..6),
                (day(), 0u16..1440, proptest::bool::weighted(0.2)).prop_map(
                    |(day, minutes, night_train)| GameTime {
                        day,
                        minutes,
                        night_train,
                    },
                ),
                proptest::collection::vec(station(), 0..=3),
                proptest::option::weighted(
                    0.3,
                    (station(), station()).prop_map(|(pickup, destination)| Courier {
                        pickup,
                        destination,
                    }),
                ),
                (
                    proptest::collection::vec(
                        (station(), proptest::collection::vec(colour(), 1..8)),
                        0..5,
                    ),
                    proptest::collection::vec(station(), 0..=2),
                    proptest::option::weighted(0.2, station()),
                ),
                luggage,
                proptest::collection::vec(item(), 0..3),
                proptest::collection::vec(play(names.clone()), 0..12),
            )
        })
        .prop_map(
            |(game, players, disruptions, time, wild, courier, stacks, luggage, lost, plays)| Gsd {
                game,
                players,
                disruptions,
                time: Some(time),
                wild,
                courier,
                marked: stacks
                    .1
                    .into_iter()
                    .map(|s| (s, StackMarker::SuspectPackage))
                    .chain(stacks.2.into_iter().map(|s| (s, StackMarker::Poid)))
                    .map(|(station, marker)| Marked {
                        quadrants: quadrants_of(&station),
                        station,
                        marker,
                    })
                    .collect(),
                stacks: stacks
                    .0
                    .into_iter()
                    .map(|(station, tokens)| Stack {
                        quadrants: quadrants_of(&station),
                        station,
                        tokens,
                    })
                    .collect(),
                luggage,
                lost_and_found: lost,
                plays,
            },
        )
        .prop_filter("a state the engine accepts", |g| {
            GameState::from_gsd(g, map()).is_ok()
        })
}

// ---- Games the engine judges Legal ----------------------------------------

/// What a turn of a generated game tries, drawn before the state is known
/// and read against it by [`legal_play`]: which destination, whether to
/// raise the LV, which Actions and comments to add.
#[derive(Clone, Debug)]
pub struct Intent {
    pub pick: u16,
    pub lv_up: bool,
    pub home: bool,
    pub before: Option<Comment>,
    pub after: Vec<Comment>,
}

pub fn intent() -> impl Strategy<Value = Intent> {
    (
        any::<u16>(),
        proptest::bool::weighted(0.3),
        proptest::bool::weighted(0.2),
        proptest::option::weighted(0.2, comment_prose()),
        proptest::collection::vec(comment_prose(), 0..3),
    )
        .prop_map(|(pick, lv_up, home, before, after)| Intent {
            pick,
            lv_up,
            home,
            before,
            after,
        })
}

/// A prose comment, often a long one (a Play then runs well past 72
/// columns).
pub fn comment_prose() -> impl Strategy<Value = Comment> {
    prop_oneof![1 => prose(1..6), 2 => prose(10..26)]
        .prop_filter_map("prose that reads", |t| Comment::read(&t, map()).ok())
}

/// The Moves a player could try: from off the Map, a station of each line;
/// on it, the stations one and two stops along each line of eirs.
fn destinations(state: &GameState, who: usize) -> Vec<(StationId, LineCode)> {
    let m = map();
    let mut out = Vec::new();
    match state.players[who].station() {
        None => {
            for (i, s) in m.stations().iter().enumerate().step_by(7) {
                if let Some(l) = s.lines.iter().next() {
                    out.push((m.station_ids().nth(i).unwrap(), l));
                }
            }
        }
        Some(at) => {
            for l in m.station(at).lines.iter() {
                for &n in m.neighbours(at, l) {
                    out.push((n, l));
                    for &n2 in m.neighbours(n, l) {
                        if n2 != at {
                            out.push((n2, l));
                        }
                    }
                }
            }
        }
    }
    out
}

/// A Play of the player to move that the engine judges Legal in `state`,
/// shaped by `intent`: a Move (with `[LV+1]` or a `[Home: ...]` when they
/// are Legal), comments before and after; a Pass when no Move is; `None`
/// when not even a bare Pass is Legal.
pub fn legal_play(state: &GameState, intent: &Intent) -> Option<Play> {
    let who = state.to_play;
    let name = state.players[who].name.clone();
    let dests = destinations(state, who);
    let comments = |p: &mut Play| {
        if let Some(c) = &intent.before {
            p.before.push(PlayItem::Comment(c.clone()));
        }
        p.after
            .extend(intent.after.iter().cloned().map(PlayItem::Comment));
    };
    let legal = |p: &Play| adjudicate(map(), state, p).verdict == Verdict::Legal;
    let n = dests.len().max(1);
    for k in 0..n.min(24) {
        let Some(&(id, l)) = dests.get((usize::from(intent.pick) + k * 7) % n) else {
            break;
        };
        let dest = map().station(id).name.clone();
        let mut p = Play {
            player: name.clone(),
            before: vec![],
            mv: Move::To {
                dest: to(dest.clone(), Some(l)),
                via: vec![],
                escalator_to: None,
            },
            between: vec![],
            after: vec![],
        };
        if intent.lv_up {
            let mut up = p.clone();
            up.before
                .push(PlayItem::Action(parse_action("[LV+1]", map()).unwrap()));
            if legal(&up) {
                p = up;
            }
        }
        if intent.home && state.players[who].home.is_none() {
            let mut home = p.clone();
            let a = parse_action(&format!("[Home: {dest}]"), map()).unwrap();
            home.after.push(PlayItem::Action(a));
            if legal(&home) {
                p = home;
            }
        }
        comments(&mut p);
        if legal(&p) {
            return Some(p);
        }
    }
    let pass = Play {
        player: name,
        before: vec![],
        mv: Move::Pass(None),
        between: vec![],
        after: vec![],
    };
    let mut p = pass.clone();
    comments(&mut p);
    [p, pass].into_iter().find(|p| legal(p))
}

/// Possessions that restrain nothing (no Clamp, Bomb, critter or Parcel):
/// a start state's Luggage Rack.
const HARMLESS: [&str; 10] = [
    "Violin",
    "Guitar",
    "Scarf",
    "Overcoat",
    "Gloves",
    "Spectacles",
    "Chocolate Bar",
    "Marmalade Sandwich",
    "Book",
    "Harmonica",
];

fn harmless_item() -> impl Strategy<Value = Item> {
    let goods: Vec<Good> = GOODS
        .iter()
        .filter(|g| HARMLESS.contains(&g.good.spec().name))
        .map(|g| g.good)
        .collect();
    prop_oneof![
        proptest::sample::subsequence(Hat::ALL.to_vec(), 1..=3).prop_map(Item::Hats),
        day().prop_map(Item::Paper),
        day().prop_map(Item::Rover),
        station().prop_map(|name| Item::Stub {
            at: map().find(&name).unwrap(),
            name,
        }),
        select(goods).prop_map(|good| Item::Good {
            good,
            stars: 0,
            on: false,
            n: None,
        }),
    ]
}

/// The GSD of a game's start for `names` (in order of play, all Active,
/// the Drone last as the daemon seats em): tokens, LV, Charge, Homes,
/// harmless Possessions, Wild Stations, Token Stacks, Lost & Found, Game
/// Time and Disruptions that need no dice; no Plays.
pub fn start_gsd(names: Vec<String>) -> impl Strategy<Value = Gsd> {
    let rows: Vec<_> = names
        .iter()
        .cloned()
        .map(|n| {
            (
                proptest::option::weighted(0.5, station()),
                0u32..4,
                -30i32..31,
                proptest::array::uniform7(0u32..12),
                proptest::collection::vec(harmless_item(), 0..3),
            )
                .prop_map(move |(home, lv, charge, t, items)| {
                    (
                        PlayerRow {
                            name: n.clone(),
                            active: true,
                            home,
                            lv,
                            charge,
                            tokens: Tokens(t),
                        },
                        Luggage {
                            player: n.clone(),
                            items: items
                                .into_iter()
                                .map(|item| Possession {
                                    item,
                                    worn: false,
                                    nantucket: false,
                                })
                                .collect(),
                        },
                    )
                })
        })
        .collect();
    let mild = disruption(names.clone()).prop_filter("no dice, no Cascade", |d| {
        !matches!(
            d,
            Disruption::TokenCascade { .. } | Disruption::UpcomingHoliday(_)
        )
    });
    (
        rows,
        proptest::collection::vec(mild, 0..3),
        (day(), 0u16..1440).prop_map(|(day, minutes)| GameTime {
            day,
            minutes,
            night_train: false,
        }),
        proptest::collection::vec(station(), 0..=2),
        proptest::collection::vec((station(), proptest::collection::vec(colour(), 1..5)), 0..3),
        proptest::collection::vec(harmless_item(), 0..3),
    )
        .prop_map(|(rows, disruptions, time, wild, stacks, lost)| {
            let (mut players, luggage): (Vec<PlayerRow>, Vec<Luggage>) = rows.into_iter().unzip();
            players.push(PlayerRow {
                name: "Drone".into(),
                active: false,
                home: None,
                lv: 0,
                charge: 0,
                tokens: Tokens::default(),
            });
            Gsd {
                game: Some("MN1".into()),
                players,
                disruptions,
                time: Some(time),
                wild,
                courier: None,
                stacks: stacks
                    .into_iter()
                    .map(|(station, tokens)| Stack {
                        quadrants: quadrants_of(&station),
                        station,
                        tokens,
                    })
                    .collect(),
                marked: vec![],
                luggage: luggage
                    .into_iter()
                    .filter(|l| !l.items.is_empty())
                    .collect(),
                lost_and_found: lost,
                plays: vec![],
            }
        })
        .prop_filter("a state the engine accepts", |g| {
            GameState::from_gsd(g, map()).is_ok()
        })
}
