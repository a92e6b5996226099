//! SVG to PNG with resvg, using the font embedded in the binary.

use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};

use super::canvas::BLOCK;
use super::deflate::BAND_ROWS;
use super::PictureError;

/// The embedded face: DejaVu Sans Condensed Bold (`assets/fonts/`, with
/// its licence and provenance).
pub(super) const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansCondensed-Bold.ttf");

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
    encode_rgb(&rasterise(svg)?)
}

/// An SVG parsed with the embedded font.
pub(super) fn tree(svg: &str) -> Result<usvg::Tree, PictureError> {
    let options = usvg::Options {
        font_family: FONT_FAMILY.to_string(),
        fontdb: fonts(),
        ..usvg::Options::default()
    };
    usvg::Tree::from_str(svg, &options).map_err(|e| PictureError::Svg(e.to_string()))
}

/// An SVG rasterised at its own size.
fn rasterise(svg: &str) -> Result<tiny_skia::Pixmap, PictureError> {
    let tree = tree(svg)?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| PictureError::Png(format!("empty size {size:?}")))?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    Ok(pixmap)
}

/// The plain network rasterised, and quantised once.
pub(super) struct Network {
    pixmap: tiny_skia::Pixmap,
    quantized: super::quantize::Base,
    /// Whether it is the kept one (the embedded map's), whose canvases are
    /// kept too.
    kept: bool,
    /// Its bands deflated, as pictures over it need them.
    bands: super::deflate::Bands,
}

/// PNG bytes of `svg` (a picture without its network, its label boxes and
/// its text) drawn over the network's pixels, and `aside` (those boxes and
/// text) over it.
pub(super) fn png_over(
    network: &Network,
    svg: &str,
    aside: &super::writer::Aside,
) -> Result<Vec<u8>, PictureError> {
    let tree = tree(svg)?;
    let size = tree.size().to_int_size();
    if network.pixmap.width() != size.width() {
        return Err(PictureError::Png(format!(
            "network {} px wide under a picture {} px wide",
            network.pixmap.width(),
            size.width()
        )));
    }
    let len = 4 * size.width() as usize * size.height() as usize;
    let base = network.pixmap.data();
    let mut dirty = super::dirty::Dirty::new(network.pixmap.width(), network.pixmap.height());
    dirty.add_tree(&tree);
    let mut canvas = super::canvas::Canvas::take(base, &network.quantized, len, network.kept);
    let mut pixmap = tiny_skia::PixmapMut::from_bytes(canvas.pixels(), size.width(), size.height())
        .ok_or_else(|| PictureError::Png(format!("empty size {size:?}")))?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap);
    super::boxes::draw(&mut pixmap, &aside.boxes, &mut dirty);
    super::glyphs::draw(&mut pixmap, &aside.texts, &mut dirty);
    if let Some(y) = aside.key {
        // In the panel, past the network: every pixel there is indexed.
        super::key::blit(&mut pixmap, y)?;
    }
    let indexed = canvas.index_over(&network.quantized, base, &dirty);
    let (width, rows) = (size.width() as usize, network.pixmap.height() as usize);
    let clean = super::deflate::clean_bands(rows, width, BLOCK / 4, canvas.changed());
    debug_assert!(
        clean.iter().enumerate().filter(|(_, &c)| c).all(|(b, _)| {
            let from = (b * BAND_ROWS).saturating_sub(1) * width;
            let to = (b + 1) * BAND_ROWS * width;
            indexed.indices[from..to] == network.quantized.indices[from..to]
        }),
        "a band called clean is the network's"
    );
    let kept = Some((clean.as_slice(), &network.bands));
    let png = encode_indexed(
        size.width(),
        size.height(),
        &indexed,
        canvas.scanlines(),
        kept,
    );
    canvas.give_back(indexed.indices);
    png
}

/// The plain network of `map` rasterised, kept for the embedded map (the
/// one the daemon draws every picture on); any other map is drawn afresh.
pub(super) fn network(map: &crate::map::Map) -> Result<Arc<Network>, PictureError> {
    static EMBEDDED: OnceLock<Arc<Network>> = OnceLock::new();
    let draw = || {
        let pixmap = rasterise(&super::network_svg(map))?;
        let quantized = super::quantize::Base::new(pixmap.data());
        Ok(Network {
            bands: super::deflate::Bands::new(pixmap.height() as usize),
            pixmap,
            quantized,
            kept: false,
        })
    };
    if !std::ptr::eq(map, crate::map::Map::london_1999()) {
        return draw().map(Arc::new);
    }
    if let Some(p) = EMBEDDED.get() {
        return Ok(p.clone());
    }
    let p = Arc::new(Network {
        kept: true,
        ..draw()?
    });
    Ok(EMBEDDED.get_or_init(|| p).clone())
}

/// PNG of an opaque pixmap, its colours quantised to a 256-colour palette
/// (a third of the bytes of RGB), unfiltered (filters do not help an
/// indexed picture) and deflated by the picture's own encoder
/// ([`super::deflate`]), which looks for repeats only where a picture of
/// strokes has them: miniz_oxide at level 1 took 18.5 M instructions of
/// the bench's picture for 120,816 bytes, and png's own fast mode
/// (fdeflate) made 171 KB, over the mail budget. The image data is written
/// as one IDAT.
fn encode_rgb(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, PictureError> {
    // Opaque (a white background under everything): premultiplied colours
    // are the colours.
    encode_indexed(
        pixmap.width(),
        pixmap.height(),
        &super::quantize::quantize(pixmap.data()),
        &mut super::scanlines::Scanlines::default(),
        None,
    )
}

/// PNG of a `width` x `height` picture quantised to `indexed` (see
/// [`encode_rgb`]), its scanlines laid out in `scanlines` (kept between
/// pictures); with `kept`, the network's bands the picture left alone and
/// the network's bands deflated (see [`super::deflate::Bands`]).
fn encode_indexed(
    width: u32,
    height: u32,
    indexed: &super::quantize::Indexed,
    scanlines: &mut super::scanlines::Scanlines,
    kept: Option<(&[bool], &super::deflate::Bands)>,
) -> Result<Vec<u8>, PictureError> {
    let (w, h) = (width, height);
    let width = width as usize;
    let clean = kept.map_or(&[][..], |(clean, _)| clean);
    let scanlines = scanlines.lay_out(&indexed.indices, width, clean);
    let idat = match kept {
        Some((clean, bands)) => super::deflate::zlib_over(scanlines, width + 1, clean, bands),
        None => super::deflate::zlib(scanlines, width + 1),
    };
    let mut out = Vec::with_capacity(idat.len() + 1024);
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Indexed);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_palette(indexed.palette.as_slice());
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
