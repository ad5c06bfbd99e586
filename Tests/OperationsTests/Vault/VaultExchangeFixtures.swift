/// Export files as Bitwarden and KeePassXC write them (their documented fields and quoting),
/// with empty and Unicode fields, entries that are not logins, and entries without a password.
enum VaultExchangeFixtures {
    /// Bitwarden's unencrypted JSON export (web vault, "File format: .json").
    static let bitwarden = #"""
        {
          "encrypted": false,
          "folders": [{ "id": "4c2a8d61-0b7e-4d52-9c61-0f3b2c1d9e10", "name": "Work" }],
          "items": [
            {
              "id": "9b1f3a2e-5c4d-4e6f-8a7b-1c2d3e4f5a6b", "organizationId": null,
              "folderId": "4c2a8d61-0b7e-4d52-9c61-0f3b2c1d9e10", "type": 1, "reprompt": 0, "name": "Mail", "notes": null,
              "favorite": false,
              "login": {
                "fido2Credentials": [], "uris": [{ "match": null, "uri": "https://mail.example.org" }],
                "username": "me@example.org", "password": "m4il-Pass-2024", "totp": null
              },
              "collectionIds": null, "revisionDate": "2024-03-01T10:00:00.000Z",
              "creationDate": "2023-01-01T09:00:00.000Z", "deletedDate": null,
              "passwordHistory": [
                { "lastUsedDate": "2024-02-01T00:00:00.000Z", "password": "m4il-Pass-2023" },
                { "lastUsedDate": "2023-06-01T00:00:00.000Z", "password": "m4il-Pass-2022" }
              ]
            },
            {
              "id": "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d", "organizationId": null, "folderId": null, "type": 1,
              "reprompt": 0, "name": "Žluťoučký kůň 🐎", "notes": "Ünïcödé\nnotes, \"quoted\"", "favorite": true,
              "login": { "uris": [], "username": "", "password": "pässwörd-ü-🔑", "totp": "JBSWY3DPEHPK3PXP" },
              "collectionIds": null, "revisionDate": "2024-04-02T08:30:00.000Z",
              "creationDate": "2024-04-02T08:30:00.000Z", "deletedDate": null, "passwordHistory": null
            },
            {
              "id": "2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e", "organizationId": null, "folderId": null, "type": 2,
              "reprompt": 0, "name": "A secure note", "notes": "not a login", "favorite": false,
              "secureNote": { "type": 0 }, "collectionIds": null, "revisionDate": "2024-04-02T08:30:00.000Z",
              "creationDate": "2024-04-02T08:30:00.000Z", "deletedDate": null
            },
            {
              "id": "3c4d5e6f-7a8b-4c9d-8e1f-2a3b4c5d6e7f", "organizationId": null, "folderId": null, "type": 1,
              "reprompt": 0, "name": "No password", "notes": null, "favorite": false,
              "login": { "uris": null, "username": "someone", "password": null, "totp": null },
              "collectionIds": null, "revisionDate": "2024-04-02T08:30:00.000Z",
              "creationDate": "2024-04-02T08:30:00.000Z", "deletedDate": null
            },
            {
              "id": "4d5e6f7a-8b9c-4d0e-9f2a-3b4c5d6e7f80", "organizationId": null, "folderId": null, "type": 3,
              "reprompt": 0, "name": "A card", "notes": null, "favorite": false,
              "card": { "cardholderName": "M E", "brand": "Visa", "number": "4111111111111111", "expMonth": "1",
                        "expYear": "2030", "code": "123" },
              "collectionIds": null, "revisionDate": "2024-04-02T08:30:00.000Z",
              "creationDate": "2024-04-02T08:30:00.000Z", "deletedDate": null
            }
          ]
        }
        """#

    /// KeePassXC 2.7's CSV export (Database ▸ Export ▸ CSV File).
    static let keepassxc = #"""
        "Group","Title","Username","Password","URL","Notes","TOTP","Icon","Last Modified","Created"
        "Root","Mail","me@example.org","m4il-Pass-2024","https://mail.example.org","","","0","2024-03-01T10:00:00Z","2023-01-01T09:00:00Z"
        "Root/Ünïcödé","Žluťoučký kůň 🐎","","pässwörd-""quoted"",🔑","","multi
        line, ""notes""","otpauth://totp/Example:me?secret=JBSWY3DPEHPK3PXP&period=30&digits=6&issuer=Example","0","2024-04-02T08:30:00Z","2024-04-02T08:30:00Z"
        "Root/Recycle Bin","Old","u","old-pass","","","","43","2024-03-01T10:00:00Z","2023-01-01T09:00:00Z"
        "Root","Empty password","u","","","","","0","2024-03-01T10:00:00Z","2023-01-01T09:00:00Z"

        """#
}
