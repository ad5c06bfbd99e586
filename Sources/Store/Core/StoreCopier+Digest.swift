import Crypto
import Foundation

extension StoreCopier {
    /// A digest of every row of `table`, whatever the order the backend reads them in: SHA-256
    /// over the sorted SHA-256s of the rows, each value hashed with its kind and length. Two
    /// tables with the same rows have the same digest on either backend (the values read alike).
    static func digest(of table: Table, batchSize: Int, _ db: StoreDatabase) throws -> Data {
        var hashes: [Data] = []
        var position = Position()
        while true {
            let rows = try rows(of: table, after: position, limit: batchSize, db)
            guard !rows.isEmpty else { break }
            hashes += rows.map { Data(SHA256.hash(data: encoded($0.values))) }
            position = table.position(after: rows, from: position)
        }
        var all = SHA256()
        for hash in hashes.sorted(by: { $0.lexicographicallyPrecedes($1) }) { all.update(data: hash) }
        return Data(all.finalize())
    }

    /// One row's values, each as a kind byte, a length and its bytes.
    private static func encoded(_ values: [StoreValue]) -> Data {
        var data = Data()
        func append(_ kind: UInt8, _ bytes: some Collection<UInt8>) {
            data.append(kind)
            withUnsafeBytes(of: UInt64(bytes.count).bigEndian) { data.append(contentsOf: $0) }
            data.append(contentsOf: bytes)
        }
        for value in values {
            switch value {
            case .null: append(0, [])
            case .integer(let integer): withUnsafeBytes(of: integer.bigEndian) { append(1, $0) }
            case .real(let real): withUnsafeBytes(of: real.bitPattern.bigEndian) { append(2, $0) }
            case .text(let text): append(3, Array(text.utf8))
            case .blob(let blob): append(4, blob)
            }
        }
        return data
    }
}
