import ShareDBus
import SharePOSIX
import ShareTestSupport
import Testing

/// Two connections to a private bus in one thread: what one sends, the other reads, after real
/// marshalling through the bus daemon.
@Suite struct PrivateBusTests {
  let desktop: TemporaryDesktop
  let bus: PrivateBus

  init() throws {
    desktop = try TemporaryDesktop(prefix: "share-dbus-test")
    bus = try desktop.startBus()
  }

  /// A connection to the private bus. `PrivateBus` is ready once its socket exists, which
  /// dbus-daemon creates (bind) a moment before it listens: a refused first try is tried again.
  func connect() throws -> BusConnection {
    let deadline = MonotonicClock.now + 10
    var refused: DBusFailure
    repeat {
      do throws(DBusFailure) {
        return try BusConnection.connect(address: bus.address)
      } catch {
        guard error.name == "org.freedesktop.DBus.Error.NoServer" else { throw error }
        refused = error
      }
      DetachedThread.sleep(seconds: 0.01)
    } while MonotonicClock.now < deadline
    throw refused
  }

  @Test func aCallAndItsReplyCarryEveryValue() throws {
    let server = try connect()
    let client = try connect()
    #expect(try server.requestName("org.example.Echo") == .primaryOwner)
    #expect(try server.requestName("org.example.Echo") == .alreadyOwner)
    #expect(try client.requestName("org.example.Echo") == .exists)

    let call = DBusMessage.methodCall(
      destination: "org.example.Echo", path: "/org/example/Echo", interface: "org.example.Echo1",
      member: "Echo")
    call.append(everyValue)
    client.send(call)

    let received = try #require(server.waitForMessage(timeout: 10) { $0.member == "Echo" })
    #expect(received.kind == .methodCall)
    #expect(received.sender == client.uniqueName)
    #expect(received.arguments() == everyValue)

    server.send(received.reply(Array(received.arguments().reversed())))
    let reply = try #require(client.waitForMessage(timeout: 10) { $0.kind == .methodReturn })
    #expect(reply.sender == server.uniqueName)
    #expect(reply.arguments() == Array(everyValue.reversed()))
  }

  @Test func anErrorReplyReachesTheCaller() throws {
    let server = try connect()
    let client = try connect()
    let call = DBusMessage.methodCall(
      destination: server.uniqueName, path: "/org/example/Echo", interface: "org.example.Echo1",
      member: "Fail")
    client.send(call)
    let received = try #require(server.waitForMessage(timeout: 10) { $0.member == "Fail" })
    server.send(received.errorReply(name: "org.example.Error.Nope", message: "not today ☔"))
    let error = try #require(client.waitForMessage(timeout: 10) { $0.kind == .error })
    #expect(error.errorName == "org.example.Error.Nope")
    #expect(error.arguments() == [.string("not today ☔")])
    #expect(error.destination == client.uniqueName)
  }

  @Test func anUnknownMethodIsAnError() throws {
    let client = try connect()
    #expect(client.uniqueName.hasPrefix(":"))
    let call = DBusMessage.methodCall(
      destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
      member: "NoSuchMethod")
    do {
      _ = try client.call(call, timeout: 10)
      Issue.record("the bus answered a method it does not have")
    } catch {
      #expect(error.name == "org.freedesktop.DBus.Error.UnknownMethod")
    }
  }

  @Test func theBusAnswersWithOurValues() throws {
    let client = try connect()
    let call = DBusMessage.methodCall(
      destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
      member: "NameHasOwner")
    call.append([.string(client.uniqueName)])
    #expect(try client.call(call, timeout: 10).arguments() == [.boolean(true)])
  }
}
