internal import ShareSyscalls

/// Where the sheet writes how long its slides took, as measured on the frame clock:
/// `XDG_SHARE_ANIMATION_LOG` names a file, and each transition appends a line, `slide-in 0.251`.
/// For tests and for anyone tuning the sheet; nothing is written without the variable.
struct AnimationLog: Sendable {
  let path: String

  init?(environment: [String: String]) {
    guard let path = environment["XDG_SHARE_ANIMATION_LOG"], !path.isEmpty else { return nil }
    self.path = path
  }

  /// Appends `name seconds` with three decimals. A file that cannot be written is left alone:
  /// the sheet works the same without its log. The corresponding C functions are `open` and
  /// `write`.
  func record(_ name: String, seconds: Double) {
    let line = "\(name) \(Self.format(seconds))\n"
    let descriptor = system_open(path, _O_WRONLY | _O_APPEND | _O_CREAT | _O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return }
    defer { _ = system_close(descriptor) }
    // One write of a short line to an O_APPEND file: whole, never interleaved.
    _ = line.utf8CString.withUnsafeBufferPointer { system_write(descriptor, $0.baseAddress, $0.count - 1) }
  }

  static func format(_ seconds: Double) -> String {
    let milliseconds = Int((max(0, seconds) * 1000).rounded())
    let fraction = String(milliseconds % 1000)
    return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
  }
}
