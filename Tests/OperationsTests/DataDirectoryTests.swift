import Foundation
import Operations
import Testing

/// Where the data lives when nothing names it, in the documented order.
struct DataDirectoryTests {
    @Test func theOptionWinsThenTheVariableThenXDGThenHome() {
        let environment = ["SMSGW_DATA_DIR": "/var/lib/smsgw", "XDG_DATA_HOME": "/home/a/.data", "HOME": "/home/a"]
        #expect(DataDirectory.resolve("/tmp/x", environment: environment).path == "/tmp/x")
        #expect(DataDirectory.resolve(nil, environment: environment).path == "/var/lib/smsgw")
        #expect(DataDirectory.resolve("", environment: environment).path == "/var/lib/smsgw")
        #expect(
            DataDirectory.resolve(nil, environment: ["XDG_DATA_HOME": "/home/a/.data", "HOME": "/home/a"]).path == "/home/a/.data/smsgw")
        #expect(
            DataDirectory.resolve(nil, environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/a"]).path == "/home/a/.local/share/smsgw")
        #expect(DataDirectory.resolve(nil, environment: ["SMSGW_DATA_DIR": "", "HOME": "/home/a"]).path == "/home/a/.local/share/smsgw")
    }
}
