/**
 * Which address a request is counted as: the peer, unless the peer is a trusted
 * proxy; then the right-most X-Forwarded-For entry that is not one.
 */
import { ClientAddresses, parseAddressRange, rateLimitSubject } from "../../lib/net/client-ip";

describe("parseAddressRange", () => {
	it.each([
		["10.0.0.0/8", { address: "10.0.0.0", prefix: 8, family: "ipv4" }],
		["192.0.2.7", { address: "192.0.2.7", prefix: 32, family: "ipv4" }],
		["::1", { address: "::1", prefix: 128, family: "ipv6" }],
		["fd00::/8", { address: "fd00::", prefix: 8, family: "ipv6" }]
	])("should read %s", (entry, range) => {
		expect(parseAddressRange(entry)).toEqual(range);
	});

	it.each(["", "proxy.internal", "10.0.0.0/33", "::/129", "10.0.0.0/8/8", "10.0.0.0/x", "300.1.1.1", "fe80::1%eth0"])("should refuse %j", entry => {
		expect(parseAddressRange(entry)).toBeNull();
	});
});

describe("ClientAddresses", () => {
	const direct = new ClientAddresses([]);
	const behindProxy = new ClientAddresses(["127.0.0.1", "10.0.0.0/8", "fd00::/8"]);

	it("should take the peer and ignore X-Forwarded-For when no proxy is trusted", () => {
		expect(direct.of("127.0.0.1", "203.0.113.9")).toBe("127.0.0.1");
	});

	it("should ignore X-Forwarded-For when the peer is not a trusted proxy", () => {
		expect(behindProxy.of("198.51.100.4", "203.0.113.9")).toBe("198.51.100.4");
	});

	it("should take the right-most untrusted address when the peer is a trusted proxy", () => {
		expect(behindProxy.of("127.0.0.1", "1.1.1.1, 203.0.113.9, 10.1.2.3")).toBe("203.0.113.9");
	});

	it("should join repeated X-Forwarded-For headers in order", () => {
		expect(behindProxy.of("127.0.0.1", ["1.1.1.1", "203.0.113.9"])).toBe("203.0.113.9");
	});

	it("should take the left-most address when every hop is trusted", () => {
		expect(behindProxy.of("127.0.0.1", "10.0.0.2, 10.0.0.1")).toBe("10.0.0.2");
	});

	it("should stop at the last trusted hop when an entry is not an address", () => {
		expect(behindProxy.of("127.0.0.1", "203.0.113.9, not-an-ip, 10.0.0.1")).toBe("10.0.0.1");
	});

	it("should take the peer when a trusted proxy sends no X-Forwarded-For", () => {
		expect(behindProxy.of("10.0.0.1", undefined)).toBe("10.0.0.1");
	});

	it("should read IPv4-mapped IPv6 peers as IPv4, and addresses with ports", () => {
		expect(behindProxy.of("::ffff:127.0.0.1", "203.0.113.9:4711")).toBe("203.0.113.9");
		expect(behindProxy.of("fd00::1", "[2001:db8::1]:443")).toBe("2001:db8::1");
	});

	it("should count a request without a peer address under one name", () => {
		expect(direct.of(undefined, "203.0.113.9")).toBe("unknown");
	});
});

describe("rateLimitSubject", () => {
	it("should keep an IPv4 address as it is", () => {
		expect(rateLimitSubject("203.0.113.9")).toBe("203.0.113.9");
	});

	it.each([
		["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
		["2001:db8:1:2::9", "2001:db8:1:2::/64"],
		["2001:db8::", "2001:db8:0:0::/64"],
		["::1", "0:0:0:0::/64"],
		["64:ff9b::192.0.2.1", "64:ff9b:0:0::/64"]
	])("should count %s by its /64", (address, subject) => {
		expect(rateLimitSubject(address)).toBe(subject);
	});
});
