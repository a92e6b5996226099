//! A small SVG writer: elements appended to a string, text escaped.

use std::fmt::Write;

/// An SVG document being written.
pub(super) struct Svg {
    out: String,
    /// What is kept aside to be drawn straight, when collecting.
    aside: Option<Aside>,
}

/// What a picture draws without resvg, over what resvg drew: the label
/// boxes, then the text from the glyph cache.
#[derive(Default)]
pub(super) struct Aside {
    /// The label boxes, in order.
    pub boxes: Vec<super::boxes::LabelBox>,
    /// The text, in order.
    pub texts: Vec<super::glyphs::Text>,
    /// The key's baseline, when the panel has one ([`super::key`]).
    pub key: Option<f64>,
}

/// Escapes text for XML content and attribute values.
pub(super) fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&apos;"),
            c if c.is_control() => {}
            c => s.push(c),
        }
    }
    s
}

/// The width of `text` at `size` px in the embedded condensed bold face,
/// estimated (for laying labels out before rendering).
pub(super) fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * 0.56
}

impl Svg {
    /// A document `width` x `height` px on a white background.
    pub(super) fn new(width: f64, height: f64) -> Svg {
        let mut w = Svg::clear(width, height);
        let _ = write!(
            w.out,
            r##"<rect width="{width:.0}" height="{height:.0}" fill="#ffffff"/>"##
        );
        w
    }

    /// A document `width` x `height` px with no background: drawn over
    /// pixels already there.
    pub(super) fn clear(width: f64, height: f64) -> Svg {
        let mut out = String::with_capacity(256 * 1024);
        let _ = write!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="{}" font-weight="bold" font-stretch="condensed">"#,
            super::FONT_FAMILY
        );
        Svg { out, aside: None }
    }

    /// From now on text, label boxes and the key are kept aside, not
    /// written: [`Svg::finish_apart`] returns them for
    /// [`super::boxes::draw`], [`super::glyphs::draw`] and
    /// [`super::key::blit`].
    pub(super) fn keep_text_apart(&mut self) {
        self.aside.get_or_insert_with(Aside::default);
    }

    /// Keeps `text` aside when collecting; false when it is to be written.
    fn aside(&mut self, at: (f64, f64), size: f64, fill: &str, text: &str, middle: bool) -> bool {
        let Some(aside) = &mut self.aside else {
            return false;
        };
        aside.texts.push(super::glyphs::Text {
            at,
            size,
            rgb: super::glyphs::rgb(fill),
            middle,
            text: text.to_string(),
        });
        true
    }

    /// Appends raw markup (built by the caller with escaped text).
    pub(super) fn raw(&mut self, markup: &str) {
        self.out.push_str(markup);
    }

    /// A straight line.
    pub(super) fn line(&mut self, a: (f64, f64), b: (f64, f64), style: &str) {
        let _ = write!(
            self.out,
            r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" {style}/>"#,
            a.0, a.1, b.0, b.1
        );
    }

    /// A circle.
    pub(super) fn circle(&mut self, c: (f64, f64), r: f64, style: &str) {
        let _ = write!(
            self.out,
            r#"<circle cx="{:.1}" cy="{:.1}" r="{r:.1}" {style}/>"#,
            c.0, c.1
        );
    }

    /// The key with its baseline at `y` kept aside when collecting
    /// (true), else false: the caller writes it.
    pub(super) fn keep_key_aside(&mut self, y: f64) -> bool {
        match &mut self.aside {
            Some(aside) => {
                aside.key = Some(y);
                true
            }
            None => false,
        }
    }

    /// A label's box: kept aside when collecting, else written.
    pub(super) fn label_box(&mut self, b: super::boxes::LabelBox) {
        match &mut self.aside {
            Some(aside) => aside.boxes.push(b),
            None => self.out.push_str(&b.svg()),
        }
    }

    /// A rectangle with rounded corners.
    pub(super) fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, rx: f64, style: &str) {
        let _ = write!(
            self.out,
            r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" rx="{rx:.1}" {style}/>"#
        );
    }

    /// Text with its baseline's start at `at`, escaped.
    pub(super) fn text(&mut self, at: (f64, f64), size: f64, fill: &str, text: &str) {
        if self.aside(at, size, fill, text, false) {
            return;
        }
        let _ = write!(
            self.out,
            r#"<text x="{:.1}" y="{:.1}" font-size="{size:.1}" fill="{fill}">{}</text>"#,
            at.0,
            at.1,
            escape(text)
        );
    }

    /// Text centred on `at` (horizontally and vertically), escaped.
    pub(super) fn text_centred(&mut self, at: (f64, f64), size: f64, fill: &str, text: &str) {
        if self.aside((at.0, at.1 + size * 0.36), size, fill, text, true) {
            return;
        }
        let _ = write!(
            self.out,
            r#"<text x="{:.1}" y="{:.1}" font-size="{size:.1}" fill="{fill}" text-anchor="middle">{}</text>"#,
            at.0,
            at.1 + size * 0.36,
            escape(text)
        );
    }

    /// Closes the document.
    pub(super) fn finish(self) -> String {
        self.finish_apart().0
    }

    /// Closes the document; with what was kept aside (see
    /// [`Svg::keep_text_apart`]).
    pub(super) fn finish_apart(mut self) -> (String, Aside) {
        self.out.push_str("</svg>\n");
        (self.out, self.aside.unwrap_or_default())
    }
}
