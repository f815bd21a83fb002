// A vendored script imported for its side effect only (pages.tsconfig.json maps it here): it exports nothing.
export {};
