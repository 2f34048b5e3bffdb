public import ShareCore

/// Where the share sheet's program is: `xdg-share-sheet`, which links GTK so that `xdg-share`
/// and the D-Bus service need not.
public enum SheetProgram {
  /// The program's name, beside `xdg-share` in a build and in `libexec/xdg-share` once installed.
  public static let name = "xdg-share-sheet"

  /// The sheet's path: `XDG_SHARE_SHEET` when set (absolute), else beside the running program,
  /// else in `../libexec/xdg-share/` from it, as `install.sh` puts it; nil when none is there.
  public static func locate(environment: [String: String]) -> String? {
    if let given = environment["XDG_SHARE_SHEET"], given.hasPrefix("/") { return given }
    return HelperProgram.locate(name)?.string
  }

  /// The sheet's arguments for `items` (shared with `service` at once when one is named),
  /// transient for `parent` (`x11:<XID>`, `wayland:<handle>` or empty), writing its result line on
  /// descriptor `resultDescriptor`.
  public static func arguments(
    program: String, items: [ShareItem], service: String? = nil, parent: String, resultDescriptor: Int32?
  ) -> [[UInt8]] {
    var arguments: [[UInt8]] = [Array(program.utf8)]
    if let service { arguments += [Array("--service".utf8), Array(service.utf8)] }
    if !parent.isEmpty { arguments += [Array("--parent".utf8), Array(parent.utf8)] }
    if let resultDescriptor { arguments += [Array("--result-fd".utf8), Array("\(resultDescriptor)".utf8)] }
    var files: [[UInt8]] = []
    for item in items {
      switch item {
      case .file(let path): files.append(path.bytes)
      case .webURL(let url): arguments += [Array("--url".utf8), Array(url.utf8)]
      case .text(let text): arguments += [Array("--text".utf8), Array(text.utf8)]
      }
    }
    return arguments + [Array("--".utf8)] + files
  }

  /// The sheet's arguments for `request`, writing its result line on descriptor
  /// `resultDescriptor`.
  public static func arguments(program: String, request: SheetRequest, resultDescriptor: Int32?) -> [[UInt8]]
  {
    var arguments = Self.arguments(
      program: program, items: request.items, service: request.service, parent: request.parent,
      resultDescriptor: resultDescriptor)
    var options: [[UInt8]] = []
    func option(_ name: String, _ value: [UInt8]) { options += [Array(name.utf8), value] }
    switch request.caller {
    case .site(let site): option("--site", Array(site.utf8))
    case .application(let name, let id):
      option("--app", Array(name.utf8))
      if let id { option("--app-id", Array(id.utf8)) }
    case nil: break
    }
    if let title = request.title { option("--title", Array(title.utf8)) }
    if let preview = request.preview { option("--preview", preview.bytes) }
    for id in request.filter.excluded.sorted() { option("--exclude", Array(id.utf8)) }
    for id in (request.filter.included ?? []).sorted() { option("--include", Array(id.utf8)) }
    for kind in (request.filter.kinds ?? []).sorted(by: { $0.extensionPoint < $1.extensionPoint }) {
      option("--kind", Array((kind == .share ? "share" : "action").utf8))
    }
    if request.modal { options.append(Array("--modal".utf8)) }
    arguments.insert(contentsOf: options, at: 1)
    return arguments
  }

  /// The sheet's arguments for the compose sheet of `service` before sharing `items`, writing
  /// its ``ComposeLine`` on descriptor 3 (see ``SheetComposePrompt``).
  public static func composeArguments(
    program: String, service: String, items: [ShareItem], parent: String
  ) -> [[UInt8]] {
    var arguments = Self.arguments(program: program, items: items, parent: parent, resultDescriptor: 3)
    arguments.insert(contentsOf: [Array("--compose".utf8), Array(service.utf8)], at: 1)
    return arguments
  }
}
