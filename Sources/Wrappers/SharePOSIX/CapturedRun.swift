internal import Glibc
internal import ShareSyscalls

/// The outcome of running a program to its end with its output captured.
public struct CapturedRun: Sendable {
  public var termination: ChildProcess.Termination
  public var standardOutput: [UInt8]
  public var standardError: [UInt8]

  /// The exit status, or 128 + the signal number as a shell reports it.
  public var status: Int32 {
    switch termination {
    case .exited(let code): code
    case .signalled(let signal): 128 + signal
    }
  }

  /// Runs `arguments` to its end, feeding `input` to its standard input and capturing both
  /// outputs. Both are drained together (`poll`), so a chatty child never blocks on a full pipe.
  public static func run(
    _ arguments: [[UInt8]], environment: [String: String], environmentBytes: [String: [UInt8]] = [:],
    workingDirectory: [UInt8]? = nil, input: [UInt8] = []
  ) throws(SystemError) -> CapturedRun {
    let child = try ChildProcess.spawn(
      arguments, environment: environment, environmentBytes: environmentBytes,
      workingDirectory: workingDirectory, standardInput: .pipe,
      standardOutput: .pipe, standardError: .pipe)
    if let stdin = child.standardInput {
      // A child that exits without reading its input must not fail the run.
      try? stdin.write(input)
      stdin.close()
    }
    var outputs: [[UInt8]] = [[], []]
    let streams = [child.standardOutput!, child.standardError!]
    var open = [true, true]
    while open.contains(true) {
      var fds = streams.indices.map {
        CInterop.PollDescriptor(fd: open[$0] ? streams[$0].rawValue : -1, events: _POLLIN, revents: 0)
      }
      try check("poll") { system_poll(&fds, fds.count, -1) }
      for index in streams.indices where open[index] && fds[index].revents != 0 {
        let chunk = try streams[index].read()
        if chunk.isEmpty { open[index] = false } else { outputs[index] += chunk }
      }
    }
    return CapturedRun(termination: child.wait(), standardOutput: outputs[0], standardError: outputs[1])
  }
}
