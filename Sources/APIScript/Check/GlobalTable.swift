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
            let binding = Binding(name: builtin.rawValue, type: .unknown, isMutable: false,
                                  kind: .builtin(builtin), span: nil, owner: nil)
            bindings[builtin.rawValue] = binding
            bindings[QualifiedName.builtins + "." + builtin.rawValue] = binding
        }
    }

    /// A new global slot.
    func allocateSlot() -> Int {
        slotCount += 1
        return slotCount - 1
    }
}

/// The spellings that reach a global whatever a host or a script names its own things: as Swift
/// reaches `Swift.print` under a module's own `print`. No identifier holds a `.`, so no host
/// registration and no declaration can take them; a script's own variable named like a
/// qualifier hides it, as in Swift.
package enum QualifiedName {
    /// The shell's session properties: `session.token`, `session.cookies`.
    public static let session = "session"
    /// The built-in functions: `Swift.print`.
    public static let builtins = "Swift"
    /// The host's endpoints: `api.books(…)`.
    public static let endpoints = "api"

    static let qualifiers: Set<String> = [session, builtins, endpoints]
}
