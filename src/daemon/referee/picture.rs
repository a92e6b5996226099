//! The picture of the game attached to each lounge verdict on a turn
//! (issue 18): the game as it stands after the verdict, drawn by
//! [`crate::picture`], as a PNG after the verdict's text.
//!
//! Drawing is most of a verdict's work (issue 20), so the judging does not
//! draw: it queues the reply as text and, beside it in the outbox, what its
//! picture is drawn from ([`OwedPicture`]). The sender draws it when the
//! reply goes out ([`Painter`]), on another thread than the judging and
//! while the reply before it is in flight.

use serde::{Deserialize, Serialize};

use super::{Live, Out, Referee};
use crate::config::LimitsConfig;
use crate::mail::attach::Picture;
use crate::mail::outbound::{self, Identity, Reply};
use crate::map::Map;
use crate::picture::{self, Scene};
use crate::store::Commit;

/// A picture owed to a reply: the scene to draw and the file name.
pub(super) struct Owed {
    message_id: String,
    scene: Drawn,
    name: String,
}

/// What a picture is drawn from: a Volume 1 scene, or a hosted game's
/// position through its kind (issue 41).
pub(super) enum Drawn {
    /// Volume 1.
    Vol1(Box<Scene>),
    /// Another kind.
    Hosted(HostedScene),
}

/// A hosted game's position as an owed picture keeps it: its kind, its
/// encoding's version and the encoded position.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct HostedScene {
    /// The kind.
    pub kind: crate::kinds::Kind,
    /// The version of the position's encoding.
    pub encoding: String,
    /// The position, encoded.
    pub position: String,
    /// The player whose private picture it is (a kind with hidden
    /// information, issue 43); none: the public one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub viewer: Option<String>,
}

impl HostedScene {
    /// The public scene of `p`.
    pub(super) fn of(p: &crate::kinds::Position) -> HostedScene {
        HostedScene {
            kind: p.kind(),
            encoding: p.encoding().to_string(),
            position: p.encode(),
            viewer: None,
        }
    }
}

impl Referee {
    /// Owes the last reply in `out` (the lounge verdict just written) the
    /// picture of `live`'s game as it stands, when the game has pictures
    /// on. It is drawn when the reply is sent ([`Painter`]): drawing is
    /// most of a verdict's work, and must never make a turn late for
    /// `[limits] work_ms_per_mail` nor hold up the next mail's judging.
    pub(super) fn picture_on_last(&self, live: &Live, out: &mut Out) {
        if !live.def.picture {
            return;
        }
        if let Some(reply) = out.mails.last() {
            out.pictures.push(Owed {
                message_id: reply.message_id.clone(),
                scene: Drawn::Vol1(Box::new(scene_of(self.map, live))),
                name: file_name(&live.game.tag, live.game.plays.len()),
            });
        }
    }

    /// Queues the replies in `out`, each with the picture it is owed.
    pub(super) fn queue_out(&self, commit: &mut Commit, out: &mut Out) {
        let mut owed = std::mem::take(&mut out.pictures);
        for r in &out.mails {
            match owed.iter().position(|o| o.message_id == r.message_id) {
                Some(k) => {
                    let o = owed.swap_remove(k);
                    self.queue_owing(commit, r, o.scene, o.name);
                }
                None => self.queue(commit, r),
            }
        }
    }

    /// Queues `r` owing the picture of `live`'s game as it stands, when the
    /// game has pictures on (a Timeout's notice, sent by the clock).
    pub(super) fn queue_with_picture(&self, commit: &mut Commit, live: &Live, r: &Reply) {
        if live.def.picture {
            let name = file_name(&live.game.tag, live.game.plays.len());
            let scene = Drawn::Vol1(Box::new(scene_of(self.map, live)));
            self.queue_owing(commit, r, scene, name);
        } else {
            self.queue(commit, r);
        }
    }

    /// Owes the last reply in `out` the picture of a hosted game's
    /// position `p` after `turns` turns, when the game has pictures on.
    pub(super) fn hosted_picture_on_last(
        &self,
        def: &super::GameConfigDef,
        p: &crate::kinds::Position,
        turns: usize,
        out: &mut Out,
    ) {
        if !def.picture {
            return;
        }
        if let Some(reply) = out.mails.last() {
            out.pictures.push(Owed {
                message_id: reply.message_id.clone(),
                scene: Drawn::Hosted(HostedScene::of(p)),
                name: file_name(&def.tag, turns),
            });
        }
    }

    /// Queues `r` owing the picture of a hosted game's position `p`.
    pub(super) fn queue_with_hosted_picture(
        &self,
        commit: &mut Commit,
        def: &super::GameConfigDef,
        p: &crate::kinds::Position,
        turns: usize,
        r: &Reply,
    ) {
        if def.picture {
            let scene = Drawn::Hosted(HostedScene::of(p));
            self.queue_owing(commit, r, scene, file_name(&def.tag, turns));
        } else {
            self.queue(commit, r);
        }
    }

    /// Queues `r`, a private mail to `player` of a hosted game with hidden
    /// information, owing eir private picture of `p` when the game has
    /// pictures on.
    pub(super) fn queue_with_private_picture(
        &self,
        commit: &mut Commit,
        def: &super::GameConfigDef,
        p: &crate::kinds::Position,
        player: &str,
        r: &Reply,
    ) {
        if def.picture {
            let scene = Drawn::Hosted(HostedScene {
                viewer: Some(player.to_string()),
                ..HostedScene::of(p)
            });
            let name = file_name(&def.tag, p.turns() as usize).replace("after-turn", "your-rack");
            self.queue_owing(commit, r, scene, name);
        } else {
            self.queue(commit, r);
        }
    }

