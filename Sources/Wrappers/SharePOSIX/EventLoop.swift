internal import Glibc
internal import ShareSyscalls
import Synchronization

/// A `poll` loop run by one thread: descriptors to watch, a waker other threads may use, and a
/// timeout the owner decides each turn.
///
/// Not `Sendable`: the thread that created it runs it and alone touches it. Other threads reach it
/// only through ``waker``.
public final class EventLoop {
  private var watches: [(descriptor: Int32, handler: () -> Void)] = []
  private var wakeHandler: () -> Void = {}
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

  /// Calls `handler` on the loop's thread after ``Waker/wake()``.
  public func onWake(_ handler: @escaping () -> Void) {
    wakeHandler = handler
  }

  /// Runs turns until `shouldStop` says so. Before each wait, `nextTimeout` says how long to wait
  /// at most (`nil`: until something happens); `onTimeout` runs when a wait ends with nothing.
  public func run(nextTimeout: () -> Double?, onTimeout: () -> Void, shouldStop: () -> Bool) {
    while !shouldStop() {
      var descriptors = [CInterop.PollDescriptor(fd: wakePipe.read.rawValue, events: _POLLIN, revents: 0)]
      descriptors += watches.map { CInterop.PollDescriptor(fd: $0.descriptor, events: _POLLIN, revents: 0) }
      let timeout = nextTimeout().map { Int32(max(0, min($0 * 1000, 86_400_000)).rounded(.up)) } ?? -1
      // Interrupted, the wait starts again from the same timeout, as `check` waits everywhere.
      guard case .success(let ready) = valueOrErrno({ system_poll(&descriptors, descriptors.count, timeout) })
      else { return }
      if ready == 0 {
        onTimeout()
        continue
      }
      if descriptors[0].revents != 0 {
        _ = try? wakePipe.read.read(upTo: 4096)
        wakeHandler()
      }
      for (index, watch) in watches.enumerated() where descriptors[index + 1].revents != 0 {
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
