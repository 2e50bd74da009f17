//! Progress while the flock flies: a bar on a terminal, a line every tenth
//! of the run when the output goes to a file or a pipe, where a redrawn bar
//! would be a mess of carriage returns.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use super::FlockStats;

/// Reports frames as they finish.
#[derive(Debug)]
pub enum Progress {
    /// A bar on standard error, which is a terminal.
    Bar(ProgressBar),
    /// Plain lines on standard error, every `every` frames.
    Lines {
        /// How many frames between lines.
        every: u64,
        /// The run's length.
        frames: u64,
    },
}

impl Progress {
    /// A bar if standard error is a terminal, else plain lines.
    pub fn new(frames: u64) -> Self {
        if std::io::stderr().is_terminal() {
            let bar = ProgressBar::new(frames);
            let style = ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40.cyan/blue}] {pos}/{len} frames {msg}",
            )
            .expect("a valid template")
            .progress_chars("=> ");
            bar.set_style(style);
            Self::Bar(bar)
        } else {
            Self::Lines {
                every: (frames / 10).max(1),
                frames,
            }
        }
    }

    /// Frame `stats.frame` is done and took `took`.
    pub fn frame(&self, stats: &FlockStats, took: Duration) {
        match self {
            Self::Bar(bar) => {
                bar.set_position(stats.frame);
                bar.set_message(format!(
                    "{:.2} ms/frame, alignment {:.2}",
                    took.as_secs_f64() * 1e3,
                    stats.alignment
                ));
            }
            Self::Lines { every, frames } => {
                if stats.frame.is_multiple_of(*every) || stats.frame == *frames {
                    eprintln!("{stats}, {:.2} ms this frame", took.as_secs_f64() * 1e3);
                }
            }
        }
    }

    /// The run is over: the bar goes away.
    pub fn finish(&self) {
        if let Self::Bar(bar) = self {
            bar.finish_and_clear();
        }
    }
}
