//! From geographic positions to the canvas.

use crate::map::Map;

/// An equirectangular projection fitted to the canvas: x grows with
/// longitude scaled by the cosine of the map's middle latitude (so that a
/// kilometre east is as long as a kilometre north at London's latitude), y
/// grows southward; the map's bounding box fills the width less the
/// margins, and the height follows from the aspect.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Projection {
    lat_max: f64,
    lon_min: f64,
    cos_lat: f64,
    scale: f64,
    margin: f64,
    height: f64,
}

impl Projection {
    /// Fits every station site of `map` into `width` px, `margin` px from
    /// each edge.
    pub fn fit(map: &Map, width: f64, margin: f64) -> Projection {
        let sites = map.stations().iter().flat_map(|s| &s.sites);
        Projection::fit_points(sites.map(|s| (s.lat, s.lon)), width, margin)
    }

    /// Fits the (latitude, longitude) `points` into `width` px, `margin` px
    /// from each edge (a part of the map, e.g. Zone 1).
    pub(super) fn fit_points(
        points: impl IntoIterator<Item = (f64, f64)>,
        width: f64,
        margin: f64,
    ) -> Projection {
        let (mut lat_min, mut lat_max) = (f64::MAX, f64::MIN);
        let (mut lon_min, mut lon_max) = (f64::MAX, f64::MIN);
        for (lat, lon) in points {
            lat_min = lat_min.min(lat);
            lat_max = lat_max.max(lat);
            lon_min = lon_min.min(lon);
            lon_max = lon_max.max(lon);
        }
        let cos_lat = ((lat_min + lat_max) / 2.0).to_radians().cos();
        let span_x = ((lon_max - lon_min) * cos_lat).max(1e-9);
        let scale = (width - 2.0 * margin) / span_x;
        let height = (lat_max - lat_min) * scale + 2.0 * margin;
        Projection {
            lat_max,
            lon_min,
            cos_lat,
            scale,
            margin,
            height,
        }
    }

    /// The canvas point of a (latitude, longitude).
    pub fn point(&self, (lat, lon): (f64, f64)) -> (f64, f64) {
        (
            self.margin + (lon - self.lon_min) * self.cos_lat * self.scale,
            self.margin + (self.lat_max - lat) * self.scale,
        )
    }

    /// The height of the network's part of the canvas, margins included.
    pub fn height(&self) -> f64 {
        self.height
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_map_fills_the_width_and_keeps_north_up() {
        let map = Map::london_1999();
        let p = Projection::fit(map, 1600.0, 30.0);
        let pts: Vec<_> = map
            .station_ids()
            .map(|id| p.point(map.coordinates(id, None)))
            .collect();
        let min_x = pts.iter().map(|p| p.0).fold(f64::MAX, f64::min);
        let max_x = pts.iter().map(|p| p.0).fold(f64::MIN, f64::max);
        assert!((min_x - 30.0).abs() < 1.0 && (max_x - 1570.0).abs() < 1.0);
        let at = |n: &str| p.point(map.coordinates(map.lookup(n).unwrap(), None));
        // Epping is north-east of Morden; Upminster east of Amersham.
        assert!(at("Epping").1 < at("Morden").1 && at("Epping").0 > at("Morden").0);
        assert!(at("Upminster").0 > at("Amersham").0);
        // London is wider than tall: the height follows the aspect.
        assert!(p.height() > 500.0 && p.height() < 1100.0, "{}", p.height());
    }
}
