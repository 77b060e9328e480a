/// How an export writes lengths (rule 42, docs/exports.md "Units"): in pixels, or in container
/// query units — `cqw` and `cqh`, percentages of the container's width and height — so that one
/// stylesheet fits any container size. Positions are measured from the container's origin when
/// the request has a container (the element is positioned in it), else from the origin of the
/// channels' coordinates.
struct ExportLengths: Sendable {
    var units: ExportOptions.Units
    var origin: (x: Double, y: Double)
    /// The container's width and height; used by container units only.
    var size: (w: Double, h: Double)

    /// - container: the request's; required for container units (the caller's 422 otherwise).
    init(units: ExportOptions.Units, container: Container?) {
        self.units = units
        origin = (container?.x ?? 0, container?.y ?? 0)
        size = (container?.w ?? 1, container?.h ?? 1)
    }

    /// A position along `axis` (0: x, 1: y).
    func position(_ value: Double, axis: Int) -> String {
        length(value - (axis == 0 ? origin.x : origin.y), axis: axis)
    }

    /// A length along `axis` (0: x, 1: y).
    func length(_ value: Double, axis: Int) -> String {
        switch units {
        case .px: CSSText.number(value) + "px"
        case .container: CSSText.number(value / (axis == 0 ? size.w : size.h) * 100) + (axis == 0 ? "cqw" : "cqh")
        }
    }
}
