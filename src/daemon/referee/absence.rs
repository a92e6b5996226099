//! Absences by mail (issue 17, item 3; RULINGS S27 - S29): a player's
//! `ABSENCE <first day> TO <last day> [game]` stops eir turn's clock while
//! e is away, as the weekend stops it (Rule 1.3.5); `CANCEL ABSENCE` ends
//! eir absences now, and the Speaker's `REFUSE ABSENCE <player>` ends a
//! player's. Each is an event of the game (so a restart, a snapshot and the
//! agenda see it), told to the lounge and answered to the sender. The
//! arithmetic is `crate::speaker::absence`'s.

use chrono::{DateTime, Duration, Utc};

use super::ending::over;
use super::event::AwayCut;
use super::notice::Thread;
use super::speaker::SpeakerDone;
use super::{fmt_time, Command, Event, Letter, Live, Out, Referee, RefereeError, Request};
use crate::config::AbsenceConfig;
use crate::mail::absence::AbsenceCmd;
use crate::speaker::absence::{describe, Absence};
use crate::store::{Commit, Store};

/// The absences of a game's events, as set and cut.
pub(super) fn load(events: &[(DateTime<Utc>, Event)]) -> Vec<Absence> {
    let mut v = Vec::new();
    for (_, e) in events {
        match e {
            Event::Away(a) => v.push(a.clone()),
            Event::AwayCut(c) => {
                cut(&mut v, &c.player, c.at);
            }
            _ => {}
        }
    }
    v
}

/// Ends `player`'s absences at `at`: one begun ends there, a later one
/// goes. Whether anything changed.
fn cut(v: &mut Vec<Absence>, player: &str, at: DateTime<Utc>) -> bool {
    let before = v.len();
    v.retain(|a| !(a.player.eq_ignore_ascii_case(player) && a.from >= at));
    let mut changed = v.len() != before;
    for a in v.iter_mut() {
        if a.player.eq_ignore_ascii_case(player) && a.to > at {
            a.to = at;
            changed = true;
        }
    }
    changed
}

/// What an ask did: the game changed, and the summary.
type Done = (bool, String);

/// What the absences need of a game: a Volume 1 game ([`Live`]) or a
/// game of another kind ([`super::Hosted`], issue 41).
pub(super) trait Seats {
    /// The game's tag.
    fn tag(&self) -> String;
    /// Why the game takes no absence, once it is over.
    fn over(&self) -> Option<String>;
    /// The player registered at `address`.
    fn player_at(&self, address: &str) -> Option<String>;
    /// The address of `player`.
    fn address_for(&self, player: &str) -> Option<String>;
    /// Every registered player's name.
    fn registered(&self) -> Vec<String>;
    /// Whether `player` still plays (has not resigned).
    fn still_plays(&self, player: &str) -> bool;
    /// The absences, as set and cut.
    fn absences(&self) -> &[Absence];
    /// The absences, to change.
    fn absences_mut(&mut self) -> &mut Vec<Absence>;
    /// When the awaited turn is due.
    fn due(&self) -> Option<DateTime<Utc>>;
    /// Who is awaited, and the number of the awaited turn.
    fn awaited(&self) -> (String, usize);
}

impl Seats for Live {
    fn tag(&self) -> String {
        self.game.tag.clone()
    }
    fn over(&self) -> Option<String> {
        over(self)
    }
    fn player_at(&self, address: &str) -> Option<String> {
        self.player_of(address).map(str::to_string)
    }
    fn address_for(&self, player: &str) -> Option<String> {
        self.address_of(player).map(str::to_string)
    }
    fn registered(&self) -> Vec<String> {
        self.def.players.iter().map(|p| p.0.clone()).collect()
    }
    fn still_plays(&self, player: &str) -> bool {
        self.game.state.player_index(player).is_some()
    }
    fn absences(&self) -> &[Absence] {
        &self.absences
    }
    fn absences_mut(&mut self) -> &mut Vec<Absence> {
        &mut self.absences
    }
    fn due(&self) -> Option<DateTime<Utc>> {
        self.deadline()
    }
    fn awaited(&self) -> (String, usize) {
        (self.game.to_play().to_string(), self.game.plays.len() + 1)
    }
}

impl Referee {
    /// Sets how long players may be away (`[absence]`).
    pub fn set_absence_limits(&mut self, config: AbsenceConfig) {
        self.absence = config;
    }

