/// Compiled code for an expression: a synchronous closure when it never calls the host, and an
/// asynchronous one always (for pure code, it just calls the synchronous one).
struct Code {
    typealias Sync = (Frame) throws -> Value
    typealias Async = (Frame) async throws -> Value

    let sync: Sync?
    let async: Async

    init(_ sync: @escaping Sync) {
        self.sync = sync
        self.async = { try sync($0) }
    }

    init(async: @escaping Async) {
        self.sync = nil
        self.async = async
    }

    var isPure: Bool { sync != nil }

    static func constant(_ value: Value) -> Code { Code { _ in value } }

    /// Runs a code known to be pure; an impure one here is a compiler bug, reported, not trapped.
    @inline(__always)
    func run(_ frame: Frame) throws -> Value {
        guard let sync else { throw ControlError.suspensionRequired }
        return try sync(frame)
    }

    /// Combines children with a synchronous step, staying synchronous when they all are.
    static func combine(_ children: [Code], _ step: @escaping ([Value]) throws -> Value) -> Code {
        let syncs = children.compactMap(\.sync)
        if syncs.count == children.count {
            switch syncs.count {
            case 0: return Code { _ in try step([]) }
            case 1:
                let first = syncs[0]
                return Code { frame in try step([try first(frame)]) }
            case 2:
                let first = syncs[0]
                let second = syncs[1]
                return Code { frame in try step([try first(frame), try second(frame)]) }
            default:
                return Code { frame in
                    var values: [Value] = []
                    values.reserveCapacity(syncs.count)
                    for code in syncs { values.append(try code(frame)) }
                    return try step(values)
                }
            }
        }
        let asyncs = children.map(\.async)
        return Code(async: { frame in
            var values: [Value] = []
            values.reserveCapacity(asyncs.count)
            for code in asyncs { values.append(try await code(frame)) }
            return try step(values)
        })
    }

    static func unary(_ child: Code, _ step: @escaping (Value) throws -> Value) -> Code {
        if let sync = child.sync { return Code { frame in try step(try sync(frame)) } }
        let async = child.async
        return Code(async: { frame in try step(try await async(frame)) })
    }

    static func binary(_ left: Code, _ right: Code, _ step: @escaping (Value, Value) throws -> Value) -> Code {
        if let l = left.sync, let r = right.sync { return Code { frame in try step(try l(frame), try r(frame)) } }
        let l = left.async
        let r = right.async
        return Code(async: { frame in
            let a = try await l(frame)
            return try step(a, try await r(frame))
        })
    }
}

/// How control leaves a statement.
enum Flow {
    case normal, breakLoop, continueLoop, returned
}

/// Compiled code for statements.
struct Block {
    typealias Sync = (Frame) throws -> Flow
    typealias Async = (Frame) async throws -> Flow

    let sync: Sync?
    let async: Async

    init(_ sync: @escaping Sync) {
        self.sync = sync
        self.async = { try sync($0) }
    }

    init(async: @escaping Async) {
        self.sync = nil
        self.async = async
    }

    static var empty: Block { Block { _ in .normal } }

    /// Statements in order, stopping at the first that leaves.
    static func sequence(_ blocks: [Block]) -> Block {
        let syncs = blocks.compactMap(\.sync)
        if syncs.count == blocks.count {
            switch syncs.count {
            case 0: return .empty
            case 1: return blocks[0]
            default:
                return Block { frame in
                    for block in syncs {
                        let flow = try block(frame)
                        if case .normal = flow { continue }
                        return flow
                    }
                    return .normal
                }
            }
        }
        let parts: [(sync: Sync?, async: Async)] = blocks.map { ($0.sync, $0.async) }
        return Block(async: { frame in
            for part in parts {
                let flow = if let sync = part.sync { try sync(frame) } else { try await part.async(frame) }
                if case .normal = flow { continue }
                return flow
            }
            return .normal
        })
    }
}
