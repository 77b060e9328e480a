import SegueCodec

/// Response formats (docs/rules.md "Formats and negotiation": `Accept`, or `?format=` which wins; JSON is the default).
/// `waapi` and `lottie` are JSON documents of their own: only `?format=` asks for them.
public enum ResponseFormat: String, Sendable, CaseIterable {
    case json, csv, svg, css, waapi, lottie

    public var mediaType: String {
        switch self {
        case .json, .waapi, .lottie: "application/json"
        case .csv: "text/csv; charset=utf-8"
        case .svg: "image/svg+xml"
        case .css: "text/css; charset=utf-8"
        }
    }

    /// The media type `Accept` can name it by; nil for the formats only `?format=` selects.
    var type: (String, String)? {
        switch self {
        case .json: ("application", "json")
        case .csv: ("text", "csv")
        case .svg: ("image", "svg+xml")
        case .css: ("text", "css")
        case .waapi, .lottie: nil
        }
    }
}

enum Negotiation {
    /// Picks the format among `offered` (in order of preference): `?format=` when given, else the
    /// `Accept` media range with the highest quality (RFC 9110 §12.5.1; the most specific matching
    /// range gives a type its quality), else JSON. 406 when nothing offered is acceptable.
    static func format(query: String?, accept: String?, offered: [ResponseFormat]) throws(Problem) -> ResponseFormat {
        var names: String { offered.map(\.rawValue).joined(separator: ", ") }  // for a refusal only
        if let query {
            guard let format = ResponseFormat(rawValue: query.lowercased()), offered.contains(format) else {
                throw Problem(.notAcceptable,
                              detail: "format `\(query.prefix(50))` is not available here; this route answers \(names)")
            }
            return format
        }
        guard let accept, !accept.allSatisfy({ $0 == " " }) else { return offered[0] }
        // What curl and most libraries send: everything, so the first offered (JSON, which has a type).
        if accept == "*/*" && offered[0].type != nil { return offered[0] }
        let ranges = parseAccept(accept)
        var best: (format: ResponseFormat, quality: Double)?
        for format in offered {
            guard let (type, subtype) = format.type else { continue }
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
            throw Problem(.notAcceptable,
                          detail: "nothing in `Accept: \(accept.prefix(100))` is available; this route answers \(names)")
        }
        return best.format
    }

    struct MediaRange {
        var type: String
        var subtype: String
        var quality: Double
    }

    /// The media ranges of an `Accept` header; elements that are not `type/subtype`, or whose
    /// weight is invalid, are left out.
    static func parseAccept(_ header: String) -> [MediaRange] {
        QualityList.parse(header).compactMap { element in
            guard let slash = element.value.firstIndex(of: "/") else { return nil }
            return MediaRange(type: String(element.value[..<slash]),
                              subtype: String(element.value[element.value.index(after: slash)...]), quality: element.quality)
        }
    }

    /// Whether `Accept-Encoding` admits gzip (RFC 9110 §12.5.3: `gzip`, `x-gzip`, or else `*`, with
    /// q > 0; the last element naming a coding wins).
    static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        // The values browsers and HTTP libraries send, answered without parsing, which costs more
        // than the rest of a cached answer (each agrees with the parse: NegotiationTests).
        switch header {
        case "gzip", "gzip, deflate", "deflate, gzip", "gzip, deflate, br", "gzip, deflate, br, zstd": return true
        case "identity", "": return false
        default: return parsedAcceptsGzip(header)
        }
    }

    /// `acceptsGzip` by the rule itself.
    static func parsedAcceptsGzip(_ header: String) -> Bool {
        var gzip: Double?, any: Double?
        for element in QualityList.parse(header) {
            switch element.value {
            case "gzip", "x-gzip": gzip = element.quality
            case "*": any = element.quality
            default: break
            }
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
        throw Problem(.unsupportedMediaType,
                      detail: "request bodies are JSON; `Content-Type: \(header.prefix(100))` is not accepted")
    }
}

/// A list header with quality values (RFC 9110 §12.4.2) — `Accept` and `Accept-Encoding` — read by
/// one rule: elements are separated by commas; an element is a value (a media range or a content
/// coding, compared case-insensitively, so lowercased here) and `;`-separated parameters; the
/// parameter named `q` (any case, spaces allowed around `=`) is the element's weight, default 1.
/// A weight that is not a qvalue (0 to 1 with at most three decimals, e.g. `q=2`, `q=0.5000`,
/// `q=.5`, `q=abc`) makes the element invalid, and an invalid element counts as absent: it neither
/// accepts nor refuses anything. Empty elements are absent too.
enum QualityList {
    struct Element: Equatable {
        var value: String
        var quality: Double
    }

    static func parse(_ header: String) -> [Element] {
        header.split(separator: ",").compactMap { element in
            let parts = element.split(separator: ";", omittingEmptySubsequences: false)
            let value = parts[0].trimmingCharacters(in: " \t").lowercased()
            guard !value.isEmpty else { return nil }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard pair.count == 2, pair[0].trimmingCharacters(in: " \t").lowercased() == "q" else { continue }
                guard let weight = qvalue(pair[1].trimmingCharacters(in: " \t")) else { return nil }
                quality = weight
            }
            return Element(value: value, quality: quality)
        }
    }

    /// RFC 9110 §12.4.2: `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`; nil otherwise.
    static func qvalue(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        let zero = UInt8(ascii: "0"), one = UInt8(ascii: "1")
        guard let first = bytes.first, first == zero || first == one, bytes.count <= 5 else { return nil }
        guard bytes.count > 1 else { return first == one ? 1 : 0 }
        let decimals = bytes[2...]
        guard bytes[1] == UInt8(ascii: "."), decimals.allSatisfy({ (zero...zero + 9).contains($0) }) else { return nil }
        if first == one { return decimals.allSatisfy { $0 == zero } ? 1 : nil }
        // Thousandths as an integer, then one division: the double nearest the decimal value.
        let thousandths = decimals.reduce(0) { $0 * 10 + Int($1 - zero) } * [1000, 100, 10, 1][decimals.count]
        return Double(thousandths) / 1000
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        guard let first = firstIndex(where: { !set.contains($0) }),
              let last = lastIndex(where: { !set.contains($0) }) else { return "" }
        return String(self[first...last])
    }
}
