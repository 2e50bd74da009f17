//! The arithmetic of heavy_compute: a 4x4 matrix inverse, written out so every
//! library runs exactly the same code.

/// A column-major 4x4 matrix: `m[column][row]`.
pub type Mat4 = [[f32; 4]; 4];

/// A rotation by `angle` radians around the x axis.
pub fn rotation_x(angle: f32) -> Mat4 {
    let (sin, cos) = angle.sin_cos();
    [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, cos, sin, 0.0],
        [0.0, -sin, cos, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ]
}

/// The inverse of `m` by cofactors, or `None` when `m` is singular.
pub fn invert(m: &Mat4) -> Option<Mat4> {
    let [a, b, c, d] = *m;
    // 2x2 minors of the upper (s) and lower (t) row pairs.
    let s0 = a[0] * b[1] - b[0] * a[1];
    let s1 = a[0] * c[1] - c[0] * a[1];
    let s2 = a[0] * d[1] - d[0] * a[1];
    let s3 = b[0] * c[1] - c[0] * b[1];
    let s4 = b[0] * d[1] - d[0] * b[1];
    let s5 = c[0] * d[1] - d[0] * c[1];
    let t0 = a[2] * b[3] - b[2] * a[3];
    let t1 = a[2] * c[3] - c[2] * a[3];
    let t2 = a[2] * d[3] - d[2] * a[3];
    let t3 = b[2] * c[3] - c[2] * b[3];
    let t4 = b[2] * d[3] - d[2] * b[3];
    let t5 = c[2] * d[3] - d[2] * c[3];
    let det = s0 * t5 - s1 * t4 + s2 * t3 + s3 * t2 - s4 * t1 + s5 * t0;
    if det == 0.0 {
        return None;
    }
    let r = 1.0 / det;
    Some([
        [
            (b[1] * t5 - c[1] * t4 + d[1] * t3) * r,
            (-a[1] * t5 + c[1] * t2 - d[1] * t1) * r,
            (a[1] * t4 - b[1] * t2 + d[1] * t0) * r,
            (-a[1] * t3 + b[1] * t1 - c[1] * t0) * r,
        ],
        [
            (-b[0] * t5 + c[0] * t4 - d[0] * t3) * r,
            (a[0] * t5 - c[0] * t2 + d[0] * t1) * r,
            (-a[0] * t4 + b[0] * t2 - d[0] * t0) * r,
            (a[0] * t3 - b[0] * t1 + c[0] * t0) * r,
        ],
        [
            (b[3] * s5 - c[3] * s4 + d[3] * s3) * r,
            (-a[3] * s5 + c[3] * s2 - d[3] * s1) * r,
            (a[3] * s4 - b[3] * s2 + d[3] * s0) * r,
            (-a[3] * s3 + b[3] * s1 - c[3] * s0) * r,
        ],
        [
            (-b[2] * s5 + c[2] * s4 - d[2] * s3) * r,
            (a[2] * s5 - c[2] * s2 + d[2] * s1) * r,
            (-a[2] * s4 + b[2] * s2 - d[2] * s0) * r,
            (a[2] * s3 - b[2] * s1 + c[2] * s0) * r,
        ],
    ])
}

/// `m` applied to the direction `v` (no translation).
pub fn transform_vector(m: &Mat4, v: [f32; 3]) -> [f32; 3] {
    let mut out = [0.0; 3];
    for (row, value) in out.iter_mut().enumerate() {
        *value = m[0][row] * v[0] + m[1][row] * v[1] + m[2][row] * v[2];
    }
    out
}

/// heavy_compute's work for one entity: invert its matrix 100 times, then
/// move its position through the result.
#[inline]
pub fn heavy_step(matrix: &mut Mat4, position: &mut [f32; 3]) {
    for _ in 0..100 {
        *matrix = invert(matrix).expect("a rotation is invertible");
    }
    *position = transform_vector(matrix, *position);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn product(a: &Mat4, b: &Mat4) -> Mat4 {
        let mut out = [[0.0; 4]; 4];
        for (col, out_col) in out.iter_mut().enumerate() {
            for (row, value) in out_col.iter_mut().enumerate() {
                *value = (0..4).map(|k| a[k][row] * b[col][k]).sum();
            }
        }
        out
    }

    #[test]
    fn inverse_times_matrix_is_identity() {
        let mut m = rotation_x(1.2);
        m[3] = [1.0, 2.0, 3.0, 1.0];
        m[0][0] = 2.0;
        let p = product(&m, &invert(&m).unwrap());
        for (col, column) in p.iter().enumerate() {
            for (row, &value) in column.iter().enumerate() {
                let expected = if row == col { 1.0 } else { 0.0 };
                assert!((value - expected).abs() < 1e-5, "{p:?}");
            }
        }
    }

    #[test]
    fn singular_matrix_has_no_inverse() {
        assert_eq!(invert(&[[0.0; 4]; 4]), None);
    }

    #[test]
    fn rotation_turns_y_into_z() {
        let v = transform_vector(&rotation_x(std::f32::consts::FRAC_PI_2), [0.0, 1.0, 0.0]);
        assert!(v[0].abs() < 1e-6 && v[1].abs() < 1e-6 && (v[2] - 1.0).abs() < 1e-6);
    }
}
