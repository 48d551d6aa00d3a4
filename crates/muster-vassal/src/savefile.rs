//! Saved games (`.vsav`): a zip of `savedGame` (the commands, obfuscated as VASSAL
//! writes them), `savedata` and `moduledata` (metadata). The commands are separated by
//! ESC and run from `begin_save` to `end_save`; a piece is `+/id/type/state` and a map's
//! boards `<map>BoardPicker\t<board>\t<x>\t<y>`.

use crate::seq;

const HEADER: &str = "!VCSK";
/// The key every byte is XORed with. VASSAL picks one at random; muster fixes it so that
/// the same set-up gives the same bytes.
const KEY: u8 = 0x4d;
pub const SEPARATOR: char = '\u{1b}';

/// `text` obfuscated as VASSAL's `ObfuscatingOutputStream` writes it.
pub fn obfuscate(text: &str) -> Vec<u8> {
    let mut out = String::with_capacity(HEADER.len() + 2 + text.len() * 2);
    out.push_str(HEADER);
    out.push_str(&format!("{KEY:02x}"));
    for b in text.bytes() {
        out.push_str(&format!("{:02x}", b ^ KEY));
    }
    out.into_bytes()
}

/// The text of an obfuscated `savedGame` (or the bytes as they are, when they do not
/// start with the header: VASSAL reads plain saves too).
pub fn deobfuscate(bytes: &[u8]) -> Result<String, String> {
    let Some(rest) = bytes.strip_prefix(HEADER.as_bytes()) else {
        return String::from_utf8(bytes.to_vec()).map_err(|e| e.to_string());
    };
    let digit = |c: u8| -> Result<u8, String> {
        (c as char)
            .to_digit(16)
            .map(|d| d as u8)
            .ok_or_else(|| format!("`{}` is not a hex digit", c as char))
    };
    let pairs: Vec<u8> = rest
        .chunks(2)
        .map(|p| match p {
            [a, b] => Ok(digit(*a)? << 4 | digit(*b)?),
            _ => Err("an odd number of hex digits".to_string()),
        })
        .collect::<Result<_, String>>()?;
    let Some((key, body)) = pairs.split_first() else {
        return Err("no key after the header".to_string());
    };
    String::from_utf8(body.iter().map(|b| b ^ key).collect()).map_err(|e| e.to_string())
}

/// A piece added to a map: `+/id/type/state`.
pub fn add_piece(id: &str, ty: &str, state: &str) -> String {
    format!("+/{}", seq::encode(&[id, ty, state], '/'))
}

/// A map's boards: one board at the map's origin.
pub fn board_choice(map: &str, board: &str) -> String {
    seq::encode(
        &[format!("{map}BoardPicker").as_str(), board, "0", "0"],
        '\t',
    )
}

/// The metadata of a saved game or module (`savedata`, `moduledata`), dated at the epoch
/// so that it does not change between exports.
pub fn metadata(module: &str, version: &str, description: &str, saved: bool) -> Vec<u8> {
    let esc = crate::xml;
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n<data version=\"1\">\n",
    );
    out.push_str(&format!("  <version>{}</version>\n", esc(version)));
    out.push_str("  <extra1/>\n  <extra2/>\n");
    out.push_str(&format!(
        "  <VassalVersion>{}</VassalVersion>\n",
        crate::VASSAL_VERSION
    ));
    out.push_str("  <dateSaved>0</dateSaved>\n");
    if saved {
        out.push_str(&format!(
            "  <description>{}</description>\n",
            esc(description)
        ));
        out.push_str(&format!("  <moduleName>{}</moduleName>\n", esc(module)));
        out.push_str(&format!(
            "  <moduleVersion>{}</moduleVersion>\n",
            esc(version)
        ));
    } else {
        out.push_str(&format!("  <name>{}</name>\n", esc(module)));
        out.push_str(&format!(
            "  <description>{}</description>\n",
            esc(description)
        ));
    }
    out.push_str("</data>\n");
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn obfuscated_text_reads_back_and_looks_like_vassals() {
        let text = "begin_save\u{1b}+/a/piece;;;x.png;Name/null;0;0;;0\u{1b}end_save";
        let bytes = obfuscate(text);
        assert!(bytes.starts_with(b"!VCSK4d"));
        // 'b' (0x62) XOR 0x4d = 0x2f.
        assert_eq!(&bytes[7..9], b"2f");
        assert_eq!(deobfuscate(&bytes).unwrap(), text);
        assert!(deobfuscate(b"!VCSK4d2").is_err());
    }
}
