import FoundationEssentials
import ShareCurl
public import ShareKit
import SharePOSIX
import Synchronization

/// Upload to WebDAV / Nextcloud: PUTs the shared files into a WebDAV folder (Nextcloud,
/// ownCloud, any WebDAV server) set in its configuration items, the password in the keyring, or
/// in an older `$XDG_CONFIG_HOME/xdg-share/webdav.ini` (see ``WebDAVConfiguration``), with
/// progress; returns each file's URL.
///
/// The folder is created (MKCOL, with its missing parents) when it does not exist. A file is
/// never overwritten: a name the server has (HEAD) is skipped, and the PUT carries
/// `If-None-Match: *`, so that a file created meanwhile is answered 412 and the next name,
/// `photo (2).png`, is tried. Names are percent-encoded byte by byte.
public struct WebDAVService: ShareExtension {
  public static let identifier = "org.xdgshare.webdav"

  public init() {}

  public func perform(context: ExtensionContext) async throws {
    let environment = ServiceEnvironment()
    let content = SharedContent(context.inputItems)
    let files = content.files
    guard !files.isEmpty, files.count == content.things.count else {
      throw ShareError("Upload to WebDAV uploads files only; share the links and texts another way")
    }
    var sizes: [UInt64] = []
    for file in files {
      let status: FileStatus
      do {
        status = try FileSystem.status(file.path)
      } catch {
        throw ShareError("Cannot read \(file.displayName): \(error.reason)")
      }
      guard status.kind == .regular else {
        throw ShareError(
          "\(file.displayName) is a folder or a special file; Upload to WebDAV uploads files only")
      }
      sizes.append(status.size)
    }
    let configuration = try WebDAVConfiguration.load(
      settings: context.composition?.configuration ?? [:], environment: environment,
      programs: Programs(environment: environment),
      keyring: KeyringPassword(item: "password")
    )
    let uploader = WebDAVUploader(configuration: configuration) { fraction, message in
      context.setProgress(fraction, message: message)
    }
    context.setProgress(0, message: "Connecting to \(uploader.client.host)")
    let urls = try await uploader.upload(files, sizes: sizes)
    context.completeRequest(returningItems: [ExtensionItem(attachments: urls.map { ItemProvider(url: $0) })])
  }
}

/// Uploads files into one WebDAV collection.
struct WebDAVUploader: Sendable {
  let configuration: WebDAVConfiguration
  let client: WebDAVClient
  let report: @Sendable (Double, String) -> Void
  /// After how many taken names an upload gives up.
  static let maximumNumber = 999

  init(configuration: WebDAVConfiguration, report: @escaping @Sendable (Double, String) -> Void) {
    self.configuration = configuration
    self.client = WebDAVClient(configuration: configuration)
    self.report = report
  }

  /// The folder for messages: its decoded path on the server.
  var folderName: String {
    let path = configuration.url.path
    return path.isEmpty ? "/" : path
  }

  /// Uploads `files` (of the given sizes) in order; returns their URLs.
  func upload(_ files: [SharedFile], sizes: [UInt64]) async throws -> [URL] {
    try await ensureCollection(configuration.url, depth: 0)
    let total = max(1, sizes.reduce(0, +))
    var done: UInt64 = 0
    var urls: [URL] = []
    for (file, size) in zip(files, sizes) {
      let message = "Uploading \(file.displayName)"
      let before = done
      let last = Mutex(-1.0)
      report(Double(before) / Double(total), message)
      let report = self.report
      let url = try await upload(file) { sent in
        let fraction = min(1, Double(before + UInt64(max(0, sent))) / Double(total))
        let due = last.withLock { last in
          guard fraction - last >= 0.01 else { return false }
          last = fraction
          return true
        }
        if due { report(fraction, message) }
      }
      done += size
      urls.append(url)
    }
    report(1, "Uploaded")
    return urls
  }

