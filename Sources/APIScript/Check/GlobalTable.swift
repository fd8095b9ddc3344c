/// The names every evaluation of one interpreter sees: host functions and globals, built-ins,
/// record types, and the globals earlier evaluations declared.
final class GlobalTable {
    var bindings: [String: Binding] = [:]
    var recordTypes: [String: RecordType] = [:]
    /// Asked for the record types the host has not made known yet (it derives them on demand):
    /// every one it has, by name.
    var moreRecordTypes: (() -> [RecordType])?

    /// Takes the host's record types in, once they are asked for.
    func askForMoreRecordTypes() {
        guard let more = moreRecordTypes else { return }
        moreRecordTypes = nil
        for type in more() where recordTypes[type.name] == nil { recordTypes[type.name] = type }
    }
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
