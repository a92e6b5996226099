//! `CANCEL GAME <TAG>` (issue 17; RULINGS S35): a game waiting in the lobby
//! is called off before its start, by whoever may start it. It leaves the
//! lobby with its joins; the lounge is told, with no one's address, and
//! everyone who confirmed a join and is no player of record is told
//! privately, one mail each (issue 39, item 9). A request never confirmed
//! is not told: its address proved nothing (issue 40, item 2).

use chrono::{DateTime, Utc};

use super::lobby::Desk;
use super::notice::Thread;
use super::{Letter, Out, Referee, RefereeError};
use crate::mail::address::same;
use crate::store::{Commit, LobbyOp, Store};

impl Referee {
    /// Cancels lobby game `tag`, if `letter`'s sender may.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn cancel_game(
        &self,
        store: &Store,
        desk: &Desk,
        letter: &Letter,
        tag: &str,
        at: DateTime<Utc>,
        out: &mut Out,
        commit: &mut Commit,
    ) -> Result<String, RefereeError> {
        let Some(table) = self.open_table(store, tag, out)? else {
            return Ok("cancel: refused".into());
        };
        let by_creator = same(&table.game.creator, &letter.from);
        if !(self.is_speaker(&letter.from) || (desk.config.open_games && by_creator)) {
            out.refuse(format!(
                "Only the Speaker{} may cancel {tag}.",
                if desk.config.open_games {
                    " or the game's creator"
                } else {
                    ""
                }
            ));
            return Ok("cancel: not allowed".into());
        }
        commit.lobby.push(LobbyOp::Cancel {
            tag: tag.to_string(),
        });
        let th = Thread::answering(tag, format!("{}#cancel-{tag}", letter.message_id), letter);
        let asked = table.joins.len();
        self.announce(
            commit,
            &th,
            "Cancelled".to_string(),
            format!(
                "{tag} is cancelled before its start: it leaves the lobby, and the {asked} \
                 request(s) to join it with it (RULINGS S35). Its dice were never rolled."
            ),
            at,
        );
        // The lounge is told, and no address is shown there. Whoever joined
        // and may not read the lounge (mornbot cannot see who is subscribed,
        // so: anyone who is no player of record) is told privately, one mail
        // each; only a confirmed join, whose address answered its token: an
        // unconfirmed one may be forged, and a copy would be backscatter.
        let knows = |a: &str| self.is_registered(a) || self.is_speaker(a) || same(a, &letter.from);
        for (i, j) in table.joins.iter().enumerate() {
            if knows(&j.address) || j.confirmed_at.is_none() {
                continue;
            }
            self.mail_to(
                commit,
                vec![j.address.clone()],
                &th.sub(&format!("#joiner-{i}")),
                "Cancelled".to_string(),
                format!(
                    "{tag}, which you asked to join as {}, is cancelled before its start \
                     (RULINGS S35): your request to join leaves the lobby with it. The lounge \
                     ({}) is told too; this copy comes to you because you may not read it.",
                    j.name, self.me.lounge
                ),
                at,
            );
        }
        let creator = &table.game.creator;
        let joined = |a: &str| {
            table
                .joins
                .iter()
                .any(|j| same(&j.address, a) && j.confirmed_at.is_some())
        };
        if !(knows(creator) || joined(creator)) {
            self.mail_to(
                commit,
                vec![creator.clone()],
                &th.sub("#creator"),
                "Cancelled".to_string(),
                format!(
                    "{tag}, the game you created, is cancelled before its start by the Speaker \
                     (RULINGS S35). The lounge ({}) is told too; this copy comes to you because \
                     you may not read it.",
                    self.me.lounge
                ),
                at,
            );
        }
        out.sender(self.notice(format!("{tag} is cancelled; the lounge is told.")));
        Ok(format!("cancel {tag}"))
    }
}
