import Dispatch
import ShareCore
import ShareGLib
import ShareGtk
import ShareHost
import SharePOSIX
import Synchronization

/// `xdg-share-sheet`: reads the command line, loads the services on a background thread while
/// GTK starts, shows the picker, and ends with the outcome's exit status.
@MainActor
public enum SheetApp {
  /// The application id: names the picker to the desktop. It is the application entry's
  /// (`org.xdgshare.Share.desktop`), so a dock shows the sheet as Share with its icon; the
  /// application is not unique, so it never owns the D-Bus service's name.
  public static let applicationID = "org.xdgshare.Share"

  /// How long the window waits for its services before it opens without them, in seconds.
  static let servicesWait = 0.25

  /// Ends every picker as its window's close would, and cancels the shares they run: what
  /// SIGTERM, SIGINT and SIGHUP do (see `xdg-share-sheet`'s main). A share that went on without
  /// its window (posted, or its window closed) is cancelled too, except on SIGHUP: the caller
  /// that started the sheet went away, which a share in the background outlives.
  public static func terminate(signal: Int32) {
    if ComposeMode.isRunning { ComposeMode.terminate() }
    for picker in PickerWindow.live { picker.terminate() }
    guard signal != Signal.hangUp else { return }
    for share in BackgroundShare.running { share.cancel() }
  }

  /// Runs the picker; returns the exit status.
  public static func run(arguments: [[UInt8]], environment: [String: String]) -> Int32 {
    // Before the thread that loads the services: it sets an environment variable.
    Renderer.avoidSoftwareOpenGL(environment: environment)
    let parsed: SheetArguments
    do {
      parsed = try SheetArguments.parse(arguments)
    } catch {
      printError(
        "xdg-share-sheet: \(error.message)\n" + (SheetArguments.usage.split(separator: "\n").first ?? ""))
      return 2
    }
    if parsed.showHelp {
      print(SheetArguments.usage, terminator: "")
      return 0
    }
    for warning in parsed.warnings { printError("xdg-share-sheet: \(warning)") }
    let directory = ShareGLib.currentDirectory()
    let items = parsed.items.map { item -> ShareItem in
      if case .file(let path) = item { return .file(path.absolute(in: directory)) }
      return item
    }
    if let serviceID = parsed.compose {
      return ComposeMode.run(serviceID: serviceID, items: items, arguments: parsed, environment: environment)
    }
    let text = SheetText(environment: environment)
    let timing = environment["XDG_SHARE_SHEET_TIMING"] != nil

    // The services load while GTK starts: both take tens of milliseconds, on two cores at once.
    func load(_ items: [ShareItem]) -> Arrival<(LoadedSelection, [String: Texture])> {
      let arrival = Arrival<(LoadedSelection, [String: Texture])>()
      DispatchQueue.global(qos: .userInteractive).async {
        let loaded = ServiceSource.load(
          items: items, environment: environment, text: text, filter: parsed.filter,
          preview: parsed.preview?.absolute(in: directory))
        let icons = iconTextures(for: loaded.accepting)
        if timing { reportTime("services-loaded") }
        Task { @MainActor in arrival.deliver((loaded, icons)) }
      }
      return arrival
    }
    let early = items.isEmpty ? nil : load(items)
    // Before GTK's own start-up, which would print its warning and exit 1 without an answer.
    guard Application.openDisplay() else {
      return endWithoutDisplay(environment: environment, resultDescriptor: parsed.resultDescriptor)
    }

    var result = SheetResult(.notChosen(.declined))
    let application = Application(id: applicationID)
    let parent = parsed.parent
    let service = parsed.service
    func open(_ items: [ShareItem], _ arrival: Arrival<(LoadedSelection, [String: Texture])>) {
      Style.addCSS(PickerWindow.css + ActionsRow.css + TargetsRow.css)
      let picker = PickerWindow(
        application: application, items: items, text: text, environment: environment, caller: parsed.caller,
        title: parsed.title, modal: parsed.modal, report: { result = $0 })
      PickerWindow.live.append(picker)
      // The window opens with its services when they come soon enough, so that it opens at the
      // size of its list; else it opens showing that they load, at a size that fits most lists.
      arrival.whenDelivered { [weak picker] loaded, icons in
        guard let picker else { return }
        picker.show(loaded, iconTextures: icons)
        let opening = picker.present(parent: parent)
        // A service named on the command line (a launcher's action) runs at once.
        if let service { picker.choose(service) }
        picker.onFirstFrame {
          if timing {
            if opening { reportTime("first-frame") }
            reportTime("services-shown")
          }
          // Decoded once the list is on screen: a photo takes a core for a while.
          loadThumbnail(of: loaded.summary) { [weak picker] texture in
            picker?.summary.showThumbnail(texture, label: text("Preview"))
          }
        }
      }
      DispatchQueue.main.asyncAfter(deadline: .now() + servicesWait) { [weak picker] in
        MainActor.assumeIsolated {
          guard let picker, !picker.isPresented else { return }
          picker.window.setDefaultSize(width: 440, height: 520)
          picker.showLoading()
          if picker.present(parent: parent), timing { picker.onFirstFrame { reportTime("first-frame") } }
        }
      }
    }
    _ = application.run {
      if timing { reportTime("activate") }
      if let early {
        open(items, early)
        return
      }
      // Started with nothing to share (the launcher's Share): the files first.
      application.hold()
      let chooser = FileChooser(
        title: text("Choose Files to Share"), acceptLabel: text("Share"), application: application)
      chooser.choose { paths in
        defer { application.release() }
        guard let paths else { return }
        let chosen = paths.map { ShareItem.file(FilePath(bytes: $0)) }
        open(chosen, load(chosen))
      }
    }
    // A pin or a hide made just before the window closed is on disk before the process ends.
    PickerWindow.settingsQueue.sync {}
    if let descriptor = parsed.resultDescriptor {
      writeResult(result, to: descriptor)
    }
    if environment["XDG_SHARE_SHEET_REPORT_FREED"] != nil {
      printError("xdg-share-sheet: controllers freed: \(PickerWindow.freed.load(ordering: .relaxed))")
    }
    return result.exitStatus
  }

