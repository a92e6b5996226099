//! `CANCEL GAME <TAG>` (issue 17; RULINGS S35): a game waiting in the lobby
//! is called off before its start, by whoever may start it. It leaves the
//! lobby with its joins; the lounge and everyone who asked to join are told.

use chrono::{DateTime, Utc};

use super::lobby::Desk;
use super::notice::Thread;
use super::{Letter, Out, Referee, RefereeError};
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
        let creator = crate::mail::address::same(&table.game.creator, &letter.from);
        if !(self.is_speaker(&letter.from) || (desk.config.open_games && creator)) {
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
        let asked: Vec<String> = table.joins.iter().map(|j| j.address.clone()).collect();
        let th = Thread::answering(tag, format!("{}#cancel", letter.message_id), letter);
        let mut to = vec![self.me.lounge.clone()];
        to.extend(asked.iter().cloned());
        self.mail_to(
            commit,
            to,
            &th,
            format!("{tag} is cancelled"),
            self.notice(format!(
                "{tag} is cancelled before its start: it leaves the lobby, and the {} \
                 request(s) to join it with it (RULINGS S35). Its dice were never rolled.",
                asked.len()
            )),
            at,
        );
        out.sender(self.notice(format!("{tag} is cancelled; the lounge is told.")));
        Ok(format!("cancel {tag}"))
    }
}
