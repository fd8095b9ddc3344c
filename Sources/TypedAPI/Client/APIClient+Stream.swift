import Foundation
import HTTPTypes

extension APIClient {
    /// The items of a streaming answer, each decoded into the endpoint's declared type — the
    /// phantom type's guarantee, per item. The response's `Content-Type` says how it is framed:
    /// `text/event-stream` (each event's data is one item; see ``ServerSentEventParser``) or JSON
    /// Lines (`application/x-ndjson`, `application/jsonl`: each line is one).
    ///
    /// Each item is the value the endpoint's `JSONDecoder` (else the configuration's) makes of its
    /// bytes. A faster reader gives that value where it is sure to (plain settings and documents)
    /// and leaves the rest, errors included, to `JSONDecoder`, so an item's `init(from:)` may run
    /// twice. An item that does not decode ends the stream with `decodingFailed`, after the items
    /// before it.
    ///
    /// Nothing is sent until the stream is iterated (each iteration sends the request anew). The client's time limit (the endpoint's, else
    /// the configuration's) applies to the wait for the head and to each gap between chunks, not to
    /// the whole stream; the next chunk is read only when an item is asked for (back-pressure);
    /// ending the iteration, or cancelling its task, closes the connection. An event stream whose
    /// connection drops before its end is taken up again after the wait it asked for (`retry:`),
    /// with `Last-Event-ID` (five times in a row at most without an event between); one that ends
    /// cleanly is over (a browser would reconnect: a client of an API reads a stream to its end).
    /// Redirects are not followed. The transport must stream (adopt ``StreamingHTTPTransport``).
    /// Each connection passes the client's middlewares with the call's context (see
    /// ``stream(_:with:context:)``).
    ///
    /// The items of a chunk are handed over without a suspension or a lock each (see
    /// ``ItemStream``). Code written for 0.7.0, which returned an `AsyncThrowingStream`, still
    /// compiles where it names that type: an overload returns one.
    public func stream<Kind, Item: Decodable & Sendable>(_ endpoint: Endpoint<Kind, Item>, with data: Kind.RequestData)
        -> ItemStream<Item> where Kind.RequestData: Sendable
    {
        stream(endpoint, with: data, context: CallContext())
    }

    /// ``stream(_:with:)->ItemStream<Item>`` as part of a call its caller describes: every
    /// connection is handed `context` (the endpoint's name, which a cassette writes beside the
    /// exchange; values for the middlewares), with the item's Swift type filled in.
    public func stream<Kind, Item: Decodable & Sendable>(_ endpoint: Endpoint<Kind, Item>, with data: Kind.RequestData,
                                                         context: CallContext) -> ItemStream<Item> where Kind.RequestData: Sendable
    {
        let decoder = endpoint.decoder ?? configuration.decoder
        let itemType = DecodingFailure.itemName(Item.self)
        var context = context
        context.label = .label(context.label, decoding: Item.self)
        context.delivery = .streamed
        // Items nobody declared a type for: their bytes, from an answer of any type.
        let undeclared = Item.self == StreamItemBytes.self
        return ItemStream { [self, context] in
            (StreamReader(client: self, itemType: itemType, context: context, readsAnyTypeAsLines: undeclared,
                          prepare: { [self] () throws(APIError) in try prepare(endpoint, with: data) }),
             ItemDecoding(decoder: decoder, handsOverBytes: undeclared))
        }
    }

    /// ``stream(_:with:context:)`` for an endpoint whose kind needs no request data.
    public func stream<Kind, Item: Decodable & Sendable>(_ endpoint: Endpoint<Kind, Item>, context: CallContext)
        -> ItemStream<Item> where Kind.RequestData == Void
    {
        stream(endpoint, with: (), context: context)
    }

    /// ``stream(_:with:)->ItemStream<Item>`` for an endpoint whose kind needs no request data.
    public func stream<Kind, Item: Decodable & Sendable>(_ endpoint: Endpoint<Kind, Item>)
        -> ItemStream<Item> where Kind.RequestData == Void
    {
        stream(endpoint, with: ())
    }

    /// ``stream(_:with:)->ItemStream<Item>`` as the `AsyncThrowingStream` 0.7.0 returned, for code that names that
    /// type (each item then costs a suspension and a lock more). Chosen only where the type is
    /// asked for.
    @_disfavoredOverload
    public func stream<Kind, Item: Decodable & Sendable>(_ endpoint: Endpoint<Kind, Item>, with data: Kind.RequestData)
        -> AsyncThrowingStream<Item, any Error> where Kind.RequestData: Sendable
    {
        stream(endpoint, with: data).asyncThrowingStream()
    }

    /// ``stream(_:)->ItemStream<Item>`` as the `AsyncThrowingStream` 0.7.0 returned, for code that names that type.
    @_disfavoredOverload
    public func stream<Kind, Item: Decodable & Sendable>(_ endpoint: Endpoint<Kind, Item>)
        -> AsyncThrowingStream<Item, any Error> where Kind.RequestData == Void
    {
        stream(endpoint, with: ()).asyncThrowingStream()
    }
}
