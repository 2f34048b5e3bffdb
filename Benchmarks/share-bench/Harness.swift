/// Timing: repeated runs on `ContinuousClock`, reported as a median and a 90th percentile.

/// Keeps a value alive and opaque to the optimizer, so the work that made it cannot be removed.
@inline(never)
@_optimize(none)
func blackHole<T>(_ value: T) {}

/// What one measurement found: the time of one operation.
struct Timing {
  /// Seconds per operation, one entry per sample, sorted.
  var samples: [Double]
  /// How many operations each sample timed (tiny operations are batched).
  var operationsPerSample: Int

  var median: Double {
    let count = samples.count
    return count % 2 == 1 ? samples[count / 2] : (samples[count / 2 - 1] + samples[count / 2]) / 2
  }

  /// The nearest-rank 90th percentile.
  var p90: Double {
    let rank = Int((0.9 * Double(samples.count)).rounded(.up))
    return samples[max(0, min(samples.count - 1, rank - 1))]
  }
}

/// How long and how often to measure one case.
struct Budget {
  /// Stop collecting samples once this much time has been spent (and `minimumSamples` are in).
  var seconds: Double
  var minimumSamples: Int
  var maximumSamples: Int
  /// A sample is at least this long: cheaper operations are repeated inside one sample so that
  /// the clock's own cost and resolution do not count.
  var minimumSampleSeconds: Double = 0.000_5

  static let quick = Budget(seconds: 0.5, minimumSamples: 31, maximumSamples: 301)
  static let normal = Budget(seconds: 1.5, minimumSamples: 21, maximumSamples: 201)
  static let slow = Budget(seconds: 4, minimumSamples: 7, maximumSamples: 41)
}

extension Duration {
  var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) * 1e-18
  }
}

/// Measures `operation`: warms up, picks a batch size, then samples until the budget is spent.
///
/// The first runs fill caches (the page cache, GIO's MIME data, the allocator), as a long-lived
/// file manager or the D-Bus service would have them filled; they are not counted.
func measure(_ budget: Budget, _ operation: () -> Void) -> Timing {
  let clock = ContinuousClock()

  // Warm up: at least three runs, and at least a tenth of the budget.
  var warmups = 0
  var single = Double.infinity
  let warmupStart = clock.now
  while warmups < 3 || (clock.now - warmupStart).seconds < budget.seconds / 10 {
    let start = clock.now
    operation()
    single = min(single, (clock.now - start).seconds)
    warmups += 1
    if warmups >= 1000 { break }
  }

  let batch = max(1, Int((budget.minimumSampleSeconds / max(single, 1e-9)).rounded(.up)))
  var samples: [Double] = []
  samples.reserveCapacity(budget.maximumSamples)
  let start = clock.now
  while samples.count < budget.maximumSamples {
    let sampleStart = clock.now
    for _ in 0..<batch { operation() }
    samples.append((clock.now - sampleStart).seconds / Double(batch))
    if samples.count >= budget.minimumSamples && (clock.now - start).seconds >= budget.seconds { break }
  }
  samples.sort()
  return Timing(samples: samples, operationsPerSample: batch)
}
