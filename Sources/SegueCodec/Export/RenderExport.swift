import SegueEngine
import SegueJSON

/// `/v1/render` as CSS `@keyframes` or Web Animations keyframes (docs/exports.md "Renders"): each
/// view's channels mapped to CSS properties (rule 28), each property's keyframes fitted within
/// `tolerance` × max(1, range) per component over the whole timeline [0, end], exact where a
/// block animation's timing is a CSS easing.
public struct RenderExport: Sendable {
    /// One view's fitted properties.
    struct View: Sendable {
        var id: String
        /// Its place in `Scene.stacking`, 0 at the bottom: the CSS `z-index` (rule 40).
        var layer: Int
        /// The declarations that place it once (`geometry=transform`, rule 42): (CSS name, value).
        var placement: [(String, String)]
        var properties: [ExportProperty]
        var fits: [KeyframeFit]
    }

    public let request: RenderRequest
    public let options: ExportOptions
    /// The `linear()` of each spring block (rule 41).
    let blockEasings: BlockEasings
    public var tolerance: Double { options.tolerance }
    let views: [View]
    /// Notes on what CSS cannot show, added to the request's warnings.
    let notes: [RequestWarning]

    /// Largest error over every property, in units of max(1, range); keyframes over every property.
    public var maxError: Double { views.flatMap(\.fits).map(\.maxError).max() ?? 0 }
    public var keyframeCount: Int { views.flatMap(\.fits).reduce(0) { $0 + $1.keyframes.count } }
    /// Fit grid steps per frame, between `minimumGrid` and `KeyframeFit.gridIntervals`.
    static let gridPerFrame = 4
    static let maximumGrid = 4096
    static let minimumGrid = 512

    /// The fit's grid steps for a render of `frames` frames.
    static func gridIntervals(frames: Int) -> Int { min(maximumGrid, max(minimumGrid, gridPerFrame * frames)) }

    /// Refuses (413) an export whose estimated work, added to the render's, is over the limit —
    /// before any fitting.
    /// - format: CSS and Web Animations keyframes, or Lottie.
    /// - tolerance: the export's (`?tolerance=`).
    public static func checkWork(_ request: RenderRequest, limits: Limits, format: SceneCost.ExportFormat,
                                 tolerance: Double) throws(Problem) {
        try Check.work(estimatedWork(request, format: format, tolerance: tolerance), limits: limits,
                       what: "exporting the \(request.times.count) frames of this render")
    }

    /// The render's work and the export's, in work units (docs/cost.md).
    public static func estimatedWork(_ request: RenderRequest, format: SceneCost.ExportFormat, tolerance: Double) -> Double {
        let frames = request.times.count
        return request.work + SceneCost.export(request.scene, gridPoints: gridIntervals(frames: frames) + 1, frames: frames,
                                               format: format, tolerance: tolerance)
    }

    /// A 422 naming `units` when container units are asked of a request without a container.
    public init(_ request: RenderRequest, options: ExportOptions) throws(Problem) {
        self.request = request
        self.options = options
        if options.units == .container, request.container == nil {
            throw ExportOptions.invalid("units", "`units=container` writes lengths as percentages of the container: the "
                                        + "request needs a `container` [x, y, w, h] (a preset gives its own)")
        }
        let lengths = ExportLengths(units: options.units, container: request.container)
        let scene = request.scene, end = scene.end
        let samples = try RenderResponse.problem(request) { () throws(SceneError) in
            try SceneSamples(scene, at: request.times, velocities: false, cancellation: request.cancellation)
        }
        let intervals = Self.gridIntervals(frames: request.times.count)
        let breakpoints = scene.events.map(\.event.t)
        let fitting = Fitting(request: request, options: options, lengths: lengths, samples: samples,
                              grid: KeyframeFit.grid(start: 0, end: end, intervals: intervals, breakpoints: breakpoints),
                              breakpoints: breakpoints, intervals: intervals)
        var notes: [RequestWarning] = []
        var views: [View] = []
        var blockEasings = BlockEasings()
        let layers = scene.stackingPositions
        let byView = ViewChannels.byView(scene)
        for id in Self.viewOrder(scene) {
            let view = byView[id] ?? ViewChannels(id)
            let fitted: Fitting.Fitted
            if let sole = fitting.soleBlock(view, &blockEasings) { fitted = sole } else { fitted = try fitting.searched(view, &blockEasings) }
            if request.cancellation?.isCancelled == true { throw Problem.cancelled }
            notes += fitted.notes
            views.append(View(id: id, layer: layers[id] ?? 0, placement: fitted.placement, properties: fitted.properties,
                              fits: fitted.fits))
        }
        self.views = views
        self.notes = notes
        self.blockEasings = blockEasings
    }

    /// View ids in the order their channels come (the request's order).
    static func viewOrder(_ scene: Scene) -> [String] {
        var seen: Set<String> = [], order: [String] = []
        for channel in scene.channels where seen.insert(channel.view).inserted { order.append(channel.view) }
        return order
    }

