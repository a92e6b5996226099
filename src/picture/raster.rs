//! SVG to PNG with resvg, using the font embedded in the binary.

use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};

use super::PictureError;

/// The embedded face: DejaVu Sans Condensed Bold (`assets/fonts/`, with
/// its licence and provenance).
const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansCondensed-Bold.ttf");

/// The family name the SVG asks for: the embedded font's typographic
/// family (its width, condensed, is asked for with `font-stretch`).
pub const FONT_FAMILY: &str = "DejaVu Sans";

/// The font database with the embedded font only, built once.
fn fonts() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(FONT.to_vec());
        Arc::new(db)
    })
    .clone()
}

/// Rasterises a picture's SVG (from [`super::svg`]) to PNG bytes at its
/// own size: 256 colours (the picture is opaque), zlib's default level
/// (its best level is four times slower for a file 1% smaller).
pub fn png(svg: &str) -> Result<Vec<u8>, PictureError> {
    let options = usvg::Options {
        font_family: FONT_FAMILY.to_string(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| PictureError::Svg(e.to_string()))?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| PictureError::Png(format!("empty size {size:?}")))?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    encode_rgb(&pixmap)
}

/// PNG of an opaque pixmap, its colours quantised to a 256-colour palette
/// (a third of the bytes of RGB).
fn encode_rgb(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, PictureError> {
    let rgb: Vec<[u8; 3]> = pixmap
        .pixels()
        .iter()
        // Opaque (a white background under everything): premultiplied
        // colours are the colours.
        .map(|p| [p.red(), p.green(), p.blue()])
        .collect();
    let indexed = super::quantize::quantize(&rgb);
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    enc.set_color(png::ColorType::Indexed);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_palette(indexed.palette);
    enc.set_compression(png::Compression::Default);
    let err = |e: png::EncodingError| PictureError::Png(e.to_string());
    let mut writer = enc.write_header().map_err(err)?;
    writer.write_image_data(&indexed.indices).map_err(err)?;
    writer.finish().map_err(err)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_font_is_the_family_the_svg_asks_for() {
        let db = fonts();
        assert_eq!(db.len(), 1, "the embedded font only, no system fonts");
        let face = db.faces().next().unwrap();
        assert!(
            face.families.iter().any(|(f, _)| f == FONT_FAMILY),
            "{:?}",
            face.families
        );
    }

    #[test]
    fn text_is_drawn() {
        let svg = |text: &str| {
            format!(
                r##"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40" font-family="{FONT_FAMILY}" font-weight="bold" font-stretch="condensed"><rect width="200" height="40" fill="#fff"/><text x="5" y="30" font-size="24">{text}</text></svg>"##
            )
        };
        let dark = |png: &[u8]| {
            let p = tiny_skia::Pixmap::decode_png(png).unwrap();
            p.pixels().iter().filter(|c| c.red() < 128).count()
        };
        assert_eq!(dark(&png(&svg("")).unwrap()), 0);
        assert!(dark(&png(&svg("Rushton")).unwrap()) > 200);
    }
}
