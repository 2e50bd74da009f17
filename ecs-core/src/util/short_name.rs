//! Type names without their module paths, for messages.

use core::fmt;

/// Formats a type name without its module paths: `alloc::vec::Vec<game::Pos>` as `Vec<Pos>`.
pub(crate) struct ShortName<'a>(pub(crate) &'a str);

impl ShortName<'_> {
    /// A param's type as a user wrote it: no module paths, no elided
    /// lifetimes (`Query<'_, &mut game::Health>` is `Query<&mut Health>`).
    pub(crate) fn param(type_name: &str) -> String {
        ShortName(type_name)
            .to_string()
            .replace("'_, ", "")
            .replace("<'_>", "")
    }
}

impl fmt::Display for ShortName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        while !rest.is_empty() {
            // A path is a run of identifier characters and `::` separators.
            let path_len = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(rest.len());
            let (path, tail) = rest.split_at(path_len);
            f.write_str(path.rsplit("::").next().unwrap_or(path))?;
            let punct_len = tail
                .find(|c: char| c.is_alphanumeric() || c == '_' || c == ':')
                .unwrap_or(tail.len());
            f.write_str(&tail[..punct_len])?;
            rest = &tail[punct_len..];
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::ShortName;

    fn short(name: &str) -> String {
        ShortName(name).to_string()
    }

    #[test]
    fn short_names_strip_every_path() {
        assert_eq!(short("game::Position"), "Position");
        assert_eq!(short("Position"), "Position");
        assert_eq!(short("alloc::vec::Vec<game::Pos>"), "Vec<Pos>");
        assert_eq!(
            short("core::option::Option<(a::B, &'static str, [c::D; 3])>"),
            "Option<(B, &'static str, [D; 3])>"
        );
        assert_eq!(
            short("alloc::boxed::Box<dyn core::ops::Fn() + core::marker::Send>"),
            "Box<dyn Fn() + Send>"
        );
    }
}
