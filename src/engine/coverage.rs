//! Which rules of Volume 1 the engine adjudicates (`mornbot rules --coverage`).
//!
//! Every rule of `grammar/rules-vol1.toml` has a status: a rule not listed
//! here needs a human ruling, and the adjudicator says so whenever a play
//! depends on it; none is silently missing.

use serde::{Deserialize, Serialize};

/// How far the engine adjudicates a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Fully adjudicated.
    Adjudicated,
    /// Its effects on Moves and Turns are applied, but the Actions it
    /// defines need a human ruling.
    Partly,
    /// Map or grammar rule: applied by the map or the parser.
    Data,
    /// Run by the Speaker's automation in the daemon (deadlines, buzzes,
    /// take-backs), tested in `tests/referee.rs` and by mail.
    Speaker,
    /// Needs a human ruling.
    Ruling,
}

/// Rule number -> status and what the engine does with it.
pub const IMPLEMENTED: &[(&str, Status, &str)] = &[
    (
        "1.10.2",
        Status::Adjudicated,
        "Double Shunts of Players and Token Stacks (second post-Move Action, the first Shunt's LV, +1 Silver, none Shunted twice); Triple and greater Shunts as further [Double-Shunting] Actions, each from where the last sent its target",
    ),
    (
        "1.1.3",
        Status::Speaker,
        "a Resignation removes the player (the last one left Wins); automatic under Rule 1.1.10, by message it needs the Speaker",
    ),
    (
        "1.1.7",
        Status::Speaker,
        "several games in one lounge, told apart by the subject tag or the GSD's Game line",
    ),
    (
        "1.1.10",
        Status::Speaker,
        "two calendar months without an own move: Resigned",
    ),
    (
        "1.3.3",
        Status::Speaker,
        "a player takes back eir latest Turn while no one has played or buzzed since",
    ),
    (
        "1.16.1",
        Status::Speaker,
        "a Questionable Turn holds play; Mistimed Turns are held and judged once it is settled",
    ),
    (
        "1.16.2",
        Status::Speaker,
        "Buzzes by mail within three Turns, one at a time; the bot buzzes every Illegal Turn",
    ),
    (
        "1.16.3",
        Status::Speaker,
        "concede or contest within 36 hours, then the buzzer",
    ),
    (
        "1.16.4",
        Status::Speaker,
        "Referee drawn at random (seed announced), three days, redrawn on decline or silence",
    ),
    (
        "1.16.5",
        Status::Speaker,
        "a posted GSD's tables are compared with the replay; the differences are listed and the replay stands",
    ),
    (
        "1.1.1",
        Status::Adjudicated,
        "the first Piece to rest at Mornington Crescent wins; play goes on until acknowledged",
    ),
    (
        "1.1.2",
        Status::Partly,
        "initial conditions used by case states; starting games is the Speaker's",
    ),
    (
        "1.1.8",
        Status::Adjudicated,
        "joining players: 2 Bk, 2 Re, 2 Br, LV 0, no Home, off the Map",
    ),
    (
        "1.2.0",
        Status::Data,
        "the GSD and Play grammar (grammar/gsd.ebnf)",
    ),
    ("1.2.2", Status::Data, "the Disruptions box"),
    ("1.3.1", Status::Data, "comments and Plays in the GSD"),
    (
        "1.3.2",
        Status::Adjudicated,
        "whose Turn it is; Inactive players skipped",
    ),
    (
        "1.3.4",
        Status::Adjudicated,
        "phases in order; one Action of a kind per Turn",
    ),
    (
        "1.3.5",
        Status::Speaker,
        "the Timeout Move is adjudicated; the 36-hour deadlines (weekends excluded), reminders and Timeouts are run by the Speaker",
    ),
    (
        "1.4.6",
        Status::Adjudicated,
        "buying Hats by station type; [Cashing in Hats] (the five, Worn or not, for 1 Gold 2 Silver; no Hat bought that Turn)",
    ),
    ("1.4.12", Status::Data, "the Luggage Rack"),
    (
        "1.4.10",
        Status::Adjudicated,
        "Bonanza (colour named in a comment when several)",
    ),
    (
        "1.4.16",
        Status::Adjudicated,
        "Eating for LV, the Marmalade Sandwich's Special Move, British Rail Coffee (halved Action durations; a Shunted carrier loses it and the shunter eir Papery Possessions)",
    ),
    (
        "1.4.18",
        Status::Adjudicated,
        "the Emporium: buying and selling",
    ),
    (
        "1.4.19",
        Status::Adjudicated,
        "spent Tokens to the Stack the play names, else discarded",
    ),
    ("1.4.20", Status::Adjudicated, "Token Collection"),
    ("1.4.22", Status::Adjudicated, "Discarding"),
    (
        "1.4.30",
        Status::Adjudicated,
        "Wearing and Removing Garments",
    ),
    (
        "1.4.31",
        Status::Adjudicated,
        "at most two Big or Huge Possessions, one Huge, however gained (checked at the end of the Turn); no Standard Move while carrying a Huge one",
    ),
    (
        "1.4.9",
        Status::Adjudicated,
        "Hoarding onto the Home Station's Stack",
    ),
    (
        "1.4.23",
        Status::Adjudicated,
        "a second Unique Possession is destroyed when created",
    ),
    (
        "1.4.28",
        Status::Adjudicated,
        "All Day Rover Cards: stamped, free Line Changes, Expired ones discarded",
    ),
    ("1.4.29", Status::Adjudicated, "the Spanger's free Shunts"),
    (
        "1.4.32",
        Status::Adjudicated,
        "Newspapers: stamped, free Walking, Yesterday's discarded",
    ),
    (
        "1.4.37",
        Status::Adjudicated,
        "Poll Tax (the taxer pays it too)",
    ),
    (
        "1.5.0",
        Status::Adjudicated,
        "valid Moves; Special Moves skip LV and set it to 0",
    ),
    (
        "1.5.1",
        Status::Adjudicated,
        "Pieces stay put between Turns",
    ),
    ("1.5.2", Status::Adjudicated, "Pass sets LV to 0"),
    (
        "1.5.13",
        Status::Adjudicated,
        "Translocations: not Blocked or Closed, nothing passed",
    ),
    (
        "1.5.10",
        Status::Data,
        "no Construction Line on the 1999 map (RULINGS.md M18)",
    ),
    (
        "1.5.3",
        Status::Adjudicated,
        "escalator links at the start, mid-move and at the end",
    ),
    (
        "1.5.4",
        Status::Adjudicated,
        "Move Portions, no reversal within a portion or at a Co-Located change",
    ),
    (
        "1.5.6",
        Status::Adjudicated,
        "Rebounding at termini and next to Blocks",
    ),
    ("1.5.7", Status::Adjudicated, "the Heathrow loop is one way"),
    (
        "1.5.11",
        Status::Adjudicated,
        "a change of Line costs 1 Black",
    ),
    (
        "1.5.12",
        Status::Adjudicated,
        "Farkle: no Actions, as a Pass",
    ),
    ("1.6.1", Status::Adjudicated, "LV never below zero"),
    ("1.6.2", Status::Adjudicated, "exactly LV stations"),
    ("1.6.3", Status::Adjudicated, "[LV+X], [LV-X], X 1-3"),
    (
        "1.7.1",
        Status::Adjudicated,
        "pre- and post-Move Actions in their phase",
    ),
    (
        "1.7.2",
        Status::Data,
        "the Action index (grammar/actions.toml)",
    ),
    (
        "1.7.9",
        Status::Adjudicated,
        "[Visiting] (Pass at a British Rail Station, +1 Gold); [Late Arrival from] holds the visitor to a Pass with no Actions on eir next Turn (Timeouts discounted)",
    ),
    ("1.7.10", Status::Adjudicated, "[Walking]"),
    ("1.7.12", Status::Adjudicated, "Striling"),
    (
        "1.7.20",
        Status::Adjudicated,
        "Busking (the instrument named in a comment)",
    ),
    ("1.7.21", Status::Adjudicated, "Bureau de Change"),
    (
        "1.7.27",
        Status::Adjudicated,
        "Token Gifts (the Tokens named in a comment)",
    ),
    ("1.7.28", Status::Adjudicated, "[Opening MC]"),
    ("1.7.33", Status::Adjudicated, "Stub Links"),
    (
        "1.7.39",
        Status::Adjudicated,
        "Recycling (what is recycled named in a comment)",
    ),
    (
        "1.7.6",
        Status::Adjudicated,
        "Standing Straddles (route distance) and Running Straddles (on along the line in the Move's last Line Direction)",
    ),
    (
        "1.7.13",
        Status::Adjudicated,
        "Compass Wormholes (a Translocation)",
    ),
    (
        "1.7.38",
        Status::Adjudicated,
        "the Hyde Mask: LV by five, no Holy Stations, Red costs",
    ),
    ("1.7.45", Status::Adjudicated, "Freewheeling"),
    ("1.7.46", Status::Adjudicated, "Electroplating"),
    (
        "1.7.51",
        Status::Adjudicated,
        "Long Lunch: whole hours for Blue; the 60-minute limit grows with it",
    ),
    (
        "1.7.52",
        Status::Adjudicated,
        "Waiting (its length in a comment; outside the 60-minute limit)",
    ),
    (
        "1.7.57",
        Status::Adjudicated,
        "Single, Double and Triple Helsinkis",
    ),
    ("1.7.58", Status::Adjudicated, "Turner's Declension"),
    (
        "1.7.60",
        Status::Adjudicated,
        "Streaking (a lost Suspect Package needs a ruling)",
    ),
    (
        "1.7.61",
        Status::Adjudicated,
        "Begging (the colour named in a comment)",
    ),
    ("1.8.3", Status::Adjudicated, "Bridges"),
    ("1.8.4", Status::Adjudicated, "Knip"),
    (
        "1.8.7",
        Status::Adjudicated,
        "Gapminding: its Actions; no line change without a Book",
    ),
    (
        "1.8.8",
        Status::Adjudicated,
        "Bocks: the States, their Actions and the surcharge",
    ),
    (
        "1.8.10",
        Status::Adjudicated,
        "Sgronk: [Sgronk!], no passing through a Stack, its end",
    ),
    (
        "1.8.13",
        Status::Adjudicated,
        "Speed Craze, Craze Sidestep, Terminating Craze",
    ),
    ("1.9.1", Status::Adjudicated, "Blocks"),
    (
        "1.9.2",
        Status::Adjudicated,
        "[Fire at]: 2 Red, 10 minutes; at an Interchange 4 Red, 10 minutes per line",
    ),
    (
        "1.9.3",
        Status::Adjudicated,
        "Bulkheading and Removing Bulkheads; a Bulkhead Blocks",
    ),
    (
        "1.9.5",
        Status::Adjudicated,
        "Maelberging and Un-Maelberging; no passing through",
    ),
    (
        "1.9.6",
        Status::Adjudicated,
        "Kafka Sinkholes: no passing through; Tokens turn Black",
    ),
    (
        "1.10.0",
        Status::Adjudicated,
        "targeting: same Station and Line, first post-Move Action",
    ),
    (
        "1.10.1",
        Status::Adjudicated,
        "Shunts of Players and of Token Stacks of at most 6 (claims named in a comment); Suspect Packages and the PoID, not kept in a GSD's tables, need a ruling",
    ),
    ("1.10.3", Status::Adjudicated, "Dead-End Shunts"),
    (
        "1.19.4",
        Status::Adjudicated,
        "Charge Tunneling: a Translocation to a station of the same Current, never Mornington Crescent",
    ),
    (
        "1.4.33",
        Status::Adjudicated,
        "switching Electrical Possessions On and Off; all Off on an Electrified line (applied as each Turn ends)",
    ),
    (
        "1.10.5",
        Status::Adjudicated,
        "Shadowing (the Token named in a comment)",
    ),
    (
        "1.10.15",
        Status::Adjudicated,
        "Huffing (the new LV named in a comment)",
    ),
    (
        "1.10.16",
        Status::Adjudicated,
        "Blonking (the Token named in a comment)",
    ),
    ("1.10.17", Status::Adjudicated, "Stationary Shunts"),
    ("1.10.18", Status::Adjudicated, "Power Shunts"),
    (
        "1.11.1",
        Status::Adjudicated,
        "Wild Stations, [Wild], [<Station> Wild]",
    ),
    (
        "1.11.3",
        Status::Adjudicated,
        "Damage closes or Blocks; one repair a new day",
    ),
    (
        "1.11.4",
        Status::Adjudicated,
        "Pegging, Unpegging; no Turn ends at a Peg; nothing placed or removed there",
    ),
    (
        "1.11.5",
        Status::Adjudicated,
        "Pegged Line Segments: [Pegging from] right after Pegging an end, no change of direction, no Piece on it, no overlap, 1 Blue per unpegged Station; Unpegging an end Unpegs it"),
    (
        "1.11.6",
        Status::Adjudicated,
        "Ghosting and leaving a Ghost Station",
    ),
    (
        "1.11.7",
        Status::Adjudicated,
        "Sanctuary, Collection Plate, Defaming",
    ),
    ("1.12.1", Status::Adjudicated, "Home Stations"),
    ("1.12.2", Status::Adjudicated, "declaring a Home Station"),
    (
        "1.12.3",
        Status::Adjudicated,
        "other players' Homes are Blocked; Toll closes, Rent opens them",
    ),
    ("1.12.4", Status::Adjudicated, "[Home]"),
    (
        "1.13.1",
        Status::Adjudicated,
        "Game Time, the 0000-0500 skip, Night Train, the 60-minute Turn",
    ),
    ("1.13.3", Status::Adjudicated, "durations"),
    (
        "1.13.4",
        Status::Adjudicated,
        "Closed stations and segments",
    ),
    ("1.13.5", Status::Adjudicated, "restricted station openings"),
    (
        "1.13.6",
        Status::Adjudicated,
        "restricted segments, Peak Hours",
    ),
    (
        "1.13.7",
        Status::Adjudicated,
        "[Upcoming Holiday] (one at a time), the next player's {rolled N} names the day; the firstcoming one is a Sunday, over at its end"),
    ("1.14.1", Status::Data, "Token Stacks"),
    (
        "1.14.2",
        Status::Adjudicated,
        "Stack sequences and their rewards",
    ),
    ("1.14.3", Status::Adjudicated, "Token Dropping"),
    (
        "1.14.4",
        Status::Adjudicated,
        "Token Claiming: several a Turn, once per Station (twice Wearing Gloves), never a Token placed this Turn"),
    (
        "1.17.1",
        Status::Data,
        "the 1999 map (maps/london-1999.toml)",
    ),
    ("1.17.2", Status::Data, "Quadrants"),
    ("1.17.4", Status::Data, "Line Codes"),
    ("1.17.6", Status::Data, "station categories"),
    ("1.17.7", Status::Data, "zones"),
    ("1.17.8", Status::Data, "Currents"),
    ("1.17.9", Status::Data, "Fosdyke Notation"),
    ("1.17.10", Status::Data, "Call"),
    ("1.19.1", Status::Data, "Currents"),
    ("1.19.2", Status::Adjudicated, "Charge"),
    (
        "1.15.1",
        Status::Adjudicated,
        "the Drone: Active only while an Active player carries the Drone Stick, who submits its Turns; no Home, never Wins",
    ),
    (
        "1.15.2",
        Status::Adjudicated,
        "[Claiming Drone Stick]: 3 Blue, taken from its carrier, not before the Drone's next Turn",
    ),
    (
        "1.20.0",
        Status::Adjudicated,
        "Line States need the Piece on the line; a new State replaces the line's others, not its Speed Limit",
    ),
    ("1.20.1", Status::Adjudicated, "Normal State"),
    (
        "1.20.2",
        Status::Adjudicated,
        "One Way lines and the segments touching them",
    ),
    (
        "1.20.3",
        Status::Adjudicated,
        "Electrified lines Block for Metallic Tokens",
    ),
    ("1.20.4", Status::Adjudicated, "Speed Limits"),
    (
        "1.20.5",
        Status::Adjudicated,
        "Power Failures for one Round: no Move (but Walking) starts, ends or passes at the line's stations; no Straddle from them",
    ),
    (
        "1.20.6",
        Status::Adjudicated,
        "Soaped lines for one Round: a Shunt along one takes the shunter too",
    ),
];

