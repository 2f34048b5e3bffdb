import Dispatch
import FoundationEssentials
public import ShareCore
import SharePOSIX
import ShareProtocol
import Synchronization

/// What a sandboxed service cannot do itself and the host does for it: compose a mail, open a
/// link or a file, put something on the clipboard, show a notification (docs/plugin-protocol.md,
/// "The broker"). One broker serves one run of a service's program: a listening socket in a
/// private folder (`$XDG_RUNTIME_DIR/xdg-share/broker/<pid>-<random>/socket`, 0700), whose path the
/// program finds in `XDG_SHARE_BROKER`, served on a thread of its own until ``stop()``.
///
/// The wire is the portals' (`org.freedesktop.portal.Email`, `OpenURI`) in JSON lines: a request
/// `{"method": "ComposeEmail", "options": {…}}` per line, descriptors sent with it (`SCM_RIGHTS`)
/// and named by their index among those of the line; one reply line, `{"ok": true}` or
/// `{"error": {"code": N, "message": "…"}}`.
public final class Broker: Sendable {
  /// The variable that names the socket in the program's environment.
  public static let environmentVariable = "XDG_SHARE_BROKER"
  /// The longest request line taken: a clipboard's text travels in it.
  static let maximumLine = 16 << 20

  /// The socket's path.
  public let socketPath: FilePath
  private let folder: RequestFolder
  private let listener: UnixSocket.Listener
  private let control = Control()

  /// What the serving thread shares with ``stop()``.
  final class Control: Sendable {
    let stopping = Atomic<Bool>(false)
    let ended = DispatchSemaphore(value: 0)
    var isStopping: Bool { stopping.load(ordering: .relaxed) }
  }

  /// Makes the socket and starts serving it with `actions`.
  ///
  /// - Throws: ``RequestFolder/Failure`` when the folder or the socket cannot be made.
  public init(paths: SearchPaths, actions: any BrokerActions) throws(RequestFolder.Failure) {
    // A clipboard program that exits without reading what it is given is judged by its status.
    ProcessSignals.ignoreBrokenPipes()
    folder = try RequestFolder(.broker, paths: paths)
    socketPath = folder.path(of: "socket")
    do {
      listener = try UnixSocket.listen(at: socketPath.bytes)
    } catch {
      folder.remove()
      throw RequestFolder.Failure(message: "cannot listen at \(socketPath.text): \(error.reason)")
    }
    let listener = self.listener
    let copies = RequestFolder.parent(of: .attachments, paths: paths)
    let control = self.control
    DetachedThread.start {
      defer { control.ended.signal() }
      while !control.isStopping {
        // ``stop()`` wakes it by connecting; the time limit only bounds the wait should that
        // connection fail.
        guard let connection = try? listener.accept(timeout: 1) else { continue }
        guard !control.isStopping else {
          connection.close()
          break
        }
        Self.serve(connection, actions: actions, copies: copies, until: control)
        connection.close()
      }
    }
  }

  deinit {
    stop()
  }

  /// Stops serving (after the request being carried out, if any), closes the socket and removes
  /// its folder; later calls do nothing.
  public func stop() {
    guard !control.stopping.exchange(true, ordering: .relaxed) else { return }
    // A connection of its own wakes the serving thread at once, rather than at its next look:
    // every share ends through here.
    (try? UnixSocket.connect(to: socketPath.bytes))?.close()
    control.ended.wait()
    listener.close()
    folder.remove()
  }

