//! A slow download: `/large` through a socket with a small receive buffer, read at a paced rate.
//!
//! The small SO_RCVBUF (set before connecting) keeps the kernel from absorbing much of the response on the
//! client side, so the server's write is held up by the client's reading speed as with a slow network.

use super::{http, pace};
use crate::clock::sleep_until;
use crate::plan::open::OpenLoop;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// One download as the client saw it.
#[derive(Debug, Clone, PartialEq)]
pub struct DownloadResult {
    /// Matches the app log's `download_id` (sent in the query string).
    pub download_id: String,
    /// From sending the request until all bytes were read and the final pacing wait was done;
    /// `None` when the download failed or timed out.
    pub client_complete_s: Option<f64>,
    /// Body bytes received.
    pub bytes_received: u64,
    pub status: u16,
    /// SO_RCVBUF as the kernel reported it after the request.
    pub rcvbuf_reported: Option<usize>,
    /// Why it ended early, if it did.
    pub error: Option<String>,
}

/// What one download needs from the plan.
#[derive(Debug, Clone, Copy)]
pub struct DownloadSpec {
    pub rate_bytes_per_s: u64,
    pub read_chunk_bytes: usize,
    pub so_rcvbuf_bytes: usize,
    /// Expected duration plus the plan's slack.
    pub timeout: Duration,
}

impl DownloadSpec {
    /// The spec of the plan's downloads.
    pub fn from_plan(plan: &OpenLoop) -> DownloadSpec {
        DownloadSpec {
            rate_bytes_per_s: plan.download.rate_bytes_per_s,
            read_chunk_bytes: plan.download.read_chunk_bytes,
            so_rcvbuf_bytes: plan.download.so_rcvbuf_bytes,
            timeout: plan.download_duration() + Duration::from_secs(plan.download.timeout_s),
        }
    }
}

/// Starts one download thread fetching `/large?id=<download_id>&run=<run_id>`.
pub fn spawn_download(
    addr: SocketAddr,
    run_id: &str,
    download_id: String,
    spec: DownloadSpec,
    cancel: Arc<AtomicBool>,
) -> std::io::Result<JoinHandle<DownloadResult>> {
    let path = format!("/large?id={download_id}&run={run_id}");
    std::thread::Builder::new().name(format!("download-{download_id}")).spawn(move || download(addr, &path, download_id, spec, &cancel))
}

fn download(addr: SocketAddr, path: &str, download_id: String, spec: DownloadSpec, cancel: &AtomicBool) -> DownloadResult {
    let deadline = Instant::now() + spec.timeout;
    let mut result =
        DownloadResult { download_id, client_complete_s: None, bytes_received: 0, status: 0, rcvbuf_reported: None, error: None };
    let (mut stream, reported) = match http::connect(addr, Some(spec.so_rcvbuf_bytes), deadline) {
        Ok(ok) => ok,
        Err(e) => {
            result.error = Some(format!("connect: {e}"));
            return result;
        }
    };
    result.rcvbuf_reported = Some(reported);
    let sent = Instant::now();
    if let Err(e) = http::send(&mut stream, &http::get_request(addr, path), deadline) {
        result.error = Some(format!("send: {e}"));
        return result;
    }
    let response = http::read_response(&mut stream, deadline, spec.read_chunk_bytes, cancel, |total| {
        let wait = pace::pace_delay(total, spec.rate_bytes_per_s, sent.elapsed());
        sleep_until((Instant::now() + wait).min(deadline), Duration::from_millis(50), || cancel.load(Ordering::Relaxed))
    });
    result.status = response.status;
    result.bytes_received = response.body_bytes;
    match response.result {
        Ok(()) => result.client_complete_s = Some(sent.elapsed().as_secs_f64()),
        Err(e) => result.error = Some(e.to_string()),
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::net::TcpListener;

    #[test]
    fn paced_download_takes_size_over_rate() {
        const BODY: usize = 256 * 1024;
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        std::thread::spawn(move || {
            let (mut s, _) = listener.accept().unwrap();
            let _ = s.read(&mut [0u8; 1024]);
            s.write_all(format!("HTTP/1.1 200 OK\r\nContent-Length: {BODY}\r\n\r\n").as_bytes()).unwrap();
            s.write_all(&vec![b'x'; BODY]).unwrap();
        });
        // 256 KiB at 1 MiB/s: 0.25 s.
        let spec =
            DownloadSpec { rate_bytes_per_s: 1 << 20, read_chunk_bytes: 16 * 1024, so_rcvbuf_bytes: 8192, timeout: Duration::from_secs(5) };
        let cancel = Arc::new(AtomicBool::new(false));
        let r = spawn_download(addr, "r01", "d1".into(), spec, cancel).unwrap().join().unwrap();
        assert_eq!(r.error, None);
        assert_eq!((r.status, r.bytes_received), (200, BODY as u64));
        let t = r.client_complete_s.unwrap();
        assert!((0.25..0.4).contains(&t), "took {t} s");
        assert!(r.rcvbuf_reported.unwrap() >= 8192);
    }
}
