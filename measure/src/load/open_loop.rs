//! The event loop of measure's open-loop client: a few threads, each owning every `workers`-th request of
//! the schedule, each with its own epoll set (through `mio`) and non-blocking sockets. No thread per
//! request, so a run holds millions of requests (see [`crate::plan::command::MAX_OPEN_LOOP_REQUESTS`]).
//!
//! A thread sends every request of its share that is due, then waits for the next due time or a socket
//! event, whichever comes first. The due time is a `timerfd` armed to the nanosecond, because `epoll_wait`
//! counts whole milliseconds and would send up to a millisecond late. A request is never held back for an
//! earlier one: when a thread falls behind, it sends what is due as fast as it can (in bursts of
//! [`BURST`], reading the responses between them), and the lag says by how much.
//!
//! What a request records is [`ProbeResult`]: `sent_ms` is when its exchange began (the `connect` call on
//! a new connection, the write on a kept-alive one), `latency_ms` runs from there to the response's last
//! byte. Every request has its own deadline (`timeout`); requests start in schedule order, so their
//! deadlines are in order too and a queue finds the expired ones.

use super::http::{self, HttpError, Reading};
use super::probe::ProbeResult;
use crate::clock::RunClock;
pub use crate::plan::command::Connection;
use mio::net::TcpStream;
use mio::unix::SourceFd;
use mio::{Events, Interest, Poll, Token};
use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::net::SocketAddr;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What every thread of one run shares.
#[derive(Debug, Clone)]
pub struct Spec {
    pub addr: SocketAddr,
    pub path: String,
    pub connection: Connection,
    /// Request k is due `start_ms + k * period_ms` after the run's origin.
    pub start_ms: f64,
    pub period_ms: f64,
    pub count: u32,
    /// Per-request bound.
    pub timeout: Duration,
}

impl Spec {
    /// When request `k` is due, ms from the run's origin (the formula of [`super::probe::schedule_ms`]).
    pub fn due_ms(&self, k: u32) -> f64 {
        self.start_ms + f64::from(k) * self.period_ms
    }
}

/// The longest a thread waits before it looks at the cancel flag and the deadlines again.
const TICK: Duration = Duration::from_millis(20);

/// The most requests sent in a row before the sockets are looked at: a thread that has fallen behind
/// its schedule still reads the responses (and sees their deadlines) while it catches up, instead of
/// sending until every response has timed out unread.
const BURST: usize = 32;

/// The token of the timer; sockets use their slot's index.
const TIMER: Token = Token(usize::MAX);

/// One connection and the request on it.
struct Conn {
    stream: TcpStream,
    /// The index in the thread's results of the request on it; `None` while it waits idle (kept alive).
    request: Option<usize>,
    /// Bytes of the request written so far.
    written: usize,
    reading: Reading,
    /// When the request's exchange began.
    start: Instant,
    /// Counts the requests the slot has carried, so a stale deadline is told from the current one.
    generation: u64,
    /// The response is complete and the connection is not reused: it waits for the server's FIN (until
    /// the request's deadline) before closing, so the server, which closes first, keeps the TIME_WAIT
    /// and no ephemeral port of this host is held for a minute per request.
    draining: bool,
}

/// What becomes of a connection whose response is complete.
enum After {
    /// Kept alive: the next request due may use it.
    Reuse,
    /// Closed once the server has closed its side (see [`Conn::draining`]).
    Drain,
    /// The server has closed it already.
    Close,
}

/// One thread's share: requests `worker`, `worker + workers`, ... of the schedule.
pub fn run(spec: &Spec, worker: u32, workers: u32, clock: RunClock, cancel: &AtomicBool) -> io::Result<Vec<ProbeResult>> {
    let mut w = Worker::new(spec, clock)?;
    let mut next = worker;
    let mut events = Events::with_capacity(1024);
    loop {
        if cancel.load(Ordering::Relaxed) {
            w.abandon();
            break;
        }
        let (mut burst, mut harvested) = (0, false);
        while burst < BURST && next < spec.count && clock.at_ms(spec.due_ms(next)) <= Instant::now() {
            if spec.connection == Connection::KeepAlive && !harvested && !w.has_idle() {
                // Every connection looks busy: read the responses that have arrived before opening
                // another, so a thread that fell behind does not open one per late request.
                w.wait(&mut events, Duration::ZERO)?;
                harvested = true;
            }
            w.start(next);
            next = next.saturating_add(workers);
            burst += 1;
        }
        w.expire(Instant::now());
        if next >= spec.count && w.in_flight == 0 {
            break;
        }
        // Behind schedule: look at the sockets without waiting, then send on.
        let wait = match (next < spec.count).then(|| clock.at_ms(spec.due_ms(next))) {
            Some(due) if due <= Instant::now() => Duration::ZERO,
            Some(due) => {
                w.arm(due)?;
                TICK
            }
            None => TICK,
        };
        w.wait(&mut events, wait)?;
    }
    Ok(w.results)
}

