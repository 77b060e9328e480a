import SegueCodec

/// What this build is, for `segue --version`, the `segue_build_info` metric and the Debian
/// package: the package's version (set here, the one place it is written) and the revision of its
/// output (`OutputRevision`, which changes whenever any answer's bytes do).
public enum BuildInfo {
    public static let version = "0.9.0"
    public static var revision: String { OutputRevision.current }
    /// `segue <version> (output revision <revision>)`.
    public static var description: String { "segue \(version) (output revision \(revision))" }
}
