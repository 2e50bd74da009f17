//! A two-component vector: all the maths the flock needs.

use core::ops::{Add, AddAssign, Div, Mul, Neg, Sub, SubAssign};

/// A point or a direction in the plane, in world units.
///
/// ```
/// use examples::boids::Vec2;
///
/// let v = Vec2::new(3.0, 4.0);
/// assert_eq!(v.length(), 5.0);
/// assert_eq!(v.clamp_length(0.0, 1.0).length(), 1.0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vec2 {
    /// The horizontal component.
    pub x: f32,
    /// The vertical component (down, as on screen).
    pub y: f32,
}

impl Vec2 {
    /// The zero vector.
    pub const ZERO: Self = Self { x: 0.0, y: 0.0 };

    /// The vector `(x, y)`.
    pub const fn new(x: f32, y: f32) -> Self {
        Self { x, y }
    }

    /// The squared length: what distance tests compare, without a square root.
    pub fn length_squared(self) -> f32 {
        self.x * self.x + self.y * self.y
    }

    /// The length.
    pub fn length(self) -> f32 {
        self.length_squared().sqrt()
    }

    /// The same direction with length 1, or zero for the zero vector.
    pub fn normalized(self) -> Self {
        let length = self.length();
        if length > 0.0 {
            self / length
        } else {
            Self::ZERO
        }
    }

    /// The same direction with its length clamped to `[min, max]`. A zero
    /// vector has no direction, so it becomes `(min, 0)`: a stalled boid sets
    /// off to the right rather than staying below the minimum speed.
    ///
    /// ```
    /// use examples::boids::Vec2;
    ///
    /// assert_eq!(Vec2::ZERO.clamp_length(1.0, 2.0), Vec2::new(1.0, 0.0));
    /// assert_eq!(Vec2::new(0.0, 0.5).clamp_length(1.0, 2.0), Vec2::new(0.0, 1.0));
    /// ```
    pub fn clamp_length(self, min: f32, max: f32) -> Self {
        let length = self.length();
        if length == 0.0 {
            Self::new(min, 0.0)
        } else if length > max {
            self * (max / length)
        } else if length < min {
            self * (min / length)
        } else {
            self
        }
    }

    /// The vector shortened to `max` if it is longer.
    pub fn limit(self, max: f32) -> Self {
        let length_squared = self.length_squared();
        if length_squared > max * max {
            self * (max / length_squared.sqrt())
        } else {
            self
        }
    }
}

impl Add for Vec2 {
    type Output = Self;
    fn add(self, rhs: Self) -> Self {
        Self::new(self.x + rhs.x, self.y + rhs.y)
    }
}

impl AddAssign for Vec2 {
    fn add_assign(&mut self, rhs: Self) {
        *self = *self + rhs;
    }
}

impl Sub for Vec2 {
    type Output = Self;
    fn sub(self, rhs: Self) -> Self {
        Self::new(self.x - rhs.x, self.y - rhs.y)
    }
}

impl SubAssign for Vec2 {
    fn sub_assign(&mut self, rhs: Self) {
        *self = *self - rhs;
    }
}

impl Mul<f32> for Vec2 {
    type Output = Self;
    fn mul(self, rhs: f32) -> Self {
        Self::new(self.x * rhs, self.y * rhs)
    }
}

impl Div<f32> for Vec2 {
    type Output = Self;
    fn div(self, rhs: f32) -> Self {
        Self::new(self.x / rhs, self.y / rhs)
    }
}

impl Neg for Vec2 {
    type Output = Self;
    fn neg(self) -> Self {
        Self::new(-self.x, -self.y)
    }
}
