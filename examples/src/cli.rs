//! What the demos' command lines share, parsed by hand: a few flags do not
//! need a dependency.

use core::fmt;

/// A command line that does not parse, with what was wrong.
///
/// ```
/// use examples::boids::cli::Options;
///
/// let err = Options::parse(["--boids".to_owned(), "many".to_owned()]).unwrap_err();
/// assert_eq!(err.to_string(), "--boids wants a number, not `many` (see --help)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CliError(String);

impl CliError {
    /// An error saying `what`; `Display` adds the pointer to `--help`.
    pub(crate) fn new(what: impl Into<String>) -> Self {
        Self(what.into())
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (see --help)", self.0)
    }
}

impl std::error::Error for CliError {}

/// One flag of a command line, with its value if written as `--flag=value`.
pub(crate) struct Flag {
    pub(crate) name: String,
    inline: Option<String>,
}

/// The arguments after the program name, read flag by flag; a value
/// follows its flag as the next argument or after `=`.
pub(crate) struct Args<I> {
    rest: I,
}

impl<I: Iterator<Item = String>> Args<I> {
    pub(crate) fn new(args: impl IntoIterator<IntoIter = I>) -> Self {
        Self {
            rest: args.into_iter(),
        }
    }

    /// The next flag, if any.
    pub(crate) fn next_flag(&mut self) -> Option<Flag> {
        let arg = self.rest.next()?;
        Some(match arg.split_once('=') {
            Some((name, value)) if name.starts_with("--") => Flag {
                name: name.to_owned(),
                inline: Some(value.to_owned()),
            },
            _ => Flag {
                name: arg,
                inline: None,
            },
        })
    }

    /// `flag`'s value: after its `=`, else the next argument.
    pub(crate) fn value(&mut self, flag: &Flag) -> Result<String, CliError> {
        flag.inline
            .clone()
            .or_else(|| self.rest.next())
            .ok_or_else(|| CliError::new(format!("{} wants a value", flag.name)))
    }

    /// `flag`'s value as a number (`_` separators allowed).
    pub(crate) fn number<T: core::str::FromStr>(&mut self, flag: &Flag) -> Result<T, CliError> {
        let value = self.value(flag)?;
        value
            .replace('_', "")
            .parse()
            .map_err(|_| CliError::new(format!("{} wants a number, not `{value}`", flag.name)))
    }

    /// `flag`'s value as a number that must not be zero.
    pub(crate) fn positive<T: core::str::FromStr + PartialEq + Default>(
        &mut self,
        flag: &Flag,
    ) -> Result<T, CliError> {
        let n: T = self.number(flag)?;
        if n == T::default() {
            return Err(CliError::new(format!("{} must be at least 1", flag.name)));
        }
        Ok(n)
    }
}

/// The error for a flag no demo knows.
pub(crate) fn unknown(flag: &Flag) -> CliError {
    CliError::new(format!("unknown argument `{}`", flag.name))
}
