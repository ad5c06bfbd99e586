import Modem
import Testing

@testable import Gateway

/// Every event in every state the ladder can reach from its start, against the rules that must
/// always hold: the next step is what the new state waits on, a misplaced event changes nothing,
/// a wrong PIN is never offered again, pauses stay bounded, a ready modem shows no error, every
/// change of phase or error is published, and every running state can get back to serving.
@Suite("Recovery ladder, exhaustively")
struct RecoveryLadderExhaustiveTests {
    typealias Ladder = RecoveryLadder

    /// One event with the result it reports.
    enum Event: Hashable {
        case deviceChecked(present: Bool)
        case paused
        case opened
        case openFailed(ModemError)
        case healthRead
        case healthFailed(ModemError, connected: Bool)
        case healthDue
        case recoveryNeeded(connected: Bool, reason: String?)
        case probed(answered: Bool, needsRecovery: Bool)
        case radioReset
        case shutDown

        static let errors = [
            ModemError(.wrongPIN, "wrong PIN"), ModemError(.simLocked, "PUK"), ModemError(.deviceNotFound, "gone"),
            ModemError(.timeout, "timeout"), ModemError(.deviceOpenFailed, "busy"),
        ]

        static let all: [Event] = {
            var events: [Event] = [.paused, .opened, .healthRead, .healthDue, .radioReset, .shutDown]
            for flag in [false, true] {
                events.append(.deviceChecked(present: flag))
                for reason in [nil, "reason"] { events.append(.recoveryNeeded(connected: flag, reason: reason)) }
                for other in [false, true] { events.append(.probed(answered: flag, needsRecovery: other)) }
                for error in errors { events.append(.healthFailed(error, connected: flag)) }
            }
            events += errors.map(Event.openFailed)
            return events
        }()

        func apply(to ladder: inout Ladder) -> Ladder.Step {
            switch self {
            case .deviceChecked(let present): ladder.deviceChecked(present: present)
            case .paused: ladder.paused()
            case .opened: ladder.opened()
            case .openFailed(let error): ladder.openFailed(error)
            case .healthRead: ladder.healthRead()
            case .healthFailed(let error, let connected): ladder.healthFailed(error, connected: connected)
            case .healthDue: ladder.healthDue()
            case .recoveryNeeded(let connected, let reason): ladder.recoveryNeeded(connected: connected, reason: reason)
            case .probed(let answered, let needsRecovery): ladder.probed(answered: answered, needsRecovery: needsRecovery)
            case .radioReset: ladder.radioReset()
            case .shutDown: ladder.shutDown()
            }
        }

        /// Whether this event reports the result of `action` (a shutdown fits every action).
        func answers(_ action: Ladder.Action) -> Bool {
            switch (self, action) {
            case (.shutDown, _), (.deviceChecked, .checkDevice), (.paused, .pause), (.opened, .connect), (.opened, .reopen),
                (.openFailed, .connect), (.openFailed, .reopen), (.healthRead, .readHealth), (.healthFailed, .readHealth),
                (.healthDue, .serve), (.recoveryNeeded, .serve), (.probed, .probe), (.radioReset, .resetRadio):
                true
            default:
                false
            }
        }
    }

    /// Every ladder reachable from the start, with the transitions between them.
    static let graph: [Ladder: [(Event, Ladder.Step, Ladder)]] = {
        let start = Ladder(device: "/dev/ttyUSB0", pinSource: "/etc/smsgw/pin")
        var graph: [Ladder: [(Event, Ladder.Step, Ladder)]] = [:]
        var queue = [start]
        while let ladder = queue.popLast() {
            guard graph[ladder] == nil else { continue }
            graph[ladder] = Event.all.map { event in
                var next = ladder
                let step = event.apply(to: &next)
                if graph[next] == nil { queue.append(next) }
                return (event, step, next)
            }
        }
        return graph
    }()

