import DemoBindings
import Foundation
import Typist

exit(await ShellCommandLine.main(DemoBindings.host))
