import Foundation
import SharePOSIX
import ShareSeccomp
import Testing

/// Flatpak's filter compiled (``SeccompFilter``), and run for real: a probe in `bwrap` with the
/// program on descriptor 3 tries what the filter refuses, and ordinary work, as root and as an
/// unprivileged user (`nobody`, through `setpriv`) when the tests run as root.
@Suite struct SeccompFilterTests {
  @Test func theProgramIsWholeInstructions() throws {
    let program = try SeccompFilter.program(families: [])
    #expect(!program.isEmpty)
    #expect(program.count % 8 == 0, "a classic-BPF program is 8-byte instructions: \(program.count) bytes")
  }

  @Test func bluetoothChangesTheProgram() throws {
    let without = try SeccompFilter.program(families: [])
    let with = try SeccompFilter.program(families: [.bluetooth])
    #expect(with.count % 8 == 0)
    #expect(without != with)
    // The same families make the same program: a sandbox may keep it.
    #expect(try SeccompFilter.program(families: []) == without)
  }

  static let bwrap = "/usr/bin/bwrap"
  static let python = "/usr/bin/python3"

  /// Whether bwrap can make its namespaces here (as `uid`, when given).
  static func canSandbox(as user: String?) -> Bool {
    guard FileManager.default.isExecutableFile(atPath: bwrap),
      FileManager.default.isExecutableFile(atPath: python)
    else { return false }
    let run = try? CapturedRun.run(
      (prefix(as: user) + [bwrap] + sandbox + ["/usr/bin/true"]).map { Array($0.utf8) },
      environment: ["PATH": "/usr/bin:/bin"])
    return run?.status == 0
  }

  static let isRoot = getuid() == 0

  /// `setpriv` to the user `user` (a number: `nobody`'s 65534 needs no entry of its own), or
  /// nothing.
  static func prefix(as user: String?) -> [String] {
    guard let user else { return [] }
    return ["/usr/bin/setpriv", "--reuid=\(user)", "--regid=\(user)", "--clear-groups", "--"]
  }

  /// The sandbox the issue describes, without the service's own binds.
  static let sandbox = [
    "--unshare-all", "--die-with-parent", "--new-session", "--ro-bind", "/usr", "/usr", "--symlink",
    "usr/lib",
    "/lib", "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/bin", "/bin", "--proc", "/proc", "--dev",
    "/dev", "--tmpfs", "/tmp", "--",
  ]

  /// Each attempt and its `errno` (0: it worked), as JSON.
  static let probe = #"""
    import ctypes, fcntl, json, os, socket, subprocess, termios, threading
    libc = ctypes.CDLL(None, use_errno=True)
    result = {}

    def call(name, function):
        try:
            value = function()
            result[name] = 0 if value is None or value >= 0 else ctypes.get_errno()
        except OSError as error:
            result[name] = error.errno

    def in_child(function):
        # What changes the process (a namespace, a tracer) happens in a child, which exits with
        # the errno.
        child = os.fork()
        if child == 0:
            value = function()
            os._exit(0 if value >= 0 else ctypes.get_errno())
        return -os.waitstatus_to_exitcode(os.waitpid(child, 0)[1]) or None

    def errno_of(function):
        def attempt():
            value = in_child(function)
            if value:
                raise OSError(-value, os.strerror(-value))
        return attempt

    def unshare_command():
        if subprocess.run(["/usr/bin/unshare", "-U", "/usr/bin/true"], stderr=subprocess.DEVNULL).returncode:
            raise OSError(1, "unshare -U failed")

    def write():
        with open("/tmp/file", "w") as file:
            file.write("hello")
        with open("/tmp/file") as file:
            assert file.read() == "hello"

    def thread():
        worker = threading.Thread(target=lambda: None)
        worker.start()
        worker.join()

