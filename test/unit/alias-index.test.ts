/**
 * The gateway's alias index (services/api-gateway/alias-index.ts) must answer every
 * request exactly as moleculer-web's own resolveAlias loop does: the same alias with
 * the same parameters, or none. Checked on the gateway's real routes in a real
 * moleculer-web service, for a URL made from every alias and for URLs near them.
 */
import { ServiceBroker, type ServiceSchema } from "moleculer";
import ApiGateway from "moleculer-web";
import { AliasIndex, aliasShape, describeOnce, matchAlias, urlShape, type IndexedAlias } from "../../services/api-gateway/alias-index";
import { buildRoutes, ROUTES } from "../../services/api-gateway/routes";

type Resolve = (url: string, method?: string) => false | { alias: IndexedAlias; params: Record<string, unknown> };

const METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "BREW"];

/** A URL from an alias's path: each parameter given a value. */
/** A resolution, or the error it threw (a malformed %-escape in a parameter throws in both). */
function outcome(fn: () => ReturnType<Resolve>): ReturnType<Resolve> | { threw: string } {
	try {
		return fn();
	} catch (err) {
		return { threw: String(err) };
	}
}

function urlOf(fullPath: string, value: string): string {
	return fullPath.replace(/:[A-Za-z0-9_]+/g, value);
}

describe("the gateway's alias index", () => {
	let broker: ServiceBroker;
	let aliases: IndexedAlias[];
	let original: Resolve;

	beforeAll(async () => {
		broker = new ServiceBroker({ logger: false });
		const gateway = broker.createService({
			name: "api",
			mixins: [ApiGateway as unknown as Partial<ServiceSchema>],
			settings: { server: false, routes: buildRoutes(ROUTES) }
		}) as unknown as { aliases: IndexedAlias[]; resolveAlias: Resolve };
		await broker.start();
		aliases = gateway.aliases;
		original = gateway.resolveAlias.bind(gateway);
	});

	afterAll(() => broker.stop());

	function urls(): string[] {
		const out = new Set<string>(["/", "/x", "/actors", "/actors/", "/unknown/a/b", "//", "/ACTORS/abc", "/actors//preferences"]);
		for (const a of aliases) {
			// Parameters with and without %-escapes, a malformed one among them (refused alike).
			for (const v of ["abc", "a.b", "%7E", "A", "a%20b", "%zz", "caf%C3%A9"]) {
				const u = urlOf(a.fullPath, v);
				out.add(u).add(`${u}/`).add(`${u}/extra`).add(u.toUpperCase()).add(u.slice(0, -1) || "/");
				out.add(u.replace(/^\/[^/]*/, "/other"));
			}
		}
		return [...out];
	}

	it("sees the gateway's sixty-odd aliases", () => {
		expect(aliases.length).toBeGreaterThan(50);
	});

	it("answers every URL and method as moleculer-web's loop does", () => {
		const index = new AliasIndex(aliases);
		let matched = 0;
		let checked = 0;
		let threw = 0;
		for (const url of urls()) {
			for (const method of METHODS) {
				const want = outcome(() => original(url, method));
				const got = outcome(() => index.resolve(url, method));
				checked += 1;
				if (want && "alias" in want) matched += 1;
				if (want && "threw" in want) threw += 1;
				expect({ url, method, got }).toEqual({ url, method, got: want });
			}
		}
		// The sample reaches every alias, and most URLs match nothing.
		expect(matched).toBeGreaterThanOrEqual(aliases.length);
		expect(checked - matched).toBeGreaterThan(matched);
		expect(threw).toBeGreaterThan(0);
	});

	it("keeps aliases of any shape or method in every list they could match", () => {
		// Made as moleculer-web makes them: a pattern, its parameters' names, and a match that decodes them.
		const alias = (method: string, fullPath: string, re: RegExp, names: string[]): IndexedAlias => ({
			method,
			fullPath,
			re,
			keys: names.map(name => ({ name })),
			match(url) {
				const m = re.exec(url);
				return m ? Object.fromEntries(names.map((n, i) => [n, m[i + 1]] as const).filter(([, v]) => v).map(([n, v]) => [n, decodeURIComponent(v!)])) : false;
			}
		});
		const wide: IndexedAlias[] = [
			alias("GET", "/files/:name+", /^\/files\/(.+)$/i, ["name"]),
			alias("*", "/any", /^\/any$/i, []),
			alias("GET", "/:first/x", /^\/([^/]+)\/x$/i, ["first"]),
			alias("GET", "/files/:id", /^\/files\/([^/]+)$/i, ["id"])
		];
		const index = new AliasIndex(wide);
		// The repeated parameter comes first in the order, so it wins over the plain one, as in the loop.
		expect(index.resolve("/files/a", "GET")).toEqual({ alias: wide[0], params: { name: "a" } });
		expect(index.resolve("/files/a/b", "GET")).toEqual({ alias: wide[0], params: { name: "a/b" } });
		expect(index.resolve("/any", "DELETE")).toEqual({ alias: wide[1], params: {} });
		expect(index.resolve("/files/x", "POST")).toBe(false);
		expect(index.resolve("/zzz/x", "GET")).toEqual({ alias: wide[2], params: { first: "zzz" } });
		// Decoded only where there is something to decode, as moleculer-web's match does.
		expect(index.resolve("/files/a%20b", "GET")).toEqual({ alias: wide[0], params: { name: "a b" } });
		expect(matchAlias(wide[3]!, "/files/plain")).toEqual({ id: "plain" });
	});

	it("reads an alias's shape from its path", () => {
		expect(aliasShape("/actors/:id")).toEqual({ first: "actors", count: 2 });
		expect(aliasShape("/.well-known/jwks.json")).toEqual({ first: ".well-known", count: 2 });
		expect(aliasShape("/:pool/x")).toEqual({ first: undefined, count: 2 });
		expect(aliasShape("/files/:name?")).toEqual({ first: "files", count: undefined });
		expect(urlShape("/Actors/abc/")).toEqual({ first: "actors", count: 2 });
		expect(urlShape("/")).toEqual({ first: "", count: 1 });
	});

	it("makes each alias's description once, the same text moleculer-web makes", () => {
		const texts = aliases.map(a => String(a));
		expect(texts.every(t => t.includes(" => "))).toBe(true);
		describeOnce(aliases);
		const made = jest.spyOn(Object.getPrototypeOf(aliases[0]) as { toString(): string }, "toString");
		try {
			expect(aliases.map(a => String(a))).toEqual(texts);
			describeOnce(aliases);
			expect(aliases.map(a => a.toString())).toEqual(texts);
			expect(made).not.toHaveBeenCalled();
		} finally {
			made.mockRestore();
		}
	});
});
