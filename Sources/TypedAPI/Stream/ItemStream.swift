import Foundation

/// The items of a streaming answer, each decoded into the endpoint's item type as it is asked for:
/// what ``APIClient/stream(_:with:)->ItemStream<Item>`` returns.
///
/// Nothing is sent until the stream is iterated, and each iteration sends the request anew and
/// reads its own answer. An iterator reads the next chunk of the body only when it has handed over
/// every item of the last one (back-pressure); dropping it, or cancelling its task, closes the
/// connection.
///
/// `ItemStream` is an `AsyncSequence` whose iterator hands over the items of a chunk without a
/// suspension or a lock each: where 0.7.0 returned an `AsyncThrowingStream`, which costs both per
/// item. Code that needs that type can still ask for it by name (see ``APIClient/stream(_:with:)->ItemStream<Item>``)
/// or wrap this one with ``asyncThrowingStream()``.
public struct ItemStream<Item: Decodable & Sendable>: AsyncSequence, Sendable {
    public typealias Element = Item
    public typealias Failure = any Error

    @usableFromInline let start: @Sendable () -> (StreamReader, ItemDecoding)

    init(start: @escaping @Sendable () -> (StreamReader, ItemDecoding)) {
        self.start = start
    }

    /// An iterator over the items of a new reading of the stream.
    @inlinable
    public func makeAsyncIterator() -> Iterator {
        let (reader, decoding) = start()
        return Iterator(reader: reader, decoding: decoding)
    }

    /// The same items as an `AsyncThrowingStream`, the type ``APIClient/stream(_:with:)->ItemStream<Item>`` returned
    /// before 0.8.0 (each item then costs a suspension and a lock more).
    public func asyncThrowingStream() -> AsyncThrowingStream<Item, any Error> {
        let iterator = IteratorBox(makeAsyncIterator())
        return AsyncThrowingStream(unfolding: { try await iterator.next() })
    }

    /// Reads the stream's items: those of the chunk at hand one by one, then the next chunk.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Element = Item
        public typealias Failure = any Error

        @usableFromInline var reader: StreamReader?
        @usableFromInline let decoding: ItemDecoding
        @usableFromInline var batch = StreamBatch()
        @usableFromInline var index = 0

        @usableFromInline
        init(reader: StreamReader, decoding: ItemDecoding) {
            self.reader = reader
            self.decoding = decoding
        }

        /// The next item, or `nil` at the stream's end.
        @inlinable
        public mutating func next() async throws -> Item? {
            if index < batch.count { return try decodeNext() }
            return try await nextChunk(isolation: nil)
        }

        /// The next item, or `nil` at the stream's end, on the caller's actor.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(any Error) -> Item? {
            if index < batch.count { return try decodeNext() }
            return try await nextChunk(isolation: actor)
        }

        /// The item at `index`; a failure, or the task's cancellation, ends the stream (the items
        /// of the chunk at hand are not handed over to a cancelled task). Inlined too: a call into
        /// the module's unspecialized code would look the iterator's type up for each item.
        @inlinable
        mutating func decodeNext() throws -> Item {
            if Task.isCancelled { throw cancelled() }
            do throws(APIError) {
                let item = try decoding.decode(Item.self, batch, at: index)
                index += 1
                return item
            } catch {
                end()
                throw error
            }
        }

        /// Ends the stream for its task's cancellation, with the client's error for it.
        @usableFromInline
        mutating func cancelled() -> APIError {
            let request = batch.request
            end()
            return .cancelled(request)
        }

        /// The first item of the next chunk that has one, or `nil` at the end.
        @usableFromInline
        mutating func nextChunk(isolation actor: isolated (any Actor)?) async throws -> Item? {
            guard let reader else { return nil }
            let next: StreamBatch?
            do {
                next = try await reader.nextBatch()
            } catch {
                end()
                throw error
            }
            guard let next else {
                end()
                return nil
            }
            batch = next
            index = 0
            return try decodeNext()
        }

        /// Lets the reader go (and the connection with it) and ends the iteration.
        @usableFromInline
        mutating func end() {
            reader = nil
            batch = StreamBatch()
            index = 0
        }
    }
}

/// An iterator shared by the calls of `AsyncThrowingStream(unfolding:)` (which are one at a time),
/// isolated to itself.
private actor IteratorBox<Item: Decodable & Sendable> {
    private var iterator: ItemStream<Item>.Iterator

    init(_ iterator: ItemStream<Item>.Iterator) { self.iterator = iterator }

    /// The next item: the iterator is taken out while it reads (the calls are one at a time, and
    /// with `isolation: self` the read stays on this actor), then put back.
    func next() async throws -> Item? {
        var reading = iterator
        defer { iterator = reading }
        return try await reading.next(isolation: self)
    }
}

/// Decodes a stream's items for one iterator: by the tape decoder where it is sure of the value,
/// else by the decoder in force, whose answer (the value or its error) counts.
@usableFromInline
final class ItemDecoding {
    private let decoder: JSONDecoder
    private let tape: TapeDecoder
    /// Whether items are handed over as their bytes (``StreamItemBytes``: nobody declared a type).
    private let handsOverBytes: Bool

    init(decoder: JSONDecoder, handsOverBytes: Bool = false) {
        self.decoder = decoder
        tape = TapeDecoder(following: decoder)
        self.handsOverBytes = handsOverBytes
    }

    /// The item at `index` of `batch`.
    @usableFromInline
    func decode<Item: Decodable>(_ type: Item.Type, _ batch: StreamBatch, at index: Int) throws(APIError) -> Item {
        let bytes = batch.item(at: index)
        if handsOverBytes, let item = StreamItemBytes(bytes: Array(bytes)) as? Item { return item }
        do throws(TapeDecoder.Declined) {
            return try tape.decodeOrDecline(Item.self, from: bytes, isUTF8: batch.isUTF8)
        } catch {}
        let data = Data(bytes)
        do {
            return try decoder.decode(Item.self, from: data)
        } catch {
            var failure = DecodingFailure(error, decoding: Item.self, body: data)
            failure.type = DecodingFailure.itemName(Item.self)
            throw APIError.decodingFailed(batch.request, failure)
        }
    }
}
