import ShareCore
import ShareDBus

/// How the service takes in the items of a call, the one way for `QueryItems`, `Explain`, `Share`
/// and `ShowPicker`: they are read (``ItemArguments/given(_:argument:named:)``, files handed over
/// as descriptors among them), the paths of a sandboxed caller refused, and then either looked
/// at where they are, for a call that shares nothing (``lookedAt()``), or handed on to a share
/// (``handedOn(paths:bus:)``). The two steps are apart because a share checks its request's
/// limits between them, and its errors come in that order.
struct AdmittedItems {
  /// The items as the caller gave them.
  let given: GivenItems

  /// Reads the items of `message`'s argument `index` (`aa{sv}`, named `argument` in errors) and
  /// refuses what `caller` may not give; `requiringSome` refuses none at all (`ShowPicker`).
  init(
    _ message: DBusMessage, argument index: Int, named argument: String, caller: Caller,
    requiringSome: Bool = false
  ) throws(BusError) {
    let given = try ItemArguments.given(message, argument: index, named: argument)
    if requiringSome, given.items.isEmpty { throw .invalidArgument(argument, .noItems) }
    try Self.refusePaths(of: given, from: caller, argument: argument)
    self.given = given
  }

  /// Refuses the paths among `given` when `caller` is sandboxed: they are its sandbox's, and
  /// would name other files here, or none.
  static func refusePaths(of given: GivenItems, from caller: Caller, argument: String) throws(BusError) {
    guard caller.isSandboxed else { return }
    for (index, item) in given.items.enumerated() where given.descriptors[index] == nil {
      if case .file = item.item { throw .invalidArgument("\(argument)[\(index)]", .pathFromSandbox) }
    }
  }

  /// The items for a call that shares nothing: a file handed over is checked and looked at
  /// through its descriptor, and given no other path.
  func lookedAt() throws(BusError) -> [RequestedItem] {
    given.descriptors.isEmpty ? given.items : try HandedOverFiles.checked(given)
  }

  /// The items for a share: each file handed over exported through the document portal, when
  /// one runs on `bus`, or copied into a private folder; with what to release once the request
  /// has ended.
  func handedOn(paths: SearchPaths, bus: any BusCalls) throws(BusError)
    -> (items: [RequestedItem], files: HandedOverFiles?)
  {
    try HandedOverFiles.handOn(
      given, paths: paths, portal: given.descriptors.isEmpty ? nil : DocumentPortal.running(on: bus))
  }
}
