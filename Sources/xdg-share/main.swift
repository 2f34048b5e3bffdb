import Foundation
import ShareCommandLine
import SharePOSIX

// Before any thread exists: Ctrl-C during a share must stop the plugin's process group too.
SignalWatcher.install()

// The arguments as the kernel passed them: `CommandLine.arguments` would repair non-UTF-8
// file names into different ones.
let arguments = (1..<Int(CommandLine.argc)).map { index in
  Array(
    UnsafeBufferPointer(start: CommandLine.unsafeArgv[index], count: strlen(CommandLine.unsafeArgv[index]!))
  )
  .map { UInt8(bitPattern: $0) }
}
exit(XDGShareTool.run(arguments: arguments, environment: ProcessInfo.processInfo.environment))
