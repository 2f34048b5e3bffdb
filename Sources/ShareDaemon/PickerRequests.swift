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
  /// Starts the sheet for `ShowPicker(s parent_window, aa{sv} items, a{sv} options)` through
  /// `sheets`; returns the reply (the request's handle) and what waits for the sheet once that
  /// reply is queued.
  func showPicker(
    _ message: DBusMessage, catalog: ServiceCatalog, sheets: any SheetLauncher, caller: Caller,
    connection: BusConnection, limits: Limits, stopping: Bool, waker: Waker
  ) throws(BusError) -> (reply: DBusMessage, start: () -> Void) {
    let arguments = message.arguments()
    guard case .string(let parent) = arguments[0] else {
      throw .invalidArgument("parent_window", .notAString)
    }
    guard parent.isEmpty || parent.hasPrefix("x11:") || parent.hasPrefix("wayland:") else {
      throw .invalidArgument("parent_window", .notAParentWindow(parent))
    }
    let admitted = try AdmittedItems(
      message, argument: 1, named: "items", caller: caller, requiringSome: true)
    let options = try PickerOptions(message.cursor(atArgument: 2))
    let sender = message.sender ?? ""
    let path = try admit(sender: sender, options: arguments[2], limits: limits, stopping: stopping)
    let (items, files) = try admitted.handedOn(paths: catalog.paths, bus: connection)
    var preview: FilePath?
    var previewFiles: HandedOverFiles?
    if let descriptor = options.preview {
      let handed = try HandedOverFiles.handOn(
        GivenItems(
          items: [RequestedItem(.file(FilePath(bytes: descriptor.processPath)))],
          descriptors: [0: GivenDescriptor(descriptor: descriptor, name: "preview", label: "options.preview")]
        ),
        paths: catalog.paths, portal: nil)
      if case .file(let file) = handed.items[0].item { preview = file }
      previewFiles = handed.files
    }
    // The sheet names an app people know by a name: a sandboxed one, or one with a desktop
    // entry (a bare `python3` is not worth naming).
    var named: SheetCaller?
    if let name = caller.displayName(paths: catalog.paths), caller.isSandboxed || name != caller.identifier {
      named = .application(name: name, id: caller.identifier)
    }
    let request = SheetRequest(
      items: items.map(\.item), parent: parent, caller: named, title: options.title, preview: preview,
      filter: options.filter(for: caller, services: catalog.registry.services), modal: options.modal)
    let sheet: any RunningSheet
    do {
      sheet = try sheets.start(request)
    } catch {
      files?.release(on: connection)
      previewFiles?.release(on: connection)
      throw .sheetNotStarted(error)
    }
    requests[path] = ActiveRequest(
      owner: sender, picker: sheet, files: HandedOverFiles.joined(files, previewFiles))
    let outbox = self.outbox
    let start = {
      DetachedThread.start {
        let results = ResponseResults(sheet.wait())
        outbox.post(.finished(path: path, response: results.arguments(for: .showPicker)))
        waker.wake()
      }
    }
    return (message.reply([.objectPath(path)]), start)
  }
}

/// What a `ShowPicker` caller asks of the sheet, from its `options` (`a{sv}`): `exclude` and
/// `include` (`as`, service ids), `kinds` (`as`: `share`, `action`), `title` (`s`, the preview's
/// line), `preview` (`h`, an image shown instead of the first item's thumbnail), `modal` (`b`).
/// Unknown options are ignored, as portals ignore them; a known one of the wrong type is an error
/// naming it.
struct PickerOptions {
  var exclude: Set<String> = []
  var include: Set<String>?
  var kinds: Set<ShareService.Kind>?
  var title: String?
  var preview: FileDescriptor?
  var modal = false

  init(_ options: DBusCursor) throws(BusError) {
    guard options.kind == .array else { return }
    var entry = options.contents()
    guard entry.kind == .dictionaryEntry else { return }
    repeat {
      var pair = entry.contents()
      let key = pair.string() ?? ""
      pair.next()
      let value = pair.contents()
      func wrong(_ expected: String) -> BusError {
        .invalidArgument(
          "options.\(key)", .type(expected: expected, found: value.value()?.signature ?? value.signature))
      }
      func strings() throws(BusError) -> [String] {
        guard case .array("s", let values)? = value.value() else { throw wrong("as") }
        return values.compactMap(\.stringValue)
      }
      switch key {
      case "exclude": exclude = Set(try strings())
      case "include": include = Set(try strings())
      case "kinds":
        var kinds: Set<ShareService.Kind> = []
        for word in try strings() {
          switch word {
          case "share": kinds.insert(.share)
          case "action": kinds.insert(.action)
          default: throw .invalidArgument("options.kinds", .notAKind(word))
          }
        }
        self.kinds = kinds
      case "title":
        guard case .string(let text)? = value.value() else { throw wrong("s") }
        title = text
      case "preview":
        guard let descriptor = value.fileDescriptor() else { throw wrong("h") }
        preview = descriptor
      case "modal":
        guard case .boolean(let flag)? = value.value() else { throw wrong("b") }
        modal = flag
      default: break
      }
    } while entry.next()
  }

  /// Which services the sheet may offer `caller`: none of those it excluded, nor its own
  /// (`XDGShareApplication`, or an identifier under its app id) unless it included them; only
  /// those it included, and of the kinds it asked for.
  func filter(for caller: Caller, services: [ShareService]) -> ServiceFilter {
    var excluded = exclude
    if let app = caller.appID {
      for service in services
      where service.application == app || service.id.hasPrefix(app + ".") {
        if !(include?.contains(service.id) ?? false) { excluded.insert(service.id) }
      }
    }
    return ServiceFilter(excluded: excluded, included: include, kinds: kinds)
  }
}
