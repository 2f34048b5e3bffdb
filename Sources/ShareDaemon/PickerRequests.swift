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
    guard let program = SheetProgram.locate(environment: environment) else { throw .noSheet }
    let process: ChildProcess
    do {
      // Its result on standard output; what GTK says goes to the service's standard error.
      process = try ChildProcess.spawn(
        SheetProgram.arguments(
          program: program, items: items.map(\.item), parent: parent, resultDescriptor: 1),
        environment: environment, standardOutput: .pipe)
    } catch {
      throw .cannotStartSheet(error.description)
    }
    requests[path] = ActiveRequest(owner: sender, picker: process)
    let outbox = self.outbox
    let start = {
      DetachedThread.start {
        let output = (try? process.standardOutput?.readToEnd()) ?? []
        let termination = process.wait()
        outbox.post(.finished(path: path, response: Self.pickerResponse(output, termination: termination)))
        waker.wake()
      }
    }
    return (message.reply([.objectPath(path)]), start)
  }

  /// The `Response` of a sheet that wrote `output` and ended with `termination`.
  static func pickerResponse(_ output: [UInt8], termination: ChildProcess.Termination) -> [DBusValue] {
    let lastLine = output.split(separator: UInt8(ascii: "\n")).last.map(Array.init) ?? []
    guard let line = try? JSONDecoder().decode(SheetResultLine.self, from: Data(lastLine)), line.response <= 2
    else {
      // Closed from outside (Cancel, the session ending) before it could answer: cancelled.
      if termination == .signalled(Signal.terminate) {
        return [.uint32(1), .vardict([("message", .string("the share sheet was closed"))])]
      }
      return [.uint32(2), .vardict([("message", .string(Self.sheetEndedWithoutAnswer(termination)))])]
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

  private static func sheetEndedWithoutAnswer(_ termination: ChildProcess.Termination) -> String {
    switch termination {
    case .exited(let status): "the share sheet ended without an answer (exit status \(status))"
    case .signalled(let signal):
      "the share sheet ended without an answer (killed by \(ChildProcess.signalName(signal)))"
    }
  }
}
