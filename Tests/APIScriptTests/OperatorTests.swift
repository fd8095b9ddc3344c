@testable import APIScript
import Testing

/// The operators are one enum that the lexer, parser, checker and compiler share.
@Suite("Operators")
struct OperatorTests {
    @Test("Every operator and compound assignment lexes as one symbol and parses as itself")
    func everyOperatorRoundTrips() {
        for op in BinaryOperator.allCases {
            var lexer = Lexer(source: ScriptSource(name: "t", text: "a \(op.rawValue) b"))
            let tokens = lexer.tokenize()
            #expect(tokens.map(\.kind) == [.identifier("a"), .symbol(op.rawValue), .identifier("b"), .end], "\(op)")
            let parsed = Parser.parse(ScriptSource(name: "t", text: "a \(op.rawValue) b")).statements
            guard case .expression(let expression)? = parsed.first?.kind, case .binary(let found, _, _, _) = expression.kind else {
                Issue.record("\(op) did not parse as a binary expression")
                continue
            }
            #expect(found == op)
            if op.isArithmetic {
                let assignment = Parser.parse(ScriptSource(name: "t", text: "a \(op.rawValue)= b")).statements
                guard case .assignment(_, let compound, _)? = assignment.first?.kind else {
                    Issue.record("\(op)= did not parse as an assignment")
                    continue
                }
                #expect(compound == op)
            }
        }
    }

    @Test("Operators passed as functions run as the operator", arguments: [
        ("[1, 2, 3].reduce(0, +)", Value.int(6)),
        ("[3, 1, 2].sorted(by: >)", .array([.int(3), .int(2), .int(1)])),
        ("[true, false].reduce(true, &&)", .bool(false)),
        ("[5, 2].reduce(100, %)", .int(0)),
    ])
    func operatorFunctions(source: String, expected: Value) async throws {
        let interpreter = try TestHost.interpreter(output: OutputBuffer())
        #expect(try await interpreter.evaluate(source) == expected)
    }
}
