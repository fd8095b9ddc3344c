#!/usr/bin/env python3
"""Writes long, regular seed inputs for the fuzzer: deep nesting and long chains of every kind,
which a byte-level mutator with a dictionary never builds by itself."""
import os
import sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
kinds = {
    "parens": lambda n: "(" * n + "1" + ")" * n,
    "not": lambda n: "!" * n + "true",
    "minus": lambda n: "let r = " + "- " * n + "1",
    "try": lambda n: "try? " * n + "item(id: 1)",
    "coalesce": lambda n: "let o: Int? = nil\n" + "o ?? " * n + "0",
    "plus": lambda n: "1" + " + 1" * n,
    "concat": lambda n: '"a"' + ' + "b"' * n,
    "members": lambda n: "item(id: 1)" + ".name" * n,
    "methods": lambda n: '"x"' + ".lowercased()" * n,
    "optional-chain": lambda n: "let s: String? = nil\ns" + "?.lowercased()" * n,
    "calls": lambda n: "f" + "()" * n,
    "subscripts": lambda n: "items()" + "[0]" * n,
    "force": lambda n: "item(id: 1).note" + "!" * n,
    "ternary": lambda n: "true ? 1 : " * n + "2",
    "arrays": lambda n: "[" * n + "1" + "]" * n,
    "dictionaries": lambda n: '["k": ' * n + "1" + "]" * n,
    "closures": lambda n: "{ " * n + "1" + " }" * n,
    "ifs": lambda n: "var x = 0\n" + "if true { " * n + "x = 1" + " }" * n,
    "interpolation": lambda n: '"\\(' * n + "1" + ')"' * n,
    "array-type": lambda n: "let t: " + "[" * n + "Int" + "]" * n + " = []",
    "function-type": lambda n: "let t: " + "() -> " * n + "Int = 1",
    "value-loop": lambda n: f"var v: Any = 1\nfor _ in 0..<{n} {{ v = [v] }}\nprint(v == v)",
    "recursion": lambda n: f"func f(_ n: Int) -> Int {{ n == 0 ? 0 : 1 + f(n - 1) }}\nf({n})",
    "map-chain": lambda n: "items(count: 5)" + ".map { $0.id }.filter { $0 > 0 }" * (n // 10),
    "statements": lambda n: "var a = 1\n" + "a += 1\n" * n + "a",
}
for name, make in kinds.items():
    for n in (100, 260, 300, 600):
        text = make(n)
        if len(text.encode()) <= 4096:
            with open(os.path.join(out, f"long-{name}-{n}.api"), "w") as f:
                f.write(text + "\n")
