const swc = ["@swc/jest", { jsc: { target: "es2023", parser: { syntax: "typescript" } }, module: { type: "commonjs" } }];

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // jose ships ESM only; compile it to CommonJS for Jest's module loader.
  transform: { "^.+\\.ts$": swc, "/node_modules/jose/.+\\.js$": swc },
  transformIgnorePatterns: ["/node_modules/(?!jose/)"],
  testTimeout: 30000,
  verbose: true
};
