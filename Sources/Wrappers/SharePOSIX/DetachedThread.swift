internal import Glibc
internal import ShareSyscalls

/// Threads of our own, for work that blocks for a long time (a plugin running, a signal being
/// waited for): Dispatch's pool is meant for short work and would run out of threads.
public enum DetachedThread {
  /// Runs `body` on a new thread that nobody joins; the thread ends when `body` returns.
  public static func start(_ body: @escaping @Sendable () -> Void) {
    let box = Unmanaged.passRetained(Body(body)).toOpaque()
    var thread = CInterop.Thread()
    let started = system_pthread_create(
      &thread,
      { context in
        let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
        body.run()
        return nil
      }, box)
    guard started == 0 else {
      // Out of threads: run it here rather than lose it; the caller waits longer, nothing is dropped.
      Unmanaged<Body>.fromOpaque(box).takeRetainedValue().run()
      return
    }
    _ = system_pthread_detach(thread)
  }

  /// Sleeps the calling thread for `seconds`; a signal does not cut the sleep short. The
  /// corresponding C function is `nanosleep`.
  public static func sleep(seconds: Double) {
    var request = CInterop.TimeSpec(
      tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
    var remaining = CInterop.TimeSpec()
    _ = valueOrErrno {
      let slept = system_nanosleep(&request, &remaining)
      // What is left is what an interrupted sleep sleeps when it is made again.
      if slept == -1 { request = remaining }
      return slept
    }
  }

  private final class Body: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }
}

/// A moment as the user's clock shows it, for lists people read.
public struct LocalTime: Sendable, Equatable {
  public var year, month, day, hour, minute: Int

  /// The local time at `secondsSince1970` (the time zone from `TZ` or `/etc/localtime`).
  public init(secondsSince1970 seconds: Double) {
    var time = CInterop.Time(seconds.rounded(.down))
    var parts = CInterop.CalendarTime()
    system_tzset()
    system_localtime_r(&time, &parts)
    year = Int(parts.tm_year) + 1900
    month = Int(parts.tm_mon) + 1
    day = Int(parts.tm_mday)
    hour = Int(parts.tm_hour)
    minute = Int(parts.tm_min)
  }

  /// `2026-12-01 11:37`.
  public var minutePrecision: String {
    func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
    return "\(year)-\(two(month))-\(two(day)) \(two(hour)):\(two(minute))"
  }
}
