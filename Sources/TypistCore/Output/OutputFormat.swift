/// How results are shown.
public enum OutputFormat: String, Sendable, CaseIterable {
    /// Records and collections laid out for reading; arrays of flat records as tables.
    case pretty
    /// JSON.
    case json
    /// Tables wherever a value is an array of records.
    case table
}
