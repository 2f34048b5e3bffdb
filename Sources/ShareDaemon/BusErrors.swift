package import ShareCore
package import ShareHost
package import SharePOSIX

/// Every error the service sends, as data; its D-Bus name and its message are worded here, in one
/// table, and nowhere else.
package enum BusError: Error, Equatable {
  /// A malformed argument: which one (`items[2].path`, `options.fields`, or the method for the
  /// whole signature), and what is wrong with it.
  case invalidArgument(String, ArgumentProblem)
  /// A share that cannot start, or items that cannot be looked at.
  case refused(ShareRefusal)
  case tooManyItems(argument: String, limit: Int, found: Int)
  case tooManyRequests(inFlight: Int, limit: Int)
  case tooManyRequestsOfCaller(inFlight: Int, limit: Int)
  case tokenInUse(String)
  case noRequestInFlight(path: String)
  case notRequestOwner
  case stopping
  /// `ShowPicker`'s sheet could not start: its program is not installed, or the system would not
  /// start it.
  case sheetNotStarted(SheetSession.StartError)
  /// A file handed over as a descriptor could not be made a path (the folder, the copy).
  case handOverFailed(String)
  case unknownInterface(String)
  case unknownProperty(String)
  case readOnlyProperty(String)

  var name: String {
    switch self {
    case .invalidArgument, .tokenInUse: "org.freedesktop.DBus.Error.InvalidArgs"
    case .noRequestInFlight: "org.freedesktop.DBus.Error.UnknownObject"
    case .unknownInterface: "org.freedesktop.DBus.Error.UnknownInterface"
    case .refused(.noSuchService), .refused(.noSuchTarget): "org.xdgshare.Share1.Error.NoSuchService"
    case .refused(.notAccepted), .refused(.targetRefuses): "org.xdgshare.Share1.Error.NotAccepted"
    case .tooManyItems, .tooManyRequests, .tooManyRequestsOfCaller: "org.xdgshare.Share1.Error.LimitExceeded"
    case .stopping, .refused(.unreadableFiles), .refused(.cannotRecord), .sheetNotStarted,
      .handOverFailed:
      "org.xdgshare.Share1.Error.Failed"
    case .notRequestOwner: "org.freedesktop.DBus.Error.AccessDenied"
    case .unknownProperty: "org.freedesktop.DBus.Error.UnknownProperty"
    case .readOnlyProperty: "org.freedesktop.DBus.Error.PropertyReadOnly"
    }
  }

  var message: String {
    switch self {
    case .invalidArgument(let argument, let problem): "\(argument): \(problem.message)"
    // A D-Bus caller knows services by their identifiers.
    case .refused(let refusal): refusal.message(naming: .identifier)
    case .tooManyItems(let argument, let limit, let found):
      "\(argument): at most \(limit) items in one call, found \(found)"
    case .tooManyRequests(let inFlight, let limit): "\(inFlight) requests are in flight; at most \(limit)"
    case .tooManyRequestsOfCaller(let inFlight, let limit):
      "\(inFlight) requests of this caller are in flight; at most \(limit)"
    case .tokenInUse(let token): "options.handle_token: '\(token)' is in use by a request in flight"
    case .noRequestInFlight(let path): "no request in flight at \(path): it has ended, or never was"
    case .unknownInterface(let name): "no interface '\(name)' here; the service's is org.xdgshare.Share1"
    case .notRequestOwner: "only the caller that started the request may cancel it"
    case .stopping: "the service is stopping; call again, and a new one starts"
    case .sheetNotStarted(let error): error.message
    case .handOverFailed(let reason): "cannot hand the file on to the service: \(reason)"
    case .unknownProperty(let name): "no property '\(name)'"
    case .readOnlyProperty(let name): "property '\(name)' is read-only"
    }
  }
}

