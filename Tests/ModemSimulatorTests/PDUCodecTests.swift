import Foundation
import GSM7
import SplitMix
import Testing

@testable import ModemSimulator

/// Known-answer and round-trip tests of the PDU codec (3GPP TS 23.040 / 23.038).
@Suite("PDU codec")
struct PDUCodecTests {
    /// Every default-alphabet character but ESC, then every extension character.
    static let everyGSM7Character: String = {
        var scalars = String.UnicodeScalarView()
        for (code, scalar) in GSM7.defaultAlphabet.enumerated() where code != 0x1B {
            scalars.append(scalar)
        }
        for code in GSM7.extensionTable.keys.sorted() {
            scalars.append(GSM7.extensionTable[code]!)
        }
        return String(scalars)
    }()

    @Test("SMS-SUBMIT 'hellohello' decodes and re-encodes bit-exact")
    func hellohelloSubmit() throws {
        let hex = "0011000B916407281553F80000AA0AE8329BFD4697D9EC37"
        let pdu = try SMSPDU.decode(hex: hex, direction: .mobileOriginated)
        #expect(pdu.serviceCentre == nil)
        guard case .submit(let submit) = pdu.tpdu else {
            Issue.record("not a submit")
            return
        }
        #expect(submit.destination == PhoneAddress(kind: .international, value: "46708251358"))
        #expect(submit.validityPeriod == .relative(0xAA))
        #expect(submit.validityPeriod?.relativeSeconds == 4 * 86400)
        #expect(submit.userData.text == "hellohello")
        #expect(submit.statusReportRequest == false)
        #expect(Hex.encode(try pdu.encoded()) == hex)

        let built = SMSSubmit(
            destination: PhoneAddress("+46708251358"), userData: try UserData(text: "hellohello"),
            validityPeriod: .relative(0xAA))
        #expect(Hex.encode([0x00] + (try built.encoded())) == hex)
    }

