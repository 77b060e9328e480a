import XCTest
@testable import SegueHTTP

/// One parser for the quality values of `Accept` and `Accept-Encoding` (RFC 9110 §12.4.2): its
/// tables, the same rule for an invalid weight in both headers, and the same decisions as the two
/// parsers it replaced for every valid header.
final class NegotiationTests: XCTestCase {
    func testQValueGrammar() {
        let valid: [(String, Double)] = [
            ("0", 0), ("1", 1), ("0.", 0), ("1.", 1), ("0.5", 0.5), ("0.25", 0.25), ("0.001", 0.001), ("0.999", 0.999),
            ("0.000", 0), ("1.0", 1), ("1.00", 1), ("1.000", 1), ("0.10", 0.1),
        ]
        for (text, value) in valid {
            XCTAssertEqual(QualityList.qvalue(text), value, text)
        }
        for text in ["", "2", "1.001", "1.5", "0.5000", "1.0000", ".5", "+0.5", "-0", "00", "01", "0.5e0", "1e0", "abc",
                     "0,5", "0 .5", "0.5.", "\"0.5\"", "nan", "inf", "0x1", "٠.٥"] {
            XCTAssertNil(QualityList.qvalue(text), text)
        }
        // Every valid weight reads as the double the decimal text names.
        for thousandths in 0...999 {
            let digits = String(thousandths)
            let text = "0." + String(repeating: "0", count: 3 - digits.count) + digits
            XCTAssertEqual(QualityList.qvalue(text), Double(text), text)
        }
    }

    func testListParsing() {
        typealias E = QualityList.Element
        let table: [(String, [E])] = [
            ("gzip", [E(value: "gzip", quality: 1)]),
            ("GZip;Q=0.5", [E(value: "gzip", quality: 0.5)]),
            ("br;q=1, gzip;q=0.8", [E(value: "br", quality: 1), E(value: "gzip", quality: 0.8)]),
            (" text/csv ; charset=utf-8 ; q=0.3 ", [E(value: "text/csv", quality: 0.3)]),
            ("text/csv;q = 0.3", [E(value: "text/csv", quality: 0.3)]),
            ("a;q=0.5;q=0.7", [E(value: "a", quality: 0.7)]),
            ("a;level=1;q=0", [E(value: "a", quality: 0)]),
            ("a;q", [E(value: "a", quality: 1)]),
            ("a, , b", [E(value: "a", quality: 1), E(value: "b", quality: 1)]),
            (";q=0.5, b", [E(value: "b", quality: 1)]),
            // An invalid weight leaves its element out, and only it.
            ("gzip;q=2, br", [E(value: "br", quality: 1)]),
            ("a;q=0.5000, b;q=.5, c;q=abc, d;q=, e;q=0.5;q=7, f;q=1", [E(value: "f", quality: 1)]),
            ("", []),
        ]
        for (header, expected) in table {
            XCTAssertEqual(QualityList.parse(header), expected, header)
        }
    }

    func testAcceptDecisions() throws {
        let offered: [ResponseFormat] = [.json, .csv]
        let table: [(String?, ResponseFormat?)] = [
            (nil, .json), ("", .json), ("   ", .json), ("*/*", .json), ("text/csv", .csv), ("TEXT/CSV", .csv),
            ("text/*", .csv), ("application/*", .json), ("text/csv; charset=utf-8", .csv),
            ("application/json;q=0.5, text/csv;q=0.9", .csv), ("text/csv;q=0, */*", .json),
            ("*/*;q=0.1, text/csv;q=0.05", .json), ("application/json;q=0, text/csv;q=0", nil), ("image/png", nil),
            ("text/csv;Q=0.5, application/json;q=0.4", .csv), ("text/csv;q=0.5, application/json;q=0.5", .json),
            // Invalid weights: the element is absent.
            ("text/csv;q=2", nil), ("text/csv;q=2, */*;q=0.1", .json), ("application/json;q=abc, text/csv;q=0.1", .csv),
            ("text/csv;q=0.5000", nil), ("foo", nil),
        ]
        for (header, expected) in table {
            let chosen = try? Negotiation.format(query: nil, accept: header, offered: offered)
            XCTAssertEqual(chosen, expected, header ?? "no Accept")
        }
    }

