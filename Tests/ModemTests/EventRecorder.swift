import Modem

/// Collects a modem's events in the background.
final class EventRecorder: Sendable {
    private let box = EventBox()
    private let task: Task<Void, Never>

    init(_ modem: GammuModem) {
        let box = self.box
        task = Task { for await event in modem.events { await box.append(event) } }
    }

    deinit { task.cancel() }

    var events: [ModemEvent] { get async { await box.events } }
}

private actor EventBox {
    var events: [ModemEvent] = []
    func append(_ event: ModemEvent) { events.append(event) }
}
