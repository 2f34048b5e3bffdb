internal import CCurl

/// One request's state while libcurl runs it: the body going out, the answer coming in. libcurl
/// calls back into it on the thread that performs the request, and on no other.
final class Transfer {
  let errorBuffer: UnsafeMutablePointer<CChar>
  private let body: HTTPBody
  private let progress: (@Sendable (UInt64) -> Void)?
  private let cancellation: HTTPCancellation?
  private let maximumBodySize: Int

  private var offset: UInt64 = 0
  private var lastSent = 0
  /// What made the read callback stop the transfer.
  private var bodyFailure: (any Error)?
  private(set) var responseHeaders: [String: String] = [:]
  private(set) var responseBody: [UInt8] = []

  init(request: HTTPRequest, progress: (@Sendable (UInt64) -> Void)?, cancellation: HTTPCancellation?) {
    body = request.body
    self.progress = progress
    self.cancellation = cancellation
    maximumBodySize = request.maximumBodySize
    errorBuffer = .allocate(capacity: Int(XS_CURL_ERROR_SIZE))
    errorBuffer.initialize(repeating: 0, count: Int(XS_CURL_ERROR_SIZE))
  }

  deinit {
    errorBuffer.deallocate()
  }

  /// The error for a failed transfer, with what the callbacks know about it.
  func failure(_ code: CURLcode) -> HTTPError {
    if let bodyFailure { return .bodyUnreadable(bodyFailure) }
    if cancellation?.isCancelled == true { return .cancelled }
    let detail =
      errorBuffer[0] != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
    return HTTPError(code, detail: detail)
  }

  /// Fills `buffer` with the body's next bytes; returns how many, 0 at the end, or
  /// `CURL_READFUNC_ABORT`.
  func fill(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
    // Checked here too, not only in the progress callback, which a busy machine may call late.
    if cancellation?.isCancelled == true { return XS_CURL_READFUNC_ABORT }
    switch body {
    case .none:
      return 0
    case .bytes(let bytes):
      let start = Int(offset)
      let count = min(buffer.count, bytes.count - start)
      guard count > 0 else { return 0 }
      bytes.withUnsafeBytes {
        buffer.baseAddress!.copyMemory(from: $0.baseAddress! + start, byteCount: count)
      }
      offset += UInt64(count)
      return count
    case .stream(let length, let read):
      var limit = buffer.count
      if let length { limit = Int(min(UInt64(limit), length - offset)) }
      guard limit > 0 else { return 0 }
      let chunk: [UInt8]
      do {
        chunk = try read(limit)
      } catch {
        bodyFailure = error
        return XS_CURL_READFUNC_ABORT
      }
      if chunk.isEmpty, let length {
        // libcurl would wait for bytes that never come.
        bodyFailure = ShortBody(expected: length, read: offset)
        return XS_CURL_READFUNC_ABORT
      }
      let count = min(chunk.count, limit)
      chunk.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: count) }
      offset += UInt64(count)
      return count
    }
  }

  /// Keeps the response body up to its limit; the rest is dropped, but accepted.
  func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
    let room = max(0, maximumBodySize - responseBody.count)
    responseBody.append(contentsOf: bytes.prefix(room))
    return bytes.count
  }

  /// Takes one header line. A status line starts a new answer: after `100 Continue` comes the
  /// real one.
  func receiveHeader(_ bytes: UnsafeRawBufferPointer) -> Int {
    let line = Array(bytes)
    if line.starts(with: Array("HTTP/".utf8)) {
      responseHeaders = [:]
    } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
      let name = String(decoding: Self.trimmed(line[..<colon]), as: UTF8.self).lowercased()
      let value = String(decoding: Self.trimmed(line[(colon + 1)...]), as: UTF8.self)
      if let earlier = responseHeaders[name] {
        responseHeaders[name] = earlier + ", " + value
      } else {
        responseHeaders[name] = value
      }
    }
    return bytes.count
  }

  /// Reports the bytes sent; returns whether the transfer goes on.
  func advance(sent: Int) -> Bool {
    if cancellation?.isCancelled == true { return false }
    if sent > lastSent {
      lastSent = sent
      progress?(UInt64(sent))
    }
    return true
  }

  private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
    guard let first = bytes.firstIndex(where: { !isSpace($0) }) else { return [] }
    let last = bytes.lastIndex(where: { !isSpace($0) }) ?? first
    return bytes[first...last]
  }
}
