import Foundation
import SharePOSIX
import ShareSyscalls
import Synchronization
import Testing

@Suite struct ValueOrErrnoTests {
  /// A call that fails twice with `EINTR` and then succeeds.
  final class Flaky {
    var calls = 0

    func call() -> Int {
      calls += 1
      guard calls > 2 else {
        errno = EINTR
        return -1
      }
      return 42
    }
  }

  @Test func aCallInterruptedBySignalsIsMadeAgain() {
    let flaky = Flaky()
    #expect(valueOrErrno { flaky.call() } == .success(42))
    #expect(flaky.calls == 3)
  }

  @Test func withoutRetryTheInterruptionIsTheResult() {
    let flaky = Flaky()
    #expect(valueOrErrno(retryOnInterrupt: false) { flaky.call() } == .failure(.interrupted))
    #expect(flaky.calls == 1)
  }

  @Test func anotherErrorIsReturnedAtOnce() {
    var calls = 0
    let result = valueOrErrno { () -> Int32 in
      calls += 1
      errno = ENOENT
      return -1
    }
    #expect(result == .failure(Errno(rawValue: ENOENT)))
    #expect(calls == 1)
    #expect(Errno(rawValue: ENOENT).description == "No such file or directory")
  }

  @Test func aResultOtherThanMinusOneIsSuccess() {
    #expect(valueOrErrno { Int32(0) } == .success(0))
    #expect(valueOrErrno { Int64(-2) } == .success(-2))
  }

  /// What the reader thread shares with the test.
  final class Reader: Sendable {
    let thread = Mutex<pthread_t?>(nil)
    let interruptions = Atomic(0)
    let result = Mutex<Result<[UInt8], Errno>?>(nil)
  }

  /// A real `read` on a pipe, interrupted by a signal whose handler was installed without
  /// `SA_RESTART` (so the kernel does not restart the call itself): the seam reads on and
  /// returns what was written.
  @Test func aReadInterruptedByARealSignalReadsOn() throws {
    var handler = sigaction()
    handler.__sigaction_handler.sa_handler = { _ in }
    sigemptyset(&handler.sa_mask)
    handler.sa_flags = 0
    var previous = sigaction()
    #expect(sigaction(SIGURG, &handler, &previous) == 0)
    defer { sigaction(SIGURG, &previous, nil) }

    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    defer { close(ends[0]) }
    let (readEnd, writeEnd) = (ends[0], ends[1])
    let reader = Reader()
    let thread = Thread {
      // The test runner's threads may block it; this one must hear it.
      var signals = sigset_t()
      sigemptyset(&signals)
      sigaddset(&signals, SIGURG)
      pthread_sigmask(SIG_UNBLOCK, &signals, nil)
      reader.thread.withLock { $0 = pthread_self() }
      var buffer = [UInt8](repeating: 0, count: 16)
      let read = valueOrErrno { () -> Int in
        let count = buffer.withUnsafeMutableBytes { Glibc.read(readEnd, $0.baseAddress, $0.count) }
        if count == -1 && errno == EINTR { reader.interruptions.add(1, ordering: .relaxed) }
        return count
      }
      reader.result.withLock { $0 = read.map { Array(buffer[..<$0]) } }
    }
    thread.start()

    // Signals until one has cut the read short, then the bytes it waits for.
    let deadline = MonotonicClock.now + 30
    while reader.interruptions.load(ordering: .relaxed) == 0, MonotonicClock.now < deadline {
      if let target = reader.thread.withLock({ $0 }) { pthread_kill(target, SIGURG) }
      DetachedThread.sleep(seconds: 0.002)
    }
    #expect(write(writeEnd, "seam", 4) == 4)
    close(writeEnd)
    while reader.result.withLock({ $0 }) == nil, MonotonicClock.now < deadline {
      DetachedThread.sleep(seconds: 0.002)
    }
    #expect(reader.interruptions.load(ordering: .relaxed) >= 1)
    #expect(reader.result.withLock { $0 } == .success(Array("seam".utf8)))
  }
}

