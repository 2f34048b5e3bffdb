import FoundationEssentials
import ShareCore
import SharePOSIX

/// `xdg-share-guard`, which every program of a service runs under (started by ``ServiceProgram``,
/// the one place that starts them) so that whatever it starts ends with its host even when the
/// host is killed with SIGKILL (``RequestGuard`` in SharePOSIX).
enum GuardProgram {
  /// The program's name, beside `xdg-share` in a build and in `libexec/xdg-share` once installed.
  static let name = "xdg-share-guard"

  /// The guard's path: `XDG_SHARE_GUARD` when set (an absolute path; anything else, such as an
  /// empty value, means none), else beside the running program, else in `../libexec/xdg-share/`
  /// from it, as `install.sh` puts it; nil when there is none. Without it a program gets only
  /// its parent-death signal (`setpriv`).
  static func locate(environment: [String: String]) -> String? {
    if let given = environment["XDG_SHARE_GUARD"] { return given.hasPrefix("/") ? given : nil }
    return HelperProgram.locate(name)?.string
  }

  /// Starts `arguments` (the program and its arguments: `bwrap`'s, for a sandboxed one) as the leader of a process group of its own, its environment holding
  /// `marker` (`NAME=VALUE`): under the guard at `guardPath`, or, without one, with the
  /// parent-death signal alone. The guard leads the group and the program is in it, so that
  /// signals to the group reach both; the guard's own environment lacks the marker, so that
  /// ending the request's marked processes never ends the guard before its program.
  /// `inherited` are what the program finds open as descriptors 4, 5, … (``ChildProcess/firstInheritedDescriptor``),
  /// through the guard, which closes its own copies once the program has started.
  /// - Throws: ``SystemError`` when the program cannot be started, as `posix_spawn` would.
  static func spawn(
    _ arguments: [[UInt8]], guardPath: String?, environment: [String: String],
    environmentBytes: [String: [UInt8]] = [:], inherited: [FileDescriptor] = [],
    marker: (name: String, value: String),
    grace: Double, workingDirectory: [UInt8], standardInput: ChildProcess.Stream,
    standardOutput: ChildProcess.Stream, standardError: ChildProcess.Stream
  ) throws(SystemError) -> ChildProcess {
    var environment = environment
    guard let guardPath else {
      environment[marker.name] = marker.value
      return try ChildProcess.spawn(
        arguments, environment: environment, environmentBytes: environmentBytes,
        workingDirectory: workingDirectory, standardInput: standardInput,
        standardOutput: standardOutput, standardError: standardError, newProcessGroup: true,
        inherited: inherited, endsWithParent: true)
    }
    environment[marker.name] = nil
    let program = arguments[0]
    var guarded: [[UInt8]] = [
      Array(guardPath.utf8), Array("--parent".utf8), Array("\(ProcessStatus.currentProcess)".utf8),
      Array("--marker".utf8), Array("\(marker.name)=\(marker.value)".utf8), Array("--grace".utf8),
      Array("\(grace)".utf8), Array("--report-fd".utf8), Array("3".utf8),
    ]
    for offset in inherited.indices {
      let number: Int32 = ChildProcess.firstInheritedDescriptor + Int32(offset)
      guarded += [Array("--pass-fd".utf8), Array("\(number)".utf8)]
    }
    guarded.append(Array("--".utf8))
    guarded += arguments
    let child = try ChildProcess.spawn(
      guarded, environment: environment, environmentBytes: environmentBytes,
      workingDirectory: workingDirectory, standardInput: standardInput,
      standardOutput: standardOutput, standardError: standardError, newProcessGroup: true, descriptor3: .pipe,
      inherited: inherited)
    // The guard closes descriptor 3 once the program has started, or writes why it did not.
    let report = (try? child.descriptor3?.readToEnd()) ?? []
    child.descriptor3?.close()
    guard report.isEmpty else {
      _ = child.wait()
      let number = Int32(String(decoding: report.filter { $0 != UInt8(ascii: "\n") }, as: UTF8.self))
      throw SystemError(
        call: "posix_spawn", errno: number ?? unexplained, subject: String(decoding: program, as: UTF8.self))
    }
    return child
  }

  /// What a report that is not a number stands for: `EIO`, the guard could not say why.
  private static let unexplained: Int32 = 5
}
