//! What a lounge message is: see the module docs of [`crate::mail`].
