import FoundationEssentials
import ShareCore
import ShareGLib
public import ShareHost
import SharePOSIX
import ShareProtocol

/// One KDE Purpose job, run by the plugin `register` writes for each service: Dolphin's Share
/// submenu, Okular's, Gwenview's and Spectacle's Share menus start it. The plugin's
/// `contents/code/main.run` is a `#!` line naming this program and the service, so the kernel
/// runs:
///
///     xdg-share-purpose SERVICE-ID …/contents/code/main.run --server SOCKET --pluginType T --pluginPath P
///
/// (`--picker` for the service instead: the share sheet). It connects to the host's socket
/// before anything else (a host whose process ends unconnected crashes), reads the job's input,
/// shares it through ``Share`` as any front end does (the rule again, the compose sheet, the
/// record, the program under its guard), streams the progress as `percent` and answers how it
/// ended: `output.url` with the first link the service returned, `error` 1 when cancelled, 100
/// with the command line's words when it failed.
public enum PurposeJob {
  /// The job's command line, as the `#!` line and Purpose make it.
  struct Arguments: Equatable {
    /// The service's identifier, or nil for the share sheet (`--picker`).
    var service: String?
    var server: [UInt8]
    var pluginType: String
  }

  /// Runs the job of `arguments` (after the program's name); returns the exit status, which Purpose
  /// does not read: the share's, for people running it by hand.
  ///
  /// - Parameter sheets: what starts the share sheet for `--picker`: its program unless another
  ///   is handed in (a test's).
  public static func run(
    arguments: [[UInt8]], environment: [String: String], sheets: (any SheetLauncher)? = nil
  ) -> Int32 {
    guard let parsed = parse(arguments) else {
      CurrentProcess.writeToStandardError(
        "usage: xdg-share-purpose SERVICE-ID|--picker [MAIN] --server SOCKET --pluginType Export|ShareUrl"
          + " [--pluginPath PATH]\n(KDE Purpose starts it: see docs/file-managers.md)\n")
      return ExitCode.usage.rawValue
    }
    let host: FileDescriptor
    do {
      host = try UnixSocket.connect(to: parsed.server)
    } catch {
      CurrentProcess.writeToStandardError("xdg-share-purpose: \(error.description)\n")
      return ExitCode.failure.rawValue
    }
    defer { host.close() }
    // A host gone before the answer has nobody to tell.
    let reply: ([UInt8]) -> Void = { line in _ = try? host.write(line) }
    let input: [String: PurposeWire.Value]
    do {
      input = try PurposeWire.readInput { try host.read(upTo: $0) }
    } catch let error as PurposeWire.InputError {
      // What is left unread would make the host's side of the socket fail, the answer unread.
      drain(host)
      reply(PurposeWire.error(.failed, error.message))
      return ExitCode.failure.rawValue
    } catch {
      reply(PurposeWire.error(.failed, "cannot read the job's input: \(error)"))
      return ExitCode.failure.rawValue
    }
    let items = Self.items(input["urls"]?.strings ?? [])
    guard !items.isEmpty else {
      reply(PurposeWire.error(.failed, Diagnostics.nothingToShare))
      return ExitCode.notAccepted.rawValue
    }
    let end: Ended
    if let service = parsed.service {
      end = share(items, with: service, environment: environment, reply: reply)
    } else {
      end = pick(
        items, sheets: sheets ?? ProcessSheetLauncher(environment: environment, endsWithParent: true))
    }
    answer(end, reply: reply)
    return end.exitCode.rawValue
  }

  /// Reads what the host sent and has not been read, as long as more comes at once.
  private static func drain(_ host: FileDescriptor) {
    var drained = 0
    while drained < PurposeWire.maximumInput, (try? host.waitReadable(timeout: 0.05)) == true,
      let chunk = try? host.read(), !chunk.isEmpty
    {
      drained += chunk.count
    }
  }

