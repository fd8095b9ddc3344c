import Foundation
import Testing
import TypistText
@testable import TypistCore

/// Piped input (`typist < file.api`) as it really arrives: in reads that end anywhere, from files
/// written on any system.
@Suite("Piped input")
struct PipedInputTests {
    @Test("A read that ends inside a character keeps the character whole (every '€' of 90,000 bytes survives)")
    func charactersAcrossReads() async throws {
        // Three bytes a character: a 64 KiB read (65,536 = 3 × 21,845 + 1) ends inside one, as does
        // any read whose length is not a multiple of three.
        let text = String(repeating: "€", count: 30_000) + "\nlast line é\n"
        let received = try await readThroughPipe(Array(text.utf8))
        let replaced = received.unicodeScalars.filter { $0 == "\u{FFFD}" }.count
        #expect(received == text, "\(received.utf8.count) of \(text.utf8.count) bytes, \(replaced) replacement characters")
    }

    @Test("A character left unfinished at the end of the input is one replacement character, not lost input")
    func unfinishedAtEnd() async throws {
        let received = try await readThroughPipe(Array("ok\n".utf8) + [0xE2, 0x82])
        #expect(received == "ok\n\u{FFFD}")
    }

    @Test("Where UTF-8 can be cut", arguments: [
        ([0x61, 0x62], 2),                  // ASCII
        ([0x61, 0xC3], 1),                  // the first byte of é
        ([0x61, 0xC3, 0xA9], 3),            // é, whole
        ([0x61, 0xE2, 0x82], 1),            // two bytes of €
        ([0xF0, 0x9F, 0x98], 0),            // three bytes of 😀
        ([0xF0, 0x9F, 0x98, 0x80], 4),      // 😀, whole
        ([0x61, 0x80], 2),                  // a stray continuation byte is not held back
        ([0x61, 0xFF], 2),                  // nor an invalid byte
        ([0x80, 0x80, 0x80, 0x80, 0x80], 5),
        ([], 0),
    ] as [([UInt8], Int)])
    func boundary(bytes: [UInt8], end: Int) {
        #expect(UTF8Boundary.end(ofCompleteCharactersIn: bytes[...]) == end)
    }

    @Test("A script written with CRLF line breaks runs its code and its :commands line by line")
    func crlfLines() async throws {
        try await withDemoShell { shell, output, _ in
            let status = await shell.runPiped("let a = 1\r\nprint(a)\r\n:vars\r\nlet s = \"x\"\r\nprint(s.count)\r\n")
            #expect(status == ExitStatus.success, "\(output.error)")
            #expect(output.standard.contains("1\n"), "\(output.standard)")
            #expect(output.standard.contains("a  Int"), "\(output.standard)")
            #expect(output.standard.hasSuffix("1\n"), "\(output.standard)")
            #expect(!output.standard.contains("\r"), "\(output.standard)")
        }
    }

    @Test("A CRLF break split between two pieces is one break")
    func crlfSplitAcrossPieces() async throws {
        try await withDemoShell { shell, output, _ in
            var runner = PipedRunner(shell: shell, name: "<stdin>")
            #expect(await runner.feed("let a = 41\r", moreWaiting: false) == nil)
            #expect(await runner.feed("\nprint(a + 1)\r\n:vars\r", moreWaiting: false) == nil)
            #expect(await runner.feed("\n", moreWaiting: false) == nil)
            #expect(await runner.finish() == ExitStatus.success, "\(output.error)")
            #expect(output.standard.hasPrefix("42\n"), "\(output.standard)")
            #expect(output.standard.contains("a  Int"), "\(output.standard)")
        }
    }

    @Test("One line that arrives in 200,000 pieces is read once, not once a piece")
    func longLineInManyPieces() async throws {
        // A 50 MB one-line literal took more than ten minutes: each piece made the runner look for a
        // line break in the whole line so far. The pieces here are small so that the same rescanning
        // would be 200,000 scans of up to 2 MB — this test would not end.
        try await withDemoShell { shell, output, _ in
            var runner = PipedRunner(shell: shell, name: "<stdin>")
            #expect(await runner.feed("let s = \"", moreWaiting: true) == nil)
            var endedEarly = false
            for _ in 0..<200_000 where await runner.feed("aaaaaaaaaa", moreWaiting: true) != nil {
                endedEarly = true
            }
            #expect(!endedEarly)
            #expect(await runner.feed("\"\nprint(s.count)\n", moreWaiting: false) == nil)
            #expect(await runner.finish() == ExitStatus.success, "\(output.error)")
            #expect(output.standard == "2000000\n")
        }
    }

    /// Everything `PipedInput` gives for `bytes` written into a pipe at once.
    private func readThroughPipe(_ bytes: [UInt8]) async throws -> String {
        let pipe = Pipe()
        let writer = Thread {
            pipe.fileHandleForWriting.write(Data(bytes))
            try? pipe.fileHandleForWriting.close()
        }
        writer.start()
        let input = PipedInput(descriptor: pipe.fileHandleForReading.fileDescriptor)
        var received = ""
        while let piece = await input.next() { received += piece.text }
        try pipe.fileHandleForReading.close()
        return received
    }
}
