//! Replies to strangers, rate-limited per reply (issue 14, finding 7;
//! issue 40, finding 2; RULINGS L10).
//!
//! A refusal goes to the address in From, which anyone can forge: mail
//! "from" a victim makes mornbot write to the victim (backscatter). Players
//! of any game, the Speaker, the lounge and mornbot itself are always
//! written to; an address no game knows (a stranger, a lobby joiner
//! included until eir game starts) is counted. Every reply queued while a
//! mail is handled is counted, whatever path queued it (a command's
//! answer, a lobby notice, a private copy of a cancellation), one count
//! per stranger it goes to:
//!
//! - one stranger gets at most `[limits] stranger_replies_per_hour`
//!   replies in an hour, then one polite "limit reached" reply, then
//!   nothing until the hour has passed;
//! - all strangers together get at most `stranger_replies_total_per_hour`
//!   (the limit notices included), then nothing.
//!
//! Past either, the mail is still judged (a stranger changes nothing a
//! stranger may not) and the reply withheld is logged. A mail that fails a
//! trusted server's authentication is never answered at all (RULINGS L7).

use chrono::Duration;

use super::{Letter, Referee, RefereeError};
use crate::mail::address::same;
use crate::mail::outbound::{self, Reply};
use crate::store::{Commit, Store};

/// The replies strangers drew in the last hour: one entry per stranger a
/// reply went to, oldest first.
#[derive(Debug, Default)]
pub(super) struct Quota {
    recent: Vec<String>,
    /// Why replies were withheld or cut to a notice while this mail was
    /// handled, for its summary.
    withheld: Vec<String>,
}

/// What the quota lets a reply do for one stranger it is addressed to.
#[derive(Debug, PartialEq, Eq)]
enum Let {
    /// Send it.
    Send,
    /// Withhold it, and tell the stranger once that the limit is reached.
    Notice,
    /// Withhold it silently (logged).
    Withhold(String),
}

impl Referee {
    /// Whether `address` is someone mornbot answers without counting: a
    /// player of any game, the Speaker, the lounge or mornbot itself.
    fn is_known(&self, address: &str) -> bool {
        let same = |a: &str| same(a, address);
        self.is_registered(address)
            || self.is_speaker(address)
            || same(&self.me.lounge)
            || same(&self.me.address)
    }

    /// Counts the replies strangers drew in the last hour, before a mail
    /// is handled; every reply queued after this is counted against them.
    pub(super) fn load_quota(&self, store: &Store) -> Result<(), RefereeError> {
        let recent = store
            .recent_recipients(Duration::hours(1))?
            .iter()
            .flat_map(|r| r.split(','))
            .filter(|a| !a.is_empty() && !self.is_known(a))
            .map(str::to_ascii_lowercase)
            .collect();
        *self.quota.borrow_mut() = Some(Quota {
            recent,
            withheld: Vec::new(),
        });
        Ok(())
    }

    /// Stops counting (the mail is handled).
    pub(super) fn drop_quota(&self) {
        *self.quota.borrow_mut() = None;
    }

    /// Why replies of this mail were withheld, for its summary: `None`
    /// when all went out.
    pub(super) fn withheld(&self) -> Option<String> {
        let q = self.quota.borrow();
        let w = &q.as_ref()?.withheld;
        (!w.is_empty()).then(|| format!("not answered: {}", w.join("; ")))
    }

    /// What the quota lets `r` do for stranger `to`, counting it when sent.
    fn let_reply(&self, q: &mut Quota, to: &str) -> Let {
        let (per, total) = (
            self.limits.stranger_replies_per_hour,
            self.limits.stranger_replies_total_per_hour,
        );
        let to_this = q.recent.iter().filter(|r| same(r, to)).count();
        if q.recent.len() >= total {
            return Let::Withhold(format!(
                "{} replies to strangers in the last hour ([limits] \
                 stranger_replies_total_per_hour = {total})",
                q.recent.len()
            ));
        }
        q.recent.push(to.to_ascii_lowercase());
        match to_this.cmp(&per) {
            std::cmp::Ordering::Less => Let::Send,
            std::cmp::Ordering::Equal => Let::Notice,
            std::cmp::Ordering::Greater => {
                q.recent.pop(); // silence costs nothing
                Let::Withhold(format!(
                    "{to_this} replies to {to} in the last hour ([limits] \
                     stranger_replies_per_hour = {per})"
                ))
            }
        }
    }

