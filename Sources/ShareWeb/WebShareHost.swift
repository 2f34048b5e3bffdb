import FoundationEssentials
import ShareCore
import ShareHost
import SharePOSIX

/// The native-messaging host `org.xdgshare.webshare`: what the browser extension talks to when a
/// page calls `navigator.share`. The browser starts it for each share with the extension's
/// origin as its argument (Chromium: `chrome-extension://ID/`; Firefox: the manifest's path and
/// the add-on's id) and speaks ``NativeMessaging`` on its standard input and output.
///
/// It reads the share (``WebShareRequest``) and its files into a private ``RequestFolder``,
/// opens the share sheet saying which site asks, and answers how the share ended, once:
/// `{"outcome": "completed" | "cancelled" | "failed" | "no-service" | "rejected", "reason",
/// "message", "service", "request"}`. The extension turns that into the promise's resolution or
/// the exception the Web Share API names. The browser closing the connection (the tab closed,
/// the page gone) closes the sheet. Whatever arrives, the answer is a message, never a crash.
public enum WebShareHost {
  /// The one answer.
  struct Answer: Encodable, Equatable {
    var outcome: Outcome
    /// For `rejected`: the refusal's key (``WebShareRefusal/reason``).
    var reason: String?
    var message: String?
    /// The service chosen, and the request's id in the history.
    var service: String?
    var request: String?

    enum Outcome: String, Encodable {
      case completed, cancelled, failed, rejected
      case noService = "no-service"
    }

    static func rejected(_ refusal: WebShareRefusal) -> Answer {
      Answer(outcome: .rejected, reason: refusal.reason, message: refusal.message)
    }

    static func failed(_ message: String) -> Answer { Answer(outcome: .failed, message: message) }

    var json: [UInt8] {
      let encoder = JSONEncoder()
      encoder.outputFormatting = .sortedKeys
      // Encoding strings and optionals cannot fail; the fallback is for the impossible.
      return (try? Array(encoder.encode(self))) ?? Array(#"{"outcome":"failed"}"#.utf8)
    }
  }

  /// Serves one share; returns the exit status (the browser does not read it).
  public static func run(arguments: [[UInt8]], environment: [String: String]) -> Int32 {
    ProcessSignals.ignoreBrokenPipes()
    let input: FileDescriptor
    let output: FileDescriptor
    do {
      input = try FileDescriptor.standard(.input)
      output = try FileDescriptor.standard(.output)
    } catch {
      CurrentProcess.writeToStandardError("xdg-share-webshare: \(error.description)\n")
      return ExitCode.failure.rawValue
    }
    let answer = serve(
      read: { () throws(NativeMessaging.ReadError) in try NativeMessaging.read { try input.read(upTo: $0) } },
      whenInputEnds: { action in
        DetachedThread.start {
          // Nothing more is to come: the end of input is the browser letting go.
          while let chunk = try? input.read(), !chunk.isEmpty {}
          action()
        }
      }, environment: environment, sheets: ProcessSheetLauncher(environment: environment))
    // The browser may be gone: nobody to tell.
    try? output.write(NativeMessaging.frame(answer.json))
    return answer.outcome == .completed ? ExitCode.success.rawValue : ExitCode.failure.rawValue
  }

  /// Reads the share with `read`, runs it in the sheet `sheets` starts, and says how it ended.
  /// `whenInputEnds` is handed what closes the sheet, to do once the browser lets go.
  static func serve(
    read: () throws(NativeMessaging.ReadError) -> [UInt8]?,
    whenInputEnds: (@escaping @Sendable () -> Void) -> Void, environment: [String: String],
    sheets: any SheetLauncher
  ) -> Answer {
    let first: [UInt8]
    do {
      guard let message = try read() else { return .failed("the browser sent nothing") }
      first = message
    } catch {
      return .rejected(.invalidMessage(error.message))
    }
    let request: WebShareRequest
    do {
      request = try WebShareRequest.decode(first)
    } catch {
      return .rejected(error)
    }
    let paths = SearchPaths.system(environment: environment)
    let folder: RequestFolder
    do {
      folder = try RequestFolder(.webShare, paths: paths)
    } catch {
      return .failed(error.message)
    }
    defer { folder.remove() }
    do {
      try receiveFiles(of: request, into: folder, read: read)
    } catch let refusal as WebShareRefusal {
      return .rejected(refusal)
    } catch let failure as RequestFolder.Failure {
      return .failed(failure.message)
    } catch {
      return .failed("\(error)")
    }
    let sheet: any RunningSheet
    do {
      sheet = try sheets.start(
        SheetRequest(
          items: request.items(filesIn: folder.path), caller: .site(request.site),
          title: request.title.flatMap { $0.isEmpty ? nil : $0 }))
    } catch {
      return Answer(error)
    }
    whenInputEnds { sheet.cancel() }
    SignalWatcher.onTermination { _ in sheet.cancel() }
    defer { SignalWatcher.onTermination(nil) }
    return Answer(sheet.wait())
  }

  /// Reads each file's chunks, in order, into `folder`.
  static func receiveFiles(
    of request: WebShareRequest, into folder: RequestFolder,
    read: () throws(NativeMessaging.ReadError) -> [UInt8]?
  ) throws {
    for (index, file) in request.files.enumerated() {
      let descriptor = try folder.create(file.name)
      defer { descriptor.close() }
      var received = 0
      while received < file.size {
        let message: [UInt8]
        do {
          guard let next = try read() else {
            throw WebShareRefusal.invalidMessage(
              "the input ended before all of \(Diagnostics.quoted(file.name))")
          }
          message = next
        } catch let error as NativeMessaging.ReadError {
          throw WebShareRefusal.invalidMessage(error.message)
        }
        let chunk = try WebShareChunk.decode(message)
        guard chunk.file == index else {
          throw WebShareRefusal.invalidMessage(
            "a chunk of file \(chunk.file) came while file \(index) was read")
        }
        guard received + chunk.bytes.count <= file.size else {
          throw WebShareRefusal.invalidMessage("\(Diagnostics.quoted(file.name)) is longer than its size")
        }
        do {
          try descriptor.write(chunk.bytes)
        } catch {
          throw RequestFolder.Failure(
            message: "cannot write \(folder.path.appending(file.name).text): \(error.reason)")
        }
        received += chunk.bytes.count
      }
    }
  }
}

// Here rather than in the structure, so that it keeps the memberwise initializer the compiler
// writes (`Answer(outcome:reason:message:service:request:)`, the optional ones nil unless given).
extension WebShareHost.Answer {
  /// The answer for a sheet that ended so.
  init(_ end: SheetSession.End) {
    self.init(
      outcome: Outcome(rawValue: end.status.word(in: .webShare)) ?? .failed,
      message: end.response == .completed ? nil : end.message, service: end.answer?.serviceID,
      request: end.answer?.requestID)
  }

  /// The answer for a sheet that could not start.
  init(_ error: SheetSession.StartError) {
    self.init(outcome: .failed, message: error.message)
  }
}
