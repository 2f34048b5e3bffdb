import FoundationEssentials

// POSIXError's code, for its number: the enum alone, none of libc's functions.
internal import enum Glibc.POSIXErrorCode

/// Foundation's words for errors, without Foundation: what `Error.localizedDescription` says.
///
/// ShareKit links FoundationEssentials only, which has no `localizedDescription`, `NSError` or
/// `CustomNSError`; full Foundation would bring its ICU data into every extension. An extension
/// that imports Foundation may still throw Foundation's errors, and the host shows them as
/// Foundation words them: "The operation could not be completed." and a reason. The reason comes
/// from the error's user info, from `strerror` for `NSPOSIXErrorDomain`, or from the messages of
/// `NSCocoaErrorDomain` below, else it is the domain and code.
///
/// An `NSError`'s user info is read by reflection, as Foundation keeps it in a private property;
/// should that change, such an error is described by its domain and code. A `CustomNSError`
/// type's `errorUserInfo` cannot be read at all, so it too is described by its domain and code.
enum FoundationErrors {
  /// An error as Foundation's `NSError` sees it.
  struct Bridged {
    var domain: String
    var code: Int
    var userInfo: [String: Any]
  }

  static let cocoaDomain = "NSCocoaErrorDomain"
  static let posixDomain = "NSPOSIXErrorDomain"

  /// What Foundation's `localizedDescription` says for `error`.
  static func localizedDescription(of error: any Error) -> String {
    var bridged = bridge(error) ?? Bridged(domain: error._domain, code: error._code, userInfo: [:])
    if let error = error as? any LocalizedError {
      if let description = error.errorDescription { bridged.userInfo["NSLocalizedDescription"] = description }
      if let reason = error.failureReason { bridged.userInfo["NSLocalizedFailureReason"] = reason }
    }
    if let description = bridged.userInfo["NSLocalizedDescription"] as? String { return description }
    let reason =
      bridged.userInfo["NSLocalizedFailureReason"] as? String ?? standardReason(bridged)
      ?? "(\(bridged.domain) error \(bridged.code).)"
    return "The operation could not be completed. " + reason
  }

  /// Whether Foundation takes `error` for one of its own (an `NSError` or a `CustomNSError`),
  /// which it describes in its own words rather than with `String(describing:)`.
  static func isFoundationError(_ error: any Error) -> Bool {
    if bridge(error) != nil { return true }
    // The standard library gives these two the Cocoa domain, but Foundation does not take them
    // for its own.
    if error is DecodingError || error is EncodingError { return false }
    // Every other error's domain is its type's name, unless a CustomNSError conformance gave
    // it one (URLError: NSURLErrorDomain).
    return error._domain != String(reflecting: type(of: error))
  }

  /// The domain, code and user info of the errors whose Foundation conformance is known:
  /// FoundationEssentials' `CocoaError` and `POSIXError`, Foundation's `NSError`.
  private static func bridge(_ error: any Error) -> Bridged? {
    // First, as Foundation casts any NSError to CocoaError, whatever its domain.
    var mirror: Mirror? = Mirror(reflecting: error)
    while let current = mirror {
      if String(reflecting: current.subjectType) == "Foundation.NSError" {
        let userInfo = current.children.first { $0.label == "_userInfo" }?.value as? [String: Any]
        return Bridged(domain: error._domain, code: error._code, userInfo: userInfo ?? [:])
      }
      mirror = current.superclassMirror
    }
    if let error = error as? CocoaError {
      return Bridged(domain: cocoaDomain, code: error.code.rawValue, userInfo: error.userInfo)
    }
    if let error = error as? POSIXError {
      return Bridged(domain: posixDomain, code: Int(error.code.rawValue), userInfo: [:])
    }
    return nil
  }

  /// The reason Foundation gives for a code of the POSIX or Cocoa domain.
  private static func standardReason(_ error: Bridged) -> String? {
    switch error.domain {
    case posixDomain:
      guard let code = Int32(exactly: error.code) else { return nil }
      let reason = SystemCalls.errorDescription(code)
      return reason.utf8.allSatisfy { $0 < 0x80 } ? reason : nil
    case cocoaDomain:
      return cocoaReasons[error.code]
    default:
      return nil
    }
  }

  /// Foundation's reasons for `CocoaError` codes.
  private static let cocoaReasons: [Int: String] = [
    4: "The file doesn’t exist.",
    255: "The file couldn’t be locked.",
    257: "You don’t have permission.",
    258: "The file name is invalid.",
    259: "The file isn’t in the correct format.",
    260: "The file doesn’t exist.",
    261: "The specified text encoding isn’t applicable.",
    262: "The specified URL type isn’t supported.",
    263: "The item is too large.",
    264: "The text encoding of the contents couldn’t be determined.",
    513: "You don’t have permission.",
    514: "The file name is invalid.",
    516: "A file with the same name already exists.",
    517: "The specified text encoding isn’t applicable.",
    518: "The specified URL type isn’t supported.",
    640: "There isn’t enough space.",
    642: "The volume is read only.",
    1024: "The value is invalid.",
    2048: "The value is invalid.",
    3072: "The operation was cancelled.",
    3328: "The requested operation is not supported.",
    3840: "The data is not in the correct format.",
    3841: "The data is in a format that this application doesn’t understand.",
    3842: "An error occurred in the source of the data.",
    3851: "An error occurred in the destination for the data.",
    3852: "An error occurred in the content of the data.",
    4353: "The file is not available on iCloud yet.",
    4354: "There isn’t enough space in your account.",
    4355: "The iCloud servers might be unreachable or your settings might be incorrect.",
    4864: "The data isn’t in the correct format.",
    4865: "The data is missing.",
    4866: "The data isn’t in the correct format.",
  ]
}
