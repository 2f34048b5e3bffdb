internal import CCurl
import Dispatch
import Synchronization

/// Sends HTTP requests with libcurl, one at a time, over connections it keeps open between them.
///
/// The only type that calls libcurl. A request runs on the session's own thread, never on the
/// tasks' shared threads, since a transfer blocks for as long as it takes.
public final class HTTPSession: Sendable {
  /// The easy handle, made on first use; its connection cache is what makes the next request to
  /// the same server skip the TCP and TLS handshakes.
  private let handle = Mutex<EasyHandle?>(nil)
  private let queue = DispatchQueue(label: "org.xdgshare.http")

  public init() {}

  /// Sends `request` and waits for the answer; `progress` hears the body bytes sent so far.
  /// Cancelling the waiting task cancels the transfer.
  ///
  /// - Throws: ``HTTPError`` when no answer came; an answer of any status is a response.
  public func send(
    _ request: HTTPRequest, progress: (@Sendable (UInt64) -> Void)? = nil
  ) async throws(HTTPError) -> HTTPResponse {
    let cancellation = HTTPCancellation()
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation {
        (continuation: CheckedContinuation<Result<HTTPResponse, HTTPError>, Never>) in
        queue.async {
          continuation.resume(
            returning: Result { () throws(HTTPError) -> HTTPResponse in
              try self.perform(request, progress: progress, cancellation: cancellation)
            })
        }
      }
    } onCancel: {
      cancellation.cancel()
    }
    return try result.get()
  }

  /// Sends `request` on the calling thread and blocks until the answer is in.
  ///
  /// - Throws: ``HTTPError`` when no answer came.
  public func perform(
    _ request: HTTPRequest, progress: (@Sendable (UInt64) -> Void)? = nil,
    cancellation: HTTPCancellation? = nil
  ) throws(HTTPError) -> HTTPResponse {
    try Self.validate(request)
    if cancellation?.isCancelled == true { throw .cancelled }
    guard Curl.initialized == CURLE_OK else {
      throw HTTPError(Curl.initialized, detail: "libcurl cannot be initialized")
    }
    return try handle.withLock { (easy: inout EasyHandle?) throws(HTTPError) -> HTTPResponse in
      guard let current = easy ?? EasyHandle() else {
        throw .other(code: Int(CURLE_OUT_OF_MEMORY.rawValue), detail: "libcurl cannot make a handle")
      }
      easy = current
      let transfer = Transfer(request: request, progress: progress, cancellation: cancellation)
      return try current.perform(request, transfer: transfer)
    }
  }

  /// Refuses what would let a value add header lines or cut a string short at a NUL.
  static func validate(_ request: HTTPRequest) throws(HTTPError) {
    let tokenBytes = Set("!#$%&'*+-.^_`|~".utf8)
    func isToken(_ text: String) -> Bool {
      !text.isEmpty
        && text.utf8.allSatisfy {
          ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || tokenBytes.contains($0)
        }
    }
    func isFieldValue(_ text: String) -> Bool {
      !text.utf8.contains { $0 == 0 || $0 == 0x0A || $0 == 0x0D }
    }
    guard isToken(request.method) else {
      throw .invalidRequest(detail: "the method \(request.method) is not a token")
    }
    guard isFieldValue(request.url), !request.url.utf8.contains(0x20) else {
      throw .invalidRequest(detail: "the URL holds a space, a line break or a NUL")
    }
    for (name, value) in request.headers where !isToken(name) || !isFieldValue(value) {
      throw .invalidRequest(detail: "the header field \(name) holds a line break or a NUL")
    }
    if let credentials = request.credentials,
      !isFieldValue(credentials.user) || !isFieldValue(credentials.password)
    {
      throw .invalidRequest(detail: "the user name or password holds a line break or a NUL")
    }
  }
}

/// libcurl's process-wide setup, done once before the first handle.
enum Curl {
  static let initialized: CURLcode = curl_global_init(XS_CURL_GLOBAL_DEFAULT)
}

/// One libcurl easy handle; cleaned up with its last reference. Used under the session's lock
/// only.
final class EasyHandle {
  private let raw: UnsafeMutableRawPointer

  init?() {
    guard let raw = curl_easy_init() else { return nil }
    self.raw = raw
  }

  deinit {
    curl_easy_cleanup(raw)
  }

