//! Games of legal turns written into a store as the daemon writes them
//! (a game row with its definition, then its turn log), for the archive's
//! tests and bench. Every turn is judged by the engine: the player to move
//! enters the map, then rides to a neighbouring station (a Level up when
//! it must), or passes when no such move is Legal.
#![allow(dead_code)]

use chrono::{DateTime, Duration, TimeZone, Utc};
use mornbot::daemon::referee::{start_state, Definition, GameConfigDef};
use mornbot::engine::{Game, Verdict};
use mornbot::gsd::{parse_play, render_play, Play};
use mornbot::map::Map;
use mornbot::store::{Commit, Store, TurnRow};

/// Where each player enters the map, and eir Home.
const ENTRIES: [&str; 4] = [
    "Epping (CN) [Home: Hainault]",
    "Morden (NT) [Home: Tooting Broadway]",
    "Upminster (DS) [Home: Hornchurch]",
    "Stanmore (JL) [Home: Canons Park]",
];

/// When the games start.
pub fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 2, 9, 0, 0).unwrap()
}

/// The definition of game `tag` with `players`, as the daemon stores it.
pub fn definition(tag: &str, players: &[&str]) -> GameConfigDef {
    GameConfigDef {
        tag: tag.to_string(),
        start: "Monday 0900".into(),
        players: players
            .iter()
            .enumerate()
            .map(|(i, p)| (p.to_string(), format!("player{i}@example.test")))
            .collect(),
        referee: None,
        rulings: Default::default(),
        picture: true,
        kind: Default::default(),
        deadline: None,
        kind_rulings: Default::default(),
    }
}

/// The first Legal play among the candidates for the player to move at
/// turn `n`: entering the map, a ride to a neighbouring station, a Pass.
fn next_play(map: &Map, game: &Game, n: usize) -> Play {
    let state = &game.state;
    let i = state.to_play;
    let name = state.players[i].name.clone();
    let mut candidates = Vec::new();
    match state.players[i].station() {
        None => candidates.push(format!("{name} : {}", ENTRIES[i % ENTRIES.len()])),
        Some(at) => {
            let mut rides = Vec::new();
            for line in map.station(at).lines.iter() {
                for nb in map.neighbours(at, line) {
                    rides.push(format!(
                        "{name} : {} ({})",
                        map.station(*nb).name,
                        line.code()
                    ));
                }
            }
            // Vary the direction from turn to turn.
            if !rides.is_empty() {
                let k = n % rides.len();
                rides.rotate_left(k);
            }
            // A bare ride at the player's LV, else one Level up (LV 0
            // cannot move).
            let levelled: Vec<String> = rides
                .iter()
                .map(|r| r.replacen(" : ", " : [LV+1] ", 1))
                .collect();
            candidates.extend(rides);
            candidates.extend(levelled);
        }
    }
    candidates.push(format!("{name} : Pass"));
    for text in candidates {
        let Ok(play) = parse_play(&text, map) else {
            continue;
        };
        if game.judge(map, &play).verdict == Verdict::Legal {
            return play;
        }
    }
    panic!("no legal play for {name} at turn {n}");
}

/// Writes game `tag` with `players` and `turns` legal turns into `store`;
/// returns the game as the engine left it.
pub fn write_game(
    store: &mut Store,
    map: &'static Map,
    tag: &str,
    players: &[&str],
    turns: usize,
) -> Game {
    let def = definition(tag, players);
    let json = serde_json::to_string(&Definition {
        config: def.clone(),
    })
    .unwrap();
    store.ensure_game(tag, &json, t0()).unwrap();
    let mut game = Game::new(tag, start_state(&def, map).unwrap());
    let mut commit = Commit {
        received_at: Some(t0()),
        ..Commit::default()
    };
    for n in 1..=turns {
        let play = next_play(map, &game, n);
        let row = TurnRow {
            n: n as u64,
            player: play.player.clone(),
            play: render_play(&play),
            message_id: format!("{tag}-{n}@example.test"),
            submitted_at: t0() + Duration::minutes(17 * n as i64),
        };
        assert_eq!(game.play(map, play).verdict, Verdict::Legal);
        commit.turns.push((tag.to_string(), row));
    }
    store.commit(&commit).unwrap();
    game
}
