import Foundation
import HTTPTypes
import Hummingbird
import Operations
import Store

/// Contacts, the status, resyncs and the health checks.
extension APIHandlers {
    /// Every contact as `contact list --json` prints it.
    func contacts(_ request: Request, _ context: APIContext) async throws -> Response {
        try await authorize(request, context, .read)
        let store = store
        return try json(try await blocking { try Contacts.list(store: store) })
    }

    /// One contact as `contact show --json` prints it.
    func contact(_ request: Request, _ context: APIContext) async throws -> Response {
        try await authorize(request, context, .read)
        let name = try context.parameters.require("name")
        let store = store
        return try json(try await blocking { try Contacts.contact(named: name, store: store) })
    }

    /// Starts a resync over SMS, as `smsgw resync NAME` does; 202 with `resync --json`'s object.
    /// Audited (the token, `resync`, the contact) in its transaction.
    func resync(_ request: Request, _ context: APIContext) async throws -> Response {
        let token = try await authorize(request, context, .admin, audited: .resync)
        let name = try context.parameters.require("name")
        let (store, address) = (store, context.clientAddress)
        let started = try await blocking {
            var rng = SystemRandomNumberGenerator()
            return try Resync.start(with: name, by: .token(token.name), address: address, store: store, now: Date(), using: &rng)
        }
        queued()
        return try json(started, status: .accepted)
    }

    /// `status --json`'s object with the live modems, the daemon's version and uptime; without
    /// paths and error texts for a token without the admin scope (``Operations/GatewayStatus/withoutPaths()``).
    func status(_ request: Request, _ context: APIContext) async throws -> Response {
        let token = try await authorize(request, context, .read)
        let live = live
        let status = try await blocking { try live.read(now: Date()) }
        return try json(APIStatus(status: status.shown(seeingPaths: token.seesPaths), version: version, now: Date()))
    }

    /// 200 while the process answers.
    func liveness(_ request: Request, _ context: APIContext) async throws -> Response {
        try json(["status": "live"])
    }

    /// 200 when the store takes writes and a modem is ready, else 503 with why
    /// (``Operations/GatewayStatus/readiness``).
    func readiness(_ request: Request, _ context: APIContext) async throws -> Response {
        let live = live
        switch try await blocking({ try live.read(now: Date()).readiness }) {
        case .ready(let modems):
            return try json(["status": "ready", "modems": modems.joined(separator: ",")])
        case .notReady(let reason):
            throw Problem(status: .serviceUnavailable, type: "unavailable", detail: reason, headers: [.retryAfter: "5"])
        }
    }
}

/// `GET /v1/status`: the status `smsgw status --json` prints, with `version` and `uptimeSeconds`.
struct APIStatus: Encodable {
    var status: GatewayStatus
    var version: String
    var now: Date

    enum CodingKeys: String, CodingKey { case version, uptimeSeconds }

    func encode(to encoder: any Encoder) throws {
        try status.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        let started = status.daemon?.startedAt ?? now
        try container.encode(Int(now.timeIntervalSince(started)), forKey: .uptimeSeconds)
    }
}
