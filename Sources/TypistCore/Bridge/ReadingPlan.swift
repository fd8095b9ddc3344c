import APIScript
import Foundation
import Synchronization

/// How to read a response's JSON straight into script values, in one pass, without building the
/// Swift model first.
///
/// A plan exists only for types whose decoding is *transparent*: plain stored properties of `Int`,
/// `Double`, `Bool`, `String`, optionals, arrays, `[String: …]` dictionaries and other transparent
/// records, each read from one key, unchanged. ``ValueBridge/readingPlan(for:)`` checks that with a
/// recording probe (`KeyRecorder`): every property must hold exactly the marker value its key was
/// given, in order, so renamed keys, computed or transformed values, defaults, enums, dates and custom
/// containers all leave the type without a plan, and it goes the typed way (JSONDecoder, then the
/// bridge). A plan gives the same value the bridge would give for the decoded model; whatever
/// it cannot read (a missing key, a wrong type, an escape it doubts) makes it give up, and the
/// typed decoding runs on the same body, so its errors are the usual ones.
indirect enum ReadingPlan: Sendable {
    case int, double, bool, string
    case optional(ReadingPlan)
    case array(ReadingPlan)
    case dictionary(ReadingPlan)
    case record(RecordPlan)
    /// Any JSON value, read as it is: for types that decode themselves (see
    /// ``ValueBridge/decodesItself(_:)``), which scripts see as dynamic values.
    case dynamic
}

/// The plan of one record type: its fields' JSON keys and plans, by field index.
///
/// `@unchecked Sendable` because plans are cyclic (a record may contain itself) and so are built
/// in two steps. The invariant: ``define(type:keys:fields:)`` runs once, by the one thread building
/// plans, before any other thread can see the plan — the bridge publishes a build's plans only when
/// it has ended, and only those whose every record is defined (``ReadingPlan/isComplete``);
/// afterwards it is only read. `ReadingPlanTests` builds plans from many threads at once.
final class RecordPlan: @unchecked Sendable {
    // Written once while the plan is built, read-only once published.
    private(set) var type: RecordType?
    private(set) var keys: [[UInt8]] = []
    /// The keys as strings: JSONDecoder compares keys as Swift strings do (canonical equivalence,
    /// so `"\u{212A}"`, the Kelvin sign, is `"K"`), which bytes alone cannot tell.
    private(set) var keyStrings: [String] = []
    /// Whether some key has a byte outside ASCII: then every key is compared as a string.
    private(set) var hasNonASCIIKey = false
    private(set) var fields: [ReadingPlan] = []

    func define(type: RecordType, keys: [String], fields: [ReadingPlan]) {
        assert(self.type == nil, "a record plan is defined once")
        self.type = type
        self.keys = keys.map { Array($0.utf8) }
        keyStrings = keys
        hasNonASCIIKey = self.keys.contains { $0.contains { $0 >= 0x80 } }
        self.fields = fields
    }

    /// Whether ``define(type:keys:fields:)`` has run.
    var isDefined: Bool { type != nil }

    /// The field a key names when compared as Swift compares strings.
    func field(named key: String) -> Int? { keyStrings.firstIndex(of: key) }
}

/// Types whose plan follows from their generic arguments.
protocol ReadingPlannable {
    static func readingPlan(_ bridge: ValueBridge) -> ReadingPlan?
}

extension Array: ReadingPlannable where Element: Decodable {
    static func readingPlan(_ bridge: ValueBridge) -> ReadingPlan? { bridge.readingPlan(for: Element.self).map { .array($0) } }
}

extension Optional: ReadingPlannable where Wrapped: Decodable {
    static func readingPlan(_ bridge: ValueBridge) -> ReadingPlan? { bridge.readingPlan(for: Wrapped.self).map { .optional($0) } }
}

extension Dictionary: ReadingPlannable where Key == String, Value: Decodable {
    static func readingPlan(_ bridge: ValueBridge) -> ReadingPlan? { bridge.readingPlan(for: Value.self).map { .dictionary($0) } }
}

extension ReadingPlan {
    /// Whether every record the plan reaches is defined: a build that failed part-way can leave a
    /// plan pointing at a record that never was, and such a plan is not published.
    var isComplete: Bool {
        var seen: Set<ObjectIdentifier> = []
        return isComplete(seen: &seen)
    }

