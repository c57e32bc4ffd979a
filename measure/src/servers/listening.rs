//! Which TCP ports a server's processes listen on, from `/proc`: the sockets in LISTEN state of
//! `/proc/net/tcp` and `tcp6`, matched by inode to the `socket:[inode]` links in each process's
//! `/proc/<pid>/fd`. A server that ignores the `{port}` measure gave it (it binds its own default) is
//! told apart from one that is slow to start, and a ready check answered by some other process on that
//! port is not taken for the server's.

use std::collections::BTreeSet;
use std::net::SocketAddr;
use std::path::Path;

/// A listening socket: its address as `127.0.0.1:8000` or `[::]:8000`, and its port.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Listener {
    pub port: u16,
    pub addr: String,
    inode: u64,
}

/// The LISTEN sockets of a `/proc/net/tcp` or `tcp6` table (the header line is skipped).
pub fn parse_table(text: &str) -> Vec<Listener> {
    text.lines().skip(1).filter_map(parse_line).collect()
}

/// One line: `sl local_address rem_address st ... uid timeout inode`; state `0A` is LISTEN.
fn parse_line(line: &str) -> Option<Listener> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.get(3) != Some(&"0A") {
        return None;
    }
    let (ip_hex, port_hex) = fields.get(1)?.split_once(':')?;
    let port = u16::from_str_radix(port_hex, 16).ok()?;
    let inode = fields.get(9)?.parse().ok()?;
    Some(Listener { port, addr: format!("{}:{port}", ip_text(ip_hex)?), inode })
}

/// The address of a hex field: 8 digits for IPv4, 32 for IPv6, each 32-bit word in host (little-endian) order.
fn ip_text(hex: &str) -> Option<String> {
    let words: Vec<u32> = (0..hex.len() / 8).map(|i| u32::from_str_radix(&hex[i * 8..i * 8 + 8], 16).ok()).collect::<Option<_>>()?;
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    match bytes.len() {
        4 => Some(std::net::Ipv4Addr::new(bytes[0], bytes[1], bytes[2], bytes[3]).to_string()),
        16 => {
            let octets: [u8; 16] = bytes.try_into().ok()?;
            Some(format!("[{}]", std::net::Ipv6Addr::from(octets)))
        }
        _ => None,
    }
}

/// The socket inodes process `pid` holds open (none when it is gone or not ours to read).
fn socket_inodes(pid: u32) -> Vec<u64> {
    let Ok(entries) = std::fs::read_dir(Path::new("/proc").join(pid.to_string()).join("fd")) else {
        return Vec::new();
    };
    entries
        .filter_map(|e| std::fs::read_link(e.ok()?.path()).ok())
        .filter_map(|target| {
            let text = target.to_string_lossy();
            text.strip_prefix("socket:[")?.strip_suffix(']')?.parse().ok()
        })
        .collect()
}

impl Listener {
    /// Whether a connection to `target` reaches this socket: the same port, at the same address or at
    /// the unspecified one (`0.0.0.0`, or `[::]`, which takes IPv4 too unless set IPv6-only).
    pub fn reaches(&self, target: SocketAddr) -> bool {
        let Ok(own) = self.addr.parse::<SocketAddr>() else { return false };
        own.port() == target.port() && (own.ip() == target.ip() || own.ip().is_unspecified())
    }
}

/// The sockets the processes `pids` listen on, sorted by port (none when `pids` is empty).
pub fn of_pids(pids: &[u32]) -> Vec<Listener> {
    if pids.is_empty() {
        return Vec::new();
    }
    let inodes: BTreeSet<u64> = pids.iter().flat_map(|&pid| socket_inodes(pid)).collect();
    let mut out: Vec<Listener> = ["/proc/net/tcp", "/proc/net/tcp6"]
        .iter()
        .filter_map(|path| std::fs::read_to_string(path).ok())
        .flat_map(|text| parse_table(&text))
        .filter(|l| inodes.contains(&l.inode))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// `127.0.0.1:8000, [::]:8000`, or `no port` when there is none.
pub fn describe(listeners: &[Listener]) -> String {
    if listeners.is_empty() {
        return "no port".into();
    }
    listeners.iter().map(|l| l.addr.as_str()).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const TCP: &str = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n\
   0: 0100007F:1F40 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 41235 1 0000000000000000 100 0 0 10 0\n\
   1: 0100007F:1F40 0100007F:D2A4 01 00000000:00000000 00:00000000 00000000     0        0 41236 1 0000000000000000 20 4 30 10 -1\n";

    const TCP6: &str = "  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n\
   0: 00000000000000000000000000000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 5512 1 0000000000000000 100 0 0 10 0\n\
   1: 00000000000000000000000001000000:0050 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 5513 1 0000000000000000 100 0 0 10 0\n";

    #[test]
    fn listen_lines_are_read_and_others_skipped() {
        assert_eq!(parse_table(TCP), [Listener { port: 8000, addr: "127.0.0.1:8000".into(), inode: 41235 }]);
        let v6 = parse_table(TCP6);
        assert_eq!(v6.iter().map(|l| l.addr.as_str()).collect::<Vec<_>>(), ["[::]:8080", "[::1]:80"]);
        assert_eq!(describe(&parse_table(TCP)), "127.0.0.1:8000");
        assert_eq!(describe(&[]), "no port");
    }

    #[test]
    fn finds_the_port_a_process_of_ours_listens_on() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let found = of_pids(&[std::process::id()]);
        assert!(found.iter().any(|l| l.port == port && l.addr == format!("127.0.0.1:{port}")), "{found:?}");
        drop(listener);
        assert!(!of_pids(&[std::process::id()]).iter().any(|l| l.port == port));
        assert!(of_pids(&[]).is_empty());
    }

    #[test]
    fn a_socket_is_reached_at_its_own_address_or_from_any() {
        let at = |addr: &str| Listener { port: addr.parse::<SocketAddr>().unwrap().port(), addr: addr.into(), inode: 0 };
        let target: SocketAddr = "127.0.0.1:8000".parse().unwrap();
        assert!(at("127.0.0.1:8000").reaches(target));
        assert!(at("0.0.0.0:8000").reaches(target));
        assert!(at("[::]:8000").reaches(target));
        assert!(!at("[::1]:8000").reaches(target));
        assert!(!at("127.0.0.2:8000").reaches(target));
        assert!(!at("127.0.0.1:8001").reaches(target));
    }
}
