// xdg-share-sheet: the native share picker; SheetApp says what it does.
import FoundationEssentials
import Glibc
import ShareSheet

// Arguments as bytes: a file name that is not UTF-8 reaches the service unchanged.
let arguments = (1..<Int(CommandLine.argc)).map { index -> [UInt8] in
  guard let argument = CommandLine.unsafeArgv[index] else { return [] }
  return UnsafeRawBufferPointer(start: argument, count: strlen(argument)).map { $0 }
}
exit(SheetApp.run(arguments: arguments, environment: ProcessInfo.processInfo.environment))