    call("unshare-user", errno_of(lambda: libc.unshare(0x10000000)))
    call("unshare-command", unshare_command)
    call("tiocsti", lambda: fcntl.ioctl(0, termios.TIOCSTI, b"x") and None)
    call("af-packet", lambda: socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0).close())
    call("ptrace", errno_of(lambda: libc.ptrace(0, 0, None, None)))
    call("clone3", lambda: libc.syscall(435, None, 0))
    call("keyctl", lambda: libc.syscall(250, 0, 0, 0, 0, 0))
    call("mount", errno_of(lambda: libc.mount(b"none", b"/tmp", b"tmpfs", 0, None)))
    # Ordinary work.
    call("file", write)
    call("af-unix", lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).close())
    call("af-inet", lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM).close())
    call("af-inet6", lambda: socket.socket(socket.AF_INET6, socket.SOCK_STREAM).close())
    call("process", lambda: subprocess.run(["/usr/bin/true"], check=True) and None)
    call("thread", thread)
    print(json.dumps(result))
    """#

  /// The probe's report, run with the filter on descriptor 3 or without it.
  static func run(filtered: Bool, as user: String?) throws -> [String: Int] {
    let program = try SeccompFilter.program(families: [])
    let file = try FileDescriptor.inMemory(named: "seccomp", containing: program)
    defer { file.close() }
    var arguments = prefix(as: user) + [bwrap]
    if filtered { arguments += ["--seccomp", "3"] }
    arguments += sandbox + [python, "-c", probe]
    let child = try ChildProcess.spawn(
      arguments.map { Array($0.utf8) }, environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"],
      standardOutput: .pipe, standardError: .pipe, descriptor3: filtered ? .descriptor(file) : nil)
    let output = try child.standardOutput?.readToEnd() ?? []
    let error = try child.standardError?.readToEnd() ?? []
    let end = child.wait()
    #expect(end == .exited(0), "\(String(decoding: error, as: UTF8.self))")
    let report = try JSONSerialization.jsonObject(with: Data(output)) as? [String: Int]
    return try #require(report, "not a report: \(String(decoding: output, as: UTF8.self))")
  }

  static let users: [String?] = [nil, "65534"]

  @Test(arguments: users) func theFilterClosesWhatFlatpakCloses(user: String?) throws {
    if user != nil, !Self.isRoot { return }
    try #require(Self.canSandbox(as: user), "bwrap cannot make a sandbox here as \(user ?? "this user")")
    let report = try Self.run(filtered: true, as: user)
    #expect(report["unshare-user"] == Int(EPERM))
    #expect(report["unshare-command"] == Int(EPERM))
    #expect(report["tiocsti"] == Int(EPERM))
    #expect(report["af-packet"] == Int(EAFNOSUPPORT))
    #expect(report["ptrace"] == Int(EPERM))
    #expect(report["clone3"] == Int(ENOSYS))
    #expect(report["keyctl"] == Int(EPERM))
    #expect(report["mount"] == Int(EPERM))
    for ordinary in ["file", "af-unix", "af-inet", "af-inet6", "process", "thread"] {
      #expect(report[ordinary] == 0, "\(ordinary) failed with errno \(report[ordinary] ?? -1)")
    }
  }

  /// Without the filter the same probe is refused otherwise or not at all: what the filtered run
  /// saw is the filter's doing.
  @Test(arguments: users) func withoutTheFilterTheSameCallsAreNotRefusedSo(user: String?) throws {
    if user != nil, !Self.isRoot { return }
    try #require(Self.canSandbox(as: user), "bwrap cannot make a sandbox here as \(user ?? "this user")")
    let report = try Self.run(filtered: false, as: user)
    #expect(report["tiocsti"] == Int(ENOTTY))
    #expect(report["ptrace"] == 0)
    #expect(report["af-packet"] != Int(EAFNOSUPPORT))
    #expect(report["clone3"] != Int(ENOSYS))
    #expect(report["process"] == 0)
  }
}
