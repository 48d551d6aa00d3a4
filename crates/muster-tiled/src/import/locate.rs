//! Where things are in the TMX text. The `tiled` reader keeps no positions, so the same
//! text is also read with `roxmltree`, which keeps every element's and attribute's byte
//! range; diagnostics point there.

use std::ops::Range;

use roxmltree::{Document, Node};

/// The elements of one TMX document that diagnostics point at.
pub struct Locator<'a> {
    doc: Document<'a>,
}

/// A `<property>` element: its name, and where its name and value are written.
pub struct PropertyAt {
    pub name: String,
    pub name_span: Range<usize>,
    pub value_span: Range<usize>,
}

impl<'a> Locator<'a> {
    pub fn new(text: &'a str) -> Result<Self, roxmltree::Error> {
        Document::parse(text).map(|doc| Self { doc })
    }

    pub fn map(&self) -> Node<'_, 'a> {
        self.doc.root_element()
    }

    /// The start tag's name (`<map`), the span shown for a whole element.
    pub fn tag(node: Node) -> Range<usize> {
        let start = node.range().start;
        start..start + 1 + node.tag_name().name().len()
    }

    /// An attribute's value, else the element's tag.
    pub fn attribute(node: Node, name: &str) -> Range<usize> {
        node.attribute_node(name)
            .map_or_else(|| Self::tag(node), |a| a.range_value())
    }

    /// The `<property>` children of an element's `<properties>`, in document order.
    pub fn properties(node: Node) -> Vec<PropertyAt> {
        node.children()
            .filter(|c| c.has_tag_name("properties"))
            .flat_map(|p| p.children().filter(|c| c.has_tag_name("property")))
            .map(|p| PropertyAt {
                name: p.attribute("name").unwrap_or_default().to_string(),
                name_span: Self::attribute(p, "name"),
                value_span: Self::attribute(p, "value"),
            })
            .collect()
    }

    /// The `index`-th `<tileset>` of the map.
    pub fn tileset(&self, index: usize) -> Option<Node<'_, 'a>> {
        self.map()
            .children()
            .filter(|c| c.has_tag_name("tileset"))
            .nth(index)
    }

    /// A `<tile>` of a tileset written in the map (not one in an external `.tsx`).
    pub fn tile(&self, tileset: usize, id: u32) -> Option<Node<'_, 'a>> {
        let id = id.to_string();
        self.tileset(tileset)?
            .children()
            .find(|c| c.has_tag_name("tile") && c.attribute("id") == Some(id.as_str()))
    }

    /// The layer (of any kind) with this id, anywhere in the map.
    pub fn layer(&self, id: u32) -> Option<Node<'_, 'a>> {
        let id = id.to_string();
        self.map().descendants().find(|c| {
            matches!(
                c.tag_name().name(),
                "layer" | "objectgroup" | "imagelayer" | "group"
            ) && c.attribute("id") == Some(id.as_str())
        })
    }

    /// The object with this id.
    pub fn object(&self, id: u32) -> Option<Node<'_, 'a>> {
        let id = id.to_string();
        self.map()
            .descendants()
            .find(|c| c.has_tag_name("object") && c.attribute("id") == Some(id.as_str()))
    }
}

/// The byte offset of a 1-based line and character column in `text` (roxmltree's
/// error positions), clamped to the text.
pub fn offset_of(text: &str, row: u32, col: u32) -> usize {
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if i + 1 == row as usize {
            let chars = line.char_indices().nth(col.saturating_sub(1) as usize);
            return offset + chars.map_or(line.len(), |(at, _)| at);
        }
        offset += line.len();
    }
    text.len()
}
