import DemoBindings
import Foundation
import Typist

ShellCommandLine.prepareProcess()
exit(await ShellCommandLine.main(DemoBindings.host))
