/// The greedy furthest reach over a sampled function (docs/exports.md "Fitting", step 3).
///
/// From a keyframe at grid point i holding v_i, a straight piece of slope s keeps grid point k
/// within τ (per parameter) exactly when s lies in [(p_k − τ − v_i)/(t_k − t_i), (p_k + τ − v_i)/(t_k − t_i)].
/// Walking j forward keeps the intersection of those intervals (the slope window) in O(1) per
/// point, so the whole pass is linear in the grid. The piece ends at the furthest j for which the
/// window of the points up to j is not empty, and its keyframe there holds the value of the slope
/// in the window nearest the sample: keyframe values may sit up to τ off the curve, as in the
/// "swing filter" of Elmeleegy et al. (VLDB 2009), which needs about 1/√2 of the pieces of
/// interpolation for a smooth curve.
enum SlopeWindow {
    /// Keyframes over the grid: exact pieces as given (a keyframe with their written easing at the start;
    /// the stretch after them starts with the value at their end); greedy linear pieces everywhere
    /// else.
    static func knots(grid: [Double], samples: GridSamples, fixed: [ExactPiece], tolerance: [Double]) -> [Keyframe] {
        var knots: [Keyframe] = []
        var cursor = 0
        for piece in fixed {
            guard let first = grid.firstIndex(of: piece.start), let last = grid.firstIndex(of: piece.end) else { continue }
            greedy(grid: grid, samples: samples, from: cursor, to: first, tolerance: tolerance, into: &knots)
            knots.removeLast()
            knots.append(Keyframe(time: piece.start, parameters: samples.row(first), easing: piece.written))
            cursor = last
        }
        greedy(grid: grid, samples: samples, from: cursor, to: grid.count - 1, tolerance: tolerance, into: &knots)
        return knots
    }

    /// Appends the keyframes of the stretch [from, to] of the grid, both ends holding their samples
    /// (a keyframe already at `from` is kept); keyframes in between hold values within the
    /// tolerance of their samples, chosen by `furthest`.
    static func greedy(grid: [Double], samples: GridSamples, from: Int, to: Int, tolerance: [Double],
                       into knots: inout [Keyframe]) {
        if knots.last?.time != grid[from] { knots.append(Keyframe(time: grid[from], parameters: samples.row(from))) }
        var i = from
        var value = samples.row(from)
        var window = Window(width: samples.width)
        while i < to {
            let j = window.furthest(grid: grid, samples: samples, from: i, value: value, limit: to, tolerance: tolerance)
            knots.append(Keyframe(time: grid[j], parameters: window.best))
            i = j
            value = window.best
        }
    }

    /// The slope window of one piece and the value its furthest reach ends with, in buffers kept
    /// from piece to piece.
    struct Window {
        var low: [Double], high: [Double]
        /// The end value at the grid point being tried, and at the furthest one that fitted.
        var reached: [Double], best: [Double]

        init(width: Int) {
            low = Array(repeating: 0, count: width)
            high = low
            reached = low
            best = low
        }

        /// The furthest grid point j reachable from the keyframe (t_i, value) by one piece that
        /// stays within the tolerance of every grid sample from i + 1 to j; `best` is left holding
        /// the value the piece ends with: the one nearest the sample at j the window allows (the
        /// sample itself at `limit`, where the stretch must end on its sample). At least i + 1
        /// (ending on its sample).
        mutating func furthest(grid: [Double], samples: GridSamples, from i: Int, value: [Double], limit: Int,
                               tolerance: [Double]) -> Int {
            let count = value.count
            for c in 0..<count {
                low[c] = -.infinity
                high[c] = .infinity
                best[c] = samples[i + 1, c]
            }
            var furthest = i + 1
            var j = i + 1
            while j <= limit {
                let dt = grid[j] - grid[i]
                var fits = true, open = true
                for c in 0..<count {
                    let sample = samples[j, c]
                    reached[c] = sample
                    let rise = sample - value[c]
                    let exact = rise / dt
                    // Interior points constrain the slope; the end either hits its sample (at the
                    // stretch's end) or lands within the tolerance of it.
                    let lowWith = max(low[c], (rise - tolerance[c]) / dt), highWith = min(high[c], (rise + tolerance[c]) / dt)
                    if j == limit {
                        if !(exact >= low[c] && exact <= high[c]) { fits = false }
                    } else if !(lowWith <= highWith) {
                        fits = false
                    } else {
                        reached[c] = value[c] + min(max(exact, lowWith), highWith) * dt
                    }
                    low[c] = lowWith
                    high[c] = highWith
                    if !(low[c] <= high[c]) { open = false }
                }
                if fits {
                    furthest = j
                    for c in 0..<count { best[c] = reached[c] }
                }
                if !open { break }
                j += 1
            }
            return furthest
        }
    }
}