    /// The mails `r` becomes under the quota: `r` itself to those it may
    /// still go to (none: not sent), and a "limit reached" notice to each
    /// stranger who has just reached eir limit. A Message-ID already used
    /// in this commit (two notices of one mail on one thread key) gets a
    /// fresh one, derived from it, so the outbox never drops one for the
    /// other.
    pub(super) fn admit(&self, commit: &Commit, r: &Reply) -> Vec<Reply> {
        let mut r = r.clone();
        let used = |id: &str| commit.outbox.iter().any(|m| m.message_id == id);
        let mut n = 0;
        while used(&r.message_id) {
            n += 1;
            r.message_id = outbound::reply_id(&format!("{}#{n}", r.message_id), 0, &self.me);
        }
        let mut quota = self.quota.borrow_mut();
        let Some(q) = quota.as_mut() else {
            return vec![r];
        };
        let mut notices = Vec::new();
        let mut to = Vec::new();
        for a in std::mem::take(&mut r.to) {
            if self.is_known(&a) {
                to.push(a);
                continue;
            }
            match self.let_reply(q, &a) {
                Let::Send => to.push(a),
                Let::Notice => {
                    let per = self.limits.stranger_replies_per_hour;
                    q.withheld.push(format!(
                        "limit reached for {a} (stranger_replies_per_hour = {per})"
                    ));
                    notices.push(self.limit_notice(&r, &a));
                }
                Let::Withhold(why) => {
                    tracing::warn!(id = %r.message_id, to = %a, "not sent: {why}");
                    if !q.withheld.contains(&why) {
                        q.withheld.push(why);
                    }
                }
            }
        }
        r.to = to;
        let mut mails = Vec::new();
        if !r.to.is_empty() {
            mails.push(r);
        }
        mails.extend(notices);
        mails
    }

    /// Whether `letter`'s commands go unanswered: its sender (not the
    /// Speaker) drew `[limits] command_replies_per_hour` private mails in
    /// the last hour. The first time, `out` gets the one "limit reached"
    /// reply; later, nothing.
    pub(super) fn commands_over(
        &self,
        store: &Store,
        letter: &Letter,
        out: &mut super::Out,
    ) -> Result<bool, RefereeError> {
        if self.is_speaker(&letter.from) {
            return Ok(false);
        }
        let most = self.limits.command_replies_per_hour;
        let drawn = store
            .recent_recipients(Duration::hours(1))?
            .iter()
            .filter(|r| r.split(',').any(|a| same(a, &letter.from)))
            .count();
        if drawn < most {
            return Ok(false);
        }
        tracing::warn!(id = %letter.message_id, from = %letter.from,
            "commands not answered: {drawn} mails in the last hour (command_replies_per_hour = {most})");
        if drawn == most {
            out.sender(crate::mail::wrap::wrap(&format!(
                "Limit reached: mornbot has mailed {} {most} times in the last hour, the \
                 most it answers commands from one address in an hour ([limits] \
                 command_replies_per_hour = {most}). Commands from this address are not \
                 answered until the hour has passed; turns are judged and answered as ever.",
                letter.from
            )));
        }
        Ok(true)
    }

    /// The one reply a stranger gets when eir hourly limit is reached.
    fn limit_notice(&self, r: &Reply, to: &str) -> Reply {
        let per = self.limits.stranger_replies_per_hour;
        tracing::warn!(id = %r.message_id, %to, "limit reached: stranger_replies_per_hour = {per}");
        let text = crate::mail::wrap::wrap(&format!(
            "Limit reached: mornbot has written to {to} {per} times in the last hour, \
             the most it writes in an hour to an address that plays in no game here \
             ([limits] stranger_replies_per_hour = {per}). Mail from this address is still \
             read, but not answered until the hour has passed. If you did not write to \
             mornbot, someone used your address: ignore this mail."
        ));
        Reply {
            to: vec![to.to_string()],
            subject: r.subject.clone(),
            body: crate::mail::render::signed(&text, None, &self.me.address),
            in_reply_to: r.in_reply_to.clone(),
            references: r.references.clone(),
            message_id: outbound::reply_id(&format!("{}#limit", r.message_id), 0, &self.me),
            date: r.date,
            auto: r.auto,
            picture: None,
        }
    }
}
