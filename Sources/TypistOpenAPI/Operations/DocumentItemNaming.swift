import TypedAPI

/// A document's stream, its decoding errors naming the item type the document declares
/// (`CreateChatCompletionStreamResponse`) rather than the stand-in its JSON is read as first.
struct DocumentItemNaming<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element: Sendable {
    typealias Element = Base.Element

    let base: Base
    /// The document's item type, as errors name it.
    let itemType: String

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let itemType: String

        mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> Element? {
            do {
                return try await base.next(isolation: actor)
            } catch let error as APIError {
                guard case .decodingFailed(let request, var failure) = error else { throw error }
                if failure.type == DecodingFailure.undeclaredItemName {
                    failure.type = itemType
                } else if failure.type == "the stream" {
                    // The framing broke (bytes that are not UTF-8, an event past the limit).
                    failure.type = "the stream of \(itemType)"
                }
                throw APIError.decodingFailed(request, failure)
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), itemType: itemType) }
}
