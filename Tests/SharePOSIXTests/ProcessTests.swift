import Foundation
import Synchronization
import Testing

@testable import SharePOSIX

private let searchPath = ["PATH": "/usr/bin:/bin"]

private func argv(_ arguments: String...) -> [[UInt8]] {
  arguments.map { Array($0.utf8) }
}

@Suite struct CapturedRunTests {
  @Test func inputReachesTheProgramAndItsOutputIsCaptured() throws {
    let input: [UInt8] = Array("line one\n".utf8) + [0xFF, 0x00, 0xE9]
    let run = try CapturedRun.run(argv("cat"), environment: searchPath, input: input)
    #expect(run.standardOutput == input)
    #expect(run.standardError == [])
    #expect(run.termination == .exited(0))
    #expect(run.status == 0)
  }

  /// Arguments are bytes, passed as they are: no shell, no repair.
  @Test func argumentsArriveAsBytes() throws {
    let argument: [UInt8] = [0x61, 0x20, 0x2A, 0x24, 0x48, 0x4F, 0x4D, 0x45, 0xFF, 0x0A]
    let run = try CapturedRun.run(
      [Array("printf".utf8), Array("%s".utf8), argument], environment: searchPath)
    #expect(run.standardOutput == argument)
  }

  @Test func standardErrorAndTheExitStatusAreKept() throws {
    let run = try CapturedRun.run(
      argv("ls", "/no/such/path"), environment: searchPath.merging(["LC_ALL": "C"]) { $1 })
    #expect(run.standardOutput == [])
    #expect(String(decoding: run.standardError, as: UTF8.self).contains("No such file or directory"))
    #expect(run.termination == .exited(2))
    #expect(run.status == 2)
  }

  @Test func theChildHasExactlyTheEnvironmentGiven() throws {
    let run = try CapturedRun.run(argv("env"), environment: ["PATH": "/usr/bin:/bin", "ONE": "1 2"])
    let lines = String(decoding: run.standardOutput, as: UTF8.self).split(separator: "\n").sorted()
    #expect(lines == ["ONE=1 2", "PATH=/usr/bin:/bin"])
  }

  @Test func theChildStartsInTheWorkingDirectory() throws {
    let run = try CapturedRun.run(
      argv("pwd"), environment: searchPath, workingDirectory: Array("/usr/share".utf8))
    #expect(run.standardOutput == Array("/usr/share\n".utf8))
  }

  @Test func aMissingProgramCannotStart() {
    do {
      _ = try CapturedRun.run(argv("no-such-program-xdg-share"), environment: searchPath)
      Issue.record("a missing program started")
    } catch {
      #expect(error.isNotFound)
      #expect(error.call == "posix_spawn")
    }
  }

  @Test func aSignalledRunReportsLikeAShell() throws {
    // The script's own argv: a program that ends by a signal.
    let run = try CapturedRun.run(argv("sh", "-c", "kill -TERM $$"), environment: searchPath)
    #expect(run.termination == .signalled(Signal.terminate))
    #expect(run.status == 128 + 15)
  }
}

@Suite struct ChildProcessTests {
  @Test func aSignalEndsTheChild() throws {
    let child = try ChildProcess.spawn(argv("sleep", "30"), environment: searchPath, standardOutput: .null)
    #expect(child.wait(timeout: 0.05) == nil)
    #expect(!child.hasEnded)
    child.signal(Signal.terminate)
    #expect(child.wait() == .signalled(Signal.terminate))
    #expect(ChildProcess.signalName(Signal.terminate) == "SIGTERM")
    #expect(ChildProcess.signalName(Signal.kill) == "SIGKILL")
  }

  @Test func aChildThatEndsIsSeenToEnd() throws {
    let child = try ChildProcess.spawn(argv("true"), environment: searchPath)
    #expect(child.wait(timeout: 10) == .exited(0))
  }
}

@Suite struct DetachedThreadTests {
  /// Where the body leaves the thread it ran on.
  final class Seen: Sendable {
    let thread = Mutex<pthread_t?>(nil)
  }

  @Test func theBodyRunsOnAnotherThread() {
    let seen = Seen()
    let caller = pthread_self()
    DetachedThread.start {
      seen.thread.withLock { $0 = pthread_self() }
    }
    let deadline = MonotonicClock.now + 10
    while seen.thread.withLock({ $0 }) == nil, MonotonicClock.now < deadline {
      DetachedThread.sleep(seconds: 0.005)
    }
    let thread = seen.thread.withLock { $0 }
    #expect(thread != nil)
    #expect(thread.map { pthread_equal($0, caller) == 0 } == true)
  }

