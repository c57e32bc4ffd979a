//! Catching the panics of a reader that stops on damaged input with a panic instead of an error
//! (the parquet crate does, in its footer parser and dictionary decoder). The caller turns the
//! panic into the file's own problem, so the panic's message and backtrace must not reach the
//! terminal as well: a damaged file is bad input, reported once, with exit status 2.

use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    static QUIET: Cell<u32> = const { Cell::new(0) };
}

/// Runs `f`; a panic inside it becomes `Err(())` and prints nothing. Panics elsewhere print as
/// before: the hook stays silent only on a thread that is inside `catch`.
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, ()> {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if QUIET.with(Cell::get) == 0 {
                previous(info);
            }
        }));
    });
    QUIET.with(|q| q.set(q.get() + 1));
    let outcome = catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(q.get() - 1));
    outcome.map_err(|_| ())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_panic_inside_is_an_error() {
        assert_eq!(super::catch(|| 7), Ok(7));
        assert_eq!(super::catch(|| -> u8 { panic!("damaged") }), Err(()));
        // Nested and repeated use leave the thread able to panic loudly again.
        assert_eq!(super::catch(|| super::catch(|| -> u8 { panic!("inner") })), Ok(Err(())));
        super::QUIET.with(|q| assert_eq!(q.get(), 0));
    }
}
