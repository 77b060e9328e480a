import SeguePlaygroundDocument

/// `GET /`, the playground (docs/rules.md "Other routes", docs/playground.md): one self-contained
/// document — the HTML with its style sheet and script inline — and a `Content-Security-Policy`
/// that admits exactly those two by their SHA-256 digests and lets the page talk to its own origin
/// and nothing else. Built once, on first use; deterministic, so it is tagged, compressed and cached
/// like any other body.
struct PlaygroundPage: Sendable {
    let body: [UInt8]
    let contentSecurityPolicy: String

    static let shared = PlaygroundPage(html: PlaygroundDocument.html, css: PlaygroundDocument.css,
                                       javaScript: PlaygroundDocument.javaScript)

    /// `html` holds `/*STYLE*/` inside its `<style>` element and `/*SCRIPT*/` inside its `<script>`.
    init(html: [UInt8], css: [UInt8], javaScript: [UInt8]) {
        body = html.replacing(Array("/*STYLE*/".utf8), with: css, maxReplacements: 1)
            .replacing(Array("/*SCRIPT*/".utf8), with: javaScript, maxReplacements: 1)
        func source(_ bytes: [UInt8]) -> String { "'sha256-\(Base64.encode(SHA256.digest(bytes)))'" }
        contentSecurityPolicy = [
            "default-src 'none'",
            "script-src \(source(javaScript))",
            "style-src \(source(css))",
            // The requests of the page: /v1/presets, /v1/curve and /v1/render.
            "connect-src 'self'",
            // The favicon is `data:,` (no request).
            "img-src data:",
            "base-uri 'none'",
            "form-action 'none'",
            "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }

    /// The page's headers beyond `Content-Type`.
    var headers: [HeaderField] {
        [HeaderField("Content-Security-Policy", contentSecurityPolicy),
         HeaderField("X-Content-Type-Options", "nosniff"),
         HeaderField("Referrer-Policy", "no-referrer")]
    }
}
