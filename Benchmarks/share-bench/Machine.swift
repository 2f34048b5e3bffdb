import Glibc

/// What the figures were measured on, read from the kernel (the binary cannot run `swift`).
enum Machine {
  static func describe(swiftVersion: String?) -> [(String, String)] {
    var name = utsname()
    uname(&name)
    func field<T>(_ value: inout T) -> String {
      withUnsafeBytes(of: &value) { String(cString: $0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
    }
    let cpuinfo = readText("/proc/cpuinfo")
    let model =
      cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
      .flatMap { $0.split(separator: ":", maxSplits: 1).last }
      .map { $0.trimmingPrefix(" ") }.map(String.init) ?? "unknown"
    let memory =
      readText("/proc/meminfo").split(separator: "\n").first { $0.hasPrefix("MemTotal:") }
      .flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) }
      .map { "\($0 / 1024 / 1024) GiB" } ?? "unknown"
    return [
      ("machine", field(&name.machine)),
      ("kernel", "\(field(&name.sysname)) \(field(&name.release))"),
      ("CPU", model),
      ("cores", "\(sysconf(Int32(_SC_NPROCESSORS_ONLN)))"),
      ("memory", memory),
      ("compiler", swiftVersion ?? compiledWith),
      ("load average", loadAverage),
    ]
  }

  /// The 1, 5 and 15 minute load averages: other work on the machine shows in the figures.
  static var loadAverage: String {
    readText("/proc/loadavg").split(separator: " ").prefix(3).joined(separator: " ")
  }

  /// The compiler's version as far as `#if compiler` tells it.
  static var compiledWith: String {
    #if compiler(>=6.4)
      "Swift 6.4 or later"
    #elseif compiler(>=6.3)
      "Swift 6.3"
    #elseif compiler(>=6.2)
      "Swift 6.2"
    #else
      "Swift 6.1 or earlier"
    #endif
  }

  static func readText(_ path: String) -> String {
    guard let file = fopen(path, "r") else { return "" }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = fread(&chunk, 1, chunk.count, file)
      if count <= 0 { break }
      bytes += chunk[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