    private func isComplete(seen: inout Set<ObjectIdentifier>) -> Bool {
        switch self {
        case .int, .double, .bool, .string, .dynamic: return true
        case .optional(let plan), .array(let plan), .dictionary(let plan): return plan.isComplete(seen: &seen)
        case .record(let record):
            guard seen.insert(ObjectIdentifier(record)).inserted else { return true }
            return record.isDefined && record.fields.allSatisfy { $0.isComplete(seen: &seen) }
        }
    }
}

extension ValueBridge {
    /// The one-pass plan for `T`, or nil when its decoding is not transparent (see ``ReadingPlan``).
    ///
    /// Plans are built by one thread at a time, and only finished plans are published: another
    /// thread never reads a record plan while it is being defined.
    func readingPlan<T: Decodable>(for type: T.Type) -> ReadingPlan? {
        switch type {
        case is Int.Type: return .int
        case is Double.Type: return .double
        case is Bool.Type: return .bool
        case is String.Type: return .string
        default: break
        }
        // Every type's answer is kept: each call of an endpoint asks again.
        let identifier = ObjectIdentifier(type)
        if let published = plans.withLock({ $0[identifier] }) { return published }
        planBuilding.lock()
        defer { planBuilding.unlock() }
        // Another thread may have built it while this one waited; a model's own build may be under way.
        if let published = plans.withLock({ $0[identifier] }) { return published }
        if let underway = plansUnderway.withLock({ $0.plans[identifier] }) { return underway }
        plansUnderway.withLock { $0.depth += 1 }
        let built = buildReadingPlan(for: type, identifier: identifier)
        let finished = plansUnderway.withLock { underway -> [ObjectIdentifier: ReadingPlan?]? in
            underway.depth -= 1
            guard underway.depth == 0 else { return nil }
            defer { underway.plans = [:] }
            return underway.plans
        }
        // A nested type's plan stays with the build until the outermost one ends.
        guard let finished else { return built }
        plans.withLock { plans in
            for (identifier, plan) in finished { plans[identifier] = .some(plan.flatMap { $0.isComplete ? $0 : nil }) }
        }
        return plans.withLock { $0[identifier] } ?? nil
    }

    private func buildReadingPlan<T: Decodable>(for type: T.Type, identifier: ObjectIdentifier) -> ReadingPlan? {
        if let plannable = type as? any ReadingPlannable.Type {
            let plan = plannable.readingPlan(self)
            plansUnderway.withLock { $0.plans[identifier] = .some(plan) }
            return plan
        }
        // Enums, and the types the bridge shows as strings, are read the typed way.
        if type is any CaseIterable.Type || type is any RawRepresentable.Type || type is Date.Type
            || type is URL.Type || type is UUID.Type || type is Data.Type || type is Decimal.Type
        {
            return nil
        }
        if decodesItself(type) {
            plansUnderway.withLock { $0.plans[identifier] = .some(.dynamic) }
            return .dynamic
        }
        // Registered before its fields, so a recursive model finds itself.
        let record = RecordPlan()
        plansUnderway.withLock { $0.plans[identifier] = .some(.record(record)) }
        guard let plan = recordPlan(for: type, into: record) else {
            plansUnderway.withLock { $0.plans[identifier] = .some(nil) }
            return nil
        }
        return plan
    }

    private func recordPlan<T: Decodable>(for type: T.Type, into record: RecordPlan) -> ReadingPlan? {
        guard let (sample, keys) = KeyRecorder.record(type, bridge: self) else { return nil }
        let mirror = Mirror(reflecting: sample)
        guard mirror.displayStyle == .struct, mirror.superclassMirror == nil,
            mirror.children.count == keys.count, Set(keys.map(\.name)).count == keys.count,
            case .record(let recordType) = shape(of: sample), recordType.fields.count == keys.count
        else { return nil }
        var fields: [ReadingPlan] = []
        for (child, key) in zip(mirror.children, keys) {
            guard let plan = key.check(child.value) else { return nil }
            fields.append(plan)
        }
        record.define(type: recordType, keys: keys.map(\.name), fields: fields)
        return .record(record)
    }
}
