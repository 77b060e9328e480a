import SegueEngine
import SegueJSON

/// `/v1/render?format=lottie` (docs/rules.md rule 29): the render as a Lottie (Bodymovin 5.x)
/// animation that validates against the lottie-spec schema (scripts/validate-lottie.py).
///
/// The composition: `v` "5.7.0"; `fr` the fps (60 when the render used `at`); `ip` 0 and `op` the
/// number of frames; `w` and `h` the request's `container` (a preset's included), else the union of the views'
/// rectangles (`LottieCanvas`); no assets; `warnings` the render's own, then what the layers
/// cannot show (`LottieWarnings`).
///
/// Each view is one shape layer (lottie-spec "Shape Layer", `ty` 4) named after the view, `ind` its
/// place in the stacking (rule 40) counting from 1 at the bottom. Lottie draws the first layer of
/// `layers` on top, UIKit the last subview, so `layers` lists the stacking from the top down.
///
/// A layer holds one group (lottie-spec "Group") of a rectangle (`rc`) centred on the layer's
/// origin — `s` the view's width and height, `r` its `cornerRadius` — and a fill (`fl`) — `c` the
/// background colour's r, g, b, `o` 100 · its alpha, or the view's palette colour (`ViewPalette`,
/// rule 44) at 100 when the view has no `backgroundColor`. The colour's alpha stays the fill's opacity rather than being folded
/// into the layer's: UIKit's `alpha` and the colour's alpha are separate values, and both multiply
/// the one fill. The layer's transform (lottie-spec "Transform"): `a` (0, 0), the rectangle's
/// centre, as UIKit transforms about the centre; `p` the centre moved by the transform's
/// translation (canvas coordinates); `r` its rotation in degrees, unwrapped over time; `s` its
/// scale in percent; `o` 100 · `alpha`. Every animated value is keyframed within the error bound
/// of rule 26 (`LottieFitter`, `LottieTargets`).
public struct LottieExport: Sendable {
    public let request: RenderRequest

    public init(_ request: RenderRequest) {
        self.request = request
    }

    /// The Lottie JSON; `tolerance` is `?tolerance=` (`ExportTolerance`). A value that is not
    /// finite is the 422 of the JSON response; a raised cancellation the 503.
    public func lottie(tolerance: Double) throws(Problem) -> [UInt8] {
        let r = request
        try checkFinite()
        // Request order picks each view's palette colour; stacking order lays out the layers.
        let requestOrder = viewNames()
        let byView = ViewChannels.byView(r.scene)
        let views = r.scene.stacking.map { byView[$0] ?? ViewChannels($0) }
        let canvas = LottieCanvas(r, views: views)
        let fps = r.fps ?? 60
        var fitter = LottieFitter(r, tolerance: tolerance, fps: fps)
        var layers: [JSONValue] = []
        for (index, view) in views.enumerated() {
            if r.cancellation?.isCancelled == true { throw .cancelled }
            let fill = ViewPalette.color(requestOrder.firstIndex(of: view.name) ?? index)
            layers.append(try layer(view, index: index, fill: fill, fitter: &fitter, canvas: canvas))
        }
        let warnings = r.warnings + views.flatMap { LottieWarnings.of($0, scene: r.scene, frames: r.times) }
        var w = TextWriter()
        w.value(.object([
            .init("v", .string("5.7.0")), .init("nm", .string("Segue render")),
            .init("fr", .number(fps)), .init("ip", .number(0)), .init("op", .number(Double(r.times.count))),
            .init("w", .number(Double(canvas.w))), .init("h", .number(Double(canvas.h))),
            .init("ddd", .number(0)), .init("assets", .array([])),
            .init("layers", .array(layers.reversed())),
            .init("warnings", .array(warnings.map(\.json))),
        ]))
        return w.bytes
    }

    /// The views in request order: the members of the rendered request's `views`.
    func viewNames() -> [String] {
        if case .object(let members) = request.expanded,
           case .object(let views)? = members.first(where: { $0.key == "views" })?.value {
            return views.map(\.key)
        }
        var names: [String] = []
        for channel in request.scene.channels where !names.contains(channel.view) { names.append(channel.view) }
        return names
    }

