internal import Glibc
internal import ShareSyscalls
import Synchronization

/// A `poll` loop run by one thread: descriptors to watch, children whose end to hear of, a waker
/// other threads may use, and a timeout the owner decides each turn.
///
/// Not `Sendable`: the thread that created it runs it and alone touches it. Other threads reach it
/// only through ``waker``.
public final class EventLoop {
  private var watches: [(descriptor: Int32, handler: () -> Void)] = []
  private var wakeHandler: () -> Void = {}
  /// The children watched by ``onEnd(of:_:)``, by their watch's number, each with its pidfd (nil
  /// without pidfds).
  private var children: [Int: (child: ChildProcess, end: FileDescriptor?, handler: () -> Void)] = [:]
  private var watchCounter = 0
  /// How often a child without a pidfd (Linux before 5.3) is looked at.
  static let childCheckInterval = 0.1
  private let wakePipe: (read: FileDescriptor, write: FileDescriptor)
  /// Wakes the loop from any thread; the wake handler then runs on the loop's thread.
  public let waker: Waker

  public init() throws(SystemError) {
    wakePipe = try FileDescriptor.pipe()
    for descriptor in [wakePipe.read, wakePipe.write] {
      let flags = system_fcntl(descriptor.rawValue, _F_GETFL)
      _ = system_fcntl(descriptor.rawValue, _F_SETFL, flags | _O_NONBLOCK)
    }
    waker = Waker(descriptor: wakePipe.write)
  }

  /// Calls `handler` on the loop's thread whenever `descriptor` is readable.
  ///
  /// - Parameter descriptor: a descriptor number owned by someone who outlives the loop (a bus
  ///   connection's socket, an inotify instance).
  public func watch(descriptor: Int32, _ handler: @escaping () -> Void) {
    watches.append((descriptor, handler))
  }

  /// Stops calling the handlers of `descriptor`.
  public func stopWatching(descriptor: Int32) {
    watches.removeAll { $0.descriptor == descriptor }
  }

  /// A watch of ``onEnd(of:_:)``, to cancel it.
  public struct ChildWatch: Hashable, Sendable {
    let number: Int
  }

  /// Calls `handler` once, on the loop's thread, when `child` has ended: its pidfd is waited on
  /// with the loop's descriptors, so that the end is an event like any other. The child is not
  /// collected: `handler` does that (``ChildProcess/wait()`` returns at once then). Without pidfds
  /// (Linux before 5.3) the child is looked at every 0.1 s while it is watched.
  @discardableResult
  public func onEnd(of child: ChildProcess, _ handler: @escaping () -> Void) -> ChildWatch {
    watchCounter += 1
    children[watchCounter] = (child, child.endDescriptor, handler)
    return ChildWatch(number: watchCounter)
  }

  /// Stops watching: the handler of `watch` is not called.
  public func cancel(_ watch: ChildWatch) {
    children[watch.number] = nil
  }

  /// Calls `handler` on the loop's thread after ``Waker/wake()``.
  public func onWake(_ handler: @escaping () -> Void) {
    wakeHandler = handler
  }

  /// Runs turns until `shouldStop` says so. Before each wait, `nextTimeout` says how long to wait
  /// at most (`nil`: until something happens); `onTimeout` runs when a wait ends with nothing.
  public func run(nextTimeout: () -> Double?, onTimeout: () -> Void, shouldStop: () -> Bool) {
    while !shouldStop() {
      var descriptors = [CInterop.PollDescriptor(fd: wakePipe.read.rawValue, events: _POLLIN, revents: 0)]
      // As they are now: a handler may add watches.
      let current = watches
      descriptors += current.map { CInterop.PollDescriptor(fd: $0.descriptor, events: _POLLIN, revents: 0) }
      // The children's pidfds come last, in the order of their numbers.
      let watched = children.keys.sorted()
      var unwatchable: [Int] = []
      for number in watched {
        if let end = children[number]?.end {
          descriptors.append(CInterop.PollDescriptor(fd: end.rawValue, events: _POLLIN, revents: 0))
        } else {
          unwatchable.append(number)
        }
      }
      var wait = nextTimeout()
      if !unwatchable.isEmpty { wait = min(wait ?? .infinity, Self.childCheckInterval) }
      let timeout = wait.map { Int32(max(0, min($0 * 1000, 86_400_000)).rounded(.up)) } ?? -1
      // Interrupted, the wait starts again from the same timeout, as `check` waits everywhere.
      guard case .success(let ready) = valueOrErrno({ system_poll(&descriptors, descriptors.count, timeout) })
      else { return }
      // The children that ended: their pidfd readable, or, without one, seen ended.
      var ended = unwatchable.filter { children[$0]?.child.hasEnded ?? false }
      var position = 1 + current.count
      for number in watched where children[number]?.end != nil {
        if descriptors[position].revents != 0 { ended.append(number) }
        position += 1
      }
      for number in ended {
        // Each handler once; one may have cancelled another's watch meanwhile.
        guard let watch = children.removeValue(forKey: number) else { continue }
        watch.handler()
      }
      if ready == 0 {
        onTimeout()
        continue
      }
      if descriptors[0].revents != 0 {
        _ = try? wakePipe.read.read(upTo: 4096)
        wakeHandler()
      }
      for (index, watch) in current.enumerated() where descriptors[index + 1].revents != 0 {
        watch.handler()
      }
    }
  }
}

/// Wakes an ``EventLoop`` from any thread.
public struct Waker: Sendable {
  let descriptor: FileDescriptor

  public func wake() {
    // A full pipe already means "wake up"; the error is harmless.
    try? descriptor.write([1])
  }
}