  /// Sets the options for `request` (after clearing the last request's) and runs it.
  func perform(_ request: HTTPRequest, transfer: Transfer) throws(HTTPError) -> HTTPResponse {
    curl_easy_reset(raw)
    var headers: UnsafeMutablePointer<curl_slist>?
    defer { curl_slist_free_all(headers) }
    let context = Unmanaged.passUnretained(transfer).toOpaque()
    try withExtendedLifetime(transfer) { () throws(HTTPError) in
      try set(xs_setopt_pointer(raw, CURLOPT_ERRORBUFFER, transfer.errorBuffer))
      try set(xs_setopt_long(raw, CURLOPT_NOSIGNAL, 1))
      try set(request.url.withCString { xs_setopt_pointer(raw, CURLOPT_URL, $0) })
      try set("http,https".withCString { xs_setopt_pointer(raw, CURLOPT_PROTOCOLS_STR, $0) })
      try set(xs_setopt_long(raw, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(request.connectTimeout)))
      try set(xs_setopt_long(raw, CURLOPT_LOW_SPEED_LIMIT, 1))
      try set(xs_setopt_long(raw, CURLOPT_LOW_SPEED_TIME, max(1, Int(request.idleTimeout.rounded(.up)))))
      if let timeout = request.timeout {
        try set(xs_setopt_long(raw, CURLOPT_TIMEOUT_MS, Self.milliseconds(timeout)))
      }
      try setMethod(request)
      for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
        // "Name;" sends a field with an empty value; "Name:" would remove curl's own field.
        let line = value.isEmpty ? "\(name);" : "\(name): \(value)"
        guard let appended = line.withCString({ curl_slist_append(headers, $0) }) else {
          throw .other(code: Int(CURLE_OUT_OF_MEMORY.rawValue), detail: "cannot add the header field \(name)")
        }
        headers = appended
      }
      if let headers { try set(xs_setopt_list(raw, CURLOPT_HTTPHEADER, headers)) }
      if let credentials = request.credentials {
        try set(xs_setopt_long(raw, CURLOPT_HTTPAUTH, XS_CURLAUTH_BASIC))
        try set(credentials.user.withCString { xs_setopt_pointer(raw, CURLOPT_USERNAME, $0) })
        try set(credentials.password.withCString { xs_setopt_pointer(raw, CURLOPT_PASSWORD, $0) })
      }
      try setCallbacks(context)
      let code = curl_easy_perform(raw)
      if code != CURLE_OK {
        throw transfer.failure(code)
      }
    }
    var status = 0
    _ = xs_getinfo_long(raw, CURLINFO_RESPONSE_CODE, &status)
    return HTTPResponse(status: status, headers: transfer.responseHeaders, body: transfer.responseBody)
  }

  /// The method, and the body's size or chunking.
  private func setMethod(_ request: HTTPRequest) throws(HTTPError) {
    switch request.method {
    case "HEAD": try set(xs_setopt_long(raw, CURLOPT_NOBODY, 1))
    case "GET": break
    default: try set(request.method.withCString { xs_setopt_pointer(raw, CURLOPT_CUSTOMREQUEST, $0) })
    }
    let length: UInt64?
    switch request.body {
    case .none: return
    case .bytes(let bytes): length = UInt64(bytes.count)
    case .stream(let streamLength, _): length = streamLength
    }
    // An upload with a custom request sends that method with the body.
    try set(xs_setopt_long(raw, CURLOPT_UPLOAD, 1))
    // -1: unknown, sent chunked.
    try set(xs_setopt_offset(raw, CURLOPT_INFILESIZE_LARGE, length.map { curl_off_t(clamping: $0) } ?? -1))
  }

  private func setCallbacks(_ context: UnsafeMutableRawPointer) throws(HTTPError) {
    try set(
      xs_setopt_read_function(raw) { buffer, size, count, context in
        guard let buffer, let context else { return XS_CURL_READFUNC_ABORT }
        return Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
          .fill(UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
      })
    try set(xs_setopt_pointer(raw, CURLOPT_READDATA, context))
    try set(xs_setopt_write_function(raw) { EasyHandle.received($0, $1, $2, $3, by: Transfer.receiveBody) })
    try set(xs_setopt_pointer(raw, CURLOPT_WRITEDATA, context))
    try set(
      xs_setopt_header_function(raw) { EasyHandle.received($0, $1, $2, $3, by: Transfer.receiveHeader) })
    try set(xs_setopt_pointer(raw, CURLOPT_HEADERDATA, context))
    try set(
      xs_setopt_progress_function(raw) { context, _, _, _, sent in
        guard let context else { return 1 }
        return Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue().advance(sent: sent) ? 0 : 1
      })
    try set(xs_setopt_pointer(raw, CURLOPT_XFERINFODATA, context))
    try set(xs_setopt_long(raw, CURLOPT_NOPROGRESS, 0))
  }

  /// What the write and the header callbacks do alike: hand the bytes libcurl received to
  /// `receive` of the transfer `context` points to. 0, which stops the transfer, without them.
  private static func received(
    _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?,
    by receive: (Transfer) -> (UnsafeRawBufferPointer) -> Int
  ) -> Int {
    guard let buffer, let context else { return 0 }
    return receive(Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue())(
      UnsafeRawBufferPointer(start: buffer, count: size * count))
  }

  private func set(_ code: CURLcode) throws(HTTPError) {
    guard code == CURLE_OK else { throw HTTPError(code, detail: String(cString: curl_easy_strerror(code))) }
  }

  private static func milliseconds(_ seconds: Double) -> Int {
    Int(max(1, min(seconds * 1000, Double(Int32.max))))
  }
}
