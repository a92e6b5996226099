//! The replies of one message being built: to its sender, or on its
//! game's thread in the lounge (see also `notice.rs`).

use chrono::{DateTime, Utc};

use super::{picture, tpl, Letter};
use crate::mail::outbound::{self, Auto, Identity, Reply};

/// The replies of one message being built.
pub(super) struct Out<'a> {
    pub(super) me: &'a Identity,
    pub(super) letter: &'a Letter,
    pub(super) at: DateTime<Utc>,
    pub(super) mails: Vec<Reply>,
    /// What reply Message-IDs derive from (the letter's id; another key for
    /// a held turn judged later, whose first reply said it was held).
    pub(super) id_base: String,
    /// The play a take-back withdrew, while its replacement is judged.
    pub(super) withdrawn: Option<String>,
    /// The pictures owed to replies (by Message-ID): drawn by the sender
    /// (see `picture.rs`).
    pub(super) pictures: Vec<picture::Owed>,
}

impl Out<'_> {
    pub(super) fn push(&mut self, to: Vec<String>, subject: String, body: String) {
        let k = self.mails.len();
        let body = self.with_note(body);
        let body = crate::mail::render::signed(&body, None, &self.me.address);
        let mut refs = self.letter.references.clone();
        refs.push(self.letter.message_id.clone());
        self.mails.push(Reply {
            to,
            subject,
            body,
            in_reply_to: Some(self.letter.message_id.clone()),
            references: refs,
            message_id: outbound::reply_id(&self.id_base, k, self.me),
            date: self.at,
            auto: Auto::Replied,
            picture: None,
        });
    }

    /// `body`, and how the mail was read when not as it said (issue 39):
    /// said in each reply to it, once, before the signature.
    pub(super) fn with_note(&self, body: String) -> String {
        match &self.letter.read_as {
            Some(note) => format!(
                "{}\n\n{}\n",
                body.trim_end(),
                crate::mail::wrap::wrap(&format!("Note: {note}")).trim_end()
            ),
            None => body,
        }
    }

    /// Tells the sender privately that the message changed nothing, and why.
    pub(super) fn refuse(&mut self, reason: impl Into<String>) {
        let body = tpl(
            "refused",
            minijinja::context! { reason => reason.into(), bot => self.me.address },
        );
        self.sender(body);
    }

    pub(super) fn sender(&mut self, body: String) {
        let to = vec![self.letter.from.clone()];
        let subject = re(&self.letter.subject);
        self.push(to, subject, body);
    }
}

fn re(subject: &str) -> String {
    let s = subject.trim();
    if s.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("re:")) {
        s.to_string()
    } else if s.is_empty() {
        "Re: your message".to_string()
    } else {
        format!("Re: {s}")
    }
}
