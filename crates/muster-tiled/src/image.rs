//! The tileset's picture: one flat-topped hex per terrain type, side by side, filled
//! with a colour named after the terrain, as a PNG.

use crate::geometry::{SIDE, TILE_HEIGHT, TILE_WIDTH};

/// A colour for a terrain id: by what the id says it is, else one of a fixed palette
/// picked by the id's bytes (the same id always gets the same colour).
pub fn colour(id: &str) -> [u8; 3] {
    let id = id.to_ascii_lowercase();
    let named: &[(&[&str], [u8; 3])] = &[
        (&["wood", "forest", "orchard"], [74, 128, 62]),
        (&["marsh", "swamp", "bog", "fen"], [96, 140, 130]),
        (
            &["river", "water", "lake", "sea", "stream", "ford"],
            [90, 140, 200],
        ),
        (&["bridge"], [150, 120, 90]),
        (&["hill", "slope", "ridge", "height"], [176, 140, 92]),
        (&["rough", "broken", "rock", "mountain"], [150, 130, 110]),
        (
            &[
                "town", "village", "city", "castle", "church", "abbey", "farm", "build",
            ],
            [180, 90, 80],
        ),
        (&["clear", "open", "field", "plain"], [226, 222, 170]),
    ];
    for (words, rgb) in named {
        if words.iter().any(|w| id.contains(w)) {
            return *rgb;
        }
    }
    const PALETTE: [[u8; 3]; 6] = [
        [200, 170, 120],
        [160, 190, 120],
        [190, 150, 180],
        [140, 170, 190],
        [210, 190, 100],
        [170, 170, 170],
    ];
    let sum: usize = id.bytes().map(usize::from).sum();
    PALETTE[sum % PALETTE.len()]
}

/// Whether a point of a tile lies inside its hexagon (flat top and bottom).
fn inside(x: f64, y: f64, inset: f64) -> bool {
    let (w, h) = (f64::from(TILE_WIDTH), f64::from(TILE_HEIGHT));
    let slant = (w - f64::from(SIDE)) / 2.0;
    if y < inset || y > h - inset {
        return false;
    }
    // Distance from the vertical middle, against the slanted sides' reach there.
    let dy = (y - h / 2.0).abs();
    let reach = w / 2.0 - slant * dy / (h / 2.0) - inset;
    (x - w / 2.0).abs() <= reach
}

/// The tileset picture for `colours`, one tile each, left to right, as PNG bytes.
pub fn tileset_png(colours: &[[u8; 3]]) -> Vec<u8> {
    let (tw, th) = (TILE_WIDTH as usize, TILE_HEIGHT as usize);
    let width = tw * colours.len().max(1);
    let mut rgba = vec![0u8; width * th * 4];
    for (i, rgb) in colours.iter().enumerate() {
        let edge = rgb.map(|c| c / 2);
        for y in 0..th {
            for x in 0..tw {
                let (px, py) = (x as f64 + 0.5, y as f64 + 0.5);
                let fill = if inside(px, py, 2.0) {
                    Some(*rgb)
                } else if inside(px, py, 0.0) {
                    Some(edge)
                } else {
                    None
                };
                if let Some([r, g, b]) = fill {
                    let at = (y * width + i * tw + x) * 4;
                    rgba[at..at + 4].copy_from_slice(&[r, g, b, 255]);
                }
            }
        }
    }
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, width as u32, TILE_HEIGHT);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        // Writing into memory cannot fail; an error would leave the picture empty,
        // which the tests of the export see.
        if let Ok(mut writer) = encoder.write_header() {
            let _ = writer.write_image_data(&rgba);
        }
    }
    out
}
