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

  static let normal = Budget(seconds: 1.5, minimumSamples: 21, maximumSamples: 201)
  static let slow = Budget(seconds: 4, minimumSamples: 7, maximumSamples: 41)
}

extension Duration {
  var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) * 1e-18
  }
}

/// Measures `operation` and its `floor` in alternation, one sample of each in turn, so that a
/// change in the machine's load during the run moves both alike and their ratio stays fair.
///
/// Both are warmed up first: the first runs fill caches (the page cache, GIO's MIME data, the
/// allocator), as a long-lived file manager or the D-Bus service would have them filled; they
/// are not counted. Operations faster than ``Budget/minimumSampleSeconds`` are batched.
func measure(_ budget: Budget, _ operation: () -> Void, floor: () -> Void) -> (timing: Timing, floor: Timing)
{
  let clock = ContinuousClock()
  let operationBatch = batchSize(budget, operation)
  let floorBatch = batchSize(budget, floor)
  var samples: [Double] = []
  var floorSamples: [Double] = []
  samples.reserveCapacity(budget.maximumSamples)
  floorSamples.reserveCapacity(budget.maximumSamples)
  func sample(_ batch: Int, _ body: () -> Void) -> Double {
    let start = clock.now
    for _ in 0..<batch { body() }
    return (clock.now - start).seconds / Double(batch)
  }
  let start = clock.now
  while samples.count < budget.maximumSamples {
    samples.append(sample(operationBatch, operation))
    floorSamples.append(sample(floorBatch, floor))
    if samples.count >= budget.minimumSamples && (clock.now - start).seconds >= budget.seconds { break }
  }
  return (
    Timing(samples: samples.sorted(), operationsPerSample: operationBatch),
    Timing(samples: floorSamples.sorted(), operationsPerSample: floorBatch)
  )
}

/// Warms `operation` up (at least three runs and a tenth of the budget) and returns how many runs
/// make one sample.
private func batchSize(_ budget: Budget, _ operation: () -> Void) -> Int {
  let clock = ContinuousClock()
  var runs = 0
  var fastest = Double.infinity
  let start = clock.now
  while runs < 3 || ((clock.now - start).seconds < budget.seconds / 10 && runs < 1000) {
    let runStart = clock.now
    operation()
    fastest = min(fastest, (clock.now - runStart).seconds)
    runs += 1
  }
  return max(1, Int((budget.minimumSampleSeconds / max(fastest, 1e-9)).rounded(.up)))
}
