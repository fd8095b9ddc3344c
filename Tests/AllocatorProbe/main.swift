// Runs ShellCommandLine.prepareProcess() in a process of its own and prints what it did, so that
// CommandLineTests checks it without changing the test process's allocator. Not a product.
import Foundation
import Typist

print(ShellCommandLine.prepareProcess() ? "tuned" : "untouched")
