import Foundation
import Testing

/// Every system call goes through the seam (ShareSyscalls, and SharePOSIX's CPOSIX trampolines
/// in Internals/Syscalls.swift): this reads the package's sources and lists what does not.
///
/// A source scan, not the compiler: it looks for imports of the C library, for calls of libc's
/// functions by name, and for `EINTR` retries, outside the seam. A call is a name of
/// ``libcFunctions`` followed by `(`, not after `.` or `func`, in code (comments and string
/// literals are left out), and not a name the same file declares itself (a method `read`).
@Suite struct SystemCallSeamTests {
  /// The package's root, from this file's place in it.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The files that are the seam: they alone import Glibc or CPOSIX and call libc.
  static let seam: [String] = [
    "Sources/Wrappers/ShareSyscalls/", "Sources/Wrappers/SharePOSIX/Internals/Syscalls.swift",
  ]

  /// The wrappers whose files read the fields of libc's structs (`stat`'s `st_mode`,
  /// `timespec`'s `tv_sec`): under MemberImportVisibility a field is visible only where Glibc is
  /// imported, so they import it; their calls are looked for by name like any other file's.
  static let structFieldReaders = [
    "Sources/Wrappers/SharePOSIX/", "Sources/ShareKit/Internal/SystemCalls.swift",
  ]

  /// Calls of libc outside the seam that stay, each with why. Empty: a new entry needs a reason
  /// that holds up in review.
  static let allowed: [(file: String, name: String, reason: String)] = []

  /// The modules whose import brings libc's functions into a file.
  static let libcModules: Set<String> = ["Glibc", "Musl", "SwiftGlibc", "CPOSIX", "Darwin", "Foundation"]

  /// libc functions by name: those the seam wraps and the usual others a wrapper might reach for.
  static let libcFunctions: Set<String> = [
    // Files and descriptors.
    "open", "openat", "creat", "close", "read", "write", "pread", "pwrite", "readv", "writev", "lseek",
    "fstat",
    "stat", "lstat", "fstatat", "fsync", "fdatasync", "ftruncate", "truncate", "fchmod", "chmod", "fchown",
    "chown", "mkdir", "mkdirat", "rmdir", "unlink", "unlinkat", "link", "linkat", "rename", "renameat",
    "symlink",
    "readlink", "realpath", "access", "faccessat", "opendir", "fdopendir", "readdir", "closedir", "dup",
    "dup2",
    "dup3", "pipe", "pipe2", "fcntl", "ioctl", "flock", "poll", "ppoll", "select", "pselect", "epoll_create",
    "epoll_create1", "epoll_ctl", "epoll_wait", "eventfd", "inotify_init", "inotify_init1",
    "inotify_add_watch",
    "inotify_rm_watch", "memfd_create", "isatty", "tcgetattr", "tcsetattr", "mmap", "munmap", "umask",
    "getcwd",
    "chdir", "fchdir",
    // Processes and signals.
    "getpid", "getppid", "getpgrp", "getpgid", "setpgid", "setsid", "getuid", "geteuid", "getgid", "getegid",
    "kill", "killpg", "raise", "signal", "sigaction", "sigprocmask", "pthread_sigmask", "sigemptyset",
    "sigfillset", "sigaddset", "sigdelset", "sigismember", "sigwait", "sigtimedwait", "sigwaitinfo",
    "waitpid",
    "waitid", "fork", "vfork", "execv", "execve", "execvp", "posix_spawn", "posix_spawnp",
    "posix_spawn_file_actions_init", "posix_spawn_file_actions_destroy", "posix_spawn_file_actions_adddup2",
    "posix_spawn_file_actions_addchdir_np", "posix_spawn_file_actions_addclosefrom_np",
    "posix_spawnattr_init",
    "posix_spawnattr_destroy", "posix_spawnattr_setflags", "posix_spawnattr_setpgroup",
    "posix_spawnattr_setsigmask", "posix_spawnattr_setsigdefault", "setrlimit", "getrlimit", "prctl",
    "xdg_share_prctl", "xdg_share_pidfd_open", "pidfd_open", "syscall", "exit", "_exit", "abort", "atexit",
    "getenv", "setenv", "unsetenv", "putenv",
    // Threads and time.
    "pthread_create", "pthread_detach", "pthread_join", "pthread_self", "pthread_kill", "nanosleep", "usleep",
    "sleep", "clock_gettime", "clock_nanosleep", "gettimeofday", "localtime", "localtime_r", "gmtime_r",
    "mktime", "tzset", "strftime",
    // Memory, C strings and stdio.
    "malloc", "calloc", "realloc", "free", "memcpy", "memmove", "memset", "memcmp", "strlen", "strnlen",
    "strcmp",
    "strncmp", "strcpy", "strncpy", "strdup", "strndup", "strchr", "strrchr", "strstr", "strerror", "strtol",
    "strtoul", "strtod", "atoi", "atol", "printf", "fprintf", "puts", "fputs", "fflush", "fopen", "fclose",
    "fread", "fwrite", "fgets", "setlocale", "setvbuf", "perror",
  ]

