import FoundationEssentials
import ShareCore
import ShareDBus
import ShareHost
import SharePOSIX
import ShareProtocol

/// `ShowPicker`: the share sheet, started for a caller, as a request object. The sheet runs as
/// its own process (it links GTK; the service does not) and writes how it ended as one JSON line,
/// which becomes the request's one `Response`.
extension RequestTable {
  /// Starts the sheet for `ShowPicker(s parent_window, aa{sv} items, a{sv} options)`; returns the
  /// reply (the request's handle) and what starts the sheet once that reply is queued.
  func showPicker(
    _ message: DBusMessage, environment: [String: String], limits: Limits, stopping: Bool, waker: Waker
  ) throws(BusError) -> (reply: DBusMessage, start: () -> Void) {
    let arguments = message.arguments()
    guard case .string(let parent) = arguments[0] else {
      throw .invalidArgument("parent_window", .notAString)
    }
    guard parent.isEmpty || parent.hasPrefix("x11:") || parent.hasPrefix("wayland:") else {
      throw .invalidArgument("parent_window", .notAParentWindow(parent))
    }
    let items = try ItemArguments.decode(arguments[1], argument: "items")
    guard !items.isEmpty else {
      throw .invalidArgument("items", .noItems)
    }
    let sender = message.sender ?? ""
    let path = try admit(sender: sender, options: arguments[2], limits: limits, stopping: stopping)
    let sheet: SheetSession
    do {
      sheet = try SheetSession.start(
        SheetRequest(items: items.map(\.item), parent: parent), environment: environment)
    } catch {
      switch error {
      case .notInstalled: throw .noSheet
      case .cannotStart(_, let reason): throw .cannotStartSheet(reason)
      }
    }
    requests[path] = ActiveRequest(owner: sender, picker: sheet)
    let outbox = self.outbox
    let start = {
      DetachedThread.start {
        outbox.post(.finished(path: path, response: Self.pickerResponse(sheet.wait())))
        waker.wake()
      }
    }
    return (message.reply([.objectPath(path)]), start)
  }

  /// The `Response` of a sheet that ended so.
  static func pickerResponse(_ end: SheetSession.End) -> [DBusValue] {
    guard case .answered(let line) = end else {
      // Closed from outside (Cancel, the session ending) before it could answer: cancelled.
      return [.uint32(end == .closed ? 1 : 2), .vardict([("message", .string(end.problem ?? ""))])]
    }
    var results: [(String, DBusValue)] = []
    if let id = line.results.serviceID { results.append(("service-id", .string(id))) }
    if let id = line.results.requestID { results.append(("request-id", .string(id))) }
    if line.response == 0 {
      let returned = (line.results.returnedItems ?? []).map(Self.returned)
      results.append(("returned-items", .array(elementSignature: "a{sv}", returned)))
    } else {
      results.append(("message", .string(line.results.message ?? "")))
    }
    return [.uint32(line.response), .vardict(results)]
  }
}
