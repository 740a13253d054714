const swc = ["@swc/jest", { jsc: { target: "es2023", parser: { syntax: "typescript" } }, module: { type: "commonjs" } }];

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // jose, oauth2-mock-server and its is-plain-obj ship ESM only; compile them to
  // CommonJS for Jest's module loader.
  transform: { "^.+\\.ts$": swc, "/node_modules/(jose|oauth2-mock-server|is-plain-obj)/.+\\.m?js$": swc },
  transformIgnorePatterns: ["/node_modules/(?!(jose|oauth2-mock-server|is-plain-obj)/)"],
  // The client SDK is ESM for browsers, so its relative imports name the .js they compile to.
  moduleNameMapper: { "^(\\./.*)\\.js$": "$1" },
  testTimeout: 30000,
  verbose: true
};
