import APIScript
import Foundation
import TypedAPI
import TypistCore
import TypistText

/// What a document allows of one argument beyond its type — JSON Schema's `minimum`/`maximum`
/// (inclusive, or exclusive in 3.0's boolean and 3.1's numeric forms), `minLength`/`maxLength`,
/// `pattern`, `minItems`/`maxItems` — checked before a call is sent, as an enum's values are: a
/// value the document rules out is an error at the argument that says the rule, not a round trip
/// to a `400` that says it in the service's words (or not at all).
package struct ValueConstraints: Sendable, Equatable {
    package var minimum: Double?
    package var exclusiveMinimum = false
    package var maximum: Double?
    package var exclusiveMaximum = false
    package var minLength: Int?
    package var maxLength: Int?
    /// An ECMA-262 regular expression a string must contain a match of (JSON Schema's rule:
    /// not anchored unless it says `^…$`).
    package var pattern: String?
    package var minItems: Int?
    package var maxItems: Int?

    /// The rules of `schema` (already resolved, its `null` alternative set aside); nil when it has none.
    package init?(schema: SpecNode) {
        func number(_ key: String) -> Double? {
            if case .number(let value)? = schema[key] { return value }
            return nil
        }
        func count(_ key: String) -> Int? { number(key).flatMap { $0 >= 0 && $0 < 1e15 ? Int($0) : nil } }
        minimum = number("minimum")
        maximum = number("maximum")
        // 3.1: `exclusiveMinimum: 0` is the bound itself; 3.0: `exclusiveMinimum: true` qualifies `minimum`.
        if let bound = number("exclusiveMinimum") {
            if minimum.map({ bound >= $0 }) ?? true { (minimum, exclusiveMinimum) = (bound, true) }
        } else if schema["exclusiveMinimum"]?.bool == true, minimum != nil {
            exclusiveMinimum = true
        }
        if let bound = number("exclusiveMaximum") {
            if maximum.map({ bound <= $0 }) ?? true { (maximum, exclusiveMaximum) = (bound, true) }
        } else if schema["exclusiveMaximum"]?.bool == true, maximum != nil {
            exclusiveMaximum = true
        }
        minLength = count("minLength").flatMap { $0 > 0 ? $0 : nil }
        maxLength = count("maxLength")
        // A pattern the linear-time matcher cannot read (a backreference, lookaround) is not
        // checked here: the service will. A backtracking engine could take hours on `^(a+)+$`.
        pattern = schema["pattern"]?.string.flatMap { PatternMatcher($0) == nil ? nil : $0 }
        minItems = count("minItems").flatMap { $0 > 0 ? $0 : nil }
        maxItems = count("maxItems")
        if self == ValueConstraints() { return nil }
    }

    /// No rules; ``init(schema:)`` returns nil rather than this.
    package init() {}

    /// Why the document rules out `value` for the argument `label`, or nil when it allows it
    /// (`nil`, and a value of a kind a rule is not about, are allowed). A value that carries a
    /// secret (`secret`) is not quoted.
    package func violation(of value: Value, label: String, secret: Bool) -> String? {
        switch value {
        case .int(let number): return violation(of: Double(number), shown: String(number), label: label)
        case .double(let number): return violation(of: number, shown: SpecNode.text(of: number), label: label)
        case .string(let text), .secret(let text): return violation(of: text, label: label, secret: secret || value.isSecret)
        case .array(let elements):
            if let minItems, elements.count < minItems {
                return "\(label) must have at least \(Self.count(minItems, "element")) (the document's minItems); it has \(elements.count)"
            }
            if let maxItems, elements.count > maxItems {
                return "\(label) may have at most \(Self.count(maxItems, "element")) (the document's maxItems); it has \(elements.count)"
            }
            return nil
        default: return nil
        }
    }

    private func violation(of number: Double, shown: String, label: String) -> String? {
        if let minimum, exclusiveMinimum ? number <= minimum : number < minimum {
            let rule = exclusiveMinimum ? "greater than \(SpecNode.text(of: minimum)) (the document's exclusiveMinimum)"
                : "at least \(SpecNode.text(of: minimum)) (the document's minimum)"
            return "\(label) must be \(rule), not \(shown)"
        }
        if let maximum, exclusiveMaximum ? number >= maximum : number > maximum {
            let rule = exclusiveMaximum ? "less than \(SpecNode.text(of: maximum)) (the document's exclusiveMaximum)"
                : "at most \(SpecNode.text(of: maximum)) (the document's maximum)"
            return "\(label) must be \(rule), not \(shown)"
        }
        return nil
    }

    private func violation(of text: String, label: String, secret: Bool) -> String? {
        // JSON Schema counts code points.
        let length = text.unicodeScalars.count
        if let minLength, length < minLength {
            return "\(label) must be at least \(Self.count(minLength, "character")) long (the document's minLength); it has \(length)"
        }
        if let maxLength, length > maxLength {
            return "\(label) may be at most \(Self.count(maxLength, "character")) long (the document's maxLength); it has \(length)"
        }
        if let pattern, let matcher = PatternMatcher(pattern), !matcher.matches(text) {
            let shown = secret ? "it does not" : "\(ValueFormatter.quoted(TerminalText.sanitized(text))) does not"
            return "\(label) must match the document's pattern \(ValueFormatter.quoted(TerminalText.sanitized(pattern))); \(shown)"
        }
        return nil
    }

    private static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    /// The rules in short, as `:describe` lists them: `1...50`, `> 0`, `at least 2 characters`,
    /// `pattern ^[a-z]+$`.
    package var summary: String {
        var parts: [String] = []
        // A bound at or beyond 2^63 rules out no Int (a document's `maximum: 9223372036854775808`
        // says "any 64-bit count"): it is not a rule worth reading.
        let low = minimum.flatMap { $0 <= -0x1p63 ? nil : SpecNode.text(of: $0) }
        let high = maximum.flatMap { $0 >= 0x1p63 ? nil : SpecNode.text(of: $0) }
        switch (low, high) {
        case (let low?, let high?) where !exclusiveMinimum && !exclusiveMaximum: parts.append("\(low)...\(high)")
        case (let low, let high):
            if let low { parts.append((exclusiveMinimum ? "> " : "≥ ") + low) }
            if let high { parts.append((exclusiveMaximum ? "< " : "≤ ") + high) }
        }
        parts += Self.bounds(minLength, maxLength, "character")
        if let pattern { parts.append("pattern \(TerminalText.sanitized(pattern))") }
        parts += Self.bounds(minItems, maxItems, "element")
        return parts.joined(separator: ", ")
    }

    private static func bounds(_ low: Int?, _ high: Int?, _ noun: String) -> [String] {
        switch (low, high) {
        case (let low?, let high?): ["\(low)...\(high) \(noun)s"]
        case (let low?, nil): ["at least \(count(low, noun))"]
        case (nil, let high?): ["at most \(count(high, noun))"]
        case (nil, nil): []
        }
    }
}

private extension Value {
    var isSecret: Bool {
        if case .secret = self { return true }
        return false
    }
}
