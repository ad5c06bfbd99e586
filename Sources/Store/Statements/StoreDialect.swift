import Foundation
import Synchronization

/// Where SQLite's and PostgreSQL's SQL cannot share one text, the one place that says how.
///
/// Statements are written once, in SQLite's spelling where a choice is left (`?` and `?1`
/// placeholders); ``text(of:)`` turns that into the backend's, once per statement text.
enum StoreDialect: Sendable {
    case sqlite
    case postgresql

    /// The statement as this backend runs it: unchanged on SQLite; on PostgreSQL with `?`
    /// and `?N` placeholders numbered `$N` (translated once per text, then cached).
    func text(of sql: String) -> String {
        switch self {
        case .sqlite: sql
        case .postgresql:
            Self.translated.withLock { cache in
                if let text = cache[sql] { return text }
                let text = Self.numberingPlaceholders(sql)
                cache[sql] = text
                return text
            }
        }
    }

    /// The clause that locks the rows a `SELECT` read until the transaction ends: nothing on
    /// SQLite, whose write transaction already holds the whole database; `FOR UPDATE` on
    /// PostgreSQL, so that two nodes never act on the same row at once.
    var lockingRows: String {
        switch self {
        case .sqlite: ""
        case .postgresql: " FOR UPDATE"
        }
    }

    /// The clause that locks the rows a `SELECT` read and passes over rows another transaction
    /// holds: nothing on SQLite, whose write transaction already serialises every claim;
    /// `FOR UPDATE SKIP LOCKED` on PostgreSQL, so that nodes claiming outbox rows at once each
    /// take a different row instead of waiting for one another.
    var skippingLockedRows: String {
        switch self {
        case .sqlite: ""
        case .postgresql: " FOR UPDATE SKIP LOCKED"
        }
    }

    /// The condition that `column` holds the next argument as a substring, compared exactly:
    /// SQLite's `instr`, PostgreSQL's `strpos` (not `LIKE`, whose `%` and `_` a ciphertext holds).
    func containing(_ column: String) -> String {
        switch self {
        case .sqlite: "instr(\(column), ?) > 0"
        case .postgresql: "strpos(\(column), ?) > 0"
        }
    }

    /// PostgreSQL texts by their SQLite spelling. The statements are the store's own, so the
    /// cache holds at most one entry per statement in the code.
    private static let translated = Mutex<[String: String]>([:])

    /// `?N` becomes `$N`, and a bare `?` the next number after the largest so far (SQLite's
    /// rule); quoted strings, quoted names and `--` comments are left as they are.
    static func numberingPlaceholders(_ sql: String) -> String {
        var result = ""
        var largest = 0
        var characters = sql.makeIterator()
        var pending = characters.next()
        while let character = pending {
            pending = characters.next()
            switch character {
            case "'", "\"":
                result.append(character)
                while let quoted = pending {
                    result.append(quoted)
                    pending = characters.next()
                    if quoted == character { break }
                }
            case "-" where pending == "-":
                result.append(character)
                while let commented = pending {
                    result.append(commented)
                    pending = characters.next()
                    if commented == "\n" { break }
                }
            case "?":
                var digits = ""
                while let digit = pending, digit.isASCII, digit.isNumber {
                    digits.append(digit)
                    pending = characters.next()
                }
                let number = Int(digits) ?? largest + 1
                largest = max(largest, number)
                result += "$\(number)"
            default:
                result.append(character)
            }
        }
        return result
    }
}
