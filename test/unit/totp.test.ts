/**
 * The TOTP rules with a frozen clock: codes computed by otpauth for chosen instants.
 */
import { Secret, TOTP } from "otpauth";
import { matchTotp, newTotpSeed, otpauthUri } from "../../lib/mfa/totp";

const NOW = Date.UTC(2026, 0, 1, 12, 0, 15);
const STEP = 30_000;

describe("TOTP", () => {
	const seed = newTotpSeed();
	const totp = new TOTP({ secret: Secret.fromBase32(seed), algorithm: "SHA1", digits: 6, period: 30 });
	const counterNow = Math.floor(NOW / STEP);
	const codeAt = (steps: number) => totp.generate({ timestamp: NOW + steps * STEP });

	it("should make 160-bit base32 seeds, a new one each time", () => {
		expect(seed).toMatch(/^[A-Z2-7]{32}$/);
		expect(newTotpSeed()).not.toBe(seed);
	});

	it("should accept the current code and answer its time step", () => {
		expect(matchTotp(seed, codeAt(0), NOW, -1)).toBe(counterNow);
	});

	it.each([-1, 1])("should accept a code one step off (%i) and answer that step", steps => {
		expect(matchTotp(seed, codeAt(steps), NOW, -1)).toBe(counterNow + steps);
	});

	it.each([-2, 2, 10])("should refuse a code %i steps off", steps => {
		expect(matchTotp(seed, codeAt(steps), NOW, -1)).toBeNull();
	});

	it("should refuse a code of a step already spent, or of an earlier one", () => {
		expect(matchTotp(seed, codeAt(0), NOW, counterNow)).toBeNull();
		expect(matchTotp(seed, codeAt(-1), NOW, counterNow)).toBeNull();
		// The next step's code is still good after the current one was spent.
		expect(matchTotp(seed, codeAt(1), NOW, counterNow)).toBe(counterNow + 1);
	});

	it.each(["", "12345", "1234567", "12345a", " 123456", "１２３４５６"])("should refuse the malformed code %p", code => {
		expect(matchTotp(seed, code, NOW, -1)).toBeNull();
	});

	it("should refuse another seed's code", () => {
		const other = new TOTP({ secret: Secret.fromBase32(newTotpSeed()) }).generate({ timestamp: NOW });
		// One in a million: a collision would be the other seed's code matching by chance.
		if (other !== codeAt(0) && other !== codeAt(1) && other !== codeAt(-1)) expect(matchTotp(seed, other, NOW, -1)).toBeNull();
	});

	it("should describe the factor for authenticator apps in an otpauth URI", () => {
		const uri = new URL(otpauthUri(seed, "Acme", "ada@example.com"));
		expect(uri.protocol).toBe("otpauth:");
		expect(uri.host).toBe("totp");
		expect(decodeURIComponent(uri.pathname)).toBe("/Acme:ada@example.com");
		expect(Object.fromEntries(uri.searchParams)).toEqual({ issuer: "Acme", secret: seed, algorithm: "SHA1", digits: "6", period: "30" });
	});
});
