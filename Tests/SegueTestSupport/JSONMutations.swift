import SegueJSON

/// A document made invalid on purpose, with the verdict the reader must give: the mutation knows
/// which token it broke, so the expected failure kind and pointer need no second parser.
public struct Mutant {
    public var bytes: [UInt8]
    /// The kind of mutation, for counts and failure messages.
    public var label: String
    /// The expected failure kind, or nil when any is right.
    public var kind: String?
    /// The expected pointer path, or nil when not predicted.
    public var path: [String]?
    /// Why JSONSerialization may accept it (a documented leniency), or nil when it must refuse it.
    public var foundationMayAccept: String?
}

/// The ways of making a generated document invalid, each against RFC 8259 or the reader's policy
/// (UTF-8 only, no duplicate names, finite numbers, at most 64 levels) at a place it knows, so
/// that it predicts the failure.
public enum InvalidMutation: CaseIterable {
    case truncate, insertGarbage, trailingComma, invalidUTF8, loneSurrogate, nonFiniteOrMalformedNumber,
         leadingZero, numberOutOfRange, duplicateName, invalidEscape, controlCharacter, badLiteral,
         unquotedName, forbiddenByte, trailingData, tooDeep, emptyDocument

    /// The mutant, or nil when the document offers no place for this mutation (the caller draws
    /// another document).
    public func apply(to doc: GeneratedDocument, _ rng: inout SplitMix64) -> Mutant? {
        var bytes = doc.text
        switch self {
        case .truncate:
            // A proper prefix that ends before the top-level container's closing bracket (or a
            // top-level string's closing quote) can never be a complete document.
            let end: Int
            switch doc.value {
            case .array, .object: end = doc.containers.first { $0.path.isEmpty }!.close
            case .string: end = doc.strings.first { $0.path.isEmpty }!.close
            default: return nil
            }
            return Mutant(bytes: Array(bytes[..<rng.below(end + 1)]), label: "truncated", kind: "malformed-json", path: nil)

        case .insertGarbage:
            // A byte sequence that no JSON text contains outside a string.
            let garbage = rng.pick(["#", "@", ",", ":", "]", "}", "x", "'", "\\", "=", ";", "/", "*", "//c\n", "/*c*/",
                                    "\u{0}", "\u{1}", "\u{7F}", "\u{A0}", "\u{FEFF}", "NaN", "undefined", "+", ".",
                                    "True", "(", ")", "<", "\u{3000}", "\u{B}", "\u{C}", "e"])
            let at = rng.pick(doc.gaps)
            bytes.insert(contentsOf: garbage.utf8, at: at)
            // A comma may complete a trailing comma, which Foundation accepts.
            return Mutant(bytes: bytes, label: "garbage \(garbage.debugDescription)", kind: "malformed-json", path: nil,
                          foundationMayAccept: garbage == "," ? foundationLeniency(bytes) : encodingLeniency(bytes))

        case .trailingComma:
            guard let container = doc.containers.randomElement(&rng) else { return nil }
            bytes.insert(0x2C, at: container.close)
            return Mutant(bytes: bytes, label: container.count == 0 ? "comma in empty container" : "trailing comma",
                          kind: "malformed-json",
                          path: container.isObject ? container.path : container.path + [String(container.count)],
                          foundationMayAccept: container.count > 0 ? "trailing comma" : nil)

        case .invalidUTF8:
            guard let site = doc.strings.randomElement(&rng) else { return nil }
            let sequence = rng.pick(badUTF8)
            bytes.insert(contentsOf: sequence, at: rng.chance(0.5) ? site.open + 1 : site.close)
            return Mutant(bytes: bytes, label: "invalid UTF-8", kind: "invalid-utf8", path: site.path)

        case .loneSurrogate:
            guard let site = doc.strings.randomElement(&rng) else { return nil }
            // (escape, may stand at the start of the content): there a following `\uDC00…` of the
            // original content could complete a lone high half, so those go before the closing quote.
            let (escape, startAllowed) = rng.pick([(#"\uD800"#, false), (#"\udbff"#, false), (#"\uDC00"#, true),
                                                   (#"\uDFFF"#, true), (#"\uD83D\u0041"#, false), (#"\uD83Dx"#, false),
                                                   (#"\uDE00\uD83D"#, true), (#"\uD83D\uD83D"#, false), (#"\ud83d\n"#, false),
                                                   (#"\uD83D\"#, false), (#"\udc00\udc00"#, true)])
            bytes.insert(contentsOf: escape.utf8, at: startAllowed && rng.chance(0.5) ? site.open + 1 : site.close)
            return Mutant(bytes: bytes, label: "lone surrogate", kind: "malformed-json", path: site.path)

        case .nonFiniteOrMalformedNumber:
            guard let site = doc.numbers.randomElement(&rng) else { return nil }
            let replacement = rng.pick(["NaN", "-NaN", "Infinity", "-Infinity", "+Infinity", "nan", "inf", "-inf", "+1",
                                        "+0", ".5", "-.5", "1.", "-", "1e", "1e+", "1E-", "0x1A", "1_000", "1.5.2", "--1",
                                        "1e1.5", "-Infinity1", "1.e5", "٣", "１"])
            bytes.replaceSubrange(site.range, with: replacement.utf8)
            let pointed = !["0x1A", "1_000", "1.5.2", "1e1.5"].contains(replacement)
            return Mutant(bytes: bytes, label: "number \(replacement)", kind: "malformed-json",
                          path: pointed ? site.path : nil)

        case .leadingZero:
            guard let site = doc.numbers.randomElement(&rng) else { return nil }
            bytes.insert(0x30, at: bytes[site.range.lowerBound] == 0x2D ? site.range.lowerBound + 1 : site.range.lowerBound)
            return Mutant(bytes: bytes, label: "leading zero", kind: "malformed-json", path: site.path)

        case .numberOutOfRange:
            guard let site = doc.numbers.randomElement(&rng) else { return nil }
            let replacement = rng.pick(["1e400", "-1e400", "1e309", "1.8e308", "-1.7976931348623159e308",
                                        "123456789e999999999999", "1" + String(repeating: "0", count: 400), "0.1e310",
                                        "-" + String(repeating: "9", count: 310) + ".5"])
            bytes.replaceSubrange(site.range, with: replacement.utf8)
            return Mutant(bytes: bytes, label: "out of range \(replacement.prefix(12))", kind: "number-out-of-range", path: site.path,
                          foundationMayAccept: replacement.hasPrefix("1000") || replacement.hasPrefix("-999") ? "decimal literal" : nil)

        case .duplicateName:
            guard let object = doc.containers.filter({ $0.isObject && $0.count > 0 }).randomElement(&rng) else { return nil }
            let key = rng.pick(object.keys)
            bytes.insert(contentsOf: [0x2C] + key.text + Array(":0".utf8), at: object.close)
            return Mutant(bytes: bytes, label: "duplicate name", kind: "malformed-json", path: object.path + [key.name],
                          foundationMayAccept: "duplicate names")

        case .invalidEscape:
            guard let site = doc.strings.randomElement(&rng) else { return nil }
            let escape = rng.pick([#"\x41"#, #"\U0041"#, #"\u12"#, #"\u12G4"#, #"\'"#, #"\a"#, #"\0"#, #"\v"#, #"\ "#,
                                   #"\u-123"#, #"\u{41}"#, #"\e"#, "\\\u{E9}", #"\u"#])
            bytes.insert(contentsOf: escape.utf8, at: site.close)
            return Mutant(bytes: bytes, label: "invalid escape", kind: "malformed-json", path: site.path)

        case .controlCharacter:
            guard let site = doc.strings.randomElement(&rng) else { return nil }
            bytes.insert(UInt8(rng.below(0x20)), at: rng.chance(0.5) ? site.open + 1 : site.close)
            return Mutant(bytes: bytes, label: "control character", kind: "malformed-json", path: site.path)

        case .badLiteral:
            guard let site = doc.literals.randomElement(&rng) else { return nil }
            let replacement = rng.pick(["tru", "True", "TRUE", "nul", "NULL", "Null", "fals", "False", "undefined", "nil",
                                        "t", "n", "f", "truefalse", "nulll", "None", "yes"])
            bytes.replaceSubrange(site.range, with: replacement.utf8)
            let pointed = !["truefalse", "nulll"].contains(replacement)
            return Mutant(bytes: bytes, label: "literal \(replacement)", kind: "malformed-json", path: pointed ? site.path : nil)

        case .unquotedName:
            guard let object = doc.containers.filter({ $0.isObject && $0.count > 0 }).randomElement(&rng),
                  let site = doc.strings.first(where: { $0.open > object.open && $0.path == object.path && $0.open < object.close })
            else { return nil }
            if rng.chance(0.5) {
                bytes[site.open] = 0x27
                bytes[site.close] = 0x27
            } else {
                bytes.remove(at: site.close)
                bytes.remove(at: site.open)
            }
            return Mutant(bytes: bytes, label: "unquoted name", kind: "malformed-json", path: object.path)

        case .forbiddenByte:
            // Bytes that are invalid wherever they stand: never in UTF-8, or a control character.
            let at = rng.below(bytes.count)
            let isASCII = bytes[at] < 0x80
            let replacement: UInt8
            switch rng.below(3) {
            case 0: replacement = rng.pick([0xC0, 0xC1, 0xF5, 0xF8, 0xFE, 0xFF])
            case 1: replacement = rng.pick([0x00, 0x01, 0x08, 0x0B, 0x0C, 0x1B, 0x1F])
            default:
                guard isASCII else { return nil }
                replacement = UInt8(0x80 + rng.below(0x40))  // a stray continuation byte
            }
            bytes[at] = replacement
            return Mutant(bytes: bytes, label: "forbidden byte", kind: nil, path: nil, foundationMayAccept: encodingLeniency(bytes))

        case .trailingData:
            let tail = rng.pick([" 1", "{}", " []", "x", ",", "]", "}", " \"s\"", " null", "#", "\u{0}", " ,", "\u{FEFF}"])
            bytes.append(contentsOf: tail.utf8)
            return Mutant(bytes: bytes, label: "trailing \(tail.debugDescription)", kind: "malformed-json", path: [],
                          foundationMayAccept: encodingLeniency(bytes))

        case .tooDeep:
            // 65 levels around the document, or deeper than 64 inside an existing container.
            let levels = 64 + 1 + rng.below(3)
            let wrapped = Array(String(repeating: "[", count: levels).utf8) + bytes + Array(String(repeating: "]", count: levels).utf8)
            return Mutant(bytes: wrapped, label: "nesting over 64", kind: "nesting-too-deep",
                          path: Array(repeating: "0", count: 64), foundationMayAccept: "deeper than 64 (its limit is 512)")

        case .emptyDocument:
            let text = rng.pick(["", " ", "\n", "\r\n\t ", "\t"])
            return Mutant(bytes: Array(text.utf8), label: "empty", kind: "malformed-json", path: [])
        }
    }
}

/// Byte sequences that are never well-formed UTF-8 (RFC 3629): overlong, surrogate, out of range,
/// truncated or stray.
private let badUTF8: [[UInt8]] = [
    [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xC2], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80],
    [0xED, 0xBF, 0xBF], [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80],
    [0xF5, 0x80, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xFE], [0xFF], [0xE2, 0x82], [0xF0, 0x9F, 0x98],
    [0xE2, 0x28, 0xA1], [0xC3, 0xA9, 0xA9],
]

extension Array {
    fileprivate func randomElement(_ rng: inout SplitMix64) -> Element? { isEmpty ? nil : self[rng.below(count)] }
}

/// One random byte-level edit (the result may or may not be valid JSON): documents whose validity
/// is not known up front, for a comparison with the reference parser.
public func randomEdit(_ bytes: inout [UInt8], _ rng: inout SplitMix64) {
    let interesting: [UInt8] = Array("{}[]\":,\\/ 0123456789-+.eEtrufalsn".utf8) + [0x00, 0x09, 0x0A, 0x1F, 0x7F, 0x80, 0xC3, 0xE2, 0xED, 0xF0, 0xFF]
    func randomByte() -> UInt8 { rng.chance(0.7) ? rng.pick(interesting) : UInt8(truncatingIfNeeded: rng.next()) }
    let at = bytes.isEmpty ? 0 : rng.below(bytes.count)
    switch rng.below(6) {
    case 0 where !bytes.isEmpty: bytes[at] = randomByte()
    case 1: bytes.insert(randomByte(), at: rng.below(bytes.count + 1))
    case 2 where !bytes.isEmpty: bytes.remove(at: at)
    case 3 where bytes.count > 1:
        let other = rng.below(bytes.count)
        bytes.swapAt(at, other)
    case 4 where !bytes.isEmpty:
        let end = Swift.min(bytes.count, at + 1 + rng.below(8))
        bytes.insert(contentsOf: bytes[at..<end], at: rng.below(bytes.count + 1))
    default:
        if !bytes.isEmpty { bytes[at] ^= UInt8(1) << UInt8(rng.below(8)) }
    }
}
