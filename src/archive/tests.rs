//! The pages as text: escaping, links, what the indexes list.

use chrono::{TimeZone, Utc};

use super::html::{self, escape, Size};
use super::model::{GameSummary, Refusal, Status, TurnRecord, Verdict};
use super::record::slug;
use crate::kinds::vol1::Violation;

const SIZE: Size = Size {
    width: 1600.0,
    height: 900.0,
};

fn game(tag: &str, players: &[&str], status: Status) -> GameSummary {
    let t = Utc.with_ymd_and_hms(2026, 11, 2, 9, 0, 0).unwrap();
    GameSummary {
        tag: tag.into(),
        slug: slug(tag, 0),
        players: players.iter().map(|p| p.to_string()).collect(),
        to_play: matches!(status, Status::Running).then(|| players[0].to_string()),
        status,
        turns: 3,
        started: t,
        last_activity: t + chrono::Duration::hours(5),
        resigned: vec![],
    }
}

fn turn(n: usize, player: &str, play: &str) -> TurnRecord {
    TurnRecord {
        n,
        player: player.into(),
        play: play.into(),
        submitted_at: Utc.with_ymd_and_hms(2026, 11, 2, 10, 0, 0).unwrap(),
        verdict: Verdict {
            judged: false,
            changes: vec![format!("{player} moves")],
            winner: None,
            refused: vec![],
        },
        next: Some("Warren".into()),
        time: "Monday 0940".into(),
        gsd: format!("Game MN1\n{play}\n"),
    }
}

