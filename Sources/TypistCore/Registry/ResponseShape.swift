import APIScript
import Foundation
import Synchronization
import TypedAPI

/// A response's shape, derived from its Swift type once, when first asked for: deriving every
/// endpoint's at start-up cost a quarter of `typist run`'s start, most of it the Swift runtime's
/// first conformance checks of each model.
final class ResponseShape: Sendable {
    private let made = Mutex<Result<ScriptType, RegistryError>?>(nil)
    private let derive: @Sendable () throws(RegistryError) -> ScriptType

    init(_ derive: @escaping @Sendable () throws(RegistryError) -> ScriptType) { self.derive = derive }

    /// Whether it has been derived.
    var isDerived: Bool { made.withLock { $0 != nil } }

    var derived: Result<ScriptType, RegistryError> {
        if let made = made.withLock({ $0 }) { return made }
        let result: Result<ScriptType, RegistryError>
        do throws(RegistryError) {
            result = .success(try derive())
        } catch {
            result = .failure(error)
        }
        made.withLock { $0 = result }
        return result
    }
}
