extension Sequence {
    /// The first non-nil result of `transform`, calling it on elements in order and on none after.
    ///
    /// `lazy.compactMap(transform).first` calls it twice for the element it finds (once to find
    /// the start index, once to read it): for a closure that does work — an extension's command
    /// running a compiler — that is the work done twice.
    package func firstNonNil<Result>(_ transform: (Element) throws -> Result?) rethrows -> Result? {
        for element in self {
            if let result = try transform(element) { return result }
        }
        return nil
    }
}
