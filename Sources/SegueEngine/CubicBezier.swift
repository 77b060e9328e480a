/// A cubic Bézier timing function: CSS `cubic-bezier()`, `CAMediaTimingFunction`,
/// `UICubicTimingParameters`.
///
/// The curve runs from P0 = (0, 0) through the control points P1 = (x1, y1), P2 = (x2, y2) to
/// P3 = (1, 1). In power form, with `c = 3·p1`, `b = 3·(p2 − p1) − c`, `a = 1 − c − b` per axis:
///
///     X(t) = ((ax·t + bx)·t + cx)·t        Y(t) = ((ay·t + by)·t + cy)·t
///
/// For input progress x ∈ [0, 1] the output is Y(t) at the t ∈ [0, 1] with X(t) = x
/// (CSS Easing 2, https://drafts.csswg.org/css-easing-2/ "Cubic Bézier easing functions").
/// The solve follows WebKit `UnitBezier.h`: a first guess from an 11-entry table of X(i/10),
/// Newton steps kept inside the table bracket, then bisection, here until |X(t) − x| < 1e-12.
/// Outside [0, 1] the curve continues along the end-point gradients WebKit and Chromium use
/// (which the Web Platform Tests assert; the CSS prose differs, w3c/csswg-drafts#4046).
///
/// Edge cases:
/// - x1 == y1 and x2 == y2: X ≡ Y, so the curve is the identity everywhere (slope 1), exactly,
///   with no solver noise (this includes `linear` and the degenerate (1, 1, 1, 1)).
/// - x exactly 0 or 1: progress 0 or 1 with the curve's own end slope (no solve).
/// - X'(t) = 0 ≠ Y'(t) (x1 = 0 or x2 = 1, or an interior vertical tangent): slope
///   ±`Double.greatestFiniteMagnitude`, as Chromium reports. X'(t) = Y'(t) = 0: the limit Y''/X''.
/// - Control x outside [0, 1], NaN or huge inputs: the caller rejects them; here they only
///   produce meaningless numbers (NaN in, NaN out), never a trap.
public struct CubicBezier: Sendable {
    /// Largest accepted |X(t) − x| (the reference C engine's tolerance).
    @usableFromInline static let solveEpsilon = 1e-12
    /// Newton steps before falling back to bisection.
    @usableFromInline static let newtonSteps = 8
    /// Bisection steps; 64 halvings of a 0.1-wide bracket go below one ulp.
    @usableFromInline static let bisectionSteps = 64

    public let x1: Double, y1: Double, x2: Double, y2: Double

    @usableFromInline let ax: Double, bx: Double, cx: Double
    @usableFromInline let ay: Double, by: Double, cy: Double
    /// X(i/10) for i = 0…10 (WebKit's CUBIC_BEZIER_SPLINE_SAMPLES = 11).
    @usableFromInline let table: InlineArray<11, Double>
    @usableFromInline let isIdentity: Bool
    /// Slopes used for x < 0 and x > 1 (docs/curves.md "Extrapolation outside the unit interval" table).
    @usableFromInline let startGradient: Double, endGradient: Double
    /// The curve's own dy/dx at t = 0 and t = 1, from exact end derivatives: X'(0) = 3·x1,
    /// X'(1) = 3·(1 − x2), X''(0) = 6·(x2 − 2·x1), X''(1) = 6·(1 − 2·x2 + x1) (same for Y).
    @usableFromInline let startSlope: Double, endSlope: Double

    /// Stores the control points as given; the caller validates x1, x2 ∈ [0, 1].
    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
        let cx = 3 * x1, bx = 3 * (x2 - x1) - cx, ax = 1 - cx - bx
        self.cx = cx
        self.bx = bx
        self.ax = ax
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
        table = InlineArray { i in Self.cubic(ax, bx, cx, Double(i) * 0.1) }
        isIdentity = x1 == y1 && x2 == y2

