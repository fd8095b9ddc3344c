import Synchronization
/// How to read a response's JSON straight into script values, in one pass, without building the
/// Swift model first.
///
/// A plan exists only for types whose decoding is *transparent*: plain stored properties of `Int`,
/// `Double`, `Bool`, `String`, optionals, arrays, `[String: …]` dictionaries and other transparent
/// records, each read from one key, unchanged. The shell's bridge checks that with a recording
/// probe (TypistCore's `ShapeRecorder`): every property must hold exactly the marker value its key was
/// given, in order, so renamed keys, computed or transformed values, defaults, enums, dates and custom
/// containers all leave the type without a plan, and it goes the typed way (JSONDecoder, then the
/// bridge). A plan gives the same value the bridge would give for the decoded model; whatever
/// it cannot read (a missing key, a wrong type, an escape it doubts) makes it give up, and the
/// typed decoding runs on the same body, so its errors are the usual ones.
package indirect enum ReadingPlan: Sendable {
    case int, double, bool, string
    case optional(ReadingPlan)
    case array(ReadingPlan)
    case dictionary(ReadingPlan)
    case record(RecordPlan)
    /// Any JSON value, read as it is: for types that decode themselves, which scripts see as
    /// dynamic values.
    case dynamic
}

/// The plan of one record type: its fields' JSON keys and plans, by field index.
///
/// Plans are cyclic (a record may contain itself), so a record's plan is made first and defined
/// after its fields' plans: ``define(type:keys:fields:)`` sets its ``Definition`` once, in an
/// `AtomicLazyReference`, and a second definition is ignored. So the plan is `Sendable` as the
/// compiler checks it: every thread that reads it sees either no definition or the one, whole.
/// (The bridge still publishes a build's plans only when every record they reach is defined,
/// ``ReadingPlan/isComplete``; `DirectDecodingTests` builds plans from many threads at once.)
package final class RecordPlan: Sendable {
    /// A record's plan once defined: immutable.
    package final class Definition: Sendable {
        package let type: RecordType
        package let keys: [[UInt8]]
        /// The keys as strings: JSONDecoder compares keys as Swift strings do (canonical
        /// equivalence, so `"\u{212A}"`, the Kelvin sign, is `"K"`), which bytes alone cannot tell.
        package let keyStrings: [String]
        /// Whether some key has a byte outside ASCII: then every key is compared as a string.
        package let hasNonASCIIKey: Bool
        package let fields: [ReadingPlan]

        init(type: RecordType, keys: [String], fields: [ReadingPlan]) {
            self.type = type
            self.keys = keys.map { Array($0.utf8) }
            keyStrings = keys
            hasNonASCIIKey = self.keys.contains { $0.contains { $0 >= 0x80 } }
            self.fields = fields
        }

        /// The field a key names when compared as Swift compares strings.
        package func field(named key: String) -> Int? { keyStrings.firstIndex(of: key) }
    }

    private let defined = AtomicLazyReference<Definition>()

    package init() {}

    /// Defines the plan; the first definition stands, a later one is ignored.
    package func define(type: RecordType, keys: [String], fields: [ReadingPlan]) {
        _ = defined.storeIfNil(Definition(type: type, keys: keys, fields: fields))
    }

    /// The definition, nil until ``define(type:keys:fields:)`` has run.
    package var definition: Definition? { defined.load() }

    /// Whether ``define(type:keys:fields:)`` has run.
    package var isDefined: Bool { definition != nil }
}

extension ReadingPlan {
    /// Whether every record the plan reaches is defined: a build that failed part-way can leave a
    /// plan pointing at a record that never was, and such a plan is not published.
    package var isComplete: Bool {
        var seen: Set<ObjectIdentifier> = []
        return isComplete(seen: &seen)
    }

    private func isComplete(seen: inout Set<ObjectIdentifier>) -> Bool {
        switch self {
        case .int, .double, .bool, .string, .dynamic: return true
        case .optional(let plan), .array(let plan), .dictionary(let plan): return plan.isComplete(seen: &seen)
        case .record(let record):
            guard seen.insert(ObjectIdentifier(record)).inserted else { return true }
            guard let definition = record.definition else { return false }
            return definition.fields.allSatisfy { $0.isComplete(seen: &seen) }
        }
    }
}
