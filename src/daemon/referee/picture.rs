//! The picture of the game attached to each lounge verdict on a turn
//! (issue 18): the game as it stands after the verdict, drawn by
//! [`crate::picture`], as a PNG after the verdict's text.

use super::{Live, Out, Referee};
use crate::mail::attach::Picture;
use crate::mail::outbound::Reply;
use crate::picture::{self, Scene};

impl Referee {
    /// Attaches the picture of `live`'s game to the last reply in `out`
    /// (the lounge verdict just written).
    pub(super) fn picture_on_last(&self, live: &Live, out: &mut Out) {
        if let Some(reply) = out.mails.last_mut() {
            self.attach_picture(live, reply);
        }
    }

    /// Attaches the picture of `live`'s game to `reply`, when the game has
    /// pictures on. A picture that cannot be drawn, or is larger than
    /// `[limits] picture_bytes`, is left off and the verdict says why: the
    /// text is the verdict, the picture only shows it.
    pub(super) fn attach_picture(&self, live: &Live, reply: &mut Reply) {
        if !live.def.picture {
            return;
        }
        let game = &live.game;
        let scene = Scene::after_plays(self.map, &game.tag, game.state.clone(), &game.plays);
        let drawn = picture::draw_png(self.map, &scene);
        let why = match drawn {
            Ok(png) if png.len() <= self.limits.picture_bytes => {
                reply.picture = Some(Picture {
                    name: file_name(&game.tag, game.plays.len()),
                    png,
                });
                return;
            }
            Ok(png) => format!(
                "it is {} bytes, over [limits] picture_bytes = {}",
                png.len(),
                self.limits.picture_bytes
            ),
            Err(e) => {
                tracing::warn!(game = %game.tag, "picture not drawn: {e}");
                format!("it could not be drawn ({e})")
            }
        };
        reply.body.push_str(&format!(
            "\n\n(The picture of the game is left off: {why}.)\n"
        ));
    }
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
