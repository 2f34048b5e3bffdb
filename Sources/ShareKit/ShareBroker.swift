public import FoundationEssentials
internal import ShareSyscalls

/// What the host does for a sandboxed extension, which may not reach the mail program, the
/// browser, the clipboard or the notification server itself: the broker whose socket the host
/// names in `XDG_SHARE_BROKER` for each run of the extension's program (docs/plugin-protocol.md,
/// "The broker"). The options are those of the Email and OpenURI portals.
///
/// ```swift
/// try ShareBroker.current().composeEmail(subject: "Photos", attachments: [path])
/// ```
///
/// Each call blocks until the host has done it (at most a few seconds: an application still
/// starting then is taken as open) and throws the host's reply as a ``ShareError``, whose code
/// and message an extension can pass on as its own.
public struct ShareBroker: Sendable {
  /// The variable the host names the socket in.
  public static let environmentVariable = "XDG_SHARE_BROKER"

  /// The broker's socket.
  public let socketPath: [UInt8]

  /// The broker at `socketPath`.
  public init(socketPath: [UInt8]) {
    self.socketPath = socketPath
  }

  /// The broker the host started for this run.
  ///
  /// - Throws: ``ShareError`` when `XDG_SHARE_BROKER` is not set (the program was not started by
  ///   xdg-share).
  public static func current() throws(ShareError) -> ShareBroker {
    guard let path = ProcessEnvironment.bytes[environmentVariable], !path.isEmpty else {
      throw ShareError(
        "No broker: \(environmentVariable) is not set, so the host cannot do this for the service")
    }
    return ShareBroker(socketPath: path)
  }

  /// A new message in the user's mail program (the Email portal's `ComposeEmail`); the files at
  /// `attachments` are sent as descriptors, so that the host attaches what the service can read.
  public func composeEmail(
    addresses: [String] = [], cc: [String] = [], bcc: [String] = [], subject: String? = nil,
    body: String? = nil,
    attachments: [[UInt8]] = []
  ) throws(ShareError) {
    var options: [String: JSONValue] = [:]
    if !addresses.isEmpty { options["addresses"] = .array(addresses.map(JSONValue.string)) }
    if !cc.isEmpty { options["cc"] = .array(cc.map(JSONValue.string)) }
    if !bcc.isEmpty { options["bcc"] = .array(bcc.map(JSONValue.string)) }
    if let subject { options["subject"] = .string(subject) }
    if let body { options["body"] = .string(body) }
    let descriptors = try Self.open(attachments)
    defer { for descriptor in descriptors { _ = system_close(descriptor) } }
    if !descriptors.isEmpty {
      options["attachment_fds"] = .array(descriptors.indices.map { .number(Double($0)) })
    }
    try call("ComposeEmail", options, descriptors: descriptors)
  }

  /// Opens `url` in the application set for its scheme (the OpenURI portal's `OpenURI`); a
  /// `file:` URL is opened as a file, by descriptor.
  public func open(url: URL) throws(ShareError) {
    if url.isFileURL {
      try open(filePath: Array(url.path.utf8))
    } else {
      try call("OpenURI", ["uri": .string(url.absoluteString)])
    }
  }

  /// Opens the file at `filePath` in the application set for its type (`OpenFile`).
  public func open(filePath: [UInt8]) throws(ShareError) {
    let descriptors = try Self.open([filePath])
    defer { for descriptor in descriptors { _ = system_close(descriptor) } }
    try call("OpenFile", ["fd": .number(0)], descriptors: descriptors)
  }

  /// Puts `text` on the clipboard as plain text.
  public func copy(text: String) throws(ShareError) {
    try call("SetClipboard", ["mime_type": .string("text/plain;charset=utf-8"), "text": .string(text)])
  }

  /// Puts a list of URIs (`text/uri-list`: one a line, CRLF) on the clipboard.
  public func copy(uriList: String) throws(ShareError) {
    try call("SetClipboard", ["mime_type": .string("text/uri-list"), "text": .string(uriList)])
  }

