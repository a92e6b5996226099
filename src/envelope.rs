//! The mail as it moves between the edges (issue 41, layering): where a
//! message came from, a reply to queue, a reply in the outbox. Plain data,
//! shared by the mail (which reads and sends them) and the store (which
//! keeps them), so that neither names the other; the daemon joins them.

/// A reply waiting in (or sent from) the outbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutMail {
    /// Row id.
    pub id: i64,
    /// The stable Message-ID (without angle brackets).
    pub message_id: String,
    /// SMTP envelope sender.
    pub envelope_from: String,
    /// SMTP envelope recipients.
    pub recipients: Vec<String>,
    /// The whole message, RFC 5322: without its picture while one is
    /// `owed`.
    pub raw: Vec<u8>,
    /// Delivery attempts so far.
    pub attempts: u32,
    /// The picture the message is owed (JSON, see
    /// `daemon::referee::Painter`): drawn and attached when it is
    /// sent. Kept once it is sent, in place of the picture: the message as
    /// sent is drawn again from it, the same bytes.
    pub owed: Option<String>,
}

/// A reply to queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewMail {
    /// The stable Message-ID (without angle brackets).
    pub message_id: String,
    /// SMTP envelope sender.
    pub envelope_from: String,
    /// SMTP envelope recipients.
    pub recipients: Vec<String>,
    /// The whole message.
    pub raw: Vec<u8>,
}

/// Where a message came from, for the processed-messages table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// Mailbox name (IMAP folder) or `maildir`.
    pub source: String,
    /// IMAP UIDVALIDITY, if any.
    pub uidvalidity: Option<u32>,
    /// IMAP UID, if any.
    pub uid: Option<u32>,
}
