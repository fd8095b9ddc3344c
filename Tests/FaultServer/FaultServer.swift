import Foundation
import Synchronization

/// A deliberately misbehaving HTTP server for tests: each connection's request head is read,
/// then a handler writes whatever bytes it likes — slowly, wrongly, endlessly — or resets.
///
/// It listens on an ephemeral loopback port. ``stop()`` (also run by `deinit`) closes the
/// listener, shuts every open connection and waits for the handler threads to end, so a test
/// leaves nothing running.
public final class FaultServer: Sendable {
    /// The port it listens on.
    public let port: Int
    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    private let listener: Int32
    private let wake: (read: Int32, write: Int32)
    private let state = Mutex(State())
    private let handler: @Sendable (FaultConnection) throws -> Void

    private struct State {
        var stopping = false
        var open: Set<Int32> = []
        var running = 0
        var heads: [String] = []
        var finished = 0
        var acceptorDone = false
    }

    /// Starts the server.
    ///
    /// - Parameter handler: Runs once per connection after its request head has been read; the
    ///   connection is closed when it returns.
    public init(_ handler: @escaping @Sendable (FaultConnection) throws -> Void) throws {
        self.handler = handler
        let (descriptor, boundPort) = try Self.bindLoopback()
        guard listen(descriptor, 64) == 0 else {
            close(descriptor)
            throw Failure("listen: \(errno)")
        }
        port = boundPort
        listener = descriptor
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            close(descriptor)
            throw Failure("pipe: \(errno)")
        }
        wake = (pipeEnds[0], pipeEnds[1])
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// A TCP socket bound to an ephemeral loopback port, not listening (so connections to it are
    /// refused while it is held), and its port.
    public static func bindLoopback() throws -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure("socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard bound == 0, named == 0 else {
            close(descriptor)
            throw Failure("bind: \(errno)")
        }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    deinit {
        stop()
        close(wake.read)
        close(wake.write)
    }

    /// The request heads received so far, in order.
    public var requestHeads: [String] { state.withLock { $0.heads } }

    /// How many handlers have done all they meant to: a test that gets its answer while this is 0 got it
    /// before the server had finished misbehaving (an ordering, not a clock).
    public var finishedHandlers: Int { state.withLock { $0.finished } }

    /// Stops listening, cuts every open connection and waits (up to 10 s) for the handlers.
    public func stop() {
        let descriptors = state.withLock { state -> Set<Int32>? in
            guard !state.stopping else { return nil }
            state.stopping = true
            return state.open
        }
        guard let descriptors else { return }
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        for descriptor in descriptors { shutdown(descriptor, Int32(SHUT_RDWR)) }
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline, state.withLock({ $0.running > 0 || !$0.acceptorDone }) {
            usleep(10_000)
        }
    }

    var isStopping: Bool { state.withLock { $0.stopping } }

    private func acceptLoop() {
        defer {
            close(listener)
            state.withLock { $0.acceptorDone = true }
        }
        while !isStopping {
            var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 2, 1000) >= 0 || errno == EINTR else { return }
            if fds[1].revents != 0 { return }
            guard fds[0].revents != 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            let admitted = state.withLock { state -> Bool in
                guard !state.stopping else { return false }
                state.open.insert(connection)
                state.running += 1
                return true
            }
            guard admitted else {
                close(connection)
                return
            }
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    private func serve(_ descriptor: Int32) {
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connection = FaultConnection(descriptor: descriptor, server: self)
        if let head = connection.readHead() {
            state.withLock { $0.heads.append(head) }
            connection.requestHead = head
            // Only a handler that did all it meant to counts: one cut short by the client (the
            // connection closed under it) or by stop() throws.
            if (try? handler(connection)) != nil, !isStopping { state.withLock { $0.finished += 1 } }
        }
        // A reset connection left `open` before its descriptor was closed (the number may be
        // another connection's by now).
        state.withLock {
            if !connection.wasReset { $0.open.remove(descriptor) }
            $0.running -= 1
        }
        if !connection.wasReset { close(descriptor) }
    }

    /// A descriptor about to be closed by its handler: `stop()` must not shut down whatever socket
    /// takes its number next.
    func forget(_ descriptor: Int32) {
        state.withLock { _ = $0.open.remove(descriptor) }
    }

    /// Why the server could not start.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}

/// One accepted connection, as a handler sees it.
public final class FaultConnection: @unchecked Sendable {
    private let descriptor: Int32
    private unowned let server: FaultServer
    /// The request line and headers, as received.
    public internal(set) var requestHead = ""
    var wasReset = false

    init(descriptor: Int32, server: FaultServer) {
        self.descriptor = descriptor
        self.server = server
    }

    /// Thrown when the server stops or the client has gone.
    public struct Gone: Error {}

    func readHead() -> String? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let started = Date()
        while received.count < 1 << 20, Date().timeIntervalSince(started) < 30, !server.isStopping {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { return nil }
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
                return nil
            }
            received.append(contentsOf: buffer[..<count])
            if let end = received.firstRange(of: Array("\r\n\r\n".utf8)) {
                return String(decoding: received[..<end.lowerBound], as: UTF8.self)
            }
        }
        return nil
    }

