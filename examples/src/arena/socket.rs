//! A UDP socket on 127.0.0.1 for ggrs that loses and delays a share of the
//! packets it sends, on purpose, so that peers mispredict and roll back.

use std::collections::VecDeque;
use std::io::ErrorKind;
use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use ggrs::{Message, NonBlockingSocket};

/// Big enough for any ggrs message.
const RECEIVE_BUFFER: usize = 4096;

/// A non-blocking UDP socket bound to 127.0.0.1 that drops each packet it
/// sends with probability `loss` and holds the rest back for `delay` before
/// sending them, in order. Which packets are lost is drawn from a seeded
/// generator, so a run's losses are the same every time.
///
/// ```
/// use examples::arena::LossySocket;
/// use std::time::Duration;
///
/// let socket = LossySocket::bind(0, 0.1, Duration::from_millis(30), 7)?;
/// assert!(socket.local_addr().ip().is_loopback());
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct LossySocket {
    socket: UdpSocket,
    loss: f64,
    delay: Duration,
    rng: u64,
    /// Packets held back, with when each may go.
    outbox: VecDeque<(Instant, SocketAddr, Vec<u8>)>,
    buffer: Vec<u8>,
    counts: Arc<PacketCounts>,
}

/// How many packets a [`LossySocket`] was handed and how many it dropped,
/// readable while the session owns the socket.
#[derive(Debug, Default)]
pub struct PacketCounts {
    sent: AtomicU64,
    dropped: AtomicU64,
}

impl PacketCounts {
    /// Packets handed to the socket.
    pub fn sent(&self) -> u64 {
        self.sent.load(Ordering::Relaxed)
    }

    /// Packets it dropped on purpose.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }
}

impl LossySocket {
    /// Binds 127.0.0.1:`port` (0: any free port).
    ///
    /// # Errors
    /// When the port cannot be bound.
    pub fn bind(port: u16, loss: f64, delay: Duration, seed: u64) -> std::io::Result<Self> {
        let socket = UdpSocket::bind((Ipv4Addr::LOCALHOST, port))?;
        socket.set_nonblocking(true)?;
        Ok(Self {
            socket,
            loss,
            delay,
            rng: seed,
            outbox: VecDeque::new(),
            buffer: vec![0; RECEIVE_BUFFER],
            counts: Arc::default(),
        })
    }

    /// The address peers send to.
    pub fn local_addr(&self) -> SocketAddr {
        self.socket
            .local_addr()
            .expect("a bound socket has an address")
    }

    /// How many packets it was handed and dropped, counted on from here on.
    pub fn counts(&self) -> Arc<PacketCounts> {
        Arc::clone(&self.counts)
    }

    /// A number in `[0, 1)` (splitmix64).
    fn draw(&mut self) -> f64 {
        self.rng = self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Sends every held packet whose time has come.
    fn flush(&mut self) {
        let now = Instant::now();
        while let Some((due, _, _)) = self.outbox.front() {
            if *due > now {
                break;
            }
            let (_, addr, bytes) = self.outbox.pop_front().expect("a front was found");
            // A full buffer or an unreachable port is a lost packet, which
            // the protocol survives like any other.
            let _ = self.socket.send_to(&bytes, addr);
        }
    }
}

impl NonBlockingSocket<SocketAddr> for LossySocket {
    fn send_to(&mut self, msg: &Message, addr: &SocketAddr) {
        self.counts.sent.fetch_add(1, Ordering::Relaxed);
        if self.draw() < self.loss {
            self.counts.dropped.fetch_add(1, Ordering::Relaxed);
        } else {
            let bytes = bincode::serialize(msg).expect("a ggrs message encodes");
            self.outbox
                .push_back((Instant::now() + self.delay, *addr, bytes));
        }
        self.flush();
    }

    fn receive_all_messages(&mut self) -> Vec<(SocketAddr, Message)> {
        self.flush();
        let mut received = Vec::new();
        loop {
            match self.socket.recv_from(&mut self.buffer) {
                Ok((len, from)) => {
                    // What does not decode is not a ggrs message: ignored.
                    if let Ok(msg) = bincode::deserialize(&self.buffer[..len]) {
                        received.push((from, msg));
                    }
                }
                Err(error) if error.kind() == ErrorKind::WouldBlock => return received,
                // A peer's port closed under a packet sent earlier.
                Err(error) if error.kind() == ErrorKind::ConnectionReset => {}
                Err(_) => return received,
            }
        }
    }
}
