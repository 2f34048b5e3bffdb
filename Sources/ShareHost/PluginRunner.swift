import FoundationEssentials
public import ShareCore
import SharePOSIX
public import ShareProtocol
import Synchronization

/// Runs one request in a service's plugin process, as `docs/plugin-protocol.md` describes: the
/// program is started directly (an argv, never a shell) in the bundle's folder, as the leader of
/// a process group of its own (``ServiceProgram``, as every program of a service), reads one JSON
/// request on standard input and writes newline-delimited JSON events on standard output.
public final class PluginRunner: Sendable {
  /// The time limit when the bundle sets none (`XDGShareTimeout`).
  public static let defaultTimeout: Double = 600
  /// How long a plugin has between SIGTERM and SIGKILL.
  public static let terminationGrace = ServiceProgram.terminationGrace
  /// How long a plugin may keep running after its final event before it is stopped.
  static let exitGrace: Double = 5
  /// What is read after the program has ended: what it wrote before it did, as far as anything
  /// still writing there lets that be told.
  static let maximumDrainAfterExit = 1 << 20

  public let service: ShareService
  public let request: PluginRequest
  private let environment: [String: String]
  private let logLocation: FilePath?
  private let state = Mutex(RunState())

  private struct RunState {
    var program: ServiceProgram?
    var cancelledByUser = false
    /// Whether the program's final event was `complete`: what it started is released.
    var completed = false
  }

  /// - Parameters:
  ///   - environment: the plugin's environment, to which the request's `XDG_SHARE_*` variables are added.
  ///   - logPath: where the plugin's standard error goes; `nil` passes it through.
  public convenience init(
    service: ShareService, request: PluginRequest, environment: [String: String], logPath: String?
  ) {
    self.init(
      service: service, request: request, environment: environment, logLocation: logPath.map(FilePath.init))
  }

  /// A runner whose plugin writes its standard error to `logLocation`, any bytes.
  public init(
    service: ShareService, request: PluginRequest, environment: [String: String], logLocation: FilePath?
  ) {
    self.service = service
    // Save to Folder's default folder, settled here: its sandbox sees neither where it is set
    // nor the folder until it is bound.
    self.request = SaveToFolderChoice.settled(request, service: service, environment: environment)
    self.environment = environment
    self.logLocation = logLocation
  }

  /// The folders the user chose in the request's `folder` configuration items, which the
  /// program's sandbox binds read-write at their own paths (and no other folder of the user's):
  /// ``ComposeSheetDeclaration/chosenFolders(in:home:)`` over the request's composition, `~`
  /// being the host's `HOME`. A folder that does not exist is the service's to report.
  public var chosenFolders: [FilePath] {
    guard let sheet = service.composeSheet, let home = environment["HOME"], home.hasPrefix("/") else {
      return []
    }
    let target = SaveToFolderChoice.targetFolder(of: request, service: service)
    return sheet.chosenFolders(in: request.compose?.configuration ?? [:], home: FilePath(home))
      + (target.map { [$0] } ?? [])
  }

  /// Stops the request on the user's behalf: SIGTERM to the plugin's process group.
  public func cancel() {
    let program = state.withLock { state -> ServiceProgram? in
      state.cancelledByUser = true
      // The guard first: should the program end at once, what it adopted ends with it. Sent
      // under the lock, so that a completion read meanwhile sends its release after this word.
      if !state.completed { state.program?.tellGuardToEnd() }
      return state.program
    }
    program?.process.signal(Signal.terminate)
  }

