//! PNG through resvg: the SVG muster wrote, rasterised at its own size. Text uses the
//! system's fonts (the SVG names generic families); without any installed font, text is
//! left out of the picture and the rest is drawn.

use resvg::{tiny_skia, usvg};

pub fn rasterise(svg: &str, scale: f32) -> Result<Vec<u8>, String> {
    let scale = if scale.is_finite() && scale > 0.0 {
        scale
    } else {
        1.0
    };
    let mut options = usvg::Options::default();
    options.fontdb_mut().load_system_fonts();
    let tree = usvg::Tree::from_str(svg, &options)
        .map_err(|e| format!("the SVG could not be read: {e}"))?;
    let size = tree
        .size()
        .to_int_size()
        .scale_by(scale)
        .ok_or("the picture has no size")?;
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| format!("a {}x{} picture is too large", size.width(), size.height()))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| format!("the PNG could not be encoded: {e}"))
}
