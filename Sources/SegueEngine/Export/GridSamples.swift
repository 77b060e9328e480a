/// A fit's grid read once (docs/exports.md "Fitting", step 1): the keyframe parameters at every
/// grid point in one flat array, row k at `width · k`, and the reported components beside them
/// where they differ from the parameters.
///
/// A target with a scalar form (`FitTarget.scalar`) is read through it, the whole grid at
/// once; any other through `FitTarget.sample`, point by point.
struct GridSamples {
    /// Parameters per grid point.
    let width: Int
    /// Row k holds the parameters at grid point k.
    private(set) var parameters: [Double]
    /// The reported components at each grid point; empty for a scalar target, whose only
    /// component is its parameter.
    private(set) var outputs: [[Double]] = []

    init(_ target: FitTarget, at grid: [Double]) {
        if let scalar = target.scalar {
            width = 1
            parameters = scalar.column(grid)
            return
        }
        let sampled = grid.map(target.sample)
        width = sampled.first?.parameters.count ?? 0
        parameters = []
        parameters.reserveCapacity(width * sampled.count)
        for sample in sampled { parameters += sample.parameters }
        outputs = sampled.map(\.output)
    }

    /// The parameters at grid point k.
    func row(_ k: Int) -> [Double] {
        Array(parameters[width * k ..< width * (k + 1)])
    }

    /// Parameter c at grid point k.
    subscript(k: Int, c: Int) -> Double {
        parameters[width * k + c]
    }

    /// The reported components at grid point k.
    func output(_ k: Int) -> [Double] {
        outputs.isEmpty ? row(k) : outputs[k]
    }

    /// Whether every grid point holds the parameters of the first.
    var isConstant: Bool {
        let count = parameters.count / max(width, 1)
        return (1..<max(count, 1)).allSatisfy { k in (0..<width).allSatisfy { self[k, $0] == self[0, $0] } }
    }
}
