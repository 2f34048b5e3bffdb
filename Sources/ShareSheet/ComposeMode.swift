import FoundationEssentials
import ShareCore
import ShareGLib
import ShareGtk
import ShareHost
import ShareKitUI
import SharePOSIX
import ShareProtocol

/// `xdg-share-sheet --compose SERVICE-ID`: only the compose sheet a service declares
/// (`XDGShareComposeSheet`), for the host's compose step (`SheetComposePrompt` in ShareHost,
/// whose contract this keeps): the starting values as one ``ComposeLine`` on standard input; on
/// Post the line as posted on the result descriptor and exit status 0; Cancel, Escape or the
/// window closed: exit status 3, nothing written.
@MainActor
enum ComposeMode {
  static let postedStatus: Int32 = 0
  static let cancelledStatus = SheetComposePrompt.cancelledStatus
  /// The request cannot be read, the service has no sheet, the answer cannot be written.
  static let failedStatus: Int32 = 1

  /// Whether the sheet is showing: SIGTERM then ends the process as Cancel would.
  private(set) static var isRunning = false

  static func run(
    serviceID: String, items: [ShareItem], arguments: SheetArguments, environment: [String: String]
  ) -> Int32 {
    let start: ComposeLine
    do {
      let bytes = try FileDescriptor.inherited(0)?.readToEnd() ?? []
      let line = bytes.split(separator: UInt8(ascii: "\n")).first.map(Array.init) ?? []
      start = try JSONDecoder().decode(ComposeLine.self, from: Data(line))
    } catch {
      SheetApp.printError(
        "xdg-share-sheet: --compose expects {\"compose\": {\"contentText\": …, \"configuration\": {…}}} "
          + "on standard input: \(error)")
      return failedStatus
    }
    guard let (service, types) = ServiceCatalog.service(withID: serviceID, environment: environment) else {
      SheetApp.printError("xdg-share-sheet: no share service '\(serviceID)'")
      return failedStatus
    }
    guard let declaration = service.composeSheet else {
      SheetApp.printError("xdg-share-sheet: \(service.name) (\(serviceID)) declares no XDGShareComposeSheet")
      return failedStatus
    }
    // The attachments only feed the preview: files that cannot be read are left out of it.
    let attachments =
      (try? PreparedSelection(items.map { RequestedItem($0) }, types: types, inspector: GIOFileInspector()))?
      .attachments ?? []
    let request = RequestBuilder.request(
      id: RequestBuilder.newRequestID(), service: service, attachments: attachments)
    let context = ExtensionContext(request: request, environment: environment) { event in
      if event.isFinal { HostedSheet.requestEnded() }
    }

    // Before GTK's own start-up, which would print its warning: the host says the sheet ended
    // without an answer, as it would of GTK's exit.
    guard Application.openDisplay() else {
      let words = SheetResult(.notChosen(.noDisplay(SheetApp.displayNames(environment)))).message ?? ""
      SheetApp.printError("xdg-share-sheet: \(words)")
      return failedStatus
    }
    var answer: ComposePayload?
    isRunning = true
    defer { isRunning = false }
    HostedSheet.run(
      context: context, applicationID: service.id, parent: arguments.parent.map(Self.window),
      environment: environment
    ) {
      let sheet = DeclaredComposeSheet()
      sheet.declaration = declaration
      sheet.serviceName = service.name
      sheet.startText = start.compose.contentText
      sheet.values = start.compose.configuration
      sheet.onPost = { answer = $0 }
      return sheet
    }
    guard let answer else { return cancelledStatus }
    return write(ComposeLine(compose: answer), to: arguments.resultDescriptor)
  }

  /// SIGTERM, SIGINT or SIGHUP while the sheet shows: the host cancelled (or went), as Cancel.
  static func terminate() {
    CurrentProcess.exit(cancelledStatus)
  }

  private static func window(_ parent: SheetArguments.Parent) -> ParentWindow {
    switch parent {
    case .x11(let xid): .x11(xid)
    case .wayland(let handle): .wayland(handle)
    }
  }

  /// The answer, one line, on `descriptor` (standard output without `--result-fd`).
  private static func write(_ line: ComposeLine, to descriptor: Int32?) -> Int32 {
    let bytes: [UInt8]
    do {
      bytes = Array(try JSONEncoder().encode(line)) + [UInt8(ascii: "\n")]
    } catch {
      SheetApp.printError("xdg-share-sheet: cannot encode the answer: \(error)")
      return failedStatus
    }
    guard let file = FileDescriptor.inherited(descriptor ?? 1) else {
      SheetApp.printError("xdg-share-sheet: --result-fd \(descriptor ?? 1) is not open")
      return failedStatus
    }
    do {
      try file.write(bytes)
    } catch {
      SheetApp.printError("xdg-share-sheet: cannot write the answer: \(error)")
      return failedStatus
    }
    file.close()
    return postedStatus
  }
}
