import FoundationEssentials
public import ShareCore
public import SharePOSIX
import ShareProtocol

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
  /// What the sandbox holds beside the program (the filtered bus), ended with it.
  private let resources: SandboxResources?
  /// The read end of `bwrap`'s `--json-status-fd`, for a sandboxed program.
  private let sandboxStatus: FileDescriptor?
  /// The service's direct targets in its container, carried out when the program has ended.
  private let containerTargets: ContainerTargets?

  private init(
    service: ShareService, process: ChildProcess, isGuarded: Bool, marker: [UInt8],
    resources: SandboxResources?, sandboxStatus: FileDescriptor?, containerTargets: ContainerTargets?
  ) {
    self.service = service
    self.process = process
    self.isGuarded = isGuarded
    self.marker = marker
    self.resources = resources
    self.sandboxStatus = sandboxStatus
    self.containerTargets = containerTargets
  }

  /// Why a program did not start.
  public enum StartFailure: Error, Equatable, Sendable {
    /// It could not be started, as `posix_spawn` would say.
    case system(SystemError)
    /// It is to run sandboxed and no sandbox can be made here: it does not run at all.
    case noSandbox(SandboxUnavailable)

    /// Why, for people.
    public var reason: String {
      switch self {
      case .system(let error): error.reason
      case .noSandbox(let problem): problem.message
      }
    }
  }

  /// Starts `service`'s program for `purpose`, in its bundle's folder, as the leader of a process
  /// group of its own under the guard `environment` names or the one installed beside the host
  /// (``GuardProgram/locate(environment:)``), in a sandbox made for it (``SandboxPlan``) unless
  /// its entitlements say `org.xdgshare.unconfined`: guard, then `bwrap`, then the program.
  /// - Parameters:
  ///   - environment: the host's environment, to which the service's variables are added; only
  ///     the documented ones reach a sandboxed program.
  ///   - items: the paths of the request's items, which a sandboxed program sees at those paths.
  ///   - chosenFolders: the folders the user chose for the request (``PluginRunner/chosenFolders``),
  ///     which a sandboxed program may write at their own paths; one that does not exist is left
  ///     out, for the program to report.
  /// - Throws: ``StartFailure/system(_:)`` when the program cannot be started, as `posix_spawn`
  ///   would; ``StartFailure/noSandbox(_:)`` when it is to be sandboxed and cannot be.
  public static func start(
    _ service: ShareService, for purpose: Purpose, environment: [String: String], items: [[UInt8]] = [],
    chosenFolders: [[UInt8]] = [], standardInput: ChildProcess.Stream, standardOutput: ChildProcess.Stream,
    standardError: ChildProcess.Stream
  ) throws(StartFailure) -> ServiceProgram {
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
    var arguments = [service.executableLocation.bytes]
    var spawnEnvironment = programEnvironment
    var environmentBytes = service.programEnvironmentBytes
    var resources: SandboxResources?
    var inherited: [FileDescriptor] = []
    var sandboxStatus: FileDescriptor?
    var containerTargets: ContainerTargets?
    if !service.entitlements.unconfined {
      // What posix_spawn would say of a program that cannot run; inside, bwrap would say it
      // only as an exit status.
      guard FileSystem.isExecutable(arguments[0]) else {
        let exists = (try? FileSystem.status(arguments[0])) != nil
        throw .system(
          SystemError(call: "posix_spawn", errno: exists ? 13 : 2, subject: service.executablePath))
      }
      let prepared = try prepareSandbox(
        service, environment: environment, programEnvironment: programEnvironment, items: items,
        chosenFolders: chosenFolders, marker: marker)
      arguments = prepared.plan.arguments
      spawnEnvironment = [:]
      environmentBytes = prepared.plan.environment
      resources = prepared.resources
      inherited = [prepared.seccomp, prepared.status.write]
      sandboxStatus = prepared.status.read
      containerTargets = ContainerTargets(
        serviceID: service.id, container: ServiceSandbox.container(of: service, environment: environment),
        hostStore: DirectTargetStore(
          paths: SearchPaths(environment: environment, inherited: CurrentProcess.environmentBytes)))
    }
    // Handed on (as copies) to the guard and bwrap, which reads it; not needed here after.
    defer { for descriptor in inherited { descriptor.close() } }
    let process: ChildProcess
    do throws(SystemError) {
      process = try GuardProgram.spawn(
        arguments, guardPath: guardPath, environment: spawnEnvironment, environmentBytes: environmentBytes,
        inherited: inherited, marker: marker, grace: terminationGrace,
        workingDirectory: service.bundleLocation.bytes,
        standardInput: standardInput, standardOutput: standardOutput, standardError: standardError)
    } catch {
      resources?.release()
      throw .system(error)
    }
    return ServiceProgram(
      service: service, process: process, isGuarded: guardPath != nil,
      marker: Array("\(marker.name)=\(marker.value)".utf8), resources: resources,
      sandboxStatus: sandboxStatus, containerTargets: containerTargets)
  }

  /// The sandbox `service`'s program runs in for this request: what must exist outside made
  /// (its container, its groups' containers, the filtered bus, its seccomp filter in a file in
  /// memory, which the program's `bwrap` finds as descriptor ``seccompDescriptor``, and the pipe
  /// of its status, ``statusDescriptor``), the plan built. Whether bwrap can make a sandbox here
  /// is not checked beforehand, which would cost a bwrap more per share: a sandbox that could not
  /// be set up is told from the program's own end afterwards (``sandboxWasNotSetUp()``).
  private static func prepareSandbox(
    _ service: ShareService, environment: [String: String], programEnvironment: [String: String],
    items: [[UInt8]], chosenFolders: [[UInt8]], marker: (name: String, value: String)
  ) throws(StartFailure) -> (
    plan: SandboxPlan, resources: SandboxResources?, seccomp: FileDescriptor,
    status: (read: FileDescriptor, write: FileDescriptor)
  ) {
    guard let bwrap = ServiceSandbox.locateBubblewrap(environment: environment) else {
      throw .noSandbox(.noBubblewrap)
    }
    let entitlements = service.entitlements
    // No filter, no sandbox: a program never runs with fewer doors shut than its entitlements say.
    let filter: [UInt8]
    do throws(SandboxUnavailable) {
      filter = try ServiceSeccomp.filter(for: entitlements)
    } catch {
      throw .noSandbox(error)
    }
    let seccomp: FileDescriptor
    let status: (read: FileDescriptor, write: FileDescriptor)
    do throws(SystemError) {
      seccomp = try FileDescriptor.inMemory(named: "xdg-share-seccomp", containing: filter)
      status = try FileDescriptor.pipe()
    } catch {
      throw .system(error)
    }
    var variables = programEnvironment.mapValues { Array($0.utf8) }
    for (name, value) in service.programEnvironmentBytes { variables[name] = value }
    let paths = SearchPaths.system(environment: environment)
    // The groups' containers are at their paths outside, which the service finds by this
    // variable: XDG_DATA_HOME inside is its own container's.
    let groupsHome = ["XDG_SHARE_GROUPS_HOME": paths.dataHomeLocation.bytes + Array("/xdg-share/groups".utf8)]
    variables.merge(groupsHome) { $1 }
    // HOME keeps its path inside; without one (or at "/") the sandbox's is an empty /home.
    let home = paths.homeLocation.bytes == Array("/".utf8) ? Array("/home".utf8) : paths.homeLocation.bytes
    let runtime = paths.runtimeDirectoryLocation?.bytes
    let container = ServiceSandbox.container(of: service, environment: environment)
    let groupNames =
      service.applicationGroups
      + entitlements.applicationGroups.filter {
        !service.applicationGroups.contains($0)
      }
    let groups = groupNames.compactMap { ApplicationGroup($0) }.map {
      $0.containerLocation(environment: groupsHome)
    }
    do throws(SystemError) {
      try FileSystem.makeDirectories(container, mode: 0o700)
      for folder in ["config", "data", "cache", "state"] {
        try FileSystem.makeDirectories(container + Array("/\(folder)".utf8), mode: 0o700)
      }
      for group in groups { try FileSystem.makeDirectories(group, mode: 0o700) }
    } catch {
      seccomp.close()
      throw .system(error)
    }
    var resources: SandboxResources?
    var busSocket: [UInt8]?
    var accessibilitySocket: [UInt8]?
    // One proxy for the buses the service may reach: the session bus, filtered to the names it
    // may talk to; with its own windows, the accessibility bus, filtered as Flatpak filters it.
    var buses: [ServiceSandbox.ProxiedBus] = []
    if !entitlements.sessionBusTalk.isEmpty, let address = environment["DBUS_SESSION_BUS_ADDRESS"] {
      buses.append(
        .init(address: address, socket: "bus", rules: entitlements.sessionBusTalk.map { "--talk=\($0)" }))
    }
    if entitlements.display, let address = ServiceSandbox.accessibilityBusAddress(environment: environment) {
      buses.append(.init(address: address, socket: "a11y", rules: ServiceSandbox.accessibilityRules))
    }
    if !buses.isEmpty {
      let base = runtime ?? Array("/tmp".utf8)
      let folder = base + Array("/xdg-share/sandbox-bus-\(marker.value)".utf8)
      do throws(SystemError) {
        resources = try ServiceSandbox.startBusProxy(buses, folder: folder, environment: environment)
      } catch {
        seccomp.close()
        throw .system(error)
      }
      for bus in buses {
        let socket = folder + Array("/\(bus.socket)".utf8)
        if bus.socket == "bus" { busSocket = socket } else { accessibilitySocket = socket }
      }
    }
    let program = service.executableLocation.bytes
    let inputs = SandboxPlan.Inputs(
      bwrap: bwrap, program: program, resolvedProgram: FileSystem.resolvedPath(program),
      bundle: service.bundleLocation.bytes,
      entitlements: entitlements, items: items,
      chosenFolders: chosenFolders.filter { (try? FileSystem.status($0))?.node == .directory },
      container: container, groupContainers: groups,
      userFolders: ServiceSandbox.userFolders(entitlements.userFolders, environment: environment), home: home,
      runtimeDirectory: runtime ?? Array("/run/user/sandbox".utf8), environment: variables, marker: marker,
      busSocket: busSocket, accessibilitySocket: accessibilitySocket,
      libraryFolders: ServiceSandbox.swiftRuntimeFolder.map { [$0] } ?? [],
      seccompDescriptor: seccompDescriptor, statusDescriptor: statusDescriptor)
    return (SandboxPlan(inputs), resources, seccomp, status)
  }

  /// The number the program's `bwrap` writes its status on: the second descriptor handed
  /// through the guard.
  static let statusDescriptor = ChildProcess.firstInheritedDescriptor + 1

  /// Whether the sandbox could not be set up, once the process has ended with status 1: `bwrap`
  /// then said why on standard error and never started the program, and wrote no `exit-code` on
  /// its status (it does for a program that ran, whatever its status). False for an unconfined
  /// program.
  public func sandboxWasNotSetUp() -> Bool {
    guard let sandboxStatus else { return false }
    var status: [UInt8] = []
    // bwrap has ended: what it wrote is there, and its end too unless something it started
    // holds the pipe, which the program would have closed.
    while (try? sandboxStatus.waitReadable(timeout: 0)) == true,
      let bytes = try? sandboxStatus.read(), !bytes.isEmpty
    {
      status += bytes
    }
    return !String(decoding: status, as: UTF8.self).contains("\"exit-code\"")
  }

  /// The number the program's `bwrap` finds its seccomp filter at: the first descriptor handed
  /// through the guard.
  static let seccompDescriptor = ChildProcess.firstInheritedDescriptor

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
    let termination = waitOrStop(after: wait, grace: grace)
    // The filtered bus ends with the request.
    resources?.release()
    containerTargets?.collect()
    return Self.programTermination(termination, sandboxed: !service.entitlements.unconfined)
  }

  /// How the program itself ended: `bwrap` says a program killed by signal N as exit status
  /// 128 + N, as a shell does.
  static func programTermination(
    _ termination: ChildProcess.Termination, sandboxed: Bool
  ) -> ChildProcess.Termination {
    guard sandboxed, case .exited(let status) = termination, status > 128, status < 128 + 65 else {
      return termination
    }
    return .signalled(status - 128)
  }

  /// Ends what the sandbox holds beside the program (the filtered bus), once the program has
  /// ended, and carries the direct targets it published out of its container
  /// (docs/sandbox.md); ``stop(after:grace:)`` does it too.
  public func releaseSandbox() {
    resources?.release()
    containerTargets?.collect()
  }

  private func waitOrStop(after wait: Double, grace: Double) -> ChildProcess.Termination {
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