    /// Writes bytes, waiting for a slow reader but giving up when the server stops or the
    /// client has not read anything for 5 minutes (the suites' time limit: a client that is only
    /// slow, on a busy machine, is waited for; one that hangs fails its test by that limit).
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        var stalled = Date()
        // After a reset the descriptor is closed, and its number may already be another
        // connection's: nothing more is written.
        if wasReset { throw Gone() }
        while offset < bytes.count {
            if server.isStopping { throw Gone() }
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written > 0 {
                offset += written
                stalled = Date()
            } else if written < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                if Date().timeIntervalSince(stalled) > 300 { throw Gone() }
                // The client is not reading (a stream it paused): wait for room without spinning.
                var room = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&room, 1, 100)
            } else {
                throw Gone()
            }
        }
    }

    /// Writes text as UTF-8.
    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Returns once the client has closed the connection (what it sends meanwhile is read and
    /// dropped); throws when the server stops first.
    public func waitForClose() throws {
        var buffer = [UInt8](repeating: 0, count: 4096)
        if wasReset { return }
        while true {
            if server.isStopping { throw Gone() }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { return }
            if count < 0 {
                guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { return }
                // Nothing yet: wait for bytes or the close without spinning.
                var readable = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&readable, 1, 100)
            }
        }
    }

    /// Waits, returning early (by throwing) when the server stops.
    public func pause(_ seconds: Double) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while case let remaining = deadline.timeIntervalSinceNow, remaining > 0 {
            if server.isStopping { throw Gone() }
            usleep(useconds_t(min(remaining, 0.02) * 1_000_000))
        }
    }

    /// Closes with a TCP reset instead of an orderly end.
    public func reset() {
        guard !wasReset else { return }
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        server.forget(descriptor)
        close(descriptor)
        wasReset = true
    }

    /// A complete response with a body and `Connection: close`.
    public func respond(status: String = "200 OK", headers: [String] = ["Content-Type: application/json"], body: [UInt8]) throws {
        var head = "HTTP/1.1 \(status)\r\n"
        for header in headers { head += header + "\r\n" }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        try send(Array(head.utf8) + body)
    }
}

/// Bytes for misbehaving bodies.
public enum FaultBodies {
    /// A gzip stream that inflates to `size` zero bytes from a few kilobytes per megabyte: a
    /// "gzip bomb", built with deflate's fixed Huffman codes (a literal 0, then repeats of
    /// length 258 at distance 1).
    public static func gzipBomb(inflatingTo size: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.write(1, count: 1)  // final block
        bits.write(1, count: 2)  // fixed Huffman codes
        func code(_ value: UInt32, length: Int) { bits.writeReversed(value, count: length) }
        // Literal 0: code 0x30 in 8 bits.
        code(0x30, length: 8)
        var remaining = size - 1
        while remaining >= 258 {
            code(0b11000101, length: 8)  // length code 285 = 258
            code(0, length: 5)  // distance code 0 = 1
            remaining -= 258
        }
        while remaining > 0 {
            code(0x30, length: 8)
            remaining -= 1
        }
        code(0, length: 7)  // end of block (256)
        var output: [UInt8] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255]
        output += bits.finished
        var crc = CRC32()
        crc.updateZeros(size)
        output += withUnsafeBytes(of: crc.value.littleEndian, Array.init)
        output += withUnsafeBytes(of: UInt32(truncatingIfNeeded: size).littleEndian, Array.init)
        return output
    }

    /// `bytes` in gzip's format (RFC 1952), as deflate "stored" blocks: every decoder must read
    /// it, and it needs no compressor.
    public static func gzip(_ bytes: [UInt8]) -> [UInt8] {
        var crc = CRC32()
        crc.update(bytes)
        return [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255] + storedBlocks(bytes)
            + withUnsafeBytes(of: crc.value.littleEndian, Array.init)
            + withUnsafeBytes(of: UInt32(truncatingIfNeeded: bytes.count).littleEndian, Array.init)
    }

    /// `bytes` in HTTP's "deflate" coding: the zlib format (RFC 1950) around stored blocks.
    public static func zlib(_ bytes: [UInt8]) -> [UInt8] {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return [0x78, 0x01] + storedBlocks(bytes) + withUnsafeBytes(of: ((b << 16) | a).bigEndian, Array.init)
    }

    /// Deflate "stored" blocks (RFC 1951 §3.2.4) of at most 65,535 bytes each.
    private static func storedBlocks(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var start = 0
        repeat {
            let end = min(start + 65_535, bytes.count)
            let length = UInt16(end - start)
            output.append(end == bytes.count ? 1 : 0)  // BFINAL, BTYPE 00, then byte-aligned
            output += withUnsafeBytes(of: length.littleEndian, Array.init)
            output += withUnsafeBytes(of: (~length).littleEndian, Array.init)
            output += bytes[start..<end]
            start = end
        } while start < bytes.count
        return output
    }

    private struct BitWriter {
        var bytes: [UInt8] = []
        private var current: UInt32 = 0
        private var filled = 0

        mutating func write(_ value: UInt32, count: Int) {
            for index in 0..<count { push((value >> UInt32(index)) & 1) }
        }

        /// Huffman codes go most significant bit first.
        mutating func writeReversed(_ value: UInt32, count: Int) {
            for index in stride(from: count - 1, through: 0, by: -1) { push((value >> UInt32(index)) & 1) }
        }

        private mutating func push(_ bit: UInt32) {
            current |= bit << UInt32(filled)
            filled += 1
            if filled == 8 { flush() }
        }

        private mutating func flush() {
            bytes.append(UInt8(truncatingIfNeeded: current))
            current = 0
            filled = 0
        }

        var finished: [UInt8] {
            mutating get {
                if filled > 0 { flush() }
                return bytes
            }
        }
    }

    private struct CRC32 {
        private static let table: [UInt32] = (0..<256).map { index in
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
            return value
        }

        private var crc: UInt32 = 0xFFFF_FFFF
        var value: UInt32 { crc ^ 0xFFFF_FFFF }

        mutating func update(_ bytes: [UInt8]) {
            for byte in bytes { crc = Self.table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }

        mutating func updateZeros(_ count: Int) {
            for _ in 0..<count { crc = Self.table[Int(crc & 0xFF)] ^ (crc >> 8) }
        }
    }
}
