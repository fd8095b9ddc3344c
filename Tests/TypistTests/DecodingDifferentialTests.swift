import Foundation
import Testing
@testable import Typist

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
        let plan = try #require(bridge.fastPlan(for: [DifferentialModels.Subset].self))
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let fast = try #require(FastJSONReader.value(from: body, plan: plan, decoder: decoder))
        #expect(fast == bridge.value(of: try decoder.decode([DifferentialModels.Subset].self, from: body)))
    }

    @Test("20,000 generated bodies read the same both ways", arguments: 0..<4)
    func generatedBodies(part: UInt64) throws {
        var differential = DecodingDifferential()
        var generator = JSONBodyGenerator(choices: ChoiceSource(seed: 0x7E57_0000 + part))
        for _ in 0..<5_000 {
            let body = generator.body()
            do {
                try differential.check(Data(body.utf8))
            } catch {
                Issue.record("\(error)")
                return
            }
        }
        // The one-pass reader must take a real share, or the comparison proves nothing.
        #expect(differential.accepted > 2_000, "accepted \(differential.accepted), handed over \(differential.handedOver)")
    }
}