  /// Runs the plugin to its end, calling `progress` for each progress event and `posted` when the
  /// plugin says the user has posted (its sheet is gone; the work goes on). Blocks: call it on a
  /// thread of its own.
  public func run(
    progress: (Double?, String?) -> Void = { _, _ in }, posted: () -> Void = {}
  ) -> ShareOutcome {
    ProcessSignals.ignoreBrokenPipes()
    let timeout = service.timeout ?? Self.defaultTimeout
    let program: ServiceProgram
    // The broker does for the program what its sandbox keeps it from (docs/plugin-protocol.md,
    // "The broker"); without one (no folder for its socket), a service that asks it fails saying so.
    let broker = try? Broker(
      paths: SearchPaths(environment: environment, inherited: CurrentProcess.environmentBytes),
      actions: DesktopBrokerActions(environment: environment, log: logLocation, service: service))
    defer { broker?.stop() }
    var brokerEnvironment = environment
    brokerEnvironment[Broker.environmentVariable] = broker?.socketPath.text
    do throws(ServiceProgram.StartFailure) {
      var log = ChildProcess.Stream.inherit
      if let logLocation {
        let folder = logLocation.bytes.lastIndex(of: UInt8(ascii: "/")).map {
          Array(logLocation.bytes[..<$0])
        }
        if let folder, !folder.isEmpty { try? FileSystem.makeDirectories(folder) }
        do throws(SystemError) {
          log = .descriptor(try FileDescriptor.openForAppending(logLocation.bytes))
        } catch {
          throw .system(error)
        }
      }
      // The request waits in a file in memory rather than a pipe: no thread has to keep writing
      // it, and a helper the program leaves behind holding standard input blocks nothing.
      let request: FileDescriptor
      do throws(SystemError) {
        request = try FileDescriptor.inMemory(
          named: "xdg-share-request", containing: Self.encode(self.request))
      } catch {
        throw .system(error)
      }
      defer { request.close() }
      program = try ServiceProgram.start(
        service, for: .share(requestID: self.request.requestId), environment: brokerEnvironment,
        items: self.request.itemPaths, chosenFolders: chosenFolders.map(\.bytes),
        standardInput: .descriptor(request), standardOutput: .pipe,
        standardError: log)
    } catch {
      switch error {
      case .system(let error):
        return .failed(.couldNotStart(program: service.executablePath, reason: error.reason))
      case .noSandbox(let problem):
        return .failed(.noSandbox(problem))
      }
    }
    let child = program.process
    let alreadyCancelled = state.withLock { state -> Bool in
      state.program = program
      return state.cancelledByUser
    }
    if alreadyCancelled { cancel() }

    let deadline = MonotonicClock.now + timeout
    var reader = EventReader()
    var final: PluginEvent?
    var failure: PluginFailure?
    var timedOut = false
    let output = child.standardOutput!
    // Whether the program has exited. A program it started in the background may hold standard
    // output open long after (an `xdg-open`, a notifier): the end of the program, not of its
    // output, ends the request. What is already written when it ends is read, and no more. The
    // end is seen when it comes: the wait is on the output and the program together.
    var programEnded = false
    var drainedAfterEnd = 0
    reading: while true {
      let now = MonotonicClock.now
      let limit = final == nil ? deadline : min(deadline, (reader.finalAt ?? now) + Self.exitGrace)
      // Checked on every turn, so that a program that never stops writing still meets its limits.
      if now >= limit {
        timedOut = final == nil
        break reading
      }
      let wait = programEnded ? 0 : limit - now
      // A poll that fails counts as output: its read fails too, and ends the reading.
      let seen =
        (try? child.waitUntilEnded(orReadable: output, timeout: wait)) ?? (readable: true, ended: false)
      // Once ended, only what the program wrote before is read: the next turn takes what is
      // there without waiting, and stops when nothing is.
      if !programEnded && seen.ended {
        programEnded = true
        continue
      }
      guard seen.readable else {
        if programEnded { break reading }
        continue
      }
      let chunk = (try? output.read()) ?? []
      if chunk.isEmpty { break reading }
      if programEnded {
        drainedAfterEnd += chunk.count
        if drainedAfterEnd > Self.maximumDrainAfterExit { break reading }
      }
      // After the final event only the end of the output matters: the rest is read and dropped.
      if final != nil { continue }
      let lines = reader.lines(appending: chunk)
      if reader.isOverlong && final == nil {
        failure = .unreadableOutput(
          line: String(decoding: reader.pendingPrefix, as: UTF8.self),
          problem: .tooLong(limit: EventReader.maximumLineLength))
        break reading
      }
      for line in lines where final == nil {
        switch Self.decode(line) {
        case .success(.progress(let fraction, let message)):
          progress(fraction, message)
        case .success(.posted):
          posted()
        case .success(let event):
          final = event
          reader.finalAt = MonotonicClock.now
          if case .complete = event { releaseIfCompleted(program) }
        case .failure(let unreadable):
          failure = .unreadableOutput(
            line: String(decoding: line.prefix(200), as: UTF8.self), problem: unreadable)
          break reading
        }
      }
    }
    if final == nil, failure == nil, !timedOut, let line = reader.remainder(), !line.isEmpty {
      // A last event without its newline still counts.
      switch Self.decode(line) {
      case .success(let event) where event.isFinal:
        final = event
        if case .complete = event { releaseIfCompleted(program) }
      case .success: break
      case .failure(let unreadable):
        failure = .unreadableOutput(
          line: String(decoding: line.prefix(200), as: UTF8.self), problem: unreadable)
      }
    }

    // A cancel or a time-out ends everything the request started, wherever it went; a request
    // that ended by itself releases what it leaves running (a viewer it opened).
    var completed = false
    if case .complete? = final { completed = true }
    if timedOut || (state.withLock { $0.cancelledByUser } && !completed) {
      // The guard's verdict: end what it adopted, now (it waits for this once the program has
      // ended); said again once all is ended here, for a program that was still running.
      program.endWhatItStarted(grace: Self.terminationGrace)
    }
    // Asked to end (`politely`), it has a moment; else it may overstay the exit grace.
    let politely = final != nil || failure != nil || timedOut
    let termination = program.stop(after: politely ? 0.2 : Self.exitGrace, grace: Self.terminationGrace)
    output.close()
    if state.withLock({ $0.cancelledByUser }) && final == nil {
      return .cancelled(code: ShareOutcome.userCancelledCode, message: "cancelled")
    }
    if timedOut { return .timedOut(seconds: timeout) }
    if let failure { return .failed(failure) }
    switch final {
    case .complete(let items)?: return .completed(returningItems: items)
    case .cancel(let code, let message)?: return .cancelled(code: code, message: message)
    case .fail(let code, let message)?: return .failed(.reported(code: code, message: message))
    default:
      switch termination {
      case .exited(0): return .failed(.noFinalEvent)
      case .exited(1) where program.sandboxWasNotSetUp():
        // No sandbox, no program: the one-time check, only now, says why.
        return .failed(.noSandbox(ServiceSandbox.check(environment: environment) ?? .cannotSetUp("")))
      case .exited(let status): return .failed(.exitStatus(status))
      case .signalled(let signal): return .failed(.signal(name: ChildProcess.signalName(signal)))
      }
    }
  }

