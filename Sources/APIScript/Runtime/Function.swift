public final class Function: @unchecked Sendable {}
