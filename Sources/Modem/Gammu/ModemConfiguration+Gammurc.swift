import CGammu
public import Foundation

extension ModemConfiguration {
    /// Loads a modem from a section of an existing gammurc file, with libgammu's own parser
    /// (`GSM_FindGammuRC` + `GSM_ReadConfig`), so every gammu option there (features, CNMI
    /// parameters, `model`, `use_locking`) applies exactly as in `gammu` and `gammu-smsd`.
    ///
    /// The device, connection and model are copied out for logs and status; at connect time the
    /// file is read again by libgammu. The PIN comes from `pin`, else from the file's `[smsd]`
    /// section `PIN` key, as gammu-smsd reads it.
    /// - Parameters:
    ///   - gammurc: The gammurc file.
    ///   - section: 0 for `[gammu]`, N for `[gammuN]`.
    ///   - name: The modem's name for logs; defaults to the device path.
    ///   - pin: The SIM PIN, overriding the file's `[smsd] PIN`.
    /// - Throws: ``ModemError/Code/configuration`` when the file or section cannot be read.
    public static func load(
        gammurc: URL, section: Int = 0, name: String? = nil, pin: String? = nil
    ) throws(ModemError) -> ModemConfiguration {
        let path = gammurc.path
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw ModemError(
                .configuration, "The gammurc file \(path) does not exist or cannot be read. Check the path in the modem configuration.")
        }
        guard let machine = GSM_AllocStateMachine() else {
            throw ModemError(.modemFailure, "libgammu could not allocate a state machine; the process is out of memory.")
        }
        defer { GSM_FreeStateMachine(machine) }
        let result = smsgw_configure_from_gammurc(machine, path, Int32(section))
        guard result == ERR_NONE, let config = GSM_GetConfig(machine, 0) else {
            let sectionName = section == 0 ? "[gammu]" : "[gammu\(section)]"
            throw ModemError(
                .configuration,
                "The gammurc file \(path) has no usable \(sectionName) section. Add one with at least device and connection.",
                gammuError: GSM_ErrorName(result).map { String(cString: $0) }
            )
        }
        let device = config.pointee.Device.map { String(cString: $0) } ?? ""
        let connection = config.pointee.Connection.map { String(cString: $0) } ?? "at"
        let model = withUnsafeBytes(of: &config.pointee.Model) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        var filePIN: String?
        if pin == nil, let value = smsgw_gammurc_value(path, "smsd", "PIN") {
            filePIN = String(cString: value)
            free(value)
        }
        var configuration = ModemConfiguration(
            name: name ?? device, device: device, connection: connection, model: model, pin: pin ?? filePIN
        )
        configuration.source = .gammurc(path: path, section: section)
        return configuration
    }
}
