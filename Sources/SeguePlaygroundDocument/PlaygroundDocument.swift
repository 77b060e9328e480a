/// The playground's sources (`GET /`, docs/playground.md), compiled in by SwiftPM: the page's HTML
/// with two placeholders, its style sheet and its script. `SegueHTTP`'s `PlaygroundPage` puts the
/// three together into one document and hashes the inline parts for its `Content-Security-Policy`.
///
/// A module of its own for the reason `SegueOpenAPIDocument` is one: SwiftPM writes each resource as
/// an array literal of its bytes, compiled here without optimisation and debug information.
public enum PlaygroundDocument {
    public static var html: [UInt8] { PackageResources.playground_html }
    public static var css: [UInt8] { PackageResources.playground_css }
    public static var javaScript: [UInt8] { PackageResources.playground_js }
}
