//! One virtual environment per interpreter of a closed-loop plan, holding the pinned packages of
//! `measure/app/closed/requirements.txt` (Gunicorn, Django, REST framework, flup).
//!
//! The environment is created with the plan's interpreter itself (`<python> -m venv`), so a server started
//! from it runs that interpreter, whatever it is (a pyenv build, Debian's, a free-threaded 3.14t). pip
//! runs only when the environment is new or the requirements changed (a stamp file holds the text it
//! installed).

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The stamp file inside an environment: the requirements text it was built from.
const STAMP: &str = "measure-requirements.txt";

/// A ready environment.
#[derive(Debug, Clone)]
pub struct PythonEnv {
    /// The environment's folder (absolute).
    pub dir: PathBuf,
    /// `<dir>/bin/python`.
    pub python: PathBuf,
    /// `3.11.2`, from the interpreter.
    pub version: String,
}

impl PythonEnv {
    /// A script the environment installed (`gunicorn`).
    pub fn bin(&self, name: &str) -> PathBuf {
        self.dir.join("bin").join(name)
    }
}

/// `~/x` → `$HOME/x`; other paths as given (a bare name is looked up on PATH by `Command`).
pub fn expand_home(path: &Path) -> PathBuf {
    match (path.strip_prefix("~"), std::env::var_os("HOME")) {
        (Ok(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => path.to_path_buf(),
    }
}

/// Makes sure `dir` is an environment of `interpreter` with `requirements` installed.
pub fn ensure(interpreter: &Path, dir: &Path, requirements: &Path, say: &dyn Fn(&str)) -> Result<PythonEnv> {
    let interpreter = expand_home(interpreter);
    let dir = std::path::absolute(dir).with_context(|| format!("bad venv path {}", dir.display()))?;
    let wanted = std::fs::read_to_string(requirements).with_context(|| format!("failed to read {}", requirements.display()))?;
    let python = dir.join("bin").join("python");
    // A folder is named by the plan's label, and two plans may give one label different interpreters
    // (seed 002's "3.11" is pyenv's, seed 001's Debian's): an environment of another interpreter is rebuilt,
    // never reused, so the dataset's version is the one the plan asked for.
    if python.exists() && base_prefix(&python).ok() != base_prefix(&interpreter).ok() {
        say(&format!("{} was made from another interpreter than {}: recreating it", dir.display(), interpreter.display()));
        std::fs::remove_dir_all(&dir).with_context(|| format!("failed to remove {}", dir.display()))?;
    }
    if !python.exists() {
        if interpreter.components().count() > 1 && !interpreter.exists() {
            bail!(
                "the interpreter {} does not exist on this machine: install it, or point the plan's [interpreters] \
                 (or --python LABEL=PATH) at one that does",
                interpreter.display()
            );
        }
        say(&format!("creating the virtual environment {} ({} -m venv)", dir.display(), interpreter.display()));
        output(Command::new(&interpreter).arg("-m").arg("venv").arg(&dir))
            .with_context(|| format!("could not create {} with {} -m venv", dir.display(), interpreter.display()))?;
    }
    let stamp = dir.join(STAMP);
    if std::fs::read_to_string(&stamp).ok().as_deref() != Some(wanted.as_str()) {
        say(&format!("installing {} into {} (pip)", requirements.display(), dir.display()));
        output(Command::new(&python).args(["-m", "pip", "install", "--disable-pip-version-check", "--quiet", "-r"]).arg(requirements))
            .with_context(|| format!("`{} -m pip install -r {}` failed (it needs PyPI)", python.display(), requirements.display()))?;
        std::fs::write(&stamp, &wanted).with_context(|| format!("failed to write {}", stamp.display()))?;
    }
    let version = output(Command::new(&python).arg("--version"))?.trim().trim_start_matches("Python ").to_string();
    Ok(PythonEnv { dir, python, version })
}

/// The installation an interpreter (or an environment's python) runs from: `sys.base_prefix`.
fn base_prefix(python: &Path) -> Result<String> {
    Ok(output(Command::new(python).args(["-c", "import sys; print(sys.base_prefix)"]))?.trim().to_string())
}

/// The version of an installed distribution, via importlib.metadata (None when it is not installed).
pub fn package_version(env: &PythonEnv, distribution: &str) -> Option<String> {
    let code = format!("import importlib.metadata as m; print(m.version({distribution:?}))");
    output(Command::new(&env.python).args(["-c", &code])).ok().map(|s| s.trim().to_string())
}

/// Runs a command to completion and returns its stdout (or stderr when stdout is empty); an error carries
/// the end of its stderr.
pub fn output(command: &mut Command) -> Result<String> {
    let out = command.output().with_context(|| format!("could not run {:?}", command.get_program()))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(6).collect();
        bail!("{} ({})", out.status, tail.into_iter().rev().collect::<Vec<_>>().join(" | "));
    }
    // `python --version` printed to stderr before Python 3.4; accept either.
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    if text.trim().is_empty() {
        text = String::from_utf8_lossy(&out.stderr).into_owned();
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn home_is_expanded_and_other_paths_kept() {
        let home = PathBuf::from(std::env::var_os("HOME").unwrap());
        assert_eq!(expand_home(Path::new("~/.pyenv/x/bin/python3")), home.join(".pyenv/x/bin/python3"));
        assert_eq!(expand_home(Path::new("/usr/bin/python3")), PathBuf::from("/usr/bin/python3"));
        assert_eq!(expand_home(Path::new("python3")), PathBuf::from("python3"));
    }

    #[test]
    fn a_missing_interpreter_names_itself_and_the_fix() {
        let dir = tempfile::tempdir().unwrap();
        let req = dir.path().join("req.txt");
        std::fs::write(&req, "").unwrap();
        let err = ensure(Path::new("/nonexistent/python3.14t"), &dir.path().join("venv"), &req, &|_| {}).unwrap_err();
        let text = format!("{err:#}");
        assert!(text.contains("/nonexistent/python3.14t") && text.contains("--python"), "{text}");
    }

    #[test]
    fn an_environment_of_another_interpreter_is_rebuilt_with_the_one_asked_for() {
        let debian = Path::new("/usr/bin/python3");
        let pyenv = expand_home(Path::new("~/.pyenv/versions/3.12.1/bin/python3"));
        assert!(debian.exists() && pyenv.exists(), "this test needs Debian's python3 and pyenv's 3.12.1");
        let dir = tempfile::tempdir().unwrap();
        let req = dir.path().join("req.txt");
        std::fs::write(&req, "").unwrap();
        let venv = dir.path().join("3.11");
        let first = ensure(&pyenv, &venv, &req, &|_| {}).unwrap();
        assert_eq!(first.version, "3.12.1");
        let second = ensure(debian, &venv, &req, &|_| {}).unwrap();
        let debian_version = output(Command::new(debian).arg("--version")).unwrap();
        assert_eq!(second.version, debian_version.trim().trim_start_matches("Python "));
        assert_ne!(second.version, "3.12.1");
    }
}