    /// Queues `r` as text, and beside it the picture it is owed.
    fn queue_owing(&self, commit: &mut Commit, r: &Reply, scene: Drawn, name: String) {
        let queued = commit.outbox.len();
        self.queue(commit, r);
        if commit.outbox.len() == queued {
            return; // not built (and logged): nothing to owe a picture
        }
        let (scene, hosted) = match scene {
            Drawn::Vol1(s) => (Some(*s), None),
            Drawn::Hosted(h) => (None, Some(h)),
        };
        let owed = OwedPicture {
            reply: r.clone(),
            scene,
            name,
            hosted,
        };
        match serde_json::to_string(&owed) {
            Ok(json) => commit.pictures.push((r.message_id.clone(), json)),
            Err(e) => tracing::warn!(id = %r.message_id, "picture not owed: {e}"),
        }
    }
}

/// What a queued reply's picture is drawn from when it is sent: the reply
/// itself (its text, headers and Date) and the scene.
#[derive(Serialize, Deserialize)]
pub struct OwedPicture {
    /// The reply, without its picture.
    pub reply: Reply,
    /// The game as the picture shows it (Volume 1).
    #[serde(default)]
    pub scene: Option<Scene>,
    /// The attachment's file name.
    pub name: String,
    /// A hosted game's position, drawn through its kind (issue 41).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hosted: Option<HostedScene>,
}

/// Why an owed picture's message could not be built.
#[derive(Debug, thiserror::Error)]
pub enum PaintError {
    /// The stored record does not decode (written by another version).
    #[error("the owed picture does not decode: {0}")]
    Decode(#[from] serde_json::Error),
    /// The reply does not build.
    #[error(transparent)]
    Build(#[from] outbound::OutboundError),
}

/// The sender's half of a verdict: draws the picture a queued reply is
/// owed ([`crate::store::OutMail::owed`]) and builds the message that
/// carries it, as the judging would have built it. Drawing is a function of
/// the stored scene, so a reply sent again after a failure or a crash has
/// the same bytes.
#[derive(Clone)]
pub struct Painter {
    map: &'static Map,
    me: Identity,
    picture_bytes: usize,
    reply_bytes: usize,
}

impl Painter {
    /// A painter for the bot `me` drawing on `map` within `limits`.
    pub fn new(map: &'static Map, me: Identity, limits: &LimitsConfig) -> Painter {
        Painter {
            map,
            me,
            picture_bytes: limits.picture_bytes,
            reply_bytes: limits.reply_bytes,
        }
    }

    /// The whole message `owed` (an [`OwedPicture`] as JSON) stands for,
    /// its picture drawn and attached. A picture that cannot be drawn, or
    /// is larger than `[limits] picture_bytes`, is left off and the text
    /// says why: the text is the verdict, the picture only shows it.
    pub fn finish(&self, owed: &str) -> Result<Vec<u8>, PaintError> {
        let OwedPicture {
            mut reply,
            scene,
            name,
            hosted,
        } = serde_json::from_str(owed)?;
        let drawn = match (&scene, &hosted) {
            (_, Some(h)) => h
                .kind
                .decode(&h.encoding, &h.position)
                .map_err(|e| e.to_string())
                .and_then(|p| {
                    let viewer = h
                        .viewer
                        .clone()
                        .map_or(crate::kinds::Viewer::Public, crate::kinds::Viewer::Player);
                    p.picture_png_for(&viewer)
                }),
            (Some(scene), None) => picture::draw_png(self.map, scene).map_err(|e| e.to_string()),
            (None, None) => Err("the owed picture names no game".to_string()),
        };
        attach(self.picture_bytes, &mut reply, drawn, name);
        Ok(outbound::build_limited(&self.me, &reply, self.reply_bytes)?.raw)
    }
}

/// Draws `scene` and attaches it to `reply` as `name`, or says in the text
/// why it is left off.
fn attach(picture_bytes: usize, reply: &mut Reply, drawn: Result<Vec<u8>, String>, name: String) {
    let why = match drawn {
        Ok(png) if png.len() <= picture_bytes => {
            reply.picture = Some(Picture { name, png });
            return;
        }
        Ok(png) => format!(
            "it is {} bytes, over [limits] picture_bytes = {picture_bytes}",
            png.len()
        ),
        Err(e) => {
            tracing::warn!(picture = %name, "picture not drawn: {e}");
            format!("it could not be drawn ({e})")
        }
    };
    crate::mail::render::add_above_signature(
        &mut reply.body,
        &format!("\n(The picture of the game is left off: {why}.)\n"),
    );
}

/// The scene of `live`'s game as it stands.
fn scene_of(map: &crate::map::Map, live: &Live) -> Scene {
    let game = &live.game;
    Scene::after_plays(map, &game.tag, game.state.clone(), &game.plays)
}

/// The attachment's name: the game and how many turns it shows, in the
/// characters a file name may hold anywhere (`MN12-after-turn-5.png`).
fn file_name(tag: &str, turns: usize) -> String {
    let tag: String = tag
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .take(32)
        .collect();
    let tag = if tag.is_empty() { "game".into() } else { tag };
    format!("{tag}-after-turn-{turns}.png")
}

#[cfg(test)]
mod tests {
    use super::file_name;

    #[test]
    fn the_name_is_a_plain_file_name() {
        assert_eq!(file_name("MN12", 5), "MN12-after-turn-5.png");
        assert_eq!(file_name("../x y", 0), "xy-after-turn-0.png");
        assert_eq!(file_name("", 3), "game-after-turn-3.png");
    }
}
