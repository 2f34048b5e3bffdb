public import ShareCore
public import ShareProtocol

/// The compose step before a share starts, for a service that declares `XDGShareComposeSheet`:
/// the values to start from (remembered, else defaults), the sheet (or the defaults, without a
/// display), the values checked, and what was posted remembered for next time: plain values in
/// the ``ConfigurationStore``, secure ones in the ``SecretStore``.
public struct ComposeStep: Sendable {
  public let configuration: ConfigurationStore
  public let secrets: any SecretStore
  /// A bundled service's file from before the sandbox, whose values come after the remembered
  /// ones; none in tests that do not ask for it.
  public let earlier: EarlierSettings?

  public init(configuration: ConfigurationStore, secrets: any SecretStore, earlier: EarlierSettings? = nil) {
    self.configuration = configuration
    self.secrets = secrets
    self.earlier = earlier
  }

  /// The question for sharing `items` with `service`; `nil` when it declares no sheet.
  public func question(for service: ShareService, items: [ShareItem]) -> (ComposeQuestion, [ComposeWarning])?
  {
    asking(service, items: items).map { ($0.question, $0.warnings) }
  }

  /// ``question(for:items:)``, and which of its values came from the earlier file: those are the
  /// file's to keep, not remembered. The values are looked up (and a password command run) once.
  private func asking(_ service: ShareService, items: [ShareItem]) -> (
    question: ComposeQuestion, warnings: [ComposeWarning], fromEarlierFile: [String: String]
  )? {
    guard let sheet = service.composeSheet else { return nil }
    let texts = items.compactMap { item -> String? in
      if case .text(let text) = item { text } else { nil }
    }
    let (values, warnings, fromEarlierFile) = startingValues(of: service)
    let question = ComposeQuestion(
      service: service, sheet: sheet, items: items, contentText: texts.joined(separator: "\n"), values: values
    )
    return (question, warnings, fromEarlierFile)
  }

  /// Each item's value now: remembered (secure: kept in the Secret Service), else the service's
  /// earlier file's (``EarlierSettings``), else its default.
  public func currentValues(of service: ShareService) -> (
    values: [String: String], warnings: [ComposeWarning]
  ) {
    let (values, warnings, _) = startingValues(of: service)
    return (values, warnings)
  }

  /// ``currentValues(of:)``, and which of them came from the earlier file: those are the file's
  /// to keep, not remembered.
  private func startingValues(of service: ShareService) -> (
    values: [String: String], warnings: [ComposeWarning], fromEarlierFile: [String: String]
  ) {
    guard let sheet = service.composeSheet else { return ([:], [], [:]) }
    let remembered = configuration.values(for: service.id)
    var values: [String: String] = [:]
    // Remembered or kept, empty ones too.
    var own: [String: String] = [:]
    var warnings: [ComposeWarning] = []
    for item in sheet.configurationItems {
      var value: String?
      if item.isSecure {
        do {
          value = try secrets.lookup(service: service.id, item: item.identifier)
        } catch {
          warnings.append(.cannotReadSecret(item: item.title, error))
        }
      } else {
        value = remembered[item.identifier].flatMap { item.accepts($0) ? $0 : nil }
      }
      if let found = value { own[item.identifier] = found }
      if let found = value, !found.isEmpty { values[item.identifier] = found }
    }
    var fromEarlierFile: [String: String] = [:]
    if let earlier {
      let needsPassword = sheet.configurationItems.contains { $0.isSecure && values[$0.identifier] == nil }
      let (found, more) = earlier.values(for: service, secrets: secrets, needsPassword: needsPassword)
      warnings += more
      for item in sheet.configurationItems where values[item.identifier] == nil {
        guard let value = found[item.identifier], item.accepts(value) else { continue }
        values[item.identifier] = value
        fromEarlierFile[item.identifier] = value
      }
    }
    for item in sheet.configurationItems where values[item.identifier] == nil {
      if let value = own[item.identifier] ?? item.initialValue { values[item.identifier] = value }
    }
    return (values, warnings, fromEarlierFile)
  }

  /// Asks `prompt` about sharing `items` with `service`; on Post checks and remembers the values.
  public func run(service: ShareService, items: [ShareItem], prompt: any ComposePrompt) -> ComposeOutcome {
    guard let (question, warnings, fromEarlierFile) = asking(service, items: items) else {
      return .notDeclared
    }
    switch prompt.compose(question) {
    case .cancelled: return .cancelled
    case .failed(let failure): return .failed(failure)
    case .posted(let answer):
      var values = question.values
      values.merge(answer.configuration) { _, posted in posted }
      let payload = ComposePayload(contentText: answer.contentText, configuration: values)
      // What the earlier file gave, left as it was, stays the file's: edited there, it counts.
      return finish(
        payload, service: service, warnings: warnings,
        remember: true, unlessFromEarlierFile: fromEarlierFile)
    }
  }

  /// The values of a request made before (`retry`): as recorded, with the secure ones, which are
  /// never recorded, from the Secret Service. No sheet is shown.
  public func replay(_ recorded: ComposePayload, service: ShareService) -> ComposeOutcome {
    guard service.composeSheet != nil else { return .notDeclared }
    var (values, warnings) = currentValues(of: service)
    values.merge(recorded.configuration) { _, recorded in recorded }
    let payload = ComposePayload(contentText: recorded.contentText, configuration: values)
    return finish(payload, service: service, warnings: warnings, remember: false)
  }