  /// One thing the scan found, as `path:line: what`.
  struct Offender: CustomStringConvertible {
    var file: String
    var line: Int
    var what: String
    var description: String { "\(file):\(line): \(what)" }
  }

  @Test func noFileOutsideTheSeamMakesASystemCall() throws {
    let offenders = try Self.sourceFiles().flatMap { file in
      try Self.offenders(
        in: String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8), file: file)
    }
    let list = offenders.map(\.description).joined(separator: "\n")
    #expect(
      offenders.isEmpty,
      "system calls outside the seam (ShareSyscalls, SharePOSIX/Internals/Syscalls.swift):\n\(list)")
  }

  /// The scan finds what it is there to find: an import, a call, a qualified call, a retry.
  @Test func theScanFindsEachKindOfOffence() {
    let source = """
      internal import CGLib
      @preconcurrency import Glibc
      // close(fd) in a comment is no call, nor is "write(2)" in a string.
      func run(fd: Int32) {
        let length = strlen(name)
        _ = Glibc.close(fd)
        while result == -1 && errno == EINTR {}
        child.read(3)
      }
      """
    let found = Self.offenders(in: source, file: "Sources/Example/Example.swift").map(\.description)
    #expect(
      found == [
        "Sources/Example/Example.swift:2: imports Glibc",
        "Sources/Example/Example.swift:5: calls strlen",
        "Sources/Example/Example.swift:6: calls close",
        "Sources/Example/Example.swift:7: retries on EINTR",
      ])
  }

  /// A method or closure a file declares under a libc name is its own, not libc's.
  @Test func aNameTheFileDeclaresIsNotLibc() {
    let source = """
      import CDBus
      struct Reader {
        func read(_ count: Int) -> [UInt8] { [] }
        func next() -> [UInt8] { read(4) }
      }
      func fill(write: (Int) -> Void) { write(1) }
      """
    #expect(Self.offenders(in: source, file: "Sources/Example/Example.swift").isEmpty)
  }

  /// Every Swift file of `Sources` outside the seam, relative to the root.
  static func sourceFiles() throws -> [String] {
    let sources = root.appendingPathComponent("Sources")
    guard let walk = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil) else {
      return []
    }
    var files: [String] = []
    for case let url as URL in walk where url.pathExtension == "swift" {
      let relative = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
      if !seam.contains(where: { relative.hasPrefix($0) }) { files.append(relative) }
    }
    #expect(files.count > 100, "the scan found too few sources under \(sources.path)")
    return files.sorted()
  }

  /// What `source` (the file `file`, outside the seam) does that only the seam may.
  static func offenders(in source: String, file: String) -> [Offender] {
    let code = codeOnly(source)
    let lines = code.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var imported: Set<String> = []
    var found: [Offender] = []
    for (index, line) in lines.enumerated() {
      if let module = importedModule(line) {
        // A type alone (`import enum Glibc.POSIXErrorCode`) brings no function along.
        if line.range(of: #"import\s+(enum|struct|typealias|class)\s"#, options: .regularExpression) != nil {
          continue
        }
        imported.insert(module)
        let structFields = module == "Glibc" && Self.structFieldReaders.contains { file.hasPrefix($0) }
        if ["Glibc", "Musl", "SwiftGlibc", "CPOSIX", "Darwin"].contains(module), !structFields {
          found.append(Offender(file: file, line: index + 1, what: "imports \(module)"))
        }
      }
    }
    // A file that imports neither libc nor a C module (whose headers bring libc along) cannot call
    // libc: the compiler sees to that.
    let seesLibc = !imported.isDisjoint(with: libcModules) || imported.contains { isCModule($0) }
    let declared = seesLibc ? declaredNames(code) : []
    for (index, line) in lines.enumerated() {
      if seesLibc {
        for name in calledNames(line) where libcFunctions.contains(name.name) {
          guard name.qualified || !declared.contains(name.name) else { continue }
          guard !allowed.contains(where: { $0.file == file && $0.name == name.name }) else { continue }
          found.append(Offender(file: file, line: index + 1, what: "calls \(name.name)"))
        }
      }
      if line.contains("EINTR") || (imported.contains("ShareSyscalls") && line.contains(".interrupted")) {
        found.append(Offender(file: file, line: index + 1, what: "retries on EINTR"))
      }
    }
    return found
  }

  /// A C module of the package's: `CGLib`, `CDBus`, `CGtk`...
  static func isCModule(_ name: String) -> Bool {
    name.count > 1 && name.first == "C" && name.dropFirst().first?.isUppercase == true
  }

  /// The module `line` imports, if it is an import.
  static func importedModule(_ line: String) -> String? {
    let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    guard let at = words.firstIndex(of: "import"), at + 1 < words.count else { return nil }
    let before = words[..<at]
    let modifiers: Set<String> = ["public", "package", "internal", "fileprivate", "private"]
    guard before.allSatisfy({ modifiers.contains($0) || $0.hasPrefix("@") }) else { return nil }
    return words[at + 1].split(separator: ".").first.map(String.init)
  }

  /// The names `line` calls as functions: each identifier followed by `(`, not a member (after a
  /// `.`, unless it is `Glibc.` or `Musl.`) and not a declaration (after `func`).
  static func calledNames(_ line: String) -> [(name: String, qualified: Bool)] {
    let bytes = Array(line.utf8)
    var names: [(String, Bool)] = []
    var index = 0
    while index < bytes.count {
      guard isIdentifierStart(bytes[index]), index == 0 || !isIdentifier(bytes[index - 1]) else {
        index += 1
        continue
      }
      var end = index
      while end < bytes.count && isIdentifier(bytes[end]) { end += 1 }
      var next = end
      while next < bytes.count && bytes[next] == UInt8(ascii: " ") { next += 1 }
      if next < bytes.count && bytes[next] == UInt8(ascii: "(") {
        let prefix = bytes[..<index]
        let qualified = prefix.ends(with: "Glibc.") || prefix.ends(with: "Musl.")
        let member = prefix.last == UInt8(ascii: ".") && !qualified
        let declaration = prefix.reversed().drop { $0 == UInt8(ascii: " ") }.starts(with: "cnuf".utf8)
        if !member && !declaration {
          names.append((String(decoding: bytes[index..<end], as: UTF8.self), qualified))
        }
      }
      index = end
    }
    return names
  }

  /// The names `code` declares: functions, variables, enum cases, parameters and closure
  /// parameters.
  static func declaredNames(_ code: String) -> Set<String> {
    var names: Set<String> = []
    let patterns = [
      #"\b(?:func|var|let|case)\s+([A-Za-z_][A-Za-z0-9_]*)"#,
      #"[(,]\s*(?:[A-Za-z_][A-Za-z0-9_]*\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*:"#,
      #"\b([A-Za-z_][A-Za-z0-9_]*)\s+in\b"#,
    ]
    for pattern in patterns {
      let expression = try! NSRegularExpression(pattern: pattern)
      let range = NSRange(code.startIndex..., in: code)
      for match in expression.matches(in: code, range: range) {
        if let name = Range(match.range(at: 1), in: code) { names.insert(String(code[name])) }
      }
    }
    return names
  }

  static func isIdentifierStart(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "_") || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
      || byte >= 0x80
  }

  static func isIdentifier(_ byte: UInt8) -> Bool {
    isIdentifierStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
  }

  /// `source` with comments and string literals blanked out, line breaks kept (so that line
  /// numbers still hold).
  static func codeOnly(_ source: String) -> String {
    let bytes = Array(source.utf8)
    var result = bytes
    var index = 0
    func blank(_ position: Int) {
      if result[position] != UInt8(ascii: "\n") { result[position] = UInt8(ascii: " ") }
    }
    func starts(_ text: StaticString, at position: Int) -> Bool {
      let count = text.utf8CodeUnitCount
      guard position + count <= bytes.count else { return false }
      return (0..<count).allSatisfy { bytes[position + $0] == text.utf8Start[$0] }
    }
    /// Blanks from `index` to the end of a string literal whose opening quotes have been blanked.
    func blankString(closing: StaticString, singleLine: Bool) {
      while index < bytes.count && !starts(closing, at: index) {
        if singleLine && bytes[index] == UInt8(ascii: "\n") { return }
        if bytes[index] == UInt8(ascii: "\\") && index + 1 < bytes.count {
          blank(index)
          index += 1
        }
        blank(index)
        index += 1
      }
      for _ in 0..<closing.utf8CodeUnitCount where index < bytes.count {
        blank(index)
        index += 1
      }
    }
    while index < bytes.count {
      if starts("//", at: index) {
        while index < bytes.count && bytes[index] != UInt8(ascii: "\n") {
          blank(index)
          index += 1
        }
      } else if starts("/*", at: index) {
        var depth = 0
        repeat {
          if starts("/*", at: index) || starts("*/", at: index) {
            depth += bytes[index] == UInt8(ascii: "/") ? 1 : -1
            blank(index)
            blank(index + 1)
            index += 2
          } else {
            blank(index)
            index += 1
          }
        } while depth > 0 && index < bytes.count
      } else if starts("\"\"\"", at: index) {
        for _ in 0..<3 {
          blank(index)
          index += 1
        }
        blankString(closing: "\"\"\"", singleLine: false)
      } else if bytes[index] == UInt8(ascii: "\"") {
        blank(index)
        index += 1
        blankString(closing: "\"", singleLine: true)
      } else {
        index += 1
      }
    }
    return String(decoding: result, as: UTF8.self)
  }
}

extension ArraySlice<UInt8> {
  fileprivate func ends(with text: String) -> Bool {
    let suffix = Array(text.utf8)
    return count >= suffix.count && self.suffix(suffix.count).elementsEqual(suffix)
  }
}