#[test]
fn escape_leaves_no_markup() {
    assert_eq!(
        escape(r#"<script>alert('x') & "y"</script>"#),
        "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;"
    );
    assert_eq!(escape("Rushton : Euston (NT)"), "Rushton : Euston (NT)");
}

#[test]
fn the_index_lists_every_game_with_its_link_players_and_winner() {
    let games = [
        game("MN1", &["Rushton", "<script>x</script>"], Status::Running),
        game(
            "MN2",
            &["Acton", "Warren"],
            Status::Ended {
                winner: Some("Acton".into()),
            },
        ),
    ];
    let page = html::index_page(&games);
    assert!(page.contains("<a href=\"MN1/index.html\">MN1</a>"));
    assert!(page.contains("<a href=\"MN2/index.html\">MN2</a>"));
    assert!(page.contains("Rushton, &lt;script&gt;x&lt;/script&gt;"));
    assert!(!page.contains("<script>"));
    assert!(page.contains(">ended</td><td>Acton, Warren</td><td>Acton</td><td>3</td>"));
    assert!(page.contains(">running</td>"));
    assert!(page.contains("2026-11-02 14:00 UTC"), "last activity");
    assert!(page.contains("name=\"viewport\""));
    assert!(html::index_page(&[]).contains("No games yet"));
}

/// An overlay as `picture::overlay_svg` writes one.
const OVERLAY: &str = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1600\" height=\"900\" \
    viewBox=\"0 0 1600 900\"><circle cx=\"5\" cy=\"5\" r=\"4\" fill=\"#5e35b1\"/></svg>\n";

#[test]
fn a_turn_page_links_to_its_neighbours_its_game_and_the_site() {
    let g = game("MN1", &["Rushton", "Warren"], Status::Running);
    let middle = html::turn_page(&g, &turn(2, "Warren", "Warren : Pass"), OVERLAY, 3, SIZE);
    for link in [
        "href=\"../index.html\"",
        "href=\"index.html\"",
        "href=\"turn-001.html\"",
        "href=\"turn-003.html\"",
        "href=\"../style.css\"",
        "src=\"../network.svg\"",
        // The overlay inline, its root element labelled for readers.
        "<svg class=\"overlay\" id=\"picture\" role=\"img\" aria-label=\"The game MN1 after turn 2\" \
         xmlns=\"http://www.w3.org/2000/svg\" width=\"1600\"",
        "<circle cx=\"5\" cy=\"5\" r=\"4\" fill=\"#5e35b1\"/></svg></div>",
    ] {
        assert!(middle.contains(link), "{link}\n{middle}");
    }
    assert!(!middle.contains("turn-002.svg"));
    let first = html::turn_page(&g, &turn(1, "Rushton", "Rushton : Pass"), OVERLAY, 3, SIZE);
    assert!(!first.contains("turn-000") && first.contains("href=\"turn-002.html\""));
    let last = html::turn_page(&g, &turn(3, "Rushton", "Rushton : Pass"), OVERLAY, 3, SIZE);
    assert!(!last.contains("turn-004") && last.contains("href=\"turn-002.html\""));
    assert!(middle.contains("width=\"1600\" height=\"900\""));
}

#[test]
fn a_turn_page_escapes_what_players_wrote_and_shows_the_verdict() {
    let g = game("MN1", &["<i>Eve</i>", "Warren"], Status::Running);
    let mut t = turn(1, "<i>Eve</i>", "<i>Eve</i> : Pass");
    t.verdict.refused.push(Refusal {
        play: "<i>Eve</i> : Bank (CN)".into(),
        ruling: false,
        rules: vec![Violation {
            rule: "1.6.2".into(),
            message: "not <adjacent>".into(),
        }],
    });
    t.verdict.judged = true;
    let page = html::turn_page(&g, &t, OVERLAY, 1, SIZE);
    assert!(!page.contains("<i>"), "{page}");
    assert!(page.contains("<pre class=\"play\">&lt;i&gt;Eve&lt;/i&gt; : Pass</pre>"));
    assert!(page.contains("Legal by Judgment"));
    assert!(page.contains("was buzzed as Illegal"));
    assert!(page.contains("<li>Rule 1.6.2: not &lt;adjacent&gt;</li>"));
    assert!(page.contains("<li>&lt;i&gt;Eve&lt;/i&gt; moves</li>"));
    assert!(page.contains("<pre class=\"gsd\">Game MN1\n&lt;i&gt;Eve"));
}

#[test]
fn a_game_page_lists_its_turns_and_the_winner() {
    let g = game(
        "MN3",
        &["Rushton", "Warren"],
        Status::Won {
            winner: "Warren".into(),
        },
    );
    let mut last = turn(2, "Warren", "Warren : Mornington Crescent (NT)");
    last.verdict.winner = Some("Warren".into());
    let page = html::game_page(&g, &[turn(1, "Rushton", "Rushton : Pass"), last], SIZE);
    assert!(page.contains("<a href=\"turn-001.html\">1</a>"));
    assert!(page.contains("<a href=\"turn-002.html\">2</a>"));
    assert!(page.contains("legal: wins"));
    assert!(page.contains("won by Warren"));
    assert!(page.contains("src=\"current.svg\""));
    assert!(page.contains("href=\"../index.html\""));
}

#[test]
fn a_tag_that_is_no_safe_file_name_gets_a_numbered_directory() {
    assert_eq!(slug("MN12", 4), "MN12");
    assert_eq!(slug("../etc", 4), "game-5");
    assert_eq!(slug("MN 1", 0), "game-1");
    assert_eq!(slug("", 1), "game-2");
}

#[test]
fn the_points_page_lists_the_ledger_and_names_the_grandmaster() {
    use crate::store::PointsRow;
    let row = |player: &str, points, games| PointsRow {
        player: player.into(),
        points,
        games,
    };
    let page = html::points_page(&[row("<b>Rushton</b>", 3, 2), row("Warren", 1, 2)]);
    assert!(page.contains("<td>&lt;b&gt;Rushton&lt;/b&gt;</td><td>3</td><td>2</td>"));
    assert!(page.contains("<td>Warren</td><td>1</td><td>2</td>"));
    assert!(page.contains("the Grandmaster"));
    assert!(page.contains("href=\"index.html\""));
    // A tie at the top names no Grandmaster; an empty ledger says so.
    let tie = html::points_page(&[row("Rushton", 2, 1), row("Warren", 2, 1)]);
    assert!(!tie.contains("Grandmaster"));
    assert!(html::points_page(&[]).contains("No game has ended yet"));
    // The index links to it.
    assert!(html::index_page(&[]).contains("href=\"points.html\""));
}
