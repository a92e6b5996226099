//! The lobby's limits (issue 40, findings 2 and 6): how many games may
//! wait in the lobby, in all and per creator, and which lobby commands one
//! mail may hold together.

use super::lobby::{tokens, Desk};
use super::{Command, Letter, Referee, RefereeError};
use crate::mail::address::same;
use crate::mail::lobby::Lobby;
use crate::store::{Commit, LobbyOp, LobbyRow, Store};

impl Referee {
    /// Why the lobby takes no new game from `letter`'s sender now: too
    /// many games waiting in all (`[lobby] waiting_games`), or from this
    /// address (`games_per_creator`, the Speaker excepted), counting those
    /// created earlier in the same mail.
    pub(super) fn lobby_full(
        &self,
        store: &Store,
        desk: &Desk,
        letter: &Letter,
        commit: &Commit,
    ) -> Result<Option<String>, RefereeError> {
        let waiting = store.lobby_open()?;
        let pending: Vec<&LobbyRow> = commit
            .lobby
            .iter()
            .filter_map(|op| match op {
                LobbyOp::Create(g) => Some(g),
                _ => None,
            })
            .collect();
        let (all, most) = (waiting.len() + pending.len(), desk.config.waiting_games);
        if all >= most as usize {
            return Ok(Some(format!(
                "{all} games are waiting in the lobby, the most it holds at once ([lobby]                  waiting_games = {most}). Join one of them, or create yours when one has                  started or been cancelled."
            )));
        }
        if self.is_speaker(&letter.from) {
            return Ok(None);
        }
        let mine = waiting
            .iter()
            .chain(pending.iter().copied())
            .filter(|g| same(&g.creator, &letter.from))
            .count();
        let most = desk.config.games_per_creator;
        Ok((mine >= most as usize).then(|| {
            format!(
                "{mine} games you created are waiting in the lobby, the most one address may                  have at once ([lobby] games_per_creator = {most}). Start or cancel one of                  them first."
            )
        }))
    }

    /// Why a mail's lobby commands cannot each be carried out on its own
    /// (issue 40, finding 6): two of them concern one game (`NEW GAME X`
    /// then `JOIN X`, `JOIN X` then `LEAVE X`...), and the second would be
    /// judged before the first is recorded. Such a mail is refused whole,
    /// so that no game is created without its announcement and no command
    /// is judged against a lobby the mail itself changes.
    pub(super) fn entangled(
        &self,
        store: &Store,
        letter: &Letter,
        cmds: &[Command],
    ) -> Result<Option<String>, RefereeError> {
        let Some(desk) = &self.lobby else {
            return Ok(None);
        };
        let address = letter.from.to_ascii_lowercase();
        let mut seen: Vec<(String, String)> = Vec::new();
        for c in cmds {
            let Command::Lobby(l) = c else { continue };
            let tag = match l {
                Lobby::NewGame(g) => g.tag.clone(),
                Lobby::Join { tag, .. }
                | Lobby::Leave { tag }
                | Lobby::Start { tag }
                | Lobby::Cancel { tag }
                | Lobby::Consent { tag, .. } => tag.clone(),
                Lobby::Confirm { token } => match store
                    .lobby_asks_from(&address)?
                    .into_iter()
                    .find(|j| tokens(&desk.secret, j, token))
                {
                    Some(j) => j.tag,
                    None => continue,
                },
                Lobby::Malformed { .. } => continue,
            };
            let said = lobby_verb(l);
            if let Some((_, first)) = seen.iter().find(|(t, _)| t.eq_ignore_ascii_case(&tag)) {
                return Ok(Some(format!(
                    "Your mail holds two lobby commands on {tag} ({first}, then {said});                      mornbot carries out one command per game in a mail, so none of the                      mail's commands was carried out. Send the second in a mail of its own,                      once the first is answered."
                )));
            }
            seen.push((tag, said));
        }
        Ok(None)
    }
}

/// A lobby command's verb, for a refusal.
fn lobby_verb(l: &Lobby) -> String {
    match l {
        Lobby::NewGame(g) => format!("NEW GAME {}", g.tag),
        Lobby::Join { tag, name } => format!("JOIN {tag} as {name}"),
        Lobby::Leave { tag } => format!("LEAVE {tag}"),
        Lobby::Confirm { .. } => "CONFIRM".to_string(),
        Lobby::Start { tag } => format!("START {tag}"),
        Lobby::Cancel { tag } => format!("CANCEL GAME {tag}"),
        Lobby::Consent { tag, name } => format!("CONSENT {tag} {name}"),
        Lobby::Malformed { line, .. } => line.clone(),
    }
}
