//! The work budget of one mail (`[limits] work_ms_per_mail`, issue 14).
//!
//! The structural limits (commands per mail, Actions per play, the
//! lengths of a comment, a line and a whole play, plays per GSD, the
//! message size) bound what a mail can cost before it is read;
//! the budget is the net behind them. Judging runs on a copy of the game,
//! so a mail whose judging took longer than the budget is refused with a
//! reply and the copy thrown away: whatever it asked, it changes nothing.

use std::sync::Arc;
use std::time::Duration;

use super::{Disposition, Out, Referee};

/// Time elapsed since some fixed instant: the daemon's monotonic clock,
/// or a test's fake.
pub type Stopwatch = Arc<dyn Fn() -> Duration + Send + Sync>;

/// A stopwatch on the monotonic clock (not the wall clock: a clock set
/// back mid-mail must not make it look free).
pub fn monotonic() -> Stopwatch {
    let origin = std::time::Instant::now();
    Arc::new(move || origin.elapsed())
}

impl Referee {
    /// Now, on the stopwatch.
    pub(super) fn lap(&self) -> Duration {
        (self.stopwatch)()
    }

    /// The refusal of a mail whose judging took `took` since `started`,
    /// when that is over `[limits] work_ms_per_mail`.
    pub(super) fn over_budget(&self, started: Duration) -> Option<String> {
        let took = self.lap().saturating_sub(started);
        let budget = Duration::from_millis(self.limits.work_ms_per_mail);
        (took > budget).then(|| {
            format!(
                "Judging your mail took {} ms, over the {} ms mornbot gives one mail \
                 ([limits] work_ms_per_mail), so it was not judged. Please send a \
                 shorter mail: one turn, or fewer commands.",
                took.as_millis(),
                budget.as_millis()
            )
        })
    }
}

/// The structural limits of one Play or GSD, checked before it is read.
impl Referee {
    /// Refuses `text` (a Play, or a whole GSD) when it would cost more to
    /// read than `[limits]` allows, before any parsing; `None` when it may
    /// be read.
    pub(super) fn refuse_over_limits(
        &self,
        text: &str,
        gsd: bool,
        out: &mut Out,
    ) -> Option<Disposition> {
        let why = self.over_limits(text, gsd)?;
        out.refuse(format!("{why}, so it was not read."));
        Some(Disposition::Unchanged(format!("refused: {why}")))
    }

    /// Refuses the Play a GSD adds (`play`, as mornbot writes it) when it
    /// is longer than `[limits] play_chars`: a GSD's Plays are told apart
    /// only by parsing it, so its new Play is measured once read.
    pub(super) fn refuse_long_play(&self, play: &str, out: &mut Out) -> Option<Disposition> {
        let why = self.over_play_chars(play)?;
        out.refuse(format!("{why}, so it was not judged."));
        Some(Disposition::Unchanged(format!("refused: {why}")))
    }

    /// Why a Play's text is longer than `[limits] play_chars`, counted as
    /// [`play_chars`] counts.
    fn over_play_chars(&self, play: &str) -> Option<String> {
        let n = play_chars(play);
        (n > self.limits.play_chars).then(|| {
            format!(
                "a play of {n} characters: mornbot reads plays of at most {} \
                 ([limits] play_chars)",
                self.limits.play_chars
            )
        })
    }

    /// Why `text` would cost more to read than `[limits]` allows: the
    /// Actions of a Play (its `[`s; in a GSD, of its longest line), a
    /// line's length, a comment's, a Play's length (its continuation lines
    /// included; a GSD's new Play is measured once read), the Play lines
    /// of a GSD (lines with ` : `).
    fn over_limits(&self, text: &str, gsd: bool) -> Option<String> {
        let actions = if gsd {
            text.lines()
                .map(|l| l.matches('[').count())
                .max()
                .unwrap_or(0)
        } else {
            text.matches('[').count()
        };
        if actions > self.limits.actions_per_play {
            return Some(format!(
                "a play with {actions} Actions: mornbot reads at most {} in one play \
                 ([limits] actions_per_play)",
                self.limits.actions_per_play
            ));
        }
        if let Some(longest) = comments(text).map(|c| c.chars().count()).max() {
            if longest > self.limits.comment_chars {
                return Some(format!(
                    "a comment {{...}} of {longest} characters: mornbot keeps comments of at \
                     most {} ([limits] comment_chars)",
                    self.limits.comment_chars
                ));
            }
        }
        if let Some(line) = text
            .lines()
            .find(|l| l.chars().count() > self.limits.line_chars)
        {
            return Some(format!(
                "a line of {} characters: mornbot reads lines of at most {} \
                 ([limits] line_chars)",
                line.chars().count(),
                self.limits.line_chars
            ));
        }
        if !gsd {
            if let Some(why) = self.over_play_chars(text) {
                return Some(why);
            }
        }
        let plays = text.lines().filter(|l| l.contains(" : ")).count();
        (gsd && plays > self.limits.plays_per_gsd).then(|| {
            format!(
                "a GSD with {plays} plays: mornbot reads at most {} in one GSD \
                 ([limits] plays_per_gsd)",
                self.limits.plays_per_gsd
            )
        })
    }
}

/// The characters of a Play, each run of spaces and line breaks counted
/// as one: a Play wrapped over lines, or indented, is as long as the line
/// mornbot writes for it.
fn play_chars(play: &str) -> usize {
    play.split_whitespace()
        .map(|w| w.chars().count() + 1)
        .sum::<usize>()
        .saturating_sub(1)
}

/// The texts of the comments `{...}` in `text` (an unclosed one runs to
/// the end), across lines: a comment a client wrapped is one comment.
fn comments(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let open = rest.find('{')?;
        let body = &rest[open + 1..];
        let close = body.find('}').unwrap_or(body.len());
        rest = body.get(close + 1..).unwrap_or("");
        Some(&body[..close])
    })
}
