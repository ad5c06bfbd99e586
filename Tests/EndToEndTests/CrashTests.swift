import Foundation
import SplitMix
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `kill -9` in the middle of `encrypt --lines` never leaves a state that reuses a pad or fails to load.
@Suite("Crash safety", .serialized, .blockingOffPool)
struct CrashTests {
    @Test("kill -9 during encrypt, 20 times; every printed ciphertext still decrypts")
    func killDuringEncrypt() throws {
        try withTemporaryDirectory { root in
            let seed = UInt64.random(in: 0...UInt64.max)
            print("CrashTests seed: \(seed)")
            var rng = SplitMix64(seed: seed)
            let (alice, bob) = try Peer.pairedCouple(in: root)
            var printed: [(text: String, ciphertext: String)] = []

            for iteration in 0..<20 {
                let texts = (0..<300).map { "crash \(iteration) line \($0)" }
                let outURL = root.appendingPathComponent("out-\(iteration)")
                FileManager.default.createFile(atPath: outURL.path, contents: nil)
                let out = try FileHandle(forWritingTo: outURL)
                let input = Pipe()
                let process = try SMSGWBinary.makeProcess(["encrypt", "bob", "--lines"], environment: alice.environment)
                process.standardInput = input
                process.standardOutput = out
                process.standardError = FileHandle.nullDevice
                try process.run()
                try input.fileHandleForWriting.write(contentsOf: Data(texts.map { $0 + "\n" }.joined().utf8))
                // Wait for the first ciphertext (the unlock is done), then kill at a random moment.
                let deadline = Date().addingTimeInterval(20)
                while (try Data(contentsOf: outURL)).isEmpty && Date() < deadline && process.isRunning {
                    usleep(1_000)
                }
                usleep(UInt32.random(in: 0...30_000, using: &rng))
                kill(process.processIdentifier, SIGKILL)
                _ = process.waitForExit()
                try? input.fileHandleForWriting.close()
                try out.close()
                let lines = String(decoding: try Data(contentsOf: outURL), as: UTF8.self).components(separatedBy: "\n")
                // Only complete lines were printed; the last element is "" or a partial line.
                let complete = lines.dropLast().filter { !$0.isEmpty }
                #expect(complete.count >= 1, "iteration \(iteration) printed nothing")
                #expect(complete.count < texts.count, "iteration \(iteration) finished before the kill")
                for (index, ciphertext) in complete.enumerated() {
                    #expect(ciphertext.count == 160)
                    printed.append((texts[index], ciphertext))
                }
            }

            print("CrashTests: \(printed.count) ciphertexts printed across 20 killed runs")
            let final = try alice.encrypt(["after the crashes"], for: bob)
            #expect(Set(printed.map(\.ciphertext)).count == printed.count, "no ciphertext repeats")

            // Bob decrypts everything that was printed, in batches so the window is respected.
            var outcomes: [String] = []
            var stderr = ""
            for start in stride(from: 0, to: printed.count, by: 50) {
                let batch = Array(printed[start..<min(start + 50, printed.count)])
                let result = try bob.decrypt(batch.map(\.ciphertext), from: alice)
                outcomes += result.lines
                stderr += result.stderr
            }
            var opened = 0
            for (index, item) in printed.enumerated() where index < outcomes.count {
                if outcomes[index] == item.text {
                    opened += 1
                } else {
                    // Allowed: authentic but beyond the window; never another text (a reused pad).
                    #expect(outcomes[index] == "", "message \(index) opened as something else")
                }
            }
            #expect(
                stderr.components(separatedBy: "\n").allSatisfy { $0.isEmpty || $0.contains("beyond") || $0.contains("ahead") },
                "only beyond-window reports: \(stderr)")
            #expect(opened == printed.count, "every printed ciphertext opens: \(opened) of \(printed.count)")
            let last = try bob.decrypt(final, from: alice)
            #expect(last.status == 0, "the state survived: \(last.stderr)")
            #expect(last.lines == ["after the crashes"])
        }
    }
}
