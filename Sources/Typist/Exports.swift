/// `import Typist` is enough to declare endpoints: the typed client comes with it.
@_exported import TypedAPI
