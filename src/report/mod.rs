//! Renderers: each formats findings; none decides anything.
