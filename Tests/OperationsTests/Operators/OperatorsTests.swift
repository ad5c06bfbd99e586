import Foundation
import OTP
import Operations
import Store
import TestSupport
import Testing

/// The console's operators (``Operators``): accounts, roles, the last-admin rule, and what is
/// stored of a password.
@Suite("Operators")
struct OperatorsTests {
    static let now = Date(timeIntervalSince1970: 1_900_000_000)
    static let password = "correct horse battery"

    @Test("Added operators list by name with their role, never their password")
    func addAndList() throws {
        try TestStore.withAccount { directory, _, store in
            try Operators.add("Zoe", role: .viewer, password: Self.password, by: .commandLine, in: store, now: Self.now)
            try Operators.add("adam", role: .admin, password: Self.password + "!", by: .commandLine, in: store, now: Self.now)
            let listed = try Operators.list(in: store, now: Self.now)
            #expect(listed.map(\.name) == ["adam", "Zoe"])
            #expect(listed.map(\.role) == [.admin, .viewer])
            #expect(listed.allSatisfy { !$0.twoFactor && $0.lockedUntil == nil && $0.lastLoginAt == nil })

            let json = String(decoding: try OperationsJSON.encoder.encode(listed[0]), as: UTF8.self)
            #expect(json.contains("\"lockedUntil\":null") && json.contains("\"role\":\"admin\""))
            #expect(!json.contains(Self.password))
            // Names are unique as the store compares them.
            #expect(throws: StoreError.self) {
                try Operators.add(" ZOE ", role: .admin, password: Self.password, by: .commandLine, in: store, now: Self.now)
            }
            // Nothing of the password is in clear anywhere in the database files.
            for file in try FileManager.default.contentsOfDirectory(atPath: directory.url.path) {
                let data = try Data(contentsOf: directory.url.appendingPathComponent(file))
                #expect(data.range(of: Data(Self.password.utf8)) == nil)
            }
        }
    }

    @Test("Short passwords and passwords holding the name are refused before anything is stored")
    func passwordRules() throws {
        try TestStore.withAccount { _, _, store in
            #expect(throws: OperatorError.weakPassword(.tooShort(length: 5, least: 12))) {
                try Operators.add("eve", role: .viewer, password: "short", by: .commandLine, in: store, now: Self.now)
            }
            #expect(throws: OperatorError.weakPassword(.containsName)) {
                try Operators.add("dispatcher", role: .viewer, password: "Dispatcher2026!", by: .commandLine, in: store, now: Self.now)
            }
            let stored = try Operators.list(in: store, now: Self.now)
            #expect(stored.isEmpty)
        }
    }

    @Test("The last admin can be neither demoted nor removed while others remain")
    func lastAdmin() throws {
        try TestStore.withAccount { _, _, store in
            try Operators.add("root", role: .admin, password: Self.password, by: .commandLine, in: store, now: Self.now)
            try Operators.add("watch", role: .viewer, password: Self.password, by: .commandLine, in: store, now: Self.now)
            #expect(throws: OperatorError.lastAdmin("root")) {
                try Operators.setRole("root", to: .operator, by: .commandLine, in: store, now: Self.now)
            }
            #expect(throws: OperatorError.lastAdmin("root")) { try Operators.remove("root", by: .commandLine, in: store, now: Self.now) }
            #expect(try Operators.setRole("watch", to: .admin, by: .commandLine, in: store, now: Self.now).role == .admin)
            try Operators.setRole("root", to: .operator, by: .commandLine, in: store, now: Self.now)
            #expect(throws: OperatorError.lastAdmin("watch")) { try Operators.remove("watch", by: .commandLine, in: store, now: Self.now) }
            try Operators.remove("root", by: .commandLine, in: store, now: Self.now)
            #expect(throws: OperatorError.notFound("root")) { try Operators.remove("root", by: .commandLine, in: store, now: Self.now) }
            // The only operator left may go: nobody is locked out of anything that still exists.
            try Operators.remove("watch", by: .commandLine, in: store, now: Self.now)
            #expect(try Operators.list(in: store, now: Self.now).isEmpty)
        }
    }

    @Test("Roles allow what the roles below them allow")
    func roles() {
        #expect(OperatorRole.admin.allows(.operator) && OperatorRole.admin.allows(.viewer))
        #expect(OperatorRole.operator.allows(.viewer) && !OperatorRole.operator.allows(.admin))
        #expect(!OperatorRole.viewer.allows(.operator))
    }
}