  /// Puts the image file at `path` on the clipboard as `mimeType`; where the session's clipboard
  /// takes text only, `textFallback` is offered instead (the file's URI).
  public func copy(image path: [UInt8], mimeType: String, textFallback: String? = nil) throws(ShareError) {
    let descriptors = try Self.open([path])
    defer { for descriptor in descriptors { _ = system_close(descriptor) } }
    var options: [String: JSONValue] = ["mime_type": .string(mimeType), "data_fd": .number(0)]
    if let textFallback { options["text_fallback"] = .string(textFallback) }
    try call("SetClipboard", options, descriptors: descriptors)
  }

  /// Shows a notification.
  public func notify(title: String, body: String = "") throws(ShareError) {
    try call("Notify", ["title": .string(title), "body": .string(body)])
  }

  /// Stores `secret` as the value of this service's own `Secure` configuration item `item` in the
  /// host's keyring (`StoreSecret`): the next request's composition carries it. There is no
  /// lookup: secrets reach the service only in its request's composition.
  public func storeSecret(_ secret: String, item: String) throws(ShareError) {
    try call("StoreSecret", ["item": .string(item), "secret": .string(secret)])
  }

  /// Sends one request and reads its reply.
  func call(_ method: String, _ options: [String: JSONValue], descriptors: [Int32] = []) throws(ShareError) {
    let request = JSONValue.object(["method": .string(method), "options": .object(options)])
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let line = try? encoder.encode(request) else { throw ShareError("Cannot write the broker request") }
    let socket: Int32
    switch SocketMessages.connect(to: socketPath) {
    case .success(let value): socket = value
    case .failure(let error):
      throw ShareError("Cannot reach the broker at \(String(decoding: socketPath, as: UTF8.self)): \(error)")
    }
    defer { _ = system_close(socket) }
    if case .failure(let error) = SocketMessages.send(
      Array(line) + [0x0A], descriptors: descriptors, on: socket)
    {
      throw ShareError("Cannot ask the broker: \(error)")
    }
    var reply: [UInt8] = []
    while !reply.contains(0x0A) {
      switch SocketMessages.receive(on: socket) {
      case .success(let received):
        for descriptor in received.descriptors { _ = system_close(descriptor) }
        guard !received.bytes.isEmpty else {
          throw ShareError("The broker closed the connection without a reply")
        }
        reply += received.bytes
      case .failure(let error):
        throw ShareError("Cannot read the broker's reply: \(error)")
      }
    }
    let text = reply[..<reply.firstIndex(of: 0x0A)!]
    guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: Data(text)) else {
      throw ShareError("The broker's reply is not JSON")
    }
    if case .bool(true)? = object["ok"] { return }
    guard case .object(let error)? = object["error"] else {
      throw ShareError("The broker's reply is neither ok nor an error")
    }
    var code = 1
    if case .number(let number)? = error["code"] { code = Int(number) }
    var message = "The broker refused"
    if case .string(let text)? = error["message"] { message = text }
    throw ShareError(code: code, message: message)
  }

  /// Each file opened for reading; all closed again when one cannot be.
  private static func open(_ paths: [[UInt8]]) throws(ShareError) -> [Int32] {
    var descriptors: [Int32] = []
    for path in paths {
      let opened = withNULTerminated(path) { cPath in
        valueOrErrno { system_open(cPath, _O_RDONLY | _O_CLOEXEC) }
      }
      switch opened {
      case .success(let descriptor): descriptors.append(descriptor)
      case .failure(let error):
        for descriptor in descriptors { _ = system_close(descriptor) }
        let name = String(decoding: path.split(separator: UInt8(ascii: "/")).last ?? [], as: UTF8.self)
        throw ShareError("Cannot open \(name): \(error)")
      }
    }
    return descriptors
  }
}
