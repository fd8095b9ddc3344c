/// The names every evaluation of one interpreter sees: host functions and globals, built-ins,
/// record types, and the globals earlier evaluations declared.
final class GlobalTable {
    var bindings: [String: Binding] = [:]
    var recordTypes: [String: RecordType] = [:]
    /// How many global slots exist.
    var slotCount = 0
    /// Host functions a host-defined constant hides as a value (`--var user=ada`): a call by
    /// that name still reaches the function.
    var hiddenHostFunctions: [String: HostFunction] = [:]
    /// Host globals that may not be used now, with the reason the checker gives.
    var unavailable: [String: String] = [:]

    init() {
        for builtin in BuiltinFunction.allCases {
            bindings[builtin.rawValue] = Binding(name: builtin.rawValue, type: .unknown, isMutable: false,
                                                 kind: .builtin(builtin), span: nil, owner: nil)
        }
    }

    /// A new global slot.
    func allocateSlot() -> Int {
        slotCount += 1
        return slotCount - 1
    }
}