    /// The CSS properties of a view's channels (rule 28), with its geometry as `options` ask (rule
    /// 42), and the declarations that place it once (`geometry=transform`).
    static func properties(of view: ViewChannels, _ mapping: ExportMapping, options: ExportOptions, lengths: ExportLengths,
                           notes: inout [RequestWarning]) -> (properties: [ExportProperty], placement: [(String, String)]) {
        let pointer = JSONPointer(["views", view.name])
        var out: [ExportProperty] = []
        var placement: [(String, String)] = []
        let placed = ExportPlacement(view, frames: mapping.frames)
        if placed.center != nil, placed.bounds == nil, placed.frame == nil {
            notes.append(RequestWarning(pointer: pointer, detail: "the view has a center but no bounds: `left` and `top` place its centre"))
        }
        switch options.geometry {
        case .layout:
            out += layout(placed, mapping, lengths: lengths)
        case .transform where placed.isPlaced:
            placement = place(placed, lengths: lengths)
            out.append(mapping.placedTransform(placed) { lengths.length($0, axis: $1) })
            if placed.sizeChanges(mapping.frames), view.cornerRadius != nil {
                notes.append(RequestWarning(pointer: pointer / "cornerRadius",
                                     detail: "the view changes size and has a corner radius: under geometry=transform its size "
                                         + "is a scale, which stretches the corners (geometry=layout keeps them round)"))
            }
        case .transform:
            break
        }
        for channel in view.all {
            let c = mapping.scene.channels[channel]
            switch c.name {
            case "frame", "center", "bounds": continue
            case "alpha":
                out.append(mapping.scalar(channel, 0, css: "opacity", waapi: "opacity", clamp: 0...1))
                noteClamped(channel, 0...1, mapping, pointer / "alpha", "opacity", &notes)
            case "transform":
                if options.geometry == .layout { out.append(mapping.transform(channel)) }
            case "backgroundColor":
                out.append(mapping.color(channel))
                noteClamped(channel, 0...1, mapping, pointer / "backgroundColor", "background-color", &notes)
            case "cornerRadius":
                out.append(mapping.scalar(channel, 0, css: "border-radius", waapi: "borderRadius") { CSSText.number($0) + "px" })
            default: out += custom(channel, mapping)
            }
        }
        return (out, placement)
    }

    /// `geometry=layout` (rule 28): `left`, `top`, `width`, `height` from the frame, or from the
    /// centre and bounds.
    static func layout(_ placed: ExportPlacement, _ mapping: ExportMapping, lengths: ExportLengths) -> [ExportProperty] {
        var out: [ExportProperty] = []
        if let frame = placed.frame {
            for (k, name) in ["left", "top", "width", "height"].enumerated() {
                out.append(mapping.scalar(frame, k, css: name, waapi: name) {
                    k < 2 ? lengths.position($0, axis: k) : lengths.length($0, axis: k - 2)
                })
            }
            return out
        }
        if let center = placed.center, let bounds = placed.bounds {
            out.append(mapping.corner(center: center, bounds: bounds, 0, css: "left", lengths: lengths))
            out.append(mapping.corner(center: center, bounds: bounds, 1, css: "top", lengths: lengths))
        } else if let center = placed.center {
            out.append(mapping.scalar(center, 0, css: "left", waapi: "left") { lengths.position($0, axis: 0) })
            out.append(mapping.scalar(center, 1, css: "top", waapi: "top") { lengths.position($0, axis: 1) })
        }
        if let bounds = placed.bounds {
            out.append(mapping.scalar(bounds, 2, css: "width", waapi: "width") { lengths.length($0, axis: 0) })
            out.append(mapping.scalar(bounds, 3, css: "height", waapi: "height") { lengths.length($0, axis: 1) })
        }
        return out
    }

    /// `geometry=transform`'s box: the first frame's, written once.
    static func place(_ placed: ExportPlacement, lengths: ExportLengths) -> [(String, String)] {
        guard placed.hasSize else {
            return [("left", lengths.position(placed.centre0.x, axis: 0)), ("top", lengths.position(placed.centre0.y, axis: 1))]
        }
        let (w, h) = placed.size0
        return [("left", lengths.position(placed.centre0.x - w / 2, axis: 0)), ("top", lengths.position(placed.centre0.y - h / 2, axis: 1)),
                ("width", lengths.length(w, axis: 0)), ("height", lengths.length(h, axis: 1))]
    }

    /// `--c`, or `--c-0`, `--c-1`, … for a vector channel, registered as `<number>`s.
    static func custom(_ channel: Int, _ mapping: ExportMapping) -> [ExportProperty] {
        let c = mapping.scene.channels[channel]
        let first = Array(mapping.frames[channel].numbers.prefix(c.kind.width))
        let names = c.kind == .scalar ? ["--" + c.name] : (0..<c.kind.width).map { "--\(c.name)-\($0)" }
        return names.enumerated().map { k, name in
            var property = mapping.scalar(channel, k, css: "--" + CSSIdentifier.escape(String(name.dropFirst(2))), waapi: name)
            property.registered = k < first.count ? first[k] : 0
            return property
        }
    }

    /// A warning when CSS clamps a channel that leaves `range` (opacity, colours overshooting).
    static func noteClamped(_ channel: Int, _ range: ClosedRange<Double>, _ mapping: ExportMapping, _ pointer: JSONPointer,
                            _ property: String, _ notes: inout [RequestWarning]) {
        guard mapping.frames[channel].numbers.contains(where: { !range.contains($0) }) else { return }
        notes.append(RequestWarning(pointer: pointer, detail: "the channel leaves [0, 1] (an overshoot); CSS clamps `\(property)`, "
                                 + "so the export follows the clamped value"))
    }
}
