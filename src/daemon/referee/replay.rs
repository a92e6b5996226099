//! An old play sent again (RULINGS L9): a bare Play line names no position
//! in the game, so the mail's Date tells whether its author could have seen
//! the turn it follows. A GSD needs no such test: it carries the plays it
//! follows, and one that is not the game's is stale.

use chrono::Duration;

use super::{fmt_time, Disposition, Letter, Live, Out, Referee};
use crate::kinds::vol1::{render_play, Play};

impl Referee {
    /// Refuses `play`, a bare line, when the same play is already in the
    /// game's log and its mail is dated before the game's last turn was
    /// played (less `[speaker] replay_allowance_minutes` for clocks that
    /// run slow): its author wrote it before that turn existed, so it is
    /// that old play sent again under a new Message-ID, not an answer to
    /// the game as it stands. A new play is judged whatever its Date (a
    /// wrong clock is no attack), and so is a mail without a readable Date.
    pub(super) fn refuse_replay(
        &self,
        live: &Live,
        letter: &Letter,
        play: &Play,
        out: &mut Out,
    ) -> Result<(), Disposition> {
        let (Some(date), Some(last)) = (letter.date, live.turns.last()) else {
            return Ok(());
        };
        let allowance = Duration::minutes(i64::from(self.speaker.replay_allowance_minutes));
        if date + allowance >= last.submitted_at {
            return Ok(());
        }
        let text = render_play(play);
        let Some(n) = live.game.plays.iter().rposition(|p| render_play(p) == text) else {
            return Ok(());
        };
        let tag = &live.game.tag;
        tracing::warn!(id = %letter.message_id, from = %letter.from, %date, turn = n + 1,
            "an old play dated before the turn it would follow: refused as a replay");
        out.refuse(format!(
            "Your mail is dated {}, before turn {} of {tag} was played ({}), and its \
             play is turn {}'s, so mornbot takes it for that play sent again and did \
             not judge it (RULINGS L9):\n\n    {text}\n\nIf you mean to play it \
             again now, post it again.",
            fmt_time(date),
            last.n,
            fmt_time(last.submitted_at),
            n + 1
        ));
        Err(Disposition::Unchanged("refused: replay".into()))
    }
}
