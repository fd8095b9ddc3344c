/// Internal control signals; never shown to a user.
enum ControlError: Error {
    case suspensionRequired
}