        // Start: the tangent P0→P1, else P0→P2 when P1 coincides with P0, else vertical (0).
        if x1 > 0 {
            startGradient = y1 / x1
        } else if y1 == 0 && x2 > 0 {
            startGradient = y2 / x2
        } else {
            startGradient = y1 == 0 && y2 == 0 ? 1 : 0
        }
        // End: the tangent P2→P3, else P1→P3 when P2 coincides with P3, else vertical (0).
        if x2 < 1 {
            endGradient = (y2 - 1) / (x2 - 1)
        } else if y2 == 1 && x1 < 1 {
            endGradient = (y1 - 1) / (x1 - 1)
        } else {
            endGradient = y2 == 1 && y1 == 1 ? 1 : 0
        }
        startSlope = Self.slope(dy: 3 * y1, dx: 3 * x1, ddy: 6 * (y2 - 2 * y1), ddx: 6 * (x2 - 2 * x1))
        endSlope = Self.slope(
            dy: 3 * (1 - y2), dx: 3 * (1 - x2), ddy: 6 * (1 - 2 * y2 + y1), ddx: 6 * (1 - 2 * x2 + x1))
    }

    public static let linear = CubicBezier(x1: 0, y1: 0, x2: 1, y2: 1)
    public static let ease = CubicBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1)
    public static let easeIn = CubicBezier(x1: 0.42, y1: 0, x2: 1, y2: 1)
    public static let easeOut = CubicBezier(x1: 0, y1: 0, x2: 0.58, y2: 1)
    public static let easeInOut = CubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1)

    /// y(x); outside [0, 1] the end-point-gradient extrapolation.
    @inlinable
    public func progress(_ x: Double) -> Double { sample(x).progress }

    /// dy/dx = Y'(t)/X'(t) at the solved t (Chromium `CubicBezier::Slope`, docs/curves.md "Slopes");
    /// outside [0, 1] the extrapolation gradient.
    @inlinable
    public func slope(_ x: Double) -> Double { sample(x).slope }

    /// Progress and slope from a single solve.
    @inlinable
    public func sample(_ x: Double) -> (progress: Double, slope: Double) {
        if isIdentity { return (x, 1) }
        if x > 0 && x < 1 {
            let t = solve(x)
            return (Self.cubic(ay, by, cy, t), slope(atParameter: t))
        }
        if x == 0 { return (0, startSlope) }
        if x == 1 { return (1, endSlope) }
        if x < 0 { return (startGradient * x, startGradient) }
        return (1 + endGradient * (x - 1), endGradient)  // also NaN → NaN
    }

    /// The t in [0, 1] with |X(t) − x| < `solveEpsilon`, for x in (0, 1).
    @inlinable
    func solve(_ x: Double) -> Double {
        // Table guess: table[i − 1] < x ≤ table[i] brackets t in [(i − 1)/10, i/10].
        var i = 1
        while i < 10 && table[i] < x { i += 1 }
        var lo = Double(i - 1) * 0.1, hi = Double(i) * 0.1
        let (lower, upper) = bracket(i)
        let span = upper - lower
        var t = span > 0 ? lo + (x - lower) / span * 0.1 : 0.5 * (lo + hi)

        // Newton, shrinking the bracket with every iterate; a step leaving it ends the phase.
        for _ in 0..<Self.newtonSteps {
            let error = Self.cubic(ax, bx, cx, t) - x
            if abs(error) < Self.solveEpsilon { return t }
            if error < 0 { lo = t } else { hi = t }
            let next = t - error / Self.derivative(ax, bx, cx, t)
            if !(next > lo && next < hi) { break }
            t = next
        }
        // Bisection of what is left of the bracket.
        for _ in 0..<Self.bisectionSteps {
            t = 0.5 * (lo + hi)
            let error = Self.cubic(ax, bx, cx, t) - x
            if abs(error) < Self.solveEpsilon { break }
            if error < 0 { lo = t } else { hi = t }
        }
        return t
    }

    /// table[i − 1] and table[i] for i in 1…10. Each case reads fixed entries: reading the
    /// InlineArray at a variable index would copy all of it to the stack first.
    @inlinable @inline(__always)
    func bracket(_ i: Int) -> (Double, Double) {
        switch i {
        case 1: (table[0], table[1])
        case 2: (table[1], table[2])
        case 3: (table[2], table[3])
        case 4: (table[3], table[4])
        case 5: (table[4], table[5])
        case 6: (table[5], table[6])
        case 7: (table[6], table[7])
        case 8: (table[7], table[8])
        case 9: (table[8], table[9])
        default: (table[9], table[10])
        }
    }

    /// dy/dx at an interior parameter t. Inlined into every sample; the second derivatives are
    /// computed only in the rare case that needs them (X' = Y' = 0).
    @inlinable @inline(__always)
    func slope(atParameter t: Double) -> Double {
        Self.slope(dy: Self.derivative(ay, by, cy, t), dx: Self.derivative(ax, bx, cx, t),
                   ddy: 6 * ay * t + 2 * by, ddx: 6 * ax * t + 2 * bx)
    }

    /// dy/dx from first and second derivatives: Y'/X'; where X' = 0, ±greatestFiniteMagnitude,
    /// or, if Y' = 0 too, the l'Hôpital limit Y''/X''. Both pairs vanish together only when
    /// X ≡ Y, the identity (slope 1).
    @inlinable @inline(__always)
    static func slope(dy: Double, dx: Double, ddy: @autoclosure () -> Double, ddx: @autoclosure () -> Double) -> Double {
        ratio(dy, dx) ?? ratio(ddy(), ddx()) ?? 1
    }

    /// n/d clamped to ±greatestFiniteMagnitude (sign of n when d = 0); nil for 0/0.
    @inlinable
    static func ratio(_ n: Double, _ d: Double) -> Double? {
        if d == 0 {
            if n == 0 { return nil }
            return n > 0 ? .greatestFiniteMagnitude : -.greatestFiniteMagnitude
        }
        return min(max(n / d, -.greatestFiniteMagnitude), .greatestFiniteMagnitude)
    }

    /// ((a·t + b)·t + c)·t
    @inlinable
    static func cubic(_ a: Double, _ b: Double, _ c: Double, _ t: Double) -> Double {
        ((a * t + b) * t + c) * t
    }

    /// (3a·t + 2b)·t + c, the derivative of `cubic`.
    @inlinable
    static func derivative(_ a: Double, _ b: Double, _ c: Double, _ t: Double) -> Double {
        (3 * a * t + 2 * b) * t + c
    }
}

extension CubicBezier: Equatable {
    /// Equal control points; everything else is derived from them.
    public static func == (lhs: CubicBezier, rhs: CubicBezier) -> Bool {
        lhs.x1 == rhs.x1 && lhs.y1 == rhs.y1 && lhs.x2 == rhs.x2 && lhs.y2 == rhs.y2
    }
}
