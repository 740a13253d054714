/**
 * AES-256-GCM with a key id and associated data.
 */
import { randomBytes } from "node:crypto";
import { SecretBox, SecretBoxError, keyId } from "../../lib/crypto/secretbox";

const AAD = JSON.stringify(["social-refresh-token", "https://accounts.google.com", "subject-1", "user-1"]);
const SECRET = "1//0provider-refresh-token";

function tamper(sealed: string, part: number): string {
	const parts = sealed.split(".");
	const bytes = Buffer.from(parts[part], "base64url");
	bytes[0] ^= 1;
	parts[part] = bytes.toString("base64url");
	return parts.join(".");
}

describe("SecretBox", () => {
	const key = randomBytes(32);
	const box = new SecretBox(key);

	it("should open what it sealed when the key and associated data are the same", () => {
		const sealed = box.seal(SECRET, AAD);

		expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
		expect(sealed.split(".")[1]).toBe(keyId(key));
		expect(sealed).not.toContain(SECRET);
		expect(box.open(sealed, AAD)).toBe(SECRET);
	});

	it("should use a fresh 96-bit IV for every value when the same secret is sealed twice", () => {
		const a = box.seal(SECRET, AAD).split(".");
		const b = box.seal(SECRET, AAD).split(".");

		expect(Buffer.from(a[2], "base64url")).toHaveLength(12);
		expect(a[2]).not.toBe(b[2]);
		expect(a[3]).not.toBe(b[3]);
	});

	it("should refuse to open under another key, even when the value is relabelled with that key's id", () => {
		const sealed = box.seal(SECRET, AAD);
		const other = new SecretBox(randomBytes(32));
		const forged = [sealed.split(".")[0], other.currentKid, ...sealed.split(".").slice(2)].join(".");

		expect(() => other.open(sealed, AAD)).toThrow(SecretBoxError);
		expect(() => other.open(forged, AAD)).toThrow("does not open");
	});

	it("should refuse to open when the associated data differs", () => {
		const sealed = box.seal(SECRET, AAD);

		expect(() => box.open(sealed, AAD.replace("user-1", "user-2"))).toThrow("does not open");
		expect(() => box.open(sealed, "")).toThrow(SecretBoxError);
	});

	it.each([
		["the IV", 2],
		["the ciphertext", 3],
		["the tag", 4]
	])("should refuse to open when %s was altered", (_label, part) => {
		expect(() => box.open(tamper(box.seal(SECRET, AAD), part), AAD)).toThrow(SecretBoxError);
	});

	it.each([
		["not a sealed value", "plaintext"],
		["another version", box.seal(SECRET, AAD).replace(/^v1/, "v2")],
		["a truncated tag", box.seal(SECRET, AAD).slice(0, -4)],
		["a missing part", box.seal(SECRET, AAD).split(".").slice(0, 4).join(".")]
	])("should refuse to open %s", (_label, value) => {
		expect(() => box.open(value, AAD)).toThrow(SecretBoxError);
	});

	it("should open values of an earlier key while it is configured, seal under the new one, and report them stale", () => {
		const oldSealed = box.seal(SECRET, AAD);
		const rotated = new SecretBox(randomBytes(32), [key]);

		expect(rotated.open(oldSealed, AAD)).toBe(SECRET);
		expect(rotated.isStale(oldSealed)).toBe(true);
		const resealed = rotated.seal(SECRET, AAD);
		expect(rotated.isStale(resealed)).toBe(false);
		expect(resealed.split(".")[1]).toBe(rotated.currentKid);
		expect(() => box.open(resealed, AAD)).toThrow("not configured");
	});

	it("should refuse values of a retired key when it is no longer configured", () => {
		const oldSealed = box.seal(SECRET, AAD);

		expect(() => new SecretBox(randomBytes(32)).open(oldSealed, AAD)).toThrow("not configured");
	});

	it("should reject keys that are not 32 bytes when it is created", () => {
		expect(() => new SecretBox(randomBytes(16))).toThrow("32 bytes");
		expect(() => new SecretBox(key, [randomBytes(31)])).toThrow("32 bytes");
	});
});
