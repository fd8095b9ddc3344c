/// `InMemoryTransport` lives in `TypedAPITesting` (a test of the client alone needs no shell);
/// `import TypistTesting` still brings it.
@_exported import TypedAPITesting