#[derive(Deserialize)]
struct RuleList {
    rule: Vec<RuleEntry>,
}

#[derive(Deserialize)]
struct RuleEntry {
    number: String,
    title: String,
}

/// One line of the coverage report.
#[derive(Clone, Debug, Serialize)]
pub struct Coverage {
    /// Rule number.
    pub rule: String,
    /// Its title.
    pub title: String,
    /// Status.
    pub status: Status,
    /// What the engine does with it.
    pub note: String,
    /// Rule cases citing it.
    pub cases: usize,
}

/// Every rule of Volume 1 with its status; `case_rules` are the `rules`
/// lists of the case corpus.
pub fn coverage(case_rules: &[Vec<String>]) -> Vec<Coverage> {
    let list: RuleList = toml::from_str(include_str!("../../grammar/rules-vol1.toml"))
        .expect("grammar/rules-vol1.toml is valid");
    list.rule
        .into_iter()
        .map(|r| {
            let (status, note) = IMPLEMENTED
                .iter()
                .find(|(n, _, _)| *n == r.number)
                .map(|(_, s, n)| (*s, n.to_string()))
                .unwrap_or((Status::Ruling, "needs a human ruling".to_string()));
            let cases = case_rules
                .iter()
                .filter(|rs| rs.contains(&r.number))
                .count();
            Coverage {
                rule: r.number,
                title: r.title,
                status,
                note,
                cases,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_rule_exists_and_none_is_missing() {
        let all = coverage(&[]);
        assert!(all.len() > 170, "the whole of Volume 1");
        for (n, _, _) in IMPLEMENTED {
            assert!(
                all.iter().any(|c| c.rule == *n),
                "{n} is not a rule of Volume 1"
            );
        }
        assert!(all.iter().any(|c| c.status == Status::Ruling));
    }
}