  /// Remembers `values` for `service`: plain ones in the file, secure ones in the Secret Service
  /// (only when changed). What could not be kept is returned, to be told; the share goes on.
  public func remember(_ values: [String: String], for service: ShareService) -> [ComposeWarning] {
    guard let sheet = service.composeSheet else { return [] }
    var warnings: [ComposeWarning] = []
    do {
      try configuration.remember(values, for: service)
    } catch {
      warnings.append(.cannotRemember(error))
    }
    for item in sheet.configurationItems where item.isSecure {
      guard let value = values[item.identifier],
        (try? secrets.lookup(service: service.id, item: item.identifier)) != value
      else { continue }
      do {
        try secrets.store(
          value, service: service.id, item: item.identifier,
          label: "xdg-share: \(service.name), \(item.title)")
      } catch {
        warnings.append(.cannotKeepSecret(item: item.title, error))
      }
    }
    return warnings
  }

  /// What is wrong with `payload` for `sheet`: a value missing, not among the choices, or a text
  /// too long; `nil` when nothing is.
  public static func check(_ payload: ComposePayload, service: ShareService) -> ComposeFailure? {
    guard let sheet = service.composeSheet else { return nil }
    let missing = sheet.configurationItems.filter { payload.configuration[$0.identifier] == nil }
    if !missing.isEmpty {
      return .missingValues(service: service.name, serviceID: service.id, items: missing.map(\.title))
    }
    for item in sheet.configurationItems {
      if let value = payload.configuration[item.identifier], let choices = item.choices, !item.accepts(value)
      {
        return .notAChoice(item: item.title, value: value, choices: choices)
      }
    }
    if let maximum = sheet.maximumCharacters, payload.contentText.count > maximum {
      return .tooLong(characters: payload.contentText.count, maximum: maximum)
    }
    return nil
  }

  private func finish(
    _ payload: ComposePayload, service: ShareService, warnings: [ComposeWarning], remember: Bool,
    unlessFromEarlierFile fromEarlierFile: [String: String] = [:]
  ) -> ComposeOutcome {
    // Only the declared items reach the program.
    let declared = Set(service.composeSheet?.configurationItems.map(\.identifier) ?? [])
    let payload = ComposePayload(
      contentText: payload.contentText,
      configuration: payload.configuration.filter { declared.contains($0.key) })
    if let failure = Self.check(payload, service: service) { return .failed(failure) }
    let kept = payload.configuration.filter { fromEarlierFile[$0.key] != $0.value }
    let more = remember ? self.remember(kept, for: service) : []
    return .posted(payload, warnings: warnings + more)
  }
}

/// How the compose step ended.
public enum ComposeOutcome: Equatable, Sendable {
  /// The service declares no sheet: run it at once, without `compose`.
  case notDeclared
  /// Post: the request's `compose`, and what could not be remembered.
  case posted(ComposePayload, warnings: [ComposeWarning])
  /// Cancel: the share does not start (exit status 3).
  case cancelled
  /// The share does not start, and why.
  case failed(ComposeFailure)
}

/// Why the compose step stopped a share, as data; ``message`` words it.
public enum ComposeFailure: Error, Equatable, Sendable {
  /// Items without a value and without a default (their titles): only `configure` can give them.
  case missingValues(service: String, serviceID: String, items: [String])
  /// A value that is not one of its item's choices.
  case notAChoice(item: String, value: String, choices: [String])
  /// More characters than `MaximumCharacters`.
  case tooLong(characters: Int, maximum: Int)
  /// The sheet program did not answer.
  case sheet(SheetFailure)

  public enum SheetFailure: Equatable, Sendable {
    case cannotStart(program: String, reason: String)
    case endedWithoutAnswer(status: Int32)
    case killed(signal: String)
  }

  /// For people, in English.
  public var message: String {
    switch self {
    case .missingValues(let service, let id, let items):
      "\(service) needs \(Self.list(items.map { "'\($0)'" })) before it can share; give "
        + (items.count == 1 ? "it" : "them") + " with 'xdg-share configure \(id)'"
    case .notAChoice(let item, let value, let choices):
      "'\(value)' is not a choice of '\(item)' (\(Self.list(choices.map { "'\($0)'" }, or: true)))"
    case .tooLong(let characters, let maximum):
      "the text has \(characters) characters; the service takes at most \(maximum)"
    case .sheet(.cannotStart(let program, let reason)): "cannot start the compose sheet \(program): \(reason)"
    case .sheet(.endedWithoutAnswer(let status)):
      "the compose sheet ended without an answer (exit status \(status))"
    case .sheet(.killed(let signal)): "the compose sheet ended without an answer (killed by \(signal))"
    }
  }

  static func list(_ words: [String], or: Bool = false) -> String {
    guard words.count > 1 else { return words.first ?? "" }
    return words.dropLast().joined(separator: ", ") + (or ? " or " : " and ") + words[words.count - 1]
  }
}

/// What could not be kept or read for next time; the share goes on.
public enum ComposeWarning: Equatable, Sendable {
  case cannotRemember(ConfigurationStoreFailure)
  case cannotKeepSecret(item: String, SecretStoreFailure)
  case cannotReadSecret(item: String, SecretStoreFailure)
  /// A service's earlier settings file (``EarlierSettings``) gave less than it holds.
  case earlierSettings(file: String, EarlierSettingsFailure)

  /// For people, in English.
  public var message: String {
    switch self {
    case .cannotRemember(let failure): "cannot remember the values in \(failure.file): \(failure.reason)"
    case .cannotKeepSecret(let item, let failure):
      "cannot keep '\(item)' in the Secret Service: \(failure.message)"
    case .cannotReadSecret(let item, let failure):
      "cannot read '\(item)' from the Secret Service: \(failure.message)"
    case .earlierSettings(let file, let failure): "\(file): \(failure.message)"
    }
  }
}
