//! parse(render(g)) == g for generated GSDs (proptest), and the grammar's
//! agreement with grammar/actions.toml.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)] // an edge: IO is allowed here

use chrono::Weekday;
use mornbot::gsd::{
    parse_action, parse_gsd, parse_play, render, render_play, Action, Colour, Comment, Courier,
    Disruption, GameTime, Good, Gsd, Hat, Item, LineState, Luggage, Marked, Move, Place, Play,
    PlayItem, PlayerRow, Possession, Price, Quality, Stack, StackMarker, StationMark, Target,
    Tokens, GOODS, SPECS,
};
use mornbot::map::{LineCode, Map};
use proptest::prelude::*;
use proptest::sample::select;

fn map() -> &'static Map {
    Map::london_1999()
}

fn station() -> impl Strategy<Value = String> {
    let names: Vec<String> = map().stations().iter().map(|s| s.name.clone()).collect();
    select(names)
}

fn line() -> impl Strategy<Value = LineCode> {
    select(LineCode::ALL.to_vec())
}

fn day() -> impl Strategy<Value = Weekday> {
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

fn colour() -> impl Strategy<Value = Colour> {
    select(Colour::ALL.to_vec())
}

const NAMES: [&str; 12] = [
    "Rushton",
    "Cryer",
    "Garden",
    "Brooke-Taylor",
    "Henry VIII",
    "Cramner",
    "O'Neill",
    "Dr. Who",
    "Alice",
    "Bob",
    "Mx Lee",
    "Zed 2",
];

fn actions() -> Vec<Action> {
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

fn action() -> impl Strategy<Value = Action> {
    select(actions())
}

fn place(name: &str) -> Place {
    Place::Station(map().find(name).expect("a station of the map"))
}

fn target() -> impl Strategy<Value = Target> {
    (station(), proptest::option::of(line())).prop_map(|(station, line)| Target {
        place: place(&station),
        station,
        line,
    })
}

fn to(station: String, line: Option<LineCode>) -> Target {
    Target {
        place: place(&station),
        station,
        line,
    }
}

fn simple_move() -> impl Strategy<Value = Move> {
    prop_oneof![
        (
            station(),
            proptest::option::of(line()),
            proptest::collection::vec(line(), 0..4),
            proptest::option::of(station())
        )
            .prop_map(|(station, line, via, escalator_to)| Move::To {
                dest: to(station, line),
                via,
                escalator_to: escalator_to.map(|e| to(e, None)),
            }),
        proptest::option::of(target()).prop_map(Move::Pass),
        proptest::option::of(target()).prop_map(Move::Farkle),
        Just(Move::Timeout),
    ]
}

fn a_move() -> impl Strategy<Value = Move> {
    prop_oneof![
        4 => simple_move(),
        // Each Piece's Move of a Bifurcated player (Rule 1.7.42).
        1 => (simple_move(), simple_move())
            .prop_map(|(a, b)| Move::Bifurcated(Box::new(a), Box::new(b))),
    ]
}

/// Prose, and directives as players write them.
fn comment() -> impl Strategy<Value = Comment> {
    let prose = "[A-Za-z0-9 ,.!?'-]{0,30}".prop_map(|s| s.trim().to_string());
    let directive = prop_oneof![
        (0u32..20).prop_map(|n| format!("LV {n}")),
        select(Colour::ALL.to_vec()).prop_map(|c| format!("takes {}", c.name())),
        select(Colour::ALL.to_vec()).prop_map(|c| format!("claims {} from Rushton", c.name())),
        station().prop_map(|s| format!("Tokens to {s}")),
        (1u32..48).prop_map(|h| format!("waits {h} hours")),
        Just("yodels".to_string()),
        select(Colour::ALL.to_vec()).prop_map(|c| format!("generates {}", c.name())),
        select(Colour::ALL.to_vec()).prop_map(|c| format!("tithes {} from Rushton", c.name())),
        Just("Rat to Rushton".to_string()),
        (1u32..7).prop_map(|n| format!("rolled {n}")),
        (
            select(vec![
                "courier-pickup",
                "courier-destination",
                "gold-rush",
                "frobisher-3"
            ]),
            1u32..296
        )
            .prop_map(|(name, n)| format!("rolled {name} {n}")),
        (station(), station()).prop_map(|(p, d)| format!("Pick-up {p}, Destination {d}")),
    ];
    prop_oneof![3 => prose, 1 => directive]
        .prop_filter_map("a comment that reads", |t| Comment::read(&t, map()).ok())
}

fn play_item() -> impl Strategy<Value = PlayItem> {
    prop_oneof![4 => action().prop_map(PlayItem::Action), 1 => comment().prop_map(PlayItem::Comment)]
}

fn play(players: Vec<String>) -> impl Strategy<Value = Play> {
    (
        select(players),
        proptest::collection::vec(play_item(), 0..3),
        a_move(),
        proptest::collection::vec(play_item(), 0..4),
        proptest::collection::vec(play_item(), 0..3),
    )
        .prop_map(|(player, before, mv, after, between)| {
            // Only a Bifurcated Move has items between its Moves (Rule 1.7.42).
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

fn disruption() -> impl Strategy<Value = Disruption> {
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
        (select(vec!["Alice", "Bob", "Old Wrinkly"]), 0u32..40).prop_map(|(focus, moves)| {
            Disruption::TokenCascade {
                focus: focus.into(),
                moves,
            }
        }),
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
        // Every kind of the table, in any state.
        (
            select(GOODS.iter().map(|g| g.good).collect::<Vec<_>>()),
            0u8..4,
            any::<bool>(),
            proptest::option::of(1u32..100)
        )
            .prop_map(|(good, stars, on, n)| Item::Good {
                good,
                stars,
                on: on && good.is(Quality::Electrical),
                // Only the numbered kinds (Rule 1.4.46) write a number.
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
    (item(), any::<bool>(), any::<bool>()).prop_map(|(item, worn, nantucket)| Possession {
        item,
        worn,
        nantucket,
    })
}

fn gsd() -> impl Strategy<Value = Gsd> {
    proptest::sample::subsequence(NAMES.to_vec(), 1..=6)
        .prop_flat_map(|names| {
            let names: Vec<String> = names.into_iter().map(String::from).collect();
            let rows = names
                .iter()
                .map(|n| {
                    (
                        any::<bool>(),
                        proptest::option::of(station()),
                        0u32..12,
                        -120i32..120,
                        proptest::array::uniform7(0u32..120),
                    )
                        .prop_map({
                            let n = n.clone();
                            move |(active, home, lv, charge, t)| PlayerRow {
                                name: n.clone(),
                                active,
                                home,
                                lv,
                                charge,
                                tokens: Tokens(t),
                            }
                        })
                })
                .collect::<Vec<_>>();
            let luggage = names
                .iter()
                .map(|n| {
                    let n = n.clone();
                    proptest::collection::vec(possession(), 0..6).prop_map(move |items| Luggage {
                        player: n.clone(),
                        items,
                    })
                })
                .collect::<Vec<_>>();
            (
                proptest::option::of("[A-Z]{2}[0-9]{1,3}"),
                rows,
                proptest::collection::vec(disruption(), 0..8),
                proptest::option::of((day(), 0u16..1440, any::<bool>()).prop_map(
                    |(day, minutes, night_train)| GameTime {
                        day,
                        minutes,
                        night_train,
                    },
                )),
                proptest::collection::vec(station(), 0..=3),
                proptest::option::of((station(), station()).prop_map(|(pickup, destination)| {
                    Courier {
                        pickup,
                        destination,
                    }
                })),
                (
                    proptest::collection::vec(
                        (station(), proptest::collection::vec(colour(), 1..10)),
                        0..7,
                    ),
                    // Suspect Packages (Rule 1.4.7), at most three in play,
                    // and the resting PoID (Rule 1.4.24).
                    proptest::collection::vec(station(), 0..=3),
                    proptest::option::of(station()),
                ),
                luggage,
                proptest::collection::vec(item(), 0..5),
                proptest::collection::vec(play(names.clone()), 0..25),
            )
        })
        .prop_map(
            |(
                game,
                players,
                disruptions,
                time,
                wild,
                courier,
                stacks,
                luggage,
                lost_and_found,
                plays,
            )| Gsd {
                game,
                players,
                disruptions,
                time,
                wild,
                courier,
                marked: stacks
                    .1
                    .into_iter()
                    .map(|station| (station, StackMarker::SuspectPackage))
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
                    .map(|(station, tokens)| {
                        let quadrants = map()
                            .station(map().lookup(&station).unwrap())
                            .quadrants
                            .clone();
                        Stack {
                            station,
                            quadrants,
                            tokens,
                        }
                    })
                    .collect(),
                luggage,
                lost_and_found,
                plays,
            },
        )
}

/// A station's Quadrants, as the parser fills them in from the map.
fn quadrants_of(station: &str) -> Vec<u8> {
    map()
        .station(map().lookup(station).unwrap())
        .quadrants
        .clone()
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn parse_render_round_trip(g in gsd()) {
        let text = render(&g);
        let back = parse_gsd(&text, map()).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(&back, &g, "rendered:\n{}", text);
        prop_assert_eq!(render(&back), text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases() / 4, ..ProptestConfig::default() })]

    #[test]
    fn play_round_trip(p in play(NAMES.iter().map(|s| s.to_string()).collect())) {
        let text = render_play(&p);
        let back = parse_play(&text, map()).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(back, p);
    }

    #[test]
    fn parsers_never_panic(s in "\\PC{0,200}") {
        if let Err(e) = parse_play(&s, map()) {
            prop_assert!(e.line >= 1 && e.column >= 1, "{}", e);
        }
        if let Err(e) = parse_gsd(&s, map()) {
            prop_assert!(e.line >= 1 && e.column >= 1, "{}", e);
        }
    }

    #[test]
    fn truncated_gsds_fail_with_a_position(g in gsd(), cut in 0.0f64..1.0) {
        let text = render(&g);
        let at = ((text.len() as f64) * cut) as usize;
        let at = (0..=at).rev().find(|i| text.is_char_boundary(*i)).unwrap_or(0);
        if let Err(e) = parse_gsd(&text[..at], map()) {
            prop_assert!(e.line >= 1 && e.column >= 1, "{}", e);
        }
    }
}

#[test]
fn every_action_of_the_table_parses_to_itself() {
    let table: toml::Value = toml::from_str(include_str!("../grammar/actions.toml")).unwrap();
    let entries = table["action"].as_array().unwrap();
    assert_eq!(
        entries.len(),
        SPECS.len(),
        "one Action variant per table entry"
    );
    for (i, spec) in SPECS.iter().enumerate() {
        assert_eq!(entries[i]["id"].as_str(), Some(spec.id));
        let a = parse_action(spec.example, map())
            .unwrap_or_else(|e| panic!("{}: {}", spec.example, e.message));
        assert_eq!(a.index(), i, "{} parsed as {}", spec.example, a.spec().id);
        // Canonical text re-parses to the same action.
        let again = parse_action(&a.render(), map()).unwrap();
        assert_eq!(again, a, "{}", a.render());
        for alias in spec.aliases {
            assert!(alias.starts_with('[') && alias.ends_with(']'), "{alias}");
        }
    }
}

#[test]
fn every_phase_rule_and_duration_is_data() {
    for spec in SPECS {
        assert!(
            spec.rule.starts_with("0.") || spec.rule.starts_with("1."),
            "{}: {}",
            spec.id,
            spec.rule
        );
        assert!(!spec.example.is_empty());
    }
    let blocking = SPECS.iter().find(|s| s.id == "blocking").unwrap();
    assert_eq!(blocking.form, "[Blocking <Station>]");
    assert_eq!(blocking.rule, "1.9.1");
    assert_eq!(blocking.cost, Price::Tokens(&[(1, Colour::Red)]));
    assert_eq!(blocking.cost_text, Some("1Re"));
    assert_eq!(blocking.duration.minutes(), Some(10));
}
