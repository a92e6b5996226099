//! Replies to strangers, rate-limited (issue 14, finding 7; RULINGS L10).
//!
//! A refusal goes to the address in From, which anyone can forge: mail
//! "from" a victim makes mornbot write to the victim (backscatter). Players
//! and the Speaker are always answered; an address no game knows gets at
//! most `[limits] stranger_replies_per_hour` replies in an hour, and all
//! strangers together `stranger_replies_total_per_hour`. Past either, the
//! mail is still judged (a stranger changes nothing a stranger may not) but
//! not answered. A mail that fails a trusted server's authentication is
//! never answered at all (RULINGS L7).

use chrono::Duration;

use super::{Referee, RefereeError};
use crate::store::Store;

impl Referee {
    /// Whether `address` is someone mornbot answers without counting: a
    /// player of any game, the Speaker, the lounge or mornbot itself.
    fn is_known(&self, address: &str) -> bool {
        let same = |a: &str| crate::mail::address::same(a, address);
        self.is_registered(address)
            || self.is_speaker(address)
            || same(&self.me.lounge)
            || same(&self.me.address)
    }

    /// Why replies to `address` must not go out now, when it is a stranger
    /// over the hourly limits; `None` when they may.
    pub(super) fn stranger_quota(
        &self,
        store: &Store,
        address: &str,
    ) -> Result<Option<String>, RefereeError> {
        if self.is_known(address) {
            return Ok(None);
        }
        let recent = store.recent_recipients(Duration::hours(1))?;
        let strangers: Vec<&String> = recent.iter().filter(|r| !self.is_known(r)).collect();
        let to_this = strangers
            .iter()
            .filter(|r| crate::mail::address::same(r, address))
            .count();
        let (per, total) = (
            self.limits.stranger_replies_per_hour,
            self.limits.stranger_replies_total_per_hour,
        );
        Ok(if to_this >= per {
            Some(format!(
                "{to_this} replies to {address} in the last hour ([limits] \
                 stranger_replies_per_hour = {per})"
            ))
        } else if strangers.len() >= total {
            Some(format!(
                "{} replies to strangers in the last hour ([limits] \
                 stranger_replies_total_per_hour = {total})",
                strangers.len()
            ))
        } else {
            None
        })
    }
}
