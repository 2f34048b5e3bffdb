internal import CCurl

/// Why a request got no answer. Callers word it; `detail` is libcurl's own explanation, in
/// English, for a log.
public enum HTTPError: Error {
  /// The request cannot be sent: a malformed URL, a scheme other than http and https, a header
  /// holding a line break.
  case invalidRequest(detail: String)
  /// The server's name cannot be resolved.
  case couldNotResolve(detail: String)
  /// Nothing accepts connections at the address (refused, unreachable).
  case couldNotConnect(detail: String)
  /// The connection broke before the answer was complete.
  case connectionLost(detail: String)
  /// Nothing was sent or received for the request's idle timeout, or its timeout passed.
  case timedOut(detail: String)
  /// The TLS handshake failed, or the server's certificate is not trusted.
  case insecure(detail: String)
  /// The body's `read` threw this error, or ended before the body's length.
  case bodyUnreadable(any Error)
  /// ``HTTPCancellation/cancel()`` was called, or the waiting task was cancelled.
  case cancelled
  /// Any other failure, with libcurl's code (`CURLcode`).
  case other(code: Int, detail: String)
}

/// A body that ended before the Content-Length it was sent with.
public struct ShortBody: Error, Equatable {
  /// The bytes expected and the bytes there were.
  public var expected: UInt64
  public var read: UInt64
}

extension HTTPError {
  /// The error for `code`, a failed `curl_easy_perform` or `curl_easy_setopt`.
  init(_ code: CURLcode, detail: String) {
    switch code {
    case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT, CURLE_BAD_FUNCTION_ARGUMENT:
      self = .invalidRequest(detail: detail)
    case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
      self = .couldNotResolve(detail: detail)
    case CURLE_COULDNT_CONNECT:
      self = .couldNotConnect(detail: detail)
    case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_HTTP2,
      CURLE_HTTP2_STREAM:
      self = .connectionLost(detail: detail)
    case CURLE_OPERATION_TIMEDOUT:
      self = .timedOut(detail: detail)
    case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
      CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
      CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE, CURLE_USE_SSL_FAILED, CURLE_SSL_SHUTDOWN_FAILED:
      self = .insecure(detail: detail)
    case CURLE_ABORTED_BY_CALLBACK:
      self = .cancelled
    default:
      self = .other(code: Int(code.rawValue), detail: detail)
    }
  }
}
