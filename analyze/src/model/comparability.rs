//! Which `[environment]` keys two measurements must share to be compared: the rules of
//! dataset.toml's `[comparability] must_match`, their syntax and the value each compares.

/// The rules when dataset.toml names none: the CPU, its count, the kernel's major version, and
/// every version measure records (`gunicorn_version`, `hey_version`, ...).
pub const DEFAULT_MUST_MATCH: [&str; 5] = ["cpu_model", "cores", "cpus", "kernel:major", "*_version"];

/// One `must_match` rule: a key, or a pattern with one `*` at its start or end, optionally
/// compared by its major version only (`kernel:major`: "6.18.44-fc" and "6.1.0" agree on 6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MustMatch {
    pattern: String,
    major_only: bool,
}

impl MustMatch {
    /// Reads a rule; the error says what a rule may be.
    pub fn parse(text: &str) -> Result<MustMatch, String> {
        let (pattern, major_only) = match text.strip_suffix(":major") {
            Some(key) => (key, true),
            None => (text, false),
        };
        let stars = pattern.matches('*').count();
        let well_formed = !pattern.is_empty()
            && pattern != "*"
            && !pattern.contains(':')
            && (stars == 0 || (stars == 1 && (pattern.starts_with('*') || pattern.ends_with('*'))));
        if !well_formed {
            return Err(format!(
                "{text:?} is not a rule: write a key (cpu_model), a pattern with one * at its start or end (*_version), optionally with :major (kernel:major)"
            ));
        }
        Ok(MustMatch { pattern: pattern.to_string(), major_only })
    }

    /// Whether the rule covers `key`.
    pub fn covers(&self, key: &str) -> bool {
        match (self.pattern.strip_prefix('*'), self.pattern.strip_suffix('*')) {
            (Some(suffix), _) => key.ends_with(suffix) && key.len() > suffix.len(),
            (_, Some(prefix)) => key.starts_with(prefix) && key.len() > prefix.len(),
            _ => key == self.pattern,
        }
    }

    /// The part of a value the rule compares: the whole, or its leading number.
    pub fn compared<'a>(&self, value: &'a str) -> &'a str {
        if !self.major_only {
            return value;
        }
        let value = value.trim_start_matches(|c: char| !c.is_ascii_digit());
        let end = value.find(|c: char| !c.is_ascii_digit()).unwrap_or(value.len());
        &value[..end]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_cover_keys_and_compare_their_part() {
        let kernel = MustMatch::parse("kernel:major").unwrap();
        assert!(kernel.covers("kernel") && !kernel.covers("kernel_version"));
        assert_eq!(kernel.compared("6.18.44-fc-v669"), "6");
        assert_eq!(kernel.compared("Linux 5.15.0"), "5");
        let versions = MustMatch::parse("*_version").unwrap();
        assert!(versions.covers("hey_version") && !versions.covers("_version") && !versions.covers("hey"));
        assert_eq!(versions.compared("1.2.3"), "1.2.3");
        assert!(MustMatch::parse("python*").unwrap().covers("python_3.11"));
        for bad in ["", "*", "a*b", "**", "cpu:model", ":major"] {
            assert!(MustMatch::parse(bad).is_err(), "{bad:?}");
        }
        assert!(DEFAULT_MUST_MATCH.iter().all(|r| MustMatch::parse(r).is_ok()));
    }
}
