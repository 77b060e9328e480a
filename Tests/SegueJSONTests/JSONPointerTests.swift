import XCTest
@testable import SegueJSON

/// `JSONPointer` keeps its RFC 6901 text: components escaped as they are appended (§3: `~` as
/// `~0`, `/` as `~1`, in that order of meaning), built the same way from a list or step by step.
final class JSONPointerTests: XCTestCase {
    func testTextEscapesEachComponent() {
        XCTAssertEqual(JSONPointer.root.description, "")
        XCTAssertEqual((JSONPointer.root / "timing" / "p1" / 0).description, "/timing/p1/0")
        XCTAssertEqual((JSONPointer.root / "a/b" / "m~n" / "~1" / "").description, "/a~1b/m~0n/~01/")
        XCTAssertEqual((JSONPointer.root / "é\u{301}/x").description, "/é\u{301}~1x", "per scalar, not per Character")
        XCTAssertEqual(JSONPointer(["views", "a/b", "x"]), JSONPointer.root / "views" / "a/b" / "x")
        // Components without escapes are joined in one piece: non-ASCII and long text alike.
        XCTAssertEqual((JSONPointer.root / "é" / "日本" / String(repeating: "k", count: 40)).description,
                       "/é/日本/" + String(repeating: "k", count: 40))
    }

    func testEqualityIsByComponents() {
        // Escaping is one-to-one: different components never give the same text.
        XCTAssertNotEqual(JSONPointer(["a/b"]), JSONPointer(["a", "b"]))
        XCTAssertNotEqual(JSONPointer(["~1"]), JSONPointer(["/"]))
        XCTAssertEqual(JSONPointer(["~1"]).description, "/~01")
        XCTAssertEqual(JSONPointer(["/"]).description, "/~1")
    }

    func testDisplay() {
        XCTAssertEqual(JSONPointer.root.display, "the body")
        XCTAssertEqual((JSONPointer.root / "duration").display, "`/duration`")
    }
}
