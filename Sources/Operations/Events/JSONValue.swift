/// A JSON value of any shape: an event's payload as the journal stores it, encodable again
/// through ``OperationsJSON`` (keys sorted).
public enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        // Whole numbers (ids, counts) as integers, so an id reads 42, not 42.0.
        case .number(let number):
            if number.rounded() == number, abs(number) < 9e15 { try container.encode(Int64(number)) } else { try container.encode(number) }
        case .string(let string): try container.encode(string)
        case .array(let array): try container.encode(array)
        case .object(let object): try container.encode(object)
        }
    }

    /// The value under `key` of an object, nil for anything else or a missing key.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// Sets `value` under the object at `path` (keys from the top), creating objects on the way;
    /// a value that is not an object on the path is replaced by one.
    public mutating func set(_ value: JSONValue, at path: [String]) {
        guard let key = path.first else {
            self = value
            return
        }
        var object: [String: JSONValue] = [:]
        if case .object(let existing) = self { object = existing }
        var child = object[key] ?? .null
        child.set(value, at: Array(path.dropFirst()))
        object[key] = child
        self = .object(object)
    }
}
