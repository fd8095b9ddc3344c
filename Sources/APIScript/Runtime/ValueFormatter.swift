enum ValueFormatter { static func literal(_ v: Value) -> String { "" } }
