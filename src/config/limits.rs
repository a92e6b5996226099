//! `[limits]`: the most work one mail may cause, and each limit's range.

use serde::{Deserialize, Serialize};

/// The default largest reply, in bytes (`[limits] reply_bytes`).
pub const DEFAULT_REPLY_BYTES: usize = 256 * 1024;
/// The smallest allowed reply limit: room for the headers and a note.
pub const MIN_REPLY_BYTES: usize = 16 * 1024;

/// `[limits]`: the most work one mail may cause, so that no mail, however
/// hostile, costs more than a moment or grows a reply without bound. Each
/// refusal names the key it ran into.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct LimitsConfig {
    /// Commands read from one mail (HELP, STATUS, GSD, HISTORY, RULES);
    /// a mail with more is refused.
    pub commands_per_mail: usize,
    /// Mails answering commands one address may draw in an hour (the
    /// Speaker excepted), counted with every private mail to it; past it,
    /// one "limit reached" reply, then its commands go unanswered for the
    /// rest of the hour. Its turns are judged and answered as ever.
    pub command_replies_per_hour: usize,
    /// The largest reply, in bytes; a longer one is cut at a line, and
    /// says what was cut.
    pub reply_bytes: usize,
    /// Actions in one Play (the longest sensible Turn has about 40); a
    /// Play with more is refused.
    pub actions_per_play: usize,
    /// Plays in one GSD (it lists every Move of the game, Rule 1.2.0); a
    /// GSD with more is refused.
    pub plays_per_gsd: usize,
    /// Characters in one comment `{...}` of a Play (issue 40: a legal Pass
    /// with a 700 KB comment grew the database, the archive and every
    /// HISTORY answer); a Play with a longer one is refused.
    pub comment_chars: usize,
    /// Characters in one line of a Play or a GSD; a longer line is
    /// refused.
    pub line_chars: usize,
    /// Characters in one Play, its continuation lines and comments
    /// included (issue 40: 60 lines of four 990-character comments were a
    /// legal 238 KB Pass, whose verdict was 349 KB); a longer Play is
    /// refused, and so is a GSD whose new Play is longer.
    pub play_chars: usize,
    /// The time judging one mail may take, in milliseconds; a mail that
    /// needs more is refused with a reply, not judged.
    pub work_ms_per_mail: u64,
    /// Replies to one stranger (an address no game or Speaker knows) in an
    /// hour, counted per reply whatever queued it; then one "limit
    /// reached" reply, then none: mail from that address is judged but not
    /// answered, so a forged From cannot aim mornbot's replies at a victim.
    pub stranger_replies_per_hour: usize,
    /// Replies to all strangers together in an hour (the "limit reached"
    /// replies included); past it, none.
    pub stranger_replies_total_per_hour: usize,
    /// The largest picture of the game attached to a lounge verdict, in
    /// PNG bytes (issue 18); a larger one is left off, and the verdict
    /// says so. `reply_bytes` bounds the text alone.
    pub picture_bytes: usize,
}

impl Default for LimitsConfig {
    fn default() -> Self {
        LimitsConfig {
            commands_per_mail: 10,
            command_replies_per_hour: 30,
            reply_bytes: DEFAULT_REPLY_BYTES,
            actions_per_play: 40,
            plays_per_gsd: 2000,
            comment_chars: 1000,
            line_chars: 4000,
            play_chars: 4000,
            work_ms_per_mail: 1000,
            stranger_replies_per_hour: 5,
            stranger_replies_total_per_hour: 20,
            picture_bytes: 256 << 10,
        }
    }
}

impl LimitsConfig {
    /// Each limit's key, value and allowed range.
    pub(super) fn bounds(&self) -> [(&'static str, u64, u64, u64); 12] {
        [
            ("commands_per_mail", self.commands_per_mail as u64, 1, 1000),
            (
                "command_replies_per_hour",
                self.command_replies_per_hour as u64,
                1,
                10_000,
            ),
            (
                "reply_bytes",
                self.reply_bytes as u64,
                MIN_REPLY_BYTES as u64,
                64 << 20,
            ),
            ("actions_per_play", self.actions_per_play as u64, 1, 1000),
            ("plays_per_gsd", self.plays_per_gsd as u64, 1, 100_000),
            ("comment_chars", self.comment_chars as u64, 80, 100_000),
            ("line_chars", self.line_chars as u64, 200, 100_000),
            ("play_chars", self.play_chars as u64, 200, 1_000_000),
            ("work_ms_per_mail", self.work_ms_per_mail, 10, 600_000),
            (
                "stranger_replies_per_hour",
                self.stranger_replies_per_hour as u64,
                0,
                10_000,
            ),
            (
                "stranger_replies_total_per_hour",
                self.stranger_replies_total_per_hour as u64,
                0,
                100_000,
            ),
            ("picture_bytes", self.picture_bytes as u64, 0, 16 << 20),
        ]
    }
}
