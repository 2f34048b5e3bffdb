import ShareCore
import ShareDBus
import SharePOSIX

/// The document portal (`org.freedesktop.portal.Documents`, xdg-document-portal), when one runs:
/// it exports a file a descriptor names at a path of its FUSE mount
/// (`$XDG_RUNTIME_DIR/doc/<id>/<name>`), which a plugin can read without a copy. It exports only
/// files whose path the portal can check against the descriptor: a file in a sandbox's private
/// `/tmp` is refused, and is copied instead.
struct DocumentPortal {
  static let busName = "org.freedesktop.portal.Documents"
  static let path = "/org/freedesktop/portal/documents"
  static let interface = "org.freedesktop.portal.Documents"

  /// The bus the portal is on.
  let bus: any BusCalls
  /// The portal's mount point.
  let mountPoint: FilePath

  /// The portal, when it runs now: it is not started for a share (starting it mounts a file
  /// system, which is Flatpak's to do).
  static func running(on bus: any BusCalls) -> DocumentPortal? {
    let owned = DBusMessage.methodCall(
      destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
      member: "NameHasOwner")
    owned.append([.string(busName)])
    guard (try? bus.call(owned, timeout: 2))?.arguments().first == .boolean(true) else { return nil }
    let ask = DBusMessage.methodCall(
      destination: busName, path: path, interface: interface, member: "GetMountPoint")
    guard case .bytes(var bytes)? = (try? bus.call(ask, timeout: 5))?.arguments().first else {
      return nil
    }
    if bytes.last == 0 { bytes.removeLast() }
    guard bytes.first == UInt8(ascii: "/") else { return nil }
    return DocumentPortal(bus: bus, mountPoint: FilePath(bytes: bytes))
  }

  /// Exports the file `descriptor` names for the host's programs to read: the document's id and
  /// its path; nil when the portal refuses it.
  func export(_ descriptor: FileDescriptor) -> (id: String, path: FilePath)? {
    guard let target = descriptor.linkTarget, let name = target.split(separator: UInt8(ascii: "/")).last
    else { return nil }
    let add = DBusMessage.methodCall(
      destination: Self.busName, path: Self.path, interface: Self.interface, member: "Add")
    add.append(descriptor)
    // A document of its own (not reuse_existing), so that deleting it never takes another
    // request's; not persistent: gone from the portal's store when it ends.
    add.append([.boolean(false), .boolean(false)])
    guard case .string(let id)? = (try? bus.call(add, timeout: 5))?.arguments().first, !id.isEmpty,
      !id.contains("/")
    else { return nil }
    let path = mountPoint.appending(id).appending(name)
    // The portal checked the descriptor against its path; the file is where it says.
    guard (try? FileSystem.status(path.bytes))?.node == .regular else {
      delete(id)
      return nil
    }
    return (id, path)
  }

  /// Removes the document `id` from the portal (the file itself stays).
  func delete(_ id: String) {
    Self.delete(id, on: bus)
  }

  /// Removes the document `id` from the portal on `bus`, without asking where it is.
  static func delete(_ id: String, on bus: any BusCalls) {
    let call = DBusMessage.methodCall(
      destination: busName, path: path, interface: interface, member: "Delete")
    call.append([.string(id)])
    _ = try? bus.call(call, timeout: 5)
  }
}