    /// The widely copied example of this PDU ends its SCTS with 0x08, which TS 23.040 §9.2.3.11
    /// reads as "minus 0 quarters" (the sign is bit 3); 0x80 is the +2 h it meant.
    @Test("SMS-DELIVER 'How are you?' with SMSC and time zone decodes and re-encodes bit-exact")
    func knownDeliver() throws {
        let hex = "07911326040000F0040B911346610089F60000208062917314800CC8F71D14969741F977FD07"
        let pdu = try SMSPDU.decode(hex: hex, direction: .mobileTerminated)
        #expect(pdu.serviceCentre?.description == "+31624000000")
        guard case .deliver(let deliver) = pdu.tpdu else {
            Issue.record("not a deliver")
            return
        }
        #expect(deliver.originator.description == "+31641600986")
        #expect(
            deliver.serviceCentreTimestamp
                == SMSTimestamp(
                    year: 2002, month: 8, day: 26, hour: 19, minute: 37, second: 41, timeZoneQuarters: 8))
        #expect(deliver.userData.text == "How are you?")
        #expect(deliver.moreMessagesToSend == false)
        #expect(Hex.encode(try pdu.encoded()) == hex)
    }

    @Test("Every GSM-7 character, extension characters included, survives SUBMIT and DELIVER")
    func everyCharacterRoundTrip() throws {
        let text = Self.everyGSM7Character
        #expect(try GSM7.septetCount(of: text) == 127 + 2 * GSM7.extensionTable.count)
        let userData = try UserData(text: text)
        #expect(userData.alphabet == .gsm7)
        let submit = SMSSubmit(destination: PhoneAddress("+15550002"), userData: userData, statusReportRequest: true)
        let decoded = try SMSSubmit.decode(try submit.encoded())
        #expect(decoded == submit)
        #expect(decoded.userData.text == text)

        let deliver = SMSDeliver(
            originator: PhoneAddress("+15550001"), userData: userData,
            serviceCentreTimestamp: SMSTimestamp(date: Date(timeIntervalSince1970: 1_700_000_000)))
        let back = try SMSDeliver.decode(try deliver.encoded())
        #expect(back.userData.text == text)
    }

    @Test("A 160-septet message fills exactly 140 octets; 161 septets are refused")
    func fullLength() throws {
        var random = SplitMix64(seed: 160)
        let alphabet = Array(Self.everyGSM7Character.unicodeScalars.prefix(127))
        var text = String.UnicodeScalarView()
        for _ in 0..<160 { text.append(alphabet[Int(random.next() % 127)]) }
        let message = String(text)
        let userData = try UserData(text: message)
        let (udl, octets) = try userData.encoded()
        #expect(udl == 160)
        #expect(octets.count == 140)
        #expect(octets == GSM7.pack(try GSM7.septets(for: message)))
        let deliver = SMSDeliver(
            originator: PhoneAddress("+15550001"), userData: userData,
            serviceCentreTimestamp: SMSTimestamp(year: 2026, month: 1, day: 2, hour: 3, minute: 4, second: 5))
        #expect(try SMSDeliver.decode(try deliver.encoded()).userData.text == message)
        #expect(throws: PDUError.self) { try UserData(text: message + "a") }
        #expect(throws: PDUError.self) { try UserData(text: String(message.dropLast()) + "€") }
    }

    @Test("UCS2 text uses DCS 0x08 and UTF-16 big endian, surrogate pairs included")
    func ucs2() throws {
        let userData = try UserData(text: "Привет 😀")
        #expect(userData.alphabet == .ucs2)
        #expect(Array(userData.content.prefix(4)) == [0x04, 0x1F, 0x04, 0x40])
        #expect(Array(userData.content.suffix(4)) == [0xD8, 0x3D, 0xDE, 0x00])
        let deliver = SMSDeliver(
            originator: PhoneAddress("Alice"), userData: userData,
            serviceCentreTimestamp: SMSTimestamp(year: 2026, month: 11, day: 22, hour: 6, minute: 0, second: 0))
        let octets = try deliver.encoded()
        let back = try SMSDeliver.decode(octets)
        #expect(back.dataCoding.rawValue == 0x08)
        #expect(back.userData.text == "Привет 😀")
        #expect(back.originator == PhoneAddress(kind: .alphanumeric, value: "Alice"))
        #expect(throws: PDUError.self) { try UserData(text: String(repeating: "ж", count: 71)) }
    }

    @Test("Concatenation header with an 8-bit reference puts one fill bit before the text")
    func concatenationEightBit() throws {
        let header = UserDataHeader(concatenation: Concatenation(reference: 0xCC, total: 2, sequence: 1))
        let userData = UserData(alphabet: .gsm7, header: header, content: [0x41])
        let (udl, octets) = try userData.encoded()
        #expect(udl == 8)
        #expect(octets == [0x05, 0x00, 0x03, 0xCC, 0x02, 0x01, 0x82])
        let back = try UserData.decode(length: 8, octets: octets, alphabet: .gsm7, hasHeader: true)
        #expect(back == userData)
        #expect(back.header?.concatenation == Concatenation(reference: 0xCC, total: 2, sequence: 1))
    }

    @Test("Concatenation header with a 16-bit reference needs no fill bits; every character survives")
    func concatenationSixteenBit() throws {
        let concatenation = Concatenation(reference: 0x1234, isSixteenBit: true, total: 3, sequence: 2)
        let header = UserDataHeader(concatenation: concatenation)
        #expect(header.encoded == [0x06, 0x08, 0x04, 0x12, 0x34, 0x03, 0x02])
        let septets = try GSM7.septets(for: String(Self.everyGSM7Character.prefix(150)))
        let userData = UserData(alphabet: .gsm7, header: header, content: Array(septets.prefix(152)))
        let (udl, octets) = try userData.encoded()
        #expect(Int(udl) == 8 + min(152, septets.count))
        #expect(Array(octets.dropFirst(7)) == GSM7.pack(Array(septets.prefix(152))))
        let submit = SMSSubmit(destination: PhoneAddress("+15550002"), userData: userData)
        let back = try SMSSubmit.decode(try submit.encoded())
        #expect(back.userData.header?.concatenation == concatenation)
        #expect(back.userData.content == userData.content)
    }

    @Test("Split text: every fill-bit offset (header lengths 1-7 octets) round-trips")
    func fillBitsForEveryHeaderLength() throws {
        for extra in 0..<7 {
            let header = UserDataHeader(elements: [InformationElement(identifier: 0x70, data: Array(repeating: 0xAB, count: extra))])
            let content = try GSM7.septets(for: "Fill bits {\(extra)} €")
            let userData = UserData(alphabet: .gsm7, header: header, content: content)
            let (udl, octets) = try userData.encoded()
            let back = try UserData.decode(length: Int(udl), octets: octets, alphabet: .gsm7, hasHeader: true)
            #expect(back == userData, "header of \(extra + 3) octets")
        }
    }

    @Test("Network splits long GSM-7 and UCS2 text into concatenated parts without breaking escapes")
    func splitting() throws {
        let gsm = String(repeating: "€", count: 100)
        let parts = try SimulatedNetwork.split(text: gsm, reference: 7)
        #expect(parts.count == 2)
        #expect(parts.allSatisfy { $0.length <= 160 })
        #expect(parts.map { $0.text ?? "" }.joined() == gsm)
        let emoji = String(repeating: "😀", count: 40)
        let ucs = try SimulatedNetwork.split(text: emoji, reference: 8)
        #expect(ucs.count == 2)
        #expect(ucs.map { $0.text ?? "" }.joined() == emoji)
        #expect(ucs[0].header?.concatenation?.total == 2)
    }

    @Test("8-bit data keeps its octets")
    func eightBit() throws {
        let userData = UserData(alphabet: .eightBit, content: Array(0...139).map { UInt8($0) })
        let submit = SMSSubmit(destination: PhoneAddress("15550002"), userData: userData)
        let back = try SMSSubmit.decode(try submit.encoded())
        #expect(back.dataCoding.alphabet == .eightBit)
        #expect(back.userData.content == userData.content)
        #expect(back.destination.kind == .unknown)
    }

    @Test("Addresses: international, national, unknown, alphanumeric, odd digit counts")
    func addresses() throws {
        let cases: [PhoneAddress] = [
            PhoneAddress("+15550001"), PhoneAddress(kind: .national, value: "0301234567"),
            PhoneAddress("123"), PhoneAddress("*100#"), PhoneAddress("Alice"), PhoneAddress("Bank 24"),
        ]
        for address in cases {
            var reader = OctetReader(try address.encodedTP())
            #expect(try PhoneAddress.decodeTP(&reader, field: "test") == address)
        }
        #expect(try PhoneAddress("+15550001").encodedTP() == [0x08, 0x91, 0x51, 0x55, 0x00, 0x10])
        #expect(try PhoneAddress(kind: .national, value: "123").encodedTP() == [0x03, 0xA1, 0x21, 0xF3])
        let alice = try PhoneAddress("Alice").encodedTP()
        #expect(alice[0] == 9)
        #expect(alice[1] == 0xD0)
        #expect(try PhoneAddress("+31624000000").encodedSMSC() == [0x07, 0x91, 0x13, 0x26, 0x04, 0x00, 0x00, 0xF0])
        #expect(SimulatedNetwork.normalise("+15550001") == SimulatedNetwork.normalise("0015550001"))
        #expect(SimulatedNetwork.normalise("15550001") == "15550001")
    }

    @Test("Timestamps: negative time zones and dates round-trip")
    func timestamps() throws {
        let stamp = SMSTimestamp(year: 2026, month: 12, day: 31, hour: 23, minute: 59, second: 58, timeZoneQuarters: -20)
        #expect(stamp.encoded == [0x62, 0x21, 0x13, 0x32, 0x95, 0x85, 0x0A])
        var reader = OctetReader(stamp.encoded)
        #expect(try SMSTimestamp.decode(&reader, field: "t") == stamp)
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(SMSTimestamp(date: date, timeZoneQuarters: 4).date == date)
    }

    @Test("Validity period: relative, absolute and enhanced formats round-trip")
    func validityPeriods() throws {
        let absolute = SMSTimestamp(year: 2027, month: 1, day: 1, hour: 0, minute: 0, second: 0, timeZoneQuarters: 4)
        for period in [ValidityPeriod.relative(0), .relative(255), .absolute(absolute), .enhanced([0x01, 0x02, 0, 0, 0, 0, 0])] {
            let submit = SMSSubmit(destination: PhoneAddress("+15550002"), userData: try UserData(text: "vp"), validityPeriod: period)
            #expect(try SMSSubmit.decode(try submit.encoded()).validityPeriod == period)
        }
        #expect(ValidityPeriod.relative(0).relativeSeconds == 300)
        #expect(ValidityPeriod.relative(143).relativeSeconds == 12 * 3600)
        #expect(ValidityPeriod.relative(167).relativeSeconds == 24 * 3600)
        #expect(ValidityPeriod.relative(168).relativeSeconds == 2 * 86400)
        #expect(ValidityPeriod.relative(197).relativeSeconds == 5 * 7 * 86400)
    }

    @Test("SMS-STATUS-REPORT encodes the message reference, recipient and status")
    func statusReport() throws {
        let scts = SMSTimestamp(year: 2026, month: 11, day: 22, hour: 6, minute: 13, second: 32)
        let report = SMSStatusReport(
            messageReference: 2, recipient: PhoneAddress("+15550002"), serviceCentreTimestamp: scts,
            dischargeTime: scts, status: SMSStatusReport.Status.delivered)
        let hex = Hex.encode(try report.encoded())
        #expect(hex == "0602089151550020621122603123006211226031230000")
        let back = try SMSStatusReport.decode(try Hex.decode(hex))
        #expect(back == report)
        #expect(back.isDelivered)
        var failed = report
        failed.status = SMSStatusReport.Status.notObtainable
        #expect(try SMSStatusReport.decode(try failed.encoded()).isPermanentFailure)
    }

    @Test("Truncated or malformed PDUs throw PDUError and never trap")
    func malformed() throws {
        let hex = "07911326040000F0040B911346610089F60000208062917314080CC8F71D14969741F977FD07"
        let octets = try Hex.decode(hex)
        for length in 0..<octets.count - 1 {
            #expect(throws: PDUError.self) {
                try SMSPDU.decode(Array(octets.prefix(length)), direction: .mobileTerminated)
            }
        }
        #expect(throws: PDUError.self) { try Hex.decode("ABC") }
        #expect(throws: PDUError.self) { try Hex.decode("ZZ") }
        var random = SplitMix64(seed: 42)
        for _ in 0..<2000 {
            let garbage = (0..<Int(random.next() % 60)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            _ = try? SMSPDU.decode(garbage, direction: .mobileTerminated)
            _ = try? SMSPDU.decode(garbage, direction: .mobileOriginated)
        }
    }
}
