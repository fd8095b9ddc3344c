import Foundation
import Testing
import APIScript
@testable import Typist
@testable import TypistCore
import TypistTesting

/// The one-pass reader gives exactly what JSONDecoder + the bridge give, or hands the body over:
/// generated bodies × every key strategy × models that declare subsets of the keys.
@Suite("One-pass reader against JSONDecoder")
struct DecodingDifferentialTests {
    @Test("An unknown snake_case key, seen twice, is skipped (it once crashed the process)")
    func unknownSnakeCaseKeyTwice() throws {
        // Datasette's table list: the second record's `private` hit the cached "no field" entry.
        let body = Data(#"[{"user_id":1,"private":false},{"user_id":2,"private":true}]"#.utf8)
        let bridge = ValueBridge()
        _ = try? bridge.scriptType(of: [DifferentialModels.Subset].self)
        let plan = try #require(bridge.readingPlan(for: [DifferentialModels.Subset].self))
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let fast = try #require(JSONReader.value(from: body, plan: plan, decoder: decoder))
        #expect(fast == bridge.value(of: try decoder.decode([DifferentialModels.Subset].self, from: body)))
    }

    @Test("20,000 generated bodies read the same both ways", arguments: 0..<4)
    func generatedBodies(part: UInt64) async throws {
        // Seconds of work: on a thread of its own, so the concurrency pool stays free for the
        // tests whose servers and time limits need it.
        let (mismatch, accepted, handedOver) = try await offThePool { () -> (DecodingMismatch?, Int, Int) in
            var differential = DecodingDifferential()
            var generator = JSONBodyGenerator(choices: ChoiceSource(seed: 0x7E57_0000 + part))
            for _ in 0..<5_000 {
                do throws(DecodingMismatch) {
                    try differential.check(Data(generator.body().utf8))
                } catch {
                    return (error, differential.accepted, differential.handedOver)
                }
            }
            return (nil, differential.accepted, differential.handedOver)
        }
        if let mismatch { Issue.record("\(mismatch)") }
        // The one-pass reader must take a real share, or the comparison proves nothing.
        #expect(accepted > 2_000, "accepted \(accepted), handed over \(handedOver)")
    }
}
