import FoundationEssentials
public import ShareCore
public import SharePOSIX

/// A service's program, started: the one way every program of a service starts, to serve a
/// request (``PluginRunner``) or to publish the service's direct targets (the D-Bus service).
///
/// Here, and nowhere else, a program gets its environment (``ShareService/programEnvironment(_:)``
/// and ``ShareService/programEnvironmentBytes``, and what its purpose adds), its working folder
/// (its bundle's), its process group of its own under `xdg-share-guard` (``GuardProgram``), and
/// the marker by which ``ProcessTree`` finds whatever it starts. What confines a program further
/// (a sandbox) belongs here too, so that no way of starting one goes around it.
///
/// Ending it is the same whatever it was started for: ``endWhatItStarted(grace:)`` ends every
/// process it started, in any group or session, as a cancel or a time-out does, and
/// ``stop(after:grace:)`` waits for it and stops it when it overstays.
public final class ServiceProgram: Sendable {
  /// What the program is started for.
  public enum Purpose: Equatable, Sendable {
    /// To serve the request `requestID`, which reads it on standard input; the request's
    /// `XDG_SHARE_REQUEST_ID` is its marker.
    case share(requestID: String)
    /// To publish the service's direct targets and exit: `XDG_SHARE_PUBLISH_TARGETS=1` and no
    /// `XDG_SHARE_REQUEST_ID`; marked by an `XDG_SHARE_PUBLISH_ID` of its own.
    case publishTargets
  }

  /// How long a program has between SIGTERM and SIGKILL.
  public static let terminationGrace: Double = 2

  public let service: ShareService
  /// The process started: `xdg-share-guard`, leading the group the program is in, or, without a
  /// guard, the program itself.
  public let process: ChildProcess
  /// Whether ``process`` is `xdg-share-guard`, which hears the request's end from here.
  public let isGuarded: Bool
  /// The environment entry (`NAME=VALUE`) every process the program starts inherits.
  public let marker: [UInt8]

  private init(service: ShareService, process: ChildProcess, isGuarded: Bool, marker: [UInt8]) {
    self.service = service
    self.process = process
    self.isGuarded = isGuarded
    self.marker = marker
  }

  /// Starts `service`'s program for `purpose`, in its bundle's folder, as the leader of a process
  /// group of its own under the guard `environment` names or the one installed beside the host
  /// (``GuardProgram/locate(environment:)``).
  /// - Parameter environment: the host's environment, to which the service's variables are added.
  /// - Throws: ``SystemError`` when the program cannot be started, as `posix_spawn` would.
  public static func start(
    _ service: ShareService, for purpose: Purpose, environment: [String: String],
    standardInput: ChildProcess.Stream, standardOutput: ChildProcess.Stream,
    standardError: ChildProcess.Stream
  ) throws(SystemError) -> ServiceProgram {
    var programEnvironment = service.programEnvironment(environment)
    let marker: (name: String, value: String)
    switch purpose {
    case .share(let requestID):
      marker = ("XDG_SHARE_REQUEST_ID", requestID)
    case .publishTargets:
      programEnvironment["XDG_SHARE_PUBLISH_TARGETS"] = "1"
      programEnvironment["XDG_SHARE_REQUEST_ID"] = nil
      marker = ("XDG_SHARE_PUBLISH_ID", UUID().uuidString.lowercased())
    }
    let guardPath = GuardProgram.locate(environment: environment)
    let process = try GuardProgram.spawn(
      service.executableLocation.bytes, guardPath: guardPath, environment: programEnvironment,
      environmentBytes: service.programEnvironmentBytes, marker: marker, grace: terminationGrace,
      workingDirectory: service.bundleLocation.bytes, standardInput: standardInput,
      standardOutput: standardOutput, standardError: standardError)
    return ServiceProgram(
      service: service, process: process, isGuarded: guardPath != nil,
      marker: Array("\(marker.name)=\(marker.value)".utf8))
  }

  /// Tells the guard to end everything it holds once the program has ended (a cancel, a
  /// time-out); nothing without a guard.
  public func tellGuardToEnd() {
    if isGuarded { process.signalLeader(RequestGuard.endSignal) }
  }