/// A thread's state.
struct Worker<'a> {
    spec: &'a Spec,
    clock: RunClock,
    poll: Poll,
    timer: OwnedFd,
    request: Vec<u8>,
    slots: Vec<Option<Conn>>,
    free: Vec<usize>,
    /// Kept-alive connections with no request on them, the most recently used last.
    idle: Vec<usize>,
    /// (deadline, slot, generation) of requests in flight, in the order they started.
    deadlines: VecDeque<(Instant, usize, u64)>,
    in_flight: usize,
    results: Vec<ProbeResult>,
    buf: Vec<u8>,
    generation: u64,
    /// The due time the timer is armed for, so it is set once per due time.
    armed: Option<Instant>,
}

impl<'a> Worker<'a> {
    fn new(spec: &'a Spec, clock: RunClock) -> io::Result<Worker<'a>> {
        let poll = Poll::new()?;
        // SAFETY: timerfd_create has no memory preconditions; a negative return is checked below.
        let fd = unsafe { libc::timerfd_create(libc::CLOCK_MONOTONIC, libc::TFD_NONBLOCK | libc::TFD_CLOEXEC) };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `fd` is a new descriptor this function owns from here on.
        let timer = unsafe { OwnedFd::from_raw_fd(fd) };
        poll.registry().register(&mut SourceFd(&timer.as_raw_fd()), TIMER, Interest::READABLE)?;
        let request = match spec.connection {
            Connection::PerRequest => http::get_request(spec.addr, &spec.path),
            Connection::KeepAlive => http::get_request_keep_alive(spec.addr, &spec.path),
        };
        Ok(Worker {
            spec,
            clock,
            poll,
            timer,
            request,
            slots: Vec::new(),
            free: Vec::new(),
            idle: Vec::new(),
            deadlines: VecDeque::new(),
            in_flight: 0,
            results: Vec::new(),
            buf: vec![0; 64 * 1024],
            generation: 0,
            armed: None,
        })
    }

    /// Arms the timer to fire at `due` (Instant is CLOCK_MONOTONIC on Linux, as the timer is).
    fn arm(&mut self, due: Instant) -> io::Result<()> {
        if self.armed == Some(due) {
            return Ok(());
        }
        self.armed = Some(due);
        // A zero value would disarm the timer: a due time just passed fires at once.
        let wait = due.saturating_duration_since(Instant::now()).max(Duration::from_nanos(1));
        let value = libc::itimerspec {
            it_interval: libc::timespec { tv_sec: 0, tv_nsec: 0 },
            it_value: libc::timespec { tv_sec: wait.as_secs() as libc::time_t, tv_nsec: wait.subsec_nanos() as libc::c_long },
        };
        // SAFETY: the descriptor is open and `value` a valid itimerspec; the old value is not asked for.
        if unsafe { libc::timerfd_settime(self.timer.as_raw_fd(), 0, &value, std::ptr::null_mut()) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    /// Reads the timer's expiry count so its next expiry wakes the poll again.
    fn disarm(&mut self) {
        self.armed = None;
        let mut count = [0u8; 8];
        // SAFETY: reads at most 8 bytes into `count` from the open, non-blocking descriptor.
        let _ = unsafe { libc::read(self.timer.as_raw_fd(), count.as_mut_ptr().cast(), count.len()) };
    }

    /// Sends request `seq` now: on an idle kept-alive connection, or on a new one.
    fn start(&mut self, seq: u32) {
        let index = self.results.len();
        self.results.push(ProbeResult {
            seq,
            scheduled_ms: self.spec.due_ms(seq),
            sent_ms: 0.0,
            latency_ms: None,
            status: 0,
            body_bytes: 0,
        });
        self.generation += 1;
        let (slot, reused) = match self.take_idle() {
            Some(slot) => (slot, true),
            None => {
                let start = Instant::now();
                self.results[index].sent_ms = self.clock.ms(start);
                let Ok(slot) = self.open(start) else { return };
                (slot, false)
            }
        };
        let generation = self.generation;
        let conn = self.slots[slot].as_mut().expect("an idle or new slot holds a connection");
        if reused {
            // A kept-alive connection: the exchange begins with this write.
            conn.start = Instant::now();
            self.results[index].sent_ms = self.clock.ms(conn.start);
            conn.written = 0;
            conn.reading = Reading::default();
        }
        conn.request = Some(index);
        conn.generation = generation;
        self.in_flight += 1;
        self.deadlines.push_back((conn.start + self.spec.timeout, slot, generation));
        // The response cannot be there yet: its arrival is an event (no read that would only block).
        self.progress(slot, false);
    }

    /// A new connection in a slot (connect is under way); the request stays unanswered when it fails.
    fn open(&mut self, start: Instant) -> io::Result<usize> {
        let mut stream = TcpStream::connect(self.spec.addr)?;
        if self.spec.connection == Connection::KeepAlive {
            stream.set_nodelay(true)?;
        }
        let slot = self.free.pop().unwrap_or(self.slots.len());
        self.poll.registry().register(&mut stream, Token(slot), Interest::READABLE | Interest::WRITABLE)?;
        let conn = Conn { stream, request: None, written: 0, reading: Reading::default(), start, generation: 0, draining: false };
        if slot == self.slots.len() {
            self.slots.push(Some(conn));
        } else {
            self.slots[slot] = Some(conn);
        }
        Ok(slot)
    }

    /// Writes what is left of the request and, when `read`, reads what has arrived, until the socket
    /// would block.
    fn progress(&mut self, slot: usize, read: bool) {
        let Some(conn) = self.slots.get_mut(slot).and_then(Option::as_mut) else { return };
        if conn.request.is_none() {
            // An event on an idle kept-alive connection, or on one waiting for the server to close: when
            // the server closed it (or sent what was not asked), it is closed here too.
            match conn.stream.read(&mut self.buf) {
                Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted) => {}
                _ => self.close(slot),
            }
            return;
        }
        while conn.written < self.request.len() {
            match conn.stream.write(&self.request[conn.written..]) {
                Ok(n) => conn.written += n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                // Not connected yet: the writable event of the finished connect comes later.
                Err(e) if e.kind() == io::ErrorKind::NotConnected => return,
                Err(e) => return self.finish(slot, Err(e.into())),
            }
        }
        if !read {
            return;
        }
        loop {
            match conn.stream.read(&mut self.buf) {
                Ok(0) => {
                    let outcome = conn.reading.at_eof();
                    return self.finish(slot, outcome.map(|()| After::Close));
                }
                Ok(n) => match conn.reading.feed(&self.buf[..n]) {
                    Ok(true) => {
                        let reuse = self.spec.connection == Connection::KeepAlive && conn.reading.reusable();
                        return self.finish(slot, Ok(if reuse { After::Reuse } else { After::Drain }));
                    }
                    Ok(false) => {}
                    Err(e) => return self.finish(slot, Err(e)),
                },
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return self.finish(slot, Err(e.into())),
            }
        }
    }

    /// Records the end of the request on `slot`, `Ok` when its response is complete.
    fn finish(&mut self, slot: usize, outcome: Result<After, HttpError>) {
        let Some(conn) = self.slots[slot].as_mut() else { return };
        let Some(index) = conn.request.take() else { return };
        self.in_flight -= 1;
        let row = &mut self.results[index];
        row.body_bytes = conn.reading.body_bytes();
        if outcome.is_ok() {
            row.latency_ms = Some(conn.start.elapsed().as_secs_f64() * 1e3);
            row.status = conn.reading.status();
        }
        match outcome {
            Ok(After::Reuse) => self.idle.push(slot),
            Ok(After::Drain) => {
                conn.draining = true;
                // The server's FIN may be here already: its event came with the response's.
                self.progress(slot, true);
            }
            Ok(After::Close) | Err(_) => self.close(slot),
        }
    }

    /// Waits at most `timeout` for the timer or the sockets, and handles what happened.
    fn wait(&mut self, events: &mut Events, timeout: Duration) -> io::Result<()> {
        match self.poll.poll(events, Some(timeout)) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => return Ok(()),
            other => other?,
        }
        for event in events.iter() {
            match event.token() {
                TIMER => self.disarm(),
                Token(slot) => self.progress(slot, true),
            }
        }
        Ok(())
    }

    /// Whether a kept-alive connection may be idle (a stale entry makes it say yes; [`Self::take_idle`]
    /// tells).
    fn has_idle(&self) -> bool {
        !self.idle.is_empty()
    }

    /// The most recently used idle connection. `idle` may name slots closed (or reused) since they were
    /// put there: they are skipped here rather than searched for at each close.
    fn take_idle(&mut self) -> Option<usize> {
        while let Some(slot) = self.idle.pop() {
            if self.slots[slot].as_ref().is_some_and(|c| c.request.is_none() && !c.draining) {
                return Some(slot);
            }
        }
        None
    }

    /// Closes the connection on `slot` (closing the descriptor takes it out of the epoll set).
    fn close(&mut self, slot: usize) {
        if self.slots[slot].take().is_some() {
            self.free.push(slot);
        }
    }

    /// Gives up on the requests whose deadline has passed.
    fn expire(&mut self, now: Instant) {
        while let Some(&(deadline, slot, generation)) = self.deadlines.front() {
            if deadline > now {
                break;
            }
            self.deadlines.pop_front();
            let Some(conn) = self.slots[slot].as_ref().filter(|c| c.generation == generation) else { continue };
            if conn.request.is_some() {
                self.finish(slot, Err(HttpError::Timeout));
            } else if conn.draining {
                self.close(slot);
            }
        }
    }

    /// Ends every request in flight unanswered (the run was cancelled).
    fn abandon(&mut self) {
        for slot in 0..self.slots.len() {
            self.finish(slot, Err(HttpError::Cancelled));
        }
    }
}
