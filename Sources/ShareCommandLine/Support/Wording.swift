import FoundationEssentials
import ShareCore
import ShareHost
import SharePOSIX
import ShareProtocol

// POSIXError's code, for its number: the enum alone, none of libc's functions.
internal import enum Glibc.POSIXErrorCode

/// Wording of what the command line reports at run time (bundle problems: ``Diagnostics``;
/// command-line errors: ``Usage``).
enum Wording {
  /// What a command could not do, as data; worded by `describe(_:)`.
  enum CommandProblem: Equatable {
    case noBus(String)
    case busNameTaken(String)
    case noSuchRequest(String)
    case ambiguousRequest(String, candidates: [String])
    /// The request completed by a retry of it (`by`), or by itself (`by` is the request).
    case alreadyCompleted(String, by: String)
    case retryStillRunning(String, by: String)
    /// The request shared files another program handed over as bytes, which went with it.
    case handedOverGone(String, names: [String], caller: String?)
    case notAnAppGroup(String)
    case cannotInstall(String, into: String, reason: String)
    case installedForEveryUser(String, bundle: String, settings: String)
    case notInstalledForUser(String)
    case cannotCreate(String, reason: String)
    case cannotEncode(String, reason: String)
    case cannotUpdate(String, reason: String)
    case cannotRemove(String, reason: String)
    case ownPathUnknown
    /// The program's own path is not UTF-8: file-manager entries, which are UTF-8 text, cannot run it.
    case ownPathNotUTF8(FilePath)
    case noSheet
    case sheetNotStarted(SheetSession.StartError)
    /// The share sheet had no display to open on, in its words.
    case sheetWithoutDisplay(String)
    case ambiguousTarget(String, services: [String])
  }

  static func describe(_ problem: CommandProblem) -> String {
    switch problem {
    case .noBus(let reason): "cannot connect to the session bus: \(reason)"
    case .busNameTaken(let name): "\(name) is already owned on this bus"
    case .noSuchRequest(let id): "no request '\(id)' in the history; see 'xdg-share history'"
    case .ambiguousRequest(let id, let candidates):
      "'\(id)' could be any of \(candidates.joined(separator: ", ")); give more of it"
    case .alreadyCompleted(let id, let by):
      (by == id ? "request \(id) completed" : "request \(id) completed when retried as \(by)")
        + "; to share it once more, run 'xdg-share retry --again \(id)'"
    case .retryStillRunning(let id, let by):
      "request \(id) is still running" + (by == id ? "" : " as \(by)") + "; nothing to retry"
    case .handedOverGone(let id, let names, let caller):
      "request \(id) shared \(names.map { "'\($0)'" }.joined(separator: ", ")) as "
        + (caller.map { "\($0) handed \(names.count == 1 ? "it" : "them") over" } ?? "handed over")
        + ", and the copy went with the request; share \(names.count == 1 ? "it" : "them") again from there"
    case .notAnAppGroup(let name):
      "'\(name)' is not an App Group name; expected group.<reverse-DNS name>, e.g. group.ch.example.hoi"
    case .cannotInstall(let id, let folder, let reason): "cannot install \(id) into \(folder): \(reason)"
    case .installedForEveryUser(let id, let bundle, let settings):
      "\(id) is installed for every user in \(bundle); hide it instead: add it to Hidden= in [Services] of \(settings)"
    case .notInstalledForUser(let id): "no share service '\(id)' is installed for this user"
    case .cannotCreate(let path, let reason): "cannot create \(path): \(reason)"
    case .cannotEncode(let what, let reason): "cannot write \(what) as JSON: \(reason)"
    case .cannotUpdate(let path, let reason): "cannot update \(path): \(reason)"
    case .cannotRemove(let path, let reason): "cannot remove \(path): \(reason)"
    case .ownPathUnknown: "cannot tell where this xdg-share is (/proc/self/exe cannot be read)"
    case .ownPathNotUTF8(let path):
      "cannot write entries that run \(path.displayString): file-manager entries are UTF-8 text and cannot name a program whose path is not UTF-8; install xdg-share where its path is UTF-8"
    case .noSheet: SheetSession.StartError.notInstalled.message + "; choose with --service ID"
    case .sheetNotStarted(let error): error.message
    case .sheetWithoutDisplay(let message): message + "; choose a service with --service ID"
    case .ambiguousTarget(let id, let services):
      "services \(services.joined(separator: ", ")) each have a direct target '\(id)'; choose one with --service"
    }
  }

  static func installed(_ name: String, id: String, in folder: String) -> String {
    "Installed \(name) (\(id)) in \(folder)"
  }

  static func removed(_ path: String) -> String { "Removed \(path)" }

  static func pickerPrompt(count: Int) -> String { "Share with [1-\(count), Enter to cancel]: " }

  static func pickerHint(_ answer: String, count: Int) -> String {
    "'\(answer)' is none of them: type a number from 1 to \(count), or a service's identifier\n"
  }

  static let copyDoesNotLoad = "the copy does not work where it would be installed (see above)"

  static func anchoredLink(_ link: String, to target: String) -> String {
    "  \(link) now links to \(target): it led out of the bundle, so keep that there"
  }

  static func seeLog(_ path: String) -> String { "what it wrote on standard error: \(path)" }

  static func notOffered(_ withheld: ServiceCatalog.Withheld, settingsFile: String) -> String {
    let service = "\(withheld.service.name) (\(withheld.service.id))"
    switch withheld.reason {
    case .hidden: return "not offered: \(service), hidden in \(settingsFile)"
    case .missing(let needs):
      let named = needs.map { $0.split(separator: "|").joined(separator: " or ") }
      return "not offered: \(service) needs \(named.joined(separator: ", ")), not found on this desktop"
    }
  }

  static func noMIMEDatabase(_ directories: [String]) -> String {
    "no shared-mime-info database in \(directories.joined(separator: ", ")): file types cannot be told "
      + "apart (is /usr/share missing from XDG_DATA_DIRS?)"
  }

  static func sharingWith(_ service: String) -> String { "Sharing with \(service)" }

  /// What a service returned, one line each: links and texts as they are, files as paths with
  /// C-style escapes (``FilePath/displayString``), so that each is one line.
  static func lines(for items: [ItemPayload]) -> [String] {
    items.flatMap { item in
      item.attachments.compactMap { attachment -> String? in
        if let path = attachment.path { return FilePath(path).displayString }
        if let url = attachment.url {
          return FilePath(fileURL: url).map(\.displayString) ?? url
        }
        return attachment.text
      } + (item.attachments.isEmpty ? [item.attributedContentText].compactMap { $0 } : [])
    }
  }
}

extension Wording {
  /// Why a file operation failed, as the C library words it: FileManager's errors carry the
  /// system's error number underneath.
  static func reason(_ error: any Error) -> String {
    if let system = error as? SystemError { return system.reason }
    if let cocoa = error as? CocoaError {
      if let posix = cocoa.userInfo["NSUnderlyingError"] as? POSIXError {
        return SystemError(call: "", errno: posix.code.rawValue).reason
      }
      return "error \(cocoa.code.rawValue)"
    }
    if let posix = error as? POSIXError { return SystemError(call: "", errno: posix.code.rawValue).reason }
    return "\(error)"
  }
}
