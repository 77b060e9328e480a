import Foundation
import XCTest
@testable import SegueHTTP
import SegueOpenAPIDocument

/// openapi.yaml is the contract as implemented: the served copy is the file, every route is in it
/// with every method, nothing else is, and the document is valid OpenAPI 3.1.
final class OpenAPITests: XCTestCase {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let documentURL = packageRoot.appendingPathComponent("openapi.yaml")

    func document() throws -> String {
        try String(contentsOf: Self.documentURL, encoding: .utf8)
    }

    /// (a) The embedded document is openapi.yaml byte for byte: the resource is a symbolic link to
    /// the top-level file (one copy in git), and SwiftPM's `embedInCode` follows it.
    func testEmbeddedDocumentEqualsFile() throws {
        let file = try Data(contentsOf: Self.documentURL)
        XCTAssertEqual(Data(OpenAPIDocument.bytes), file)
        let resource = Self.packageRoot.appendingPathComponent("Sources/SegueOpenAPIDocument/Resources/openapi.yaml").path
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: resource), "../../../openapi.yaml",
                       "Sources/SegueOpenAPIDocument/Resources/openapi.yaml must stay a link to the top-level openapi.yaml")
    }

    /// (a) … and `GET /openapi.yaml` serves exactly those bytes as application/yaml.
    func testServedDocumentEqualsFile() throws {
        let response = SegueService().respond(to: HTTPRequest(method: "GET", path: "/openapi.yaml"))
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "application/yaml")
        XCTAssertEqual(Data(response.body), try Data(contentsOf: Self.documentURL))
    }

    /// The `paths:` section as path → methods, by a line scan: paths are the keys indented by
    /// two spaces, operations the HTTP-method keys indented by four.
    static func documentedPaths(_ text: String) -> [String: Set<String>] {
        let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
        var paths: [String: Set<String>] = [:]
        var inPaths = false
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") && !line.isEmpty {
                inPaths = line.hasPrefix("paths:")
                current = nil
                continue
            }
            guard inPaths else { continue }
            let isPathKey = line.hasPrefix("  /") || line.hasPrefix("  '/") || line.hasPrefix("  \"/")
            if isPathKey, let colon = line.lastIndex(of: ":") {
                var key = line[line.index(line.startIndex, offsetBy: 2)..<colon]
                    .trimmingCharacters(in: .whitespaces)
                if key.count >= 2, let quote = key.first, quote == "'" || quote == "\"", key.last == quote {
                    key = String(key.dropFirst().dropLast())
                }
                current = key
                paths[key, default: []] = []
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), let path = current {
                let key = line.dropFirst(4).prefix { $0 != ":" }
                if methods.contains(String(key)) { paths[path]?.insert(String(key)) }
            }
        }
        return paths
    }

    /// (b) Every route is documented with each of its methods (plus HEAD wherever GET, and
    /// OPTIONS), and the document lists nothing the service does not answer.
    func testRoutesMatchDocumentedPaths() throws {
        let documented = Self.documentedPaths(try document())
        XCTAssertFalse(documented.isEmpty, "no paths found in openapi.yaml")
        let routes = SegueService.paths
        for (path, methods) in routes {
            guard let listed = documented[path] else {
                XCTFail("route \(path) is missing from openapi.yaml")
                continue
            }
            var expected = Set(methods.map { $0.lowercased() })
            if expected.contains("get") { expected.insert("head") }
            expected.insert("options")
            XCTAssertEqual(listed, expected, "methods of \(path) in openapi.yaml")
        }
        for path in documented.keys where routes[path] == nil {
            XCTFail("openapi.yaml lists \(path), which is not a route")
        }
    }

    /// The line scan itself, on a fragment with quoted keys and nested members.
    func testPathScan() {
        let text = """
        openapi: 3.1.0
        paths:
          /a:
            description: x
            get:
              responses: {}
          '/b':
            post:
              get: not an operation
            options:
        components:
          /c:
            get:
        """
        XCTAssertEqual(Self.documentedPaths(text), ["/a": ["get"], "/b": ["post", "options"]])
    }

    /// (c) The document validates (openapi-spec-validator 3.1, examples against their schemas).
    func testDocumentValidates() throws {
        let root = Self.packageRoot
        let python = root.appendingPathComponent(".venv/bin/python")
        let help = "the OpenAPI validator is not installed: run `make test` (it runs `python3 -m venv .venv && "
            + ".venv/bin/pip install openapi-spec-validator pyyaml`)"
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            XCTFail(help)
            return
        }
        let probe = try run(python, ["-c", "import openapi_spec_validator, yaml"], in: root)
        guard probe.status == 0 else {
            XCTFail(help + "\n" + probe.output)
            return
        }
        let check = try run(python, ["scripts/openapi-check.py", "openapi.yaml"], in: root)
        XCTAssertEqual(check.status, 0, "scripts/openapi-check.py openapi.yaml failed:\n" + check.output)
    }

    func run(_ executable: URL, _ arguments: [String], in directory: URL) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