  /// Notes that the program completed; a guard already told to end the request (a cancel that
  /// came first) releases what the program leaves running after all.
  private func releaseIfCompleted(_ program: ServiceProgram) {
    state.withLock { state in
      state.completed = true
      if state.cancelledByUser { program.tellGuardToRelease() }
    }
  }

  static func encode(_ request: PluginRequest) -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return Array((try? encoder.encode(request)) ?? Data("{}".utf8)) + [UInt8(ascii: "\n")]
  }

  package static func decode(_ line: [UInt8]) -> Result<PluginEvent, OutputProblem> {
    let data = Data(line)
    do {
      return .success(try JSONDecoder().decode(PluginEvent.self, from: data))
    } catch {
      guard (try? JSONDecoder().decode(JSONValue.self, from: data)) != nil else {
        return .failure(.notJSON)
      }
      switch error {
      case DecodingError.keyNotFound(let key, let context):
        return .failure(.missing(CodingPath.describe(context.codingPath + [key])))
      case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
        return .failure(.wrongValue(CodingPath.describe(context.codingPath)))
      // The protocol's own checks (PluginEvent's decoding), worded where the protocol is.
      case DecodingError.dataCorrupted(let context):
        return .failure(
          .invalid(
            at: context.codingPath.isEmpty ? nil : CodingPath.describe(context.codingPath),
            context.debugDescription))
      default:
        return .failure(.notAnEvent)
      }
    }
  }
}

extension PluginRequest {
  /// The paths of the request's files, as its `file://` URLs name them, byte for byte: what a
  /// sandboxed program is given.
  var itemPaths: [[UInt8]] {
    inputItems.flatMap(\.attachments).compactMap { attachment in
      attachment.url.flatMap { FilePath(fileURL: $0)?.bytes }
    }
  }
}

/// Splits a byte stream into lines; blank lines are skipped.
package struct EventReader {
  /// A plugin that writes without end must not make the host hold it all.
  static let maximumLineLength = 16 << 20
  private var buffer: [UInt8] = []
  var finalAt: Double?

  /// Whether the unfinished line has outgrown ``maximumLineLength``.
  package var isOverlong: Bool { buffer.count > Self.maximumLineLength }

  /// The start of the unfinished line, for messages.
  var pendingPrefix: [UInt8] { Array(buffer.prefix(200)) }

  package init() {}

  package mutating func lines(appending chunk: [UInt8]) -> [[UInt8]] {
    buffer += chunk
    var lines: [[UInt8]] = []
    var start = buffer.startIndex
    while let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
      let line = buffer[start..<newline]
      start = newline + 1
      if !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { lines.append(Array(line)) }
    }
    // Consumed lines go once per chunk, not once per line: a flood of short lines stays linear.
    buffer.removeSubrange(..<start)
    return lines
  }

  package func remainder() -> [UInt8]? {
    let trimmed = buffer.filter { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }
    return trimmed.isEmpty ? nil : buffer
  }
}

extension ShareService {
  /// The environment the service's program runs in, over `base`: which service it is and its
  /// App Groups; with ``programEnvironmentBytes``, what ShareKit's context reads.
  public func programEnvironment(_ base: [String: String]) -> [String: String] {
    var environment = base
    environment["XDG_SHARE_SERVICE_ID"] = id
    environment["XDG_SHARE_APPLICATION_GROUPS"] = applicationGroups.joined(separator: ":")
    return environment
  }

  /// The variables of the program's environment that are paths, by bytes: its bundle.
  public var programEnvironmentBytes: [String: [UInt8]] { ["XDG_SHARE_BUNDLE_PATH": bundleLocation.bytes] }
}
