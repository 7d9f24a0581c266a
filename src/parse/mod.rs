//! `.proto` text -> syntax tree with byte spans. (Owned by the front-end work.)
