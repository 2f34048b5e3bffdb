import CFuzzer

#if canImport(Glibc)
  import Glibc
#endif

/// One fuzz target's test: libFuzzer's `LLVMFuzzerTestOneInput`.
public typealias FuzzTest = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

/// Runs libFuzzer with the program's arguments (`-max_total_time=10 corpus/`…) and `test`.
public func runFuzzer(_ test: FuzzTest) -> Never {
  var argc = CommandLine.argc
  var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
  exit(LLVMFuzzerRunDriver(&argc, &argv, test))
}

/// The input as bytes.
public func inputBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
  guard let data, size > 0 else { return [] }
  return Array(UnsafeBufferPointer(start: data, count: size))
}

/// A property the code under test promises. A broken one stops the run as a crash, which
/// libFuzzer saves with the input that broke it.
public func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
  guard !condition else { return }
  let text = Array("property broken: \(message())\n".utf8)
  _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  abort()
}
