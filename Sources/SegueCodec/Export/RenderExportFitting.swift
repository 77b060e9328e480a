import SegueEngine

extension RenderExport {
    /// What one view's export needs from the render (docs/exports.md "Renders" and "Cost"): the
    /// frames already computed, the fit's grid, and the options.
    struct Fitting {
        let request: RenderRequest
        let options: ExportOptions
        let lengths: ExportLengths
        let samples: SceneSamples
        /// The fit's grid over [0, end], with the events' times.
        let grid: [Double]
        let breakpoints: [Double]
        let intervals: Int

        /// One view's properties, their keyframes, its placement and notes.
        struct Fitted {
            var properties: [ExportProperty]
            var placement: [(String, String)]
            var fits: [KeyframeFit]
            var notes: [RequestWarning]
        }

        var scene: Scene { request.scene }
        var unitsPerSecond: Double { scene.end > 0 ? 100 / scene.end : 1 }

        /// A view that one block animation alone moves (every channel that moves follows the same
        /// `Scene.Channel.soleBlock`): its properties read from the frames, each written as the
        /// block's keyframes with their error bound (`KeyframeFit.init(soleBlock:…)`), with no
        /// search and no sampling beyond the frames. nil when that does not hold or a property's
        /// bound needs more than the block's keyframes: the view is then searched.
        func soleBlock(_ view: ViewChannels, _ blockEasings: inout BlockEasings) -> Fitted? {
            let times = request.times
            guard times.indices.dropFirst().allSatisfy({ times[$0 - 1] < times[$0] }), let piece = scene.soleBlock(of: view.all)
            else { return nil }
            var notes: [RequestWarning] = []
            let mapping = ExportMapping(scene: scene, frames: samples.values, grid: times).readingFrames(view.all)
            let (properties, placement) = RenderExport.properties(of: view, mapping, options: options, lengths: lengths,
                                                                   notes: &notes)
            let ratio = properties.map { BlockEasings.ratio(piece, $0.target) }.min() ?? 1
            guard let written = blockEasings.written(piece, ratio: ratio, tolerance: options.tolerance,
                                                     cancellation: request.cancellation) else { return nil }
            var block = piece
            block.written = written.easing
            var fits: [KeyframeFit] = []
            for property in properties {
                let checks = times.map { (time: $0, output: property.target.sample($0).output) }
                guard let fit = KeyframeFit(soleBlock: block, target: property.target, start: 0, end: scene.end,
                                            tolerance: options.tolerance, unitsPerSecond: unitsPerSecond,
                                            easingError: written.error, checks: checks) else { return nil }
                fits.append(fit)
            }
            return Fitted(properties: properties, placement: placement, fits: fits, notes: notes)
        }

        /// Any view: each property's keyframes searched on the grid (`KeyframeFit`), its channels
        /// sampled there once.
        func searched(_ view: ViewChannels, _ blockEasings: inout BlockEasings) throws(Problem) -> Fitted {
            let end = scene.end
            // Where a tick integrator's value jumps: given to every fit of the view.
            let jumps = Array(Set(view.all.flatMap { scene.channels[$0].jumpTimes }.filter { $0 > 0 && $0 < end })).sorted()
            var notes: [RequestWarning] = []
            let mapping = ExportMapping(scene: scene, frames: samples.values, grid: grid).sampling(view.all)
            var (properties, placement) = RenderExport.properties(of: view, mapping, options: options, lengths: lengths,
                                                                   notes: &notes)
            properties = blockEasings.resolve(properties, tolerance: options.tolerance, cancellation: request.cancellation)
            var fits: [KeyframeFit] = []
            for property in properties {
                fits.append(try KeyframeFit(property.target, start: 0, end: end, tolerance: options.tolerance,
                                            unitsPerSecond: unitsPerSecond, breakpoints: breakpoints,
                                            exactPieces: property.exactPieces, gridIntervals: intervals, jumps: jumps,
                                            cancellation: request.cancellation)
                    .checked("`\(property.css)` of view `\(view.name)`"))
            }
            return Fitted(properties: properties, placement: placement, fits: fits, notes: notes)
        }
    }
}
