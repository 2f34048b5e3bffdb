internal import Glibc
internal import ShareSyscalls

/// Monotonic time in seconds, for deadlines that a changed wall clock must not move.
public enum MonotonicClock {
  public static var now: Double {
    var time = CInterop.TimeSpec()
    _ = system_clock_gettime(_CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
