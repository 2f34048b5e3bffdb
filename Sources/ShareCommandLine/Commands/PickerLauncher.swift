import FoundationEssentials
import ShareCore
import ShareHost
import SharePOSIX
import ShareProtocol

/// The share sheet for `xdg-share FILE…` on the desktop: a window of its own program, which
/// links GTK so that this one need not. Its exit status is the share's, as the terminal's
/// picker would have given it, and what the service returned is printed as a share without the
/// sheet prints it.
enum PickerLauncher {
  /// Whether to choose in the sheet: asked for, or a display and no terminal to ask on.
  static func isWanted(_ options: ShareOptions, context: ToolContext) -> Bool {
    if options.picker { return true }
    let display = [context.environment["WAYLAND_DISPLAY"], context.environment["DISPLAY"]].contains {
      !($0 ?? "").isEmpty
    }
    return display && !(Terminal.isTerminal(0) && Terminal.isTerminal(2))
  }

  /// Shows the sheet for `items` (sharing with `service` at once when one is named); nil when
  /// there is no sheet to show (not installed).
  static func run(items: [ShareItem], service: String?, context: ToolContext) -> ExitCode? {
    guard let program = SheetProgram.locate(environment: context.environment) else { return nil }
    let process: ChildProcess
    do {
      // The result line on the sheet's standard output, as the D-Bus service reads it.
      process = try ChildProcess.spawn(
        SheetProgram.arguments(
          program: program, items: items, service: service, parent: "", resultDescriptor: 1),
        environment: context.environment, standardInput: .null, standardOutput: .pipe)
    } catch {
      context.output.error(Wording.describe(.cannotStartSheet(program, reason: error.reason)))
      return .failure
    }
    // Ctrl-C or the session ending closes the sheet, which ends what it runs.
    SignalWatcher.onTermination { _ in process.signal(Signal.terminate) }
    defer { SignalWatcher.onTermination(nil) }
    let output = (try? process.standardOutput?.readToEnd()) ?? []
    let termination = process.wait()
    for line in returnedLines(output) { context.output.line(line) }
    switch termination {
    case .exited(let status): return ExitCode(rawValue: status) ?? .failure
    case .signalled: return .cancelled
    }
  }

  /// What the service returned, from the sheet's result line, a line each.
  static func returnedLines(_ output: [UInt8]) -> [String] {
    let lastLine = output.split(separator: UInt8(ascii: "\n")).last.map(Array.init) ?? []
    guard let line = try? JSONDecoder().decode(SheetResultLine.self, from: Data(lastLine)),
      let returned = line.results.returnedItems, !returned.isEmpty
    else { return [] }
    return Wording.lines(for: [ItemPayload(attachments: returned)])
  }
}