    @Test func theStateSpaceIsExploredAndCoversEveryRung() {
        let states = Set(Self.graph.keys.map(\.state).map(Self.rung))
        #expect(
            states == ["looking", "opening", "pausing", "readingHealth", "serving", "probing", "resettingRadio", "stopped", "shutDown"])
        #expect(Self.graph.count > 100)
        print("Recovery ladder: \(Self.graph.count) reachable states, \(Self.graph.count * Event.all.count) transitions checked")
    }

    @Test func everyStepAsksForWhatTheNewStateWaitsOn() {
        for (_, edges) in Self.graph {
            for (event, step, next) in edges {
                #expect(
                    step.action == next.pending.action, "\(event) returned \(step.action), but the state waits on \(next.pending.action)")
            }
        }
    }

    @Test func anEventTheStepDidNotAskForChangesNothing() {
        for (ladder, edges) in Self.graph {
            for (event, step, next) in edges where !event.answers(ladder.pending.action) {
                #expect(next == ladder && step == ladder.pending, "\(event) moved \(ladder.state)")
            }
        }
    }

    @Test func aWrongPINIsNeverOfferedAgain() {
        for (ladder, edges) in Self.graph where ladder.phase == .wrongPIN {
            for (event, step, next) in edges {
                #expect(step.action != .connect && step.action != .reopen, "\(event) after a wrong PIN opened the port")
                #expect(next.phase == .wrongPIN)
            }
        }
        #expect(Self.graph.keys.contains { $0.phase == .wrongPIN })
    }

    @Test func pausesArePositiveAndBounded() {
        for (_, edges) in Self.graph {
            for (_, step, _) in edges {
                if case .pause(let seconds) = step.action { #expect(seconds > 0 && seconds <= Ladder.maximumReconnectDelay) }
            }
        }
    }

    @Test func aReadyModemShowsNoErrorAndEveryChangeIsPublished() {
        for (ladder, edges) in Self.graph {
            #expect(ladder.phase != .ready || ladder.lastError == nil)
            for (event, step, next) in edges {
                if next.phase != ladder.phase || next.lastError != ladder.lastError {
                    #expect(step.publishes, "\(event) changed the phase or error of \(ladder.state) unpublished")
                }
                if step.becameReady { #expect(next.phase == .ready) }
            }
        }
    }

    @Test func stoppedAndShutDownAreLeftOnlyByShuttingDown() {
        for (ladder, edges) in Self.graph where !ladder.isRunning {
            for (event, step, next) in edges where event != .shutDown {
                #expect(next == ladder && (step.action == .idle || step.action == .close))
            }
            let closed = edges.first { $0.0 == .shutDown }
            #expect(closed?.1.action == .close)
            #expect(closed?.2.phase == (ladder.phase == .wrongPIN ? .wrongPIN : .stopped))
        }
    }

    @Test func everyRunningStateCanGetBackToServing() {
        // Backwards from every serving ladder along transitions that are not a shutdown.
        var reaches = Set(Self.graph.keys.filter { $0.state == .serving })
        var changed = true
        while changed {
            changed = false
            for (ladder, edges) in Self.graph where !reaches.contains(ladder) {
                if edges.contains(where: { $0.0 != .shutDown && reaches.contains($0.2) }) {
                    reaches.insert(ladder)
                    changed = true
                }
            }
        }
        for ladder in Self.graph.keys where ladder.isRunning {
            #expect(reaches.contains(ladder), "\(ladder.state) cannot get back to serving")
        }
    }

    static func rung(_ state: Ladder.State) -> String {
        switch state {
        case .lookingForDevice: "looking"
        case .opening: "opening"
        case .pausing: "pausing"
        case .readingHealth: "readingHealth"
        case .serving: "serving"
        case .probing: "probing"
        case .resettingRadio: "resettingRadio"
        case .stopped: "stopped"
        case .shutDown: "shutDown"
        }
    }
}
