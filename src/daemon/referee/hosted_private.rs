//! Private mail in a game whose kind hides information (issue 43, One Day
//! in London's racks, RULINGS OD4): each player's private document goes to
//! eir registered address alone (and blind to mornbot itself, whose copy
//! confirms it, OD16), never the lounge, whenever what only ey may see
//! changes (a card to place, a card drawn, eir rack), in the same commit
//! as the change: a restart neither loses it nor sends it twice.
//! Everything else a hosted game mails is rendered for the public.

use chrono::{DateTime, Utc};

use super::hosted::Hosted;
use super::notice::Thread;
use super::Referee;
use crate::kinds::Position;
use crate::store::Commit;

impl Referee {
    /// Queues into `commit` the private document of every player of `h`
    /// whose secrets differ from `before`'s (`None`: the game just
    /// started, so everyone's), each with eir private picture; `key` makes
    /// the Message-IDs (the log line or the start). Nothing in a kind that
    /// hides nothing.
    pub(super) fn private_mails(
        &self,
        h: &Hosted,
        before: Option<&Position>,
        key: &str,
        at: DateTime<Utc>,
        commit: &mut Commit,
    ) {
        if !h.def.kind.hides() {
            return;
        }
        for player in h.position.players() {
            let secrets = h.position.secrets(&player);
            if secrets.is_none() || before.is_some_and(|b| b.secrets(&player) == secrets) {
                continue;
            }
            self.private_mail(
                h,
                &player,
                &format!("{key}-{}", player.to_lowercase()),
                at,
                commit,
            );
        }
    }

    /// Queues `player`'s private document of `h` into `commit`, to eir
    /// registered address alone (and blind to mornbot, OD16); `key` makes
    /// its Message-ID (a player without an address gets none, and it is
    /// logged).
    fn private_mail(
        &self,
        h: &Hosted,
        player: &str,
        key: &str,
        at: DateTime<Utc>,
        commit: &mut Commit,
    ) {
        let tag = &h.def.tag;
        let (Some(to), Some(doc)) = (h.address_of(player), h.private_document(player)) else {
            tracing::error!(game = %tag, %player, "no private document or address");
            return;
        };
        let body = format!(
            "{}\n\n{doc}",
            crate::mail::wrap::wrap(&format!(
                "This mail is for {player} alone: it names cards no one else may see. Answer \
                 it to mornbot directly, never to the lounge; your orders may go either way, \
                 as they name no card."
            ))
            .trim_end()
        );
        let r = self.notice_mail(
            &Thread::clock(tag, format!("private-{tag}-{key}")),
            vec![to.to_string()],
            &format!("For {player} alone: your cards"),
            &body,
            at,
        );
        let queued = commit.outbox.len();
        self.queue_with_private_picture(commit, &h.def, &h.position, player, &r);
        // A blind copy to the bot itself: a private mail never comes back
        // through the list, and after a kill between SMTP accepting it and
        // its `sent` mark, this copy reaching the bot's own mailbox is what
        // confirms it (an own mail is an echo, see `Commit::echoed`), so
        // the card is not sent to its player twice (RULINGS OD16). The
        // bot's mailbox is the operator's, who may read hidden state
        // (OD15).
        for m in &mut commit.outbox[queued..] {
            m.recipients.push(self.me.address.clone());
        }
    }
}