  /// Uploads one file under the first free name; returns its URL.
  private func upload(_ file: SharedFile, progress: @escaping @Sendable (Int64) -> Void) async throws -> URL {
    for number in 1...Self.maximumNumber {
      let name = FileNames.numbered(file.name, number)
      guard let target = URL(string: configuration.url.absoluteString + FileNames.percentEncoded(name)) else {
        throw ShareError("Cannot make an address for \(file.displayName)")
      }
      // A server that ignores If-None-Match would overwrite: ask first.
      let existing = try await client.send("HEAD", target)
      switch existing.status {
      case 200..<300: continue
      case 401: throw refusedCredentials
      default: break
      }
      let descriptor: FileDescriptor
      let size: UInt64
      do {
        descriptor = try FileDescriptor.openForReading(file.path)
        size = try descriptor.status().size
      } catch {
        throw ShareError("Cannot read \(file.displayName): \(error.reason)")
      }
      defer { descriptor.close() }
      // The Content-Length is the size of the file as opened: following a symbolic link, or
      // after a change since it was shared, it may differ from the size measured before.
      let response = try await client.send(
        "PUT", target, headers: ["If-None-Match": "*", "Content-Type": "application/octet-stream"],
        body: .file(descriptor, size: size, name: file.displayName), progress: progress)
      switch response.status {
      case 200..<300: return target
      case 412: continue
      default: throw failure(response, uploading: file.displayName)
      }
    }
    throw ShareError("Cannot upload \(file.displayName): too many files of that name in \(folderName)")
  }

  /// Makes sure the collection `url` exists, creating it and its missing parents.
  private func ensureCollection(_ url: URL, depth: Int) async throws {
    let found = try await client.send(
      "PROPFIND", url, headers: ["Depth": "0", "Content-Type": "application/xml; charset=utf-8"])
    switch found.status {
    case 200..<300: return
    case 401: throw refusedCredentials
    case 404: try await makeCollection(url, depth: depth)
    default: throw failure(found, reaching: url)
    }
  }

  private func makeCollection(_ url: URL, depth: Int) async throws {
    let made = try await client.send("MKCOL", url)
    switch made.status {
    case 200..<300, 405: return  // 405: it exists (made meanwhile).
    case 401: throw refusedCredentials
    case 409 where depth < 32 && url.path != "/":
      // A parent is missing: make it, then this one.
      try await makeCollection(url.deletingLastPathComponent(), depth: depth + 1)
      try await makeCollection(url, depth: depth + 1)
    case 403:
      throw ShareError(code: 403, message: "The server does not allow creating the folder \(url.path)")
    default:
      throw failure(made, reaching: url)
    }
  }

  var refusedCredentials: ShareError {
    ShareError(
      code: 401,
      message: "The server refused the user name or password: \(configuration.credentialsAdvice)")
  }

  private func failure(_ response: WebDAVClient.Response, uploading name: String) -> ShareError {
    let status = response.status
    let message =
      switch status {
      case 401: refusedCredentials.message
      case 403: "The server does not allow uploads to \(folderName)"
      case 404, 409: "The folder \(folderName) does not exist on the server"
      case 400: "The server refused the name \(name)"
      case 413: "\(name) is too large for the server"
      case 423: "\(name) is locked on the server"
      case 507: "The server has no space left for \(name)"
      case 300..<400:
        "The server sent the upload elsewhere (\(response.location ?? "no address")): "
          + "put that address in \(configuration.addressPlace)"
      default: "The server answered \(Self.describe(status)) to the upload of \(name)"
      }
    // A server error (5xx, 507 full) failed the request; anything else is for the user to fix.
    return status >= 500
      ? .serviceFailed(message, code: status) : ShareError(code: status, message: message)
  }

  private func failure(_ response: WebDAVClient.Response, reaching url: URL) -> ShareError {
    let status = response.status
    let message =
      switch status {
      case 403: "The server does not allow access to the folder \(url.path)"
      case 300..<400:
        "The server sent the folder \(url.path) elsewhere (\(response.location ?? "no address")): "
          + "put that address in \(configuration.addressPlace)"
      case 405, 501:
        "\(client.host) does not speak WebDAV at \(url.path): check the address in \(configuration.addressPlace)"
      default: "The server answered \(Self.describe(status)) for the folder \(url.path)"
      }
    // A server error (5xx, 507 full) failed the request; anything else is for the user to fix.
    return status >= 500
      ? .serviceFailed(message, code: status) : ShareError(code: status, message: message)
  }

  /// `404 (Not Found)`: a status with its reason phrase.
  static func describe(_ status: Int) -> String {
    "\(status) (\(HTTPStatus.reasonPhrase(status)))"
  }
}