  static func parse(_ arguments: [[UInt8]]) -> Arguments? {
    // The first word names the service (or the sheet); a second is the `#!` file itself.
    guard let word = arguments.first else { return nil }
    let first = String(decoding: word, as: UTF8.self)
    guard !first.isEmpty, first == "--picker" || !first.hasPrefix("-") else { return nil }
    var server: [UInt8]?
    var pluginType = "Export"
    var index = 1
    while index < arguments.count {
      let argument = String(decoding: arguments[index], as: UTF8.self)
      guard argument.hasPrefix("--") else {
        index += 1
        continue
      }
      guard index + 1 < arguments.count else { return nil }
      let value = arguments[index + 1]
      switch argument {
      case "--server": server = value
      case "--pluginType": pluginType = String(decoding: value, as: UTF8.self)
      // `--pluginPath` names the `#!` file again; later Purpose releases may add options.
      default: break
      }
      index += 2
    }
    guard let server, !server.isEmpty else { return nil }
    return Arguments(service: first == "--picker" ? nil : first, server: server, pluginType: pluginType)
  }

  /// The job's `urls`, as `QUrl::toString()` writes them: local files by their bytes, other
  /// URLs as links.
  static func items(_ urls: [String]) -> [ShareItem] {
    urls.compactMap { url in
      if let path = FilePath(fileURL: url) { return .file(path) }
      return ShareItem.isAbsoluteURL(url) ? .webURL(url) : nil
    }
  }

  /// Shares `items` with the service `id`, in this process, as `xdg-share --service ID` does.
  private static func share(
    _ items: [ShareItem], with id: String, environment: [String: String], reply: ([UInt8]) -> Void
  ) -> Ended {
    guard let (service, types) = ServiceCatalog.service(withID: id, environment: environment) else {
      return Ended(.refused(.noSuchService(id)), service: id)
    }
    let accepted: AcceptedSelection
    do {
      accepted = try Share.prepare(
        service, requested: items.map { RequestedItem($0) }, types: types, inspector: GIOFileInspector())
    } catch {
      return Ended(.refused(error), service: service.name)
    }
    let share = Share.desktop(accepted, environment: environment)
    // The session ending stops the share; a host that kills this process leaves it to the guard.
    SignalWatcher.onTermination { _ in share.cancel() }
    defer { SignalWatcher.onTermination(nil) }
    var lastPercent = -1
    let end = share.run { event in
      guard case .progress(let fraction?, _) = event, Int(fraction * 100) != lastPercent else { return }
      lastPercent = Int(fraction * 100)
      reply(PurposeWire.percent(fraction))
    }
    return Ended(end, service: service.name)
  }

  /// "Share…": the share sheet for `items`, started by `sheets`, its end as it answered.
  private static func pick(_ items: [ShareItem], sheets: any SheetLauncher) -> Ended {
    let sheet: any RunningSheet
    do {
      sheet = try sheets.start(SheetRequest(items: items))
    } catch {
      return Ended(failure: error.message)
    }
    SignalWatcher.onTermination { _ in sheet.cancel() }
    defer { SignalWatcher.onTermination(nil) }
    guard let answer = sheet.wait().answer else { return Ended(failure: SheetSession.End.withoutAnswer) }
    return Ended(sheet: answer)
  }

  /// How the job ended, as the host is told.
  struct Ended {
    var exitCode: ExitCode
    /// How the host is told it ended: completed, cancelled or any other way, a failure.
    var status: ShareEnd.Status
    /// The host's words: the command line's.
    var text: String
    /// The first link returned.
    var link: String?

    init(_ end: ShareEnd, service: String) {
      exitCode = end.exitCode
      status = end.purposeStatus
      text = end.sentence(service: service) ?? end.message() ?? ""
      link = (end.returnedAttachments ?? []).lazy.compactMap(Self.link).first
    }

    init(sheet answer: SheetAnswer) {
      exitCode = answer.exitCode
      status = answer.status
      text = answer.message ?? ""
      link = (answer.returnedItems ?? []).lazy.compactMap(Self.link).first
    }

    init(failure: String) {
      exitCode = .failure
      status = .failed
      text = failure
    }

    /// A returned link: a web address, not a file (the host would open a saved file in place).
    static func link(_ attachment: AttachmentPayload) -> String? {
      guard let url = attachment.url, !attachment.isFile, FilePath(fileURL: url) == nil else { return nil }
      return url
    }
  }

  private static func answer(_ end: Ended, reply: ([UInt8]) -> Void) {
    switch end.status {
    case .completed:
      if let link = end.link { reply(PurposeWire.output(url: link)) }
    case .cancelled: reply(PurposeWire.error(.cancelled, end.text))
    case .failed, .timedOut, .notAccepted, .noSuchService, .notStarted:
      reply(PurposeWire.error(.failed, end.text))
    }
  }
}
