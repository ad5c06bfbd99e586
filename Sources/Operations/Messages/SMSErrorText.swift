import Store

/// The error an outgoing SMS keeps (its outbox row's last error, its message's error), as each
/// reader is shown it: a console viewer and an API token without the admin scope see it as
/// ``shown(_:seeingPaths:)`` gives it, wherever it appears (the message, the log, the live log,
/// the status's queue).
///
/// The gateway writes every such error so that every reader of the message may see it: a send
/// that failed names the modem by its configured name, `(modem "NAME"; …)` (``modemMark``, written
/// by the daemon since it stopped keeping the whole modem error there), also inside a
/// give-up's sentence; the network's delivery report, a peer that never acknowledged and a
/// restore's hold have sentences of their own (``deliveryFailed(status:)``,
/// ``Acknowledgements/unacknowledged(by:sends:)``, ``StoreRestore/heldReason(_:)``). An error of
/// neither form was stored by an earlier release, which kept a failed send's whole modem error: it
/// may name the modem's device path or hold a text of the host, so it is shown whole only to whoever
/// sees paths, to the others as ``earlier``. The form is told when the error is read, so nothing
/// stored is rewritten and operators keep the whole text.
public enum SMSErrorText {
    /// What every error of a failed send carries since the daemon writes it for every reader:
    /// the modem by its configured name.
    public static let modemMark = "(modem \""

    /// What a reader who does not see paths is shown for an error an earlier release stored.
    public static let earlier =
        "The SMS could not be sent; its error was recorded by an earlier release and may name the modem's device, so only operators and admin tokens see it."

    /// The start of ``deliveryFailed(status:)``.
    static let deliveryFailedLead = "The network reported that the SMS could not be delivered (status "

    /// The error of an SMS whose delivery report says the network gave up on it.
    public static func deliveryFailed(status: String) -> String {
        "\(deliveryFailedLead)\(status))."
    }

    /// Whether `text` is in a form the gateway writes for every reader of the message.
    public static func isForEveryReader(_ text: String) -> Bool {
        text.contains(modemMark) || text.hasPrefix(deliveryFailedLead) || Acknowledgements.isUnacknowledged(text)
            || OutboxKind.allCases.contains { StoreRestore.heldReason($0) == text }
    }

    /// The error `text` as a reader shown paths (`seeingPaths`) or not is shown it.
    public static func shown(_ text: String?, seeingPaths: Bool) -> String? {
        guard let text, !seeingPaths, !isForEveryReader(text) else { return text }
        return earlier
    }
}

extension LoggedMessage {
    /// The message as a reader shown paths or not sees it: an outgoing message's error as
    /// ``SMSErrorText/shown(_:seeingPaths:)`` gives it; an incoming message's note, never a
    /// modem's error, as it is.
    public func shown(seeingPaths: Bool) -> LoggedMessage {
        guard direction == .outgoing else { return self }
        var message = self
        message.error = SMSErrorText.shown(error, seeingPaths: seeingPaths)
        return message
    }
}

extension MessageDetail {
    /// The message as a reader shown paths or not sees it (``LoggedMessage/shown(seeingPaths:)``),
    /// its SMS's last error too.
    public func shown(seeingPaths: Bool) -> MessageDetail {
        var detail = self
        detail.history.message = history.message.shown(seeingPaths: seeingPaths)
        detail.lastError = SMSErrorText.shown(lastError, seeingPaths: seeingPaths)
        return detail
    }
}

extension MessagePage {
    /// The page as a reader shown paths or not sees it (``LoggedMessage/shown(seeingPaths:)``).
    public func shown(seeingPaths: Bool) -> MessagePage {
        MessagePage(messages: messages.map { $0.shown(seeingPaths: seeingPaths) }, next: next)
    }
}

extension LogChange {
    /// The change as a reader shown paths or not sees it (``LoggedMessage/shown(seeingPaths:)``).
    public func shown(seeingPaths: Bool) -> LogChange {
        var change = self
        change.message = message.shown(seeingPaths: seeingPaths)
        return change
    }
}
