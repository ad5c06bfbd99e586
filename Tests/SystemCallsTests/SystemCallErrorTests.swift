import Failures
import Foundation
import Glibc
import TestSupport
import Testing

@testable import SystemCalls

/// errno becomes a sentence that names the call and the path, with a category a front end maps.
@Suite("errno sentences")
struct SystemCallErrorTests {
    @Test func theSentenceNamesTheCallThePathTheReasonAndWhatToDo() {
        let error = SystemCallError(call: "open", path: "/srv/smsgw/smsgw.unlock.lock", code: EACCES)
        #expect(
            error.description
                == "open /srv/smsgw/smsgw.unlock.lock failed: Permission denied (errno 13); check the owner and permissions of the path and of its directory."
        )
        #expect(error.category == .configuration)
    }

    @Test func aCallOnNoPathIsNamedAlone() {
        let error = SystemCallError(call: "pipe2", code: EMFILE)
        #expect(error.description.hasPrefix("pipe2 failed: Too many open files (errno 24); "))
        #expect(error.description.contains("ulimit -n"))
        #expect(error.category == .unavailable)
    }

    @Test(arguments: [
        (ENOENT, ErrorCategory.notFound), (EEXIST, .conflict), (EADDRINUSE, .conflict), (EAGAIN, .busy),
        (EBUSY, .busy), (EPERM, .configuration), (ELOOP, .configuration), (EROFS, .configuration),
        (ENOSPC, .storage), (EIO, .storage), (ECONNREFUSED, .unavailable), (ENXIO, .unavailable),
    ])
    func eachErrnoHasItsCategoryAndAOneSentenceAdvice(code: Int32, category: ErrorCategory) {
        let error = SystemCallError(call: "open", path: "/x", code: code)
        #expect(error.category == category)
        #expect(error.description.hasSuffix("."))
        #expect(!error.description.dropLast().contains("."), "one sentence: \(error.description)")
        #expect(!error.description.contains("smsgw "), "no front-end command: \(error.description)")
    }

    @Test func aMissingFileIsNotFound() throws {
        let scratch = TemporaryDirectory(prefix: "syscalls")
        let path = scratch.file("missing")
        #expect {
            _ = try FileDescriptor.open(path, O_RDONLY)
        } throws: { error in
            guard let error = error as? SystemCallError else { return false }
            return error.call == "open" && error.path == path && error.code == ENOENT && error.category == .notFound
                && error.description.contains(path)
        }
    }

    @Test func aSymbolicLinkIsRefusedWithELOOP() throws {
        let scratch = TemporaryDirectory(prefix: "syscalls")
        let link = scratch.file("lock")
        try FileSystem.symbolicLink(at: link, to: scratch.file("elsewhere"))
        #expect(throws: SystemCallError(call: "open", path: link, code: ELOOP)) {
            _ = try FileDescriptor.open(link, O_RDWR | O_CREAT | O_NOFOLLOW)
        }
        #expect(try FileSystem.status(of: link, followingLinks: false).map { $0.st_mode & S_IFMT } == S_IFLNK)
        #expect(try FileSystem.status(of: link) == nil)  // the link's target does not exist
    }

    @Test func anExistingNameIsAConflictForLinkAndExclusiveCreate() throws {
        let scratch = TemporaryDirectory(prefix: "syscalls")
        let first = scratch.file("first")
        let second = scratch.file("second")
        _ = try FileDescriptor.open(first, O_WRONLY | O_CREAT | O_EXCL)
        _ = try FileDescriptor.open(second, O_WRONLY | O_CREAT | O_EXCL)
        #expect(throws: SystemCallError(call: "open", path: first, code: EEXIST)) {
            _ = try FileDescriptor.open(first, O_WRONLY | O_CREAT | O_EXCL)
        }
        #expect(throws: SystemCallError(call: "link", path: second, code: EEXIST)) {
            try FileSystem.link(first, to: second)
        }
    }

    @Test func aSocketPathTooLongForAnAddressSaysSo() {
        let path = "/tmp/" + String(repeating: "s", count: 120)
        #expect(throws: SystemCallError(call: "bind", path: path, code: ENAMETOOLONG)) {
            _ = try UnixSocket.listen(at: path)
        }
    }

    @Test func nothingListeningIsUnavailableOrNotFound() throws {
        let scratch = TemporaryDirectory(prefix: "syscalls")
        let path = scratch.file("nobody.sock")
        #expect {
            _ = try UnixSocket.connect(to: path)
        } throws: { error in
            (error as? SystemCallError)?.call == "connect" && (error as? SystemCallError)?.code == ENOENT
        }
    }
}