    /// An invalid weight means the same in both headers: the element is absent.
    func testInvalidWeightIsAbsentInBothHeaders() throws {
        for weight in ["2", "1.5", "abc", "0.5000", ".5", "-1", "", "1e0"] {
            XCTAssertFalse(Negotiation.acceptsGzip("gzip;q=\(weight)"), weight)
            XCTAssertTrue(Negotiation.acceptsGzip("gzip;q=\(weight), *"), "\(weight): `*` decides")
            XCTAssertFalse(Negotiation.acceptsGzip("gzip;q=\(weight), *;q=0"), weight)
            XCTAssertNil(try? Negotiation.format(query: nil, accept: "text/csv;q=\(weight)", offered: [.json, .csv]), weight)
            XCTAssertEqual(try Negotiation.format(query: nil, accept: "text/csv;q=\(weight), */*", offered: [.json, .csv]),
                           .json, "\(weight): `*/*` decides")
        }
    }

    // MARK: The parsers before, for valid headers

    /// `Gzip.accepted` before the shared parser.
    static func formerAcceptsGzip(_ header: String) -> Bool {
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

    /// `Negotiation.parseAccept` before the shared parser, as (type, subtype, quality).
    static func formerParseAccept(_ header: String) -> [String] {
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
            return "\(mediaType[..<slash].lowercased()) \(mediaType[mediaType.index(after: slash)...].lowercased()) \(quality)"
        }
    }

    static let validWeights = ["", ";q=0", ";q=1", ";q=0.5", ";Q=0.7", ";q=0.001", ";q=1.000", " ; q=0.25", ";q=0.", ";q=0.000"]

    /// Every list of up to three elements from these values and valid weights.
    static func lists(_ values: [String], parameters: [String] = [""]) -> [String] {
        let elements = values.flatMap { value in
            parameters.flatMap { parameter in validWeights.map { value + parameter + $0 } }
        }
        var lists = elements
        for a in elements {
            for b in elements.prefix(40) { lists.append(a + ", " + b) }
            lists.append(a + "," + elements[(a.count * 7) % elements.count] + " ,  " + elements[(a.count * 13) % elements.count])
        }
        return lists
    }

    func testSameDecisionsAsBeforeForValidAcceptEncoding() {
        let lists = Self.lists(["gzip", "x-gzip", "GZIP", "*", "br", "identity", "deflate"])
        XCTAssertGreaterThan(lists.count, 2500)
        for header in lists {
            XCTAssertEqual(Negotiation.acceptsGzip(header), Self.formerAcceptsGzip(header), header)
        }
    }

    func testSameRangesAsBeforeForValidAccept() {
        let lists = Self.lists(["application/json", "text/csv", "TEXT/CSV", "text/*", "*/*", "image/png", "application/*"],
                               parameters: ["", ";charset=utf-8", "; level=1"])
        XCTAssertGreaterThan(lists.count, 8000)
        for header in lists {
            XCTAssertEqual(Negotiation.parseAccept(header).map { "\($0.type) \($0.subtype) \($0.quality)" },
                           Self.formerParseAccept(header), header)
        }
    }
}

extension NegotiationTests {
    /// The values answered without parsing agree with the parse, and `*/*` picks what the full
    /// negotiation picks.
    func testFastPathsAgreeWithTheRule() throws {
        for header in ["gzip", "gzip, deflate", "deflate, gzip", "gzip, deflate, br", "gzip, deflate, br, zstd", "identity", ""] {
            XCTAssertEqual(Negotiation.acceptsGzip(header), Negotiation.parsedAcceptsGzip(header), header)
        }
        for offered: [ResponseFormat] in [[.json, .csv, .svg, .css, .waapi], [.json, .csv, .svg, .css, .waapi, .lottie]] {
            XCTAssertEqual(try Negotiation.format(query: nil, accept: "*/*", offered: offered),
                           try Negotiation.format(query: nil, accept: "*/*;q=1", offered: offered))
        }
    }
}
