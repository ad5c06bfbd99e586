// The JSON form of the chains, with the fields added after version 1 optional so a state written
// before them still loads: a missing reference floor is 0, and a fresh table written as the
// 64-entry ring `recent` becomes the values of its newest 64 references.

extension SkippedKey: Codable {
    private enum CodingKeys: String, CodingKey { case position, key, storedAt, referenceFloor }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        position = try container.decode(UInt32.self, forKey: .position)
        key = try container.decode(KeyBytes.self, forKey: .key)
        storedAt = try container.decode(Int64.self, forKey: .storedAt)
        referenceFloor = try container.decodeIfPresent(UInt32.self, forKey: .referenceFloor) ?? 0
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(position, forKey: .position)
        try container.encode(key, forKey: .key)
        try container.encode(storedAt, forKey: .storedAt)
        try container.encode(referenceFloor, forKey: .referenceFloor)
    }
}

extension ReceiveChain: Codable {
    private enum CodingKeys: String, CodingKey { case chainKey, position, skipped, referenceFloor }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        chainKey = try container.decode(KeyBytes.self, forKey: .chainKey)
        position = try container.decode(UInt32.self, forKey: .position)
        skipped = try container.decode([SkippedKey].self, forKey: .skipped)
        referenceFloor = try container.decodeIfPresent(UInt32.self, forKey: .referenceFloor) ?? 0
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(chainKey, forKey: .chainKey)
        try container.encode(position, forKey: .position)
        try container.encode(skipped, forKey: .skipped)
        try container.encode(referenceFloor, forKey: .referenceFloor)
    }
}

extension FreshTable: Codable {
    private enum CodingKeys: String, CodingKey { case initial, first, values, count, recent }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        initial = try container.decode(UInt64.self, forKey: .initial)
        count = try container.decode(UInt32.self, forKey: .count)
        if let ring = try container.decodeIfPresent([UInt64].self, forKey: .recent) {
            // Version 1's ring: position p at index p mod 64, the newest 64 positions.
            let span = UInt32(ProtocolConstants.referenceSpan)
            guard ring.count == Int(span) else {
                throw DecodingError.dataCorruptedError(forKey: .recent, in: container, debugDescription: "the ring holds 64 values")
            }
            first = count > span ? count - span + 1 : 1
            values = count == 0 ? [] : (first...count).map { ring[Int(($0 - 1) % span)] }
        } else {
            first = try container.decode(UInt32.self, forKey: .first)
            values = try container.decode([UInt64].self, forKey: .values)
        }
        guard first >= 1, values.count <= ProtocolConstants.freshRetention,
            UInt64(first) + UInt64(values.count) == UInt64(count) + 1
        else {
            throw DecodingError.dataCorruptedError(forKey: .values, in: container, debugDescription: "inconsistent fresh values")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(initial, forKey: .initial)
        try container.encode(first, forKey: .first)
        try container.encode(values, forKey: .values)
        try container.encode(count, forKey: .count)
    }
}