    /// Every channel at every frame, sampled as the JSON response samples them: the same 422 for
    /// a value that is not finite.
    func checkFinite() throws(Problem) {
        let r = request
        _ = try RenderResponse.problem(r) { () throws(SceneError) in
            try SceneSamples(r.scene, at: r.times, velocities: false, cancellation: r.cancellation)
        }
    }

    /// One view's shape layer.
    func layer(_ view: ViewChannels, index: Int, fill: [Double], fitter: inout LottieFitter, canvas: LottieCanvas) throws(Problem) -> JSONValue {
        let scene = request.scene
        let position = try fitter.fit(LottieTargets.position(view, scene, origin: (canvas.x, canvas.y)))
        var rotationScale = LottieFitter.Fit.constant([0, 100, 100])
        if let transform = view.transform {
            // Unwrapped along the frames when one block alone turns it (its fit checks the frames);
            // else, or when that does not hold, along the fit's grid.
            if scene.soleBlock(of: [transform]) != nil,
               let sole = fitter.soleBlock(LottieTargets.rotationScale(transform, scene, grid: fitter.frameGrid), tolerance: fitter.tolerance) {
                rotationScale = .keyframes(sole.keyframes)
            } else {
                rotationScale = try fitter.fit(LottieTargets.rotationScale(transform, scene, grid: fitter.grid))
            }
        }
        var opacity = LottieFitter.Fit.constant([100])
        if let alpha = view.alpha { opacity = try fitter.fit(LottieTargets.opacity(alpha, scene)) }
        let transform: JSONValue = .object([
            .init("a", LottieProperty.constant([0, 0], scalar: false)),
            .init("p", LottieProperty.from(position, 0..<2, scalar: false)),
            .init("s", LottieProperty.from(rotationScale, 1..<3, scalar: false)),
            .init("r", LottieProperty.from(rotationScale, 0..<1, scalar: true)),
            .init("o", LottieProperty.from(opacity, 0..<1, scalar: true)),
        ])
        let frames = Double(request.times.count)
        return .object([
            .init("ddd", .number(0)), .init("ind", .number(Double(index + 1))), .init("ty", .number(4)),
            .init("nm", .string(view.name)), .init("sr", .number(1)), .init("ks", transform), .init("ao", .number(0)),
            .init("shapes", .array([try background(view, fill: fill, fitter: &fitter)])),
            .init("ip", .number(0)), .init("op", .number(frames)), .init("st", .number(0)), .init("bm", .number(0)),
        ])
    }

    /// The group of the view's rectangle and its fill, with the identity transform players expect
    /// as a group's last item.
    func background(_ view: ViewChannels, fill: [Double], fitter: inout LottieFitter) throws(Problem) -> JSONValue {
        let scene = request.scene
        let size = try fitter.fit(LottieTargets.size(view, scene))
        var roundness = LottieFitter.Fit.constant([0])
        if let radius = view.cornerRadius { roundness = try fitter.fit(LottieTargets.roundness(radius, scene)) }
        var color = LottieFitter.Fit.constant(fill), fillOpacity = LottieFitter.Fit.constant([100])
        if let channel = view.color {
            color = try fitter.fitColor(channel)
            fillOpacity = try fitter.fit(LottieTargets.fillOpacity(channel, scene))
        }
        let still = { (value: [Double]) in LottieProperty.constant(value, scalar: value.count == 1) }
        return .object([
            .init("ty", .string("gr")), .init("nm", .string("background")),
            .init("it", .array([
                .object([.init("ty", .string("rc")), .init("nm", .string("bounds")), .init("p", still([0, 0])),
                         .init("s", LottieProperty.from(size, 0..<2, scalar: false)),
                         .init("r", LottieProperty.from(roundness, 0..<1, scalar: true))]),
                .object([.init("ty", .string("fl")), .init("nm", .string("backgroundColor")),
                         .init("c", LottieProperty.from(color, 0..<3, scalar: false)),
                         .init("o", LottieProperty.from(fillOpacity, 0..<1, scalar: true)), .init("r", .number(1))]),
                .object([.init("ty", .string("tr")), .init("a", still([0, 0])), .init("p", still([0, 0])),
                         .init("s", still([100, 100])), .init("r", still([0])), .init("o", still([100]))]),
            ])),
        ])
    }
}
