/// Metadata keys of the simulator's log lines, the one place they are named.
enum SimulatorLog {
    static let modem = "smsgw.modem"
    static let directory = "smsgw.sim.directory"
    static let modems = "smsgw.sim.modems"
    static let cms = "smsgw.sim.cms"
    static let to = "smsgw.sim.to"
    static let line = "smsgw.sim.line"
    static let command = "smsgw.sim.command"
    static let pty = "smsgw.sim.pty"
    static let pdu = "smsgw.sim.pdu"
    static let error = "smsgw.sim.error"
    static let attemptsLeft = "smsgw.sim.attempts-left"
}
