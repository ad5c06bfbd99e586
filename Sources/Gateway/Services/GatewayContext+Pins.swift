import Foundation
import Logging
import Store

extension GatewayContext {
    /// Warns of each contact pinned to a modem that no node has: neither one of this daemon's
    /// nor one any node recorded in the store (another node's modems are known by their status
    /// rows). Any modem sends to such a contact.
    ///
    /// Called once, at the first heartbeat after the start (``NodePresence/takePinCheck()``):
    /// at the start itself a node started just before this one may not have recorded its modems
    /// yet, and its contacts would be warned of for nothing.
    func warnOfUnknownPins() async {
        let known: (contacts: [Contact], recorded: [ModemStatusRecord])
        do {
            known = try await store.read { (try $0.contacts(), try $0.modemStatuses()) }
        } catch {
            logger.debug("Could not look for contacts pinned to unknown modems.", metadata: [GatewayLog.error: "\(error)"])
            return
        }
        let names = Set(links.map(\.name) + known.recorded.map(\.name))
        for contact in known.contacts {
            if let modem = contact.modem, !names.contains(modem) {
                logger.warning(
                    "A contact is pinned to a modem that no node has; any modem sends to it.",
                    metadata: [GatewayLog.contact: "\(contact.name)", GatewayLog.modem: "\(modem)"])
            }
        }
    }
}
