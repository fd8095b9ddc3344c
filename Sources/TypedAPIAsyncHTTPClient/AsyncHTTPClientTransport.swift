import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import TypedAPI

/// Sends requests with AsyncHTTPClient (SwiftNIO): the fastest transport on Linux.
///
/// Redirects are not followed here: `APIClient` follows them itself and drops credentials on a
/// redirect to another origin. A client passed in must therefore be configured with
/// `redirectConfiguration: .disallow`; the shared one is.
public struct AsyncHTTPClientTransport: HTTPTransport {
    /// A process-wide HTTP client that follows no redirects, reports a refused connection at
    /// once instead of retrying until the connect time-out, waits for a connection (a new one, or
    /// a pooled one while many calls are in flight) as long as the call's own time limit allows
    /// rather than AsyncHTTPClient's 10 s, and asks for and decodes gzip and deflate bodies (the
    /// transport's size limit counts decoded bytes). It lives as long as the process.
    public static let sharedClient: HTTPClient = {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        configuration.connectionPool.retryConnectionEstablishment = false
        // Each exchange runs under the call's limit (`ExchangeDeadline`), which cancels it; a
        // shorter wait of AsyncHTTPClient's own failed calls queued behind 8 busy connections on a
        // loaded machine (`getConnectionFromPoolTimeout`).
        configuration.timeout.connect = .minutes(10)
        configuration.decompression = .enabled(limit: .none)
        return HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }()

    private let client: HTTPClient
    private let maximumResponseSize: Int

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - client: The HTTP client; configure it with `redirectConfiguration: .disallow`.
    ///   - maximumResponseSize: The largest body accepted, in bytes (256 MiB by default).
    public init(client: HTTPClient = AsyncHTTPClientTransport.sharedClient, maximumResponseSize: Int = 256 << 20) {
        self.client = client
        self.maximumResponseSize = maximumResponseSize
    }

    /// Sends one request; see `HTTPTransport.send(_:body:timeout:)`.
    public func send(_ request: HTTPRequest, body: Data?, timeout: Duration) async throws -> (HTTPResponse, Data) {
        try await send(request, body: body, timeout: timeout, tls: .system)
    }

    /// Sends one request with TLS options, as a per-request `TLSConfiguration`: a CA bundle as its
    /// trust roots (in place of the system's), a client certificate chain and key, or no
    /// certificate verification; see `HTTPTransport.send(_:body:timeout:tls:)`.
    public func send(_ request: HTTPRequest, body: Data?, timeout: Duration, tls: TLSOptions) async throws -> (HTTPResponse, Data) {
        let outgoing = try Self.outgoing(request, body: body, tls: tls)
        let nanoseconds = Self.nanoseconds(timeout)
        let (client, maximumResponseSize, outgoingRequest) = (client, maximumResponseSize, outgoing)
        do {
            // AsyncHTTPClient's deadline stops at the head: a body that trickles or stalls would
            // run on, so the whole exchange runs under one limit.
            let repeatable = Self.repeatableMethods.contains(request.method)
            return try await ExchangeDeadline.run(limit: timeout) {
                let deadline = NIODeadline.now() + .nanoseconds(nanoseconds)
                let response: HTTPClientResponse
                do {
                    response = try await client.execute(outgoingRequest, deadline: deadline)
                } catch let error as HTTPClientError where error == .remoteConnectionClosed && repeatable {
                    // No answer came: most often a kept-alive connection the server closed just as
                    // it was reused. A request that changes nothing is sent once more, on another
                    // connection, as libcurl and browsers do; anything else is the caller's to decide.
                    response = try await client.execute(outgoingRequest, deadline: deadline)
                }
                if let announced = response.headers.first(name: "content-length").flatMap(Int.init),
                    announced > maximumResponseSize
                {
                    throw TransportFailure(.responseTooLarge, detail: "Content-Length \(announced) is over the limit of \(maximumResponseSize) bytes")
                }
                let buffer = try await response.body.collect(upTo: maximumResponseSize)
                return (Self.head(of: response), Data(buffer.readableBytesView))
            }
        } catch {
            throw Self.failure(from: error)
        }
    }

    /// The request as AsyncHTTPClient takes it.
    private static func outgoing(_ request: HTTPRequest, body: Data?, tls: TLSOptions) throws -> HTTPClientRequest {
        guard let scheme = request.scheme, let authority = request.authority, let path = request.path else {
            throw TransportFailure(.other, detail: "the request has no valid URL")
        }
        var outgoing = HTTPClientRequest(url: "\(scheme)://\(authority)\(path)")
        if !tls.isSystemDefault { outgoing.tlsConfiguration = try TLSConfigurations.shared.configuration(for: tls) }
        outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
        outgoing.headers.reserveCapacity(request.headerFields.count)
        for field in request.headerFields {
            outgoing.headers.add(name: field.name.rawName, value: field.value)
        }
        if let body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        return outgoing
    }

