import GSM7
public import Operations
import SMSCipher

/// The send form: a contact, a text, and a counter the script keeps as the protocol counts
/// (extension characters count two, parts never split one), from tables this page carries.
public enum SendPage {
    /// The form; `text` is what was typed when the server refused it, so nothing typed is lost.
    public static func render(
        contacts: [ContactStatus], viewer: ConsoleViewer, chosen: String? = nil, text: String = "", banners: [Banner] = []
    ) -> HTML {
        let sendable = contacts.filter { !$0.numbers.isEmpty && $0.pairing == .paired }
        let options = sendable.map { contact -> HTML in
            let selected = HTML.when(contact.name.lowercased() == chosen?.lowercased(), " selected")
            return "<option value=\"\(contact.name)\" data-protocol=\"\(contact.protocolVersion)\"\(selected)>\(contact.name)</option>"
        }
        let body: HTML = """
            \(HTML.when(sendable.isEmpty, "<p class=\"none\">No paired contact with a number to send to.</p>"))
            <form class="send" method="post" action="/send">
            \(ConsolePage.csrfField(viewer))
            <label>To <select name="contact" required>\(options)</select></label>
            <label>Text <textarea name="text" rows="5" required data-counter="counter" \(counterTables)>\(text)</textarea></label>
            <output id="counter" class="counter" aria-live="polite">Type a text: up to \(ProtocolConstants.textCapacity) septets in one SMS.</output>
            <button>Send</button>
            </form>
            """
        return ConsolePage.document(title: "Send", viewer: viewer, section: .send, banners: banners, body: body)
    }

    /// The alphabet and limits as attributes: the code points of the GSM 03.38 default alphabet
    /// and of its extension table (the script counts exactly what ``GSM7`` counts), one SMS's
    /// text capacity, a part's, and the most parts a text may take.
    static var counterTables: HTML {
        let basic = GSM7.defaultAlphabet.enumerated().filter { $0.offset != Int(GSM7.escape) }.map { String($0.element.value) }
        let extended = GSM7.extensionCharacters.map { String($0.value) }
        return """
            data-basic="\(basic.joined(separator: ","))" data-extension="\(extended.joined(separator: ","))" \
            data-capacity="\(ProtocolConstants.textCapacity)" data-segment="\(TextPart.segmentCapacity)" data-max-parts="\(Messages.defaultMaxParts)"
            """
    }
}
