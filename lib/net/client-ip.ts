/**
 * The client's address as the gateway should count it. X-Forwarded-For is written by
 * whoever sends the request, so it is read only when the direct peer is a proxy this
 * deployment trusts (TRUSTED_PROXIES), and then from the right: every trusted proxy
 * appends the address it saw, so the right-most address that is not a trusted proxy
 * is the last one a trusted party vouches for. Anything further left is the client's
 * own claim.
 */
import { BlockList, isIP } from "node:net";

export interface AddressRange {
	address: string;
	/** Prefix length; a single address has the family's full length. */
	prefix: number;
	family: "ipv4" | "ipv6";
}

/** "10.0.0.0/8", "192.0.2.7", "fd00::/8" or "::1"; null when the entry is none of these. */
export function parseAddressRange(entry: string): AddressRange | null {
	const [address, prefixText, ...rest] = entry.trim().split("/");
	if (rest.length > 0) return null;
	const version = isIP(address);
	if (version === 0 || address.includes("%")) return null;
	const max = version === 4 ? 32 : 128;
	if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
	const prefix = prefixText === undefined ? max : Number(prefixText);
	if (prefix > max) return null;
	return { address, prefix, family: version === 4 ? "ipv4" : "ipv6" };
}

const MAPPED_V4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** One textual form per address: IPv4-mapped IPv6 (how dual-stack sockets report IPv4) becomes IPv4. */
function normalize(raw: string): string | null {
	let s = raw.trim();
	// Some proxies add the port: "192.0.2.7:5123" or "[2001:db8::1]:443".
	const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(s);
	if (bracketed) s = bracketed[1];
	else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d+$/.test(s)) s = s.slice(0, s.lastIndexOf(":"));
	const mapped = MAPPED_V4.exec(s);
	if (mapped) s = mapped[1];
	const version = isIP(s);
	if (version === 0) return null;
	return version === 6 ? s.toLowerCase() : s;
}

export class ClientAddresses {
	private readonly trusted: BlockList | null;

	constructor(trustedProxies: readonly string[]) {
		if (trustedProxies.length === 0) {
			this.trusted = null;
			return;
		}
		this.trusted = new BlockList();
		for (const entry of trustedProxies) {
			const range = parseAddressRange(entry);
			if (!range) throw new Error(`Not an address or CIDR range: "${entry}"`);
			this.trusted.addSubnet(range.address, range.prefix, range.family);
		}
	}

	private isTrusted(address: string): boolean {
		return this.trusted !== null && this.trusted.check(address, isIP(address) === 4 ? "ipv4" : "ipv6");
	}

	/**
	 * The socket's peer, or, when that peer is a trusted proxy, the right-most address in
	 * X-Forwarded-For that is not one. A malformed entry ends the walk at the last address
	 * a trusted proxy vouched for.
	 */
	of(peer: string | undefined, forwardedFor: string | string[] | undefined): string {
		let client = normalize(peer ?? "");
		if (client === null) return "unknown";
		if (!this.isTrusted(client) || forwardedFor === undefined) return client;
		const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor).split(",").reverse();
		for (const hop of hops) {
			const address = normalize(hop);
			if (address === null) break;
			client = address;
			if (!this.isTrusted(address)) break;
		}
		return client;
	}
}

/** The eight 16-bit groups of a valid IPv6 address, "::" and a dotted IPv4 tail expanded. */
function ipv6Groups(address: string): number[] {
	let s = address;
	const tail = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
	if (tail) {
		const [a, b, c, d] = tail.slice(1).map(Number);
		s = `${s.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
	}
	const [head, rest] = s.split("::");
	const left = head ? head.split(":") : [];
	const right = rest ? rest.split(":") : [];
	const groups = rest === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
	return groups.map(g => parseInt(g, 16));
}

/**
 * What one client is counted as. One IPv6 host usually holds a whole /64, so counting
 * single IPv6 addresses would hand it 2^64 budgets.
 */
export function rateLimitSubject(address: string): string {
	if (isIP(address) !== 6) return address;
	return `${ipv6Groups(address).slice(0, 4).map(g => g.toString(16)).join(":")}::/64`;
}