    /// A response's head as HTTP types has it.
    private static func head(of response: HTTPClientResponse) -> HTTPResponse {
        var fields = HTTPFields()
        fields.reserveCapacity(response.headers.count)
        for (name, value) in response.headers {
            guard let fieldName = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: fieldName, value: value))
        }
        let status = HTTPResponse.Status(code: Int(response.status.code), reasonPhrase: response.status.reasonPhrase)
        return HTTPResponse(status: status, headerFields: fields)
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }

    /// The methods sent once more when a connection closes before any answer (RFC 9110's safe methods).
    static let repeatableMethods: Set<HTTPRequest.Method> = [.get, .head, .options]

    private static func failure(from error: any Error) -> any Error {
        if error is CancellationError || error is TransportFailure { return error }
        let detail = String(describing: error)
        if ProcessInfo.processInfo.environment["TYPIST_DEBUG_TRANSPORT"] != nil {
            try? FileHandle.standardError.write(contentsOf: Data("transport error: \(type(of: error)): \(detail)\n".utf8))
        }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout:
                return TransportFailure(.timedOut, detail: detail)
            case .cancelled:
                return TransportFailure(.cancelled, detail: detail)
            case .remoteConnectionClosed, .bodyLengthMismatch:
                return TransportFailure(.connectionClosed, detail: detail)
            default:
                break
            }
        }
        if let error = error as? HTTPParserError {
            if case .invalidEOFState = error { return TransportFailure(.connectionClosed, detail: detail) }
            return TransportFailure(.other, detail: "the response is not valid HTTP/1.1 (\(detail))")
        }
        if error is NIOTooManyBytesError { return TransportFailure(.responseTooLarge, detail: detail) }
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNREFUSED: return TransportFailure(.connectionRefused, detail: detail)
            case ECONNRESET, EPIPE: return TransportFailure(.connectionClosed, detail: detail)
            default: break
            }
        }
        let lowered = detail.lowercased()
        if lowered.contains("refused") { return TransportFailure(.connectionRefused, detail: detail) }
        if lowered.contains("dns") || lowered.contains("unknown host") || lowered.contains("nodename") {
            return TransportFailure(.hostNotFound, detail: detail)
        }
        if lowered.contains("ssl") || lowered.contains("tls") || lowered.contains("certificate") {
            return TransportFailure(.tls, detail: detail)
        }
        if lowered.contains("eof") || lowered.contains("closed") || lowered.contains("reset") {
            return TransportFailure(.connectionClosed, detail: detail)
        }
        return TransportFailure(.other, detail: detail)
    }
}

extension AsyncHTTPClientTransport: StreamingHTTPTransport {
    /// Sends a request and hands its body over as it arrives; see
    /// `StreamingHTTPTransport.stream(_:body:idleTimeout:tls:)`. AsyncHTTPClient reads the next
    /// chunk from the connection only when it is asked for (back-pressure); a reader cancelled
    /// while it waits ends the request, and dropping the chunks closes the connection.
    public func stream(_ request: HTTPRequest, body: Data?, idleTimeout: Duration, tls: TLSOptions) async throws
        -> (HTTPResponse, HTTPBodyChunks)
    {
        do {
            // The deadline is for the head only: AsyncHTTPClient lifts it once the head has arrived.
            let response = try await client.execute(try Self.outgoing(request, body: body, tls: tls),
                                                    deadline: NIODeadline.now() + .nanoseconds(Self.nanoseconds(idleTimeout)))
            let reader = BodyReader(response.body)
            return (Self.head(of: response), HTTPBodyChunks {
                do {
                    return try await reader.next()
                } catch {
                    throw Self.failure(from: error)
                }
            })
        } catch {
            throw Self.failure(from: error)
        }
    }
}

/// Reads a response body one chunk at a time, for one reader after another.
private actor BodyReader {
    private var iterator: HTTPClientResponse.Body.AsyncIterator

    init(_ body: HTTPClientResponse.Body) { iterator = body.makeAsyncIterator() }

    func next() async throws -> Data? {
        var current = iterator
        defer { iterator = current }
        guard let buffer = try await current.next(isolation: self) else { return nil }
        return Data(buffer.readableBytesView)
    }
}
