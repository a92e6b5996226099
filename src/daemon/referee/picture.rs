//! The picture of the game attached to each lounge verdict on a turn
//! (issue 18): the game as it stands after the verdict, drawn by
//! [`crate::picture`], as a PNG after the verdict's text.

use super::{Live, Out, Referee};
use crate::mail::attach::Picture;
use crate::mail::outbound::Reply;
use crate::picture::{self, Scene};

/// A picture owed to a reply: the scene to draw and the file name.
pub(super) struct Owed {
    message_id: String,
    scene: Box<Scene>,
    name: String,
}

impl Referee {
    /// Owes the last reply in `out` (the lounge verdict just written) the
    /// picture of `live`'s game as it stands, when the game has pictures
    /// on. It is drawn by [`Referee::draw_pictures`] once the mail is
    /// judged: drawing is presentation, and must never make a turn late
    /// for `[limits] work_ms_per_mail` on a busy machine.
    pub(super) fn picture_on_last(&self, live: &Live, out: &mut Out) {
        if !live.def.picture {
            return;
        }
        if let Some(reply) = out.mails.last() {
            out.pictures.push(Owed {
                message_id: reply.message_id.clone(),
                scene: Box::new(scene_of(self.map, live)),
                name: file_name(&live.game.tag, live.game.plays.len()),
            });
        }
    }

    /// Draws the pictures owed to the replies in `out` and attaches them.
    pub(super) fn draw_pictures(&self, out: &mut Out) {
        for owed in std::mem::take(&mut out.pictures) {
            if let Some(reply) = out
                .mails
                .iter_mut()
                .find(|r| r.message_id == owed.message_id)
            {
                self.attach(reply, &owed.scene, owed.name);
            }
        }
    }

    /// Attaches the picture of `live`'s game to `reply` now, when the game
    /// has pictures on (a Timeout's notice, sent by the clock).
    pub(super) fn attach_picture(&self, live: &Live, reply: &mut Reply) {
        if live.def.picture {
            let name = file_name(&live.game.tag, live.game.plays.len());
            self.attach(reply, &scene_of(self.map, live), name);
        }
    }

    /// Draws `scene` and attaches it to `reply` as `name`. A picture that
    /// cannot be drawn, or is larger than `[limits] picture_bytes`, is
    /// left off and the verdict says why: the text is the verdict, the
    /// picture only shows it.
    fn attach(&self, reply: &mut Reply, scene: &Scene, name: String) {
        let why = match picture::draw_png(self.map, scene) {
            Ok(png) if png.len() <= self.limits.picture_bytes => {
                reply.picture = Some(Picture { name, png });
                return;
            }
            Ok(png) => format!(
                "it is {} bytes, over [limits] picture_bytes = {}",
                png.len(),
                self.limits.picture_bytes
            ),
            Err(e) => {
                tracing::warn!(picture = %name, "picture not drawn: {e}");
                format!("it could not be drawn ({e})")
            }
        };
        reply.body.push_str(&format!(
            "\n\n(The picture of the game is left off: {why}.)\n"
        ));
    }
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
