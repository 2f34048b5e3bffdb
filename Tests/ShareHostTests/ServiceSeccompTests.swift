import ShareCore
import ShareSeccomp
import Testing

@testable import ShareHost

/// The seccomp program of a service's sandbox follows its entitlements: Bluetooth's sockets only
/// for `com.apple.security.device.bluetooth`.
@Suite struct ServiceSeccompTests {
  @Test func bluetoothSocketsOnlyForAServiceEntitledToThem() throws {
    #expect(ServiceSeccomp.families(for: .none) == [])
    #expect(ServiceSeccomp.families(for: Entitlements(bluetooth: true)) == [.bluetooth])
    let plain = try ServiceSeccomp.program(for: .none).get()
    let bluetooth = try ServiceSeccomp.program(for: Entitlements(bluetooth: true)).get()
    #expect(plain == (try SeccompFilter.program(families: [])))
    #expect(bluetooth == (try SeccompFilter.program(families: [.bluetooth])))
    #expect(plain != bluetooth)
  }
}
