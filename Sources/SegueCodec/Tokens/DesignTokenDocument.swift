import SegueJSON

/// A design-token document in the W3C Design Tokens Community Group format, as `POST /v1/tokens`
/// reads it (docs/tokens.md): nested groups, tokens (objects with `$value`), `$type` inherited
/// from the nearest group that sets it, and aliases — a string `"{group.token}"` standing for
/// another token's value — resolved wherever they appear in a value.
///
/// Edge cases: members whose names start with `$` are a group's or token's properties, never
/// groups; an alias to a group or to nothing, a cycle of aliases and a chain longer than
/// `maxAliasChain` are problems at the alias.
struct DesignTokenDocument {
    /// One token: where it is, its dotted path, its type (own, else its group's, else its alias
    /// target's) and its value with every alias resolved.
    struct Token {
        var path: [String]
        var pointer: JSONPointer
        var type: String?
        var value: JSONValue
        /// `$extensions`, if any.
        var extensions: JSONValue?
    }

    /// Aliases followed in a row, at most: a longer chain is a problem at its start, so that
    /// neither the recursion nor the work grows with the document.
    static let maxAliasChain = 32

    private(set) var tokens: [Token] = []
    /// Problems found while reading (aliases that do not resolve), with their pointers.
    private(set) var errors: [(pointer: JSONPointer, detail: String)] = []

    /// The raw tokens by dotted path: what aliases point at.
    private var byPath: [String: (value: JSONValue, type: String?, pointer: JSONPointer)] = [:]

    /// - resolving: which tokens, by type, have their aliases resolved (and their problems
    ///   reported); the others are kept as they are.
    init(_ root: JSONValue, resolving: (String?) -> Bool) {
        var raw: [(path: [String], pointer: JSONPointer, type: String?, value: JSONValue, extensions: JSONValue?)] = []
        Self.collect(root, path: [], pointer: .root, inherited: nil, into: &raw)
        for token in raw { byPath[token.path.joined(separator: ".")] = (token.value, token.type, token.pointer) }
        for token in raw {
            let type = token.type ?? aliasType(token.value)
            guard resolving(type) else { continue }
            var visiting: Set<String> = [token.path.joined(separator: ".")]
            guard let value = resolve(token.value, at: token.pointer / "$value", visiting: &visiting) else { continue }
            tokens.append(Token(path: token.path, pointer: token.pointer, type: type, value: value, extensions: token.extensions))
        }
    }

    /// Every token under `value`, depth first in document order.
    private static func collect(_ value: JSONValue, path: [String], pointer: JSONPointer, inherited: String?,
                                into tokens: inout [(path: [String], pointer: JSONPointer, type: String?, value: JSONValue,
                                                     extensions: JSONValue?)]) {
        guard case .object(let members) = value else { return }
        var type = inherited
        if case .string(let own)? = members.first(where: { $0.key == "$type" })?.value { type = own }
        if let tokenValue = members.first(where: { $0.key == "$value" })?.value {
            tokens.append((path, pointer, type, tokenValue, members.first { $0.key == "$extensions" }?.value))
            return
        }
        for member in members where !member.key.hasPrefix("$") {
            collect(member.value, path: path + [member.key], pointer: pointer / member.key, inherited: type, into: &tokens)
        }
    }

    /// The dotted path of an alias `"{a.b}"`, or nil for any other value.
    static func alias(_ value: JSONValue) -> String? {
        guard case .string(let text) = value, text.count > 2, text.first == "{", text.last == "}" else { return nil }
        let inner = text.dropFirst().dropLast()
        guard !inner.contains("{"), !inner.contains("}") else { return nil }
        return String(inner)
    }

    /// The type of the token an alias value points at (followed through further aliases).
    private func aliasType(_ value: JSONValue) -> String? {
        var seen: Set<String> = []
        var current = value
        while let path = Self.alias(current), seen.insert(path).inserted, let target = byPath[path] {
            if let type = target.type { return type }
            current = target.value
        }
        return nil
    }

    /// `value` with every alias replaced by its target's resolved value; nil (and an error) when
    /// one points nowhere or into a cycle.
    private mutating func resolve(_ value: JSONValue, at pointer: JSONPointer, visiting: inout Set<String>) -> JSONValue? {
        if let path = Self.alias(value) {
            guard let target = byPath[path] else {
                errors.append((pointer, "the alias `{\(path.prefix(200))}` names no token"))
                return nil
            }
            guard visiting.insert(path).inserted else {
                errors.append((pointer, "the alias `{\(path.prefix(200))}` is part of a cycle of aliases"))
                return nil
            }
            guard visiting.count <= Self.maxAliasChain else {
                errors.append((pointer, "the alias `{\(path.prefix(200))}` starts a chain of more than \(Self.maxAliasChain) aliases"))
                return nil
            }
            defer { visiting.remove(path) }
            return resolve(target.value, at: pointer, visiting: &visiting)
        }
        switch value {
        case .object(let members):
            var out: [JSONValue.Member] = []
            for member in members {
                guard let resolved = resolve(member.value, at: pointer / member.key, visiting: &visiting) else { return nil }
                out.append(.init(member.key, resolved))
            }
            return .object(out)
        case .array(let elements):
            var out: [JSONValue] = []
            for (i, element) in elements.enumerated() {
                guard let resolved = resolve(element, at: pointer / i, visiting: &visiting) else { return nil }
                out.append(resolved)
            }
            return .array(out)
        default:
            return value
        }
    }
}
