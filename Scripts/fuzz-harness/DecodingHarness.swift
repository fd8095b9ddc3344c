// libFuzzer entry for `Scripts/fuzz decoding`: the one-pass reader against JSONDecoder + the
// bridge (Tests/TypistTests/Support/DecodingDifferential.swift), on the fuzzer's bytes as a body
// and on a generated body the bytes steer. A disagreement traps, and libFuzzer keeps the input.
import Foundation

nonisolated(unsafe) private var differential = DecodingDifferential()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecoding(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var generator = JSONBodyGenerator(choices: ChoiceSource(bytes: bytes))
    for body in [Data(bytes), Data(generator.body().utf8)] {
        do {
            try differential.check(body)
        } catch {
            fatalError("\(error)")
        }
    }
    return 0
}
