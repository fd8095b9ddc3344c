/// The session refused something: a value for one of its properties, a page to follow.
struct SessionError: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
