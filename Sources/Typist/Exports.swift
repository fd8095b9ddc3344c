/// `import Typist` is enough to declare endpoints and run the shell: the typed client and the
/// core (session, registry, evaluation) come with it.
@_exported import TypedAPI
@_exported import TypistCore
