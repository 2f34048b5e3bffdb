import Foundation
import FoundationNetworking
import ShareKit
import SharePOSIX
import Synchronization

/// The few WebDAV requests Upload to WebDAV makes, over URLSession, with Basic authentication
/// sent up front.
struct WebDAVClient: Sendable {
  /// What a request sends.
  enum Body: Sendable {
    case none
    /// A file URSession reads itself, with a Content-Length.
    case file(URL)
    /// An open file, read as the upload goes (chunked transfer encoding): for names that are not
    /// UTF-8, which URLSession cannot open.
    case stream(FileDescriptor)
  }

  struct Response: Sendable {
    var status: Int
    var location: String?
  }

  let authorization: String?
  /// The server's name for messages.
  let host: String

  init(configuration: WebDAVConfiguration) {
    if let user = configuration.user {
      authorization = "Basic " + Data("\(user):\(configuration.password ?? "")".utf8).base64EncodedString()
    } else {
      authorization = nil
    }
    host = configuration.url.host ?? configuration.url.absoluteString
  }

  /// Sends one request and waits for the answer; `progress` hears the body bytes sent so far.
  ///
  /// - Throws: ``ShareError`` when the server cannot be reached.
  func send(
    _ method: String, _ url: URL, headers: [String: String] = [:], body: Body = .none,
    progress: (@Sendable (Int64) -> Void)? = nil
  ) async throws -> Response {
    var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 120)
    request.httpMethod = method
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    if let authorization { request.setValue(authorization, forHTTPHeaderField: "Authorization") }
    let delegate = TaskDelegate(progress: progress)
    let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
    defer { session.finishTasksAndInvalidate() }
    do {
      return try await withCheckedThrowingContinuation { continuation in
        delegate.continuation.withLock { $0 = continuation }
        let task: URLSessionTask
        switch body {
        case .none:
          task = session.dataTask(with: request)
        case .file(let file):
          task = session.uploadTask(with: request, fromFile: file)
        case .stream(let descriptor):
          request.httpBodyStream = DescriptorInputStream(descriptor)
          task = session.dataTask(with: request)
        }
        task.resume()
      }
    } catch {
      throw ShareError(describe(error))
    }
  }

  /// A transport failure in words.
  func describe(_ error: any Error) -> String {
    guard let error = error as? URLError else { return "Cannot reach \(host): \(error.localizedDescription)" }
    switch error.code {
    case .cannotConnectToHost, .networkConnectionLost:
      return "Cannot connect to \(host): is the server running, and the address in webdav.ini right?"
    case .cannotFindHost, .dnsLookupFailed:
      return "Cannot find the server \(host): check the address in webdav.ini and the network"
    case .notConnectedToInternet:
      return "Cannot reach \(host): this computer is not connected to the network"
    case .timedOut:
      return "\(host) did not answer in time"
    case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
      .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
      return "Cannot connect to \(host) securely: its certificate is not trusted"
    default:
      return "Cannot reach \(host): \(error.localizedDescription)"
    }
  }
}

/// Receives one task's events: the progress of its upload and its end.
private final class TaskDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
  // @unchecked: the only mutable state is behind the mutex.
  let continuation = Mutex<CheckedContinuation<WebDAVClient.Response, any Error>?>(nil)
  let progress: (@Sendable (Int64) -> Void)?

  init(progress: (@Sendable (Int64) -> Void)?) {
    self.progress = progress
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
    totalBytesExpectedToSend: Int64
  ) {
    progress?(totalBytesSent)
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    // The answers' bodies (error pages, PROPFIND listings) are not needed.
  }

  /// The status of a refused authentication, for the answer: the request was sent with its
  /// credentials already, so a challenge means they were refused.
  let challengedStatus = Mutex<Int?>(nil)

  /// A challenge is cancelled and reported as its status (401). FoundationNetworking's default
  /// handling of a challenge never completes the task, so it must not be left to it.
  func urlSession(
    _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
    completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
  ) {
    let status = (challenge.failureResponse as? HTTPURLResponse)?.statusCode ?? 401
    challengedStatus.withLock { $0 = status }
    completionHandler(.cancelAuthenticationChallenge, nil)
  }

  /// A redirect is answered, not followed: a PUT must not turn into a GET elsewhere.
  func urlSession(
    _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
  ) {
    completionHandler(nil)
  }

  func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
    let waiting = continuation.withLock { waiting in
      defer { waiting = nil }
      return waiting
    }
    if let status = challengedStatus.withLock({ $0 }) {
      waiting?.resume(returning: WebDAVClient.Response(status: status, location: nil))
    } else if let error {
      waiting?.resume(throwing: error)
    } else if let response = task.response as? HTTPURLResponse {
      waiting?.resume(
        returning: WebDAVClient.Response(
          status: response.statusCode, location: response.value(forHTTPHeaderField: "Location")))
    } else {
      waiting?.resume(throwing: URLError(.badServerResponse))
    }
  }
}

/// An input stream over an open file, for an upload body URLSession reads as it sends.
///
/// URLSession reads it from one queue at a time.
private final class DescriptorInputStream: InputStream {
  private let descriptor: FileDescriptor
  private var status: Stream.Status = .notOpen
  private var failure: (any Error)?

  init(_ descriptor: FileDescriptor) {
    self.descriptor = descriptor
    super.init(data: Data())
  }

  override func open() { status = .open }
  override func close() { status = .closed }
  override var streamStatus: Stream.Status { status }
  override var streamError: (any Error)? { failure }
  override var hasBytesAvailable: Bool { status == .open || status == .notOpen }

  override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
    guard length > 0 else { return 0 }
    do {
      let chunk = try descriptor.read(upTo: length)
      if chunk.isEmpty {
        status = .atEnd
        return 0
      }
      chunk.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: chunk.count) }
      return chunk.count
    } catch {
      failure = error
      status = .error
      return -1
    }
  }

  override func getBuffer(
    _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length: UnsafeMutablePointer<Int>
  ) -> Bool {
    false
  }
}
