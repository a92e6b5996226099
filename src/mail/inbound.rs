//! Raw mail to [`Inbound`]: see the module docs of [`crate::mail`].
