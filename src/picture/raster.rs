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
/// own size, 256 colours (the picture is opaque).
pub fn png(svg: &str) -> Result<Vec<u8>, PictureError> {
    encode_rgb(&rasterise(svg, None)?)
}

/// An SVG parsed with the embedded font.
fn tree(svg: &str) -> Result<usvg::Tree, PictureError> {
    let options = usvg::Options {
        font_family: FONT_FAMILY.to_string(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    usvg::Tree::from_str(svg, &options).map_err(|e| PictureError::Svg(e.to_string()))
}

/// An SVG rasterised at its own size, over `under` (its top left corner
/// at the top left, the rest white) when given.
fn rasterise(
    svg: &str,
    under: Option<&tiny_skia::Pixmap>,
) -> Result<tiny_skia::Pixmap, PictureError> {
    let tree = tree(svg)?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| PictureError::Png(format!("empty size {size:?}")))?;
    if let Some(under) = under {
        // Copied, not drawn: the same width, opaque pixels.
        pixmap.fill(tiny_skia::Color::WHITE);
        let n = under.data().len().min(pixmap.data().len());
        if under.width() == pixmap.width() {
            pixmap.data_mut()[..n].copy_from_slice(&under.data()[..n]);
        } else {
            return Err(PictureError::Png(format!(
                "network {} px wide under a picture {} px wide",
                under.width(),
                pixmap.width()
            )));
        }
    }
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    Ok(pixmap)
}

/// PNG bytes of `svg` (a picture without its network) drawn over the
/// network's pixels.
pub(super) fn png_over(network: &tiny_skia::Pixmap, svg: &str) -> Result<Vec<u8>, PictureError> {
    encode_rgb(&rasterise(svg, Some(network))?)
}

/// The plain network of `map` rasterised, kept for the embedded map (the
/// one the daemon draws every picture on); any other map is drawn afresh.
pub(super) fn network(map: &crate::map::Map) -> Result<Arc<tiny_skia::Pixmap>, PictureError> {
    static EMBEDDED: OnceLock<Arc<tiny_skia::Pixmap>> = OnceLock::new();
    let draw = || rasterise(&super::network_svg(map), None).map(Arc::new);
    if !std::ptr::eq(map, crate::map::Map::london_1999()) {
        return draw();
    }
    if let Some(p) = EMBEDDED.get() {
        return Ok(p.clone());
    }
    let p = draw()?;
    Ok(EMBEDDED.get_or_init(|| p).clone())
}

/// PNG of an opaque pixmap, its colours quantised to a 256-colour palette
/// (a third of the bytes of RGB), unfiltered (filters do not help an
/// indexed picture) and deflated at level 1. Measured on a full picture
/// (1600 x 1171): level 1 takes a seventh of the time of zlib's default
/// level for a file a quarter larger (120 KB against 94 KB); png's own
/// fast mode (fdeflate) is quicker still but makes 171 KB, over the mail
/// budget. So the image data is deflated here and written as one IDAT.
fn encode_rgb(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, PictureError> {
    // Opaque (a white background under everything): premultiplied colours
    // are the colours.
    let indexed = super::quantize::quantize(pixmap.data());
    let width = pixmap.width() as usize;
    let mut scanlines = Vec::with_capacity(indexed.indices.len() + pixmap.height() as usize);
    for row in indexed.indices.chunks(width.max(1)) {
        scanlines.push(0); // filter type None
        scanlines.extend_from_slice(row);
    }
    let idat = miniz_oxide::deflate::compress_to_vec_zlib(&scanlines, 1);
    let mut out = Vec::with_capacity(idat.len() + 1024);
    let mut enc = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    enc.set_color(png::ColorType::Indexed);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_palette(indexed.palette);
    let err = |e: png::EncodingError| PictureError::Png(e.to_string());
    let mut writer = enc.write_header().map_err(err)?;
    writer.write_chunk(png::chunk::IDAT, &idat).map_err(err)?;
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
