//! Client load: the slow downloads and the sessions on plain std threads and sockets, the open-loop probe
//! on a few event-driven threads ([`open_loop`], non-blocking sockets through `mio`).
//!
//! All speak just enough HTTP/1.1 ([`http`]) to keep control of what matters here: SO_RCVBUF set before
//! connecting, the exact moments of connect, send and last byte, and reads of a bounded size. Every wait is
//! bounded in time and every loop in count, and every thread watches a shared cancel flag.

pub mod download;
pub mod http;
pub mod open_loop;
pub mod pace;
pub mod probe;
pub mod session;
pub mod tool;
