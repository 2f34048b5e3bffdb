import SharePOSIX
import Testing

/// A child's end is an event of the loop, like a readable descriptor: heard once, when it comes.
@Suite struct EventLoopTests {
  /// Runs `loop` until `done` says so, or at most `limit` seconds.
  func run(_ loop: EventLoop, limit: Double = 10, until done: () -> Bool) {
    let end = MonotonicClock.now + limit
    loop.run(
      nextTimeout: { end - MonotonicClock.now }, onTimeout: {},
      shouldStop: { done() || MonotonicClock.now >= end })
  }

  @Test func aChildsEndIsHeardOnce() throws {
    let loop = try EventLoop()
    let child = try ChildProcess.spawn(
      [Array("/bin/sh".utf8), Array("-c".utf8), Array("sleep 0.1; exit 7".utf8)], environment: [:])
    var heard: [ChildProcess.Termination] = []
    loop.onEnd(of: child) { heard.append(child.wait()) }
    run(loop) { !heard.isEmpty }
    #expect(heard == [.exited(7)])
    // Not again: the watch went with its event.
    let other = try ChildProcess.spawn([Array("/bin/true".utf8)], environment: [:])
    var second = false
    loop.onEnd(of: other) { second = true }
    run(loop) { second }
    #expect(heard.count == 1 && second)
    _ = other.wait()
  }

  @Test func aCancelledWatchIsNotHeard() throws {
    let loop = try EventLoop()
    let cancelled = try ChildProcess.spawn([Array("/bin/true".utf8)], environment: [:])
    let watched = try ChildProcess.spawn(
      [Array("/bin/sh".utf8), Array("-c".utf8), Array("sleep 0.2".utf8)], environment: [:])
    var heard: [String] = []
    let watch = loop.onEnd(of: cancelled) { heard.append("cancelled") }
    loop.onEnd(of: watched) { heard.append("watched") }
    loop.cancel(watch)
    run(loop) { !heard.isEmpty }
    #expect(heard == ["watched"])
    _ = cancelled.wait()
    _ = watched.wait()
  }
}
