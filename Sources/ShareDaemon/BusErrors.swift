import ShareCore
import ShareHost

/// Every error the service sends, in one table: D-Bus name and message.
enum BusError: Error, Equatable {
  case invalidArguments(String)
  case noSuchService(String)
  case notAccepted(service: String, reason: String)
  case limitExceeded(String)
  case failed(String)
  case accessDenied(String)
  case unknownProperty(String)
  case readOnlyProperty(String)

  var name: String {
    switch self {
    case .invalidArguments: "org.freedesktop.DBus.Error.InvalidArgs"
    case .noSuchService: "org.xdgshare.Share1.Error.NoSuchService"
    case .notAccepted: "org.xdgshare.Share1.Error.NotAccepted"
    case .limitExceeded: "org.xdgshare.Share1.Error.LimitExceeded"
    case .failed: "org.xdgshare.Share1.Error.Failed"
    case .accessDenied: "org.freedesktop.DBus.Error.AccessDenied"
    case .unknownProperty: "org.freedesktop.DBus.Error.UnknownProperty"
    case .readOnlyProperty: "org.freedesktop.DBus.Error.PropertyReadOnly"
    }
  }

  var message: String {
    switch self {
    case .invalidArguments(let message), .limitExceeded(let message), .failed(let message),
      .accessDenied(let message):
      message
    case .noSuchService(let id): "no share service '\(id)'"
    case .notAccepted(let service, let reason): "\(service) does not accept these items: \(reason)"
    case .unknownProperty(let name): "no property '\(name)'"
    case .readOnlyProperty(let name): "property '\(name)' is read-only"
    }
  }

  /// The error for a share that cannot start.
  init(_ refusal: ShareRefusal) {
    switch refusal {
    case .noSuchService(let id): self = .noSuchService(id)
    case .notAccepted(let service, let rejection):
      self = .notAccepted(service: service.id, reason: "\(rejection)")
    case .unreadableFiles(let problems):
      self = .failed("cannot read " + problems.map { "'\($0.path.displayString)'" }.joined(separator: ", "))
    case .cannotRecord(let reason): self = .failed("cannot record the request: \(reason)")
    }
  }
}
