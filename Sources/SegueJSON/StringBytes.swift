extension String {
    /// Calls `body` with the string's UTF-8 bytes. A native string's bytes are read where they are;
    /// any other is read from a copy, since `withUTF8`, the fallback, may rewrite the string it is
    /// called on into native form (and the copy costs a retain and a release).
    @inlinable @inline(__always)
    public func withUTF8InPlace<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return try copy.withUTF8(body)
    }
}
