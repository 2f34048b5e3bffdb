import FoundationEssentials
import ShareCurl
import ShareKit
import SharePOSIX

/// The few WebDAV requests Upload to WebDAV makes, over ShareCurl, with Basic authentication
/// sent up front. Redirects are answered, never followed: a PUT must not turn into a GET elsewhere.
struct WebDAVClient: Sendable {
  /// What a request sends.
  enum Body: Sendable {
    case none
    /// An open file of `size` bytes, read as the upload goes and sent with a Content-Length;
    /// `name` is the file's name for messages.
    case file(FileDescriptor, size: UInt64, name: String)
  }

  struct Response: Sendable {
    var status: Int
    var location: String?
  }

  let credentials: HTTPCredentials?
  /// Where the user corrects the address, for messages.
  let addressPlace: String
  /// The server's name for messages.
  let host: String
  /// One session for every request, so that they share a connection.
  private let session = HTTPSession()

  init(configuration: WebDAVConfiguration) {
    credentials = configuration.user.map { HTTPCredentials(user: $0, password: configuration.password ?? "") }
    host = configuration.url.host ?? configuration.url.absoluteString
    addressPlace = configuration.addressPlace
  }

  /// Sends one request and waits for the answer; `progress` hears the body bytes sent so far.
  ///
  /// - Throws: ``ShareError`` when the server cannot be reached or the file cannot be read.
  func send(
    _ method: String, _ url: URL, headers: [String: String] = [:], body: Body = .none,
    progress: (@Sendable (Int64) -> Void)? = nil
  ) async throws -> Response {
    var request = HTTPRequest(
      method: method, url: url.absoluteString, headers: headers, credentials: credentials)
    // The answers' bodies (error pages, PROPFIND listings) are not needed.
    request.maximumBodySize = 0
    // Two minutes to connect and without a byte, as URLSession's timeout interval was.
    request.connectTimeout = 120
    request.idleTimeout = 120
    if case .file(let descriptor, let size, _) = body {
      request.body = .stream(length: size) { limit in try descriptor.read(upTo: limit) }
    }
    let sent: (@Sendable (UInt64) -> Void)? = progress.map { report in { @Sendable in report(Int64($0)) } }
    do throws(HTTPError) {
      let response = try await session.send(request, progress: sent)
      return Response(status: response.status, location: response.header("Location"))
    } catch .cancelled {
      throw CancellationError()
    } catch {
      throw Self.isServerFailure(error)
        ? ShareError.serviceFailed(describe(error, body: body)) : ShareError(describe(error, body: body))
    }
  }

  /// Whether a transport failure is the server's or the network's (down, refusing, silent):
  /// the request failed. An untrusted certificate or an unreadable file is for the user to
  /// act on: cancelled.
  static func isServerFailure(_ error: HTTPError) -> Bool {
    switch error {
    case .couldNotConnect, .connectionLost, .couldNotResolve, .timedOut, .other: true
    case .insecure, .bodyUnreadable, .cancelled, .invalidRequest: false
    }
  }

  /// A transport failure in words.
  func describe(_ error: HTTPError, body: Body = .none) -> String {
    switch error {
    case .couldNotConnect, .connectionLost:
      return "Cannot connect to \(host): is the server running, and the address in \(addressPlace) right?"
    case .couldNotResolve:
      return "Cannot find the server \(host): check the address in \(addressPlace) and the network"
    case .timedOut:
      return "\(host) did not answer in time"
    case .insecure:
      return "Cannot connect to \(host) securely: its certificate is not trusted"
    case .bodyUnreadable(let failure):
      let name = if case .file(_, _, let name) = body { name } else { "the file" }
      let reason =
        switch failure {
        case let failure as SystemError: failure.reason
        case is ShortBody: "it became shorter while it was uploaded"
        default: "\(failure)"
        }
      return "Cannot read \(name): \(reason)"
    case .cancelled:
      return "The upload was cancelled"
    case .invalidRequest(let detail), .other(_, let detail):
      return "Cannot reach \(host): \(detail)"
    }
  }
}
