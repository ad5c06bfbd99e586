import Foundation

/// A request to the console, as the HTTP front end hands it over: method, path, query, the
/// form fields of a POST, the cookies, the headers the security checks read, and the client's
/// address.
public struct ConsoleRequest: Sendable {
    public var method: String
    /// The path without its query, percent-decoded per segment by ``segments``.
    public var path: String
    public var query: [String: String]
    public var form: [String: String]
    public var cookies: [String: String]
    /// `Origin`, `Sec-Fetch-Site` and `Host`, for the cross-origin check of every POST.
    public var origin: String?
    public var fetchSite: String?
    public var host: String?
    public var address: String?

    public init(
        method: String, path: String, query: [String: String] = [:], form: [String: String] = [:], cookies: [String: String] = [:],
        origin: String? = nil, fetchSite: String? = nil, host: String? = nil, address: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.form = form
        self.cookies = cookies
        self.origin = origin
        self.fetchSite = fetchSite
        self.host = host
        self.address = address
    }

    /// The path's segments, percent-decoded (`/contacts/bob%20smith/resync` → contacts, bob smith, resync).
    public var segments: [String] {
        path.split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) }
    }

    /// The fields of an `application/x-www-form-urlencoded` body (or query string).
    public static func formFields(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ part: Substring) -> String {
                String(part).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            guard let key = parts.first else { continue }
            fields[decode(key)] = parts.count > 1 ? decode(parts[1]) : ""
        }
        return fields
    }

    /// The cookies of a `Cookie` header.
    public static func cookies(_ header: String?) -> [String: String] {
        var cookies: [String: String] = [:]
        for item in (header ?? "").split(separator: ";") {
            let parts = item.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            cookies[parts[0].trimmingCharacters(in: .whitespaces)] = parts[1].trimmingCharacters(in: .whitespaces)
        }
        return cookies
    }
}

/// The console's answer: a status, headers and a body the HTTP front end writes as they are.
public struct ConsoleResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: String

    public init(status: Int, headers: [(name: String, value: String)] = [], body: String = "") {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A header's value, for tests.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}