/// What is wrong with an argument, as data; ``message`` words it.
package enum ArgumentProblem: Equatable, Sendable {
  /// The call's arguments are not its signature: the arguments as the interface names them
  /// (`(s service_id, aa{sv} items, a{sv} options)`) and the signature found.
  case signature(expected: String, found: String)
  /// A value of another D-Bus type than `expected` (both signatures).
  case type(expected: String, found: String)
  case notAString
  /// Not `aa{sv}`: the signature found.
  case notItems(found: String)
  case notADictionary
  case noItems
  case pathWithNUL
  case relativePath(FilePath)
  case notAnAbsoluteURL(String)
  case notAMIMEType(String)
  /// Not exactly one of an item's content keys: those found, and the unknown keys beside them.
  case contentKeys(found: [String], besides: [String])
  case notAHandleToken(String)
  case notAParentWindow(String)
  /// A descriptor of something else than a regular file.
  case notARegularFile(FileStatus.Node)
  /// A descriptor open for writing only.
  case writeOnly
  /// A descriptor whose file cannot be looked at or read: the system's words.
  case unreadableDescriptor(String)
  /// A file larger than the service copies.
  case fileTooLarge(size: UInt64, limit: UInt64)
  /// A path (or a `file:` URL) from a sandboxed app, whose paths are its sandbox's.
  case pathFromSandbox
  /// A kind of service that is none (`share`, `action`).
  case notAKind(String)

  var message: String {
    switch self {
    case .signature(let expected, let found): "expected arguments \(expected), found (\(found))"
    case .type(let expected, let found): "expected type '\(expected)', found '\(found)'"
    case .notAString: "expected a string"
    case .notItems(let found): "expected an array of dictionaries (aa{sv}), found \(found)"
    case .notADictionary: "expected a dictionary a{sv}"
    case .noItems: "expected at least one item, found none"
    case .pathWithNUL: "expected a file path without NUL bytes"
    case .relativePath(let path): "expected an absolute path, found '\(path.displayString)'"
    case .notAnAbsoluteURL(let url): "expected an absolute URL such as https://example.org/, found '\(url)'"
    case .notAMIMEType(let type): "expected a MIME type such as image/png, found '\(type)'"
    case .contentKeys(let found, let besides):
      "expected exactly one of path, fd, url or text, found "
        + (found.isEmpty ? "none" : found.joined(separator: " and "))
        + (besides.isEmpty ? "" : " (besides " + besides.map { "'\($0)'" }.joined(separator: ", ") + ")")
    case .notAHandleToken(let token): "expected letters, digits and '_', found '\(token)'"
    case .notAParentWindow(let parent):
      "expected \"\", x11:<XID in hexadecimal> or wayland:<handle>, found '\(parent)'"
    case .notARegularFile(let node): "expected a regular file, found \(Self.describe(node))"
    case .writeOnly: "expected a descriptor open for reading, found one open for writing only"
    case .unreadableDescriptor(let reason): "cannot read the file: \(reason)"
    case .fileTooLarge(let size, let limit):
      "the file is \(Self.describe(bytes: size)), larger than the \(Self.describe(bytes: limit)) a file handed over may be"
    case .notAKind(let word): "expected share or action, found '\(word)'"
    case .pathFromSandbox:
      "a sandboxed application's paths mean nothing outside its sandbox: pass the file as a descriptor, "
        + "{\"fd\": <h>} (with \"name\" if it has one)"
    }
  }

  private static func describe(_ node: FileStatus.Node) -> String {
    switch node {
    case .regular: "a regular file"
    case .directory: "a folder"
    case .symbolicLink: "a symbolic link"
    case .characterDevice, .blockDevice: "a device"
    case .fifo: "a FIFO (named pipe)"
    case .socket: "a socket"
    }
  }

  private static func describe(bytes: UInt64) -> String {
    bytes >= 1 << 30 && bytes % (1 << 30) == 0
      ? "\(bytes >> 30) GiB"
      : bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
  }
}