  @Test func sleepSleepsAtLeastThatLong() {
    let started = MonotonicClock.now
    DetachedThread.sleep(seconds: 0.15)
    let slept = MonotonicClock.now - started
    #expect(slept >= 0.15)
    #expect(slept < 5)
  }
}

@Suite struct LocalTimeTests {
  /// 2027-01-15 08:00:00 UTC.
  static let moment = 1_800_000_000.0

  @Test func minutePrecisionPadsEveryField() {
    var time = LocalTime(secondsSince1970: Self.moment)
    (time.year, time.month, time.day, time.hour, time.minute) = (2026, 3, 5, 7, 9)
    #expect(time.minutePrecision == "2026-03-05 07:09")
    (time.month, time.day, time.hour, time.minute) = (12, 31, 23, 59)
    #expect(time.minutePrecision == "2026-12-31 23:59")
    (time.hour, time.minute) = (0, 0)
    #expect(time.minutePrecision == "2026-12-31 00:00")
  }

  /// The fields agree with Foundation's calendar in this process's time zone (both read `TZ`,
  /// else `/etc/localtime`): glibc's `localtime_r` against ICU's tables.
  @Test func agreesWithFoundationInThisTimeZone() {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone.current
    for seconds in [Self.moment, 0, 951_782_400 /* 2000-02-29 */, Self.moment + 86_399.9] {
      let parts = calendar.dateComponents(
        [.year, .month, .day, .hour, .minute], from: Date(timeIntervalSince1970: seconds.rounded(.down)))
      let time = LocalTime(secondsSince1970: seconds)
      #expect(
        [time.year, time.month, time.day, time.hour, time.minute]
          == [parts.year, parts.month, parts.day, parts.hour, parts.minute].map { $0 ?? -1 }, "\(seconds)")
    }
  }

  @Test(.enabled(if: TimeZone.current.secondsFromGMT(for: Date(timeIntervalSince1970: 1_800_000_000)) == 0))
  func aKnownMomentInUTC() {
    #expect(LocalTime(secondsSince1970: Self.moment).minutePrecision == "2027-01-15 08:00")
    #expect(LocalTime(secondsSince1970: Self.moment + 59.99).minutePrecision == "2027-01-15 08:00")
    #expect(LocalTime(secondsSince1970: Self.moment + 60).minutePrecision == "2027-01-15 08:01")
  }

  @Test func partsOfASecondAreDropped() {
    #expect(LocalTime(secondsSince1970: Self.moment + 59.99) == LocalTime(secondsSince1970: Self.moment + 59))
    #expect(LocalTime(secondsSince1970: Self.moment + 60) != LocalTime(secondsSince1970: Self.moment + 59))
  }
}

@Suite struct CurrentProcessTests {
  @Test func environmentIsWhatProcessInfoReads() {
    #expect(!CurrentProcess.environment.isEmpty)
    #expect(CurrentProcess.environment == ProcessInfo.processInfo.environment)
  }
}

/// The guard puts `setpriv` before a program for its parent-death signal, unless the program asks
/// for that signal itself: a sandbox's `bwrap --die-with-parent`.
@Suite struct GuardDeathSignalTests {
  func words(_ text: String) -> [[UInt8]] { text.split(separator: " ").map { Array($0.utf8) } }

  @Test func bwrapWithDieWithParentAsksForItItself() {
    #expect(RequestGuard.asksToDieWithParent(words("/usr/bin/bwrap --unshare-all --die-with-parent -- /x")))
    #expect(RequestGuard.asksToDieWithParent(words("bwrap --die-with-parent -- /x")))
  }

  @Test func anythingElseGetsItFromTheGuard() {
    #expect(!RequestGuard.asksToDieWithParent(words("/usr/bin/bwrap --unshare-all -- /x --die-with-parent")))
    #expect(!RequestGuard.asksToDieWithParent(words("/b/run --die-with-parent")))
    #expect(!RequestGuard.asksToDieWithParent(words("/b/notbwrap --die-with-parent")))
    #expect(!RequestGuard.asksToDieWithParent([]))
  }
}
