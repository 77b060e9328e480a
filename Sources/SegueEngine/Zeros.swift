extension Array where Element == Double {
    /// `count` zeros, for a column or a vector to be written by index: sampled curve columns,
    /// velocities of channels and of physics chains.
    ///
    /// `[Double](repeating:count:)` and `init(unsafeUninitializedCapacity:)` allocate through the
    /// standard library's unspecialised `_allocateBufferUninitialized`, which looks the storage
    /// class's generic metadata up in the runtime on every call, a cost of the same order as
    /// sampling a short curve's column, paid again wherever a sampler builds a velocity vector.
    /// Reserving room in an empty array reaches the same metadata through a reference cached at
    /// the call site (docs/http.md "Instructions per request").
    public static func zeros(_ count: Int) -> [Double] {
        var column = [Double]()
        column.reserveCapacity(count)
        column.append(contentsOf: repeatElement(0, count: count))
        return column
    }
}
