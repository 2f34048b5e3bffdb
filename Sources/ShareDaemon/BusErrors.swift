import ShareCore
import ShareHost

/// Every error the service sends, as data; its D-Bus name and its message are worded here, in one
/// table, and nowhere else.
package enum BusError: Error, Equatable {
  /// A malformed argument: which one (`items[2].path`, `options.fields`, or the method for the
  /// whole signature), what was expected and, when it says something, what was found.
  case invalidArgument(String, expected: String, found: String? = nil)
  /// A share that cannot start, or items that cannot be looked at.
  case refused(ShareRefusal)
  case tooManyItems(argument: String, limit: Int, found: Int)
  case tooManyRequests(inFlight: Int, limit: Int)
  case tooManyRequestsOfCaller(inFlight: Int, limit: Int)
  case tokenInUse(String)
  case noRequestInFlight(path: String)
  case notRequestOwner
  case stopping
  /// `ShowPicker` without the share sheet's program installed.
  case noSheet
  /// The share sheet's program could not be started: what the system said.
  case cannotStartSheet(String)
  case unknownInterface(String)
  case unknownProperty(String)
  case readOnlyProperty(String)

  var name: String {
    switch self {
    case .invalidArgument, .tokenInUse: "org.freedesktop.DBus.Error.InvalidArgs"
    case .noRequestInFlight: "org.freedesktop.DBus.Error.UnknownObject"
    case .unknownInterface: "org.freedesktop.DBus.Error.UnknownInterface"
    case .refused(.noSuchService): "org.xdgshare.Share1.Error.NoSuchService"
    case .refused(.notAccepted): "org.xdgshare.Share1.Error.NotAccepted"
    case .tooManyItems, .tooManyRequests, .tooManyRequestsOfCaller: "org.xdgshare.Share1.Error.LimitExceeded"
    case .stopping, .refused(.unreadableFiles), .refused(.cannotRecord), .noSheet, .cannotStartSheet:
      "org.xdgshare.Share1.Error.Failed"
    case .notRequestOwner: "org.freedesktop.DBus.Error.AccessDenied"
    case .unknownProperty: "org.freedesktop.DBus.Error.UnknownProperty"
    case .readOnlyProperty: "org.freedesktop.DBus.Error.PropertyReadOnly"
    }
  }

  var message: String {
    switch self {
    case .invalidArgument(let argument, let expected, let found?):
      "\(argument): expected \(expected), found \(found)"
    case .invalidArgument(let argument, let expected, nil): "\(argument): expected \(expected)"
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
    case .noSheet: "the share sheet (\(SheetProgram.name)) is not installed beside xdg-share"
    case .cannotStartSheet(let reason): "cannot start the share sheet: \(reason)"
    case .unknownProperty(let name): "no property '\(name)'"
    case .readOnlyProperty(let name): "property '\(name)' is read-only"
    }
  }

}
