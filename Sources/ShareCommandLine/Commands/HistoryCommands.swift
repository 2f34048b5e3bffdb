import FoundationEssentials
import ShareCore
import ShareHost
import SharePOSIX
import ShareProtocol

/// `xdg-share history`, `xdg-share retry ID` and `xdg-share group path GROUP`.
enum HistoryCommands {
  static func history(json: Bool, context: ToolContext) -> ExitCode {
    // A request whose host died shows as `interrupted`, here and in `--json`.
    let records = HistoryStore(stateHome: context.paths.stateHomeLocation).records().map(\.shown)
    if json {
      do {
        context.output.line(String(decoding: try HistoryStore.json(records), as: UTF8.self))
      } catch {
        context.output.error(Wording.describe(.cannotEncode("the history", reason: "\(error)")))
        return .failure
      }
      return .success
    }
    for record in records {
      let items = record.items.map(describe)
      let summary = (items.first ?? "") + (items.count > 1 ? " (+\(items.count - 1) more)" : "")
      context.output.line(
        [
          String(record.id.prefix(8)),
          LocalTime(secondsSince1970: record.started.timeIntervalSince1970).minutePrecision,
          record.displayStatus,
          record.serviceName, summary,
        ].joined(separator: "  "))
    }
    return .success
  }

  static func retry(id: String, json: Bool, again: Bool, context: ToolContext) -> ExitCode {
    let store = HistoryStore(stateHome: context.paths.stateHomeLocation)
    let records = store.records()
    let record: HistoryRecord
    switch store.record(matching: id, in: records) {
    case .found(let found): record = found
    case .none:
      context.output.error(Wording.describe(.noSuchRequest(id)))
      return .failure
    case .ambiguous(let ids):
      context.output.error(Wording.describe(.ambiguousRequest(id, candidates: ids)))
      return .failure
    }
    // The request, the one it retried and every retry of either: one share the user asked for.
    let family = HistoryStore.family(of: record, in: records)
    if let running = family.first(where: \.isRunning) {
      context.output.error(Wording.describe(.retryStillRunning(record.id, by: running.id)))
      return .failure
    }
    if !again, let completed = family.first(where: { $0.status == .completed }) {
      context.output.error(Wording.describe(.alreadyCompleted(record.id, by: completed.id)))
      return .failure
    }
    // A file handed over as bytes went with the request: leaving it out would share less than
    // was asked for, silently.
    let gone = record.items.compactMap { item -> String? in
      if case .handedOver(let name) = item { name } else { nil }
    }
    guard gone.isEmpty else {
      context.output.error(Wording.describe(.handedOverGone(record.id, names: gone, caller: record.caller)))
      return .failure
    }
    return ShareCommand.perform(
      serviceID: record.serviceId, items: record.items.compactMap(\.shareItem), recorded: record.compose,
      retryOf: record.id, target: record.target.map(ShareCommand.TargetChoice.recorded),
      reporter: OutcomeReporter.make(context: context, json: json), context: context)
  }

  static func groupPath(_ name: String, context: ToolContext) -> ExitCode {
    guard let group = ApplicationGroup(name) else {
      context.output.error(Wording.describe(.notAnAppGroup(name)))
      return .usage
    }
    let location = FilePath(
      bytes: group.containerLocation(
        environment: CurrentProcess.environmentBytes(restoring: context.environment)))
    guard let path = location.string else {
      // Not UTF-8 (FileManager cannot name it): made by bytes, printed with escapes.
      do throws(SystemError) {
        try FileSystem.makeDirectories(location.bytes, mode: 0o700)
      } catch {
        context.output.error(Wording.describe(.cannotCreate(location.text, reason: error.reason)))
        return .failure
      }
      context.output.line(location.text)
      return .success
    }
    do {
      try FileManager.default.createDirectory(
        atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    } catch {
      context.output.error(Wording.describe(.cannotCreate(path, reason: Wording.reason(error))))
      return .failure
    }
    context.output.line(path)
    return .success
  }

  private static func describe(_ item: RecordedItem) -> String {
    guard let shared = item.shareItem else {
      switch item {
      case .file(let url): return url  // A file URL that does not parse: as recorded.
      case .handedOver(let name): return name
      case .webURL, .text: return ""
      }
    }
    return shared.shortName
  }
}