    /// Handles a mail holding absence commands (answering its other
    /// commands too); `None` when it holds none. One game a mail.
    pub(super) fn absence_mail(
        &self,
        store: &Store,
        letter: &Letter,
        at: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Result<Option<SpeakerDone>, RefereeError> {
        let Request::Commands(cmds) = &letter.request else {
            return Ok(None);
        };
        if cmds.len() > self.limits.commands_per_mail {
            return Ok(None);
        }
        let (mut asks, mut rest) = (Vec::new(), Vec::new());
        for c in cmds {
            match c {
                Command::Absence(AbsenceCmd::Malformed { line, expected }) => {
                    out.refuse(format!("\"{line}\" could not be read: {expected}."));
                }
                Command::Absence(a) => asks.push(a.clone()),
                _ => rest.push(c.clone()),
            }
        }
        let answered = rest.len() < cmds.len();
        if !answered {
            return Ok(None);
        }
        let summary = match asks.first() {
            None => Some((None, None, "absence: malformed".to_string())),
            Some(first) => match self.ending_game(letter, first.game(), out) {
                None => Some((None, None, "absence: game unknown".to_string())),
                Some(tag) if self.is_hosted(&tag) => {
                    // Its changes reach it through the commit's events
                    // (`refresh_hosted`).
                    let mut h = self.hosted(store, &tag)?;
                    let said = self.asks_for(&mut h, &asks, letter, at, out, commit);
                    Some((Some(tag), None, said))
                }
                Some(tag) => {
                    let mut live = self.live(store, &tag)?;
                    let before = live.absences.clone();
                    let said = self.asks_for(&mut live, &asks, letter, at, out, commit);
                    let changed = live.absences != before;
                    Some((Some(tag), changed.then_some(live), said))
                }
            },
        };
        if !rest.is_empty() {
            self.commands(store, &rest, out)?;
        }
        Ok(summary)
    }

    /// One absence command on `live`.
    #[allow(clippy::too_many_arguments)]
    /// Does `asks` for the game `live` (one game a mail); the summary.
    fn asks_for(
        &self,
        live: &mut impl Seats,
        asks: &[AbsenceCmd],
        letter: &Letter,
        at: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> String {
        let tag = live.tag();
        let mut said = Vec::new();
        for (i, ask) in asks.iter().enumerate() {
            if ask.game().is_some_and(|g| !g.eq_ignore_ascii_case(&tag)) {
                out.refuse(format!(
                    "One game a mail: this one is about {tag}, so the absence command for {} \
                     was not done; send it in a mail of its own.",
                    ask.game().unwrap_or_default()
                ));
                continue;
            }
            let th = Thread::answering(&tag, format!("{}#absence-{i}", letter.message_id), letter);
            let d = self.absence_ask(live, ask, letter, at, out, commit, &th);
            said.push(d.1);
        }
        said.join("; ")
    }

    #[allow(clippy::too_many_arguments)]
    fn absence_ask(
        &self,
        live: &mut impl Seats,
        ask: &AbsenceCmd,
        letter: &Letter,
        at: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
        th: &Thread,
    ) -> Done {
        let tag = live.tag();
        if let Some(why) = live.over() {
            out.refuse(why);
            return (false, "absence refused: game over".into());
        }
        match ask {
            AbsenceCmd::Set { from, to, .. } => {
                let Some(player) = live.player_at(&letter.from) else {
                    out.refuse(self.not_a_player(&letter.from, &tag, "set an absence in it"));
                    return (false, "absence refused: not a player".into());
                };
                match self.absence_check(live, &player, *from, *to, at) {
                    Err(why) => {
                        out.refuse(why);
                        (false, "absence refused".into())
                    }
                    Ok(from) => {
                        self.absence_set(live, &player, from, *to, letter, at, out, commit, th)
                    }
                }
            }
            AbsenceCmd::Cancel { .. } => {
                let Some(player) = live.player_at(&letter.from) else {
                    out.refuse(self.not_a_player(&letter.from, &tag, "cancel an absence in it"));
                    return (false, "absence cancel refused: not a player".into());
                };
                self.absence_cut(live, &player, false, at, out, commit, th)
            }
            AbsenceCmd::Refuse { player, .. } => {
                if !self.is_speaker(&letter.from) {
                    out.refuse(format!(
                        "REFUSE ABSENCE is the Speaker's, and {} is not one of the Speaker's \
                         addresses.",
                        letter.from
                    ));
                    return (false, "absence refusal refused: not the Speaker".into());
                }
                let Some(name) = live
                    .registered()
                    .into_iter()
                    .find(|n| n.eq_ignore_ascii_case(player))
                else {
                    out.refuse(format!("{player} is no player of {tag}."));
                    return (false, "absence refusal refused: no such player".into());
                };
                self.absence_cut(live, &name, true, at, out, commit, th)
            }
            AbsenceCmd::Malformed { .. } => (false, "absence: malformed".into()),
        }
    }

    /// Whether `player` may be away from `from` to `to`, asked at `at`:
    /// the absence's start (not before `at`), or why not.
    fn absence_check(
        &self,
        live: &impl Seats,
        player: &str,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        at: DateTime<Utc>,
    ) -> Result<DateTime<Utc>, String> {
        let c = &self.absence;
        let tag = &live.tag();
        if c.max_days == 0 {
            return Err(
                "Absences are not taken in this lounge ([absence] max_days = 0); ask \
                        the Speaker to PAUSE the game instead."
                    .into(),
            );
        }
        if !live.still_plays(player) {
            return Err(format!("{player} has Resigned from {tag}."));
        }
        // Time already gone is not given back (RULINGS S28).
        let from = from.max(at);
        if to <= from {
            return Err(format!(
                "That absence ({}) was over before this mail: nothing to set.",
                describe(from, to)
            ));
        }
        if from - at > Duration::days(i64::from(c.max_ahead_days)) {
            return Err(format!(
                "An absence may begin at most {} days ahead ([absence] max_ahead_days); this \
                 one is {}. Send it nearer the time.",
                c.max_ahead_days,
                describe(from, to)
            ));
        }
        if to - from > Duration::days(i64::from(c.max_days)) {
            return Err(format!(
                "An absence may last at most {} days ([absence] max_days); one {} is \
                 longer. Ask the Speaker if you need more.",
                c.max_days,
                describe(from, to)
            ));
        }
        let mine: Vec<&Absence> = live
            .absences()
            .iter()
            .filter(|a| a.player.eq_ignore_ascii_case(player))
            .collect();
        if let Some(o) = mine.iter().find(|a| a.from < to && from < a.to) {
            return Err(format!(
                "It overlaps your absence {} in {tag}: send CANCEL ABSENCE {tag} first, \
                 then the whole absence.",
                describe(o.from, o.to)
            ));
        }
        let used = mine
            .iter()
            .fold(Duration::zero(), |s, a| s + (a.to - a.from));
        if used + (to - from) > Duration::days(i64::from(c.max_total_days)) {
            return Err(format!(
                "Your absences in {tag} would come to more than {} days ([absence] \
                 max_total_days; {} hours already). Ask the Speaker.",
                c.max_total_days,
                used.num_hours()
            ));
        }
        Ok(from)
    }

    /// Records `player`'s absence and tells the lounge and the sender.
    #[allow(clippy::too_many_arguments)]
    fn absence_set(
        &self,
        live: &mut impl Seats,
        player: &str,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        letter: &Letter,
        at: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
        th: &Thread,
    ) -> Done {
        let tag = live.tag();
        let before = live.due();
        let a = Absence {
            player: player.to_string(),
            from,
            to,
            message_id: letter.message_id.clone(),
        };
        Event::Away(a.clone()).record(&tag, commit);
        live.absences_mut().push(a);
        let moved = moved(live, before);
        let span = describe(from, to);
        self.announce(
            commit,
            th,
            format!("{player} is away"),
            format!(
                "{player} is away {span} in {tag}: while e is away, eir turn's clock stops, \
                 as at a weekend (Rule 1.3.5; RULINGS S27).{moved} The Speaker may refuse \
                 it: REFUSE ABSENCE {player} {tag}."
            ),
            at,
        );
        out.sender(self.notice(format!(
            "You are away {span} in {tag}; the lounge is told.{moved} Back early? Send \
             CANCEL ABSENCE {tag}."
        )));
        (true, format!("{player} away in {tag}"))
    }

    /// Ends `player`'s absences now: by emself, or refused by the Speaker.
    #[allow(clippy::too_many_arguments)]
    fn absence_cut(
        &self,
        live: &mut impl Seats,
        player: &str,
        refused: bool,
        at: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
        th: &Thread,
    ) -> Done {
        let tag = live.tag();
        let before = live.due();
        let mut kept = live.absences().to_vec();
        if !cut(&mut kept, player, at) {
            out.refuse(format!("{player} has no absence in {tag} now or to come."));
            return (false, "absence cut refused: none".into());
        }
        Event::AwayCut(AwayCut {
            player: player.to_string(),
            at,
            refused,
        })
        .record(&tag, commit);
        *live.absences_mut() = kept;
        let moved = moved(live, before);
        let (headline, text) = if refused {
            (
                format!("The Speaker refuses {player}'s absence"),
                format!(
                    "The Speaker refuses {player}'s absence in {tag} (RULINGS S28): it ends \
                     now, and eir turn's clock runs as Rule 1.3.5 says. The time e was away \
                     until now still does not count.{moved}"
                ),
            )
        } else {
            (
                format!("{player} is back"),
                format!(
                    "{player} is back in {tag}: eir absence ends now, and eir turn's clock runs \
                     as Rule 1.3.5 says.{moved}"
                ),
            )
        };
        // The lounge is told; a player whose absence the Speaker refuses
        // is away, and is told privately too, in a mail of eir own (no
        // lounge mail shows an address).
        self.announce(commit, th, headline.clone(), text.clone(), at);
        if refused {
            if let Some(addr) = live.address_for(player) {
                self.mail_to(commit, vec![addr], &th.sub("#player"), headline, text, at);
            }
        }
        out.sender(self.notice(format!("Done: {player}'s absence in {tag} ends now.")));
        (true, format!("{player}'s absence in {tag} ended"))
    }
}

/// " Turn N is now due by T (was U)." when the awaited turn's deadline
/// moved from `before`; else nothing.
fn moved(live: &impl Seats, before: Option<DateTime<Utc>>) -> String {
    let after = live.due();
    let (who, n) = live.awaited();
    match (before, after) {
        (Some(b), Some(a)) if a != b => format!(
            " {who}'s turn {n} is now due by {} (it was due by {}).",
            fmt_time(a),
            fmt_time(b)
        ),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    fn away(player: &str, from: &str, to: &str) -> Absence {
        Absence {
            player: player.into(),
            from: t(from),
            to: t(to),
            message_id: String::new(),
        }
    }

    #[test]
    fn a_cut_ends_a_begun_absence_and_drops_later_ones() {
        let mut v = vec![
            away("Warren", "2026-12-01T00:00:00Z", "2026-12-05T00:00:00Z"),
            away("Warren", "2026-12-10T00:00:00Z", "2026-12-12T00:00:00Z"),
            away("Rushton", "2026-12-01T00:00:00Z", "2026-12-05T00:00:00Z"),
            away("Warren", "2026-11-01T00:00:00Z", "2026-11-02T00:00:00Z"),
        ];
        assert!(cut(&mut v, "warren", t("2026-12-03T00:00:00Z")));
        assert_eq!(
            v,
            vec![
                away("Warren", "2026-12-01T00:00:00Z", "2026-12-03T00:00:00Z"),
                away("Rushton", "2026-12-01T00:00:00Z", "2026-12-05T00:00:00Z"),
                away("Warren", "2026-11-01T00:00:00Z", "2026-11-02T00:00:00Z"),
            ]
        );
        // Nothing left to cut.
        assert!(!cut(&mut v, "Warren", t("2026-12-03T00:00:00Z")));
    }

    #[test]
    fn events_fold_to_the_absences_in_order() {
        let events = vec![
            (
                t("2026-11-30T09:00:00Z"),
                Event::Away(away(
                    "Warren",
                    "2026-12-01T00:00:00Z",
                    "2026-12-05T00:00:00Z",
                )),
            ),
            (
                t("2026-12-02T12:00:00Z"),
                Event::AwayCut(AwayCut {
                    player: "Warren".into(),
                    at: t("2026-12-02T12:00:00Z"),
                    refused: true,
                }),
            ),
            (
                t("2026-12-03T09:00:00Z"),
                Event::Away(away(
                    "Warren",
                    "2026-12-08T00:00:00Z",
                    "2026-12-09T00:00:00Z",
                )),
            ),
        ];
        assert_eq!(
            load(&events),
            vec![
                away("Warren", "2026-12-01T00:00:00Z", "2026-12-02T12:00:00Z"),
                away("Warren", "2026-12-08T00:00:00Z", "2026-12-09T00:00:00Z"),
            ]
        );
    }
}