  /// Tells the guard that the program completed after all: what it leaves running is released.
  public func tellGuardToRelease() {
    if isGuarded { process.signalLeader(RequestGuard.releaseSignal) }
  }

  /// Ends every process the program started, wherever it went, and the program: the guard's
  /// word first, then everything that descends from ``process`` or carries ``marker`` (SIGTERM,
  /// SIGKILL `grace` seconds later to what is left: ``ProcessTree/end(marked:descendingFrom:grace:)``),
  /// then the guard's word again, its verdict. Blocks until they are gone; the guard itself is
  /// left to ``stop(after:grace:)``.
  public func endWhatItStarted(grace: Double = terminationGrace) {
    tellGuardToEnd()
    ProcessTree.end(marked: marker, descendingFrom: process.pid, grace: grace)
    tellGuardToEnd()
  }

  /// Waits `wait` seconds for the process to end; when it overstays, SIGTERM to its group and,
  /// `grace` seconds later, SIGKILL. Collects it.
  public func stop(after wait: Double, grace: Double = terminationGrace) -> ChildProcess.Termination {
    if let ended = process.wait(timeout: wait) { return ended }
    process.signal(Signal.terminate)
    if let ended = process.wait(timeout: grace) { return ended }
    process.signal(Signal.kill)
    return process.wait()
  }
}

/// How a run to publish a service's direct targets went wrong: the line the host adds to the
/// run's log (``DirectTargetStore/publishingLog(of:)``), where `xdg-share doctor` points.
public enum PublishingFailure: Equatable, Sendable {
  case couldNotStart(reason: String)
  case exitStatus(Int32)
  case signal(name: String)
  /// Stopped, with what it started, after the time limit.
  case timedOut(seconds: Double)

  /// The line, marked as the host's among what the program wrote.
  public var logLine: String {
    let what =
      switch self {
      case .couldNotStart(let reason): "cannot start the program: \(reason)"
      case .exitStatus(let status): "the program exited with status \(status)"
      case .signal(let name): "the program was killed by \(name)"
      case .timedOut(let seconds): ShareOutcome.timedOutMessage("the program", seconds: seconds)
      }
    return "xdg-share: \(what)\n"
  }

  /// What a run that ended so went wrong; nil for a success.
  public init?(_ termination: ChildProcess.Termination) {
    switch termination {
    case .exited(0): return nil
    case .exited(let status): self = .exitStatus(status)
    case .signalled(let signal): self = .signal(name: ChildProcess.signalName(signal))
    }
  }
}

extension DirectTargetStore {
  /// Where the programs run to publish the services' direct targets write their standard error,
  /// one file per service for its last run: `$XDG_STATE_HOME/xdg-share/publishers/`, beside the
  /// folder of targets rather than in it, which the D-Bus service watches.
  public var publishingLogFolder: FilePath {
    // `…/xdg-share/targets` → `…/xdg-share/publishers`.
    let slash = folder.bytes.lastIndex(of: UInt8(ascii: "/")) ?? folder.bytes.endIndex
    return FilePath(bytes: folder.bytes[..<slash]).appending("publishers")
  }

  /// The log of the last run of the service `id`'s program to publish its targets.
  public func publishingLog(of serviceID: String) -> FilePath {
    publishingLogFolder.appending(serviceID + ".log")
  }
}

extension DirectTargetStore {
  /// The logs of runs to publish targets that hold something (what the program wrote on
  /// standard error, or the host's line when the run went wrong), by service, for `doctor`.
  public func publishingLogs() -> [(serviceID: String, log: FilePath)] {
    guard let names = FileSystem.entries(ofDirectory: publishingLogFolder.bytes) else { return [] }
    return names.map { String(decoding: $0, as: UTF8.self) }.filter { $0.hasSuffix(".log") }.sorted()
      .compactMap { name in
        let log = publishingLogFolder.appending(name)
        guard let status = try? FileSystem.status(log.bytes), status.node == .regular, status.size > 0 else {
          return nil
        }
        return (String(name.dropLast(".log".count)), log)
      }
  }
}
