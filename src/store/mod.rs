//! SQLite storage: games, the turn log, processed messages, the outbox and
//! timers. Every message's effects commit in one transaction.
