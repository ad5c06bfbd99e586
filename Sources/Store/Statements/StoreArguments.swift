import Foundation

/// The arguments of one statement, in the order of its placeholders.
///
/// Written as an array literal (`[id.storeString, name, sealed]`), as GRDB's arguments were;
/// nil binds NULL.
struct StoreArguments: ExpressibleByArrayLiteral, Sendable {
    private(set) var values: [StoreValue]

    init(arrayLiteral elements: (any StoreValueConvertible)?...) {
        self.init(elements)
    }

    init(_ elements: [(any StoreValueConvertible)?]) {
        values = elements.map { $0?.storeValue ?? .null }
    }

    init(_ elements: some Sequence<some StoreValueConvertible>) {
        values = elements.map { element in element.storeValue }
    }

    /// Values as a row holds them, bound as they are (a copied row).
    init(values: [StoreValue]) {
        self.values = values
    }

    /// Appends `other`'s values after these.
    mutating func append(contentsOf other: StoreArguments) {
        values += other.values
    }

    static func + (lhs: StoreArguments, rhs: StoreArguments) -> StoreArguments {
        var result = lhs
        result.append(contentsOf: rhs)
        return result
    }

    static func += (lhs: inout StoreArguments, rhs: StoreArguments) {
        lhs.append(contentsOf: rhs)
    }
}
