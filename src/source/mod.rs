//! Where schemas come from: a git revision, the index, the working tree, a directory.