  /// Answers the requests of one connection until it closes, the broker stops or a line is bad.
  static func serve(
    _ connection: FileDescriptor, actions: any BrokerActions, copies: FilePath, until control: Control
  ) {
    var buffer: [UInt8] = []
    var descriptors: [FileDescriptor] = []
    while !control.isStopping {
      if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = Array(buffer[..<newline])
        buffer.removeSubrange(...newline)
        let reply = answer(line, descriptors: descriptors, actions: actions, copies: copies)
        for descriptor in descriptors { descriptor.close() }
        descriptors = []
        guard (try? UnixSocket.send(reply.line, on: connection)) != nil else { return }
        continue
      }
      guard buffer.count <= maximumLine else {
        _ = try? UnixSocket.send(
          BrokerError.badLine("the line is longer than 16 MiB").reply.line, on: connection)
        return
      }
      guard let readable = try? connection.waitReadable(timeout: 0.2) else { return }
      guard readable else { continue }
      guard let message = try? UnixSocket.receive(on: connection) else { return }
      if message.bytes.isEmpty { return }
      buffer += message.bytes
      descriptors += message.descriptors
      // A line carries at most 64 descriptors: more is a service filling the host's table.
      guard descriptors.count <= 64, !message.descriptorsDropped else {
        _ = try? UnixSocket.send(
          BrokerError.badLine("more than 64 descriptors were sent").reply.line, on: connection)
        return
      }
    }
  }

  /// The reply to one request line.
  static func answer(
    _ line: [UInt8], descriptors: [FileDescriptor], actions: any BrokerActions, copies: FilePath
  ) -> BrokerReply {
    do throws(BrokerError) {
      let request = try BrokerRequest(line: line, descriptors: descriptors, copies: copies)
      try request.carryOut(with: actions)
      return .ok
    } catch {
      return error.reply
    }
  }
}

/// A broker's answer to one request.
enum BrokerReply: Equatable {
  case ok
  case error(code: Int, message: String)

