//! The request rate limit: a token bucket shared by every connection.

use std::time::Instant;

/// Holds up to `burst` tokens, refilled at `per_second`; each request takes
/// one, and a request that finds none is refused.
#[derive(Debug)]
pub(crate) struct TokenBucket {
    tokens: f64,
    burst: f64,
    per_second: f64,
    last: Instant,
}

impl TokenBucket {
    pub(crate) fn new(burst: u32, per_second: f64) -> Self {
        Self {
            tokens: f64::from(burst),
            burst: f64::from(burst),
            // A negative or NaN rate would drain the bucket: it means no refill.
            per_second: if per_second.is_finite() && per_second > 0.0 {
                per_second
            } else {
                0.0
            },
            last: Instant::now(),
        }
    }

    /// Takes a token if there is one.
    pub(crate) fn take(&mut self, now: Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.per_second).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_burst_is_spent_then_the_rate_refills_it() {
        let start = Instant::now();
        let mut bucket = TokenBucket::new(3, 2.0);
        assert!((0..3).all(|_| bucket.take(start)));
        assert!(!bucket.take(start), "the burst is spent");
        assert!(
            bucket.take(start + Duration::from_millis(500)),
            "half a second gives one token"
        );
        assert!(!bucket.take(start + Duration::from_millis(500)));
        let later = start + Duration::from_secs(100);
        assert_eq!(
            (0..10).filter(|_| bucket.take(later)).count(),
            3,
            "never more than the burst"
        );
    }

    #[test]
    fn no_rate_means_no_refill() {
        let start = Instant::now();
        let mut bucket = TokenBucket::new(1, f64::NAN);
        assert!(bucket.take(start));
        assert!(!bucket.take(start + Duration::from_secs(3600)));
    }
}
