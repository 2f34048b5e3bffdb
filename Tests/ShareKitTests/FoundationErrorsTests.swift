import Foundation
import Testing

@testable import ShareKit

/// ShareKit words errors without Foundation; these tests hold its words against Foundation's own.
@Suite("Foundation's words without Foundation")
struct FoundationErrorsTests {
  /// What ShareKit reported when it linked Foundation.
  static func foundationReport(_ error: any Error) -> String {
    if let description = (error as? any LocalizedError)?.errorDescription { return description }
    if error is any CustomNSError || (error as AnyObject) is NSError { return error.localizedDescription }
    return String(describing: error)
  }

  struct Custom: CustomNSError {
    static let errorDomain = "ch.example.custom"
    let errorCode = 17
  }

  struct Reasoned: LocalizedError {
    var failureReason: String? { "the reason" }
  }

  enum Plain: Error { case failed }

  static let errors: [any Error] =
    (-2...5000).map { CocoaError(CocoaError.Code(rawValue: $0)) }
    + (0...140).compactMap { POSIXErrorCode(rawValue: $0).map { POSIXError($0) } }
    + [
      CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: "/x"]),
      CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "told"]),
      CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedFailureReasonErrorKey: "because"]),
      NSError(domain: "ch.example", code: 42, userInfo: [NSLocalizedDescriptionKey: "the disk is full"]),
      NSError(domain: "ch.example", code: 42, userInfo: [NSLocalizedFailureReasonErrorKey: "it is full"]),
      NSError(domain: "ch.example", code: 42),
      NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC)),
      NSError(domain: NSCocoaErrorDomain, code: 4),
      NSError(domain: NSCocoaErrorDomain, code: 4, userInfo: [NSLocalizedDescriptionKey: "gone"]),
      Custom(), Reasoned(), Plain.failed, CancellationError(),
      DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not JSON")),
      EncodingError.invalidValue(Double.nan, .init(codingPath: [], debugDescription: "NaN")),
    ]

  @Test("localizedDescription")
  func localizedDescription() {
    let differences = Self.errors.compactMap { error -> String? in
      let ours = FoundationErrors.localizedDescription(of: error)
      return ours == error.localizedDescription ? nil : "\(error): \(ours) ≠ \(error.localizedDescription)"
    }
    #expect(differences == [])
  }

  @Test("what the host is told")
  func reports() {
    let differences = Self.errors.filter { !($0 is CancellationError) }.compactMap { error -> String? in
      let ours = ShareError.report(for: error).message
      let theirs = Self.foundationReport(error)
      return ours == theirs ? nil : "\(error): \(ours) ≠ \(theirs)"
    }
    #expect(differences == [])
  }
}