@Suite struct DescriptorIOTests {
  @Test func whatIsWrittenAllIsReadToTheEnd() throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    // More than a pipe holds: the writer waits for the reader, as it must.
    let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let writeEnd = ends[1]
    let writer = Thread {
      _ = DescriptorIO.writeAll(bytes, to: writeEnd)
      close(writeEnd)
    }
    writer.start()
    #expect(DescriptorIO.readToEnd(ends[0], chunkSize: 4096) == .success(bytes))
    close(ends[0])
  }

  @Test func aClosedDescriptorIsAnError() {
    #expect(DescriptorIO.readToEnd(-1) == .failure(Errno(rawValue: EBADF)))
    guard case .failure(let error) = DescriptorIO.writeAll([1], to: -1) else {
      Issue.record("a write to no descriptor succeeded")
      return
    }
    #expect(error == Errno(rawValue: EBADF))
  }

  @Test func theEnvironmentIsReadAsBytes() {
    let entries = ProcessEnvironment.entries
    #expect(entries.count == ProcessInfo.processInfo.environment.count)
    #expect(
      ProcessEnvironment.bytes["PATH"].map { String(decoding: $0, as: UTF8.self) }
        == getenv("PATH").map { String(cString: $0) })
    let notUTF8: [UInt8] = [0x2F, 0x74, 0xFF]
    let restored = ProcessEnvironment.bytes(
      restoring: ["HOME": String(decoding: notUTF8, as: UTF8.self), "OTHER": "x"],
      inherited: ["HOME": notUTF8])
    #expect(restored == ["HOME": notUTF8, "OTHER": Array("x".utf8)])
  }
}

private let searchPath = ["PATH": "/usr/bin:/bin"]

private func argv(_ arguments: String...) -> [[UInt8]] {
  arguments.map { Array($0.utf8) }
}

@Suite struct ChildWaitTests {
  /// The end of a child is seen when it comes: a wait on its pidfd, not a sleep. Asserted only
  /// for correctness with a generous limit; the latency is printed (well under a millisecond on
  /// an idle machine, where a 5 ms sleep loop took 2.5 ms on average).
  @Test func aWaitReturnsWhenTheChildEnds() throws {
    var latencies: [Double] = []
    for _ in 0..<10 {
      let child = try ChildProcess.spawn(argv("sleep", "30"), environment: searchPath, standardOutput: .null)
      #expect(child.wait(timeout: 0.01) == nil)
      let killed = MonotonicClock.now
      child.signal(Signal.kill)
      #expect(child.wait(timeout: 30) == .signalled(Signal.kill))
      latencies.append(MonotonicClock.now - killed)
    }
    let median = latencies.sorted()[latencies.count / 2]
    print(
      "ChildProcess.wait(timeout:) after SIGKILL: median \(Int(median * 1e6)) µs, most \(Int(latencies.max()! * 1e6)) µs"
    )
    #expect(median < 10)
  }

  @Test func aChildThatExitsByItselfIsCollected() throws {
    let child = try ChildProcess.spawn(argv("sh", "-c", "exit 3"), environment: searchPath)
    #expect(child.wait(timeout: 30) == .exited(3))
    // Collected: asked again, it has ended and is not waited for.
    #expect(child.hasEnded)
    #expect(child.wait(timeout: 0) == .exited(127))
  }

  @Test func aWaitThatRunsOutReturnsNilAfterItsTime() throws {
    let child = try ChildProcess.spawn(argv("sleep", "30"), environment: searchPath, standardOutput: .null)
    let started = MonotonicClock.now
    #expect(child.wait(timeout: 0.2) == nil)
    let waited = MonotonicClock.now - started
    #expect(waited >= 0.2)
    #expect(waited < 10)
    #expect(!child.hasEnded)
    child.signal(Signal.terminate)
    #expect(child.wait(timeout: 30) == .signalled(Signal.terminate))
  }

  /// The end of a program is seen while something it started still holds its output open.
  @Test func theEndIsSeenWhileTheOutputStaysOpen() throws {
    let child = try ChildProcess.spawn(
      argv("sh", "-c", "sleep 30 & echo $!"), environment: searchPath, standardOutput: .pipe)
    let output = try #require(child.standardOutput)
    var written: [UInt8] = []
    var ended = false
    let deadline = MonotonicClock.now + 30
    while !ended, MonotonicClock.now < deadline {
      let seen = try child.waitUntilEnded(orReadable: output, timeout: deadline - MonotonicClock.now)
      if seen.readable { written += try output.read() }
      ended = seen.ended
    }
    #expect(ended)
    let helper = Int32(
      String(decoding: written, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    let sleeper = try #require(helper)
    defer { kill(sleeper, SIGKILL) }
    // Nothing to read and no end of file: the helper holds the pipe.
    #expect(try output.waitReadable(timeout: 0) == false)
    #expect(child.wait() == .exited(0))
  }

  @Test func outputIsSeenBeforeTheEnd() throws {
    let child = try ChildProcess.spawn(
      argv("sh", "-c", "echo ready; exec sleep 30"), environment: searchPath, standardOutput: .pipe)
    let output = try #require(child.standardOutput)
    let seen = try child.waitUntilEnded(orReadable: output, timeout: 30)
    #expect(seen.readable)
    #expect(!seen.ended)
    #expect(try output.read() == Array("ready\n".utf8))
    let nothing = try child.waitUntilEnded(orReadable: output, timeout: 0.05)
    #expect(!nothing.readable && !nothing.ended)
    child.signal(Signal.kill)
    #expect(child.wait() == .signalled(Signal.kill))
  }
}
