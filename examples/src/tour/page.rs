//! The tour's text: section headers, prose, and the world's output indented
//! beneath it.

use core::fmt::Display;

/// The text the tour writes, section by section.
#[derive(Debug, Default)]
pub(super) struct Page {
    text: String,
    sections: u32,
}

impl Page {
    /// Starts a numbered section.
    pub(super) fn section(&mut self, title: &str) {
        self.sections += 1;
        if !self.text.is_empty() {
            self.text.push('\n');
        }
        self.text += &format!("== {}. {title} ==\n", self.sections);
    }

    /// A line of prose.
    pub(super) fn say(&mut self, prose: impl Display) {
        self.text += &format!("{prose}\n");
    }

    /// A line the world printed, indented under the prose.
    pub(super) fn show(&mut self, output: impl Display) {
        self.text += &format!("    {output}\n");
    }

    /// Every line shown so far.
    pub(super) fn into_text(self) -> String {
        self.text
    }
}
