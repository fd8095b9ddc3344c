import APIScript
import Foundation
import Synchronization

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
        let recording = recording(of: type)
        guard let keys = recording.keys, case .success(let sample) = recording.sample else { return nil }
        let mirror = Mirror(reflecting: sample)
        guard mirror.displayStyle == .struct, mirror.superclassMirror == nil,
            mirror.children.count == keys.count, Set(keys.map(\.name)).count == keys.count,
            case .record(let recordType) = shape(of: sample), recordType.fields.count == keys.count
        else { return nil }
        var fields: [ReadingPlan] = []
        for (child, key) in zip(mirror.children, keys) {
            guard let plan = key.check(child.value, bridge: self) else { return nil }
            fields.append(plan)
        }
        record.define(type: recordType, keys: keys.map(\.name), fields: fields)
        return .record(record)
    }
}