  /// The reply as its line.
  var line: [UInt8] {
    let value: JSONValue
    switch self {
    case .ok: value = .object(["ok": .bool(true)])
    case .error(let code, let message):
      value = .object(["error": .object(["code": .number(Double(code)), "message": .string(message)])])
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return Array((try? encoder.encode(value)) ?? Data(#"{"ok":false}"#.utf8)) + [UInt8(ascii: "\n")]
  }
}

/// Why the broker did not do what it was asked: the reply's code and message.
public struct BrokerError: Error, Equatable, Sendable {
  /// The code of the reply: the desktop program's exit status when it failed, 127 when there is
  /// none, 1 for a request the broker refuses, 2 for a method it does not know.
  public var code: Int
  public var message: String

  public init(code: Int, message: String) {
    self.code = code
    self.message = message
  }

  /// A line that is not a request.
  static func badLine(_ why: String) -> BrokerError {
    BrokerError(code: 1, message: "Not a broker request: \(why)")
  }

  /// An option missing or of the wrong type.
  static func badOption(_ name: String, _ why: String) -> BrokerError {
    BrokerError(code: 1, message: "The option \(name) \(why)")
  }

  var reply: BrokerReply { .error(code: code, message: message) }
}

/// A mail to compose: the Email portal's options, the attachments as the host's paths.
public struct BrokerEmail: Equatable, Sendable {
  public var addresses: [String] = []
  public var cc: [String] = []
  public var bcc: [String] = []
  public var subject: String?
  public var body: String?
  public var attachments: [FilePath] = []

  public init(
    addresses: [String] = [], cc: [String] = [], bcc: [String] = [], subject: String? = nil,
    body: String? = nil,
    attachments: [FilePath] = []
  ) {
    self.addresses = addresses
    self.cc = cc
    self.bcc = bcc
    self.subject = subject
    self.body = body
    self.attachments = attachments
  }
}

/// What goes on the clipboard.
public struct BrokerClip: Equatable, Sendable {
  /// `text/plain;charset=utf-8`, `text/uri-list` or an image's type.
  public var mimeType: String
  public var data: [UInt8]
  /// What is offered where the clipboard program takes text only (`xsel`), for an image.
  public var textFallback: [UInt8]?

  public init(mimeType: String, data: [UInt8], textFallback: [UInt8]? = nil) {
    self.mimeType = mimeType
    self.data = data
    self.textFallback = textFallback
  }
}

/// What the broker does on the desktop: ``DesktopBrokerActions`` with the desktop's programs, a
/// test's double in memory.
public protocol BrokerActions: Sendable {
  func composeEmail(_ email: BrokerEmail) throws(BrokerError)
  /// Opens a link (never a `file:` one: those come as descriptors).
  func open(uri: String) throws(BrokerError)
  /// Opens a file in the application its type is set to open in.
  func open(file: FilePath) throws(BrokerError)
  func copy(_ clip: BrokerClip) throws(BrokerError)
  func notify(title: String, body: String) throws(BrokerError)
  /// Stores `secret` as the value of the service's own `Secure` configuration item `item`, where
  /// the host keeps those (the keyring), so that the next request's composition carries it: how a
  /// service moves a password it found in a file of its own out of that file. Never a lookup:
  /// secrets reach a service only in its request's composition.
  func storeSecret(_ secret: String, item: String) throws(BrokerError)
}

/// One request line, read.
struct BrokerRequest {
  var method: String
  var options: [String: JSONValue]
  var descriptors: [FileDescriptor]
  /// Where a file that has no path on the host is copied.
  var copies: FilePath

  init(line: [UInt8], descriptors: [FileDescriptor], copies: FilePath) throws(BrokerError) {
    let value: JSONValue
    do {
      value = try JSONDecoder().decode(JSONValue.self, from: Data(line))
    } catch {
      throw .badLine("it is not JSON")
    }
    guard case .object(let object) = value, case .string(let method)? = object["method"] else {
      throw .badLine("it has no \"method\"")
    }
    self.method = method
    switch object["options"] {
    case nil, .null?: options = [:]
    case .object(let options)?: self.options = options
    default: throw .badLine("\"options\" is not an object")
    }
    self.descriptors = descriptors
    self.copies = copies
  }

  func carryOut(with actions: any BrokerActions) throws(BrokerError) {
    switch method {
    case "ComposeEmail":
      try actions.composeEmail(
        BrokerEmail(
          addresses: try strings("addresses"), cc: try strings("cc"), bcc: try strings("bcc"),
          subject: try string("subject"), body: try string("body"),
          attachments: try descriptorIndices("attachment_fds").map { index throws(BrokerError) in
            try SharedDescriptor.path(of: descriptors[index], option: "attachment_fds", copies: copies)
          }))
    case "OpenURI":
      guard let uri = try string("uri"), !uri.isEmpty else { throw .badOption("uri", "is missing") }
      guard let colon = uri.firstIndex(of: ":"),
        uri[..<colon].allSatisfy({ $0.isLetter || "+-.".contains($0) })
      else {
        throw .badOption("uri", "is not a URI")
      }
      guard uri[..<colon].lowercased() != "file" else {
        throw .badOption("uri", "is a file: open files with OpenFile and a descriptor")
      }
      try actions.open(uri: uri)
    case "OpenFile":
      guard let index = try descriptorIndices("fd", single: true).first else {
        throw .badOption("fd", "is missing")
      }
      try actions.open(file: try SharedDescriptor.path(of: descriptors[index], option: "fd", copies: copies))
    case "SetClipboard":
      guard let mimeType = try string("mime_type"), !mimeType.isEmpty else {
        throw .badOption("mime_type", "is missing")
      }
      let data: [UInt8]
      if let text = try string("text") {
        data = Array(text.utf8)
      } else if let index = try descriptorIndices("data_fd", single: true).first {
        data = try SharedDescriptor.contents(of: descriptors[index], option: "data_fd")
      } else {
        throw .badOption("text", "or data_fd is needed")
      }
      try actions.copy(
        BrokerClip(
          mimeType: mimeType, data: data, textFallback: try string("text_fallback").map { Array($0.utf8) }))
    case "StoreSecret":
      guard let item = try string("item"), !item.isEmpty else { throw .badOption("item", "is missing") }
      guard let secret = try string("secret"), !secret.isEmpty else {
        throw .badOption("secret", "is missing")
      }
      try actions.storeSecret(secret, item: item)
    case "Notify":
      guard let title = try string("title"), !title.isEmpty else { throw .badOption("title", "is missing") }
      try actions.notify(title: title, body: try string("body") ?? "")
    default:
      throw BrokerError(
        code: 2,
        message:
          "The broker has no method \(method): ComposeEmail, OpenURI, OpenFile, SetClipboard, Notify, StoreSecret"
      )
    }
  }

  private func string(_ name: String) throws(BrokerError) -> String? {
    switch options[name] {
    case nil, .null?: return nil
    case .string(let value)?:
      guard !value.utf8.contains(0) else { throw .badOption(name, "holds a NUL character") }
      return value
    default: throw .badOption(name, "is not a string")
    }
  }

  private func strings(_ name: String) throws(BrokerError) -> [String] {
    switch options[name] {
    case nil, .null?: return []
    case .array(let values)?:
      var result: [String] = []
      for value in values {
        guard case .string(let text) = value, !text.utf8.contains(0) else {
          throw .badOption(name, "is not a list of strings")
        }
        result.append(text)
      }
      return result
    default: throw .badOption(name, "is not a list of strings")
    }
  }

  /// The indices of descriptors sent with the line that the option names (a list, or one number
  /// when `single`), each checked to be one of them.
  private func descriptorIndices(_ name: String, single: Bool = false) throws(BrokerError) -> [Int] {
    let values: [JSONValue]
    switch options[name] {
    case nil, .null?: return []
    case .array(let array)? where !single: values = array
    case .number? where single: values = [options[name]!]
    default:
      throw .badOption(name, single ? "is not a descriptor's index" : "is not a list of descriptors' indices")
    }
    var indices: [Int] = []
    for value in values {
      guard case .number(let number) = value, number >= 0, number.rounded() == number,
        number < Double(descriptors.count)
      else {
        throw .badOption(name, "names a descriptor that was not sent with the request")
      }
      indices.append(Int(number))
    }
    return indices
  }
}

/// A descriptor a service sent, made what the host's programs take.
enum SharedDescriptor {
  /// The largest file put on the clipboard.
  static let maximumContents: UInt64 = 256 << 20

  /// The host's path of the regular file open as `descriptor`, as the Email portal finds it: where
  /// `/proc/self/fd` says it is, if the file there is still that one (the sandbox binds items at
  /// their own paths); else a copy in `copies` (a private folder of the runtime directory) that
  /// outlives the request, for a mail program that reads its attachments later (gone at logout).
  static func path(of descriptor: FileDescriptor, option: String, copies: FilePath) throws(BrokerError)
    -> FilePath
  {
    let (readable, status) = try opened(descriptor, option: option)
    if let path = descriptor.linkTarget, path.first == UInt8(ascii: "/"),
      let there = try? FileSystem.status(path), there.device == status.device, there.inode == status.inode
    {
      return FilePath(bytes: path)
    }
    var name =
      descriptor.linkTarget.flatMap { $0.split(separator: UInt8(ascii: "/")).last.map(Array.init) } ?? []
    // The kernel names a file that was removed "NAME (deleted)".
    let deleted = Array(" (deleted)".utf8)
    if name.count > deleted.count, Array(name.suffix(deleted.count)) == deleted {
      name.removeLast(deleted.count)
    }
    if name.isEmpty || name == Array(".".utf8) || name == Array("..".utf8) { name = Array("attachment".utf8) }
    let folder = copies.appending(String(UInt64.random(in: 0...UInt64.max), radix: 36))
    let file = FilePath(bytes: folder.bytes + [UInt8(ascii: "/")] + name)
    do {
      try FileSystem.makeDirectories(copies.bytes, mode: 0o700)
      try FileSystem.makeDirectory(folder.bytes, mode: 0o700)
      let output = try FileDescriptor.createNew(file.bytes, mode: 0o600)
      defer { output.close() }
      _ = try readable.copy(to: output, size: status.size)
    } catch {
      throw .badOption(option, "names a file that cannot be copied for the program: \(error.reason)")
    }
    return file
  }

  /// The whole of the regular file open as `descriptor`, read from its start.
  static func contents(of descriptor: FileDescriptor, option: String) throws(BrokerError) -> [UInt8] {
    let (readable, status) = try opened(descriptor, option: option)
    guard status.size <= maximumContents else { throw .badOption(option, "names a file larger than 256 MiB") }
    do {
      var contents: [UInt8] = []
      while true {
        let piece = try readable.read(at: UInt64(contents.count), upTo: 1 << 20)
        if piece.isEmpty || contents.count + piece.count > Int(maximumContents) { break }
        contents += piece
      }
      return contents
    } catch {
      throw .badOption(option, "names a file that cannot be read: \(error.reason)")
    }
  }

  private static func opened(_ descriptor: FileDescriptor, option: String) throws(BrokerError) -> (
    FileDescriptor, FileStatus
  ) {
    do {
      return try descriptor.openedForSharing()
    } catch {
      switch error {
      case .notARegularFile:
        throw .badOption(option, "names a folder or a special file; only regular files are taken")
      case .writeOnly: throw .badOption(option, "names a file open for writing only")
      case .aLink: throw .badOption(option, "names a symbolic link")
      case .unreadable(let reason): throw .badOption(option, "names a file that cannot be read: \(reason)")
      }
    }
  }
}
