#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The few POSIX socket calls the demo's HTTP server makes, over raw descriptors: listen on an
/// address, wait for a connection or a wake-up, read, write, shut down. Every platform
/// difference the server has is here (`SOCK_STREAM`'s type, how a write to a closed
/// peer is kept from raising `SIGPIPE`).
enum Socket {
    /// A call that failed, with the system's reason.
    struct Failure: Error, CustomStringConvertible {
        let call: String
        let code: Int32

        var description: String { "\(call): \(String(cString: strerror(code)))" }
    }

    #if canImport(Darwin)
    private static let stream = SOCK_STREAM
    #else
    private static let stream = Int32(SOCK_STREAM.rawValue)
    #endif

    /// A socket listening on `host` (an IPv4 or IPv6 address, or a name such as `localhost`) and
    /// `port` (0 for a free one), and the port it listens on.
    static func listen(host: String, port: Int) throws(Failure) -> (descriptor: Int32, port: Int) {
        guard (0...65_535).contains(port) else { throw Failure(call: "port \(port)", code: EINVAL) }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = stream
        hints.ai_flags = AI_PASSIVE
        var found: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &found)
        defer { if let found { freeaddrinfo(found) } }
        guard resolved == 0, let address = found?.pointee, let socketAddress = address.ai_addr else {
            throw Failure(call: "'\(host)' is not an address to listen on", code: EINVAL)
        }
        let descriptor = socket(address.ai_family, address.ai_socktype, address.ai_protocol)
        guard descriptor >= 0 else { throw Failure(call: "socket", code: errno) }
        var on: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        guard bind(descriptor, socketAddress, address.ai_addrlen) == 0 else {
            let code = errno
            close(descriptor)
            throw Failure(call: "bind \(host):\(port)", code: code)
        }
        guard Glibcless.listen(descriptor, 128) == 0 else {
            let code = errno
            close(descriptor)
            throw Failure(call: "listen", code: code)
        }
        // The port it was given: in the same place in IPv4's and IPv6's addresses.
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        let actual = withUnsafePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
        return (descriptor, Int(actual))
    }

    /// A pipe whose write end wakes a thread waiting in ``waitForConnection(on:wake:)``.
    static func wakePipe() throws(Failure) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw Failure(call: "pipe", code: errno) }
        return (ends[0], ends[1])
    }

    /// The next connection on `listener`, or nil once `wake` is readable (the server stops) or
    /// the listener fails.
    static func waitForConnection(on listener: Int32, wake: Int32) -> Int32? {
        while true {
            var descriptors = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if descriptors[1].revents != 0 { return nil }
            guard descriptors[0].revents != 0 else { continue }
            let connection = accept(listener, nil, nil)
            if connection >= 0 {
                configure(connection)
                return connection
            }
            // Gone before it was taken, or out of descriptors for a moment: wait for the next.
            if [EINTR, ECONNABORTED, EAGAIN, EMFILE, ENFILE].contains(errno) { continue }
            return nil
        }
    }

    /// No delay for small writes (events go out as they are written), and no `SIGPIPE` on Apple's
    /// systems (Linux's is kept off per write, with `MSG_NOSIGNAL`).
    private static func configure(_ connection: Int32) {
        var on: Int32 = 1
        _ = setsockopt(connection, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
        _ = setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Reads what has arrived (at most `count` bytes) into `buffer`; 0 at the end, -1 on an error.
    static func read(_ descriptor: Int32, into buffer: inout [UInt8], count: Int = 64 << 10) -> Int {
        // Into scratch memory, then only what came is appended: a request of a few hundred bytes
        // costs a copy of those, not 64 KiB zeroed and cut again.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { scratch in
            while true {
                let read = recv(descriptor, scratch.baseAddress, count, 0)
                if read < 0, errno == EINTR { continue }
                if read > 0 { buffer.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<read])) }
                return read
            }
        }
    }

    /// Writes all of `bytes`; false when the peer is gone.
    static func write(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                #if canImport(Darwin)
                let written = send(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset, 0)
                #else
                let written = send(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset, Int32(MSG_NOSIGNAL))
                #endif
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }
    }

    /// Wakes the thread waiting on a ``wakePipe()``'s read end.
    static func wakeUp(_ pipe: Int32) {
        var byte: UInt8 = 1
        while Glibcless.write(pipe, &byte, 1) < 0, errno == EINTR {}
    }

    /// Ends both directions: a thread reading from it reads its end.
    static func shutDown(_ descriptor: Int32) {
        _ = shutdown(descriptor, Int32(SHUT_RDWR))
    }

    static func close(_ descriptor: Int32) {
        _ = Glibcless.close(descriptor)
    }
}

/// The C library's `listen`, `write` and `close`, which ``Socket``'s own names hide.
private enum Glibcless {
    static func listen(_ descriptor: Int32, _ backlog: Int32) -> Int32 {
        #if canImport(Darwin)
        Darwin.listen(descriptor, backlog)
        #elseif canImport(Musl)
        Musl.listen(descriptor, backlog)
        #else
        Glibc.listen(descriptor, backlog)
        #endif
    }

    static func write(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Darwin)
        Darwin.write(descriptor, bytes, count)
        #elseif canImport(Musl)
        Musl.write(descriptor, bytes, count)
        #else
        Glibc.write(descriptor, bytes, count)
        #endif
    }

    static func close(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
        Darwin.close(descriptor)
        #elseif canImport(Musl)
        Musl.close(descriptor)
        #else
        Glibc.close(descriptor)
        #endif
    }
}