  /// The sheet cannot open a window: no display is named, or the one named cannot be opened.
  /// It ends as a picker with no one to ask does (exit status 8, "no service chosen"), its
  /// words in its result line for the front end that started it, which says them; without a
  /// result descriptor, on standard error.
  static func endWithoutDisplay(environment: [String: String], resultDescriptor: Int32?) -> Int32 {
    let result = SheetResult(.notChosen(.noDisplay(displayNames(environment))))
    if let resultDescriptor {
      writeResult(result, to: resultDescriptor)
    } else if let message = result.message {
      printError("xdg-share-sheet: \(message)")
    }
    return result.exitStatus
  }

  /// The displays `environment` names, Wayland's first, as GTK tries them.
  nonisolated static func displayNames(_ environment: [String: String]) -> [String] {
    [environment["WAYLAND_DISPLAY"], environment["DISPLAY"]].compactMap { $0 }.filter { !$0.isEmpty }
  }

  /// Decodes the image files some services name as their icons (`CFBundleIconFile`).
  nonisolated private static func iconTextures(for services: [ShareService]) -> [String: Texture] {
    var textures: [String: Texture] = [:]
    for service in services where service.icon.hasPrefix("/") {
      // Twice the size drawn: sharp on a display scaled by 2.
      textures[service.id] = try? Texture.load(contentsOf: Array(service.icon.utf8), fittingIn: 64)
    }
    return textures
  }

  /// Decodes the summary's thumbnail off the main thread: a photo can take a while.
  private static func loadThumbnail(
    of summary: SelectionSummary, then show: @escaping @MainActor @Sendable (Texture) -> Void
  ) {
    guard case .thumbnail(let path) = summary.picture else { return }
    DispatchQueue.global(qos: .userInitiated).async {
      guard let texture = try? Texture.load(contentsOf: path.bytes, fittingIn: SummaryView.pictureSize * 2)
      else { return }
      Task { @MainActor in show(texture) }
    }
  }

  private static func writeResult(_ result: SheetResult, to descriptor: Int32) {
    guard let file = FileDescriptor.inherited(descriptor) else {
      printError("xdg-share-sheet: --result-fd \(descriptor) is not open")
      return
    }
    do {
      try file.write(result.line)
    } catch {
      printError("xdg-share-sheet: cannot write the result: \(error)")
    }
    file.close()
  }

  /// `first-frame 123456789` on standard error: the monotonic clock in nanoseconds, for the
  /// start-up benchmark (`XDG_SHARE_SHEET_TIMING=1`).
  nonisolated private static func reportTime(_ event: String) {
    printError("\(event) \(Int64(MonotonicClock.now * 1e9))")
  }

  nonisolated static func printError(_ message: String) {
    StandardStream.error.write(message + "\n")
  }
}

/// A value made on another thread, and what waits for it on the main actor; whichever comes
/// second runs the waiter.
@MainActor
final class Arrival<Value: Sendable> {
  private var value: Value?
  private var waiter: ((Value) -> Void)?

  func deliver(_ value: Value) {
    if let waiter {
      self.waiter = nil
      waiter(value)
    } else {
      self.value = value
    }
  }

  func whenDelivered(_ waiter: @escaping (Value) -> Void) {
    if let value {
      self.value = nil
      waiter(value)
    } else {
      self.waiter = waiter
    }
  }
}
