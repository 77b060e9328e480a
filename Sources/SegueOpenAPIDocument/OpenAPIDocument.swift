/// `openapi.yaml`, compiled in by SwiftPM (`Resources/openapi.yaml` links to the top-level file).
///
/// A module of its own so that its one generated source — an array literal of every byte — can be
/// compiled without optimisation and debug information (`Package.swift`): with them, that single
/// literal took longer than the rest of the package.
public enum OpenAPIDocument {
    public static var bytes: [UInt8] { PackageResources.openapi_yaml }
}
