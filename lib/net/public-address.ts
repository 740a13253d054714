/**
 * Outbound requests to addresses that users choose (push subscription endpoints,
 * webhook URLs) must reach the public internet only: never loopback, private,
 * link-local (cloud metadata), carrier-grade NAT, multicast or other special-purpose
 * ranges. The check runs when such a URL is registered (publicHostProblem) and again
 * on every address a name resolves to, at connect time, so a name that resolves
 * differently later (DNS rebinding) is caught too. `localhost` and the names under it
 * are loopback by definition (RFC 6761 §6.3), whatever the resolver says: some do not
 * resolve `localhost.` at all, which would otherwise read as a passing DNS failure.
 */
import dns, { type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";

const NON_PUBLIC = new BlockList();
for (const [net, prefix] of [
	["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12],
	["192.0.0.0", 24], ["192.0.2.0", 24], ["192.88.99.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15],
	["198.51.100.0", 24], ["203.0.113.0", 24], ["224.0.0.0", 4], ["240.0.0.0", 4]
] as const) NON_PUBLIC.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
	["::", 128], ["::1", 128], ["64:ff9b::", 96], ["64:ff9b:1::", 48], ["100::", 64], ["2001::", 23], ["2001:db8::", 32],
	["2002::", 16], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8]
] as const) NON_PUBLIC.addSubnet(net, prefix, "ipv6");

const MAPPED_V4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

export function isPublicAddress(address: string): boolean {
	const mapped = MAPPED_V4.exec(address);
	const a = mapped ? mapped[1] : address;
	const family = isIP(a);
	if (family === 0) return false;
	return !NON_PUBLIC.check(a, family === 4 ? "ipv4" : "ipv6");
}

/** `localhost`, `localhost.` and every name under them (RFC 6761 §6.3). */
export function isLoopbackName(host: string): boolean {
	const name = host.toLowerCase().replace(/\.$/, "");
	return name === "localhost" || name.endsWith(".localhost");
}

/**
 * Why a URL's host (`URL.hostname`) may not be registered as a destination, or null
 * when it is an address literal or a name whose every address is public now.
 */
export async function publicHostProblem(hostname: string): Promise<"not-public" | "unresolvable" | null> {
	const host = hostname.replace(/^\[|\]$/g, "");
	if (isLoopbackName(host)) return "not-public";
	let addresses: string[];
	try {
		addresses = isIP(host) ? [host] : (await dns.promises.lookup(host, { all: true })).map(a => a.address);
	} catch {
		return "unresolvable";
	}
	return addresses.length > 0 && addresses.every(isPublicAddress) ? null : "not-public";
}

const notPublic = (hostname: string) => Object.assign(new Error(`${hostname} does not resolve to public addresses only`), { code: "ENOTPUBLIC" });

/** A `lookup` for http(s).request that refuses loopback names and names resolving to any non-public address. */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
	if (isLoopbackName(hostname)) return callback(notPublic(hostname), "", 0);
	dns.lookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
		if (err) return callback(err, "", 0);
		if (addresses.length === 0 || addresses.some(a => !isPublicAddress(a.address))) return callback(notPublic(hostname), "", 0);
		if (options.all) callback(null, addresses);
		else callback(null, addresses[0].address, addresses[0].family);
	});
};
