import SegueJSON

/// A number of an expansion, computed from the container [x, y, w, h] and the parameters. It is
/// evaluated for a request and written as its formula in the catalogue ("y + 0.6·h"), so the
/// two cannot disagree.
indirect enum Quantity: Sendable, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    enum Side: Sendable { case x, y, w, h }

    case constant(Double)
    /// One of the container's four numbers.
    case container(Side)
    /// A numeric parameter, or one component of a point parameter ([x, y]).
    case parameter(String, component: Int?)
    case sum(Quantity, Quantity)
    /// factor · quantity.
    case scaled(Double, Quantity)
    /// The product of two quantities (a parameter times a side of the container).
    case product(Quantity, Quantity)
    /// factor · π, an angle in radians.
    case pi(Double)

    static let x = Quantity.container(.x)
    static let y = Quantity.container(.y)
    static let w = Quantity.container(.w)
    static let h = Quantity.container(.h)
    /// The container's mid x, x + w/2.
    static let midX = Quantity.x + 0.5 * .w

    init(integerLiteral value: Int) { self = .constant(Double(value)) }
    init(floatLiteral value: Double) { self = .constant(value) }

    static func + (a: Quantity, b: Quantity) -> Quantity { .sum(a, b) }
    static func * (factor: Double, quantity: Quantity) -> Quantity { .scaled(factor, quantity) }

    func value(_ environment: PresetEnvironment) -> Double {
        switch self {
        case .constant(let value): value
        case .container(let side): environment.container[side]
        case .parameter(let name, let component): environment.number(name, component: component)
        case .sum(let a, let b): a.value(environment) + b.value(environment)
        case .scaled(let factor, let quantity): factor * quantity.value(environment)
        case .product(let a, let b): a.value(environment) * b.value(environment)
        case .pi(let factor): factor * Double.pi
        }
    }

    /// The notation as a factor of a product: a sum in parentheses.
    var factorNotation: String {
        guard case .sum = self else { return notation }
        return "(" + notation + ")"
    }

    /// The formula: "x + w/2", "closed.y - 10", "0.04·distance", "-1.5π".
    var notation: String {
        switch self {
        case .constant(let value):
            return NumberRange.text(value)
        case .container(let side):
            return "\(side)"
        case .parameter(let name, let component):
            return component.map { name + ($0 == 0 ? ".x" : ".y") } ?? name
        case .sum(let a, .constant(0)):
            return a.notation
        case .sum(let a, .constant(let value)) where value < 0:
            return "\(a.notation) - \(NumberRange.text(-value))"
        case .sum(let a, .scaled(let factor, let b)) where factor < 0:
            return "\(a.notation) - \(Quantity.scaled(-factor, b).notation)"
        case .sum(let a, let b):
            return "\(a.notation) + \(b.notation)"
        case .scaled(0, _):
            return "0"
        case .scaled(1, let quantity):
            return quantity.notation
        case .scaled(0.5, let quantity):
            return quantity.notation + "/2"
        case .scaled(let factor, let quantity):
            return NumberRange.text(factor) + "·" + quantity.notation
        case .product(let a, let b):
            return [a, b].map(\.factorNotation).joined(separator: "·")
        case .pi(let factor):
            return (factor == 1 ? "" : factor == -1 ? "-" : NumberRange.text(factor)) + "π"
        }
    }
}

/// A JSON value of an expansion, built from literals, numbers computed by `Quantity` and the
/// parameters' values. It is evaluated for a request and written in the catalogue's notation:
/// `{frame: container, alpha: 1}`, strings bare, a member that holds the parameter of its own
/// name by that name alone (`{duration, timing}`).
indirect enum Template: Sendable, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
                        ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral {
    typealias Members = [(String, Template)]

    case literal(JSONValue)
    case number(Quantity)
    /// The parameter's value: as given (checked), its default, or its computed default.
    case parameter(String)
    case array([Template])
    case object(Members)
    /// The container [x, y, w, h].
    case container

    init(integerLiteral value: Int) { self = .number(.constant(Double(value))) }
    init(floatLiteral value: Double) { self = .number(.constant(value)) }
    init(stringLiteral value: String) { self = .literal(.string(value)) }
    init(booleanLiteral value: Bool) { self = .literal(.bool(value)) }
    init(arrayLiteral elements: Template...) { self = .array(elements) }

    static func numbers(_ quantities: [Quantity]) -> Template { .array(quantities.map(Template.number)) }
    /// The container moved down by dy: [x, y + dy, w, h].
    static func frame(dy: Quantity) -> Template { .numbers([.x, .y + dy, .w, .h]) }
    /// The container moved right by dx: [x + dx, y, w, h].
    static func frame(dx: Quantity) -> Template { .numbers([.x + dx, .y, .w, .h]) }
    /// The container's centre, [x + w/2, y + h/2].
    static let center = Template.numbers([.midX, .y + 0.5 * .h])
    /// A view as large as the container, [0, 0, w, h].
    static let bounds = Template.numbers([0, 0, .w, .h])

    func value(_ environment: PresetEnvironment) -> JSONValue {
        switch self {
        case .literal(let value): value
        case .number(let quantity): .number(quantity.value(environment))
        case .parameter(let name): environment.value(name)
        case .array(let elements): .array(elements.map { $0.value(environment) })
        case .object(let members): .object(members.map { JSONValue.Member($0.0, $0.1.value(environment)) })
        case .container: environment.container.json
        }
    }

    var notation: String {
        switch self {
        case .literal(let value): Self.notation(value)
        case .number(let quantity): quantity.notation
        case .parameter(let name): name
        case .array(let elements): "[" + elements.map(\.notation).joined(separator: ", ") + "]"
        case .object(let members): Self.notation(members)
        case .container: "container"
        }
    }

    /// `{key: value, …}`, a member holding the parameter of its own name written as the name.
    static func notation(_ members: Members) -> String {
        let written = members.map { key, value in
            if case .parameter(key) = value { return key }
            return "\(key): \(value.notation)"
        }
        return "{" + written.joined(separator: ", ") + "}"
    }

    static func notation(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .number(let number): NumberRange.text(number)
        case .string(let text): text
        case .array(let elements): "[" + elements.map(notation).joined(separator: ", ") + "]"
        case .object(let members): "{" + members.map { "\($0.key): \(notation($0.value))" }.joined(separator: ", ") + "}"
        }
    }
}

/// What a preset's templates are evaluated in: the container and the parameters read so far, each
/// as it appears in the expansion.
struct PresetEnvironment {
    let container: Container
    var parameters: [String: JSONValue] = [:]

    func value(_ name: String) -> JSONValue {
        guard let value = parameters[name] else { preconditionFailure("`\(name)` is used before it is read") }
        return value
    }

    /// A numeric parameter, or a component of a point parameter.
    func number(_ name: String, component: Int?) -> Double {
        switch (value(name), component) {
        case (.number(let number), nil):
            return number
        case (.array(let elements), let component?):
            guard case .number(let number) = elements[component] else { preconditionFailure("`\(name)` is not a point") }
            return number
        default:
            preconditionFailure("`\(name)` is not a number")
        }
    }
}

extension Container {
    subscript(side: Quantity.Side) -> Double {
        switch side {
        case .x: x
        case .y: y
        case .w: w
        case .h: h
        }
    }
}
