import TypedAPI

/// A document stream's items are read as `JSONItem` first; an error names the stream, never this
/// stand-in.
extension JSONItem: UndeclaredStreamItem {}
