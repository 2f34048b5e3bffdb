import Glibc

/// Monotonic time in seconds, for deadlines that a changed wall clock must not move.
public enum MonotonicClock {
  public static var now: Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
