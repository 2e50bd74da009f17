//! Numbers as the reports write them.

/// `n` with commas between thousands: `100,000`.
///
/// ```
/// assert_eq!(ecs_bench::text::thousands(1_234_567), "1,234,567");
/// assert_eq!(ecs_bench::text::thousands(999), "999");
/// ```
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}
