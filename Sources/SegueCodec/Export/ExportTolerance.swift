import SegueEngine
import SegueJSON

/// `?tolerance=E` of an export (docs/exports.md "The error rule"): the largest error allowed, in
/// units of max(1, range) per component; default 0.001, range [1e-6, 0.1].
public enum ExportTolerance {
    public static let `default` = 0.001
    public static let range = 1e-6...0.1

    /// The query's tolerance, or the default; a 422 naming the parameter when it is not a number in range.
    public static func parse(_ text: String?) throws(Problem) -> Double {
        guard let text else { return Self.default }
        let allowed = text.utf8.allSatisfy { (0x30...0x39).contains($0) || $0 == 0x2E || $0 == 0x65 || $0 == 0x45 || $0 == 0x2D || $0 == 0x2B }
        guard allowed, let value = Double(text), range.contains(value) else {
            throw Problem(.invalidRequest,
                          detail: "`tolerance` is a number from 1e-6 to 0.1 (the largest error of an export, "
                              + "in units of the value's range), not `\(text.prefix(50))`",
                          extensions: [.init("parameter", .string("tolerance"))])
        }
        return value
    }
}

extension KeyframeFit {
    /// The fit; a 503 when its cancellation was raised, or a 413 when no keyframe list Segue
    /// writes can follow the value within the tolerance (it oscillates faster than the fit's grid
    /// resolves).
    func checked(_ what: String) throws(Problem) -> KeyframeFit {
        guard !wasCancelled else { throw .cancelled }
        guard meetsBound else {
            throw Problem.tooLarge("\(what) moves too fast to export within tolerance \(tolerance): "
                                   + "the closest fit Segue finds is off by \(maxError)")
        }
        return self
    }
}
