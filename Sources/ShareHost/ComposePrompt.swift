import FoundationEssentials
public import ShareCore
import SharePOSIX
public import ShareProtocol
import Synchronization

/// What the compose step asks: the sheet a service declares, with the text and values it starts
/// from.
public struct ComposeQuestion: Equatable, Sendable {
  public var service: ShareService
  public var sheet: ComposeSheetDeclaration
  /// What is being shared, for the sheet's preview.
  public var items: [ShareItem]
  /// The shared texts, joined by newlines (the request's `attributedContentText`).
  public var contentText: String
  /// Each configuration item's value to start from: the one remembered (a secure one from the
  /// ``SecretStore``), else its default; absent when there is neither.
  public var values: [String: String]

  public init(
    service: ShareService, sheet: ComposeSheetDeclaration, items: [ShareItem], contentText: String,
    values: [String: String]
  ) {
    self.service = service
    self.sheet = sheet
    self.items = items
    self.contentText = contentText
    self.values = values
  }
}

/// How the user answered.
public enum ComposeAnswer: Equatable, Sendable {
  /// Post: the text and values as left (values not given keep the question's).
  case posted(ComposePayload)
  case cancelled
  case failed(ComposeFailure)
}

/// Shows a service's compose sheet and waits for Post or Cancel. Blocks: call it on a thread
/// that may wait. One prompt serves one share.
public protocol ComposePrompt: Sendable {
  func compose(_ question: ComposeQuestion) -> ComposeAnswer
  /// Cancels on the user's behalf from another thread (Ctrl-C, D-Bus `Cancel`): ``compose(_:)``
  /// then answers ``ComposeAnswer/cancelled``.
  func cancel()
}

/// The prompts of this desktop.
public enum ComposePrompts {
  /// The sheet program when there is a display and the sheet is installed, else the defaults.
  public static func desktop(environment: [String: String], parent: String = "") -> any ComposePrompt {
    let display = [environment["WAYLAND_DISPLAY"], environment["DISPLAY"]].contains { !($0 ?? "").isEmpty }
    if display, let program = SheetProgram.locate(environment: environment) {
      return SheetComposePrompt(program: program, environment: environment, parent: parent)
    }
    return DefaultsComposePrompt()
  }
}

/// No one to show a sheet to (no display): the shared text and the remembered or default values
/// are posted as they are.
public struct DefaultsComposePrompt: ComposePrompt {
  public init() {}

  public func compose(_ question: ComposeQuestion) -> ComposeAnswer {
    .posted(ComposePayload(contentText: question.contentText, configuration: question.values))
  }

  public func cancel() {}
}

/// The line the sheet program reads on its standard input in compose mode, and writes on its
/// result descriptor on Post: `{"compose": {"contentText": "…", "configuration": {…}}}`.
public struct ComposeLine: Codable, Equatable, Sendable {
  public var compose: ComposePayload

  public init(compose: ComposePayload) {
    self.compose = compose
  }
}

/// The compose sheet in `xdg-share-sheet` (which links GTK; the command line and the D-Bus service
/// do not): `xdg-share-sheet --compose SERVICE-ID [--parent P] --result-fd 3 [--url U]… [--text T]…
/// -- FILE…`. It reads a ``ComposeLine`` with the starting values on standard input, and on Post
/// writes one ``ComposeLine`` on descriptor 3 and exits 0; exit status 3 is Cancel.
public final class SheetComposePrompt: ComposePrompt {
  /// The exit status of a sheet the user cancelled, as `xdg-share`'s.
  public static let cancelledStatus: Int32 = 3

  let program: String
  let environment: [String: String]
  let parent: String
  private let state = Mutex<(process: ChildProcess?, cancelled: Bool)>((nil, false))

  public init(program: String, environment: [String: String], parent: String = "") {
    self.program = program
    self.environment = environment
    self.parent = parent
  }

  public func compose(_ question: ComposeQuestion) -> ComposeAnswer {
    let process: ChildProcess
    do {
      let start = ComposeLine(
        compose: ComposePayload(contentText: question.contentText, configuration: question.values))
      let input = try FileDescriptor.inMemory(
        named: "compose", containing: Array(try JSONEncoder().encode(start)) + [UInt8(ascii: "\n")])
      process = try ChildProcess.spawn(
        SheetProgram.composeArguments(
          program: program, service: question.service.id, items: question.items, parent: parent),
        environment: environment, standardInput: .descriptor(input), standardOutput: .null,
        descriptor3: .pipe)
    } catch let error as SystemError {
      return .failed(.sheet(.cannotStart(program: program, reason: error.reason)))
    } catch {
      return .failed(.sheet(.cannotStart(program: program, reason: "\(error)")))
    }
    let cancelledEarly = state.withLock { state in
      state.process = process
      return state.cancelled
    }
    if cancelledEarly { process.signal(Signal.terminate) }
    let output = (try? process.descriptor3?.readToEnd()) ?? []
    let termination = process.wait()
    let cancelled = state.withLock { state in
      state.process = nil
      return state.cancelled
    }
    if termination == .exited(Self.cancelledStatus) || cancelled { return .cancelled }
    let line = output.split(separator: UInt8(ascii: "\n")).last.map(Array.init) ?? []
    guard termination == .exited(0),
      let answer = try? JSONDecoder().decode(ComposeLine.self, from: Data(line))
    else {
      switch termination {
      case .exited(let status): return .failed(.sheet(.endedWithoutAnswer(status: status)))
      case .signalled(let signal):
        return .failed(.sheet(.killed(signal: ChildProcess.signalName(signal))))
      }
    }
    return .posted(answer.compose)
  }

  public func cancel() {
    let process = state.withLock { state in
      state.cancelled = true
      return state.process
    }
    process?.signal(Signal.terminate)
  }
}
