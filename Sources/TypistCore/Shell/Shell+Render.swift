import APIScript

extension Shell {
    /// A value as the current format shows it.
    package func render(_ value: Value, type: ScriptType?) -> String {
        ValueRenderer(format: format, style: TerminalStyle(enabled: colors)).render(value, type: type)
    }
}
