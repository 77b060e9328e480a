import SegueCodec

/// Response formats (API.md §1: `Accept`, or `?format=` which wins; JSON is the default).
public enum ResponseFormat: String, Sendable, CaseIterable {
    case json, csv, svg, css

    public var mediaType: String {
        switch self {
        case .json: "application/json"
        case .csv: "text/csv; charset=utf-8"
        case .svg: "image/svg+xml"
        case .css: "text/css; charset=utf-8"
        }
    }

    var type: (String, String) {
        switch self {
        case .json: ("application", "json")
        case .csv: ("text", "csv")
        case .svg: ("image", "svg+xml")
        case .css: ("text", "css")
        }
    }
}

enum Negotiation {
    /// Picks the format among `offered` (in order of preference): `?format=` when given, else the
    /// `Accept` media range with the highest quality (RFC 9110 §12.5.1; the most specific matching
    /// range gives a type its quality), else JSON. 406 when nothing offered is acceptable.
    static func format(query: String?, accept: String?, offered: [ResponseFormat]) throws(Problem) -> ResponseFormat {
        let names = offered.map(\.rawValue).joined(separator: ", ")
        if let query {
            guard let format = ResponseFormat(rawValue: query.lowercased()), offered.contains(format) else {
                throw Problem(status: 406, kind: "not-acceptable",
                              detail: "format `\(query.prefix(50))` is not available here; this route answers \(names)")
            }
            return format
        }
        guard let accept, !accept.allSatisfy({ $0 == " " }) else { return offered[0] }
        let ranges = parseAccept(accept)
        var best: (format: ResponseFormat, quality: Double)?
        for format in offered {
            let (type, subtype) = format.type
            var quality: Double?
            var specificity = -1
            for range in ranges {
                let level: Int
                if range.type == type && range.subtype == subtype { level = 2 }
                else if range.type == type && range.subtype == "*" { level = 1 }
                else if range.type == "*" && range.subtype == "*" { level = 0 }
                else { continue }
                if level > specificity {
                    specificity = level
                    quality = range.quality
                }
            }
            if let quality, quality > 0, quality > (best?.quality ?? 0) { best = (format, quality) }
        }
        guard let best else {
            throw Problem(status: 406, kind: "not-acceptable",
                          detail: "nothing in `Accept: \(accept.prefix(100))` is available; this route answers \(names)")
        }
        return best.format
    }

    struct MediaRange {
        var type: String
        var subtype: String
        var quality: Double
    }

    static func parseAccept(_ header: String) -> [MediaRange] {
        header.split(separator: ",").compactMap { element in
            let parts = element.split(separator: ";").map { $0.trimmingCharacters(in: " \t") }
            guard let mediaType = parts.first, let slash = mediaType.firstIndex(of: "/") else { return nil }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: " \t") }
                if pair.count == 2, pair[0].lowercased() == "q", let q = Double(pair[1]), (0...1).contains(q) {
                    quality = q
                }
            }
            return MediaRange(type: mediaType[..<slash].lowercased(),
                              subtype: mediaType[mediaType.index(after: slash)...].lowercased(), quality: quality)
        }
    }

    /// Whether `Accept-Encoding` admits gzip (RFC 9110 §12.5.3: `gzip`, `x-gzip` or `*` with q > 0).
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        var gzip: Double?, any: Double?
        for element in header.split(separator: ",") {
            let parts = element.split(separator: ";").map { $0.trimmingCharacters(in: " \t").lowercased() }
            guard let coding = parts.first else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            if coding == "gzip" || coding == "x-gzip" { gzip = quality } else if coding == "*" { any = quality }
        }
        return (gzip ?? any ?? 0) > 0
    }

    /// Request bodies are JSON when the `Content-Type` is `application/json`, `application/*+json`,
    /// absent, or `application/x-www-form-urlencoded` (what `curl -d` sends); anything else is 415.
    static func checkContentType(_ header: String?) throws(Problem) {
        guard let header else { return }
        // The spellings nearly every client sends, without parsing.
        if header == "application/json" || header == "application/x-www-form-urlencoded" { return }
        let mediaType = header.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: " \t").lowercased() } ?? ""
        if mediaType.isEmpty || mediaType == "application/json" || mediaType == "application/x-www-form-urlencoded" {
            return
        }
        if mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json") { return }
        throw Problem(status: 415, kind: "unsupported-media-type",
                      detail: "request bodies are JSON; `Content-Type: \(header.prefix(100))` is not accepted")
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        guard let first = firstIndex(where: { !set.contains($0) }),
              let last = lastIndex(where: { !set.contains($0) }) else { return "" }
        return String(self[first...last])
    }
}
