// The fixtures the benchmarks share (no swift-testing there): every test importing
// ShareTestSupport sees TemporaryDesktop, PrivateBus, BundleFixture and tinyPNG as before.
@_exported import ShareFixtures
