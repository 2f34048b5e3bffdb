import Synchronization

/// One HTTP request, as ``HTTPSession`` sends it.
public struct HTTPRequest: Sendable {
  /// The method: `GET`, `HEAD`, `PUT`, or any other token (`PROPFIND`, `MKCOL`).
  public var method: String
  /// An absolute `http://` or `https://` URL, percent-encoded.
  public var url: String
  /// Header fields to send, by name. A field may not hold a line break or a NUL.
  public var headers: [String: String]
  public var body: HTTPBody
  /// Sent with Basic authentication in the first request, without waiting for a challenge.
  public var credentials: HTTPCredentials?
  /// Seconds to wait for the connection (and the TLS handshake).
  public var connectTimeout: Double = 30
  /// Seconds without a byte sent or received after which the request has timed out.
  public var idleTimeout: Double = 120
  /// Seconds the whole request may take; `nil` for no limit (an upload takes what it takes).
  public var timeout: Double?
  /// How much of the response's body is kept; the rest is read and dropped.
  public var maximumBodySize = 1 << 20

  public init(
    method: String, url: String, headers: [String: String] = [:], body: HTTPBody = .none,
    credentials: HTTPCredentials? = nil
  ) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.credentials = credentials
  }
}

/// What a request sends after its header.
public enum HTTPBody: Sendable {
  case none
  case bytes([UInt8])
  /// Read while the request goes out: `read(limit)` returns at most `limit` bytes, and no bytes at
  /// the end. With a `length`, the body is sent with that Content-Length and must have exactly
  /// that many bytes (more are never read); without one, it is sent chunked.
  case stream(length: UInt64?, read: @Sendable (Int) throws -> [UInt8])
}

/// A user name and password for Basic authentication.
public struct HTTPCredentials: Sendable, Equatable {
  public var user: String
  public var password: String

  public init(user: String, password: String) {
    self.user = user
    self.password = password
  }
}

/// The answer to a request.
public struct HTTPResponse: Sendable, Equatable {
  /// The status code of the final answer (never a `100 Continue`).
  public var status: Int
  /// The final answer's header fields, by lowercased name; repeated fields joined by `, `.
  public var headers: [String: String]
  /// The body, up to the request's ``HTTPRequest/maximumBodySize``.
  public var body: [UInt8]

  public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// The header field `name` (any case), or `nil`.
  public func header(_ name: String) -> String? {
    headers[name.lowercased()]
  }
}

/// Stops a request from another thread: the transfer ends within about a second with
/// ``HTTPError/cancelled``.
public final class HTTPCancellation: Sendable {
  private let flag = Atomic(false)

  public init() {}

  public func cancel() {
    flag.store(true, ordering: .relaxed)
  }

  public var isCancelled: Bool {
    flag.load(ordering: .relaxed)
  }
}
